"""The climbing-game opponents (``easy`` and ``normal``) and their hand planner.

* each level decides only from its inputs: two game states that differ only in cards the
  seat cannot see give the same decision with the same generator state;
* every level plays complete seeded matches of every climbing game, in every player
  count and under the house rules, without an illegal action;
* easy is never absurd: it plays out when it can, and does not break a bomb for nothing;
* ``suggest()`` returns a legal action and a reason that names the cards;
* the planner splits hand-made hands as a player would.

Strength figures live in the arena (``twos-tui arena``) and the README, not here.
"""

from __future__ import annotations

import json
import random

import pytest

from twos_tui.ai import Suggestion, agent_for, ai_rng, suggest
from twos_tui.ai.climbing_ai import EasyClimbingAgent, NormalClimbingAgent
from twos_tui.ai.hand_plan import planner_for
from twos_tui.engine import load_game, new_game
from twos_tui.engine.cards import display
from twos_tui.engine.protocol import PASS, Action

LEVELS = ("easy", "normal")
#: (variant, players, options)
FORMS = [
    ("twos", 3, {}),
    ("twos", 2, {}),
    ("big-two", 4, {}),
    ("big-two", 3, {}),
    ("big-two", 2, {}),
    ("big-two-5r", 4, {}),
    ("chinese-poker", 4, {}),
    ("chinese-poker", 3, {}),
    ("chinese-poker", 2, {}),
]
#: every house rule that changes play, away from its default
HOUSE_RULES = [
    ("twos", 3, {"passing": "locked"}),
    ("twos", 3, {"run_suits": "same-suit"}),
    ("twos", 3, {"opening": "lowest", "scoring": "penalty", "bomb_order": "fixed"}),
    ("twos", 2, {"hand_size": 13, "passing": "locked"}),
    ("big-two", 4, {"passing": "locked"}),
    ("big-two", 4, {"straight_23456": "high", "flush_order": "suit"}),
    ("big-two-5r", 4, {"passing": "locked"}),
    ("chinese-poker", 4, {"bomb_compare": "quad"}),
]


def decide(agent, g, seat, rng):
    return agent.choose(g.observation(seat), g.legal_actions(seat), g.decision(seat), rng)


def play_to_end(g, agents, rngs, whole_match=True, check_hints=False):
    """Play the deal (or the match); every action must be one of the legal ones."""
    moves = 0
    while True:
        if g.deal_over:
            if not whole_match or g.match_over:
                return moves
            g.next_deal()
        for seat in g.to_act():
            legal = g.legal_actions(seat)
            obs, dec = g.observation(seat), g.decision(seat)
            act = agents[seat].choose(obs, legal, dec, rngs[seat])
            assert act in legal, (g.variant_id, act, legal)
            if check_hints and hasattr(agents[seat], "suggest"):
                hint = agents[seat].suggest(obs, legal, dec, random.Random(moves))
                assert hint.action in legal
            g.apply(seat, act)
            moves += 1
            break
        assert moves < 50_000


def edited(g, **changes):
    """A copy of ``g`` (through its saved form) with some fields of the state changed."""
    data = json.loads(json.dumps(g.to_json()))
    data.update(changes)
    return load_game(data)


# ----- deciding only from the inputs ---------------------------------------------------------


def reshuffle_hidden(g, seat, rng):
    """``g`` with the cards ``seat`` cannot see dealt again among the places it cannot see
    (other hands, out of play), each keeping its size."""
    data = json.loads(json.dumps(g.to_json()))
    hidden_places = [s for s in range(g.players) if s != seat]
    pool = [c for s in hidden_places for c in data["hands"][s]] + list(data["out_of_play"])
    rng.shuffle(pool)
    at = 0
    for s in hidden_places:
        n = len(data["hands"][s])
        data["hands"][s] = sorted(pool[at : at + n], key=g.card_sort_key)
        at += n
    data["out_of_play"] = sorted(pool[at:], key=g.card_sort_key)
    return load_game(data), pool


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant,players,options", FORMS)
def test_decisions_depend_only_on_what_the_seat_sees(level, variant, players, options):
    checked = 0
    for seed in range(6):
        g = new_game(variant, players, dict(options), seed)
        agents = [agent_for(variant, level) for _ in range(players)]
        rngs = [ai_rng(seed, s) for s in range(players)]
        mover = random.Random(seed)
        steps = 0
        while not g.deal_over and steps < 200:
            seat = g.to_act()[0]
            if getattr(g, "phase", "play") == "play" and mover.random() < 0.25:
                for k in range(10):
                    g2, pool = reshuffle_hidden(g, seat, random.Random(steps * 10 + k))
                    if g2.hands != g.hands or g2.out_of_play != g.out_of_play:
                        break
                else:
                    g2 = None  # nothing hidden can move (e.g. one opponent, no pile)
                if g2 is not None:
                    assert g2.observation(seat) == g.observation(seat)
                    r1, r2 = ai_rng(seed, 99), ai_rng(seed, 99)
                    a1 = decide(agent_for(variant, level), g, seat, r1)
                    a2 = decide(agent_for(variant, level), g2, seat, r2)
                    assert a1 == a2
                    assert r1.getstate() == r2.getstate()
                    checked += 1
            g.apply(seat, decide(agents[seat], g, seat, rngs[seat]))
            steps += 1
    assert checked >= 5


