"""The old home of 2v1's integer rules, kept so its imports still work: the rules are now
:mod:`.two_v_one.core` (the one implementation, which the protocol game plays too) and
the sampling of hidden cards :mod:`.two_v_one.sampler`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .two_v_one.core import (
    ALL,
    BID,
    CODES,
    DISCARD,
    EXCHANGE,
    FOLLOW,
    HIDE,
    INDEX,
    KEEP,
    LEAD,
    NCARDS,
    OVER,
    PV,
    RAISE,
    RB,
    RB_BIT,
    SUIT,
    SUIT_MASK,
    VALUE,
    N,
    RoundSim,
    action_of,
    bits,
    follow_mask,
    mask_of,
    move_of,
    popcount,
)
from .two_v_one.sampler import KeepPrior, Knowledge, Sampler, determinize

if TYPE_CHECKING:
    from .two_v_one import TwoVOneGame


def from_game(game: TwoVOneGame) -> RoundSim:
    """A copy of a protocol game's round: its state is a :class:`RoundSim` already."""
    return game.core.copy()


__all__ = [
    "ALL",
    "BID",
    "CODES",
    "DISCARD",
    "EXCHANGE",
    "FOLLOW",
    "HIDE",
    "INDEX",
    "KEEP",
    "LEAD",
    "N",
    "NCARDS",
    "OVER",
    "PV",
    "RAISE",
    "RB",
    "RB_BIT",
    "SUIT",
    "SUIT_MASK",
    "VALUE",
    "KeepPrior",
    "Knowledge",
    "RoundSim",
    "Sampler",
    "action_of",
    "bits",
    "determinize",
    "follow_mask",
    "from_game",
    "mask_of",
    "move_of",
    "popcount",
]
