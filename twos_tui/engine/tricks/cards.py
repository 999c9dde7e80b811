"""The trick game's cards as integers.

A card is an index ``0..51``: ``suit * 13 + order`` with the suits in
:data:`~twos_tui.engine.cards.SUITS` order (S, H, D, C) and ``order`` 0 for the 3, 1
for the 4 … 11 for the ace and 12 for the 2, so within a suit a higher index is a higher
card and the 2 is on top. A set of cards (a hand, the cards played) is a bit mask of
those indices. A hand is shown suit by suit in :data:`DISPLAY_SUITS` order (alternating
colours), low to high within a suit, the 2 last: :func:`codes_of` gives that order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..bitmask import bits
from ..cards import SUITS, card_code, full_deck

#: ranks in trick order within a suit: 3 low … A, then the 2 (wild) on top
ORDER = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
CODES: tuple[str, ...] = tuple(card_code(r, s) for s in SUITS for r in ORDER)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
SUIT_MASK: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
TWO_OF: tuple[int, ...] = tuple(13 * s + 12 for s in range(4))
THREE_OF: tuple[int, ...] = tuple(13 * s for s in range(4))
TWOS: int = sum(1 << c for c in TWO_OF)
THREES: int = sum(1 << c for c in THREE_OF)
HONOURS: int = sum(1 << (13 * s + o) for s in range(4) for o in (8, 9, 10, 11))
FULL: int = (1 << 52) - 1
#: 1 for an honour (A, K, Q, J), else 0
HONOUR_OF: tuple[int, ...] = tuple((HONOURS >> c) & 1 for c in range(52))
#: the suits (indices into SUITS) in the order a hand shows them: S, H, C, D
DISPLAY_SUITS: tuple[int, ...] = tuple(SUITS.index(s) for s in ("S", "H", "C", "D"))
#: the deck in the order the dealer shuffles it (that of ``full_deck()``)
DECK: tuple[int, ...] = tuple(INDEX[c] for c in full_deck())


def suit(card: int) -> int:
    return card // 13


def is_two(card: int) -> bool:
    return card % 13 == 12


def mask_of(codes: Iterable[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


#: per suit, the codes of each 13-bit block of that suit (filled as they are asked for)
_BLOCKS: tuple[list[tuple[str, ...] | None], ...] = tuple([None] * 8192 for _ in range(4))


def _block(s: int, block: int) -> tuple[str, ...]:
    out = _BLOCKS[s][block]
    if out is None:
        out = _BLOCKS[s][block] = tuple(CODES[13 * s + o] for o in bits(block))
    return out


_S, _H, _D, _C = _BLOCKS  # (SUITS order: S, H, D, C)


def codes_of(mask: int) -> list[str]:
    """The card codes of ``mask`` in hand order: suit by suit (:data:`DISPLAY_SUITS`:
    S, H, C, D), 3 low … A, the 2 last."""
    return list(codes_tuple(mask))


def codes_tuple(mask: int) -> tuple[str, ...]:
    """:func:`codes_of` as a tuple (what a view holds)."""
    b = mask & 0x1FFF
    s = _S[b]
    if s is None:
        s = _block(0, b)
    b = (mask >> 13) & 0x1FFF
    h = _H[b]
    if h is None:
        h = _block(1, b)
    b = (mask >> 26) & 0x1FFF
    d = _D[b]
    if d is None:
        d = _block(2, b)
    b = mask >> 39
    c = _C[b]
    if c is None:
        c = _block(3, b)
    return (*s, *h, *c, *d)
