"""The old home of the trick game's integer path: the one rules core lives in
:mod:`.tricks` now (cards, judger, state, dealer, knowledge) and the protocol game plays
it too; these names stay importable from here (the search AI imports them)."""

from __future__ import annotations

from .bitmask import bits
from .tricks.cards import (
    CODES,
    FULL,
    HONOUR_OF,
    HONOURS,
    INDEX,
    ORDER,
    SUIT_MASK,
    THREE_OF,
    THREES,
    TWO_OF,
    TWOS,
    is_two,
    mask_of,
    suit,
)
from .tricks.judger import legal_mask, resolve
from .tricks.knowledge import determinize, from_game, plays_of_deal, unseen_mask, voids
from .tricks.state import PLAYERS, TricksState

#: the state's old name
TricksSim = TricksState

__all__ = [
    "CODES",
    "FULL",
    "HONOURS",
    "HONOUR_OF",
    "INDEX",
    "ORDER",
    "PLAYERS",
    "SUIT_MASK",
    "THREES",
    "THREE_OF",
    "TWOS",
    "TWO_OF",
    "TricksSim",
    "TricksState",
    "bits",
    "determinize",
    "from_game",
    "is_two",
    "legal_mask",
    "mask_of",
    "plays_of_deal",
    "resolve",
    "suit",
    "unseen_mask",
    "voids",
]
