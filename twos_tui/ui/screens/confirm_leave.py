"""The table's two small dialogs, re-exported by ``dialogs.py``: leave the table?
(:class:`ConfirmLeave`: the table's ``q``, and the deal summary's while the match goes
on) and a read-only text (:class:`InfoDialog`: the last trick, the log, the scores)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from ..chrome import KeyBar, focus_first
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app


class ConfirmLeave(ModalScreen[bool]):
    """Leave the table? It says where leaving goes (and that a game on this computer is
    saved). Enter answers with the focused button, which is "Stay": Esc then Enter never
    leaves a game by accident. Build it with :meth:`for_app` (the table's ``q``, the deal
    summary's ``q`` while the match goes on)."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("y", "answer(True)", "Leave"),
        Binding("n,escape", "answer(False)", "Stay"),
        Binding("left,right", "app.focus_next", show=False),
    ]

    def __init__(self, to_lobby: bool = False, saved: bool = True, ends_session: bool = False):
        super().__init__()
        #: a table the lobby seated us at: leaving goes back to the lobby
        self.to_lobby = to_lobby
        #: a game on this computer (not a joined table): it is saved as it goes
        self.saved = saved
        #: an SSH door's guest at its only table: leaving ends the session
        self.ends_session = ends_session

    @classmethod
    def for_app(cls, node: Screen[Any]) -> ConfirmLeave:
        """The question for the table in play in ``node``'s app, true of where it goes."""
        app = twos_app(node)
        to_lobby = app.lobby_below()
        session = app.session
        return cls(
            to_lobby=to_lobby,
            saved=session is not None and session.autosave,
            ends_session=app.exit_on_leave and not to_lobby,
        )

    def question(self) -> Text:
        if self.to_lobby:
            return Text("Leave this table and go back to the lobby?")
        if self.ends_session:
            return Text("Leave this table and end the session?")
        if not self.saved:
            return Text("Leave this table for the home screen?")
        return Text(
            "Leave this table for the home screen?\n"
            "The game is saved: Continue on the home screen picks it up."
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.question(), id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button("Stay (n)", id="stay", variant="primary")
                yield Button("Leave (y)", id="leave", variant="warning")
        yield KeyBar()

    def on_mount(self) -> None:
        focus_first(self, "#stay")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")


class InfoDialog(ModalScreen[None]):
    """A read-only text (the last trick, the log of the deal); any of Esc, Enter, q or
    the key that opened it closes it."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("escape,enter,q,t,l,o", "close", "Close"),
    ]

    def __init__(self, title: str, body: Text, scroll_to_end: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.scroll_to_end = scroll_to_end

    def compose(self) -> ComposeResult:
        with Vertical(id="info-box"):
            yield Static(Text(self.title_text, style="bold"), id="info-title")
            with VerticalScroll(id="info-scroll"):
                yield Static(self.body, id="info-body")
            with Center():
                yield Button("Close (Esc)", id="close", variant="primary", compact=True)
        yield KeyBar()

    #: rows the box takes besides its text: border (2), title, the Close button, and
    #: the screen's own footer and a row above and below the box
    CHROME_ROWS = 7

    def on_mount(self) -> None:
        self._fit(self.app.size.height)
        scrolls = self.query("#info-scroll")
        if scrolls:
            scroll = scrolls.first()
            scroll.focus()
            if self.scroll_to_end:
                scroll.scroll_end(animate=False)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def show_body(self, body: Text) -> None:
        """Show ``body`` in place of the text shown (a view that follows the table)."""
        self.body = body
        for static in self.query("#info-body").results(Static):
            static.update(body)
        if self.scroll_to_end:
            for scroll in self.query("#info-scroll"):
                scroll.scroll_end(animate=False)

    def _fit(self, height: int) -> None:
        """The text scrolls in what the window leaves it, so that its last line and the
        Close button are always on screen (a fixed height cut them off at 80x24)."""
        for scroll in self.query("#info-scroll"):
            scroll.styles.max_height = max(3, min(20, height - self.CHROME_ROWS))

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#close")
    def _close(self) -> None:
        self.dismiss(None)
