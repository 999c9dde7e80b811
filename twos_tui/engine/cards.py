"""Standard 52-card deck: parsing, formatting and per-variant orders.

Cards travel through the game protocol as canonical *codes*: rank then suit letter,
``"3S"``, ``"10H"``, ``"QD"``, ``"AC"``, ``"2S"``. :func:`parse_card` also accepts
``"TH"`` for ten, lower case, and suit glyphs (``"10♥"``).

Ranks are stored as natural numbers (2..10, J=11, Q=12, K=13, A=14); each variant
maps them to its own order (in every climbing game here 3 is low and 2 is high).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SUITS = ("S", "H", "D", "C")
SUIT_GLYPH = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
_GLYPH_TO_SUIT = {v: k for k, v in SUIT_GLYPH.items()}

RANK_TEXT = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_NAME = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURAL = {r: (n + "es" if n.endswith("x") else n + "s") for r, n in RANK_NAME.items()}
_TEXT_TO_RANK = {v: k for k, v in RANK_TEXT.items()}
_TEXT_TO_RANK.update({"T": 10, "1": 14})

#: 3 low ... K, A, 2 high: the rank order of every climbing game here.
CLIMB_RANKS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)


class CardError(ValueError):
    """A card string that names no card."""


def parse_card(text: object) -> str:
    """Return the canonical code of a card string, or raise :class:`CardError`."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card")
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card: write rank then suit, like 3S or 10H")
    suit = _GLYPH_TO_SUIT.get(t[-1], t[-1])
    rank = _TEXT_TO_RANK.get(t[:-1])
    if suit not in SUIT_GLYPH or rank is None:
        raise CardError(f"{text!r} is not a card: write rank then suit, like 3S or 10H")
    return RANK_TEXT[rank] + suit


def rank_of(code: str) -> int:
    return _TEXT_TO_RANK[code[:-1]]


def suit_of(code: str) -> str:
    return code[-1]


def card_code(rank: int, suit: str) -> str:
    return RANK_TEXT[rank] + suit


def display(code: str) -> str:
    """``"10H"`` -> ``"10♥"``."""
    return code[:-1] + SUIT_GLYPH[code[-1]]


def display_cards(codes: Iterable[str]) -> str:
    return " ".join(display(c) for c in codes)


def full_deck() -> list[str]:
    return [card_code(r, s) for s in SUITS for r in range(2, 15)]


@dataclass(frozen=True, slots=True)
class CardFace:
    """How one card looks: what the UI needs and nothing more.

    ``rank`` and ``suit`` are always shown (never colour alone); ``colour`` is a hint:
    ``"red"``, ``"black"`` or another named hue for non-French suits.
    """

    code: str
    rank: str
    suit: str
    suit_name: str
    colour: str
    face_down: bool = False

    @property
    def label(self) -> str:
        return f"{self.rank}{self.suit}"


HIDDEN = "??"  #: the code a face-down card shows in an observation


def standard_face(code: str) -> CardFace:
    if code == HIDDEN:
        return CardFace(code, "?", "?", "face down", "dim", face_down=True)
    s = code[-1]
    return CardFace(
        code, code[:-1], SUIT_GLYPH[s], SUIT_NAME[s], "red" if s in RED_SUITS else "black"
    )
