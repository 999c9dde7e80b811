"""The trick game's dealer: 52 cards shuffled, 13 to each seat, starting left of the
dealer; the player left of the dealer leads."""

from __future__ import annotations

import random

from .cards import DECK
from .state import PLAYERS, TricksState

HAND_SIZE = 13


def deal(rng: random.Random, dealer: int) -> TricksState:
    """A new deal from ``rng`` (the same shuffle as the deck of card codes always had)."""
    deck = list(DECK)
    rng.shuffle(deck)
    s = TricksState()
    for i in range(PLAYERS):
        m = 0
        for c in deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]:
            m |= 1 << c
        s.hands[(dealer + 1 + i) % PLAYERS] = m
    s.leader = s.current = (dealer + 1) % PLAYERS
    return s
