"""Big Two, five-round edition (docs/rules.md §3)."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from engine_helpers import assert_leads_match_brute_force

from twos_tui.engine import Action, IllegalAction, classify, load_game, new_game
from twos_tui.engine.climbing.game_big_two_5r import BigTwoFiveRoundGame


def c(*cards, **opts):
    return classify("big-two-5r", list(cards), **opts)


def test_players_and_options():
    assert BigTwoFiveRoundGame.player_counts == (4,)
    with pytest.raises(ValueError):
        new_game("big-two-5r", 3)
    assert [s.id for s in BigTwoFiveRoundGame.option_specs(4)] == ["passing"]


def test_suit_order_d_c_h_s():
    assert c("5S").beats(c("5H")) and c("5H").beats(c("5C")) and c("5C").beats(c("5D"))
    assert c("2S").beats(c("2H"))
    assert c("8H", "8S").beats(c("8D", "8C"))


def test_straights_two_only_on_top():
    top = c("JD", "QC", "KH", "AS", "2D")
    assert top.kind == "straight"
    assert top.beats(c("10S", "JS", "QS", "KS", "AH"))  # highest plain straight
    assert c("AD", "2C", "3H", "4S", "5D") is None
    assert c("2D", "3C", "4H", "5S", "6D") is None
    assert c("3D", "4C", "5H", "6S", "7D").kind == "straight"
    assert c("KD", "AC", "2H", "3S", "4D") is None  # no wrap


def test_straight_top_card_then_suit():
    assert c("4D", "5C", "6H", "7S", "8S").beats(c("4S", "5S", "6S", "7H", "8H"))
    assert c("JS", "QC", "KH", "AS", "2S").beats(c("JD", "QC", "KH", "AS", "2H"))
    # straight flush too: top card then suit
    assert c("JD", "QD", "KD", "AD", "2D").beats(c("10S", "JS", "QS", "KS", "AS"))
    assert c("3S", "4S", "5S", "6S", "7S").beats(c("3H", "4H", "5H", "6H", "7H"))


def test_flush_suit_first():
    spades_low = c("3S", "4S", "6S", "8S", "9S")
    hearts_two = c("3H", "5H", "8H", "10H", "2H")
    assert spades_low.beats(hearts_two)
    assert c("3S", "4S", "6S", "8S", "10S").beats(spades_low)


def test_full_house_and_quads():
    assert c("9D", "9C", "9H", "4S", "4D").beats(c("7D", "7C", "7H", "KS", "KD"))
    assert c("6D", "JD", "JC", "JH", "JS").beats(c("8D", "4D", "4C", "4H", "4S"))
    order = [
        c("3D", "4C", "5H", "6S", "7D"),
        c("3H", "5H", "8H", "10H", "QH"),
        c("4D", "4C", "4H", "5S", "5D"),
        c("6D", "6C", "6H", "6S", "3C"),
        c("3S", "4S", "5S", "6S", "7S"),
    ]
    for lo, hi in itertools.combinations(order, 2):
        assert hi.beats(lo) and not lo.beats(hi)


def test_enumeration_matches_brute_force():
    assert_leads_match_brute_force(new_game("big-two-5r", seed=1), random.Random(5))


def test_penalty_tiers():
    g = new_game("big-two-5r", seed=1)
    assert [g.penalty_for(n) for n in (0, 1, 9, 10, 12, 13)] == [0, 1, 9, 20, 24, 39]
    d = g.deck_cards()  # the hands are card masks in the core: real, distinct cards
    g.hands = [[], d[:13], d[13:23], d[23:32]]
    res = g.score_deal(0)
    assert res.changes == [0, 39, 20, 9]
    assert not g.match_over


def test_three_of_diamonds_starts_each_deal_and_five_deals():
    g = new_game("big-two-5r", seed=4)
    rng = random.Random(4)
    deals = 0
    while True:
        assert "3D" in g.hands[g.current] and g.required_card == "3D"
        assert "first play of the deal must include 3♦" in g.check(
            g.current, Action("play", (next(x for x in g.hands[g.current] if x != "3D"),))
        )
        before = list(g.totals)
        while not g.deal_over:
            s = g.to_act()[0]
            g.apply(s, rng.choice(g.legal_actions(s)))
        deals += 1
        res = g.last_result
        w = res.winners[0]
        assert res.changes == [
            0 if i == w else g.penalty_for(len(h)) for i, h in enumerate(g.hands)
        ]
        assert g.totals == [a + b for a, b in zip(before, res.changes, strict=False)]
        if g.match_over:
            break
        g.next_deal()
    assert deals == 5
    with pytest.raises(ValueError):
        g.next_deal()


def test_bad_input_and_json():
    g = new_game("big-two-5r", seed=8)
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="not a card"):
        g.apply(g.current, Action("play", ("1Z",)))
    assert json.dumps(g.to_json(), sort_keys=True) == before
    s = g.current
    g.hands[s] = ["3D", "4D", "5C", "6H", "AS", "2D"] + g.hands[s][6:]
    assert "top card of a straight" in g.check(s, Action("play", ("AS", "2D", "3D", "4D", "5C")))
    rng = random.Random(2)
    g = new_game("big-two-5r", seed=8)
    for _ in range(9):
        s = g.to_act()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))
    h = load_game(json.loads(json.dumps(g.to_json())))
    assert h.to_json() == g.to_json()
