"""The trick game's one rules core (``twos_tui.engine.tricks``): the rules' own examples
(docs/rules.md §6), and the core alone replaying the frozen corpus's matches: every
recorded move legal for the seat the core asks, the legal moves and the state after each
move exactly as recorded where the corpus keeps matches whole, the deals the dealer
makes those the matches were played with."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import record_corpus_tool

from twos_tui.engine import new_game
from twos_tui.engine.protocol import Action, deal_seed
from twos_tui.engine.tricks import judger
from twos_tui.engine.tricks.cards import INDEX, codes_of, mask_of
from twos_tui.engine.tricks.dealer import deal
from twos_tui.engine.tricks.game import TwosTricksGame
from twos_tui.engine.tricks.state import TricksState

ROOT = Path(__file__).resolve().parent.parent


_record_corpus = record_corpus_tool


@cache
def _matches() -> list[dict[str, Any]]:
    data = _record_corpus().load_corpus()
    return [m for m in data["matches"] if m["variant"] == "twos-tricks"]


def state(hands: list[list[str]], leader: int = 0, trick: tuple[str, ...] = ()) -> TricksState:
    s = TricksState()
    s.hands = [mask_of(h) for h in hands]
    s.leader = s.current = leader
    for c in trick:
        s.hands[s.current] |= 1 << INDEX[c]
        s.play(INDEX[c])
    return s


def trick_of(cards: list[str]) -> tuple[int, list[tuple[int, int, int]]]:
    """The winner's position and the catches of a trick led by seat 0."""
    pos, pts, _, victims = judger.resolve([INDEX[c] for c in cards])
    return pos, judger.catches(0, pos, pts, victims)


# ----- the rules' examples ----------------------------------------------------------------
def test_follow_suit_or_play_a_two() -> None:
    s = state([["5H"], ["9H", "KS", "2C", "3D"], [], []], trick=("5H",))
    assert codes_of(s.legal()) == ["9H", "2C"]


def test_no_card_of_the_led_suit_frees_the_hand() -> None:
    s = state([["5H"], ["KS", "2C", "3D"], [], []], trick=("5H",))
    assert codes_of(s.legal()) == ["KS", "2C", "3D"]


def test_a_two_that_is_the_only_card_of_the_led_suit_must_be_played() -> None:
    # the 2 of hearts belongs to hearts: hearts are followed with it (or another 2)
    s = state([["5H"], ["2H", "2C", "KS", "3D"], [], []], trick=("5H",))
    assert codes_of(s.legal()) == ["2H", "2C"]


def test_the_leader_plays_anything() -> None:
    s = state([["5H", "KS", "2C"], [], [], []])
    assert codes_of(s.legal()) == ["KS", "5H", "2C"]  # hand order: S, H, C, D, the 2 last


def test_the_highest_card_of_the_led_suit_wins_without_a_two() -> None:
    assert trick_of(["5H", "KH", "AS", "9H"]) == (1, [])
    assert trick_of(["3C", "4D", "5S", "6H"]) == (0, [])


def test_the_first_two_wins_and_catches_every_later_two() -> None:
    assert trick_of(["AH", "2D", "KH", "2S"]) == (1, [(1, 3, 2)])
    assert trick_of(["2S", "2H", "2D", "2C"]) == (0, [(0, 1, 2), (0, 2, 2), (0, 3, 2)])


def test_the_three_of_its_suit_catches_the_first_two_before_or_after_it() -> None:
    # the module text's example: A♥ 2♣ 3♣ 2♠ — the 3♣ wins and takes 3 from the 2♣;
    # the 2♣'s catch of the 2♠ does not count, the 2♣ did not win
    assert trick_of(["AH", "2C", "3C", "2S"]) == (2, [(2, 1, 3)])
    assert trick_of(["3C", "AH", "2C", "2S"]) == (0, [(0, 2, 3)])
    # the 3 of another suit catches nothing
    assert trick_of(["AH", "2C", "3S", "2S"]) == (1, [(1, 3, 2)])


def test_a_trick_scores_its_honours_and_catches_to_the_winner_only() -> None:
    s = state([["AH"], ["2C"], ["3C"], ["2S"]])
    for c in ("AH", "2C", "3C", "2S"):
        s.play(INDEX[c])
    assert s.points == [0, -3, 4, 0]  # one honour and the catch to the 3; −3 to the 2
    assert s.honours == [0, 0, 1, 0] and s.catches == [0, -3, 3, 0]
    assert s.tricks_taken == [0, 0, 1, 0] and s.leader == s.current == 2
    assert s.over and s.played == mask_of(["AH", "2C", "3C", "2S"])


def test_the_deal_ends_when_the_hands_are_empty_and_the_winner_leads() -> None:
    s = state([["5H", "6S"], ["KH", "7S"], ["9H", "8S"], ["4H", "9S"]])
    assert s.play(INDEX["5H"]) is None
    for c in ("KH", "9H"):
        s.play(INDEX[c])
    assert s.play(INDEX["4H"]) == (1, 0, -1, 0)
    assert (s.leader, s.current, s.trick_number, s.over) == (1, 1, 2, False)
    for c in ("7S", "8S", "9S", "6S"):
        s.play(INDEX[c])
    assert s.over and s.trick_number == 2 and s.tricks_taken == [0, 1, 0, 1]


