"""Twos, trick-taking (docs/rules.md §6): the text's examples, following suit, catches and
their scoring, honours, leaders and dealers, match length, refused input, JSON."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import refused, state

from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action
from twos_tui.engine.tricks.game import TwosTricksGame, playable, resolve_trick


def winner(*cards):
    plays = list(enumerate(cards))
    idx, catches = resolve_trick(plays)
    return cards[idx], catches


def play_trick(g, cards, leader=0):
    """Deal one card to each seat (plus a spare so the deal goes on) and play them."""
    hands = [[c, spare] for c, spare in zip(cards, ["4S", "5S", "6S", "7S"], strict=False)]
    g.set_hands(hands, leader=leader)
    for i, c in enumerate(cards):
        g.apply((leader + i) % 4, Action("play", (c,)))
    return g


# ----- the text's examples ---------------------------------------------------------------
def test_a_two_wins_even_when_its_player_could_follow():
    assert winner("6H", "QH", "5H", "2D") == ("2D", [])
    assert "2D" in playable(["2D", "9H", "3C"], "H")


def test_diamond_k_heart2_diamond2_diamond3():
    # the heart 2 wins and catches the diamond 2 (+2/-2); the 3 is no catcher
    card, catches = winner("KD", "2H", "2D", "3D")
    assert card == "2H" and catches == [(1, 2, 2)]
    g = play_trick(new_game("twos-tricks", seed=1), ["KD", "2H", "2D", "3D"])
    assert g.points == [0, 1 + 2, -2, 0]  # the K is an honour for the winner
    assert g.catch_points == [0, 2, -2, 0] and g.tricks_taken == [0, 1, 0, 0]
    assert g.current == 1 and g.leader == 1


def test_heart_3_already_played_beats_a_later_heart_2():
    card, catches = winner("AH", "3H", "5H", "2H")
    assert card == "3H" and catches == [(1, 3, 3)]
    g = play_trick(new_game("twos-tricks", seed=1), ["AH", "3H", "5H", "2H"])
    assert g.points == [0, 1 + 3, 0, -3]


def test_club3_catches_club2_and_the_losing_club2_scores_nothing():
    # A♥ 2♣ 3♣ 2♠: the 2♣ would beat the 2♠, the 3♣ beats the 2♣ and wins. Ruling:
    # only the trick winner scores catches, so the 2♣'s catch of the 2♠ earns nothing.
    card, catches = winner("AH", "2C", "3C", "2S")
    assert card == "3C" and catches == [(2, 1, 3)]
    g = play_trick(new_game("twos-tricks", seed=1), ["AH", "2C", "3C", "2S"])
    assert g.points == [0, -3, 1 + 3, 0]
    assert "catches 2♣ from Player 2 (+3/−3)" in g.history[-1]["text"]


# ----- more trick rules ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,win",
    [
        (("5H", "KH", "AS", "4H"), "KH"),  # off-suit ace does not win
        (("3H", "4H", "5C", "6C"), "4H"),  # 3 is low in its suit
        (("AH", "KH", "QH", "JH"), "AH"),
        (("2S", "AS", "KS", "4S"), "2S"),  # a led 2 wins...
        (("2S", "AS", "3S", "4S"), "3S"),  # ...unless its own 3 comes after it
        (("3C", "2C", "AH", "KH"), "3C"),  # or came before it
        (("9D", "3S", "2C", "3D"), "2C"),  # a 3 of another suit does nothing
    ],
)
def test_trick_winners(cards, win):
    assert winner(*cards)[0] == win


def test_first_two_catches_every_later_two_cumulatively():
    card, catches = winner("2H", "2S", "2D", "2C")
    assert card == "2H" and catches == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    g = play_trick(new_game("twos-tricks", seed=1), ["2H", "2S", "2D", "2C"])
    assert g.points == [6, -2, -2, -2]


def test_following_suit_and_wild_twos():
    hand = ["2C", "3H", "AH", "KS", "9D"]
    assert sorted(playable(hand, "H")) == sorted(["2C", "3H", "AH"])
    assert playable(hand, "C") == ["2C"]  # the 2 of clubs is a club: follow with it
    assert sorted(playable(hand, "D")) == sorted(["2C", "9D"])
    assert sorted(playable(hand, "S")) == sorted(["2C", "KS"])
    assert sorted(playable(hand, None)) == sorted(hand)
    g = new_game("twos-tricks", seed=2)
    g.set_hands([["5H", "6S"], ["2C", "3H", "AH", "KS"], ["7H", "8H"], ["9H", "TH"]], leader=0)
    g.apply(0, Action("play", ("5H",)))
    refused(g, 1, Action("play", ("KS",)), "follow hearts", "3♥")
    refused(g, 1, Action("play", ("3H", "AH")), "exactly one")
    refused(g, 1, Action("play", ("9C",)), "not in your hand")
    refused(g, 1, Action("play", ("XX",)), "not a card")
    refused(g, 2, Action("play", ("7H",)), "not your turn")
    refused(g, 1, Action("pass"), "play one card")
    assert sorted(a.cards[0] for a in g.legal_actions(1)) == ["2C", "3H", "AH"]
    refused(g, 1, Action("play", ("2c",)), "write 2C")  # the protocol speaks codes
    g.apply(1, Action("play", ("2C",)))
    assert g.observation(0)["trick_by_seat"] == ["5H", "2C", None, None]


def test_a_two_of_the_led_suit_is_a_card_of_that_suit():
    # "You must follow suit (play a heart if a heart is led)": a 2 of hearts is a heart, so
    # a player whose only heart is the 2 must play it (or another 2). This is how a player
    # can be "forced to put [a 2] into a trick which already contains a 2".
    assert sorted(playable(["2H", "2C", "KS", "9D"], "H")) == ["2C", "2H"]
    assert sorted(playable(["2C", "KS", "9D"], "H")) == ["2C", "9D", "KS"]  # void: free
    g = new_game("twos-tricks", seed=2)
    g.set_hands([["KH", "6S"], ["2D", "7S"], ["2H", "QS", "9D"], ["4H", "TH"]], leader=0)
    g.apply(0, Action("play", ("KH",)))
    g.apply(1, Action("play", ("2D",)))  # Ben is void: any card
    assert [a.cards[0] for a in g.legal_actions(2)] == ["2H"]
    assert "Follow hearts" in g.decision(2).prompt
    refused(g, 2, Action("play", ("QS",)), "follow hearts", "2♥")
    refused(g, 2, Action("play", ("9D",)), "follow hearts")
    g.apply(2, Action("play", ("2H",)))  # forced into a trick with a 2
    g.apply(3, Action("play", ("4H",)))
    assert g.last_trick["winner"] == 1 and g.catch_points == [0, 2, -2, 0]


def test_honours_count_for_the_taker():
    g = play_trick(new_game("twos-tricks", seed=1), ["JH", "QH", "KD", "AH"])
    assert g.points == [0, 0, 0, 4] and g.honours == [0, 0, 0, 4]


# ----- deals and the match -------------------------------------------------------------------
def random_deal(g, rng):
    while not g.deal_over:
        (seat,) = g.to_act()
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_leader_is_left_of_dealer_and_the_deal_rotates():
    g = new_game("twos-tricks", seed=3)
    assert [len(h) for h in g.hands] == [13] * 4
    assert g.dealer == 3 and g.to_act() == (0,)
    rng = random.Random(3)
    random_deal(g, rng)
    assert g.deal_over and g.to_act() == ()
    # 16 honours each deal; catches cancel out
    assert sum(g.last_result.changes) == 16 and sum(g.tricks_taken) == 13
    g.next_deal()
    assert g.dealer == 0 and g.to_act() == (1,)


def test_four_deals_by_default_and_target_option():
    specs = {s.id: s for s in TwosTricksGame.option_specs()}
    assert specs["game_length"].default == 4 and specs["target_score"].default == 20
    g = new_game("twos-tricks", seed=4)
    rng = random.Random(4)
    deals = 0
    while not g.match_over:
        random_deal(g, rng)
        deals += 1
        if not g.match_over:
            g.next_deal()
    assert deals == 4 and sum(g.totals) == 64
    assert g.match_winners() == [s for s in range(4) if g.totals[s] == max(g.totals)]
    g = new_game("twos-tricks", seed=5, options={"game_length": 0, "target_score": 30})
    rng = random.Random(5)
    while not g.match_over:
        random_deal(g, rng)
        if not g.match_over:
            assert max(g.totals) < 30
            g.next_deal()
    assert max(g.totals) >= 30
    with pytest.raises(ValueError):
        new_game("twos-tricks", options={"game_length": 3})


def test_observation_hides_other_hands_and_json_round_trips_mid_trick():
    g = new_game("twos-tricks", seed=6)
    rng = random.Random(6)
    for _ in range(22):
        (seat,) = g.to_act()
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.trick  # mid-trick
    text = json.dumps(g.observation(0))
    for c in g.hidden_from(0):
        assert f'"{c}"' not in text and g.card_face(c).label not in text
    g2 = load_game(json.loads(json.dumps(g.to_json())))
    assert state(g2) == state(g)
    assert all(g2.observation(s) == g.observation(s) for s in range(4))
    random_deal(g, random.Random(1))
    random_deal(g2, random.Random(1))
    assert state(g2) == state(g)


def test_faces_and_sorting():
    g = TwosTricksGame(seed=1)
    assert g.card_face("10H").label == "10♥"
    assert g.sort_cards(["2H", "AH", "3H", "KS"], "rank") == ["3H", "KS", "AH", "2H"]
    assert g.sort_cards(["2H", "AH", "3H", "KS"], "suit") == ["KS", "3H", "AH", "2H"]


def test_check_accepts_exactly_the_listed_legal_actions():
    for seed in range(20):
        g = new_game("twos-tricks", seed=seed)
        rng = random.Random(seed)
        while not g.deal_over:
            (seat,) = g.to_act()
            every = [Action("play", (c,)) for c in g.hands[seat]]
            accepted = [a for a in every if g.check(seat, a) is None]
            assert accepted == g.legal_actions(seat)
            assert g.decision(seat).select == (1, 1)
            g.apply(seat, rng.choice(accepted))
