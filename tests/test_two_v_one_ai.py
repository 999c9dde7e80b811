"""2v1 opponents (easy, normal, hard): legal over whole matches, deciding from their
inputs only, hints with reasons, and the key rules of play."""

from __future__ import annotations

import json
import random

import pytest
from test_two_v_one_core import _swap_hidden_two_v_one

from twos_tui.ai import Suggestion, agent_for, ai_rng, suggest
from twos_tui.ai.two_v_one_ai import (
    MAXV,
    NSUITS,
    DuoOdds,
    EasyTwoVOneAgent,
    HardTwoVOneAgent,
    LonePlan,
    NormalTwoVOneAgent,
    duo_fights,
    easy_strength,
)
from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action
from twos_tui.engine.two_v_one.core import CODES, mask_of
from twos_tui.engine.two_v_one.deck import pair_value

LEVELS = ("easy", "normal", "hard")


def make(level):
    if level == "hard":
        return HardTwoVOneAgent(iterations=4)
    return agent_for("2v1", level)


def decide(agent, g, seat, rng_seed=1):
    return agent.choose(
        g.observation(seat), g.legal_actions(seat), g.decision(seat), random.Random(rng_seed)
    )


def test_the_registry_names_the_three_levels():
    assert isinstance(agent_for("2v1", "easy"), EasyTwoVOneAgent)
    assert isinstance(agent_for("2v1", "normal"), NormalTwoVOneAgent)
    assert isinstance(agent_for("2v1", "basic"), NormalTwoVOneAgent)  # old saves
    hard = agent_for("2v1", "hard", budget_s=0.1, iterations=3, unknown=1)
    assert isinstance(hard, HardTwoVOneAgent) and hard.iterations == 3
    assert hard.budget_s == 0.1


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_matches_legally(level):
    matches = 1 if level == "hard" else 3
    for seed in range(matches):
        g = new_game("2v1", seed=seed, options={"coins_to_win": 5})
        agents = [make(level) if s != seed % 3 else make("normal") for s in range(3)]
        rngs = [ai_rng(seed, s) for s in range(3)]
        moves = 0
        while not g.match_over:
            if g.deal_over:
                g.next_deal()
            acting = g.to_act()
            seat = acting[moves % len(acting)]
            legal = g.legal_actions(seat)
            act = agents[seat].choose(g.observation(seat), legal, g.decision(seat), rngs[seat])
            assert act in legal, (g.phase, act, legal)
            g.apply(seat, act)
            moves += 1
            assert moves < 5000
        assert g.match_winners()


def _positions(seeds):
    agents = [agent_for("2v1", "normal")] * 3
    for seed in seeds:
        g = new_game("2v1", seed=seed)
        rng = ai_rng(seed, 0)
        while not g.deal_over:
            acting = g.to_act()
            for seat in acting:
                if len(g.legal_actions(seat)) > 1:
                    yield load_game(json.loads(json.dumps(g.to_json()))), seat
            seat = acting[0]
            legal = g.legal_actions(seat)
            g.apply(seat, agents[seat].choose(g.observation(seat), legal, g.decision(seat), rng))


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_decides_from_its_inputs_only(level):
    """The same observation with the hidden cards elsewhere moved: same decision."""
    agent = make(level)
    rng = random.Random(11)
    checked = 0
    seeds = range(3) if level == "hard" else range(8)
    for g, seat in _positions(seeds):
        h = _swap_hidden_two_v_one(g, seat, rng)
        if h is None:
            continue
        assert json.dumps(h.observation(seat)) == json.dumps(g.observation(seat))
        assert decide(agent, g, seat, checked) == decide(agent, h, seat, checked)
        checked += 1
    assert checked >= (8 if level == "hard" else 40)


def test_hard_with_an_iteration_cap_repeats_itself():
    agent = HardTwoVOneAgent(iterations=6)
    for g, seat in list(_positions(range(2)))[::3]:
        assert decide(agent, g, seat, 4) == decide(HardTwoVOneAgent(iterations=6), g, seat, 4)


@pytest.mark.parametrize("level", LEVELS)
def test_hints_are_legal_with_a_one_line_reason(level):
    agent = make(level)
    n = 0
    for g, seat in _positions(range(2)):
        obs, legal, dec = g.observation(seat), g.legal_actions(seat), g.decision(seat)
        hint = agent.suggest(obs, legal, dec, random.Random(n))
        assert isinstance(hint, Suggestion) and hint.action in legal
        assert hint.reason and "\n" not in hint.reason and len(hint.reason) < 160
        assert hint.reason[0].isupper() and hint.reason.endswith((".", ")"))
        n += 1
    assert n > 20
    # the app's hint uses the normal level
    g, seat = next(_positions([5]))
    hint = suggest(
        "2v1", g.observation(seat), g.legal_actions(seat), g.decision(seat), ai_rng(5, 0)
    )
    assert hint.action in g.legal_actions(seat)


# ----- the rules of play ------------------------------------------------------------------------
def position(hands, lone, bid, hand_no=1, won=(0, 0), seed=1):
    g = new_game("2v1", seed=seed)
    g.set_position(hands, lone=lone, bid=bid, hand_no=hand_no, hands_won=won)
    return g