# ----- whole matches -----------------------------------------------------------------------


@pytest.mark.parametrize("variant,players,options", FORMS)
def test_levels_play_whole_matches_legally(variant, players, options):
    for seed in range(2):
        specs = [("easy", "normal", "greedy", "random")[(seed + s) % 4] for s in range(players)]
        if seed == 1:
            specs = ["normal"] * players
        g = new_game(variant, players, dict(options), 100 + seed)
        agents = [agent_for(variant, s) for s in specs]
        rngs = [ai_rng(100 + seed, s) for s in range(players)]
        play_to_end(g, agents, rngs, check_hints=(seed == 0))
        assert g.match_over and g.match_winners()


@pytest.mark.parametrize("variant,players,options", HOUSE_RULES)
def test_levels_play_legally_under_every_house_rule(variant, players, options):
    for seed in range(4):
        specs = [("normal", "easy")[(seed + s) % 2] for s in range(players)]
        g = new_game(variant, players, dict(options), 200 + seed)
        agents = [agent_for(variant, s) for s in specs]
        rngs = [ai_rng(200 + seed, s) for s in range(players)]
        play_to_end(g, agents, rngs, whole_match=False)
        assert g.deal_over


def test_the_registry_names_the_levels():
    for v in ("twos", "big-two", "big-two-5r", "chinese-poker"):
        assert isinstance(agent_for(v, "easy"), EasyClimbingAgent)
        assert isinstance(agent_for(v, "normal"), NormalClimbingAgent)
        assert isinstance(agent_for(v, "basic"), NormalClimbingAgent)  # old saves
        assert agent_for(v, "easy", budget_s=0.1).name == "easy"  # unknown keys ignored


def test_a_match_with_ai_replays_exactly_from_its_seed():
    def run():
        g = new_game("big-two", 4, {}, 5)
        agents = [agent_for("big-two", lv) for lv in ("normal", "easy", "normal", "easy")]
        rngs = [ai_rng(5, s) for s in range(4)]
        play_to_end(g, agents, rngs, whole_match=False)
        return g.actions

    assert run() == run()


# ----- never absurd ------------------------------------------------------------------------


def twos_state(hands, current, top=None, out=None, **extra):
    """A Twos deal (3 players) with the given hands, seat to act and play to beat."""
    g = new_game("twos", 3, {}, 1)
    used = {c for h in hands for c in h} | set(top[1] if top else ())
    rest = [c for c in g.deck_cards() if c not in used]
    changes = {
        "hands": [sorted(h, key=g.card_sort_key) for h in hands],
        "current": current,
        "top": top,
        "out_of_play": out if out is not None else rest,
        "discards": list(top[1]) if top else [],
        "required_card": None,
        "opening": False,
        "passed": [False, False, False],
        "trick": [{"seat": top[0], "cards": top[1], "kind": "single"}] if top else [],
    }
    changes.update(extra)
    return edited(g, **changes)


@pytest.mark.parametrize("level", LEVELS)
def test_a_last_card_that_can_be_played_is_played(level):
    g = twos_state([["9D"], ["3S", "4S", "KD"], ["5S", "6S"]], current=0, top=[1, ["7C"]])
    assert decide(agent_for("twos", level), g, 0, random.Random(0)) == Action("play", ("9D",))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["twos", "big-two", "chinese-poker"])
def test_a_play_that_empties_the_hand_is_made(level, variant):
    rng = random.Random(4)
    for seed in range(30):
        g = new_game(variant, None, {}, seed)
        agents = [agent_for(variant, "greedy") for _ in range(g.players)]
        while not g.deal_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            hand = g.hands[seat] if getattr(g, "phase", "play") == "play" else []
            outs = [a for a in legal if a.kind == "play" and len(a.cards) == len(hand)]
            if outs:
                act = decide(agent_for(variant, level), g, seat, rng)
                assert len(act.cards) == len(hand), (hand, act)
            g.apply(seat, decide(agents[seat], g, seat, rng))


