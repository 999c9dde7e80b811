"""The old home of the trick game's protocol class: it lives in :mod:`.tricks.game` now
(the rules in the one core of :mod:`.tricks`); these names stay importable from here."""

from __future__ import annotations

from .cards import rank_of, suit_of
from .tricks.cards import ORDER
from .tricks.dealer import HAND_SIZE
from .tricks.game import (
    SUIT_ORDER,
    TRICKS_PER_DEAL,
    TwosTricksGame,
    holds_suit,
    playable,
    resolve_trick,
    trick_rank,
)

__all__ = [
    "HAND_SIZE",
    "ORDER",
    "SUIT_ORDER",
    "TRICKS_PER_DEAL",
    "TwosTricksGame",
    "holds_suit",
    "playable",
    "rank_of",
    "resolve_trick",
    "suit_of",
    "trick_rank",
]
