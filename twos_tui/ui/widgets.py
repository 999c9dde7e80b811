"""Widgets of the table: the hand, seat panels, the trick, the score panel.

Cards are drawn from the engine's ``card_face`` (rank, suit glyph, colour hint): rank
and suit are always written out, colour only adds to them. All card text goes through
Rich ``Text`` objects, never markup, so labels like ``[10♠]`` are shown as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ..engine.cards import CardFace

FaceFn = Callable[[str], CardFace]

#: colour hints from ``card_face`` -> ink that reads well on the light card face
_COLOURS = {
    "red": "#c0182b",
    "black": "#111111",
    "dim": "grey50",
    "blue": "#1f48b0",
    "yellow": "#8a5a00",
    "green": "#17702a",
    "magenta": "#93207f",
    "white": "#4a4a4a",
    "purple": "#6a2aa0",
    "orange": "#a04a00",
}


def chip_style(face: CardFace, selected: bool = False) -> Style:
    """The look of one card chip: a light face, the suit's colour for the text."""
    if face.face_down:
        return Style(color="grey85", bgcolor="#2a4a7a", bold=True)
    colour = _COLOURS.get(face.colour, face.colour)
    try:
        style = Style(color=colour, bgcolor="#fffbe8" if not selected else "#ffe58a", bold=True)
    except Exception:  # an unknown colour name from a variant: rank and suit still show
        style = Style(color="black", bgcolor="#fffbe8", bold=True)
    return style


def chip(face: CardFace, width: int | None = None, selected: bool = False) -> Text:
    label = "▒▒" if face.face_down else face.label
    width = width or len(label) + 2
    return Text(label.center(width), style=chip_style(face, selected))


