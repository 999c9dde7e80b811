"""Baseline agents for the arena: ``random`` and ``greedy``.

* ``random`` picks uniformly among the legal actions.
* ``greedy`` never passes while it can play and always plays its lowest-ranked legal
  play: the play whose highest card is lowest in the variant's card order (then the
  fewest cards). In the trick games it plays its lowest legal card. Other decisions
  (bids, exchanges, hand choices) take the lowest choice the engine lists: a pass
  where bidding allows it, the lowest cards to give away.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import variant_class
from ..engine.observation import Observation
from ..engine.protocol import Action, Decision

#: a card's position in a variant's rank order
CardKey = Callable[[str], tuple[int, ...]]


class RandomAgent:
    """Uniform among legal actions."""

    name = "random"

    def choose(
        self, obs: Observation, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        return legal[rng.randrange(len(legal))]


def _order(variant_id: str) -> CardKey:
    """A function giving each card's position in the variant's rank order."""
    cls = variant_class(variant_id)

    def key(code: str) -> tuple[int, ...]:
        # card_sort_key reads only class-level tables
        return cls.card_sort_key(cls, code, "rank")  # type: ignore[arg-type]

    return key


class GreedyAgent:
    """The lowest legal play; never a pass while a play is possible."""

    name = "greedy"

    def __init__(self) -> None:
        self._keys: dict[str, CardKey] = {}

    def choose(
        self, obs: Observation, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        variant = obs["variant"]
        key = self._keys.get(variant)
        if key is None:
            key = self._keys[variant] = _order(variant)
        with_cards = [a for a in legal if a.cards]
        if with_cards:
            return min(
                with_cards,
                key=lambda a: (
                    max(key(c) for c in a.cards),
                    len(a.cards),
                    sorted(map(key, a.cards)),
                ),
            )
        passes = [a for a in legal if a.kind == "pass" or a.value in (0, None)]
        if passes:
            return passes[0]
        return min(legal, key=lambda a: (str(type(a.value)), a.value))
