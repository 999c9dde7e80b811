"""2v1 (docs/rules.md §5): the deck table, hand values, the worked example, bidding, the
exchange, blindfold follows, keeping cards, scoring, the play-off, and refused input."""

from __future__ import annotations

import json
import unicodedata

import pytest
from engine_helpers import refused, state

from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action
from twos_tui.engine.two_v_one.deck import (
    BLINDFOLD,
    CARDS,
    DECK,
    DECK_TABLE,
    RAINBOW,
    pair_value,
    parse,
)
from twos_tui.engine.two_v_one.game import TwoVOneGame

LIAM, GARY, TRANG = 0, 1, 2


def roundtrip(g):
    g2 = load_game(json.loads(json.dumps(g.to_json())))
    assert state(g2) == state(g)
    for s in range(3):
        assert g2.observation(s) == g.observation(s)
        assert g2.legal_actions(s) == g.legal_actions(s)
    return g2


def obs_strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from obs_strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from obs_strings(v)


def sees(g, seat, code) -> bool:
    lab = g.card_face(code).label
    return any(s == code or lab in s for s in obs_strings(g.observation(seat)))


# A deal where the rainbow is with Trang (seat 2): Liam (seat 0) speaks first.
DEAL = [
    ["4M", "5M", "5S", "6H", "4C", "5C"],
    ["1M", "1S", "2S", "3S", "6U", "4U"],
    ["2M", "2H", "3H", "3C", "1U", "RB"],
]


def fresh(deal=DEAL) -> TwoVOneGame:
    g = new_game("2v1", seed=5, names=["Liam", "Gary", "Trang"])
    g.set_deal(deal)
    return g


# ----- the deck --------------------------------------------------------------------------
def test_deck_table_matches_the_ruling():
    suits = {row[0]: row[4] for row in DECK_TABLE["suits"]}
    assert suits == {
        "M": (1, 2, 4, 5),
        "S": (1, 2, 3, 5),
        "H": (2, 3, 6),
        "C": (3, 4, 5),
        "U": (1, 4, 6),
    }
    assert len(DECK) == 18 and len(set(DECK)) == 18 and RAINBOW in DECK
    assert BLINDFOLD == 2
    assert sorted(c for c in DECK if CARDS[c][0] == BLINDFOLD) == ["2H", "2M", "2S"]


def test_faces_are_readable_single_width_glyphs():
    g = TwoVOneGame(seed=1)
    for code in DECK:
        f = g.card_face(code)
        assert f.rank and len(f.suit) == 1
        assert unicodedata.east_asian_width(f.suit) in ("N", "A", "Na")
        assert not 0x1F000 <= ord(f.suit) <= 0x1FAFF
        assert parse(f.label) == code
    assert g.card_face("4M").label == "4☾"
    assert g.card_face("RB").suit == "✦"
    assert parse("4m") == "4M" and parse("6Ω") == "6U" and parse("R✦") == RAINBOW
    with pytest.raises(ValueError):
        parse("7M")
    assert g.sort_cards(["5C", "RB", "1M", "3H"], "rank") == ["1M", "3H", "5C", "RB"]
    assert g.sort_cards(["5C", "RB", "1M", "3H"], "suit") == ["1M", "3H", "5C", "RB"]


# ----- hand values (the text's table and its clover/heart example) -----------------------
@pytest.mark.parametrize(
    "a,b,value",
    [
        ("4C", "5C", 9),  # same suit
        ("4M", "4C", 8),  # same value
        ("6H", "1M", 6),  # high card
        ("5S", "RB", 10),  # the rainbow matches anything
        ("RB", "5S", 10),
        ("3C", "4C", 7),
        ("2H", "6H", 8),
        ("4M", "3H", 4),
        ("6U", "1M", 6),
    ],
)
def test_pair_values(a, b, value):
    assert pair_value(a, b) == value


