"""The frame of every screen: the key bar at the bottom (:class:`KeyBar`), the header
and the option lists made safe against Textual's edge cases. The home screen needs only
these, not the table's widgets (``widgets.py``), so the start imports this small module
alone."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.markup import escape
from textual.widget import Widget
from textual.widgets import Header, OptionList

from .textual_private import HeaderTitle, forget_closed_watchers

__all__ = ["LEAVE_ACTIONS", "KeyBar", "SafeHeader", "SafeOptionList", "focus_first"]


def focus_first(screen: DOMNode, selector: str) -> None:
    """Focus the first widget matching ``selector``, if it is still there: a dialog taken
    down as it opens (the app exiting, a deal ending at the instant pace) may have lost
    its widgets by the time its ``on_mount`` runs."""
    found = screen.query(selector)
    if found:
        found.first().focus()


class SafeOptionList(OptionList):
    """An ``OptionList`` whose Page Up / Page Down do nothing while the list has no room.

    Textual 8.2.8's list measures its lines only when it has an area; squeezed to none
    (a tiny window) after a resize cleared that measure, paging raised ``KeyError`` and
    ended the app. With no visible rows there is no page to move by.
    """

    # (Textual 8.2.8 leaves OptionList's page actions without annotations, though they
    # return None like every other widget's: hence the two ignores)
    def action_page_up(self) -> None:
        if self.scrollable_content_region:
            super().action_page_up()  # type: ignore[no-untyped-call]

    def action_page_down(self) -> None:
        if self.scrollable_content_region:
            super().action_page_down()  # type: ignore[no-untyped-call]


class SafeHeader(Header):
    """Textual's ``Header``, but a title change that arrives after its title part was
    removed (the screen is being taken down) is ignored instead of raising ``NoMatches``
    and ending the app (Textual 8.2.8 catches only ``NoScreen`` there)."""

    def query_one(self, selector: Any, expect_type: Any = None) -> Any:
        try:
            return super().query_one(selector, expect_type)
        except NoMatches:
            if selector is HeaderTitle:
                return HeaderTitle()  # detached: its update goes nowhere
            raise

    def on_unmount(self) -> None:
        # Header watches the app's title: without this the app kept every header
        app = self.app
        app.call_later(forget_closed_watchers, app)


#: the actions that take a player off a screen or a dialog: the key bound to the first
#: of them is listed first in :class:`KeyBar`, so it is always seen
LEAVE_ACTIONS = ("leave", "back", "close", "quit", "choose('home')", "answer(False)")


class KeyBar(Widget):
    """The screen's keys on one line at the bottom, in place of Textual's ``Footer``.

    * The key that leaves the screen (``LEAVE_ACTIONS``) comes first and so is always
      shown; then the others in their order; a key that does not fit in the width is
      left out whole (the keys help lists them all), never cut. The command palette's
      key sits at the right while there is room.
    * One widget drawing one line: Textual 8.2.8's ``Footer`` builds a ``FooterKey``
      widget per key every time the bindings change, and those of a closed dialog stay
      alive (about 14 a deal at the deal-end dialog: ``benchmarks/bench_memory.py``).
    * Keys shown but not usable now (``check_action`` says ``None``) are dimmed; a click
      on a key presses it.
    """

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom; height: 1; width: 1fr;
        background: $footer-background; color: $footer-foreground;
    }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: (key to press, key shown, description, enabled), the leave key first
        self.keys: list[tuple[str, str, str, bool]] = []
        self.palette: tuple[str, str] | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Any) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        app = self.app
        palette_key = getattr(app, "COMMAND_PALETTE_BINDING", None)
        keys: list[tuple[str, str, str, bool]] = []
        leave: list[tuple[str, str, str, bool]] = []
        seen: set[str] = set()
        self.palette = None
        for key, (_node, binding, enabled, _tip) in screen.active_bindings.items():
            if key == palette_key and app.ENABLE_COMMAND_PALETTE:
                self.palette = (binding.key, app.get_key_display(binding))
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            item = (binding.key, app.get_key_display(binding), binding.description, enabled)
            if binding.action in LEAVE_ACTIONS and not leave:
                leave.append(item)
            else:
                keys.append(item)
        new = leave + keys
        if new != self.keys:
            self.keys = new
            self.refresh()

    def shown_text(self) -> str:
        """The line as drawn now (for tests)."""
        return self.render().plain

    def render(self) -> Content:
        width = self.size.width or self.app.size.width
        parts: list[Content] = []
        used = 0
        palette = None
        if self.palette is not None:
            key, shown = self.palette
            palette = Content.from_markup(
                f"▏[@click=app.simulate_key('{key}')][bold $footer-key-foreground]"
                f"{escape(shown)}[/] palette [/]"
            )
            width -= palette.cell_length
        for key, shown, description, enabled in self.keys:
            item = Content.from_markup(
                f"[@click=app.simulate_key('{key}')] [bold $footer-key-foreground]"
                f"{escape(shown)}[/] {escape(description)} [/]"
            )
            if not enabled:
                item = item.stylize("dim")
            if used + item.cell_length > width:
                continue  # left out whole: a later, shorter one may still fit
            parts.append(item)
            used += item.cell_length
        line = Content("").join(parts)
        if palette is not None:
            line = line.pad_right(max(0, width - used)) + palette
        return line