def test_bidding_follows_hand_strength():
    strong = ["RB", "6H", "6U", "5M", "5S", "5C"]
    weak = ["1M", "1S", "2H", "3C", "4U", "2S"]
    assert easy_strength(strong) > easy_strength(weak)
    for level in ("easy", "normal", "hard"):
        g = new_game("2v1", seed=1)
        g.set_deal([["4M", "4C", "1S", "2S", "1U", "3S"], ["1M", "2M", "2H", "3H", "3C", "4U"],
                    ["RB", "6H", "6U", "5M", "5S", "5C"]])  # fmt: skip
        assert decide(make(level), g, 0) == Action("bid", value=0)
        g.apply(0, Action("bid", value=0))
        g.apply(1, Action("bid", value=0))
        assert decide(make(level), g, 2).value in (3, 4)


def test_the_lone_player_who_has_its_bid_throws_the_next_hand():
    # bid 3, three hands won, two to go: lead the two 1s (worth 2), not the 6
    g = position([["6H", "1M", "1S"], ["2M", "4M", "3C"], ["5M", "2S", "4U"]], 0, 3, 4, (3, 0))
    for level in ("easy", "normal", "hard"):
        agent = make(level)
        lead = decide(agent, g, 0)
        assert lead.cards[0] in ("1M", "1S"), level
    g.apply(0, Action("lead", ("1M",)))
    assert decide(make("normal"), g, 0) == Action("hide", ("1S",))


def test_the_lone_player_keeps_the_stronger_card_while_it_needs_hands():
    g = position([["6H", "1M", "3H", "5S"], ["2M", "4M", "3C"], ["5M", "2S", "4U"]], 0, 4, 3)
    g.apply(0, Action("lead", ("3H",)))
    g.apply(0, Action("hide", ("6H",)))
    for s in (1, 2):
        g.apply(s, g.legal_actions(s)[0])
    assert g.phase == "keep" and g.keep_seat == 0
    assert decide(make("normal"), g, 0) == Action("keep", value="6H")


def test_the_duo_partner_answers_the_card_on_the_table():
    # hearts led, the partner showed 6 horseshoes: 6 hearts makes 12 (same value)
    g = position([["4M", "3H", "5M", "5S", "RB"], ["6U", "1U", "3S", "4C"],
                  ["1M", "6H", "2H", "3C"]], 0, 4, 2, (1, 0))  # fmt: skip
    g.apply(0, Action("lead", ("3H",)))
    g.apply(0, Action("hide", ("4M",)))
    g.apply(1, Action("follow", ("6U",)))
    assert pair_value("6H", "6U") == 12
    assert decide(make("normal"), g, 2) == Action("follow", ("6H",))


def test_the_duo_feeds_a_lone_player_that_must_lose_the_rest():
    # the lone player has its 3 with two hands to go: the duo hand it this one
    g = position([["4M", "3H", "1S"], ["6U", "1U", "4C"], ["1M", "6H", "2H"]], 0, 3, 4, (3, 0))
    g.apply(0, Action("lead", ("3H",)))
    g.apply(0, Action("hide", ("1S",)))
    g.apply(1, Action("follow", ("1U",)))
    assert not duo_fights(0, 2)
    for level in ("easy", "normal", "hard"):
        assert decide(make(level), g, 2) == Action("follow", ("2H",)), level


def test_the_lone_plan_finds_the_only_way_to_land():
    # A duo that never beats 9 when fighting, and (feeding) hands the lone player every
    # pair worth 4 or more. The low cards make only 2s and 3s together, the 6 with any of
    # them makes 6: the 6 can leave only by winning, so exactly one win is certain (win
    # with the 6, keep the low card) and no win at all is impossible.
    odds = DuoOdds([])
    odds.fight = [[1.0 if v >= 9 else 0.0 for v in range(MAXV)] for _ in range(2 * NSUITS)]
    odds.feed = [[1.0 if v >= 4 else 0.0 for v in range(MAXV)] for _ in range(2 * NSUITS)]
    plan = LonePlan(odds)
    hand = mask_of(["6H", "3H", "1M", "1S", "1U", "2M"])
    assert plan.value(hand, 1, 5) == pytest.approx(1.0)
    assert plan.value(hand, 0, 5) == pytest.approx(0.0)
    chance, u, d = plan.best(hand, 1, 5)
    assert chance > 0.99 and CODES[u] != "RB"


def test_a_face_down_follow_is_decided_without_the_partners_card():
    # a blindfold lead: Gary lays his card face down first; whatever it is, Trang's
    # observation is the same and so is every level's choice
    hands = [["2S", "4M", "5S", "5C", "6H"], ["1M", "3H", "6U", "4U"], ["2M", "3S", "1S", "1U"]]
    choices = {}
    for gary in ("1M", "3H", "6U", "4U"):
        g = position(hands, 0, 3, hand_no=2)
        g.apply(0, Action("lead", ("2S",)))
        g.apply(0, Action("hide", ("4M",)))
        g.apply(1, Action("follow", (gary,)))
        assert g.to_act() == (2,)
        for level in LEVELS:
            choices.setdefault(level, set()).add(decide(make(level), g, 2, 3))
    assert all(len(c) == 1 for c in choices.values()), choices


def test_hard_answers_within_a_tiny_budget():
    for g, seat in list(_positions([3]))[:6]:
        act = decide(HardTwoVOneAgent(budget_s=0.001), g, seat)
        assert act in g.legal_actions(seat)
