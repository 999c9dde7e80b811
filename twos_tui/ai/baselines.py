"""Baseline agents for the arena: ``random``, ``greedy`` and ``greedy2``.

* ``random`` picks uniformly among the legal actions.
* ``greedy`` never passes while it can play and always plays its lowest-ranked legal
  play: the play whose highest card is lowest in the variant's card order (then the
  fewest cards). In the trick games it plays its lowest legal card. Other decisions
  (bids, exchanges, hand choices) take the lowest choice the engine lists: a pass
  where bidding allows it, the lowest cards to give away.
* ``greedy2`` (the stronger greedy) never passes while it can play either, but on a free
  lead it leads its lowest *whole* combination: of the plays that hold its lowest
  playable card and split no rank it holds (every card of each rank they touch), the one
  with the most cards (a pair, a triple, a run, a five-card hand; then the lowest). When
  following, it plays the lowest play that beats the table, and of equally low ones one
  that splits no rank. Everything else as ``greedy``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import variant_class
from ..engine.observer import ObsIn, as_view
from ..engine.protocol import Action, Decision

#: a card's position in a variant's rank order
CardKey = Callable[[str], tuple[int, ...]]


class RandomAgent:
    """Uniform among legal actions."""

    name = "random"

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
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
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        variant = as_view(obs).variant
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


def _rank_of(code: str) -> str:
    return code[:-1]


class WholeGreedyAgent(GreedyAgent):
    """``greedy2``: leads its lowest whole combination; never passes when it can play."""

    name = "greedy2"

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        with_cards = [a for a in legal if a.cards and a.kind == "play"]
        if not with_cards or decision.kind != "play":
            return super().choose(obs, legal, decision, rng)
        view = as_view(obs)
        variant = view.variant
        key = self._keys.get(variant)
        if key is None:
            key = self._keys[variant] = _order(variant)
        held: dict[str, int] = {}
        for c in view.hand:
            r = _rank_of(c)
            held[r] = held.get(r, 0) + 1

        def splits(a: Action) -> bool:
            used: dict[str, int] = {}
            for c in a.cards:
                r = _rank_of(c)
                used[r] = used.get(r, 0) + 1
            return any(n < held.get(r, 0) for r, n in used.items())

        def low(a: Action) -> tuple[object, ...]:
            return (max(key(c) for c in a.cards), len(a.cards), sorted(map(key, a.cards)))

        if getattr(view, "top", None) is None:  # a free lead
            lowest = min((c for a in with_cards for c in a.cards), key=key)
            holding = [a for a in with_cards if lowest in a.cards]
            whole = [a for a in holding if not splits(a)] or holding
            return min(whole, key=lambda a: (-len(a.cards), low(a)))
        return min(with_cards, key=lambda a: (low(a)[0], splits(a), low(a)))