def test_two_clovers_of_7_lose_to_two_hearts_of_8():
    g = fresh()
    g.set_position(
        [["3C", "4C", "1M", "5S", "5C"], ["2H", "1S", "3S", "6U"], ["6H", "1U", "2M", "4U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("3C",)))
    g.apply(LIAM, Action("hide", ("4C",)))
    g.apply(GARY, Action("follow", ("2H",)))  # void in clovers
    g.apply(TRANG, Action("follow", ("6H",)))  # void in clovers
    assert g.last_hand["lone_value"] == 7 and g.last_hand["duo_value"] == 8
    assert g.last_hand["winner"] == "duo" and g.hands_won == [0, 1]


def test_ties_go_to_the_lone_player():
    g = fresh()
    g.set_position(
        [["6H", "1M", "5S", "5C", "2M"], ["6U", "1S", "3S", "4U"], ["3H", "1U", "2H", "4C"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("6H",)))
    g.apply(LIAM, Action("hide", ("1M",)))
    g.apply(GARY, Action("follow", ("6U",)))  # no hearts
    g.apply(TRANG, Action("follow", ("2H",)))  # must follow hearts
    assert (g.last_hand["lone_value"], g.last_hand["duo_value"]) == (6, 6)
    assert g.last_hand["winner"] == "lone" and g.hands_won == [1, 0]
    assert g.to_act() == (LIAM,) and g.phase == "keep"


# ----- the worked example of play --------------------------------------------------------
def test_worked_example_liam_gary_trang():
    g = fresh()
    # Liam bid 4 and has taken the first hand; hand 2 is about to be led.
    g.set_position(
        [["4M", "3H", "5M", "5S", "RB"], ["6U", "1U", "3S", "4C"], ["1M", "6H", "2H", "3C"]],
        lone=LIAM,
        bid=4,
        hand_no=2,
        hands_won=(1, 0),
    )
    g.apply(LIAM, Action("lead", ("4M",)))
    g.apply(LIAM, Action("hide", ("3H",)))
    # the duo cannot see Liam's face-down card
    assert not sees(g, GARY, "3H") and not sees(g, TRANG, "3H")
    assert g.observation(GARY)["table"][0]["cards"] == ["4M", "??"]
    assert g.observation(LIAM)["table"][0]["cards"] == ["4M", "3H"]
    # Gary, on Liam's left, plays first; void in moons he may play anything
    assert g.to_act() == (GARY,)
    assert {a.cards[0] for a in g.legal_actions(GARY)} == {"6U", "1U", "3S", "4C"}
    g.apply(GARY, Action("follow", ("6U",)))
    # Trang would like her 6 heart, but must follow moons with the 1 moon
    assert [a.cards[0] for a in g.legal_actions(TRANG)] == ["1M"]
    refused(g, TRANG, Action("follow", ("6H",)), "moons", "1☾")
    g.apply(TRANG, Action("follow", ("1M",)))
    last = g.last_hand
    assert (last["lone_value"], last["duo_value"]) == (4, 6)
    assert last["lone_reason"] == last["duo_reason"] == "high card"
    assert last["winner"] == "duo" and g.hands_won == [1, 1]
    # the duo choose which of Liam's cards returns (Gary, on Liam's left, decides)
    assert g.to_act() == (GARY,)
    d = g.decision(GARY)
    assert d.kind == "keep" and {c.action.value for c in d.choices} == {"4M", "3H"}
    assert all("3♥" in c.label or "4☾" in c.label for c in d.choices)
    refused(g, TRANG, Action("keep", value="3H"), "not your turn")
    refused(g, GARY, Action("keep", value="6H"), "lone player's two cards")
    g.apply(GARY, Action("keep", value="3H"))  # the lower card goes back
    assert "3H" in g.hands[LIAM] and "4M" not in g.hands[LIAM] and "4M" in g.pile
    assert len(g.hands[LIAM]) == 4 and g.phase == "lead" and g.hand_no == 3
    assert any("sends 3♥ back" in h["text"] for h in g.history)


# ----- bidding -----------------------------------------------------------------------------
def test_bidding_starts_left_of_the_rainbow_and_4_overcalls_3():
    g = fresh()
    assert g.rainbow_holder() == TRANG and g.to_act() == (LIAM,)
    d = g.decision(LIAM)
    assert d.select is None
    assert [(c.label, c.action.value, c.key) for c in d.choices] == [
        ("Pass", 0, "p"),
        ("Bid 3", 3, "3"),
        ("Bid 4", 4, "4"),
    ]
    g.apply(LIAM, Action("bid", value=0))
    g.apply(GARY, Action("bid", value=3))
    assert g.to_act() == (TRANG,)
    refused(g, TRANG, Action("bid", value=3), "overcall with 4")
    g.apply(TRANG, Action("bid", value=0))
    # Liam passed before the 3 but may still overcall it
    assert g.to_act() == (LIAM,)
    g.apply(LIAM, Action("bid", value=4))
    assert (g.lone, g.bid, g.phase) == (LIAM, 4, "discard")
    assert set(g.to_act()) == {GARY, TRANG}
    assert g.observation(GARY)["seat_tags"][LIAM] == ["lone", "bid 4"]


def test_a_lone_3_may_be_raised_before_the_discard():
    g = fresh()
    g.apply(LIAM, Action("bid", value=3))
    g.apply(GARY, Action("bid", value=0))
    g.apply(TRANG, Action("bid", value=0))
    assert g.phase == "raise" and g.to_act() == (LIAM,)
    assert {c.action.value for c in g.decision(LIAM).choices} == {3, 4}
    g.apply(LIAM, Action("raise", value=4))
    assert g.bid == 4 and g.phase == "discard"


def test_bidding_out_of_turn_and_bad_bids_are_refused():
    g = fresh()
    refused(g, GARY, Action("bid", value=3), "not your turn", "Liam")
    refused(g, LIAM, Action("bid", value=5), "bid 3 or 4")
    refused(g, LIAM, Action("lead", ("4M",)), "bid or pass")
    # only the whole numbers 0, 3 and 4: not False (== 0), 3.0 or "3"
    for odd in (False, True, 3.0, "3", None):
        refused(g, LIAM, Action("bid", value=odd), "bid 3 or 4")
    g.apply(LIAM, Action("bid", value=3))
    g.apply(GARY, Action("bid", value=0))
    g.apply(TRANG, Action("bid", value=0))
    for odd in (4.0, True, "4", None):
        refused(g, LIAM, Action("raise", value=odd), "raise it to 4")


def test_duo_discard_is_simultaneous_and_hidden():
    g = fresh()
    g.apply(LIAM, Action("bid", value=4))
    d = g.decision(GARY)
    assert (d.select, d.submit, d.hidden) == ((1, 1), "discard", True)
    refused(g, GARY, Action("discard", ("1M", "1S")), "one card")
    g.apply(TRANG, Action("discard", ("RB",)))
    assert g.to_act() == (GARY,)
    refused(g, TRANG, Action("discard", ("2M",)), "already made your choice", "waiting for Gary")
    for seat in (LIAM, GARY):
        assert not sees(g, seat, "RB")
    assert g.observation(TRANG)["my_discard"] == "RB"
    roundtrip(g)
    g.apply(GARY, Action("discard", ("4U",)))
    assert g.phase == "lead" and g.hand_no == 1 and [len(h) for h in g.hands] == [6, 5, 5]


# ----- the exchange ------------------------------------------------------------------------
def pass_round(g):
    for _ in range(3):
        (seat,) = g.to_act()
        g.apply(seat, Action("bid", value=0))


def test_no_bid_means_a_simultaneous_two_card_pass():
    g = fresh()
    pass_round(g)
    assert g.phase == "exchange" and set(g.to_act()) == {0, 1, 2}
    d = g.decision(TRANG)
    assert (d.select, d.submit, d.hidden) == ((2, 2), "exchange", True)
    assert "rainbow" in d.prompt
    assert all("RB" in a.cards for a in g.legal_actions(TRANG))
    assert len(g.legal_actions(LIAM)) == 15
    refused(g, TRANG, Action("exchange", ("2M", "2H")), "rainbow")
    refused(g, LIAM, Action("exchange", ("4M",)), "exactly 2")
    refused(g, LIAM, Action("exchange", ("4M", "5M", "5S")), "exactly 2")
    refused(g, LIAM, Action("exchange", ("4M", "1M")), "not in your hand")
    g.apply(LIAM, Action("exchange", ("4M", "5M")))
    # nobody sees Liam's choice; Liam sees it; Liam cannot choose again
    for seat in (GARY, TRANG):
        assert not sees(g, seat, "4M") and not sees(g, seat, "5M")
        assert g.observation(seat)["table"] == [
            {"seat": LIAM, "cards": ["??", "??"], "label": "passing left"}
        ]
    assert g.observation(LIAM)["my_choice"] == ["4M", "5M"]
    assert set(g.to_act()) == {GARY, TRANG}
    reason = refused(g, LIAM, Action("exchange", ("5S", "6H")), "already made your choice")
    assert reason.endswith("waiting for Gary and Trang.")
    g = roundtrip(g)  # mid-exchange
    g.apply(GARY, Action("exchange", ("1M", "1S")))
    g.apply(TRANG, Action("exchange", ("RB", "2M")))
    assert sorted(g.hands[GARY]) == sorted(["2S", "3S", "6U", "4U", "4M", "5M"])
    assert sorted(g.hands[TRANG]) == sorted(["2H", "3H", "3C", "1U", "1M", "1S"])
    assert "RB" in g.hands[LIAM] and "2M" in g.hands[LIAM]
    assert g.observation(LIAM)["received"] == ["2M", "RB"]
    assert not sees(g, TRANG, "4M")  # Trang never saw Liam's pair
    assert g.rainbow_passes == 1 and g.phase == "bid" and g.to_act() == (GARY,)


def test_third_pass_of_the_rainbow_forces_a_bid():
    g = fresh()
    for _ in range(3):
        pass_round(g)
        for seat in range(3):
            g.apply(seat, g.legal_actions(seat)[0])
    assert g.rainbow_holder() == TRANG and g.rainbow_passes == 3 and g.forced
    g.apply(LIAM, Action("bid", value=0))
    g.apply(GARY, Action("bid", value=0))
    assert {a.value for a in g.legal_actions(TRANG)} == {3, 4}
    assert "must bid" in g.decision(TRANG).prompt
    refused(g, TRANG, Action("bid", value=0), "must bid")
    g.apply(TRANG, Action("bid", value=3))
    assert g.to_act() == (LIAM,)  # the others may still overcall
    assert {a.value for a in g.legal_actions(LIAM)} == {0, 4}


# ----- play ----------------------------------------------------------------------------------
def test_rainbow_never_led_face_up_and_played_only_when_void():
    g = fresh()
    g.set_position(
        [["RB", "4M", "5S", "5C", "6H"], ["1M", "6U", "3S", "4U"], ["2M", "2H", "3H", "1U"]],
        lone=LIAM,
        bid=3,
    )
    refused(g, LIAM, Action("lead", ("RB",)), "rainbow")
    assert Action("lead", ("RB",)) not in g.legal_actions(LIAM)


def test_rainbow_follow_rule_and_spent_rainbow():
    g = fresh()
    g.set_position(
        [["4M", "5S", "5C", "6H", "2S"], ["1M", "RB", "6U", "4U"], ["2M", "2H", "3H", "1U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("4M",)))
    g.apply(LIAM, Action("hide", ("5S",)))
    refused(g, GARY, Action("follow", ("RB",)), "rainbow has no suit")
    refused(g, GARY, Action("follow", ("1M", "6U")), "one card")
    g.apply(GARY, Action("follow", ("1M",)))
    g.apply(TRANG, Action("follow", ("2M",)))  # 1+2 same suit = 3 < 5
    assert g.hands_won == [1, 0] and g.phase == "keep"
    g.apply(LIAM, Action("keep", value="5S"))
    # the lone's secret choice: the duo do not learn which card was kept
    assert g.observation(GARY)["last_hand"]["returned"] is None
    assert g.observation(LIAM)["last_hand"]["returned"] == "5S"
    assert not any("5★" in h["text"] and "keeps" in h["text"] for h in g.history)
    # hand 2: the duo play the rainbow when void of the led suit
    g.apply(LIAM, Action("lead", ("5C",)))
    g.apply(LIAM, Action("hide", ("6H",)))
    assert {a.cards[0] for a in g.legal_actions(GARY)} == {"RB", "6U", "4U"}
    g.apply(GARY, Action("follow", ("RB",)))
    g.apply(TRANG, Action("follow", ("1U",)))  # rainbow doubles 1 = 2
    assert g.last_hand["duo_value"] == 2 and g.last_hand["lone_value"] == 6


def test_lone_rainbow_is_always_discarded():
    g = fresh()
    g.set_position(
        [["RB", "4M", "5S", "5C", "6H"], ["1M", "2S", "6U", "4U"], ["2M", "2H", "3H", "1U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("6H",)))
    g.apply(LIAM, Action("hide", ("RB",)))
    g.apply(GARY, Action("follow", ("6U",)))
    g.apply(TRANG, Action("follow", ("2H",)))
    assert g.last_hand["lone_value"] == 12
    assert g.phase == "lead" and g.hand_no == 2  # no choice to make
    assert "RB" in g.pile and "6H" in g.hands[LIAM]


def test_blindfold_lead_makes_the_duo_choose_face_down_together():
    g = fresh()
    g.set_position(
        [["2S", "4M", "5S", "5C", "6H"], ["1M", "1S", "6U", "4U"], ["2M", "3S", "3H", "1U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("2S",)))
    g.apply(LIAM, Action("hide", ("4M",)))
    assert set(g.to_act()) == {GARY, TRANG}
    assert g.decision(GARY).hidden and g.decision(TRANG).hidden
    assert [a.cards[0] for a in g.legal_actions(TRANG)] == ["3S"]
    g.apply(TRANG, Action("follow", ("3S",)))
    assert g.to_act() == (GARY,)
    assert not sees(g, GARY, "3S") and not sees(g, LIAM, "3S")
    assert g.observation(TRANG)["my_face_down"] == "3S"
    assert {"seat": TRANG, "cards": ["??"], "label": "face down"} in g.observation(GARY)["table"]
    refused(g, TRANG, Action("follow", ("3H",)), "already made your choice", "waiting for Gary")
    g = roundtrip(g)
    g.apply(GARY, Action("follow", ("1S",)))  # 1+3 stars = 4 vs 2+4 = 4
    assert g.last_hand["duo_value"] == 4 and g.last_hand["winner"] == "lone"
    assert sees(g, LIAM, "3S") and sees(g, GARY, "3S") and sees(g, GARY, "4M")


# ----- scoring and the match ----------------------------------------------------------------
def finish_last_hand(g, lone_wins: bool):
    # a last hand with a fixed outcome: Liam 6H+6U (same value 12) or 1U+3S (3)
    # against 1M+2M (3) or 5M+4M (9)
    lone = ["6H", "6U"] if lone_wins else ["1U", "3S"]
    duo = ["1M", "2M"] if lone_wins else ["5M", "4M"]
    g.set_position(
        [lone, [duo[0]], [duo[1]]], lone=g.lone, bid=g.bid, hand_no=5, hands_won=tuple(g.hands_won)
    )
    g.apply(LIAM, Action("lead", (lone[0],)))
    g.apply(LIAM, Action("hide", (lone[1],)))
    g.apply(GARY, Action("follow", (duo[0],)))
    g.apply(TRANG, Action("follow", (duo[1],)))
    assert g.last_hand["winner"] == ("lone" if lone_wins else "duo")


def test_exact_bid_pays_the_lone_two_coins():
    g = fresh()
    g.set_position([["6H", "6U"], ["1M"], ["2M"]], lone=LIAM, bid=4, hand_no=5, hands_won=(3, 1))
    finish_last_hand(g, lone_wins=True)
    assert g.deal_over and g.to_act() == () and g.hands_won == [4, 1]
    assert g.last_result.changes == [2, 0, 0] and g.totals == [2, 0, 0]
    assert g.card_census() and sorted(g.card_census()) == sorted(DECK)


def test_missed_bid_pays_each_duo_member():
    g = fresh()
    g.set_position([["6H", "6U"], ["1M"], ["2M"]], lone=LIAM, bid=3, hand_no=5, hands_won=(3, 1))
    finish_last_hand(g, lone_wins=True)  # 4 hands taken, 3 bid
    assert g.last_result.changes == [0, 1, 1] and not g.match_over


def test_first_to_seven_and_the_play_off():
    g = fresh()
    g.totals = [5, 6, 6]
    g.set_position([["1U", "3S"], ["1M"], ["2M"]], lone=LIAM, bid=4, hand_no=5, hands_won=(3, 1))
    finish_last_hand(g, lone_wins=False)
    assert g.totals == [5, 7, 7] and not g.match_over and g.playoff
    assert g.eligible == [False, True, True]
    g.next_deal()
    # only Gary and Trang may bid; Liam is never asked
    assert LIAM not in g.bid_queue
    seat = g.to_act()[0]
    assert seat != LIAM and "may bid" in g.observation(LIAM)["seat_tags"][seat]
    g.set_deal(DEAL)  # Trang holds the rainbow
    assert g.to_act() == (GARY,)
    g.apply(GARY, Action("bid", value=3))
    assert g.to_act() == (TRANG,)  # Liam may not overcall
    g.apply(TRANG, Action("bid", value=0))
    g.apply(GARY, Action("raise", value=3))
    assert g.lone == GARY
    g.set_position([["1M"], ["6H", "6U"], ["2M"]], lone=GARY, bid=3, hand_no=5, hands_won=(2, 2))
    g.apply(GARY, Action("lead", ("6H",)))
    g.apply(GARY, Action("hide", ("6U",)))
    g.apply(TRANG, Action("follow", ("2M",)))
    g.apply(LIAM, Action("follow", ("1M",)))
    assert g.match_over and g.match_winners() == [GARY] and g.totals == [5, 9, 7]
    assert state(load_game(json.loads(json.dumps(g.to_json())))) == state(g)


def test_seven_coins_alone_ends_the_match():
    g = new_game("2v1", seed=3, options={"coins_to_win": 5})
    g.totals = [3, 0, 0]
    g.set_position([["6H", "6U"], ["1M"], ["2M"]], lone=LIAM, bid=4, hand_no=5, hands_won=(3, 1))
    finish_last_hand(g, lone_wins=True)
    assert g.match_over and g.match_winners() == [LIAM]
    with pytest.raises(ValueError):
        new_game("2v1", options={"coins_to_win": 6})
    assert [s.id for s in TwoVOneGame.option_specs()] == ["coins_to_win"]
    assert TwoVOneGame.option_specs()[0].default == 7


def test_seeded_matches_are_reproducible_and_round_trip_everywhere():
    import random

    for seed in range(4):
        g = new_game("2v1", seed=seed)
        rng = random.Random(seed)
        while not g.match_over:
            if g.deal_over:
                g.next_deal()
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            if rng.random() < 0.1:
                g = roundtrip(g)
        assert state(g.replay()) == state(g)
        assert max(g.totals) >= 7


def test_check_accepts_exactly_the_listed_legal_actions():
    import random
    from itertools import combinations as combos

    for seed in range(40):
        g = new_game("2v1", seed=seed)
        rng = random.Random(seed)
        while not g.deal_over:
            for seat in range(3):
                legal = g.legal_actions(seat)
                d = g.decision(seat)
                if d is None:
                    assert legal == []
                    continue
                if d.select is None:
                    offered = [c.action for c in d.choices]
                    assert offered == legal
                    continue
                k = d.select[0]
                every = [Action(d.submit, cs) for cs in combos(g.hands[seat], k)]
                accepted = [a for a in every if g.check(seat, a) is None]
                assert sorted(map(repr, accepted)) == sorted(map(repr, legal))
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))


# ----- secrets: a seat's observation does not depend on another seat's hidden choice --------
def _branches(g, seat, actions):
    """The observations of every seat after each of ``actions`` by ``seat``."""
    out = []
    for a in actions:
        h = load_game(json.loads(json.dumps(g.to_json())))
        h.apply(seat, a)
        out.append([h.observation(s) for s in range(3)])
    return out


def _same_for(branches, seats):
    for s in seats:
        first = json.dumps(branches[0][s], sort_keys=True)
        assert all(json.dumps(b[s], sort_keys=True) == first for b in branches[1:]), s


def test_the_lone_players_secret_keep_tells_the_duo_nothing():
    g = fresh()
    g.set_position(
        [["4M", "5S", "5C", "6H", "2S"], ["1M", "RB", "6U", "4U"], ["2M", "2H", "3H", "1U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("4M",)))
    g.apply(LIAM, Action("hide", ("5S",)))
    g.apply(GARY, Action("follow", ("1M",)))
    g.apply(TRANG, Action("follow", ("2M",)))
    assert g.phase == "keep" and g.to_act() == (LIAM,)
    branches = _branches(g, LIAM, g.legal_actions(LIAM))
    _same_for(branches, (GARY, TRANG))
    assert branches[0][LIAM]["hand"] != branches[1][LIAM]["hand"]
    assert branches[0][GARY]["hand_counts"] == [4, 3, 3]


def test_hidden_choices_tell_the_other_seats_nothing():
    # the exchange: one seat's pair, before and after the others have chosen
    g = fresh()
    pass_round(g)
    _same_for(_branches(g, LIAM, g.legal_actions(LIAM)[:6]), (GARY, TRANG))
    # the duo discards: neither the lone player nor the partner learns the card
    g = fresh()
    g.apply(LIAM, Action("bid", value=4))
    _same_for(_branches(g, GARY, g.legal_actions(GARY)), (LIAM, TRANG))
    g.apply(GARY, Action("discard", ("4U",)))
    _same_for(_branches(g, TRANG, g.legal_actions(TRANG)), (LIAM, GARY))
    # the lone player's face-down card, and the first blindfold follow
    g = fresh()
    g.set_position(
        [["2S", "4M", "5S", "5C", "6H"], ["1M", "3H", "6U", "4U"], ["2M", "3S", "1S", "1U"]],
        lone=LIAM,
        bid=3,
    )
    g.apply(LIAM, Action("lead", ("2S",)))
    _same_for(_branches(g, LIAM, g.legal_actions(LIAM)), (GARY, TRANG))
    g.apply(LIAM, Action("hide", ("4M",)))
    assert len(g.legal_actions(GARY)) == 4 and len(g.legal_actions(TRANG)) == 2
    _same_for(_branches(g, GARY, g.legal_actions(GARY)), (LIAM, TRANG))
    _same_for(_branches(g, TRANG, g.legal_actions(TRANG)), (LIAM, GARY))


def test_a_play_off_where_nobody_wants_to_bid_still_ends():
    # the rainbow was dealt to Liam, who may not bid in the play-off: after it has gone
    # round three times the last player allowed to bid (Trang) has to
    g = fresh()
    g.totals = [5, 7, 7]
    g.playoff, g.eligible = True, [False, True, True]
    g.set_deal([DEAL[2], DEAL[0], DEAL[1]])  # the rainbow is with Liam
    assert g.rainbow_holder() == LIAM and g.bid_queue == [GARY, TRANG]
    for _ in range(3):
        while g.phase == "bid":
            (seat,) = g.to_act()
            assert seat != LIAM
            g.apply(seat, Action("bid", value=0))
        for seat in range(3):
            g.apply(seat, g.legal_actions(seat)[0])
    assert g.rainbow_holder() == LIAM and g.forced
    g.apply(GARY, Action("bid", value=0))
    assert g.to_act() == (TRANG,) and {a.value for a in g.legal_actions(TRANG)} == {3, 4}
    refused(g, TRANG, Action("bid", value=0), "must bid")
    g.apply(TRANG, Action("bid", value=4))
    assert (g.lone, g.bid, g.phase) == (TRANG, 4, "discard")
