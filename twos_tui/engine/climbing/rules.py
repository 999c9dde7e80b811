"""The climbing core's registry: :func:`rules_for` gives a variant's :class:`~.core.Rules`
(from :mod:`.rules_twos`, :mod:`.rules_big_two` or :mod:`.rules_chinese_poker`) for a
player count and house rules, made once and shared by every game and search that asks;
:func:`state_from_game` copies a game's core state (every hand: tests and benchmarks
only). The family's layout is in the package docstring (:mod:`twos_tui.engine.climbing`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeAlias

from .core import HouseRules, Rules, SimState

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
        from .rules_big_two import BigTwoRules

        return BigTwoRules(variant_id, players, options)
    if variant_id == "twos":
        from .rules_twos import TwosRules

        return TwosRules(players, options)
    if variant_id == "chinese-poker":
        from .rules_chinese_poker import ChinesePokerRules

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


__all__ = ["rules_for", "state_from_game"]
