"""The message line under the table's prompt: errors, hints, the selection's preview."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..widgets import MessageLine

if TYPE_CHECKING:
    from .table import TableScreen

MESSAGE_STYLES = {
    "error": "bold red",
    "hint": "bold green",
    "preview": "italic",
    "ok": "green",
}
PREFIXES = {"error": "✗ ", "hint": "Hint ", "ok": "✓ "}


class MessageBar:
    """Writes the message line, and only when what it says changes."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.shown: tuple[str, str] | None = None  #: (text, kind) on the line now

    def show(self, text: str, kind: str = "") -> None:
        if (text, kind) == self.shown:
            return  # unchanged: no repaint, no layout
        self.shown = (text, kind)
        # styled in the text itself: a CSS class change would restyle the widget
        prefix = PREFIXES.get(kind, "") if text else ""
        line = Text(prefix + text, style=MESSAGE_STYLES.get(kind, ""))
        self.screen.query_one(MessageLine).set(line)
