"""Cards drawn as cards: compact chips for small windows, framed cards (rank and suit in
two corners) when there is room, overlapping in a fan when a hand is wide.

A framed card is 5 columns by 4 rows::

    ╭───╮   ╭───╮
    │7 ♠│   │10♠│
    │♠ 7│   │♠10│
    ╰───╯   ╰───╯

In a fan only the left part of a card shows (``stride`` columns, at least 3): the
border, the rank on the first line and the suit on the second, so rank and suit stay
readable whatever the colours. Everything is drawn on a :class:`Canvas` of cells and
turned into one Rich ``Text`` (never markup: a label like ``[10♠]`` is shown as is).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:  # (annotations only: the home screen's start needs no engine)
    from ..engine.cards import CardFace

FaceFn = Callable[[str], "CardFace"]

CARD_W = 5  #: a framed card's width
CARD_H = 4  #: and height
MIN_STRIDE = 3  #: the narrowest fan: border, rank/suit and one more column

#: colour hints from ``card_face`` -> ink that reads well on the light card face
INK = {
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
FACE_BG = "#fffbe8"
SELECTED_BG = "#ffe58a"
HINT_BG = "#c9f2d0"
BACK = Style(color="grey85", bgcolor="#2a4a7a", bold=True)
EDGE = Style(color="#5a5a5a", bgcolor=FACE_BG)

#: top-left, top, top-right, side, bottom-left, bottom-right
BORDERS: dict[str, tuple[str, ...]] = {
    "plain": tuple("╭─╮│╰╯"),
    "cursor": tuple("┏━┓┃┗┛"),
    "hint": tuple("╔═╗║╚╝"),
}


#: the four-colour deck (a setting, kept with the theme): each French suit its own ink, as
#: on four-colour decks and in tty-solitaire. The suit symbol still shows on every card.
FOUR_COLOUR_INK = {
    "spades": INK["black"],
    "hearts": INK["red"],
    "diamonds": INK["blue"],
    "clubs": INK["green"],
}
_four_colour = False


def set_four_colour(on: bool) -> None:
    """Draw the cards of the French suits in four inks (the app sets it from its
    settings; the screens are then refreshed)."""
    global _four_colour
    _four_colour = bool(on)


def four_colour() -> bool:
    return _four_colour


def ink(face: CardFace) -> str:
    if _four_colour and face.suit_name in FOUR_COLOUR_INK:
        return FOUR_COLOUR_INK[face.suit_name]
    return INK.get(face.colour, face.colour)


def face_style(face: CardFace, bg: str = FACE_BG) -> Style:
    """Ink of ``face`` on a light card face (an unknown colour name from a variant
    falls back to black: rank and suit still show)."""
    if face.face_down:
        return BACK
    try:
        return Style(color=ink(face), bgcolor=bg, bold=True)
    except Exception:
        return Style(color="black", bgcolor=bg, bold=True)


def chip(
    face: CardFace, width: int | None = None, selected: bool = False, bg: str | None = None
) -> Text:
    """One card as a one-line chip: its label on a light face."""
    label = "▒▒" if face.face_down else face.label
    width = width or len(label) + 2
    bg = bg or (SELECTED_BG if selected else FACE_BG)
    return Text(label.center(width), style=face_style(face, bg))


def chips(codes: Sequence[str], face: FaceFn, selected: frozenset[str] = frozenset()) -> Text:
    """A row of chips separated by spaces."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(chip(face(code), selected=code in selected))
    return out


def chips_width(codes: Sequence[str], face: FaceFn) -> int:
    return sum(len(face(c).label) + 2 for c in codes) + max(0, len(codes) - 1)


def fan_width(count: int, stride: int) -> int:
    return 0 if count == 0 else (count - 1) * stride + CARD_W


def best_stride(count: int, width: int, widest: int = CARD_W + 1) -> int | None:
    """The widest stride (``widest`` down to 3) at which ``count`` framed cards fit in
    ``width`` columns, or ``None``."""
    for stride in range(widest, MIN_STRIDE - 1, -1):
        if fan_width(count, stride) <= width:
            return stride
    return None


class Canvas:
    """A grid of cells (character + style) to draw cards on, then one ``Text``."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        if not 0 <= y < self.height:
            return
        row, srow = self.chars[y], self.styles[y]
        for ch in text:
            if 0 <= x < self.width:
                row[x] = ch
                srow[x] = style
            x += 1

    def put_text(self, x: int, y: int, text: Text) -> None:
        """Rich text at (x, y): each span keeps its style."""
        plain = text.plain
        base = Style.parse(text.style) if isinstance(text.style, str) else text.style
        styles: list[Style | None] = [base or None] * len(plain)
        for span in text.spans:
            st = Style.parse(span.style) if isinstance(span.style, str) else span.style
            for i in range(span.start, min(span.end, len(plain))):
                prev = styles[i]
                styles[i] = st if prev is None else prev + st
        for i, ch in enumerate(plain):
            self.put(x + i, y, ch, styles[i])

    def card(
        self,
        x: int,
        y: int,
        face: CardFace,
        border: str = "plain",
        bg: str = FACE_BG,
        edge: Style | None = None,
    ) -> None:
        """A framed card with its top-left corner at (x, y)."""
        tl, top, tr, side, bl, br = BORDERS[border]
        if face.face_down:
            body = BACK
            frame = edge or Style(color="grey70", bgcolor="#2a4a7a", bold=border != "plain")
            self.put(x, y, tl + top * 3 + tr, frame)
            for dy in (1, 2):
                self.put(x, y + dy, side, frame)
                self.put(x + 1, y + dy, "▒▒▒", body)
                self.put(x + 4, y + dy, side, frame)
            self.put(x, y + 3, bl + top * 3 + br, frame)
            return
        st = face_style(face, bg)
        frame = edge or Style(color="#5a5a5a", bgcolor=bg, bold=border != "plain")
        if border == "cursor":
            frame = Style(color="#b8860b", bgcolor=bg, bold=True)
        elif border == "hint":
            frame = Style(color="#17702a", bgcolor=bg, bold=True)
        rank, suit = face.rank, face.suit
        line1 = (rank + suit).ljust(3) if len(rank) >= 2 else rank.ljust(2) + suit
        line2 = suit + rank.rjust(2)
        self.put(x, y, tl + top * 3 + tr, frame)
        self.put(x, y + 1, side, frame)
        self.put(x + 1, y + 1, line1[:3], st)
        self.put(x + 4, y + 1, side, frame)
        self.put(x, y + 2, side, frame)
        self.put(x + 1, y + 2, line2[:3], st)
        self.put(x + 4, y + 2, side, frame)
        self.put(x, y + 3, bl + top * 3 + br, frame)

    def to_text(self) -> Text:
        out = Text()
        for y in range(self.height):
            if y:
                out.append("\n")
            row, srow = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or srow[x] is not srow[start]:
                    out.append("".join(row[start:x]), srow[start])
                    start = x
        return out


def card_row(
    codes: Sequence[str],
    face: FaceFn,
    width: int,
    mark: int | None = None,
) -> Text | None:
    """Framed cards side by side (a fan if need be) in ``width`` columns, the card at
    index ``mark`` drawn with a bold border (the card just played); ``None`` if they do
    not fit."""
    stride = best_stride(len(codes), width)
    if stride is None or not codes:
        return None
    canvas = Canvas(fan_width(len(codes), stride), CARD_H)
    for i, code in enumerate(codes):
        canvas.card(i * stride, 0, face(code), "cursor" if i == mark else "plain")
    return canvas.to_text()
