"""Hosting a table from the app: start the table server on the app's own event loop,
then open the host's table (a :class:`~twos_tui.play.net.host_view.HostSeatView`) with
its join code in the title and, under ``i``, the addresses and the command to give
friends."""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from ..play.net.server import HostedTable, TableServer
    from ..play.net.tls import HostCert
    from ..play.seat_view import SeatView

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def local_addresses() -> list[str]:
    """This computer's own addresses other than loopback, as its name resolves (no
    packet is sent); may be empty."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if not addr.startswith("127.") and addr not in found:
                found.append(addr)
    return found


def app_server() -> TableServer:
    """The server of a table hosted from the app: encrypted with the certificate kept in
    the data directory (made now the first time). When it cannot be made (an unwritable
    data folder) the table is served unencrypted, and its lines say so."""
    from ..play.net.server import TableServer
    from ..play.net.tls import host_cert

    try:
        return TableServer(cert=host_cert())
    except (OSError, ValueError) as e:
        logging.getLogger("twos_tui.net").warning("no certificate, not encrypted: %s", e)
        return TableServer()


def cert_lines(cert: HostCert | None) -> list[str]:
    """What the host's screen says of the encryption: the fingerprint to compare."""
    if cert is None:
        return [
            "Not encrypted (plain WebSocket): over the internet, use an SSH",
            "tunnel, a VPN, or a TLS proxy (see the README).",
        ]
    if not cert.self_signed:
        return ["Encrypted (TLS) with your certificate:", f"  {cert.fingerprint}"]
    return [
        "Encrypted (TLS). Your certificate's fingerprint:",
        f"  {cert.fingerprint}",
        "Friends see it when they first join: ask them to compare.",
    ]


def join_lines(code: str, bind: str, port: int, cert: HostCert | None = None) -> list[str]:
    """What the host tells friends: the code, where the table listens, the command, and
    the certificate's fingerprint."""
    lines = [f"Join code: {code}", ""]
    if bind in LOOPBACK:
        lines += [
            f"Listening on {bind}:{port}: this computer only.",
            f"Join from another terminal here:  twos-tui join {bind}:{port} {code}",
            "",
            "For friends on other computers, host on your local network",
            "(picker: Host on) or run: twos-tui host ... --bind 0.0.0.0",
        ]
    else:
        addrs = local_addresses() if bind in ("0.0.0.0", "::", "") else [bind]
        lines.append(f"Listening on {bind or 'every address'}, port {port}.")
        if addrs:
            lines.append("Friends on your network run one of:")
            lines += [f"  twos-tui join {a}:{port} {code}" for a in addrs]
        else:
            lines.append("Friends run:  twos-tui join YOUR-ADDRESS:{port} {code}")
            lines.append("(your address: ip addr / ipconfig shows it)")
    lines += ["", *cert_lines(cert)]
    lines += ["", "Or at their home screen: Join a table (j)."]
    return lines


async def start_server(server: TableServer, bind: str, port: int) -> str | None:
    """Start listening; ``None``, or why it could not."""
    try:
        await server.start(bind, port)
    except OSError as e:
        why = e.strerror or str(e)
        return (
            f"Cannot host on {bind}:{port}: {why}. Choose another port (or stop the other program)."
        )
    return None


def host_view(table: HostedTable, server: TableServer, bind: str) -> SeatView:
    """The host's own seat view, with the code in its title and the join lines."""
    from ..play.net.host_view import HostSeatView

    view = HostSeatView(table)
    view.banner = f"code {table.code}"
    lines = join_lines(table.code, bind, server.port, getattr(server, "cert", None))
    for door in getattr(server, "doors", []):
        hosts = local_addresses() if bind in ("0.0.0.0", "::", "") else [bind]
        lines += ["", *door.lines(hosts or ["YOUR-ADDRESS"])]

    def info() -> list[str]:
        return lines

    view.table_info = info  # type: ignore[method-assign]
    view.server = server  # type: ignore[attr-defined]
    return view


def stop_server(view: Any) -> None:
    """The host left the table: stop its server (on the loop, without waiting)."""
    import asyncio

    server = getattr(view, "server", None)
    if server is None:
        return
    view.server = None
    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop().create_task(server.close())


def joined_view(view: SeatView) -> SeatView:
    """A joined table's title says where it is played; ``i`` says how to rejoin."""
    client = getattr(view, "client", None)
    if client is None:
        return view
    where = f"{client.host}:{client.port}"
    view.banner = f"at {where}"
    seat = view.controls[0] if view.controls else None
    name = view.names[seat] if seat is not None else "?"
    lines = [
        f"You joined the table at {where} (code {client.code}) as {name}.",
        "",
        client.security_line(),
        "",
        "If the connection drops, the host keeps your seat for a while:",
        f"  twos-tui join {where} {client.code}",
        "takes you back to it (your seat's key is kept on this computer).",
        "",
        "Undo is off at a table with other players; hints, the log, the last",
        "trick and the rules work as in a local game.",
    ]

    def info() -> list[str]:
        return lines

    view.table_info = info  # type: ignore[method-assign]
    return view


def join_notice(view: SeatView) -> str | None:
    """What the player should see of a join's encryption at once: the fingerprint pinned
    by a first join, or that the host does not encrypt; ``None`` otherwise."""
    client = getattr(view, "client", None)
    if client is None or (client.encrypted and not client.pinned_now):
        return None
    text: str = client.security_line()
    return text


def show_join_notice(app: App[Any], notice: str) -> None:
    """Show a join's :func:`join_notice` (a warning: it outlives the table's plain news)."""
    app.notify(notice, title="Certificate", severity="warning", timeout=30)
