"""A lean simulation path for the climbing games, for search.

See :mod:`.core` for the state and moves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .core import KEY, MASK, POWER, SLOT, STRICT, Move, Rules, SimState, beats


def _freeze(options: dict[str, Any]) -> tuple:
    return tuple(sorted((k, v) for k, v in options.items() if not k.startswith("_")))


@lru_cache(maxsize=64)
def _rules(variant_id: str, players: int, frozen: tuple) -> Rules:
    from .. import variant_class

    cls = variant_class(variant_id)
    options = cls.resolve_options(players, dict(frozen))
    if variant_id in ("big-two", "big-two-5r"):
        from .big_two import BigTwoRules

        return BigTwoRules(cls, players, options)
    if variant_id == "twos":
        from .twos import TwosRules

        return TwosRules(players, options)
    if variant_id == "chinese-poker":
        from .chinese_poker import ChinesePokerRules

        return ChinesePokerRules(cls, players, options)
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
