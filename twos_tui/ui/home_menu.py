"""The home screen's menu: every entry drawn by one widget (:class:`HomeMenu`).

It looks exactly like the column of Textual ``Button``s it replaces (the same colours of
the theme, borders, focus and hover styles, measured cell by cell), and behaves like
them: Tab / Shift+Tab and the arrow keys move between the entries, Enter or Space opens
the one shown, a click opens the one under the pointer, and the pointer lights the
entry it is over. One widget instead of nine buttons in five containers is what makes
the start about as quick as a bare Textual app's (``benchmarks/bench_start.py``): each
button was styled, laid out and drawn on its own, with ``Button``'s long CSS to parse.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

__all__ = ["HomeMenu", "MenuEntry"]


class MenuEntry(NamedTuple):
    """One entry: its id (the action's name at the screen), its label and its look
    (``"primary"``, ``"error"`` or ``"default"``, as a ``Button``'s variant)."""

    id: str
    label: str
    variant: str = "default"


#: the borders and the colours of a Button of each variant, as Textual 8's Button CSS
#: gives them (its "-style-default" rules): background, top border, bottom border, text;
#: and on hover, background and top border. "auto" text: the theme's contrast text.
_LOOKS: dict[str, tuple[str, str, str, str, str, str]] = {
    "default": (
        "surface",
        "surface-lighten-1",
        "surface-darken-1",
        "button-foreground",
        "surface-darken-1",
        "surface",
    ),
    "primary": (
        "primary",
        "primary-lighten-3",
        "primary-darken-3",
        "button-color-foreground",
        "primary-darken-2",
        "primary",
    ),
    "error": (
        "error",
        "error-lighten-2",
        "error-darken-3",
        "button-color-foreground",
        "error-darken-1",
        "error",
    ),
}

ROW_HEIGHT = 3  #: a border line, the label, a border line


class HomeMenu(Widget, can_focus=True):
    """Rows of one or two entries; a row of two splits the width with one column of
    space between them (a lone entry left in such a row keeps its side's width plus
    the other's, as the buttons did). One entry is highlighted: it is drawn as focused
    while the menu has the focus."""

    BINDINGS = [
        Binding("enter,space", "choose", "Open", show=False),
        Binding("tab", "step(1)", "Next", show=False),
        Binding("shift+tab", "step(-1)", "Previous", show=False),
        Binding("down", "row(1)", "Down", show=False),
        Binding("up", "row(-1)", "Up", show=False),
        Binding("right", "column(1)", "Right", show=False),
        Binding("left", "column(-1)", "Left", show=False),
    ]

    class Chosen(Message):
        """An entry was opened (a key or a click); ``entry`` is its id."""

        def __init__(self, entry: str) -> None:
            super().__init__()
            self.entry = entry

    def __init__(
        self, rows: list[list[MenuEntry]], *, hidden: set[str] | None = None, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.rows = rows
        #: the ids of the entries left out (see :meth:`set_hidden`)
        self.hidden: set[str] = set(hidden or ())
        #: the entry drawn as focused (while the menu has the focus)
        self.highlighted = self.shown()[0]
        #: the entry under the mouse pointer, if any
        self.hover: str | None = None
        self._drawn: tuple[object, ...] | None = None
        self._strips: list[Strip] = []

    # ----- what is shown ----------------------------------------------------------------
    def shown(self) -> list[str]:
        """The ids of the entries shown, in their order (Tab's order)."""
        return [e.id for row in self.visible_rows() for e in row]

    def visible_rows(self) -> list[list[MenuEntry]]:
        rows = [[e for e in row if e.id not in self.hidden] for row in self.rows]
        return [row for row in rows if row]

    def set_hidden(self, entry: str, hidden: bool) -> None:
        """Show or hide an entry (Continue with no save to continue)."""
        if (entry in self.hidden) == hidden:
            return
        if hidden:
            self.hidden.add(entry)
        else:
            self.hidden.discard(entry)
        if self.highlighted not in self.shown():
            self.highlighted = self.shown()[0]
        self.refresh(layout=True)

    def entry_regions(self) -> dict[str, Region]:
        """Where each shown entry is drawn, in the menu's own cells."""
        width = self.size.width
        left = (width - 1) // 2
        found: dict[str, Region] = {}
        for r, (row, whole) in enumerate(zip(self.visible_rows(), self._rows_whole(), strict=True)):
            y = r * ROW_HEIGHT
            if len(row) == 2:
                found[row[0].id] = Region(0, y, left, ROW_HEIGHT)
                found[row[1].id] = Region(left + 1, y, width - left - 1, ROW_HEIGHT)
            else:
                found[row[0].id] = Region(0, y, width if whole else width - 1, ROW_HEIGHT)
        return found

    def _rows_whole(self) -> list[bool]:
        """Per visible row: it is a row of one entry by design (as New game)."""
        return [len(row) == 1 for row in self.rows if any(e.id not in self.hidden for e in row)]

    def entry_at(self, x: int, y: int) -> str | None:
        for entry, region in self.entry_regions().items():
            if region.contains(x, y):
                return entry
        return None

    # ----- keys and the mouse -----------------------------------------------------------
    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.highlighted))

    def action_step(self, by: int) -> None:
        shown = self.shown()
        at = shown.index(self.highlighted) if self.highlighted in shown else 0
        self._highlight(shown[(at + by) % len(shown)])

    def action_row(self, by: int) -> None:
        rows = self.visible_rows()
        r, c = self._position(rows)
        target = rows[(r + by) % len(rows)]
        self._highlight(target[min(c, len(target) - 1)].id)

    def action_column(self, by: int) -> None:
        rows = self.visible_rows()
        r, c = self._position(rows)
        row = rows[r]
        self._highlight(row[(c + by) % len(row)].id)

    def _position(self, rows: list[list[MenuEntry]]) -> tuple[int, int]:
        for r, row in enumerate(rows):
            for c, e in enumerate(row):
                if e.id == self.highlighted:
                    return r, c
        return 0, 0

    def _highlight(self, entry: str) -> None:
        if entry != self.highlighted:
            self.highlighted = entry
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        entry = self.entry_at(event.x, event.y)
        if entry is not None:
            event.stop()
            self._highlight(entry)
            self.post_message(self.Chosen(entry))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self.entry_at(event.x, event.y))

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, entry: str | None) -> None:
        if entry != self.hover:
            self.hover = entry
            self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ----- drawing ----------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return ROW_HEIGHT * len(self.visible_rows())

    def render_line(self, y: int) -> Strip:
        # (the colours come from the theme's variables: a new theme restyles every
        # widget, which draws the menu again, and the key below sees the new theme)
        key = (
            id(self.app.theme_variables),
            self.app.theme,
            self.size,
            frozenset(self.hidden),
            self.highlighted,
            self.has_focus,
            self.hover,
            self.background_colors[0],
        )
        if key != self._drawn:
            self._strips = self._draw()
            self._drawn = key
        return self._strips[y] if y < len(self._strips) else Strip.blank(self.size.width)

    def _draw(self) -> list[Strip]:
        variables = self.app.theme_variables
        outside = Style(bgcolor=self.background_colors[0].rich_color)
        foreground = Color.parse(variables.get("foreground", "#e0e0e0"))
        focus_style = Style.parse(variables.get("button-focus-text-style", "b reverse"))
        regions = self.entry_regions()
        lines: list[list[Segment]] = [[] for _ in range(ROW_HEIGHT * len(self.visible_rows()))]
        for row in self.visible_rows():
            for e in row:
                region = regions[e.id]
                bg_name, top_name, bottom_name, text_name, hover_bg, hover_top = _LOOKS[e.variant]
                hovered = e.id == self.hover
                bg = _colour(variables, hover_bg if hovered else bg_name)
                focused = self.has_focus and e.id == self.highlighted
                if focused:  # (Button's "background-tint: $foreground 5%")
                    bg = bg.blend(foreground, 0.05)
                top = _colour(variables, hover_top if hovered else top_name)
                bottom = _colour(variables, bottom_name)
                text = _text_colour(variables.get(text_name, "auto 87%"), bg)
                base = Style(bgcolor=bg.rich_color)
                label_style = Style(color=text.rich_color, bgcolor=bg.rich_color)
                # (the focused entry's text style replaces the bold: "text-style: $x")
                label_style += focus_style if focused else Style(bold=True)
                y, x, width = region.y, region.x, region.width
                gap = [Segment(" ", outside)] if x == 0 and width < self.size.width else []
                label = f" {e.label} "
                pad = max(0, width - len(label))
                lines[y] += [Segment("▔" * width, Style(color=top.rich_color) + base)]
                lines[y + 1] += [
                    Segment(" " * (pad // 2), base),
                    Segment(label, label_style),
                    Segment(" " * (pad - pad // 2), base),
                ]
                lines[y + 2] += [Segment("▁" * width, Style(color=bottom.rich_color) + base)]
                for line in lines[y : y + 3]:
                    line += gap
        return [Strip(line).adjust_cell_length(self.size.width, outside) for line in lines]


def _colour(variables: dict[str, str], name: str) -> Color:
    return Color.parse(variables.get(name, "#808080"))


def _text_colour(value: str, background: Color) -> Color:
    """A colour of the theme's CSS as drawn on ``background``: ``auto 87%`` is the
    background's contrasting text at 87%."""
    words = value.split()
    if words and words[0] == "auto":
        alpha = float(words[1].rstrip("%")) / 100 if len(words) > 1 else 1.0
        return background + background.get_contrast_text(alpha)
    return background + Color.parse(value)
