"""One turn check with one wording in every game (issue 12): a seat not asked to act is
told the match is over, the deal is over, that it has already made its secret choice, or
whose turn it is, the same way in every variant, and nothing changes."""

from __future__ import annotations

import random

import pytest
from engine_helpers import refused

from twos_tui.engine import VARIANT_IDS, Action, new_game
from twos_tui.engine.protocol import Game

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def game(variant: str, seed: int = 3) -> Game:
    cls = new_game(variant).__class__
    players = cls.default_players
    return new_game(variant, players, seed=seed, names=NAMES[:players])


def play_until(g: Game, rng: random.Random, done) -> None:
    while not done(g):
        if g.deal_over and not g.match_over:
            g.next_deal()
            continue
        seat = rng.choice(g.to_act())
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_variant_uses_the_one_turn_check(variant):
    g = game(variant)
    assert type(g).turn_reason is Game.turn_reason
    acting = g.to_act()
    who = " and ".join(g.names[s] for s in acting)
    move = g.legal_actions(acting[0])[0]
    idle = [s for s in range(g.players) if s not in acting]
    assert idle, "every seat is asked at the start"
    for seat in idle:
        assert g.turn_reason(seat) == f"It is not your turn: waiting for {who}."
        assert refused(g, seat, move) == f"It is not your turn: waiting for {who}."
    for seat in acting:
        assert g.turn_reason(seat) is None
    assert g.turn_reason(g.players) is not None  # no such seat


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_after_the_deal_and_the_match_the_wording_is_shared(variant):
    g = game(variant)
    rng = random.Random(1)
    play_until(g, rng, lambda x: x.deal_over)
    if not g.match_over:
        word = "round" if variant == "2v1" else "deal"
        for seat in range(g.players):
            assert refused(g, seat, Action("pass")) == f"The {word} is over."
            assert g.turn_reason(seat) == f"The {word} is over."
    play_until(g, rng, lambda x: x.match_over)
    for seat in range(g.players):
        assert refused(g, seat, Action("pass")) == "The match is over."


def test_a_seat_that_made_its_secret_choice_waits_for_the_others():
    """2v1's duo discard: both duo members choose at once; the one who has chosen is
    told so, with the seat still to choose named."""
    g = game("2v1")
    rng = random.Random(4)
    play_until(g, rng, lambda x: x.phase == "discard")
    first, second = g.to_act()
    g.apply(first, g.legal_actions(first)[0])
    assert g.has_chosen(first) and not g.has_chosen(second)
    reason = refused(g, first, Action("discard", (g.hands[first][0],)))
    assert reason == f"You have already made your choice: waiting for {g.names[second]}."
