"""``twos-tui host`` and ``twos-tui join``: play with friends on other computers.

``host`` opens a table that friends join with a code (see ``docs/protocol.md``); with
``--headless`` it only serves (no screen, logs to stderr). ``join HOST[:PORT] CODE``
sits at such a table; ``--bot LEVEL`` plays the seat with the AI to the match's end.
``join HOST[:PORT]`` without a code opens the lobby of a lobby server (``twos-tui
server``) in the app.
The connection is TLS (``wss``, see :mod:`twos_tui.play.net.tls`): the host prints its
certificate's fingerprint, the client pins it on the first join (``join HOST:PORT
--forget`` forgets it); ``host --cert/--key`` serve a real certificate, ``--no-tls`` none.
Bad arguments and unreachable hosts get one line and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .cli_common import port_number
from .engine import VARIANT_IDS

if TYPE_CHECKING:
    from .cli_common import Subcommands
    from .play.net.server import HostedTable, TableServer
    from .play.net.tls import HostCert

DEFAULT_PORT = 7417
KINDS = ("human", "remote", "ai")


def _fail(text: str) -> int:
    print(f"twos-tui: {text}", file=sys.stderr)
    return 2


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"from 0 to 86400 seconds (got {value})")
    return value


def _clock(text: str) -> tuple[float, float] | None:
    from .play.turn_clock import parse_clock

    try:
        return parse_clock(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_net_parsers(sub: Subcommands) -> None:
    from .ai import BASELINES, LEVELS

    host = sub.add_parser(
        "host",
        help="host a table that friends join from their own computers",
        description="Host a table: friends join with `twos-tui join HOST:PORT CODE`. "
        "The connection is encrypted (TLS) with a certificate made at the first start: "
        "friends compare its fingerprint with the one shown here.",
    )
    host.add_argument("variant", choices=VARIANT_IDS, help="the game to play")
    host.add_argument("--players", type=int, default=None, help="seats at the table")
    host.add_argument(
        "--seats",
        default=None,
        metavar="KIND,...",
        help="every seat in order: human (at this screen), remote (a friend) or ai; "
        "default: you and remote seats (all remote with --headless)",
    )
    host.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="the address to listen on (default 127.0.0.1: this computer only; "
        "0.0.0.0 for your network)",
    )
    host.add_argument("--port", type=port_number, default=DEFAULT_PORT, help="0: any free port")
    host.add_argument(
        "--hold", type=_seconds, default=120.0, metavar="S", help="seconds a dropped seat is kept"
    )
    host.add_argument(
        "--clock",
        type=_clock,
        default=None,
        metavar="S+BANK",
        help="a turn clock: S seconds a move, then a bank of BANK seconds for the match "
        "(e.g. 20+120); out of time, the seat passes or the AI moves for it; "
        "off (the default): no clock",
    )
    host.add_argument("--headless", action="store_true", help="serve only: no screen")
    host.add_argument("--name", default=None, help="your name at the table")
    host.add_argument("--level", default="normal", choices=LEVELS + BASELINES, help="AI level")
    host.add_argument(
        "--seed", type=int, default=None, help="a whole number: the same seed, the same deals"
    )
    host.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule, e.g. --option deals_to_win=1 (see the rules in the app's help)",
    )
    host.add_argument(
        "--pause", type=_seconds, default=0.4, metavar="S", help="the AI's pause (headless)"
    )
    host.add_argument(
        "--new",
        action="store_true",
        help="start a new table even when an unfinished hosted one of this game can reopen",
    )
    add_ssh_arguments(host, "type the code")
    host.add_argument(
        "--cert",
        default=None,
        metavar="FILE",
        help="serve this certificate (PEM, e.g. from Let's Encrypt) instead of the one "
        "made here; with --key",
    )
    host.add_argument("--key", default=None, metavar="FILE", help="the key of --cert (PEM)")
    host.add_argument(
        "--no-tls",
        action="store_true",
        help="plain WebSocket, not encrypted (for older versions of twos-tui)",
    )
    host.add_argument(
        "--no-sit",
        action="store_true",
        help="spectators may not take a free seat (by default they may)",
    )

    join = sub.add_parser("join", help="sit at a table hosted on another computer")
    join.add_argument("address", metavar="HOST[:PORT]", help=f"the host (port {DEFAULT_PORT})")
    join.add_argument(
        "code",
        nargs="?",
        default=None,
        help="the join code the host gave you (none: the lobby of a lobby server)",
    )
    join.add_argument("--name", default=None, help="your name at the table")
    join.add_argument(
        "--bot", default=None, metavar="LEVEL", help="play the seat with the AI (no screen)"
    )
    join.add_argument("--guest", action="store_true", help=argparse.SUPPRESS)
    # (the SSH door's lobby, for a guest who came without a key: log in as a guest)
    join.add_argument("--no-key", action="store_true", help=argparse.SUPPRESS)
    join.add_argument(
        "--watch",
        action="store_true",
        help="watch the table: what every player sees, no hand (j takes a free seat)",
    )
    join.add_argument(
        "--forget",
        action="store_true",
        help="forget the certificate pinned for HOST:PORT (after the host made a new one)",
    )


# ----- host --------------------------------------------------------------------------------
def seat_kinds(players: int | None, seats: str | None, headless: bool, default: int) -> list[str]:
    """The kind of every seat from ``--players`` and ``--seats`` (ValueError with the
    reason)."""
    if seats:
        kinds = [k.strip().lower() for k in seats.split(",")]
        for k in kinds:
            if k not in KINDS:
                raise ValueError(f"a seat is human, remote or ai, not {k[:20]!r}")
        if players is not None and players != len(kinds):
            raise ValueError(f"--seats names {len(kinds)} seats but --players is {players}")
    else:
        n = default if players is None else players
        kinds = ["remote"] * n if headless else ["human"] + ["remote"] * (n - 1)
    if headless and "human" in kinds:
        raise ValueError("a headless host has no screen: its seats are remote or ai")
    if "remote" not in kinds:
        raise ValueError("a hosted table needs at least one remote seat")
    return kinds


def build_hosted(args: argparse.Namespace) -> tuple[HostedTable, TableServer, int | None]:
    """The table (new, or the unfinished one this command hosted before: same code,
    same tokens), its server (not started) and the host's own seat (``None``
    headless). ValueError / SaveError / SaveLocked with the reason."""
    from .engine import variant_class
    from .play.net.server import HostedTable, TableServer

    cls = variant_class(args.variant)
    table = None
    if not args.new:
        for save_id in HostedTable.find_unfinished(args.variant):
            found = HostedTable.reopen(
                save_id,
                hold_s=args.hold,
                ai_pause=args.pause,
                drive_ai=args.headless,
                clock=getattr(args, "clock", None),
            )
            if bool(found.host_people()) == args.headless:  # a screen's table, or not
                found.close()
                found.session.close()
                continue
            table = found
            print(
                f"Reopening your unfinished table {table.code} (--new starts another).",
                file=sys.stderr,
            )
            break
    if table is None:
        kinds = seat_kinds(args.players, args.seats, args.headless, cls.default_players)
        if len(kinds) not in cls.player_counts:
            counts = ", ".join(map(str, cls.player_counts))
            raise ValueError(f"{cls.name} is for {counts} players, not {len(kinds)}")
        names = [args.name if k == "human" and args.name else "" for k in kinds]
        table = HostedTable.create(
            args.variant,
            kinds,
            names,
            options=parse_options(args.option),
            seed=args.seed,
            level=args.level,
            hold_s=args.hold,
            ai_pause=args.pause,
            drive_ai=args.headless,
            clock=getattr(args, "clock", None),
        )
    if args.headless:
        # nobody plays at this computer: its history is not the players' (each client
        # keeps its own)
        table.session.record_history = False
    table.allow_sit = not getattr(args, "no_sit", False)
    server = TableServer(host=args.bind, port=args.port, cert=host_cert_of(args))
    server.add(table)
    if getattr(args, "ssh", None) is not None:
        from .play.net.ssh_door import SshDoor

        server.doors.append(
            SshDoor(
                args.ssh,
                args.bind,
                authorized_keys=args.authorized_keys,
                per_address=args.ssh_per_address,
                max_connections=args.max_guests,
            )
        )
    people = table.host_people()
    return table, server, (people[0] if people and not args.headless else None)


def host_cert_of(args: argparse.Namespace) -> HostCert | None:
    """The certificate to serve: ``--cert/--key``, else the one kept in the data
    directory (made now the first time); ``None`` with ``--no-tls``. ValueError /
    OSError with the reason."""
    cert, key = getattr(args, "cert", None), getattr(args, "key", None)
    if getattr(args, "no_tls", False):
        if cert or key:
            raise ValueError("--no-tls serves no certificate: leave out --cert and --key")
        return None
    from .play.net.tls import host_cert

    return host_cert(cert, key)


def parse_options(items: list[str]) -> dict[str, str | int]:
    """``KEY=VALUE`` house rules (a whole number when it reads as one)."""
    out: dict[str, str | int] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is KEY=VALUE, not {item[:40]!r}")
        v: str | int = value.strip()
        with contextlib.suppress(ValueError):
            v = int(v)
        out[key.strip()] = v
    return out


def addresses(bind: str) -> list[str]:
    """The addresses friends can use for ``bind`` (this computer's own when it listens
    on every interface)."""
    if bind not in ("0.0.0.0", "::", ""):
        return [bind]
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            addr = str(info[4][0])
            if not addr.startswith("127.") and addr != "::1" and addr not in found:
                found.append(addr)
    except OSError:
        pass
    return found or [socket.gethostname()]


def announce(table: HostedTable, server: TableServer) -> list[str]:
    """What the host tells the person hosting: where it listens and how to join."""
    bind = server.host
    lines = [f"Hosting {table.game.name} on {bind}:{server.port}"]
    if bind.startswith("127.") or bind in ("localhost", "::1"):
        lines.append("Only this computer can join (use --bind 0.0.0.0 for your network).")
    lines.append(f"Join code: {table.code}")
    for addr in addresses(bind):
        shown = f"[{addr}]" if ":" in addr else addr
        lines.append(f"Friends join with: twos-tui join {shown}:{server.port} {table.code}")
    lines += cert_lines(server.cert)
    for door in server.doors:
        lines += door.lines(addresses(bind))
    return lines


def cert_lines(cert: HostCert | None) -> list[str]:
    """What the host says of its encryption: the fingerprint friends compare."""
    if cert is None:
        return ["Plain WebSocket (--no-tls): not encrypted (see the README for the internet)."]
    if not cert.self_signed:
        return [f"Encrypted (TLS) with your certificate {cert.fingerprint}."]
    return [
        f"Encrypted (TLS). Certificate fingerprint: {cert.fingerprint}",
        "Friends see this fingerprint when they first join: ask them to compare.",
    ]


async def serve_headless(table: HostedTable, server: TableServer) -> int:
    await server.start()
    for line in announce(table, server):
        print(line, file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        while not stop.is_set():
            if table.game.match_over and not table.conns:
                print("The match is over and everybody has left.", file=sys.stderr)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
        else:
            print("Stopped. The table is saved: the same command reopens it.", file=sys.stderr)
    finally:
        await server.close()
        table.session.close()
    return 0


def add_ssh_arguments(parser: argparse.ArgumentParser, then: str) -> None:
    """The SSH door's options (``host`` and ``server``): ``then`` says what a guest
    does once in."""
    from .play.net.ssh_door import MAX_CONNECTIONS, PER_ADDRESS

    parser.add_argument(
        "--ssh",
        type=port_number,
        default=None,
        metavar="PORT",
        help="also open an SSH door on PORT: people with nothing installed run "
        f"ssh -p PORT NAME@HOST and {then} (needs the ssh extra)",
    )
    parser.add_argument(
        "--authorized-keys",
        default=None,
        metavar="FILE",
        help="only these public keys (an authorized_keys file) may enter the SSH door",
    )
    parser.add_argument(
        "--ssh-per-address",
        type=int,
        default=PER_ADDRESS,
        metavar="N",
        help=f"SSH connections from one address at once (default {PER_ADDRESS})",
    )
    parser.add_argument(
        "--max-guests",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help="SSH guests at once, in all: each is a process of about 46 MiB "
        f"(default {MAX_CONNECTIONS})",
    )


def check_ssh_args(args: argparse.Namespace) -> str | None:
    """Why the SSH options cannot be used, or ``None`` (before anything is made)."""
    if args.ssh is None:
        if args.authorized_keys:
            return "--authorized-keys is for the SSH door: add --ssh PORT"
        return None
    from .play.net.ssh_door import unavailable

    why = unavailable()
    if why:
        return why
    if not 1 <= args.ssh_per_address <= 1000:
        return f"--ssh-per-address is from 1 to 1000 (got {args.ssh_per_address})"
    if not 1 <= args.max_guests <= 100_000:
        return f"--max-guests is from 1 to 100000 (got {args.max_guests})"
    if args.ssh != 0 and args.ssh == args.port:
        return f"the SSH door needs a port of its own (--port is {args.port} too)"
    if args.authorized_keys:
        import asyncssh

        try:
            asyncssh.read_authorized_keys(args.authorized_keys)
        except (OSError, ValueError, asyncssh.KeyImportError) as e:
            why = getattr(e, "strerror", None) or str(e)
            return f"cannot read the authorized keys {args.authorized_keys[:200]!r}: {why}"
    return None


def run_host_cli(args: argparse.Namespace) -> int:
    from .play.locks import SaveLocked
    from .play.saves import SaveError

    problem = check_ssh_args(args)
    if problem:
        return _fail(problem)
    try:
        table, server, seat = build_hosted(args)
    except (ValueError, SaveError, SaveLocked, OSError) as e:
        return _fail(str(e))
    try:  # the SSH door's host key, read (or made) now: its fingerprint is shown at start
        for door in server.doors:
            door.load_key()
            print(door.key_line(), file=sys.stderr, flush=True)
    except (ValueError, OSError) as e:
        table.session.close()
        if not table.reopened:
            table.forget()
        return _fail(f"the SSH door's host key: {e}")
    if args.headless or seat is None:
        from .play.logs import also_to_stderr, not_to_stderr

        also_to_stderr()  # (the running commentary, besides the log file)
        try:
            return asyncio.run(serve_headless(table, server))
        except OSError as e:
            table.session.close()
            if not table.reopened:
                table.forget()  # never served: nothing to reopen
            return _fail(f"cannot listen on {args.bind}:{args.port} ({e.strerror or e})")
        except KeyboardInterrupt:
            table.session.close()
            return 0
        finally:
            not_to_stderr()
    return run_hosted_ui(table, server, seat)


def run_hosted_ui(table: HostedTable, server: TableServer, seat: int) -> int:
    """``twos-tui host`` with a screen: the host plays ``seat`` of ``table`` in the app
    (``twos_tui.ui.app.run_hosted``), which starts ``server`` on its own loop
    (``await server.start()``: ``server.host``/``server.port`` say where; ``port`` is
    the bound one after it) and shows a :class:`~.play.net.host_view.HostSeatView` of
    the table with the join code (``table.code``; ``net_cli.announce(table, server)``
    has the lines to show)."""
    from .ui import app

    run_hosted = getattr(app, "run_hosted", None)
    if run_hosted is None:  # the app's side comes with the UI work of issue 17
        table.session.close()
        if not table.reopened:
            table.forget()
        print(
            "twos-tui: this version cannot show a hosted table yet (try --headless)",
            file=sys.stderr,
        )
        return 2
    result: int = run_hosted(table, server, seat)
    return result


# ----- join --------------------------------------------------------------------------------
def parse_address(text: str) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[V6]`` or ``[V6]:PORT`` (ValueError with the reason)."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text[:60]!r} is not HOST[:PORT]")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"{text[:60]!r} names no host")
    if not port_text:
        return host, DEFAULT_PORT
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{port_text[:20]!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise ValueError(f"a port is from 1 to 65535 (got {port})")
    return host, port


def run_join_cli(args: argparse.Namespace) -> int:
    from .play.net.client import JoinError, RemoteSeatView, TokenStore, run_bot

    try:
        host, port = parse_address(args.address)
    except ValueError as e:
        return _fail(str(e))
    if args.forget:
        return forget_host(host, port)
    if not args.code:
        if args.bot is not None or args.watch:
            return _fail("the join code the host gave you goes after the address")
        # no code: the lobby of a lobby server (twos-tui server) at that address
        from .ui.lobby_join import run_lobby

        return run_lobby(host, port, args.name, args.guest, args.no_key)
    if args.bot is not None:
        from .ai import normalize_level

        try:
            level = normalize_level(args.bot)
        except ValueError as e:
            return _fail(str(e))
        try:
            final = asyncio.run(run_bot(host, port, args.code, level, args.name, TokenStore()))
        except JoinError as e:
            return _fail(str(e))
        except KeyboardInterrupt:
            return 0
        print(result_line(final.to_json()))
        return 0
    name = args.name
    if name is None and not args.guest:  # (your name from the settings file, if it has one)
        from .play.settings import load

        name = load().name
    try:
        view = RemoteSeatView.connect(host, port, args.code, name=name, watch=args.watch)
    except JoinError as e:
        return _fail(str(e))
    client = getattr(view, "client", None)
    if client is not None:
        print(client.security_line(), file=sys.stderr, flush=True)
    from .ui import app

    run_joined = getattr(app, "run_joined", None)
    if run_joined is None:
        view.close()
        return _fail("this version cannot show a joined table yet (try --bot)")
    result: int = run_joined(view, guest=True) if args.guest else run_joined(view)
    return result


def forget_host(host: str, port: int) -> int:
    """``join HOST:PORT --forget``: the pinned certificate is forgotten."""
    from .play.net.tls import KnownHosts, address_key

    known = KnownHosts()
    where = address_key(host, port)
    if known.get(host, port) is None:
        print(f"No certificate was pinned for {where}.", file=sys.stderr)
        return 0
    try:
        known.put(host, port, None)
    except OSError as e:
        return _fail(f"cannot write {known.path}: {e.strerror or e}")
    print(
        f"Forgot the certificate of {where}: the next join pins the one it shows.",
        file=sys.stderr,
    )
    return 0


def result_line(st: Mapping[str, object]) -> str:
    """The bot's one line at the match's end (``st``: the last state as JSON: each
    field is read as it comes, a missing or odd one left out of the line)."""
    seats = st.get("seats")
    names = [
        str(d.get("name", f"Seat {i + 1}")) if isinstance(d, Mapping) else f"Seat {i + 1}"
        for i, d in enumerate(seats if isinstance(seats, list) else [])
    ]
    got = st.get("totals")
    totals = [t for t in got if isinstance(t, int | float)] if isinstance(got, list) else []
    seat = st.get("seat", 0)
    me = seat if isinstance(seat, int) else 0
    got_obs = st.get("observation")
    obs: Mapping[str, object] = got_obs if isinstance(got_obs, Mapping) else {}
    variant, players, options = obs.get("variant"), obs.get("players"), obs.get("options")
    winners: list[int] = []
    if isinstance(variant, str) and isinstance(players, int):
        from .engine import new_game

        try:
            rules = new_game(
                variant, players, dict(options) if isinstance(options, dict) else {}, 0
            )
            best = min(totals) if rules.low_score_wins else max(totals)
            winners = [i for i, t in enumerate(totals) if t == best]
        except (KeyError, ValueError, TypeError):
            pass
    scores = ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=False))
    if st.get("match_over"):
        who = names[me] if 0 <= me < len(names) else "?"
        text = f"Match over ({who} played seat {me + 1}): {scores}"
        if winners:
            text += " · won by " + ", ".join(names[w] for w in winners if 0 <= w < len(names))
        return text
    return f"Left the table: {scores}"
