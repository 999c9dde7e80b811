"""``twos-tui server``: run a lobby server, and its operator's commands.

``server`` runs one long-lived process: the lobby and its tables on one port (``wss``
with the certificate made at the first start, as ``host`` serves; ``--cert/--key`` for
a real one, ``--no-tls`` for none), the accounts, ratings, results and tables in the
store (``--db``: SQLite in the data directory by default). It prints where it listens
and its certificate's fingerprint; Ctrl-C (or SIGTERM) stops it cleanly, the tables
saved: the next start reopens them. ``server leaderboard [GAME]``, ``server tables``
and ``server ban NAME`` print from the same store (they may run beside the server).
Bad arguments get one line and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from typing import TYPE_CHECKING

from .cli_common import port_number
from .engine import VARIANT_IDS

if TYPE_CHECKING:
    from .cli_common import Subcommands
    from .play.lobby.server import LobbyServer
    from .play.lobby.store import Store

DEFAULT_PORT = 7417  #: the port ``twos-tui join`` tries when none is given
ACTIONS = ("leaderboard", "tables", "ban")


def _fail(text: str) -> int:
    print(f"twos-tui server: {text}", file=sys.stderr)
    return 2


def _tables(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of tables") from None
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"from 1 to 100000 tables (got {value})")
    return value


def add_server_parser(sub: Subcommands) -> None:
    server = sub.add_parser(
        "server",
        help="run a lobby server: open tables, quick match, ratings",
        description="Run a lobby server: players connect with `twos-tui join HOST[:PORT]` "
        "and find tables, quick matches and leaderboards. The connection is encrypted (TLS) "
        "with a certificate made at the first start. With an action, print from the "
        "server's store instead: `leaderboard [GAME]`, `tables`, `ban NAME`.",
    )
    server.add_argument(
        "action",
        nargs="?",
        choices=ACTIONS,
        help="print the leaderboard, the open tables, or ban a player (no action: run)",
    )
    server.add_argument(
        "target", nargs="?", default=None, help="the game (leaderboard) or the name (ban)"
    )
    server.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDR", help="the address to listen on"
    )
    server.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"0: any free port ({DEFAULT_PORT})"
    )
    server.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the store: a SQLite file (default: lobby.db in the data directory) "
        "or a postgresql:// address",
    )
    server.add_argument(
        "--tables", type=_tables, default=None, metavar="N", help="the most tables at once"
    )
    from .net_cli import add_ssh_arguments

    add_ssh_arguments(server, "land in the lobby (their SSH key is their account)")
    server.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="with a postgresql:// --db shared by several servers: the address the others "
        "send players to, to reach this one (default: --bind and --port)",
    )
    server.add_argument(
        "--cert", default=None, metavar="FILE", help="serve this TLS certificate (PEM)"
    )
    server.add_argument("--key", default=None, metavar="FILE", help="the key of --cert (PEM)")
    server.add_argument(
        "--no-tls",
        action="store_true",
        help="serve plain WebSocket: not encrypted (only behind a TLS proxy)",
    )


def run_server_cli(args: argparse.Namespace) -> int:
    from .play.lobby.store import StoreError, open_store

    problem = _check(args)
    if problem:
        return _fail(problem)
    try:
        store = open_store(args.db)
    except (StoreError, OSError, ValueError) as e:
        return _fail(f"cannot open the store: {e}")
    try:
        if args.action is not None:
            return _admin(args, store)
        return _run(args, store)
    finally:
        store.close()


def _check(args: argparse.Namespace) -> str | None:
    if args.action is None:
        if args.target is not None:
            return f"unknown action {args.target[:40]!r} (choose {', '.join(ACTIONS)})"
        return None
    if args.action == "ban" and not args.target:
        return "server ban needs the NAME to ban"
    if args.action == "tables" and args.target is not None:
        return "server tables takes no argument"
    if args.action == "leaderboard" and args.target not in (None, *VARIANT_IDS):
        return f"unknown game {args.target[:40]!r} (choose {', '.join(VARIANT_IDS)})"
    return None


def _admin(args: argparse.Namespace, store: Store) -> int:
    from .play.lobby import admin

    if args.action == "leaderboard":
        print(admin.leaderboard_text(store, args.target))
    elif args.action == "tables":
        print(admin.tables_text(store))
    else:
        print(admin.ban_text(store, args.target))
    return 0


def _run(args: argparse.Namespace, store: Store) -> int:
    from .net_cli import host_cert_of
    from .play.lobby.server import DEFAULT_MAX_TABLES, LobbyServer

    try:
        cert = host_cert_of(args)
    except (ValueError, OSError) as e:
        return _fail(str(e))
    shared = None
    from .play.lobby.store_pg import PostgresStore

    if isinstance(store, PostgresStore):
        from .play.lobby.shared import Shared

        if args.advertise is None and args.bind in ("0.0.0.0", "::", ""):
            return _fail(
                "with a shared database, say where players reach this server: "
                "--advertise HOST:PORT (it listens on every address)"
            )
        shared = Shared(store, args.advertise)
    elif args.advertise is not None:
        return _fail("--advertise is for a postgresql:// --db shared by several servers")
    from .net_cli import check_ssh_args

    why = check_ssh_args(args)
    if why:
        return _fail(why)
    server = LobbyServer(
        store,
        shared=shared,
        max_tables=args.tables or DEFAULT_MAX_TABLES,
        cert=cert,
        host=args.bind,
        port=args.port,
    )
    if args.ssh is not None:
        from .play.net.ssh_door import SshDoor

        server.doors.append(
            SshDoor(
                args.ssh,
                args.bind,
                authorized_keys=args.authorized_keys,
                per_address=args.ssh_per_address,
                max_connections=args.max_guests,
                lobby=True,
            )
        )
    try:
        return asyncio.run(_serve(server))
    except OSError as e:
        return _fail(f"cannot listen on {args.bind}:{args.port} ({e.strerror or e})")


def announce(server: LobbyServer) -> list[str]:
    from .net_cli import addresses, cert_lines

    bind = server.host
    lines = [f"Lobby server on {bind}:{server.port}"]
    if bind.startswith("127.") or bind in ("localhost", "::1"):
        lines.append("Only this computer can connect (use --bind 0.0.0.0 for your network).")
    for addr in addresses(bind):
        shown = f"[{addr}]" if ":" in addr else addr
        lines.append(f"Players connect with: twos-tui join {shown}:{server.port}")
    lines += cert_lines(server.cert)
    for door in server.doors:
        lines += door.lines(addresses(bind))
    if server.shared is not None:
        lines.append(
            "One lobby with the other servers on this database: they send players here "
            f"at {server.shared.address}."
        )
    reopened = len(server.lobby_tables)
    if reopened:
        lines.append(f"Reopened {reopened} table{'s' if reopened != 1 else ''} from the last run.")
    lines.append("Ctrl-C stops it; the tables are saved and reopen at the next start.")
    return lines


async def _serve(server: LobbyServer) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # (before anything is said: then it holds)
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await server.start()
    for line in announce(server):
        print(line, file=sys.stderr, flush=True)
    try:
        await stop.wait()
    finally:
        kept = sum(1 for t in server.lobby_tables.values() if not t.reported)
        await server.close()
    print(
        f"Stopped. {kept} table{'s' if kept != 1 else ''} saved for the next start.",
        file=sys.stderr,
    )
    return 0
