"""``twos-tui serve``: the whole app in a web browser, through textual-serve.

textual-serve is the optional ``web`` extra (``pip install 'twos-tui[web]'``). Each browser
tab that opens the page starts its own ``python -m twos_tui`` (the home screen), whose
screen and keys travel over a websocket. The server listens on 127.0.0.1 (this computer
only) unless ``--host`` says otherwise, and says which.
"""

from __future__ import annotations

import argparse
import shlex
import socket
import sys
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
INSTALL_HINT = (
    "twos-tui serve needs the optional web extra (textual-serve): "
    "pip install 'twos-tui[web]' (from a clone: .venv/bin/pip install -e '.[web]')"
)


def add_serve_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="play in a web browser (needs the web extra)",
        description="Serve the app to a web browser. Every browser tab gets its own game "
        "session, starting at the home screen. Needs the web extra: "
        "pip install 'twos-tui[web]'.",
    )
    p.add_argument(
        "--host",
        type=host_arg,
        default=None,
        help=f"address to listen on (default {DEFAULT_HOST}: this computer only; "
        "0.0.0.0 lets other computers on your network connect)",
    )
    from .cli import int_range

    p.add_argument(
        "--port",
        type=int_range(1, 65535),
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT})",
    )
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address browsers use to reach this server, when it is not "
        "http://HOST:PORT (a proxy, or another name for this computer)",
    )


def host_arg(text: str) -> str:
    """An argparse type: a host name or address (letters, digits, ``.-:_%[]``), at most
    253 characters; anything else (an escape code...) is refused, never echoed raw."""
    import argparse
    import re

    if len(text) > 253 or not re.fullmatch(r"[A-Za-z0-9.\-:_%\[\]]+", text):
        raise argparse.ArgumentTypeError(
            "--host takes a host name or an IP address (letters, digits, dots, dashes, colons)"
        )
    return text.strip("[]")


def app_command() -> str:
    """The shell command that runs one app session (the server starts one per tab)."""
    return f"{shlex.quote(sys.executable)} -m twos_tui"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def plan(host: str | None, port: int, public_url: str | None = None) -> tuple[str, str, str]:
    """(address to listen on, URL browsers use, what to tell the person starting it)."""
    listen = DEFAULT_HOST if host is None else host
    if listen in WILDCARD_HOSTS:
        url = public_url or f"http://{_url_host(socket.gethostname())}:{port}"
        where = (
            f"Listening on every network interface (port {port}), as asked: anyone who can "
            f"reach this computer can play, with no password. Other computers open {url}"
            + (
                ""
                if public_url
                else " (if that name does not reach this computer, "
                f"restart with --public-url http://ADDRESS:{port})"
            )
            + "."
        )
    else:
        url = public_url or f"http://{_url_host(listen)}:{port}"
        if host is None:
            where = (
                f"Listening on {listen} only: other computers cannot connect "
                "(use --host 0.0.0.0 to let them)."
            )
        else:
            where = (
                f"Listening on {listen}, as asked: anyone who can reach that address "
                "can play, with no password."
            )
    return listen, url, f"twos-tui in your browser: open {url}\n{where}\nPress Ctrl+C to stop."


def bind_error(host: str, port: int) -> OSError | None:
    """Why the server could not listen on ``host:port`` (checked before it starts, so that
    a busy port gets one clear line instead of a greeting and a traceback)."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as e:
        return e
    for family, kind, proto, _, addr in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(addr)
            except OSError as e:
                return e
    return None


def run_serve_cli(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"twos-tui serve: --port must be 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    try:
        from textual_serve.server import Server
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2

    listen, url, message = plan(args.host, args.port, args.public_url)
    problem = bind_error(listen, args.port)
    if problem is not None:
        print(f"twos-tui serve: cannot listen on {listen}:{args.port}: {problem}", file=sys.stderr)
        return 1

    class TwosServer(Server):
        async def on_startup(self, app: Any) -> None:
            print(message, flush=True)

    server = TwosServer(
        app_command(), host=listen, port=args.port, title="twos-tui", public_url=url
    )
    try:
        server.serve()
    except OSError as e:
        print(f"twos-tui serve: cannot listen on {listen}:{args.port}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
