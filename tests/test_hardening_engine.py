"""Issue 9, case 13 and the property tests: the engine answers every malformed action
with a reason (``check``) or ``IllegalAction`` (``apply``) and changes nothing; nothing
it accepts breaks ``to_json``; ``load_game`` raises ``GameDataError`` (and only that)
for malformed data; mutated real saves are either refused with a reason or load into a
game that can be played on."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from saves_helpers import mutate, mutate_text, real_save

from twos_tui.engine import (
    VARIANT_IDS,
    Action,
    GameDataError,
    IllegalAction,
    load_game,
    new_game,
    variant_class,
)
from twos_tui.play import saves


def state(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True, allow_nan=False)


def played(variant: str, steps: int, seed: int, players: int | None = None):
    g = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.deal_over:
            break
        seat = rng.choice(g.to_act())
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return g


def assert_refused(g, seat, action) -> str:
    before = state(g)
    reason = g.check(seat, action)
    assert isinstance(reason, str) and reason, (seat, action)
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert state(g) == before
    return reason


def a_legal(g):
    seat = g.to_act()[0]
    return seat, g.legal_actions(seat)[0]


class Weird:
    pass


# ----- case 13: the malformed inputs of the issue, for every variant -------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_non_actions_and_bad_seats_get_a_reason(variant):
    g = played(variant, 3, seed=2)
    seat, good = a_legal(g)
    for thing in (None, 0, "play", ["play"], {"kind": "play"}, good.to_json()):
        assert "not an action" in assert_refused(g, seat, thing)
    for bad_seat in (None, "0", 1.5, 99, -1, True, float("nan")):
        assert "no seat" in assert_refused(g, bad_seat, good)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_malformed_actions_get_a_reason(variant):
    g = played(variant, 3, seed=2)
    seat, good = a_legal(g)
    weird_values = (Weird(), float("nan"), float("inf"), b"x", {"a": 1}, [1], {1}, 10**40, "x" * 99)
    for v in weird_values:
        assert_refused(g, seat, Action(good.kind, good.cards, v))
    for kind in (None, 3, "", "x" * 100, ("play",)):
        assert_refused(g, seat, Action(kind, good.cards, good.value))
    # a pass (or any move without cards) carrying cards
    hand = g.observation(seat)["hand"]
    no_cards = [k for k, (takes, _) in type(g).ACTION_SHAPES.items() if not takes]
    for kind in no_cards:
        assert "carries no cards" in assert_refused(g, seat, Action(kind, (hand[0],)))
    if good.cards:
        # cards as a list, as lower case, as glyphs, not strings
        assert "tuple" in assert_refused(g, seat, Action(good.kind, list(good.cards)))
        low = tuple(c.lower() for c in good.cards)
        if low != good.cards:
            assert "write" in assert_refused(g, seat, Action(good.kind, low))
        assert_refused(g, seat, Action(good.kind, (17,)))
        assert_refused(g, seat, Action(good.kind, (None,)))
        assert_refused(g, seat, Action(good.kind, "3S"))
        # a move that takes no value, carrying one
        assert "no value" in assert_refused(g, seat, Action(good.kind, good.cards, 3))
    # still playable, and saved
    g.apply(seat, good)
    assert load_game(json.loads(state(g))).to_json() == g.to_json()


def test_a_2v1_keep_needs_the_exact_card_code():
    g = new_game("2v1", seed=1)
    rng = random.Random(1)
    while g.phase != "keep":
        if g.deal_over:
            g.next_deal()
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    seat = g.to_act()[0]
    card = g.legal_actions(seat)[0].value
    assert "write" in assert_refused(g, seat, Action("keep", value=card.lower()))
    assert_refused(g, seat, Action("keep", value=["x"]))
    g.apply(seat, Action("keep", value=card))


# ----- load_game: one error type with a reason -----------------------------------------


@pytest.mark.parametrize(
    "data",
    [None, [], "twos", 3, {}, {"variant": None}, {"variant": "hearts"}, {"variant": ["twos"]}],
)
def test_load_game_refuses_what_is_no_game(data):
    with pytest.raises(GameDataError):
        load_game(data)


def test_game_data_error_is_a_value_error_exported_by_the_engine():
    import twos_tui.engine as engine

    assert issubclass(GameDataError, ValueError) and "GameDataError" in engine.__all__


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_field_removed_or_retyped_is_refused_or_harmless(variant):
    """Each top-level field of a real game: deleted, or replaced by odd values. Either a
    GameDataError, or a game that still answers the protocol."""
    g = played(variant, 5, seed=7)
    base = json.loads(state(g))
    tried = 0
    for key in base:
        for value in ("__delete__", None, "x", -1, 10**6, 1.5, [], {}, [None], True):
            d = json.loads(state(g))
            if value == "__delete__":
                del d[key]
            else:
                d[key] = value
            tried += 1
            try:
                g2 = load_game(d)
            except GameDataError as e:
                assert str(e)
                continue
            usable(g2)
    assert tried >= 100


def usable(g) -> None:
    """A loaded game answers the protocol, takes a legal move and saves again."""
    json.dumps(g.to_json(), allow_nan=False)
    for s in range(g.players):
        json.dumps(g.observation(s))
    if not g.deal_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        assert legal
        g.apply(seat, legal[0])
        json.dumps(g.to_json(), allow_nan=False)
    elif not g.match_over:
        g.next_deal()


# ----- property tests --------------------------------------------------------------------

CARDS = ["3S", "3s", "10H", "TH", "2C", "RB", "1M", "5U", "ZZ", "", "AC", "KD", "??"]
JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=50)
    | st.sampled_from(CARDS),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
KINDS = (
    st.sampled_from(
        [
            "play",
            "pass",
            "bid",
            "raise",
            "exchange",
            "discard",
            "lead",
            "hide",
            "follow",
            "keep",
            "choose-hand",
            "PLAY",
            "",
            "x" * 60,
        ]
    )
    | JSONISH
)
CARD_LISTS = st.one_of(
    st.tuples(*[st.sampled_from(CARDS)] * 1),
    st.lists(st.sampled_from(CARDS), max_size=6).map(tuple),
    st.lists(st.sampled_from(CARDS), max_size=6),
    JSONISH,
)
ACTIONS = st.one_of(
    st.builds(Action, KINDS, CARD_LISTS, JSONISH),
    st.builds(
        Action,
        st.sampled_from(["play", "pass", "bid", "keep", "choose-hand"]),
        st.just(()),
        JSONISH,
    ),
    JSONISH,
)
SEATS = st.one_of(st.integers(-3, 6), JSONISH)
COUNTS = {"actions": 0, "accepted": 0, "saves": 0, "loaded": 0}


def check_malformed_action(variant, steps, seed, seat, action):
    g = played(variant, steps, seed)
    before = state(g)
    reason = g.check(seat, action)
    COUNTS["actions"] += 1
    if reason is None:
        COUNTS["accepted"] += 1
        g.apply(seat, action)  # a legal move after all: it must save and load
        assert load_game(json.loads(state(g))).to_json() == g.to_json()
        return
    assert isinstance(reason, str) and reason
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert state(g) == before


SAVE_SOURCES: dict = {}


def source_save(variant: str, steps: int, seed: int) -> dict:
    key = (variant, steps, seed)
    if key not in SAVE_SOURCES:
        SAVE_SOURCES[key] = real_save(variant, moves=steps, seed=seed)
    return SAVE_SOURCES[key]


def check_mutated_save(variant, steps, seed, mseed, edits, text_level):
    rng = random.Random(mseed)
    data = source_save(variant, steps, seed)
    COUNTS["saves"] += 1
    try:
        if text_level:
            loaded = saves.load_save_data(
                saves.parse_save_bytes(
                    (lambda r: r if isinstance(r, bytes) else r.encode())(
                        mutate_text(json.dumps(data), rng)
                    )
                )
            )
        else:
            loaded = saves.load_save_data(mutate(data, rng, edits))
    except saves.SaveError as e:
        assert str(e)
        return
    COUNTS["loaded"] += 1
    usable(loaded.game)


def run_property(check, examples: int, **strategies) -> None:
    settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )(given(**strategies)(check))()


ACTION_CASES = dict(
    variant=st.sampled_from(VARIANT_IDS),
    steps=st.integers(0, 40),
    seed=st.integers(0, 10_000),
    seat=SEATS,
    action=ACTIONS,
)
SAVE_CASES = dict(
    variant=st.sampled_from(VARIANT_IDS),
    steps=st.sampled_from([0, 7, 30]),
    seed=st.integers(0, 2),
    mseed=st.integers(0, 2**32),
    edits=st.integers(1, 3),
    text_level=st.booleans(),
)


def test_property_malformed_actions_get_a_reason():
    before = COUNTS["actions"]
    run_property(check_malformed_action, 300, **ACTION_CASES)
    assert COUNTS["actions"] - before >= 300


def test_property_mutated_saves_are_refused_or_playable():
    before = COUNTS["saves"]
    run_property(check_mutated_save, 300, **SAVE_CASES)
    assert COUNTS["saves"] - before >= 300


@pytest.mark.slow
def test_property_many_malformed_actions_and_mutated_saves():
    """The same properties, 2,000 examples each; prints the counts."""
    start = dict(COUNTS)
    run_property(check_malformed_action, 2000, **ACTION_CASES)
    run_property(check_mutated_save, 2000, **SAVE_CASES)
    got = {k: COUNTS[k] - start[k] for k in COUNTS}
    print(f"\nproperty counts: {got}")
    assert got["actions"] >= 2000 and got["saves"] >= 2000


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_nothing_the_engine_accepts_breaks_to_json(variant):
    """Every listed legal action of many random states is accepted and saves to JSON
    without NaN or other non-JSON values (a regression guard for ``malformed``)."""
    cls = variant_class(variant)
    for seed in range(3):
        g = played(variant, 0, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if g.deal_over:
                break
            seat = rng.choice(g.to_act())
            for a in g.legal_actions(seat):
                assert g.check(seat, a) is None, a
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            assert not math.isnan(len(json.dumps(g.to_json(), allow_nan=False)))
        assert cls.validate_json(json.loads(state(g))) is None