@pytest.mark.parametrize("level", LEVELS)
def test_a_bomb_is_not_broken_to_beat_a_single(level):
    # four sevens and small cards: the 6 beats the 5; a seven would break the bomb
    hands = [["6D", "7S", "7C", "7D", "7H", "9S", "JD", "KC"], ["3S", "4S", "QD"], ["8S", "8C"]]
    g = twos_state(hands, current=0, top=[1, ["5C"]])
    act = decide(agent_for("twos", level), g, 0, random.Random(0))
    assert not (set(act.cards) & {"7S", "7C", "7D", "7H"}) or len(act.cards) == 4
    assert act.kind == "pass" or act.cards == ("6D",) or act.cards in (("9S",), ("JD",), ("KC",))


@pytest.mark.parametrize("level", LEVELS)
def test_a_bomb_is_not_led_in_pieces(level):
    # the lowest cards are a bomb (3-3 4-4 5-5): lead something else, not a piece of it
    hands = [["3S", "3C", "4S", "4D", "5C", "5H", "9S", "JD", "KC"], ["6S", "QD"], ["8S", "8C"]]
    g = twos_state(hands, current=0)
    act = decide(agent_for("twos", level), g, 0, random.Random(0))
    bomb = {"3S", "3C", "4S", "4D", "5C", "5H"}
    assert not (set(act.cards) & bomb) or set(act.cards) == bomb, act


def test_easy_bombs_only_when_it_matters():
    # only a bomb beats a pair of twos: easy keeps its four sevens while nobody is close
    # to going out, and uses them when an opponent is down to two cards
    mine = ["3S", "6D", "7S", "7C", "7D", "7H", "9S", "JD", "KC"]
    third = ["5S", "6S", "9D", "10S", "JS"]
    calm = twos_state([mine, ["4S", "5D", "8S", "8C", "10D", "QS"], third], 0, [1, ["2S", "2C"]])
    assert decide(EasyClimbingAgent(), calm, 0, random.Random(0)) == PASS
    close = twos_state([mine, ["4S", "5D"], third], 0, [1, ["2S", "2C"]])
    assert decide(EasyClimbingAgent(), close, 0, random.Random(0)).cards == ("7S", "7C", "7D", "7H")


# ----- normal's judgement ------------------------------------------------------------------


def test_normal_leads_what_a_player_with_one_card_cannot_follow():
    hands = [["4S", "9D", "9H", "JD"], ["KS"], ["5S", "6S", "8D", "10S"]]
    g = twos_state(hands, current=0)
    act = decide(NormalClimbingAgent(), g, 0, random.Random(0))
    assert act.cards == ("9D", "9H")


def test_normal_blocks_a_player_about_to_go_out():
    # seat 1 has one card: a low single would let it go out, so beat the 5♣ high
    hands = [["4S", "6D", "9S", "QD", "2H"], ["KS"], ["5S", "6S", "8D", "10S"]]
    g = twos_state(hands, current=0, top=[2, ["5C"]])
    act = decide(NormalClimbingAgent(), g, 0, random.Random(0))
    assert act.cards in (("QD",), ("2H",))
    # with nobody close to going out, the 6♦ would do
    calm = [hands[0], ["KS", "3C", "7C", "8C", "JC", "AD"], hands[2] + ["3D", "JS"]]
    g = twos_state(calm, 0, [2, ["5C"]])
    assert decide(NormalClimbingAgent(), g, 0, random.Random(0)).cards == ("6D",)


def test_normal_keeps_a_sure_winner_while_the_hand_is_long():
    # a low single to beat; the 2♥ cannot be beaten, the 9♠ is what the hand can spare
    hands = [
        ["3S", "5D", "7H", "9S", "10C", "JD", "QS", "KH", "2H", "4C"],
        ["3C", "4H", "6S", "8C", "8D", "10H", "JS", "QC", "KD", "AD"],
        ["3D", "5S", "6C", "7D", "8H", "9D", "10S", "JH", "QD", "KS"],
    ]
    g = twos_state(hands, current=0, top=[1, ["8S"]])
    act = decide(NormalClimbingAgent(), g, 0, random.Random(0))
    assert act.cards != ("2H",)


def test_normal_plays_its_sure_winners_to_go_out():
    # 2♥ cannot be beaten (no bombs left out there); after it the pair goes out
    hands = [["6D", "6H", "2H"], ["3S", "4S", "5D", "7C"], ["3C", "4H", "8S", "9D"]]
    g = twos_state(hands, current=0, top=[1, ["AS"]])
    act = decide(NormalClimbingAgent(), g, 0, random.Random(0))
    assert act.cards == ("2H",)


