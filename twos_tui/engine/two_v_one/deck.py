"""The 2v1 deck: 18 cards in five suits and the rainbow, their labels and codes, and the
value of two cards played together (docs/rules.md §5.1 and §5.7)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict


class DeckTable(TypedDict):
    """The shape of :data:`DECK_TABLE`."""

    #: letter, name, glyph (single width), colour hint, values in the suit
    suits: tuple[tuple[str, str, str, str, tuple[int, ...]], ...]
    #: cards of this value carry the blindfold
    blindfold_value: int
    #: code, name, rank text, glyph, colour hint; no suit and no value of its own
    rainbow: tuple[str, str, str, str, str]


# ----- the deck: one table ------------------------------------------------------------
#: The whole 18-card deck (docs/rules.md §5.1 reconstruction; correct it here and only here).
DECK_TABLE: DeckTable = {
    "suits": (
        ("M", "Moons", "☾", "blue", (1, 2, 4, 5)),
        ("S", "Stars", "★", "yellow", (1, 2, 3, 5)),
        ("H", "Hearts", "♥", "red", (2, 3, 6)),
        ("C", "Clovers", "♣", "green", (3, 4, 5)),
        ("U", "Horseshoes", "Ω", "magenta", (1, 4, 6)),
    ),
    "blindfold_value": 2,
    "rainbow": ("RB", "Rainbow", "R", "✦", "white"),
}

RAINBOW: str = DECK_TABLE["rainbow"][0]
BLINDFOLD: int = DECK_TABLE["blindfold_value"]
SUIT_ORDER: tuple[str, ...] = tuple(row[0] for row in DECK_TABLE["suits"])
SUIT_NAMES: dict[str, str] = {row[0]: row[1] for row in DECK_TABLE["suits"]}
SUIT_GLYPHS: dict[str, str] = {row[0]: row[2] for row in DECK_TABLE["suits"]}
SUIT_COLOURS: dict[str, str] = {row[0]: row[3] for row in DECK_TABLE["suits"]}
#: code -> (value, suit letter); the rainbow is (0, "")
CARDS: dict[str, tuple[int, str]] = {
    f"{v}{row[0]}": (v, row[0]) for row in DECK_TABLE["suits"] for v in row[4]
}
CARDS[RAINBOW] = (0, "")
DECK: tuple[str, ...] = tuple(CARDS)
HANDS_PER_ROUND = 5
DEAL_SIZE = 6

_GLYPH_TO_SUIT = {g: s for s, g in SUIT_GLYPHS.items()}


def card_value(code: str) -> int:
    return CARDS[code][0]


def card_suit(code: str) -> str:
    """The suit letter, ``""`` for the rainbow."""
    return CARDS[code][1]


def label(code: str) -> str:
    """Player-readable text of a card: ``"4☾"``, ``"R✦"``."""
    text = _LABELS.get(code)
    return text if text is not None else _label(code)


def _label(code: str) -> str:
    if code == RAINBOW:
        return DECK_TABLE["rainbow"][2] + DECK_TABLE["rainbow"][3]
    v, s = CARDS[code]
    return f"{v}{SUIT_GLYPHS[s]}"


_LABELS = {c: _label(c) for c in CARDS}


def labels(codes: Iterable[str]) -> str:
    return " ".join(label(c) for c in codes)


def parse(text: object) -> str:
    """The code of a card string (``"4M"``, ``"4m"``, ``"4☾"``, ``"RB"``, ``"R✦"``)."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a card")
    t = text.strip().upper()
    if t in ("RB", "R✦", "✦", "RAINBOW"):
        return RAINBOW
    if len(t) >= 2:
        code = t[:-1] + _GLYPH_TO_SUIT.get(t[-1], t[-1])
        if code in CARDS:
            return code
    raise ValueError(
        f"{text!r} is not a 2v1 card: write value then suit letter, "
        "like 4M (moon), 3S (star), 6H, 5C, 1U (horseshoe) or RB (rainbow)"
    )


def sort_key(code: str, by: str = "rank") -> tuple[int, int]:
    """Sort key of a card: by suit (in :data:`SUIT_ORDER`, the rainbow last) then value,
    or by value (the rainbow highest) then suit."""
    v, s = CARDS[code]
    si = SUIT_ORDER.index(s) if s else len(SUIT_ORDER)
    if code == RAINBOW:
        v = 9
    return (si, v) if by == "suit" else (v, si)


_SUIT_KEYS = {c: sort_key(c, "suit") for c in CARDS}


def hand_order(cards: Iterable[str]) -> list[str]:
    """``cards`` in the order a hand is kept: by suit, then value."""
    return sorted(cards, key=_SUIT_KEYS.__getitem__)


def pair_value(a: str, b: str) -> int:
    """Value of two cards played together: same suit or same value → the sum; with the
    rainbow → twice the other card; otherwise the higher card."""
    if a == RAINBOW:
        return 2 * card_value(b)
    if b == RAINBOW:
        return 2 * card_value(a)
    (va, sa), (vb, sb) = CARDS[a], CARDS[b]
    if sa == sb or va == vb:
        return va + vb
    return max(va, vb)


def pair_reason(a: str, b: str) -> str:
    if RAINBOW in (a, b):
        return "rainbow doubles"
    (va, sa), (vb, sb) = CARDS[a], CARDS[b]
    if sa == sb:
        return "same suit"
    if va == vb:
        return "same value"
    return "high card"
