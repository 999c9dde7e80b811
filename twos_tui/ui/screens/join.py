"""Home → "Join a table": the host's address, the join code and your name; the table
then opens with your seat's view only (the same screen as a local game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from ...play.names import MAX_NAME_CELLS, NAME_CHARS, clean_name
from ...play.net.client import DEFAULT_PORT  # the port `twos-tui host` listens on
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app

if TYPE_CHECKING:
    from ...play.seat_view import SeatView


def split_address(text: str) -> tuple[str, int]:
    """``HOST[:PORT]`` (``[::1]:PORT`` for IPv6) as (host, port); ValueError with a reason."""
    text = text.strip()
    if not text:
        raise ValueError("Type the host's address, e.g. 192.168.1.20:7417.")
    host, port = text, DEFAULT_PORT
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError("An IPv6 address goes in brackets: [::1]:7417.")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise ValueError("Write the port after a colon: [::1]:7417.")
            port = _port(rest[1:])
    elif text.count(":") == 1:
        host, _, p = text.partition(":")
        port = _port(p)
    if not host or any(c.isspace() for c in host):
        raise ValueError("That is not a host name or address.")
    return host, port


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"{text[:12]!r} is not a port (1 to 65535).")
    return int(text)


class JoinScreen(ModalScreen[None]):
    """Join a table hosted on another computer."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, name: str = "") -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static(Text("Join a table", style="bold"), id="join-title")
            yield Static(
                Text(
                    "Ask the host for the address and the code their table shows. "
                    "For a lobby server, leave the code empty.",
                    style="dim",
                )
            )
            with Horizontal(classes="row"):
                yield Label("Address", classes="row-label")
                yield Input(placeholder=f"host:{DEFAULT_PORT}", id="join-address", compact=True)
            with Horizontal(classes="row"):
                yield Label("Code", classes="row-label")
                yield Input(placeholder="join code", id="join-code", max_length=40, compact=True)
            with Horizontal(classes="row"):
                yield Label("Your name", classes="row-label")
                yield Input(
                    value=self.player_name,
                    id="join-name",
                    max_length=MAX_NAME_CELLS,
                    restrict=NAME_CHARS,
                    compact=True,
                )
            yield Static(id="join-error")
            with Horizontal(id="join-buttons"):
                yield Button("Join", id="join", variant="success", compact=True)
                yield Button("Watch", id="watch", compact=True)
                yield Button("Back (Esc)", id="cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#join-address", Input).focus()

    def say(self, text: str, error: bool = True) -> None:
        self.query_one("#join-error", Static).update(
            Text(("✗ " if error else "") + text, style="bold red" if error else "italic")
        )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        order = ["join-address", "join-code", "join-name"]
        i = order.index(event.input.id) if event.input.id in order else len(order) - 1
        if i + 1 < len(order) and not self.query_one(f"#{order[i + 1]}", Input).value:
            self.query_one(f"#{order[i + 1]}", Input).focus()
        else:
            self.action_join()

    @on(Button.Pressed, "#watch")
    def action_watch(self) -> None:
        """Join as a spectator: what every player sees, no hand."""
        self.action_join(watch=True)

    @on(Button.Pressed, "#join")
    def _join_pressed(self) -> None:
        self.action_join()

    def action_join(self, watch: bool = False) -> None:
        try:
            host, port = split_address(self.query_one("#join-address", Input).value)
        except ValueError as e:
            self.say(str(e))
            return
        code = self.query_one("#join-code", Input).value.strip()
        if not code and watch:
            self.say("Type the join code the host's table shows.")
            return
        name = clean_name(self.query_one("#join-name", Input).value, "Player")
        if not code:  # a lobby server's lobby
            self.say(f"Opening the lobby at {host}:{port}…", error=False)
            self.query_one("#join", Button).disabled = True
            self.query_one("#watch", Button).disabled = True
            self.run_worker(self.open_lobby(host, port, name), group="join", exclusive=True)
            return
        self.say(f"{'Watching' if watch else 'Joining'} {host}:{port}…", error=False)
        self.query_one("#join", Button).disabled = True
        self.query_one("#watch", Button).disabled = True
        self.connect(host, port, code, name, watch)

    async def open_lobby(self, host: str, port: int, name: str) -> None:
        from ...play.lobby.client import LobbyError
        from ...play.lobby.identity import IdentityError
        from ...play.net.tls import KnownHosts
        from ..lobby_join import open_lobby_client, say_security

        first_visit = KnownHosts().get(host, port) is None
        try:
            client, connect = await open_lobby_client(host, port, name)
        except (LobbyError, IdentityError, OSError) as e:
            self.failed(str(e))
            return
        if not self.is_attached:
            await client.close()  # the dialog was left meanwhile
            return
        self.dismiss(None)
        app = twos_app(self)
        app.open_lobby(client, (host, port), connect)
        say_security(app, client, first_visit)

    @work(thread=True, exclusive=True, group="join")
    def connect(self, host: str, port: int, code: str, name: str, watch: bool = False) -> None:
        from ...play.net.client import JoinError, RemoteSeatView

        try:
            view = RemoteSeatView.connect(host, port, code, name=name, watch=watch)
        except JoinError as e:
            self.app.call_from_thread(self.failed, str(e))
            return
        self.app.call_from_thread(self.joined, view)

    def failed(self, reason: str) -> None:
        if self.is_attached:
            self.say(reason)
            self.query_one("#join", Button).disabled = False
            self.query_one("#watch", Button).disabled = False

    def joined(self, view: SeatView) -> None:  # a RemoteSeatView
        if not self.is_attached:
            view.close()  # the dialog was left meanwhile
            return
        from ..hosting import join_notice, joined_view, show_join_notice

        self.dismiss(None)
        app = twos_app(self)
        app.start_session(joined_view(view))
        notice = join_notice(view)
        if notice:
            show_join_notice(app, notice)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
