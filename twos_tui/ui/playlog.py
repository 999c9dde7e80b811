"""The public log of the deal at the table (:class:`PlayLog`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text
from textual import events
from textual.widget import Widget

if TYPE_CHECKING:  # (annotations only: the home screen's start needs no engine)
    from ..engine.views import LogLine


def log_line(entry: LogLine) -> Text:
    """A line of the log as the table shows it (a bomb in red, a deal's or a trick's end
    in bold, a pass dimmed, chat in italics)."""
    kind = entry.kind
    style = ""
    if entry.bomb:
        style = "bold red"
    elif kind in ("deal-end", "match-end", "trick", "hand"):
        style = "bold"
    elif kind == "pass":
        style = "dim"
    elif kind == "chat":
        style = "italic"  # and the words "Chat ·" begin the line
    return Text(entry.text, style=style)


class PlayLog(Widget):
    """The public log of the deal, newest line at the bottom, always in step with the
    table (the screen hands it the observation's history on every refresh).

    It shows the newest lines that fit; the mouse wheel scrolls back (the border then
    says how many newer lines are below) and new lines bring it back to the end. After
    a resize it re-wraps and still ends on the newest line.
    """

    DEFAULT_CSS = """
    PlayLog {
        border: round $panel-lighten-2; padding: 0 1; height: 1fr; min-height: 3;
        border-subtitle-align: right;
    }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.entries: list[Text] = []
        self.back = 0  #: lines scrolled back from the newest
        self._wrapped: list[list[Text]] = []
        self._wrap_width = -1

    def show_history(self, history: Sequence[LogLine]) -> None:
        """The log's part of the view: the deal's public log (``history``). Only the
        lines after those shown are made and drawn; a new deal's log, or one an undo took
        lines back from, is drawn again; the same log changes nothing."""
        known = len(self.entries)
        if known <= len(history) and (
            not known or self.entries[-1].plain == history[known - 1].text
        ):
            # the usual case: the same log and some new lines (none: nothing to draw)
            self.add_entries([log_line(e) for e in history[known:]])
        else:
            self.set_entries([log_line(e) for e in history])

    def set_entries(self, entries: list[Text]) -> None:
        """The whole log (only what changed is re-wrapped)."""
        keep = 0
        for old, new in zip(self.entries, entries, strict=False):
            if old.plain != new.plain or old.style != new.style:
                break
            keep += 1
        if keep == len(self.entries) == len(entries):
            return
        self.entries = list(entries)
        del self._wrapped[keep:]
        self.back = 0
        self.border_subtitle = None
        self.refresh()

    def add_entries(self, entries: list[Text]) -> None:
        """New lines at the end of the log."""
        if not entries:
            return
        self.entries.extend(entries)
        self.back = 0
        self.border_subtitle = None
        self.refresh()

    def lines(self, width: int) -> list[Text]:
        """Every entry wrapped to ``width``, oldest first."""
        if width != self._wrap_width:
            self._wrapped = []
            self._wrap_width = width
        console = self.app.console if self.is_attached else Console(width=width)
        for entry in self.entries[len(self._wrapped) :]:
            wrapped = entry.wrap(console, max(1, width), overflow="fold")
            self._wrapped.append(list(wrapped) or [Text("")])
        return [line for w in self._wrapped for line in w]

    def _clamp(self) -> None:
        height = self.content_region.height
        total = len(self.lines(max(1, self.content_region.width)))
        self.back = max(0, min(self.back, total - height))

    def shown_lines(self) -> list[Text]:
        """The lines on screen now (only the newest entries are looked at)."""
        width = self.content_region.width
        height = self.content_region.height
        if width <= 0 or height <= 0:
            return []
        self.lines(width)  # wraps what is new
        want = height + self.back
        tail: list[Text] = []
        for wrapped in reversed(self._wrapped):
            tail[:0] = wrapped
            if len(tail) >= want:
                break
        if self.back and len(tail) < want:
            self.back = max(0, len(tail) - height)
        end = len(tail) - self.back
        return tail[max(0, end - height) : end]

    def render(self) -> Text:
        return Text("\n").join(self.shown_lines())

    def _scroll(self, step: int) -> None:
        before = self.back
        self.back = max(0, self.back + step)
        self._clamp()
        if self.back != before:
            self.border_subtitle = f"↓ {self.back} newer" if self.back else None
            self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll(2)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll(-2)

    def on_resize(self) -> None:
        self.refresh()
