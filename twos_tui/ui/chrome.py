"""The frame of every screen: the key bar at the bottom (:class:`KeyBar`), the header
and the option lists made safe against Textual's edge cases. The home screen needs only
these, not the table's widgets (``widgets.py``), so the start imports this small module
alone."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.content import Content
from textual.dom import DOMNode
from textual.markup import escape
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static

__all__ = [
    "LEAVE_ACTIONS",
    "KeyBar",
    "SafeCommandPalette",
    "SafeHeader",
    "SafeOptionList",
    "event_clock",
    "focus_first",
]


def event_clock() -> float:
    """Now, on the clock Textual stamps each event's ``time`` with: a key's ``time`` is
    compared with it (was the key pressed before a screen appeared?). Read as a fresh
    message's stamp, so it is the same clock whichever one Textual uses."""
    return Message().time


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


class SafeCommandPalette(CommandPalette):
    """Textual's command palette, whose Page Up / Page Down cannot end the app.

    Textual 8.2.8's list of commands pages by the lines it has drawn; in a terminal too
    small to draw any (10x3, even 10x4) it has drawn none and paging raised ``KeyError``.
    There the keys go to the first or the last command instead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page_commands('down')", "Next page", show=False),
        Binding("pageup", "page_commands('up')", "Previous page", show=False),
    ]

    def action_page_commands(self, direction: str) -> None:
        commands = self.query_one(CommandList)
        # (Textual 8.2.8 leaves OptionList's page actions without annotations)
        try:
            if direction == "up":
                commands.action_page_up()  # type: ignore[no-untyped-call]
            else:
                commands.action_page_down()  # type: ignore[no-untyped-call]
        except (KeyError, IndexError):
            if direction == "up":
                commands.action_first()
            else:
                commands.action_last()


class TitleIcon(Widget):
    """The header's icon at the left; a click opens the command palette."""

    DEFAULT_CSS = """
    TitleIcon { dock: left; padding: 0 1; width: 8; content-align: left middle; }
    TitleIcon:hover { background: $foreground 10%; }
    """

    def __init__(self, icon: str) -> None:
        super().__init__()
        self.icon = icon

    def on_mount(self) -> None:
        if self.app.ENABLE_COMMAND_PALETTE:
            self.tooltip = "Open the command palette"
        else:
            self.disabled = True

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        await self.run_action("app.command_palette")

    def render(self) -> Content:
        return Content(self.icon)


class TitleText(Static):
    """The header's title and sub-title, centred, cut with an ellipsis if too long."""

    DEFAULT_CSS = """
    TitleText {
        text-wrap: nowrap; text-overflow: ellipsis; content-align: center middle;
        width: 100%;
    }
    """


class TitleClock(Widget):
    """The header's right end: the time of day (``show_clock``), else blank."""

    DEFAULT_CSS = """
    TitleClock { dock: right; width: 10; padding: 0 1; }
    TitleClock.-clock {
        background: $foreground-darken-1 5%; color: $foreground; text-opacity: 85%;
        content-align: center middle;
    }
    """

    def __init__(self, show_clock: bool) -> None:
        super().__init__(classes="-clock" if show_clock else "")
        self.show_clock = show_clock

    def on_mount(self) -> None:
        if self.show_clock:
            self.set_interval(1, self.refresh, name="header clock")

    def render(self) -> Content:
        return Content(datetime.now().strftime("%X") if self.show_clock else "")


class SafeHeader(Widget):
    """The line at the top of a screen: an icon (a click opens the command palette), the
    screen's title and sub-title (the app's where the screen has none), and optionally
    the time. Drawn as Textual's ``Header`` draws it, but our own widget, on Textual's
    public API: it watches only its own screen's titles (Textual 8.2.8's ``Header`` also
    watches the app's, and the app then kept every closed screen's header alive), and a
    title change that reaches it while its screen is taken down goes nowhere instead of
    ending the app. The app's own titles are read whenever the header shows its title;
    an app that changes them calls :meth:`show_title` (``TwosApp`` does)."""

    DEFAULT_CSS = """
    SafeHeader {
        dock: top; width: 100%; height: 1; background: $panel; color: $foreground;
    }
    """

    def __init__(
        self,
        show_clock: bool = False,
        *,
        icon: str = "⭘",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.icon = icon
        self.show_clock = show_clock
        self.title_part = TitleText()

    def compose(self) -> ComposeResult:
        yield TitleIcon(self.icon)
        yield self.title_part
        yield TitleClock(self.show_clock)

    def on_mount(self) -> None:
        self.watch(self.screen, "title", self.show_title)
        self.watch(self.screen, "sub_title", self.show_title)

    def title_content(self) -> Content:
        """The title as shown: the screen's (else the app's) title and sub-title, in the
        app's format."""
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def show_title(self) -> None:
        if self.is_attached and self.title_part.is_attached:
            self.title_part.update(self.title_content())

    def shown_title(self) -> str:
        """The title as drawn now (for tests)."""
        return str(self.title_part.render())


#: the actions that take a player off a screen or a dialog: the key bound to the first
#: of them is listed first in :class:`KeyBar`, so it is always seen (``leave`` and
#: ``choose('home', …)`` with any words after: the key says where it goes)
LEAVE_ACTIONS = ("leave", "back", "close", "quit", "choose('home')", "answer(False)")


def leaves(action: str) -> bool:
    """Whether ``action`` (a binding's action string) is one of :data:`LEAVE_ACTIONS`."""
    return (
        action in LEAVE_ACTIONS
        or action.startswith("leave(")
        or action.startswith("choose('home',")
    )


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
            if leaves(binding.action) and not leave:
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