def test_deal_winners_and_the_end_of_a_match() -> None:
    assert judger.deal_winners([3, 5, 5, -1]) == [1, 2]
    assert judger.match_over(4, 20, 3, [50, 0, 0, 0]) is False
    assert judger.match_over(4, 20, 4, [0, 0, 0, 0]) is True
    assert judger.match_over(0, 20, 9, [19, 19, 19, 19]) is False
    assert judger.match_over(0, 20, 1, [20, 0, 0, 0]) is True


def test_the_protocol_words_what_the_core_judges() -> None:
    g = new_game("twos-tricks", seed=1)
    assert isinstance(g, TwosTricksGame)
    g.set_hands([["AH", "9S"], ["2C", "9D"], ["3C", "8D"], ["2S", "7D"]], leader=0)
    for seat, c in enumerate(("AH", "2C", "3C", "2S")):
        g.apply(seat, Action("play", (c,)))
    last = g.history[-1]["text"]
    assert last == "Player 3 wins trick 1 with 3♣, 1 honour, catches 2♣ from Player 2 (+3/−3)."
    assert g.points == g.core.points == [0, -3, 4, 0]


# ----- the core replays the frozen corpus --------------------------------------------------
def _from_json(d: dict[str, Any]) -> TricksState:
    s = TricksState()
    s.hands = [mask_of(h) for h in d["hands"]]
    s.leader, s.current = d["leader"], d["current"]
    s.trick = [INDEX[c] for _, c in d["trick"]]
    s.points, s.honours = list(d["points"]), list(d["honours"])
    s.catches, s.tricks_taken = list(d["catch_points"]), list(d["tricks_taken"])
    s.trick_number = d["trick_number"]
    s.played = mask_of(c for t in d["taken"] for c in t)
    s.over = d["deal_over"]
    return s


def _fields(s: TricksState) -> dict[str, Any]:
    return {f: getattr(s, f) for f in TricksState.__slots__}


@pytest.mark.parametrize("k", range(2))
def test_the_core_replays_the_corpus_whole_matches_exactly(k: int) -> None:
    m = [m for m in _matches() if m["full"]][k]
    start = m["positions"][0]["start"]
    s = deal(random.Random(m["seed"]), start["dealer"])
    assert _fields(s) == _fields(_from_json(start))
    moves = 0
    for p in m["positions"][1:]:
        if p["action"] == "end":
            break
        if p["action"] == "next_deal":
            s = _from_json(p["json"])
            continue
        seat, a = p["action"]
        assert p["to_act"] == [s.current] == [seat]
        legal = sorted(f'{{"cards":["{c}"],"kind":"play"}}' for c in codes_of(s.legal()))
        assert legal == p["legal"][seat]
        s.play(INDEX[a["cards"][0]])
        assert _fields(s) == _fields(_from_json(p["json"]))
        if p["result"] is not None:
            assert s.over and s.points == p["result"]["changes"]
        moves += 1
    assert moves == 52


def test_the_core_replays_every_corpus_match_and_the_dealer_deals_its_deals() -> None:
    for m in _matches():
        steps = [p["action"] for p in m["positions"][1:]] if m["full"] else m["actions"]
        dealer, number = 3, 1
        s = deal(random.Random(m["seed"]), dealer)
        deals = 1
        for step in steps:
            if step == "end":
                assert s.over
                break
            if step == "next_deal":
                assert s.over
                dealer, number = (dealer + 1) % 4, number + 1
                s = deal(random.Random(deal_seed(m["seed"], number)), dealer)
                deals += 1
                continue
            seat, a = step
            card = INDEX[a["cards"][0]]
            assert not s.over and seat == s.current, m["id"]
            assert s.legal() >> card & 1, (m["id"], a)
            s.play(card)
        assert s.over
        length = m["options"]["game_length"]
        assert deals == length or length == 0, m["id"]


def test_a_search_copy_plays_on_without_touching_the_game() -> None:
    """The puzzle solver's copy (``clone_for_search``): its own core, piles, totals and
    results; hands set by the solver's worlds (``set_hand``) stay in that copy."""
    g = new_game("twos-tricks", seed=4)
    assert isinstance(g, TwosTricksGame)
    g.set_hands([["AH"], ["2C"], ["3C"], ["2S"]], leader=0)
    before = g.to_json()
    w = g.clone_for_search()
    w.set_hand(3, ["4S"])
    for seat, c in enumerate(("AH", "2C", "3C", "4S")):
        w._apply(seat, Action("play", (c,)))
    assert w.deal_over and len(w.results) == 1 and w.totals == [0, -3, 4, 0]
    assert g.to_json() == before and not g.results and g.hands[3] == ["2S"]
    assert w.search_key() != g.search_key()


def test_the_cards_a_hand_must_follow_with() -> None:
    hand = mask_of(["2H", "5H", "KS", "3D"])
    assert codes_of(judger.led_suit_cards(hand, INDEX["9H"] // 13)) == ["5H", "2H"]
    assert judger.led_suit_cards(hand, INDEX["9C"] // 13) == 0
