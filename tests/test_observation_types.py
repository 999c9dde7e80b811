"""The observation types (``twos_tui/engine/observation.py``) describe exactly what every
variant's ``observation()`` returns: every required key is there, no key is missing from
the type, and every value has the declared type, all the way down (table entries, log
entries, the 2v1 last hand, ...), through random deals of every variant."""

from __future__ import annotations

import functools
import random
import types
import typing
from typing import Any, NotRequired, get_args, get_origin, get_type_hints

import pytest

from twos_tui.engine import VARIANT_IDS, new_game, variant_class
from twos_tui.engine import observation as O  # noqa: N812

EXPECTED = {
    "twos": O.TwosObservation,
    "big-two": O.ClimbingObservation,
    "big-two-5r": O.ClimbingObservation,
    "chinese-poker": O.ChinesePokerObservation,
    "2v1": O.TwoVOneObservation,
    "twos-tricks": O.TwosTricksObservation,
}


@functools.cache
def hints_of(tp: Any) -> dict[str, Any]:
    return get_type_hints(tp, include_extras=True)


def problems(value: Any, tp: Any, where: str = "obs") -> list[str]:
    """Where ``value`` does not fit the type ``tp`` (empty: it fits)."""
    if tp is Any:
        return []
    if typing.is_typeddict(tp):
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__} is no {tp.__name__}"]
        hints = hints_of(tp)
        out = [f"{where}: no key {k!r}" for k in tp.__required_keys__ if k not in value]
        out += [f"{where}: key {k!r} is not in {tp.__name__}" for k in value if k not in hints]
        for k, v in value.items():
            if k in hints:
                out += problems(v, hints[k], f"{where}[{k!r}]")
        return out
    origin, args = get_origin(tp), get_args(tp)
    if origin is NotRequired:
        return problems(value, args[0], where)
    if origin in (typing.Union, types.UnionType):
        fits = [problems(value, a, where) for a in args]
        return [] if any(not f for f in fits) else [f"{where}: {value!r:.60} fits no {tp}"]
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {type(value).__name__} is no list"]
        return [p for i, x in enumerate(value) for p in problems(x, args[0], f"{where}[{i}]")]
    if origin is dict:
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__} is no dict"]
        return [
            p
            for k, x in value.items()
            for p in problems(k, args[0], f"{where} key") + problems(x, args[1], f"{where}[{k!r}]")
        ]
    if tp is type(None):
        return [] if value is None else [f"{where}: {value!r:.60} is not None"]
    if tp in (int, str, bool):
        return [] if type(value) is tp else [f"{where}: {value!r:.60} is no {tp.__name__}"]
    raise AssertionError(f"the checker does not know {tp}")


def test_the_checker_finds_what_is_wrong():
    good = {"seat": 1, "cards": ["3H"], "label": "led"}
    assert problems(good, O.TableEntry) == []
    assert problems({**good, "seat": "1"}, O.TableEntry)
    assert problems({"seat": 1}, O.TableEntry)  # no cards
    assert problems({**good, "colour": "red"}, O.TableEntry)  # a key the type lacks
    assert problems({**good, "cards": ["3H", None]}, O.TableEntry)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_observation_fits_its_type(variant):
    cls = variant_class(variant)
    tp = EXPECTED[variant]
    assert get_type_hints(cls.observation)["return"] is tp
    seen_keys: set[str] = set()
    g = new_game(variant, cls.default_players, seed=1)
    rng = random.Random(1)
    steps = 0
    while not g.match_over and steps < 300:  # two or more deals of every variant
        fresh = g.deal_over
        if fresh:
            g.next_deal()
        if fresh or steps % 6 == 0 or len(g.to_act()) > 1:
            for s in range(g.players):
                obs = g.observation(s)
                assert problems(obs, tp) == [], (variant, steps)
                seen_keys.update(obs)
        seat = rng.choice(g.to_act())
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        steps += 1
    assert tp.__required_keys__ <= seen_keys
    assert set(O.Observation.__required_keys__) <= tp.__required_keys__
