"""The rules core of the climbing games (Twos, Big Two, Big Two five-round, Chinese
Poker): their one rules implementation, in integers, which the search plays directly
and the protocol games (:mod:`..climbing` and the variant modules) translate.

The game protocol (:mod:`..protocol`) is built for players: card codes, readable
reasons, a play log, JSON. A search plays thousands of deals a second and needs none of
that, so the core keeps one deal as integers; a protocol game holds one
:class:`SimState` as its rules state (``game.core``), plays its moves on it and adds the
words:

* :class:`Rules` (:func:`rules_for`): a variant under one set of house rules and a
  player count: its card encoding (``4 * rank + suit``, the variant's own order), how
  a card mask classifies (``move_of``), how to list the moves of a hand (one canonical
  suit choice per outcome where suits cannot matter) and how moves compare
  (:func:`beats`); per variant in :mod:`.twos`, :mod:`.big_two`, :mod:`.chinese_poker`;
* :class:`SimState`: hands as bit masks, the seat to act, the play to beat, who passed,
  the card the first play must hold; ``copy()`` is a few slot assignments, ``legal()``
  lists moves (tuples, ``None`` for a pass) and ``play(move)`` carries one out with the
  trick flow (:func:`.core.next_to_act`, :func:`.core.after_opening_pass`: passing for
  a turn or locked out, Chinese Poker's opening passes) and no history text;
* :class:`Sampler` / :func:`determinize`: complete deals consistent with one seat's
  observation, drawn from a seeded generator, with per-card weights to bias where the
  unseen cards go;
* :func:`state_from_game`: a copy of a real game's state (tests and benchmarks only:
  it holds every hand).

``tests/test_climbing_core.py`` checks the core alone against the frozen behaviour
corpus; ``tests/test_sim.py`` checks that a game and the core state read from it stay
together move for move; ``benchmarks/bench_sim.py`` compares the speed of random deals
through the protocol and on the core.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeAlias

from .core import KEY, MASK, POWER, SLOT, STRICT, HouseRules, Move, Rules, SimState, beats

#: house rules as a hashable key: sorted ``(name, value)`` pairs
FrozenOptions: TypeAlias = tuple[tuple[str, Any], ...]


def _freeze(options: HouseRules) -> FrozenOptions:
    return tuple(sorted((k, v) for k, v in options.items() if not k.startswith("_")))


@lru_cache(maxsize=64)
def _rules(variant_id: str, players: int, frozen: FrozenOptions) -> Rules:
    from .. import variant_class

    cls = variant_class(variant_id)
    options = cls.resolve_options(players, dict(frozen))
    if variant_id in ("big-two", "big-two-5r"):
        from .big_two import BigTwoRules

        return BigTwoRules(variant_id, players, options)
    if variant_id == "twos":
        from .twos import TwosRules

        return TwosRules(players, options)
    if variant_id == "chinese-poker":
        from .chinese_poker import ChinesePokerRules

        return ChinesePokerRules(players, options)
    raise ValueError(f"{variant_id} has no simulation path (climbing games only)")


def rules_for(variant_id: str, players: int, options: HouseRules | None = None) -> Rules:
    """The (shared, cached) sim rules of a variant for a player count and house rules."""
    return _rules(variant_id, players, _freeze(options or {}))


def state_from_game(game: Any) -> SimState:
    """The exact sim state of a climbing game in its play phase (every hand: this reads
    hidden cards, so it is for tests and benchmarks, never for an agent): a copy of the
    game's own core state."""
    if getattr(game, "_choosing", False) or game.deal_over or game.match_over:
        raise ValueError("the game is not in a play phase")
    s: SimState = game.core.copy()
    s.memo = [None] * len(s.hands)
    return s


from .determinize import OUT, Sampler, determinize, played_this_deal  # noqa: E402

__all__ = [
    "OUT",
    "Sampler",
    "determinize",
    "played_this_deal",
    "KEY",
    "MASK",
    "POWER",
    "SLOT",
    "STRICT",
    "Move",
    "Rules",
    "SimState",
    "beats",
    "rules_for",
    "state_from_game",
]
