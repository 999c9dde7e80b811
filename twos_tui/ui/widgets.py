"""Widgets of the table shared by every game: the hand, seat panels, text panels (the
play log is in ``playlog.py``; the key bar, header and lists of every screen in
``chrome.py``, re-exported here).

Cards are drawn from the engine's ``card_face`` (rank, suit glyph, colour hint): rank
and suit are always written out, colour only adds to them. All card text goes through
Rich ``Text`` objects, never markup, so labels like ``[10♠]`` are shown as they are.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Span, Text
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from .cardart import (
    CARD_H,
    FACE_BG,
    HINT_BG,
    SELECTED_BG,
    Canvas,
    FaceFn,
    best_stride,
    chip,
    chips,
)
from .chrome import KeyBar, SafeHeader, SafeOptionList
from .playlog import PlayLog

if TYPE_CHECKING:  # (annotations only: the home screen's start needs no engine)
    from rich.console import JustifyMethod

    from ..engine.cards import CardFace

__all__ = [
    "HandView",
    "InfoPanel",
    "KeyBar",
    "MessageLine",
    "PlayLog",
    "SafeHeader",
    "SafeOptionList",
    "SeatPanel",
    "cards_text",
    "chip",
    "set_border",
    "update_static",
]


def cards_text(codes: list[str], face: FaceFn) -> Text:
    """A row of card chips separated by spaces."""
    return chips(codes, face)


#: what a Static last showed: the text's characters, spans, style, justification and end
_ShownText = tuple[str, tuple[Span, ...], str, "JustifyMethod | None", str]
_SHOWN: weakref.WeakKeyDictionary[Widget, _ShownText] = weakref.WeakKeyDictionary()


def update_static(widget: Static, text: Text) -> bool:
    """``widget.update(text)`` unless it already shows exactly that text: an unchanged
    panel then costs no repaint and no layout pass. True when it was updated."""
    key: _ShownText = (text.plain, tuple(text.spans), str(text.style), text.justify, text.end)
    if _SHOWN.get(widget) == key:
        return False
    _SHOWN[widget] = key
    widget.update(text)
    return True


#: the border title and subtitle a widget was last given (see :func:`set_border`)
_BORDERS: weakref.WeakKeyDictionary[Widget, tuple[str, str]] = weakref.WeakKeyDictionary()


def _border_key(text: str | Text | None) -> str:
    if isinstance(text, Text):
        return repr((text.plain, tuple(text.spans), str(text.style)))
    return "" if text is None else "str:" + text


def set_border(widget: Widget, title: str | Text | None, subtitle: str | Text | None) -> None:
    """Give ``widget`` a border title and subtitle, unless it already has those: Textual
    repaints a widget whenever either is set, even to what it was."""
    key = (_border_key(title), _border_key(subtitle))
    if _BORDERS.get(widget) == key:
        return
    _BORDERS[widget] = key
    widget.border_title = title
    widget.border_subtitle = subtitle


class HandView(Widget, can_focus=True):
    """The player's hand.

    Two looks: *chips* (one line a card, for small windows) and *framed cards* (rank and
    suit in two corners, overlapping in a fan when the hand is wide) when the screen
    sets ``framed`` and the cards fit. Selected cards are raised by one line; the cursor
    card has a bar under it (and a heavy frame); the cards of a hint are marked ◆ (and a
    double frame). None of it depends on colour. Clicking a card toggles it.
    """

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 3; padding: 0 0; }
    """

    class Toggled(Message):
        """A card was clicked (the screen decides what selection means)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    cursor = reactive(0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cards: list[str] = []
        self.selected: set[str] = set()
        self.hinted: set[str] = set()
        self.faces: list[CardFace] = []
        self.message_text = ""
        self.selectable = True
        self.framed = False  #: draw framed cards when they fit (the screen decides)
        self._longest = 2  #: the longest card label in the hand
        #: lines shown instead of a hand (the hands offered in 2-player Chinese Poker)
        self.offer: Text | None = None

    def set_hand(
        self,
        cards: list[str],
        faces: list[CardFace],
        selected: set[str],
        message: str = "",
        selectable: bool = True,
        offer: Text | None = None,
    ) -> bool:
        """The hand's part of the table: its cards (and their faces), the cards raised,
        a line shown instead of cards (``message``), whether cards may be picked now, and
        ``offer``: lines shown in the hand's place (the hands offered in 2-player
        Chinese Poker). What equals what is shown changes nothing; the hand is laid out
        again only where its height may change (then True is returned)."""
        if (
            cards == self.cards
            and faces == self.faces
            and selected == self.selected
            and message == self.message_text
            and selectable == self.selectable
            and offer == self.offer
        ):
            return False
        if cards != self.cards:
            self.hinted &= set(cards)
        longest = max((len(f.label) for f in faces), default=2)
        resized = (
            len(cards) != len(self.cards)
            or longest != self._longest  # (chips as wide as the longest label: rows)
            or bool(message) != bool(self.message_text)
            or offer != self.offer
        )
        self._longest = longest
        self.cards = list(cards)
        self.faces = list(faces)
        self.selected = set(selected)
        self.message_text = message
        self.selectable = selectable
        self.offer = offer
        if self.cursor >= len(self.cards):
            self.cursor = max(0, len(self.cards) - 1)
        self.refresh(layout=resized)
        return resized

    def set_selected(self, selected: set[str]) -> None:
        if selected != self.selected:
            self.selected = set(selected)
            self.refresh()

    def set_hint(self, cards: Iterable[str]) -> None:
        hinted = set(cards) & set(self.cards)
        if hinted != self.hinted:
            self.hinted = hinted
            self.refresh()

    def set_framed(self, framed: bool) -> None:
        if framed != self.framed:
            self.framed = framed
            self.refresh(layout=True)

    def watch_cursor(self) -> None:
        self.refresh()

    # geometry --------------------------------------------------------------------------
    def _width(self, width: int | None = None) -> int:
        return max(1, self.content_region.width if width is None else width)

    def stride(self, width: int | None = None) -> int | None:
        """The framed fan's stride, or ``None`` when the hand is drawn as chips."""
        if not self.framed or not self.cards or self.message_text:
            return None
        return best_stride(len(self.cards), self._width(width))

    def chip_geometry(self, width: int | None = None) -> tuple[int, int]:
        """(chip width, cards a row) for the chip look: the widest chips that need the
        fewest rows."""
        width = self._width(width)
        longest = self._longest
        best: tuple[int, int, int] | None = None
        for cell in (max(4, longest + 2), longest + 1, max(longest, 2)):
            per_row = max(1, (width + 1) // (cell + 1))
            rows = -(-max(1, len(self.cards)) // per_row)
            if best is None or rows < best[0]:
                best = (rows, cell, per_row)
        assert best is not None
        return best[1], best[2]

    @property
    def cell(self) -> int:
        return self.chip_geometry()[0]

    def per_row(self, width: int | None = None) -> int:
        if self.stride(width) is not None:
            return max(1, len(self.cards))
        return self.chip_geometry(width)[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.offer is not None:
            return max(3, len(self.offer.wrap(self.app.console, max(1, width))))
        if self.message_text or not self.cards:
            return 3
        if self.stride(width) is not None:
            return CARD_H + 2
        rows = -(-len(self.cards) // self.per_row(width))
        return rows * 3

    def index_at(self, x: int, y: int) -> int | None:
        n = len(self.cards)
        stride = self.stride()
        if stride is not None:
            if x < 0 or x >= (n - 1) * stride + 5:
                return None
            return min(x // stride, n - 1)
        cell, per_row = self.chip_geometry()
        col, rem = divmod(x, cell + 1)
        if rem >= cell or col >= per_row:
            return None
        i = (y // 3) * per_row + col
        return i if 0 <= i < n else None

    # drawing ---------------------------------------------------------------------------
    def render(self) -> Text:
        if self.offer is not None:
            return self.offer
        if self.message_text or not self.cards:
            return Text("\n" + (self.message_text or "(no cards)"), style="italic")
        stride = self.stride()
        if stride is not None:
            return self._render_framed(stride)
        return self._render_chips()

    def _marker(self, i: int, width: int, sel: bool) -> tuple[str, str]:
        """The line under card ``i``: cursor bar, hint mark, raised mark."""
        code = self.cards[i]
        mark = "◆" if code in self.hinted else ("▲" if sel else "")
        if i == self.cursor and self.selectable:
            bar = mark.center(width, "▔") if mark else "▔" * width
            return bar, "bold yellow" if self.has_focus else "grey50"
        if mark:
            return mark.center(width), "bold green" if mark == "◆" else "bold"
        return " " * width, ""

    def _render_chips(self) -> Text:
        w, n = self.chip_geometry()
        lines: list[Text] = []
        for start in range(0, len(self.cards), n):
            top, mid, bar = Text(), Text(), Text()
            for i in range(start, min(start + n, len(self.cards))):
                if i > start:
                    for t in (top, mid, bar):
                        t.append(" ")
                code = self.cards[i]
                sel = code in self.selected
                face = self.faces[i]
                c = chip(face, w, sel, HINT_BG if code in self.hinted and not sel else None)
                blank = Text(" " * w)
                top.append_text(c if sel else blank)
                mid.append_text(blank if sel else c)
                text, style = self._marker(i, w, sel)
                bar.append(text, style=style)
            lines.extend([top, mid, bar])
        return Text("\n").join(lines)

    def _render_framed(self, stride: int) -> Text:
        n = len(self.cards)
        width = (n - 1) * stride + 5
        canvas = Canvas(width, CARD_H + 2)
        for i, (code, face) in enumerate(zip(self.cards, self.faces, strict=False)):
            sel = code in self.selected
            y = 0 if sel else 1
            if i == self.cursor and self.selectable and self.has_focus:
                border = "cursor"
            elif code in self.hinted:
                border = "hint"
            else:
                border = "plain"
            bg = SELECTED_BG if sel else (HINT_BG if code in self.hinted else FACE_BG)
            canvas.card(i * stride, y, face, border, bg)
            shown = stride if i < n - 1 else 5
            text, style = self._marker(i, shown, sel)
            canvas.put(i * stride, CARD_H + 1, text, _style(style))
        return canvas.to_text()

    # events ----------------------------------------------------------------------------
    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards or self.message_text or self.offer is not None:
            return
        i = self.index_at(offset.x, offset.y)
        if i is not None:
            self.cursor = i
            self.post_message(self.Toggled(i))


def _style(name: str) -> Style | None:
    return Style.parse(name) if name else None


class SeatPanel(Static):
    """One seat: name, cards left, tags (passed, dealer, lone, duo...), whose turn."""

    DEFAULT_CSS = """
    SeatPanel {
        border: round $panel-lighten-2; height: auto; min-height: 4; padding: 0 1;
        border-title-style: bold; border-subtitle-align: right;
    }
    """

    _turn: bool | None = None
    _shown: tuple[Any, ...] | None = None  #: the last :meth:`show`'s arguments
    _width = -1  #: the width it was drawn for
    TITLE_CHROME = 6  #: the cells of the top border that are not its title (corners,
    #: the lines and the spaces beside the title)

    def show(
        self,
        name: str,
        count: int | None,
        tags: list[str],
        turn: bool,
        extra: list[Text] | None = None,
        ai: bool = False,
        thinking: bool = False,
        name_first: bool = False,
    ) -> bool:
        """``name_first``: where the border is too narrow for the title (four seats in a
        row: a spectator's at 80 columns), the name leads the text, where it has the
        whole width, and "AI" joins the tags (the border already marks the turn).
        The same seat again, at the same width, changes nothing. True when the text
        changed (its height may have)."""
        shown = (name, count, tags, turn, extra, ai, thinking, name_first)
        if shown == self._shown and self.outer_size.width == self._width:
            return False
        self._shown = shown
        self._width = self.outer_size.width
        title = ("▶ " if turn else "") + name + (" (AI)" if ai else "")
        room = self.outer_size.width - self.TITLE_CHROME
        narrow = name_first and 0 < room < len(title)
        t = Text()
        if narrow:
            t.append(name, style="bold")
            t.append("\n")
            if ai:
                tags = ["AI", *tags]
        if count is not None:
            t.append(f"{count} card{'s' if count != 1 else ''}")
        if tags:
            if count is not None:
                t.append(" · ")
            t.append(" · ".join(tags), style="italic")
        for e in extra or []:
            t.append("\n")
            t.append_text(e)
        if turn != self._turn:
            # an inline border, not a CSS class: a class change restyles the widget
            # through the whole stylesheet, on every turn
            self._turn = turn
            colours = getattr(self.app, "theme_variables", {})
            if turn:
                self.styles.border = ("heavy", colours.get("warning", "yellow"))
            else:
                self.styles.border = ("round", colours.get("panel-lighten-2", "grey50"))
        set_border(
            self,
            Text("▶" if turn else "") if narrow else Text(title),
            "thinking…" if thinking else ("to play" if turn else None),
        )
        return update_static(self, t)

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)  # (the title's room changed: drawn again)


class MessageLine(Static):
    """The line under the prompt (a reason, a preview, a hint). Its height follows its
    text, but a new text of as many lines only repaints this line: no layout pass of
    the screen, so selecting a card costs no more than drawing it."""

    DEFAULT_CSS = """
    MessageLine { height: auto; max-height: 4; padding: 0 1; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__("", **kw)
        self.text = Text()
        self._rows = self.ROWS

    ROWS = 2  #: rows kept even for a shorter text (most reasons and previews fit)

    def _rows_for(self, text: Text, width: int) -> int:
        if not text.plain or width <= 0:
            return self.ROWS
        return max(self.ROWS, len(text.wrap(self.app.console, width)))

    def set(self, text: Text) -> None:
        self.text = text
        rows = self._rows_for(text, self.content_region.width)
        self.refresh(layout=rows != self._rows)
        self._rows = rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._rows = self._rows_for(self.text, width)
        return self._rows

    def render(self) -> Text:
        return self.text


class InfoPanel(Static):
    """A bordered panel of plain text (the score panel)."""

    DEFAULT_CSS = """
    InfoPanel { border: round $panel-lighten-2; padding: 0 1; height: auto; }
    """

    def show(self, text: Text, title: str | None = None, subtitle: str | None = None) -> bool:
        """The panel's text and border words; what it shows already changes nothing.
        True when the text changed (its height may have)."""
        set_border(self, title, subtitle)
        return update_static(self, text)
