"""Chinese Poker (docs/rules.md §4): deck, plays, bombs, opening passes, hand choice, scoring."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from twos_tui.engine import Action, IllegalAction, classify, load_game, new_game
from twos_tui.engine.climbing.game_chinese_poker import ChinesePokerGame
from twos_tui.engine.climbing.poker_cards import CODE_IDX
from twos_tui.engine.climbing.rules_chinese_poker import CP_DECK, REMOVED


def c(*cards, **opts):
    return classify("chinese-poker", list(cards), **opts)


def _play_out(g, rng):
    while not g.deal_over:
        s = g.to_act()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))


# ----- deck ------------------------------------------------------------------------------
def test_deck_is_48_cards():
    assert len(CP_DECK) == 48 and len(set(CP_DECK)) == 48
    assert sum(x.startswith("2") for x in CP_DECK) == 1
    assert sum(x.startswith("A") for x in CP_DECK) == 3
    assert not set(REMOVED) & set(CP_DECK)
    g = new_game("chinese-poker", 4, seed=1)
    assert sorted(g.deck_cards()) == sorted(CP_DECK)
    assert [len(h) for h in g.hands] == [12] * 4
    g3 = new_game("chinese-poker", 3, seed=1)
    assert [len(h) for h in g3.hands] == [16] * 3 and g3.out_of_play == []
    assert c("2H") is None  # not in this deck


# ----- plays -----------------------------------------------------------------------------
def test_suits_never_matter():
    assert c("2S").beats(c("AS"))
    assert not c("8S").beats(c("8D"))  # equal ranks do not beat
    assert not c("8D").beats(c("8S"))
    assert not c("8H", "8S").beats(c("8D", "8C"))
    assert c("9D", "9C").beats(c("8H", "8S"))


def test_pair_sequences():
    assert c("4D", "4C", "5D", "5C", "6D", "6C").kind == "pairs-sequence"  # 445566
    assert c("4D", "4C", "5D", "5C", "7D", "7C") is None  # 445577
    assert c("5D", "5C", "6H", "6S", "7D", "7C").beats(c("4D", "4C", "5H", "5S", "6D", "6C"))
    # same kind, different length: no
    assert not c("5D", "5C", "6H", "6S", "7D", "7C").beats(c("4D", "4C", "5H", "5S"))
    assert not c("9D", "9C").beats(c("4D", "4C", "5H", "5S"))
    assert c("KD", "KC", "AH", "AS").kind == "pairs-sequence"
    assert c("AH", "AS", "2S") is None


def test_triple_sequences():
    assert c("3D", "3C", "3H", "4D", "4C", "4H").kind == "triples-sequence"  # 333444
    assert c("3D", "3C", "3H", "5D", "5C", "5H") is None
    assert c("5D", "5C", "5H", "6D", "6C", "6H").beats(c("3D", "3C", "3H", "4D", "4C", "4H"))
    assert not c("9D", "9C", "9H").beats(c("3D", "3C", "3H", "4D", "4C", "4H"))
    assert c("9D", "9C", "9H").beats(c("8D", "8C", "8H"))


def test_full_house_by_triple():
    assert c("9D", "9C", "9H", "4S", "4D").beats(c("7D", "7C", "7H", "KS", "KD"))  # 99944 > 777KK
    assert not c("7D", "7C", "7H", "AS", "AD").beats(c("7S", "7C", "7H", "3S", "3D"))


def test_straights_two_low_any_length():
    assert c("4D", "5C", "6H", "7S", "8D", "9C").beats(c("3D", "4C", "5H", "6S", "7D", "8C"))
    low = c("2S", "3C", "4H", "5S", "6D")
    assert low.kind == "straight"
    assert c("3D", "4C", "5H", "6S", "7D").beats(low)
    assert c("JD", "QC", "KH", "AS", "2S") is None  # 2 is low in straights
    assert c("3D", "4C", "5H", "6S") is None  # at least five
    full = c("2S", "3C", "4H", "5S", "6D", "7C", "8H", "9S", "10D", "JC", "QH", "KS", "AD")
    assert full.kind == "straight" and len(full.cards) == 13
    # a straight is beaten only by a straight of exactly the same length
    assert not c("5D", "6C", "7H", "8S", "9D", "10C").beats(c("3D", "4C", "5H", "6S", "7D"))
    assert not c("3D", "4C", "5H", "6S", "7D").beats(c("2S", "3C", "4H", "5S", "6D", "7H"))


def test_bomb_beats_anything_fifth_card_default():
    bomb = c("8D", "4D", "4C", "4H", "4S")
    assert bomb.kind == "four-of-a-kind"
    for other in (
        c("2S"),
        c("AD", "AH"),
        c("3D", "4C", "5H", "6S", "7D", "8C", "9D"),
        c("9D", "9C", "9H", "4S", "4D"),
    ):
        assert bomb.beats(other) and not other.beats(bomb)
    # 84444 beats 6JJJJ: by the fifth card
    assert bomb.beats(c("6D", "JD", "JC", "JH", "JS"))
    assert not c("6D", "JD", "JC", "JH", "JS").beats(bomb)
    assert not c("8C", "JD", "JC", "JH", "JS").beats(bomb)  # equal fifth: no
    assert c("3D", "3C", "3H", "3S") is None  # needs a fifth card


def test_bomb_quad_rank_option():
    assert c("6D", "JD", "JC", "JH", "JS", bomb_compare="quad").beats(
        c("8D", "4D", "4C", "4H", "4S", bomb_compare="quad")
    )
    assert not c("8D", "4D", "4C", "4H", "4S", bomb_compare="quad").beats(
        c("6D", "JD", "JC", "JH", "JS", bomb_compare="quad")
    )


def test_enumeration_covers_every_play():
    rng = random.Random(11)
    for opts in ({}, {"bomb_compare": "quad"}):
        g = new_game("chinese-poker", 3, options=opts, seed=1)
        for _ in range(3):
            hand = sorted(rng.sample(CP_DECK, 13), key=CODE_IDX.get)
            g.hands[0] = hand
            g.top = None

            def sig(x):
                return (x.kind, x.slot, x.key, tuple(sorted(CODE_IDX[k] >> 2 for k in x.cards)))

            got = [sig(x) for x in g.enumerate_combos(0, None)]
            assert len(got) == len(set(got))  # one suit choice per play
            brute = set()
            for n in range(1, 14):
                for sub in itertools.combinations(hand, n):
                    x = ChinesePokerGame.classify_cards(sub, g.options)
                    if x:
                        brute.add(sig(x))
            assert set(got) == brute


def test_non_canonical_selection_accepted():
    g = new_game("chinese-poker", 4, seed=2)
    s = g.current
    g.hands[s] = ["7D", "7C", "7H", "9S"] + g.hands[s][4:]
    listed = [
        a
        for a in g.legal_actions(s)
        if a.kind == "play" and len(a.cards) == 2 and a.cards[0].startswith("7")
    ]
    assert listed == [Action("play", ("7D", "7C"))]
    assert g.check(s, Action("play", ("7H", "7C"))) is None
    g.apply(s, Action("play", ("7H", "7C")))
    assert sorted(g.hands[s][:2]) == sorted(["7D", "9S"])


# ----- flow ------------------------------------------------------------------------------
def test_dealer_plays_first_and_may_pass_on_opening():
    g = new_game("chinese-poker", 4, seed=3)
    d = g.dealer
    assert g.current == d
    assert Action("pass") in g.legal_actions(d)
    assert "or pass" in g.decision(d).prompt
    for _k in range(4):
        assert g.check(g.current, Action("pass")) is None
        g.apply(g.current, Action("pass"))
    # everyone passed: the dealer must lead now
    assert g.current == d and g.top is None
    assert Action("pass") not in g.legal_actions(d)
    assert g.check(d, Action("pass")) is not None
    g.apply(d, g.legal_actions(d)[0])
    assert g.top is not None


def test_opening_pass_then_someone_leads_and_later_leads_cannot_pass():
    g = new_game("chinese-poker", 3, seed=4)
    d = g.dealer
    g.apply(d, Action("pass"))
    s = g.current
    assert s == (d + 1) % 3
    g.apply(
        s,
        next(
            a
            for a in g.legal_actions(s)
            if a.kind == "play" and len(a.cards) == 1 and a.cards[0][0] != "2"
        ),
    )
    assert not any(g.passed)  # an opening pass locks nobody out
    g.apply(g.current, Action("pass"))
    g.apply(g.current, Action("pass"))
    assert g.top is None and g.current == s
    assert Action("pass") not in g.legal_actions(s)


def test_winner_deals_next_and_scoring():
    g = new_game("chinese-poker", 4, seed=6)
    rng = random.Random(6)
    _play_out(g, rng)
    w = g.last_result.winners[0]
    g.next_deal()
    assert g.dealer == w and g.current == w


def test_penalty_relative_to_hand_size():
    g4 = new_game("chinese-poker", 4, seed=1)
    assert [g4.penalty_for(n) for n in (12, 11, 10, 9, 1)] == [50, 40, 30, 9, 1]
    g3 = new_game("chinese-poker", 3, seed=1)
    assert [g3.penalty_for(n) for n in (16, 15, 14, 13, 12)] == [50, 40, 30, 13, 12]
    d = g3.deck_cards()  # the hands are card masks in the core: real, distinct cards
    g3.hands = [[], d[:16], d[16:29]]
    res = g3.score_deal(0)
    assert res.changes == [0, 50, 13] and not g3.match_over


def test_full_match_totals_and_target():
    for players in (2, 3, 4):
        g = new_game("chinese-poker", players, seed=players, options={"target": 50})
        rng = random.Random(players)
        while True:
            before = list(g.totals)
            _play_out(g, rng)
            res = g.last_result
            w = res.winners[0]
            assert res.changes == [
                0 if i == w else g.penalty_for(len(h)) for i, h in enumerate(g.hands)
            ]
            assert g.totals == [a + b for a, b in zip(before, res.changes, strict=False)]
            assert sorted(g.card_census()) == sorted(CP_DECK)
            if g.match_over:
                break
            g.next_deal()
        assert max(g.totals) >= 50


# ----- two players: the hand choice ------------------------------------------------------
def test_two_player_hand_choice():
    g = new_game("chinese-poker", 2, seed=8)
    d, o = g.dealer, 1 - g.dealer
    assert g.phase == "choose" and g.to_act() == (d,)
    assert g.hands == [[], []]
    assert sorted(g.card_census()) == sorted(CP_DECK)
    dec = g.decision(d)
    assert dec.kind == "choose-hand" and dec.select is None
    assert [ch.action for ch in dec.choices] == [Action("choose-hand", value=L) for L in "ABC"]
    obs_d, obs_o = g.observation(d), g.observation(o)
    assert set(obs_d["offered_hands"]) == {"A", "B", "C"}
    assert "offered_hands" not in obs_o
    text_o = json.dumps(obs_o)
    assert all(f'"{x}"' not in text_o for x in CP_DECK)
    assert g.check(o, Action("choose-hand", value="A")) == (
        f"It is not your turn: waiting for {g.names[d]}."
    )
    assert "choose one of the hands" in g.check(d, Action("play", ("3D",)))
    assert "not on offer" in g.check(d, Action("choose-hand", value="D"))
    b_cards = list(g.offered["B"])
    g.apply(d, Action("choose-hand", value="B"))
    assert g.hands[d] == b_cards
    assert g.to_act() == (o,)
    assert [a.value for a in g.legal_actions(o)] == ["A", "C"]
    assert "not on offer" in g.check(o, Action("choose-hand", value="B"))
    assert "offered_hands" not in g.observation(d)
    assert set(g.observation(o)["offered_hands"]) == {"A", "C"}
    rest = list(g.offered["A"])
    # JSON round trip in the middle of the hand choice
    h = load_game(json.loads(json.dumps(g.to_json())))
    assert h.to_json() == g.to_json()
    g.apply(o, Action("choose-hand", value="C"))
    assert g.out_of_play == rest and g.phase == "play"
    assert g.current == d and len(g.hands[o]) == 16
    assert "already been chosen" in g.check(o, Action("choose-hand", value="A"))
    for seat in (0, 1):
        text = json.dumps(g.observation(seat))
        assert all(f'"{x}"' not in text for x in g.hidden_from(seat))
        assert set(rest) <= g.hidden_from(seat)
    assert g.penalty_for(16) == 50


# ----- bad input and JSON ------------------------------------------------------------------
def test_bad_input_leaves_state_unchanged():
    g = new_game("chinese-poker", 4, seed=9)
    s = g.current
    before = json.dumps(g.to_json(), sort_keys=True)
    other = g.hands[(s + 1) % 4][0]
    cases = [
        (Action("play", ("QQ",)), "is not a card"),
        (Action("play", (g.hands[s][0], g.hands[s][0])), "chosen twice"),
        (Action("play", (other,)), "not in your hand"),
    ]
    for a, needle in cases:
        assert needle in g.check(s, a)
        with pytest.raises(IllegalAction):
            g.apply(s, a)
    assert "turn" in g.check((s + 1) % 4, Action("play", (other,)))
    assert json.dumps(g.to_json(), sort_keys=True) == before


def test_readable_reasons():
    g = new_game("chinese-poker", 4, seed=9)
    s = g.current
    g.hands[s] = ["4D", "4C", "5D", "5C", "7D", "7C", "8H", "8S", "8D", "8C", "JD", "QC"]
    assert "consecutive ranks" in g.check(s, Action("play", ("4D", "4C", "5D", "5C", "7D", "7C")))
    assert "one more card" in g.check(s, Action("play", ("8H", "8S", "8D", "8C")))
    g.apply(s, Action("play", ("4D", "4C", "5D", "5C")))
    nxt = g.current
    g.hands[nxt] = ["9D", "9C", "10D", "10C", "KD", "KC", "KH"] + g.hands[nxt][7:]
    assert "pairs" in g.check(nxt, Action("play", ("KD", "KC")))
    assert g.check(nxt, Action("play", ("9D", "9C", "10D", "10C"))) is None


def test_json_round_trip_mid_deal():
    g = new_game("chinese-poker", 3, seed=12)
    rng = random.Random(3)
    for _ in range(10):
        s = g.to_act()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))
    h = load_game(json.loads(json.dumps(g.to_json())))
    assert h.to_json() == g.to_json()
    while not g.deal_over:
        s = g.to_act()[0]
        a = rng.choice(g.legal_actions(s))
        g.apply(s, a)
        h.apply(s, a)
    assert h.to_json() == g.to_json()
    assert g.replay().to_json() == g.to_json()


def test_cached_legal_actions_match_a_fresh_copy_every_turn():
    for players in (2, 4):
        g = new_game("chinese-poker", players, seed=31)
        rng = random.Random(31)
        while not g.deal_over:
            s = g.to_act()[0]
            acts = g.legal_actions(s)
            assert load_game(g.to_json()).legal_actions(s) == acts
            g.apply(s, rng.choice(acts))


def test_following_lists_one_of_each_beating_play():
    """Every turn with a play to beat: one listed play per distinct rank pattern that
    beats it, and every such pattern is listed (brute force over the hand)."""
    for players, seed in ((4, 1), (4, 2), (3, 3)):
        g = new_game("chinese-poker", players, seed=seed)
        rng = random.Random(seed)
        while not g.deal_over:
            s = g.to_act()[0]
            acts = g.legal_actions(s)
            if g.top is not None:

                def sig(x):
                    return (x.kind, x.slot, tuple(sorted(CODE_IDX[k] >> 2 for k in x.cards)))

                sizes = {len(g.top.cards), 5}
                want = set()
                for n in sizes:
                    for sub in itertools.combinations(g.hands[s], n):
                        x = ChinesePokerGame.classify_cards(sub, g.options)
                        if x and x.beats(g.top):
                            want.add(sig(x))
                got = [
                    sig(ChinesePokerGame.classify_cards(a.cards, g.options))
                    for a in acts
                    if a.kind == "play"
                ]
                assert len(got) == len(set(got))
                assert set(got) == want
            g.apply(s, rng.choice(acts))