def test_normal_chooses_the_better_hand_in_two_player_chinese_poker():
    g = new_game("chinese-poker", 2, {}, 3)
    seat = g.to_act()[0]
    strong = ["3D", "4D", "5D", "6D", "7D", "9D", "9C", "9H", "QD", "QC", "KD", "KC", "KH"]
    strong += ["AD", "AH", "2S"]
    weak = ["3C", "4C", "6C", "8C", "10C", "JC", "3H", "5H", "7H", "10H", "JH", "4S", "6S"]
    weak += ["8S", "10S", "QS"]
    rest = [c for c in g.deck_cards() if c not in strong + weak]
    g = edited(g, offered={"A": weak, "B": strong, "C": rest})
    act = decide(NormalClimbingAgent(), g, seat, random.Random(0))
    assert act == Action("choose-hand", value="B")
    hint = NormalClimbingAgent().suggest(
        g.observation(seat), g.legal_actions(seat), g.decision(seat), random.Random(0)
    )
    assert "hand B" in hint.reason


def test_normal_leads_the_opening_in_chinese_poker():
    for seed in range(5):
        g = new_game("chinese-poker", 4, {}, seed)
        seat = g.to_act()[0]
        assert PASS in g.legal_actions(seat)
        assert decide(NormalClimbingAgent(), g, seat, random.Random(0)).kind == "play"


# ----- hints -------------------------------------------------------------------------------

_BLOCK = range(0x1F0A0, 0x1F100)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant,players,options", FORMS)
def test_suggestions_are_legal_and_name_the_cards(level, variant, players, options):
    agent = agent_for(variant, level)
    for seed in range(3):
        g = new_game(variant, players, dict(options), 300 + seed)
        rng = ai_rng(300 + seed, 0)
        while not g.deal_over:
            seat = g.to_act()[0]
            legal, obs, dec = g.legal_actions(seat), g.observation(seat), g.decision(seat)
            hint = agent.suggest(obs, legal, dec, rng)
            assert isinstance(hint, Suggestion)
            assert hint.action in legal
            reason = hint.reason
            assert reason and "\n" not in reason and len(reason) < 160, reason
            assert not any(ord(ch) in _BLOCK for ch in reason)
            if hint.action.kind == "play":
                assert display(hint.action.cards[0]) in reason, reason
            elif hint.action.kind == "choose-hand":
                assert f"hand {hint.action.value}" in reason
            else:
                assert reason.startswith("Pass"), reason
            g.apply(seat, hint.action)


def test_the_hint_function_asks_the_normal_level():
    g = new_game("big-two", 4, {}, 8)
    seat = g.to_act()[0]
    args = (g.observation(seat), g.legal_actions(seat), g.decision(seat))
    hint = suggest("big-two", *args, random.Random(1))
    assert hint == NormalClimbingAgent().suggest(*args, random.Random(1))
    assert "3♦" in hint.reason


def test_a_hint_to_hold_back_names_the_card_kept():
    # many weak singles and no runs: the 2♥ is the hand's only way back to the lead, and
    # the player between us may still beat the A♠
    hands = [
        ["3S", "5D", "5C", "7H", "9S", "9C", "JD", "KH", "2H"],
        ["3C", "4H", "6S", "8C", "8D", "10H", "JS", "QC", "KD", "AD"],
        ["3D", "5S", "6C", "7D", "8H", "9D", "10S", "JH", "QD", "KS"],
    ]
    g = twos_state(hands, current=0, top=[2, ["AS"]])
    hint = NormalClimbingAgent().suggest(
        g.observation(0), g.legal_actions(0), g.decision(0), random.Random(0)
    )
    assert hint.action == PASS
    assert "2♥" in hint.reason and "later" in hint.reason


# ----- the planner ------------------------------------------------------------------------


def plan_of(variant, hand, players=None, **kw):
    g = new_game(variant, players, {}, 0)
    obs = g.observation(0)
    obs["hand_counts"] = [len(hand)] + [13] * (g.players - 1)
    obs["history"] = kw.get("history", [])
    P = planner_for(obs, hand=hand)
    return P, P.plan(P.hand if variant != "chinese-poker" else None)


def kinds(plan):
    return sorted((c.kind, c.n) for c in plan)


