"""Pure rules engine: one package per family of games (``climbing/``, ``tricks/``,
``two_v_one/``), each with its rules core, its variants and its protocol shell, over the
shared cards, protocol, observations and views.

Nothing here imports textual, rich or the UI (``tests/test_boundaries.py`` checks).

>>> from twos_tui.engine import classify
>>> classify("big-two", ["3D", "3S"]).kind
'pair'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .observation import Observation
from .protocol import (
    Action,
    BadArgument,
    Choice,
    DealResult,
    Decision,
    EngineError,
    Game,
    GameDataError,
    IllegalAction,
    OptionSpec,
)

if TYPE_CHECKING:
    from .climbing.combination import Combination

#: variant id -> "module:Class" (imported on first use)
_VARIANTS: dict[str, str] = {
    "twos": "twos_tui.engine.climbing.game_twos:TwosGame",
    "big-two": "twos_tui.engine.climbing.game_big_two:BigTwoGame",
    "big-two-5r": "twos_tui.engine.climbing.game_big_two_5r:BigTwoFiveRoundGame",
    "chinese-poker": "twos_tui.engine.climbing.game_chinese_poker:ChinesePokerGame",
    "2v1": "twos_tui.engine.two_v_one.game:TwoVOneGame",
    "twos-tricks": "twos_tui.engine.tricks.game:TwosTricksGame",
}

VARIANT_IDS: tuple[str, ...] = tuple(_VARIANTS)


def variant_class(variant_id: str) -> type[Game]:
    """The game class of a variant id, e.g. ``variant_class("twos")``."""
    try:
        target = _VARIANTS[variant_id]
    except KeyError:
        raise ValueError(
            f"unknown variant {variant_id!r}; choose one of: " + ", ".join(VARIANT_IDS)
        ) from None
    module, _, name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), name)
    return cls


MAX_SEED = 10**400  #: the largest seed (by size) a saved game may hold, so new_game's too


def new_game(
    variant_id: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    names: list[str] | None = None,
) -> Game:
    """Start a match of a variant. A malformed argument raises :class:`BadArgument`
    (a ``ValueError``) saying which and why."""
    if type(variant_id) is not str or variant_id not in _VARIANTS:
        shown = repr(variant_id)[:40]
        raise BadArgument(f"unknown variant {shown}; choose one of: " + ", ".join(VARIANT_IDS))
    if players is not None and type(players) is not int:
        raise BadArgument(f"players is a whole number, not {type(players).__name__}")
    if options is not None and (
        type(options) is not dict or not all(type(k) is str for k in options)
    ):
        raise BadArgument("options is a dict of option ids to values")
    if type(seed) is not int:
        raise BadArgument(f"seed is a whole number, not {type(seed).__name__}")
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise BadArgument("seed is too large (at most 400 digits)")
    if names is not None and (
        type(names) not in (list, tuple) or not all(type(n) is str for n in names)
    ):
        raise BadArgument("names is a list of strings, one per seat")
    cls = variant_class(variant_id)
    try:
        return cls(players, options, seed, list(names) if names is not None else None)
    except EngineError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        raise BadArgument(f"cannot start {cls.name}: {str(e)[:200]}") from e


def load_game(data: Any) -> Game:
    """Rebuild any game from its ``to_json()`` data.

    The data is checked as a whole first (its shape, the card census, seats, whose turn,
    totals and the variant's own state), then the rebuilt game must answer the protocol
    (every seat asked to act has a legal move). Anything malformed raises
    :class:`GameDataError` (a ``ValueError``) whose text says what is wrong; no other
    exception escapes for bad data.
    """
    if type(data) is not dict:
        raise GameDataError(f"a saved game is a JSON object, not {type(data).__name__}")
    variant = data.get("variant")
    if type(variant) is not str or variant not in _VARIANTS:
        shown = repr(variant) if len(repr(variant)) < 40 else repr(variant)[:37] + "..."
        raise GameDataError(f"unknown game {shown}; known: " + ", ".join(VARIANT_IDS))
    cls = variant_class(variant)
    cls.validate_json(data)
    try:
        g = cls.from_json(data)
    except GameDataError:
        raise
    except Exception as e:  # validated data should always load: say what did not
        raise GameDataError(
            f"the saved {cls.name} game cannot be rebuilt ({type(e).__name__}: {e})"[:300]
        ) from e
    g.check_loaded()
    return g


def classify(variant_id: str, cards: Iterable[str], **options: Any) -> Combination | None:
    """Classify card strings as a combination of a climbing variant, or ``None``.

    The result has ``.kind`` (``"single"``, ``"pair"``, ``"triple"``, ``"straight"``,
    ``"flush"``, ``"full-house"``, ``"four-of-a-kind"``, ``"straight-flush"``, ``"run"``,
    ``"pairs-sequence"``, ``"triples-sequence"``, ``"bomb-WxL"``) and ``.beats(other)``.
    Options are the variant's house-rule ids (e.g. ``classify("twos", [...], hand_size=20)``).
    Unknown card strings raise ``ValueError``.
    """
    from .cards import parse_card
    from .climbing.game import ClimbingGame

    cls = variant_class(variant_id)
    if not issubclass(cls, ClimbingGame):
        raise ValueError(f"{variant_id} is a trick game: it has no combinations")
    codes = tuple(parse_card(c) for c in cards)
    if not codes or len(set(codes)) != len(codes):
        return None
    players = options.pop("players", None) or cls.default_players
    resolved = cls.resolve_options(players, options)
    resolved["_players"] = players
    return cls.classify_cards(codes, resolved)


__all__ = [
    "Action",
    "BadArgument",
    "EngineError",
    "Choice",
    "Decision",
    "DealResult",
    "Game",
    "GameDataError",
    "IllegalAction",
    "Observation",
    "OptionSpec",
    "VARIANT_IDS",
    "classify",
    "load_game",
    "new_game",
    "variant_class",
]
