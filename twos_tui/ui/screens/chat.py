"""The chat line at a table with players on other computers (``c``): one line of at most
280 characters, sent to everybody at the table (players and spectators); the host
removes control characters and limits how fast lines come. Lines are shown in the log
panel as plain text (never markup: a ``[bold]`` typed by a player stays as typed)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...play.net.protocol import MAX_CHAT
from ..screen_css import SCREENS_CSS


class ChatDialog(ModalScreen[str | None]):
    """One line to say; Enter sends it, Esc closes without sending."""

    CSS_PATH = SCREENS_CSS

    DEFAULT_CSS = """
    ChatDialog { align: center bottom; }
    #chat-box { width: 90%; max-width: 100; height: auto; border: round $accent;
                padding: 0 1; background: $surface; margin-bottom: 2; }
    #chat-input { width: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static(f"Say to the table (Enter sends, Esc closes; {MAX_CHAT} characters):")
            yield Input(
                placeholder="your message", max_length=MAX_CHAT, id="chat-input", compact=True
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _send(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_close(self) -> None:
        self.dismiss(None)
