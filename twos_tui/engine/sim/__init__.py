"""A lean simulation path for the climbing games (Twos, Big Two, Big Two five-round,
Chinese Poker), for search.

The game protocol (:mod:`..protocol`) is built for players: card codes, readable
reasons, a play log, JSON. A search plays thousands of deals a second and needs none of
that, so this package keeps one deal as integers:

* :class:`Rules` (:func:`rules_for`): a variant under one set of house rules and a
  player count: its card encoding (``4 * rank + suit``, the variant's own order), how
  to list the moves of a hand (the same plays, with the same canonical suit choices,
  as the protocol's ``legal_actions``) and how moves compare;
* :class:`SimState`: hands as bit masks, the seat to act, the play to beat, who passed,
  the card the first play must hold; ``copy()`` is a few slot assignments, ``legal()``
  lists moves (tuples, ``None`` for a pass) and ``play(move)`` carries one out with the
  variant's trick flow (passing for a turn or locked out, Chinese Poker's opening
  passes) and no history text;
* :class:`Sampler` / :func:`determinize`: complete deals consistent with one seat's
  observation, drawn from a seeded generator, with per-card weights to bias where the
  unseen cards go;
* :func:`state_from_game`: the exact state of a real game (tests and benchmarks only:
  it reads every hand).

``tests/test_sim.py`` checks the sim against the protocol move for move on seeded deals
(the same plays as sets of card sets, the same next seat, the same end and winner);
``benchmarks/bench_sim.py`` compares the speed of random deals on both paths.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeAlias

from .core import KEY, MASK, POWER, SLOT, STRICT, Move, Rules, SimState, beats

#: house rules as a hashable key: sorted ``(name, value)`` pairs
FrozenOptions: TypeAlias = tuple[tuple[str, Any], ...]


def _freeze(options: dict[str, Any]) -> FrozenOptions:
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


def rules_for(variant_id: str, players: int, options: dict[str, Any] | None = None) -> Rules:
    """The (shared, cached) sim rules of a variant for a player count and house rules."""
    return _rules(variant_id, players, _freeze(options or {}))


def state_from_game(game: Any) -> SimState:
    """The exact sim state of a climbing game in its play phase (every hand: this reads
    hidden cards, so it is for tests and benchmarks, never for an agent)."""
    if getattr(game, "_choosing", False) or game.deal_over or game.match_over:
        raise ValueError("the game is not in a play phase")
    r = rules_for(game.variant_id, game.players, game.options)
    top = None
    if game.top is not None:
        top = r.move_of_codes(game.top.cards)
    passed = 0
    for i, p in enumerate(game.passed):
        if p:
            passed |= 1 << i
    return SimState(
        r,
        [r.mask_of(h) for h in game.hands],
        game.current,
        top,
        -1 if game.top_seat is None else game.top_seat,
        passed,
        r.mask_of([game.required_card]) if game.required_card else 0,
        game.opening,
        getattr(game, "open_passes", 0),
        game.dealer,
    )


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
