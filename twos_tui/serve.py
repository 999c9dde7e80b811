"""``twos-tui serve``: the whole app in a web browser, through textual-serve.

textual-serve is the optional ``web`` extra (``pip install 'twos-tui[web]'``). Each browser
tab that opens the page starts its own ``python -m twos_tui`` (the home screen), whose
screen and keys travel over a websocket. Each tab is a player of its own, with its own
data folder (saves, history, settings) under ``serve-players/`` in the server's: another
tab never sees its games; ``?player=NAME`` in the address makes tabs one player, and
``--shared-saves`` gives every tab the server's own folder. The server listens on
127.0.0.1 (this computer only) unless ``--host`` says otherwise, and says which.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import re
import secrets
import signal
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .serve_tab import shell_line

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
MAX_COLS, MAX_ROWS = 500, 200  #: a browser's terminal is clamped to this size
MAX_FRAME_BYTES = 64 * 1024  #: a larger message closes that connection
MAX_BAD_FRAMES = 50  #: malformed messages a connection may send before it is closed
DEFAULT_MAX_SESSIONS = 8  #: browser tabs playing at once (each is one app process)
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")
FRAME_KINDS = ("stdin", "resize", "ping", "blur", "focus")
log = logging.getLogger("twos_tui.serve")
PLAYERS_DIR = "serve-players"  #: each browser player's own data folder, in the server's
#: a player's folder name: ``t-`` and 32 hex digits (one browser tab, kept across
#: reloads), ``n-NAME`` (a name chosen with ``?player=NAME``: tabs sharing it share
#: their saves), ``c-`` and hex (a connection that named no player: its own)
PLAYER_RE = re.compile(r"t-[0-9a-f]{32}|n-[A-Za-z0-9_-]{1,32}|c-[0-9a-f]{32}")

#: put into the page: the tab's player (``?player=NAME``, else one kept in the tab's
#: sessionStorage, so a reload continues and another tab is someone else) goes at the
#: end of the websocket's address
PLAYER_SCRIPT = """<script>(function () {
  var id = null, q = new URLSearchParams(location.search).get("player");
  if (q && /^[A-Za-z0-9_-]{1,32}$/.test(q)) { id = "n-" + q; }
  else {
    try { id = sessionStorage.getItem("twos_player"); } catch (e) {}
    if (!id || !/^t-[0-9a-f]{32}$/.test(id)) {
      var a = new Uint8Array(16); crypto.getRandomValues(a);
      id = "t-" + Array.from(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      try { sessionStorage.setItem("twos_player", id); } catch (e) {}
    }
  }
  document.querySelectorAll(".textual-terminal").forEach(function (el) {
    el.dataset.sessionWebsocketUrl = el.dataset.sessionWebsocketUrl + "/" + id;
  });
})();</script>"""

INSTALL_HINT = (
    "twos-tui serve needs the optional web extra (textual-serve): "
    "pip install 'twos-tui[web]' (from a clone: .venv/bin/pip install -e '.[web]')"
)


def add_serve_parser(sub: Any) -> None:
    from .cli_common import int_range

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

    p.add_argument(
        "--port",
        type=int_range(1, 65535),
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT})",
    )
    p.add_argument(
        "--token",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ask for a one-time token in the address (printed at start); on by default "
        "when --host is not this computer only",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also accept pages served from this origin (e.g. a proxy's https://name); "
        "by default only the server's own pages may connect",
    )
    p.add_argument(
        "--max-sessions",
        type=int_range(1, 1000),
        default=DEFAULT_MAX_SESSIONS,
        help=f"browser tabs playing at once (default {DEFAULT_MAX_SESSIONS}); "
        "the next one is refused politely",
    )
    p.add_argument(
        "--shared-saves",
        action="store_true",
        help="every browser tab plays as this computer's own player, with its saves and "
        "history; by default each tab is a player of its own (add ?player=NAME to the "
        "address to be the same player in several tabs, or after the tab was closed)",
    )
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address browsers use to reach this server, when it is not "
        "http://HOST:PORT (a proxy, or another name for this computer)",
    )


class BadFrame(ValueError):
    """A websocket message from the page that is not one the app understands."""


def check_frame(text: Any) -> tuple[str, Any]:
    """The ``(kind, data)`` of one message from the page, checked before anything
    reaches the app: ``["stdin", "text"]``, ``["resize", {"width": W, "height": H}]``
    (clamped to :data:`MAX_COLS` x :data:`MAX_ROWS`), ``["ping", data]``, ``["blur"]``,
    ``["focus"]``. Anything else raises :class:`BadFrame` with the reason."""
    if not isinstance(text, str):
        raise BadFrame("not a text message")
    if len(text) > MAX_FRAME_BYTES:
        raise BadFrame("too large")
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("not JSON") from None
    if type(envelope) is not list:
        raise BadFrame("not a JSON list")
    if not envelope:
        raise BadFrame("an empty list")
    kind = envelope[0]
    if type(kind) is not str or kind not in FRAME_KINDS:
        raise BadFrame("an unknown kind of message")
    data = envelope[1] if len(envelope) > 1 else None
    if kind == "stdin":
        if type(data) is not str or not data:
            raise BadFrame("keys that are not text")
        return kind, data
    if kind == "resize":
        if type(data) is not dict:
            raise BadFrame("a resize without a size")
        w, h = data.get("width"), data.get("height")
        if type(w) is not int or type(h) is not int or w < 1 or h < 1:
            raise BadFrame("a resize whose size is not two positive whole numbers")
        return kind, (min(w, MAX_COLS), min(h, MAX_ROWS))
    if kind == "ping":
        if type(data) not in (str, int) or len(str(data)) > 100:
            raise BadFrame("a ping with odd data")
        return kind, data
    return kind, None


def clamp_size(text: str | None, default: int, top: int) -> int:
    """A terminal size from the page's address (``?width=``): 1 to ``top``."""
    try:
        value = int(text) if text is not None and len(text) < 12 else default
    except ValueError:
        value = default
    return max(1, min(value, top))


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case (how browsers send ``Origin``)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def own_origins(listen: str, port: int, public_url: str, allowed: list[str]) -> set[str]:
    """The origins a page of this server has (its public URL; for a loopback address
    also its other loopback names), and those allowed with ``--allow-origin``."""
    out = {origin_of(public_url)}
    if listen in LOOPBACK_HOSTS:
        for name in ("127.0.0.1", "localhost", "[::1]"):
            out.add(f"http://{name}:{port}")
    out.update(origin_of(a) for a in allowed)
    return out


REFUSAL_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<title>twos-tui: {title}</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>twos-tui: {title}</h1><p>{text}</p></body></html>"""


def refusal(status: int, title: str, text: str) -> Any:
    """A short, clear HTML page (and the same words for a script)."""
    import html

    from aiohttp import web

    body = REFUSAL_PAGE.format(title=html.escape(title), text=html.escape(text))
    return web.Response(status=status, text=body, content_type="text/html")


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
    return shell_line(sys.executable, "-m", "twos_tui")


def tab_command(command: str, home: Path | None) -> str:
    """The shell command of one tab's app: ``command``, in the player's data folder
    ``home`` (``TWOS_TUI_HOME``) when there is one (:mod:`twos_tui.serve_tab`)."""
    if home is None:
        return command
    return f"{shell_line(sys.executable, '-m', 'twos_tui.serve_tab', str(home))} {command}"


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

    wanted = getattr(args, "token", None)
    token_on = wanted if wanted is not None else listen not in LOOPBACK_HOSTS
    token = secrets.token_urlsafe(18) if token_on else None
    if token:
        message = message.replace(f"open {url}", f"open {url}/?token={token}")
        message = message.replace("can play, with no password", "can play if given the token")
        message += "\nThe address holds a one-time token: only who has it can play."
    origins = own_origins(listen, args.port, url, getattr(args, "allow_origin", []))
    server_class = door_server(Server)
    server = server_class(
        app_command(), host=listen, port=args.port, title="twos-tui", public_url=url
    )
    max_sessions = getattr(args, "max_sessions", DEFAULT_MAX_SESSIONS)
    server.setup_door(origins, token, max_sessions, message)
    if not getattr(args, "shared_saves", False):
        from .play.paths import data_dir

        server.players_dir = data_dir() / PLAYERS_DIR
    try:
        server.serve()
    except OSError as e:
        print(f"twos-tui serve: cannot listen on {listen}:{args.port}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def door_server(base: Any) -> Any:
    """textual-serve's ``Server`` with a door: only its own origins connect, an optional
    token, every message checked before it reaches the app, sizes clamped, a cap on the
    sessions at once, each tab's app in its player's own data folder. Built on
    textual-serve's public API only (issue 32): its handlers, ``AppService`` and the
    server's attributes; the web application is made here (:meth:`web_app`)."""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import WSCloseCode, WSMsgType, web
    from textual_serve.app_service import AppService

    class DoorServer(base):  # type: ignore[misc, valid-type]
        #: where each player's folder is made; ``None``: every tab shares the server's
        #: own data folder (``--shared-saves``)
        players_dir: Path | None = None
        origins: set[str] = set()
        token: str | None = None
        max_sessions = DEFAULT_MAX_SESSIONS
        sessions = 0
        greeting = ""
        bad_frames = 0  #: malformed messages ignored (all connections)

        def setup_door(
            self, origins: set[str], token: str | None, max_sessions: int, greeting: str = ""
        ) -> None:
            self.origins = set(origins)
            self.token = token
            self.max_sessions = max_sessions
            self.greeting = greeting

        async def web_app(self) -> Any:
            """The web application: the page, its websocket (``/ws``, and
            ``/ws/PLAYER`` naming the tab's player), downloads and the page's files."""
            app = web.Application()
            aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
            app.add_routes(
                [
                    web.get("/", self.handle_index, name="index"),
                    web.get("/ws", self.handle_websocket, name="websocket"),
                    web.get("/ws/{player}", self.handle_websocket, name="player-websocket"),
                    web.get("/download/{key}", self.handle_download, name="download"),
                    web.static("/static", self.statics_path, name="static"),
                ]
            )
            app.on_startup.append(self.on_startup)
            app.on_shutdown.append(self.on_shutdown)
            return app

        def serve(self, debug: bool = False) -> None:
            """Serve until Ctrl+C (or SIGTERM)."""
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                # (Windows has no signal handlers there: Ctrl+C raises KeyboardInterrupt)
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(signum, self.request_exit)
            web.run_app(
                self.web_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=lambda *args: None,
            )

        def player_home(self, request: Any) -> Path | None:
            """The data folder of the player a connection names (made, private to this
            user), or ``None`` when every tab shares the server's own."""
            if self.players_dir is None:
                return None
            player = request.match_info.get("player") or ""
            if not PLAYER_RE.fullmatch(player):
                player = "c-" + secrets.token_hex(16)  # named no player: one of its own
            home = self.players_dir / player
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
            return home

        async def on_startup(self, app: Any) -> None:
            if self.greeting:
                print(self.greeting, flush=True)

        def _token_ok(self, request: Any) -> bool:
            if self.token is None:
                return True
            given = request.query.get("token") or request.cookies.get("twos_token") or ""
            return secrets.compare_digest(given.encode(), self.token.encode())

        def _refused(self, request: Any, websocket: bool) -> Any:
            if websocket:
                origin = (request.headers.get("Origin") or "").lower()
                if origin not in self.origins:
                    return refusal(
                        403,
                        "not from this server",
                        "Only pages of this twos-tui server may connect to it. To allow "
                        "another address, restart with --allow-origin URL.",
                    )
            if not self._token_ok(request):
                return refusal(
                    403,
                    "token needed",
                    "This server asks for the token it printed when it started: open the "
                    "full address shown there (it ends with ?token=...).",
                )
            if self.sessions >= self.max_sessions:
                return refusal(
                    503,
                    "all seats taken",
                    f"This server plays {self.max_sessions} games at once and all are in "
                    "use. Try again when one of them ends.",
                )
            return None

        async def handle_index(self, request: Any) -> Any:
            refused = self._refused(request, websocket=False)
            if refused is not None:
                return refused
            response = await base.handle_index(self, request)
            if self.players_dir is not None and isinstance(response.text, str):
                response.text = response.text.replace("</body>", PLAYER_SCRIPT + "</body>", 1)
            if self.token is not None:
                response.set_cookie(
                    "twos_token", self.token, httponly=True, samesite="Strict", path="/"
                )
            return response

        async def handle_websocket(self, request: Any) -> Any:
            refused = self._refused(request, websocket=True)
            if refused is not None:
                return refused
            width = clamp_size(request.query.get("width"), 80, MAX_COLS)
            height = clamp_size(request.query.get("height"), 24, MAX_ROWS)
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_FRAME_BYTES)
            self.sessions += 1
            app_service = None
            try:
                home = self.player_home(request)
                await websocket.prepare(request)
                app_service = AppService(
                    tab_command(self.command, home),
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,  # type: ignore[arg-type]
                    download_manager=self.download_manager,
                    debug=self.debug,
                )
                await app_service.start(width, height)
                await self.relay_messages(websocket, app_service)
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:  # one connection's trouble ends only it
                log.warning("a browser session ended: %s", error)
            finally:
                self.sessions -= 1
                if app_service is not None:
                    await app_service.stop()
            return websocket

        async def relay_messages(self, websocket: Any, app_service: Any) -> None:
            """Pass the page's messages to the app, each checked first."""
            bad = 0
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    kind, data = check_frame(message.data)
                except BadFrame:
                    bad += 1
                    self.bad_frames += 1
                    if bad > MAX_BAD_FRAMES:
                        await websocket.close(
                            code=WSCloseCode.POLICY_VIOLATION,
                            message=b"too many malformed messages",
                        )
                        return
                    continue
                if kind == "stdin":
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize":
                    await app_service.set_terminal_size(*data)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

    return DoorServer
