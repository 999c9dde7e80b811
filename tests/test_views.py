"""The typed views (``twos_tui.engine.views``): every observation of every variant reads
into its family's frozen view and writes back exactly (``to_json(from_json(d)) == d``:
the same keys in the same order, the same values and JSON types), over seeded games with
random house rules; a malformed observation is refused with a reason naming the key; a
public view (a spectator's) reads with what it lacks left blank."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twos_tui.engine import VARIANT_IDS, new_game, variant_class
from twos_tui.engine.observer import (
    CLIMBING,
    TRICKS,
    TWO_V_ONE,
    as_climbing,
    as_view,
    observe,
)
from twos_tui.engine.views import (
    ClimbingView,
    TricksView,
    TwoVOneView,
    ViewError,
    view_class,
    view_from_json,
)

GAMES = [(v, p) for v in VARIANT_IDS for p in variant_class(v).player_counts]


def exact(a: object) -> str:
    return json.dumps(a, sort_keys=True)


def random_game(variant: str, players: int, seed: int):
    """A game of ``variant`` with each house rule drawn at random (seeded)."""
    rng = random.Random(f"views:{seed}")
    specs = variant_class(variant).option_specs(players)
    options = {s.id: rng.choice(s.choices)[0] for s in specs}
    return new_game(variant, players, options, seed, [f"Seat {i + 1}" for i in range(players)])


def assert_round_trip(g) -> int:
    """Every seat's observation, now: read and written back exactly. The views' count."""
    for seat in range(g.players):
        d = g.observation(seat)
        view = view_from_json(d)
        assert isinstance(view, view_class(g.variant_id))
        back = view.to_json()
        assert list(back) == list(d), "the top-level keys in another order"
        assert exact(back) == exact(d)
        # the view the game builds from its state is the checked reading of its JSON
        assert view == g.observe(seat) == observe(g, seat)
    return g.players


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**31 - 1),
    steps=st.integers(0, 120),
)
def test_every_observation_round_trips(game: tuple[str, int], seed: int, steps: int) -> None:
    variant, players = game
    g = random_game(variant, players, seed)
    rng = random.Random(seed)
    seen = assert_round_trip(g)
    for _ in range(steps):
        if g.match_over:
            break
        if g.deal_over:
            g.next_deal()
        else:
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        seen += assert_round_trip(g)
    assert seen >= players


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_whole_matches_round_trip(variant: str, players: int) -> None:
    """A whole seeded match of each game, every position (deal ends, match end)."""
    for seed in (1,):
        g = random_game(variant, players, seed)
        rng = random.Random(seed)
        while not g.match_over:
            assert_round_trip(g)
            if g.deal_over:
                g.next_deal()
                continue
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        assert_round_trip(g)


def test_views_are_frozen_and_typed() -> None:
    g = new_game("big-two", 4, {}, 7)
    view = g.observe(0)
    assert isinstance(view, ClimbingView)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    assert isinstance(view.hand, tuple) and view.me == 0 and not view.public
    assert isinstance(new_game("twos-tricks", 4, {}, 7).observe(1), TricksView)
    assert isinstance(new_game("2v1", 3, {}, 7).observe(2), TwoVOneView)


def test_observers_narrow_to_their_family() -> None:
    g = new_game("twos", 3, {}, 3)
    assert CLIMBING.observe(g, 1) == g.observe(1)
    assert as_climbing(g.observation(1)) == g.observe(1)  # a dict at a JSON edge
    assert as_view(g.observe(1)) is not None
    with pytest.raises(TypeError):
        TRICKS.observe(g, 1)
    with pytest.raises(TypeError):
        TWO_V_ONE.narrow(g.observe(1))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.pop("hand"), "observation.hand is missing"),
        (lambda d: d.update(hand="3S"), "observation.hand should be a list"),
        (lambda d: d.update(players="4"), "observation.players should be a whole number"),
        (lambda d: d.update(top={"seat": 0, "cards": [3]}), "observation.top.cards"),
        (lambda d: d.update(deal_over=1), "observation.deal_over should be true or false"),
        (lambda d: d["table"].append({"cards": []}), "observation.table[0].seat is missing"),
        (lambda d: d.pop("trick"), "observation.trick is missing"),
        (lambda d: d.update(seat="me"), "observation.seat should be a seat number"),
    ],
)
def test_a_malformed_observation_is_refused_with_its_reason(change, reason: str) -> None:
    d = json.loads(json.dumps(new_game("big-two", 4, {}, 5).observation(0)))
    change(d)
    with pytest.raises(ViewError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        view_from_json(d)


def test_not_an_observation_is_refused() -> None:
    with pytest.raises(ViewError, match="should be a JSON object"):
        view_from_json([1, 2])
    with pytest.raises(ViewError, match="variant"):
        view_from_json({"variant": 3})
    with pytest.raises(ViewError, match="observation.phase is missing"):
        d = new_game("2v1", 3, {}, 5).observation(0)
        del d["phase"]  # type: ignore[misc]
        view_from_json(d)


def test_a_public_view_reads_with_the_missing_keys_blank() -> None:
    """A spectator's view (``seat`` null, no hand; keys left out) reads; a seat's
    view may not leave a key out."""
    for variant, players in GAMES:
        d = dict(new_game(variant, players, {}, 4).observation(0))
        public = {k: v for k, v in d.items() if k in ("variant", "players", "dealer")}
        public["seat"] = None
        view = view_from_json(public, public=True)
        assert view.public and view.hand == () and view.table == () and view.status == ""
        with pytest.raises(ViewError):
            view_from_json(public)
        with pytest.raises(ViewError, match="a public view belongs to no seat"):
            _ = view.me


def test_a_hosts_state_is_typed_at_the_door_and_a_malformed_one_refused(caplog) -> None:
    """The network client reads a host's ``state`` into the view as it arrives; a state
    whose observation is not one is set aside with the reason, and the last good one
    stays; a spectator's (``seat`` null) reads as a public view."""
    import logging
    from dataclasses import replace

    from twos_tui.play.net.client import TableClient

    g = new_game("big-two", 4, {}, 3)
    obs = dict(g.observation(1))
    del obs["history"]  # type: ignore[misc]  # the log travels beside it
    client = TableClient("localhost", 1, "ABCD")
    good = {"type": "state", "seat": 1, "deal": 1, "observation": obs, "log": []}
    client.receive(json.dumps(good))
    kept = client.state
    assert kept is not None and kept.to_json()["observation"] == obs
    assert client.view == replace(g.observe(1), history=())
    bad = {**good, "observation": {**obs, "hand": "3S"}}
    with caplog.at_level(logging.WARNING):
        client.receive(json.dumps(bad))
    assert client.state is kept and client.view == replace(g.observe(1), history=())
    assert "observation.hand should be a list" in caplog.text
    other = {**good, "observation": {**obs, "seat": 2}}
    client.receive(json.dumps(other))
    assert client.state is kept and "of another seat" in caplog.text
    watching = {**good, "seat": None, "observation": {**obs, "seat": None, "hand": []}}
    client.receive(json.dumps(watching))
    assert client.state is not kept and client.state is not None
    assert client.state.seat is None and client.view is not None and client.view.public
