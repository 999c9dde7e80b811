"""Twos (trick-taking) opponents (easy, normal, hard): legal over whole matches,
deciding from their inputs only, hints with reasons, and the key rules of play."""

from __future__ import annotations

import json
import random

import pytest
from test_sim_tricks import _swap_hidden_tricks

from twos_tui.ai import Suggestion, agent_for, ai_rng, suggest
from twos_tui.ai.twos_tricks_ai import (
    EasyTwosTricksAgent,
    HardTwosTricksAgent,
    NormalTwosTricksAgent,
)
from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action

LEVELS = ("easy", "normal", "hard")


def make(level):
    if level == "hard":
        return HardTwosTricksAgent(iterations=3)
    return agent_for("twos-tricks", level)


def decide(agent, g, seat, rng_seed=1):
    return agent.choose(
        g.observation(seat), g.legal_actions(seat), g.decision(seat), random.Random(rng_seed)
    )


def test_the_registry_names_the_three_levels():
    assert isinstance(agent_for("twos-tricks", "easy"), EasyTwosTricksAgent)
    assert isinstance(agent_for("twos-tricks", "normal"), NormalTwosTricksAgent)
    assert isinstance(agent_for("twos-tricks", "basic"), NormalTwosTricksAgent)
    hard = agent_for("twos-tricks", "hard", budget_s=0.2, iterations=5, extra=True)
    assert isinstance(hard, HardTwosTricksAgent) and hard.iterations == 5
    assert hard.budget_s == 0.2


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_matches_legally(level):
    matches = 1 if level == "hard" else 3
    for seed in range(matches):
        g = new_game("twos-tricks", seed=seed, options={"game_length": 2})
        agents = [make(level) if s % 2 == 0 else make("normal") for s in range(4)]
        rngs = [ai_rng(seed, s) for s in range(4)]
        while not g.match_over:
            if g.deal_over:
                g.next_deal()
            (seat,) = g.to_act()
            legal = g.legal_actions(seat)
            act = agents[seat].choose(g.observation(seat), legal, g.decision(seat), rngs[seat])
            assert act in legal
            g.apply(seat, act)
        assert g.match_winners()


def _positions(seeds, every=2):
    agents = [agent_for("twos-tricks", "normal")] * 4
    for seed in seeds:
        g = new_game("twos-tricks", seed=seed)
        rng = ai_rng(seed, 0)
        n = 0
        while not g.deal_over:
            (seat,) = g.to_act()
            legal = g.legal_actions(seat)
            if len(legal) > 1 and n % every == 0:
                yield load_game(json.loads(json.dumps(g.to_json()))), seat
            g.apply(seat, agents[seat].choose(g.observation(seat), legal, g.decision(seat), rng))
            n += 1


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_decides_from_its_inputs_only(level):
    """The same observation with other seats' unseen cards swapped: same decision."""
    agent = make(level)
    rng = random.Random(3)
    checked = 0
    for g, seat in _positions(range(2) if level == "hard" else range(4)):
        h = _swap_hidden_tricks(g, seat, rng)
        if h is None:
            continue
        assert json.dumps(h.observation(seat)) == json.dumps(g.observation(seat))
        assert decide(agent, g, seat, checked) == decide(agent, h, seat, checked)
        checked += 1
    assert checked >= 15


def test_hard_with_an_iteration_cap_repeats_itself():
    for g, seat in list(_positions([1], every=5)):
        a = decide(HardTwosTricksAgent(iterations=5), g, seat, 9)
        assert a == decide(HardTwosTricksAgent(iterations=5), g, seat, 9)


@pytest.mark.parametrize("level", LEVELS)
def test_hints_are_legal_with_a_one_line_reason(level):
    agent = make(level)
    n = 0
    for g, seat in _positions([2], every=3):
        obs, legal, dec = g.observation(seat), g.legal_actions(seat), g.decision(seat)
        hint = agent.suggest(obs, legal, dec, random.Random(n))
        assert isinstance(hint, Suggestion) and hint.action in legal
        assert hint.reason and "\n" not in hint.reason and len(hint.reason) < 160
        assert hint.reason[0].isupper() and hint.reason.endswith(".")
        n += 1
    assert n > 5
    g, seat = next(_positions([4]))
    hint = suggest("twos-tricks", g.observation(seat), g.legal_actions(seat), g.decision(seat),
                   ai_rng(4, 0))  # fmt: skip
    assert hint.action in g.legal_actions(seat)


# ----- the rules of play ------------------------------------------------------------------------
def position(hands, leader, plays):
    g = new_game("twos-tricks", seed=1)
    g.set_hands(hands, leader=leader)
    for c in plays:
        (seat,) = g.to_act()
        g.apply(seat, Action("play", (c,)))
    return g


@pytest.mark.parametrize("level", LEVELS)
def test_a_two_is_caught_by_its_three_when_possible(level):
    hands = [["5C", "9S", "6D"], ["2C", "9H", "7D"], ["3C", "AC", "4S"], ["KC", "8D", "10D"]]
    g = position(hands, 0, ["5C", "2C"])
    assert decide(make(level), g, 2) == Action("play", ("3C",))


@pytest.mark.parametrize("level", LEVELS)
def test_no_two_goes_into_a_trick_that_already_holds_one(level):
    hands = [["2D", "9S", "6S"], ["2C", "4H", "5S"], ["7C", "AC", "8H"], ["KC", "8D", "10H"]]
    g = position(hands, 0, ["2D"])
    assert decide(make(level), g, 1) != Action("play", ("2C",))


def test_a_two_whose_three_is_out_stays_out_of_a_trick_that_can_catch_it():
    # hearts led with a king: the 3 of hearts is unseen and both later seats may hold
    # it, so the 2 of hearts stays home; a low heart goes instead
    hands = [
        ["KH", "9S", "8S"],
        ["2H", "5H", "4D"],
        ["3H", "7C", "9C"],
        ["6H", "8C", "10C"],
    ]
    g = position(hands, 0, ["KH"])
    assert decide(make("normal"), g, 1) == Action("play", ("5H",))
    assert decide(make("easy"), g, 1) == Action("play", ("5H",))


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_a_safe_two_takes_a_rich_trick_when_last(level):
    # the 3 of spades is already played: the 2 of spades cannot be caught, and the last
    # seat takes a trick with three honours in it
    hands = [
        ["AH", "5C", "9D"],
        ["KH", "6C", "10D"],
        ["QH", "7C", "8D"],
        ["2S", "4H", "8C"],
    ]
    g = position(hands, 0, [])
    g.taken[1].append("3S")  # out of play already (set_hands put it in seat 0's pile)
    g.taken[0].remove("3S")
    for c in ("AH", "KH", "QH"):
        (seat,) = g.to_act()
        g.apply(seat, Action("play", (c,)))
    assert decide(make(level), g, 3) == Action("play", ("2S",))


def test_an_honour_is_not_thrown_while_a_low_card_will_do():
    hands = [["AS", "4C", "6H"], ["KS", "5C", "7H"], ["QD", "3D", "JC"], ["2S", "9C", "8H"]]
    g = position(hands, 0, ["AS", "KS"])
    for level in LEVELS:
        assert decide(make(level), g, 2) == Action("play", ("3D",)), level


def test_hard_answers_within_a_tiny_budget():
    for g, seat in list(_positions([3], every=4))[:5]:
        act = decide(HardTwosTricksAgent(budget_s=0.001), g, seat)
        assert act in g.legal_actions(seat)
