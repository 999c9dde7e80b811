"""The card tables of the poker-hand climbing cores (Big Two, its five-round edition,
Chinese Poker): card codes <-> integers ``idx = rank * 4 + suit``, with ``rank`` the
climbing order ``0`` (three) ... ``11`` (ace), ``12`` (two) and ``suit`` ``0`` diamonds,
``1`` clubs, ``2`` hearts, ``3`` spades (the Big Two suit order), and per-rank tables
of the cards a suit mask holds."""

from __future__ import annotations

from ..bitmask import bits
from ..cards import CLIMB_RANKS, RANK_TEXT

mask_ints = bits  #: the cards of a mask, lowest first (the name the engine uses)

#: suit letters in increasing order (diamonds lowest, spades highest)
SUIT_ORDER = ("D", "C", "H", "S")

#: code -> idx and idx -> code, for all 52 cards
CODE_IDX: dict[str, int] = {}
IDX_CODE: list[str] = [""] * 52
for _r, _nat in enumerate(CLIMB_RANKS):
    for _s, _suit in enumerate(SUIT_ORDER):
        _code = RANK_TEXT[_nat] + _suit
        CODE_IDX[_code] = _r * 4 + _s
        IDX_CODE[_r * 4 + _s] = _code
CODE_BIT: dict[str, int] = {c: 1 << i for c, i in CODE_IDX.items()}

#: RANK_CARDS[r][suit mask]: the card integers of those suits of rank r, ascending
RANK_CARDS = tuple(
    tuple([4 * r + s for s in range(4) if sm >> s & 1] for sm in range(16)) for r in range(13)
)

#: LOW_CARDS[r][suit mask][k]: the mask of the lowest k of those cards (0: fewer than k)
LOW_CARDS = tuple(
    tuple(
        tuple(
            (sum(1 << i for i in RANK_CARDS[r][sm][:k]) if len(RANK_CARDS[r][sm]) >= k else 0)
            for k in range(5)
        )
        for sm in range(16)
    )
    for r in range(13)
)

__all__ = ["CODE_BIT", "CODE_IDX", "IDX_CODE", "LOW_CARDS", "RANK_CARDS", "SUIT_ORDER", "mask_ints"]


def penalty_50_40_30(left: int, full: int) -> int:
    """Blume's table: every card still held 50, all but one 40, all but two 30,
    otherwise one point a card."""
    if left == 0:
        return 0
    if left == full:
        return 50
    if left == full - 1:
        return 40
    if left == full - 2:
        return 30
    return left