def test_twos_plan_finds_runs_sets_and_bombs():
    _, plan = plan_of("twos", ["3S", "4C", "5D", "6H", "7S", "9D", "9H", "KS"])
    assert kinds(plan) == [("pair", 2), ("run", 5), ("single", 1)]
    _, plan = plan_of("twos", ["3S", "3C", "4S", "4D", "5C", "5H", "JD"])
    assert kinds(plan) == [("bomb", 6), ("single", 1)]
    _, plan = plan_of("twos", ["8S", "8C", "8D", "8H", "10S", "JD", "QH", "2H"])
    assert ("bomb", 4) in kinds(plan) and ("run", 3) in kinds(plan)


def test_twos_plan_uses_the_fewest_combinations():
    # 3 4 5 6 7 8 with a spare 5: a run of six and a single, not two runs and more
    P, plan = plan_of("twos", ["3S", "4S", "5S", "5H", "6C", "7D", "8H"])
    assert len(plan) == 2
    assert sum(c.n for c in plan) == 7


def test_big_two_plan_finds_five_card_hands():
    _, plan = plan_of("big-two", ["3D", "4C", "5H", "6S", "7D", "9C", "9S", "KH"])
    assert kinds(plan) == [("pair", 2), ("single", 1), ("straight", 5)]
    _, plan = plan_of("big-two", ["3H", "5H", "8H", "10H", "QH", "4C", "AS"])
    assert ("flush", 5) in kinds(plan)
    _, plan = plan_of("big-two", ["7D", "7C", "7S", "KD", "KH", "4C"])
    assert ("full-house", 5) in kinds(plan)


def test_chinese_poker_plan_finds_chains_and_low_straights():
    _, plan = plan_of("chinese-poker", ["4D", "4C", "5D", "5C", "6H", "6S", "JD"])
    assert kinds(plan) == [("pairs", 6), ("single", 1)]
    _, plan = plan_of("chinese-poker", ["3D", "3C", "3H", "4D", "4C", "4H", "KD"])
    assert kinds(plan) == [("single", 1), ("triples", 6)]
    _, plan = plan_of("chinese-poker", ["2S", "3D", "4C", "5H", "6S", "9D"])
    assert kinds(plan) == [("single", 1), ("straight", 5)]
    # the plan names every card of the hand once
    P, plan = plan_of("chinese-poker", ["4D", "4C", "5D", "5C", "6H", "6S", "6D", "JD"])
    named = [c for combo in plan for c in combo.cards]
    assert sorted(named) == sorted(["4D", "4C", "5D", "5C", "6H", "6S", "6D", "JD"])


def test_controls_come_from_counting_the_cards_played():
    P, _ = plan_of("big-two", ["2S", "AS", "5D"], players=4)
    assert P.combo_of(["2S"]).ctrl
    assert not P.combo_of(["AS"]).ctrl
    history = [
        {"deal": 1, "kind": "play", "cards": [c], "seat": 1, "text": ""} for c in ("2D", "2C", "2H")
    ]
    P, _ = plan_of("big-two", ["2S", "AS", "5D"], players=4, history=history)
    assert P.combo_of(["AS"]).ctrl  # every other two is gone: only the 2♠ (ours) beats it
    assert P.combo_of(["AS"]).s > P.combo_of(["5D"]).s


def test_strength_counts_what_opponents_can_hold():
    # an opponent with one card cannot beat a pair
    g = new_game("twos", 3, {}, 0)
    obs = g.observation(0)
    obs["hand_counts"] = [5, 1, 1]
    P = planner_for(obs, hand=["3S", "3C", "5D", "9H", "KD"])
    assert P.combo_of(["3S", "3C"]).ctrl
    assert not P.combo_of(["5D"]).ctrl


def test_a_pass_makes_a_play_of_that_kind_look_safer():
    # seat 1 passed on a single K♠: our A♦ is less likely to be beaten by it
    g = new_game("twos", 3, {}, 0)
    obs = g.observation(0)
    obs["hand"] = ["3S", "5D", "9H", "KD", "AS", "AD"]
    obs["hand_counts"] = [6, 9, 9]
    played = {"deal": 1, "kind": "play", "cards": ["KS"], "seat": 2, "text": ""}
    passed = {"deal": 1, "kind": "pass", "seat": 1, "text": ""}
    obs["history"] = [played]
    single, pair = planner_for(obs).combo_of(["AD"]).s, planner_for(obs).combo_of(["AS", "AD"]).s
    obs["history"] = [played, passed]
    assert planner_for(obs).combo_of(["AD"]).s > single
    # a pair is another kind of play: the pass says nothing about pairs
    assert planner_for(obs).combo_of(["AS", "AD"]).s == pair
