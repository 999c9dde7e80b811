"""Big Two rules (docs/rules.md §2): combinations, order, starter, scoring, bad input, JSON."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from engine_helpers import assert_leads_match_brute_force

from twos_tui.engine import Action, IllegalAction, classify, load_game, new_game
from twos_tui.engine.climbing.poker_cards import CODE_IDX


def c(*cards, **opts):
    return classify("big-two", list(cards), **opts)


# ----- single cards, pairs, triples ------------------------------------------------------
def test_single_order_rank_then_suit():
    assert c("2D").beats(c("AS"))
    assert c("3S").beats(c("3H")) and c("3H").beats(c("3C")) and c("3C").beats(c("3D"))
    assert not c("3D").beats(c("3C"))
    assert c("4D").beats(c("3S"))


def test_pair_of_eights_suit_comparison():
    # the text's example: the pair with the spade beats the pair without it
    assert c("8H", "8S").beats(c("8D", "8C"))
    assert not c("8D", "8C").beats(c("8H", "8S"))
    assert c("8D", "8S").beats(c("8C", "8H"))
    assert c("9D", "9C").beats(c("8H", "8S"))


def test_triple_by_rank():
    assert c("5D", "5C", "5H").beats(c("4C", "4H", "4S"))
    assert c("2D", "2C", "2H").kind == "triple"


def test_not_combinations():
    assert c("8D", "9D") is None
    assert c("8D", "8C", "9H") is None
    assert c("8D", "8C", "8H", "8S") is None
    assert c("3D", "4D", "5D", "6D", "7D", "8D") is None


def test_count_must_match():
    assert not c("9D", "9C").beats(c("3D"))
    assert not c("2S").beats(c("3D", "3C"))
    assert not c("3D", "4C", "5H", "6S", "7D").beats(c("2S"))


# ----- five-card hands -------------------------------------------------------------------
def test_public_api_example():
    sf = c("3D", "4D", "5D", "6D", "7D")
    assert sf.kind == "straight-flush"
    assert sf.beats(c("9D", "9C", "9H", "9S", "3C"))


def test_five_card_kind_order():
    straight = c("3D", "4C", "5H", "6S", "7D")
    flush = c("3H", "5H", "8H", "10H", "QH")
    full = c("4D", "4C", "4H", "5S", "5D")
    quads = c("6D", "6C", "6H", "6S", "3C")
    sflush = c("3S", "4S", "5S", "6S", "7S")
    order = [straight, flush, full, quads, sflush]
    assert [x.kind for x in order] == [
        "straight",
        "flush",
        "full-house",
        "four-of-a-kind",
        "straight-flush",
    ]
    for lo, hi in itertools.combinations(order, 2):
        assert hi.beats(lo) and not lo.beats(hi)


def test_full_house_by_triple():
    assert c("9D", "9C", "9H", "4S", "4D").beats(c("7D", "7C", "7H", "KS", "KD"))


def test_four_of_a_kind_by_quad_rank():
    # 6JJJJ beats 84444: the fifth card does not matter
    assert c("6D", "JD", "JC", "JH", "JS").beats(c("8D", "4D", "4C", "4H", "4S"))
    assert not c("AD", "4D", "4C", "4H", "4S").beats(c("6D", "JD", "JC", "JH", "JS"))


def test_straights_two_low_no_wrap():
    low = c("2D", "3C", "4H", "5S", "6D")
    assert low.kind == "straight"
    assert c("3D", "4C", "5H", "6S", "7D").beats(low)
    assert c("10D", "JC", "QH", "KS", "AD").kind == "straight"
    assert c("JD", "QC", "KH", "AS", "2D") is None  # J-Q-K-A-2 is no straight
    assert c("AD", "2C", "3H", "4S", "5D") is None  # no wrap
    assert c("QD", "KC", "AH", "2S", "3D") is None


def test_straight_compares_top_card_then_suit():
    # an 8-high straight topped by 8S beats one topped by 8H (the text's example)
    assert c("4D", "5C", "6H", "7S", "8S").beats(c("4S", "5S", "6S", "7H", "8H"))
    assert not c("4S", "5S", "6S", "7H", "8H").beats(c("4D", "5C", "6H", "7S", "8S"))
    assert c("5D", "6C", "7H", "8S", "9D").beats(c("4D", "5C", "6H", "7S", "8S"))


def test_23456_house_rule():
    low = ("2D", "3C", "4H", "5S", "6D")
    ace = ("10D", "JC", "QH", "KS", "AS")
    assert c(*ace).beats(c(*low))
    assert c(*low, straight_23456="high").beats(c(*ace, straight_23456="high"))
    # two such straights compare by the suit of the 2
    assert c("2S", "3C", "4H", "5S", "6D", straight_23456="high").beats(
        c("2H", "3D", "4C", "5C", "6S", straight_23456="high")
    )
    # straight flush too
    assert c("2H", "3H", "4H", "5H", "6H", straight_23456="high").beats(
        c("10S", "JS", "QS", "KS", "AS", straight_23456="high")
    )


def test_flush_default_and_suit_option():
    hearts_k = ("3H", "5H", "8H", "10H", "KH")
    diamonds_a = ("3D", "5D", "8D", "10D", "AD")
    assert c(*diamonds_a).beats(c(*hearts_k))  # highest card first
    assert c(*hearts_k, flush_order="suit").beats(c(*diamonds_a, flush_order="suit"))
    # equal top rank: suit decides
    assert c("4S", "6S", "8S", "10S", "KS").beats(c(*hearts_k))
    # suit first, then top card within a suit
    assert c("3H", "5H", "8H", "10H", "AH", flush_order="suit").beats(
        c(*hearts_k, flush_order="suit")
    )


def test_enumeration_matches_brute_force():
    rng = random.Random(7)
    for opts in ({}, {"straight_23456": "high", "flush_order": "suit"}):
        assert_leads_match_brute_force(new_game("big-two", 4, options=opts, seed=1), rng)


# ----- dealing and the starter ----------------------------------------------------------
def test_deal_and_starter_four_players():
    g = new_game("big-two", seed=3)
    assert [len(h) for h in g.hands] == [13] * 4
    assert g.out_of_play == []
    assert g.required_card == "3D"
    assert "3D" in g.hands[g.current]
    acts = g.legal_actions(g.current)
    assert acts and all("3D" in a.cards for a in acts)
    assert Action("pass") not in acts
    other = next(x for x in g.hands[g.current] if x != "3D")
    reason = g.check(g.current, Action("play", (other,)))
    assert reason == "The first play of the deal must include 3♦."


def test_starter_without_three_of_diamonds():
    for seed in range(60):
        g = new_game("big-two", 2, seed=seed)
        if "3D" in g.out_of_play:
            dealt = [x for h in g.hands for x in h]
            low = min(dealt, key=CODE_IDX.get)
            assert g.required_card == low and low in g.hands[g.current]
            assert len(g.out_of_play) == 26
            assert not set(g.out_of_play) & set(g.observation(0)["hand"] + g.observation(1)["hand"])
            break
    else:
        pytest.fail("no seed left 3D out")


def test_cut_and_rotation():
    g = new_game("big-two", seed=11)
    first = g.dealer
    assert any(h["kind"] == "cut" for h in g.history)
    _finish_deal(g, random.Random(0))
    g.next_deal()
    assert g.dealer == (first + 1) % 4
    assert g.required_card == "3D"


# ----- scoring ---------------------------------------------------------------------------
def test_penalty_table():
    g = new_game("big-two", seed=1)
    assert [g.penalty_for(n) for n in (13, 12, 11, 10, 1, 0)] == [50, 40, 30, 10, 1, 0]


def test_score_deal_and_target():
    g = new_game("big-two", seed=1, options={"target": 50})
    d = g.deck_cards()  # the hands are card masks in the core: real, distinct cards
    g.hands = [[], d[:13], d[13:25], d[25:29]]
    res = g.score_deal(0)
    assert res.changes == [0, 50, 40, 4]
    assert res.totals == [0, 50, 40, 4]
    assert g.match_over  # 50 reached the target of 50


def _finish_deal(g, rng):
    while not g.deal_over:
        s = g.to_act()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))


def test_full_matches_have_consistent_totals():
    for seed in range(3):
        g = new_game("big-two", seed=seed)
        rng = random.Random(seed)
        while True:
            before = list(g.totals)
            _finish_deal(g, rng)
            res = g.last_result
            w = res.winners[0]
            assert g.hands[w] == []
            assert res.changes == [
                0 if i == w else g.penalty_for(len(h)) for i, h in enumerate(g.hands)
            ]
            assert g.totals == [a + b for a, b in zip(before, res.changes, strict=False)]
            if g.match_over:
                break
            assert max(g.totals) < 100
            g.next_deal()
        assert max(g.totals) >= 100
        assert g.match_winners() == [i for i, t in enumerate(g.totals) if t == min(g.totals)]


# ----- passing ---------------------------------------------------------------------------
def test_locked_passing_skips_passed_players():
    g = new_game("big-two", seed=5, options={"passing": "locked"})
    s = g.current
    g.apply(s, Action("play", ("3D",)))
    g.apply((s + 1) % 4, Action("pass"))
    nxt = (s + 2) % 4
    # play something that beats 3D, if the seat can; then the passed seat is skipped
    play = next(a for a in g.legal_actions(nxt) if a.kind == "play" and len(a.cards) == 1)
    g.apply(nxt, play)
    g.apply((s + 3) % 4, Action("pass"))
    g.apply(s, Action("pass"))
    # seat s+1 passed earlier and is locked out: the trick goes back to nxt
    assert g.top is None and g.current == nxt


def test_reentry_passing_default():
    g = new_game("big-two", seed=5)
    s = g.current
    g.apply(s, Action("play", ("3D",)))
    g.apply((s + 1) % 4, Action("pass"))
    nxt = (s + 2) % 4
    play = next(a for a in g.legal_actions(nxt) if a.kind == "play" and len(a.cards) == 1)
    g.apply(nxt, play)
    g.apply((s + 3) % 4, Action("pass"))
    g.apply(s, Action("pass"))
    assert g.current == (s + 1) % 4 and g.top is not None


# ----- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,needle",
    [
        (("ZZ",), "is not a card"),
        (("3D", "3D"), "chosen twice"),
        ((), "Select at least one card"),
    ],
)
def test_bad_input_leaves_state(cards, needle):
    g = new_game("big-two", seed=2)
    before = json.dumps(g.to_json(), sort_keys=True)
    reason = g.check(g.current, Action("play", cards))
    assert reason and needle in reason
    with pytest.raises(IllegalAction):
        g.apply(g.current, Action("play", cards))
    assert json.dumps(g.to_json(), sort_keys=True) == before


def test_card_not_in_hand_and_wrong_turn():
    g = new_game("big-two", seed=2)
    before = json.dumps(g.to_json(), sort_keys=True)
    other = (g.current + 1) % 4
    foreign = g.hands[other][0]
    assert "not in your hand" in g.check(g.current, Action("play", ("3D", foreign)))
    assert "turn" in g.check(other, Action("play", (foreign,)))
    with pytest.raises(IllegalAction):
        g.apply(other, Action("play", (foreign,)))
    assert "nothing to pass" in g.check(g.current, Action("pass"))
    assert json.dumps(g.to_json(), sort_keys=True) == before


def test_readable_reasons():
    g = new_game("big-two", seed=2)
    s = g.current
    hand = g.hands[s]
    g.hands[s] = ["3D", "4C", "5H", "6S", "7D", "8C", "JD", "QC", "KH", "AS", "2D", "9H", "9S"]
    assert "same rank" in g.check(s, Action("play", ("3D", "4C")))
    assert "five cards long" in g.check(s, Action("play", ("3D", "4C", "5H", "6S", "7D", "8C")))
    assert "J-Q-K-A-2 is not a straight" in g.check(
        s, Action("play", ("JD", "QC", "KH", "AS", "2D"))
    )
    g.apply(s, Action("play", ("3D", "4C", "5H", "6S", "7D")))
    nxt = g.current
    g.hands[nxt] = ["9C", "9D", "AH", "AD", "2S"] + g.hands[nxt][5:]
    assert g.check(nxt, Action("play", ("2S",))) == "Only a five-card hand beats a five-card hand."
    assert "same rank" in g.check(nxt, Action("play", ("9C", "AH")))
    del hand


# ----- JSON and observations -------------------------------------------------------------
def test_json_round_trip_mid_deal_and_hidden_cards():
    g = new_game("big-two", 3, seed=9)
    rng = random.Random(1)
    for _ in range(7):
        s = g.to_act()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))
    data = json.loads(json.dumps(g.to_json()))
    h = load_game(data)
    assert h.to_json() == g.to_json()
    assert h.legal_actions(h.current) == g.legal_actions(g.current)
    assert sorted(g.card_census()) == sorted(g.deck_cards())
    for seat in range(3):
        text = json.dumps(g.observation(seat))
        for card in g.hidden_from(seat):
            assert f'"{card}"' not in text
    # the game continues identically from the copy
    while not g.deal_over:
        s = g.to_act()[0]
        a = rng.choice(g.legal_actions(s))
        g.apply(s, a)
        h.apply(s, a)
    assert h.to_json() == g.to_json()
    assert g.replay().to_json() == g.to_json()


@pytest.mark.parametrize("variant", ["big-two", "big-two-5r"])
def test_cached_legal_actions_match_a_fresh_copy_every_turn(variant):
    g = new_game(variant, seed=21)
    rng = random.Random(21)
    while not g.deal_over:
        s = g.to_act()[0]
        acts = g.legal_actions(s)
        fresh = load_game(g.to_json())
        assert fresh.legal_actions(s) == acts
        g.apply(s, rng.choice(acts))


@pytest.mark.parametrize(
    "variant,opts",
    [
        ("big-two", {}),
        ("big-two", {"straight_23456": "high", "flush_order": "suit"}),
        ("big-two-5r", {}),
    ],
)
def test_following_lists_exactly_the_beating_plays(variant, opts):
    """Every turn with a play to beat: the listed plays are exactly the subsets of the
    hand that classify and beat it (brute force)."""
    for seed in range(3):
        g = new_game(variant, options=opts, seed=seed)
        cls = type(g)
        rng = random.Random(seed)
        while not g.deal_over:
            s = g.to_act()[0]
            acts = g.legal_actions(s)
            if g.top is not None:
                want = set()
                n = len(g.top.cards)
                for sub in itertools.combinations(g.hands[s], n):
                    x = cls.classify_cards(sub, g.options)
                    if x and x.beats(g.top):
                        want.add(x.cards)
                assert {a.cards for a in acts if a.kind == "play"} == want
                assert Action("pass") in acts
            g.apply(s, rng.choice(acts))