def cards_text(codes: list[str], face: FaceFn) -> Text:
    """A row of card chips separated by spaces."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(chip(face(code)))
    return out


def update_static(widget: Static, text: Text) -> None:
    """``widget.update(text)`` unless it already shows exactly that text: an unchanged
    panel then costs no repaint and no layout pass."""
    key = (text.plain, tuple(text.spans), str(text.style), text.justify, text.end)
    if getattr(widget, "_shown_key", None) == key:
        return
    widget._shown_key = key  # type: ignore[attr-defined]
    widget.update(text)


class HandView(Widget, can_focus=True):
    """The player's hand as a row (or rows) of cards.

    Selected cards are drawn raised by one line and the cursor card is underlined by a
    bar, so neither depends on colour. Clicking a card toggles it.
    """

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 3; padding: 0 1; }
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
        self.faces: list[CardFace] = []
        self.message_text = ""
        self.selectable = True

    def set_hand(
        self,
        cards: list[str],
        faces: list[CardFace],
        selected: set[str],
        message: str = "",
        selectable: bool = True,
    ) -> None:
        resized = len(cards) != len(self.cards) or bool(message) != bool(self.message_text)
        self.cards = list(cards)
        self.faces = list(faces)
        self.selected = set(selected)
        self.message_text = message
        self.selectable = selectable
        if self.cursor >= len(self.cards):
            self.cursor = max(0, len(self.cards) - 1)
        self.refresh(layout=resized)

    def set_selected(self, selected: set[str]) -> None:
        self.selected = set(selected)
        self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    # geometry --------------------------------------------------------------------------
    @property
    def cell(self) -> int:
        longest = max((len(f.label) for f in self.faces), default=2)
        return max(4, longest + 2)

    def per_row(self, width: int | None = None) -> int:
        width = self.content_region.width if width is None else width
        return max(1, (max(width, 1) + 1) // (self.cell + 1))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.message_text or not self.cards:
            return 3
        rows = -(-len(self.cards) // self.per_row(width))
        return rows * 3

    def index_at(self, x: int, y: int) -> int | None:
        stride = self.cell + 1
        col, rem = divmod(x, stride)
        if rem >= self.cell or col >= self.per_row():
            return None
        i = (y // 3) * self.per_row() + col
        return i if 0 <= i < len(self.cards) else None

    def render(self) -> Text:
        if self.message_text or not self.cards:
            return Text("\n" + (self.message_text or "(no cards)"), style="italic")
        n = self.per_row()
        w = self.cell
        lines: list[Text] = []
        for start in range(0, len(self.cards), n):
            top, mid, bar = Text(), Text(), Text()
            for i in range(start, min(start + n, len(self.cards))):
                if i > start:
                    for t in (top, mid, bar):
                        t.append(" ")
                face = self.faces[i]
                sel = self.cards[i] in self.selected
                c = chip(face, w, sel)
                blank = Text(" " * w)
                top.append_text(c if sel else blank)
                mid.append_text(blank if sel else c)
                if i == self.cursor and self.selectable and self.has_focus:
                    bar.append("▔" * w if not sel else "▲".center(w, "▔"), style="bold yellow")
                elif i == self.cursor and self.selectable:
                    bar.append("▔" * w, style="grey50")
                elif sel:
                    bar.append("▲".center(w), style="bold")
                else:
                    bar.append(" " * w)
            lines.extend([top, mid, bar])
        return Text("\n").join(lines)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards or self.message_text:
            return
        i = self.index_at(offset.x, offset.y)
        if i is not None:
            self.cursor = i
            self.post_message(self.Toggled(i))


class SeatPanel(Static):
    """One seat: name, cards left, tags (passed, dealer, lone, duo...), whose turn."""

    DEFAULT_CSS = """
    SeatPanel { border: round $panel-lighten-2; height: auto; min-height: 5; padding: 0 1; }
    SeatPanel.turn { border: heavy $warning; }
    SeatPanel.me { border: round $accent; }
    """

    def show(
        self,
        name: str,
        count: int | None,
        tags: list[str],
        turn: bool,
        extra: list[Text] | None = None,
        ai: bool = False,
    ) -> None:
        t = Text()
        t.append(("▶ " if turn else "") + name, style="bold")
        if ai:
            t.append(" (AI)", style="dim")
        t.append("\n")
        if count is not None:
            t.append(f"{count} card{'s' if count != 1 else ''}")
        if tags:
            t.append("\n" + " · ".join(tags), style="italic")
        for e in extra or []:
            t.append("\n")
            t.append_text(e)
        self.set_class(turn, "turn")
        self.border_title = "to play" if turn else None
        update_static(self, t)


class InfoPanel(Static):
    """A bordered panel of plain text (score panel, trick)."""

    DEFAULT_CSS = """
    InfoPanel { border: round $panel-lighten-2; padding: 0 1; height: auto; }
    """


def _line(width: int, parts: list[tuple[int, Text]]) -> Text:
    """Place text pieces at columns on one line (later pieces move right if they collide)."""
    out = Text()
    col = 0
    for at, piece in sorted(parts, key=lambda p: p[0]):
        at = max(at, col + (1 if col else 0))
        out.append(" " * (at - col))
        out.append_text(piece)
        col = at + piece.cell_len
    if col < width:
        out.append(" " * (width - col))
    return out


class SeatInfo:
    """What the compass shows of one seat."""

    def __init__(
        self,
        name: str,
        count: int | None,
        tags: list[str],
        turn: bool,
        cards: Text | None,
        ai: bool,
    ) -> None:
        self.name, self.count, self.tags, self.turn = name, count, tags, turn
        self.cards, self.ai = cards, ai

    def title(self) -> Text:
        t = Text()
        if self.turn:
            t.append("▶ ", style="bold yellow")
        t.append(self.name, style="bold reverse" if self.turn else "bold")
        if self.ai:
            t.append(" (AI)", style="dim")
        return t

    def info(self) -> Text:
        bits = []
        if self.count is not None:
            bits.append(f"{self.count} card{'s' if self.count != 1 else ''}")
        bits.extend(self.tags)
        if self.turn:
            bits.append("to play")
        return Text(" · ".join(bits), style="italic")


class CompassView(Widget):
    """The trick-taking table: opponents around the trick, you at the bottom.

    Positions are "north", "west", "east" (the seats after yours, to your left first)
    and "south" (you); each shows its name, cards left, tags and the card(s) it played.
    """

    DEFAULT_CSS = """
    CompassView { height: auto; min-height: 8; border: round $panel-lighten-2; padding: 0 1; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.seats: dict[str, SeatInfo] = {}
        self.status = Text()
        self.note = ""

    def show(self, seats: dict[str, SeatInfo], status: Text, note: str = "") -> None:
        self.seats = seats
        self.status = status
        self.note = note
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 8 if "north" in self.seats else 6

    def render(self) -> Text:
        w = max(self.content_region.width, 20)
        if self.note:
            return Text(self.note, style="italic")
        lines: list[Text] = []
        centre = w // 2

        def centred(t: Text) -> Text:
            return _line(w, [(max(0, centre - t.cell_len // 2), t)])

        n = self.seats.get("north")
        if n is not None:
            lines.append(centred(n.title()))
            lines.append(centred(n.info()))
            lines.append(centred(n.cards or Text("·", style="dim")))
        we, ea = self.seats.get("west"), self.seats.get("east")
        names, infos, plays = [], [], []
        if we is not None:
            names.append((0, we.title()))
            infos.append((0, we.info()))
            plays.append(
                (
                    max(0, w // 4 - (we.cards.cell_len if we.cards else 1) // 2),
                    we.cards or Text("·", style="dim"),
                )
            )
        if ea is not None:
            t, i = ea.title(), ea.info()
            names.append((max(0, w - t.cell_len), t))
            infos.append((max(0, w - i.cell_len), i))
            c = ea.cards or Text("·", style="dim")
            plays.append((max(0, 3 * w // 4 - c.cell_len // 2), c))
        lines += [_line(w, names), _line(w, infos), _line(w, plays)]
        s = self.seats.get("south")
        if s is not None:
            you = Text.assemble(s.cards or Text("·", style="dim"), "  ", Text(s.name, style="bold"))
            lines.append(centred(you))
        lines.append(self.status)
        return Text("\n").join(lines)
