"""The score sheet and the hands left (issue 16, item 8), in the engine: every game's
observation carries each finished deal's changes and totals (public), and the climbing
games show the cards each seat still held once the deal is over, never before."""

from __future__ import annotations

import random

import pytest
from ui_helpers import play_until

from twos_tui.engine import new_game

CLIMBING = [
    ("twos", 3),
    ("big-two", 4),
    ("big-two-5r", 4),
    ("chinese-poker", 4),
    ("chinese-poker", 2),
]
ALL = [*CLIMBING, ("2v1", 3), ("twos-tricks", 4)]


@pytest.mark.parametrize(("variant", "players"), ALL)
def test_deal_scores_list_every_finished_deal(variant, players):
    g = new_game(variant, players, {}, 5)
    rng = random.Random(5)
    for seat in range(players):
        assert g.observation(seat)["deal_scores"] == []
    for n in (1, 2):
        play_until(g, lambda g: g.deal_over, rng)
        sheet = g.observation(0)["deal_scores"]
        assert [d["deal"] for d in sheet] == [r.deal_number for r in g.results]
        assert len(sheet) == n
        last = sheet[-1]
        assert last["changes"] == g.last_result.changes and last["totals"] == list(g.totals)
        assert all(g.observation(s)["deal_scores"] == sheet for s in range(players))
        if g.match_over:
            break
        g.next_deal()


@pytest.mark.parametrize(("variant", "players"), CLIMBING)
def test_hands_left_only_once_the_deal_is_over(variant, players):
    g = new_game(variant, players, {}, 9)
    rng = random.Random(9)
    for _ in range(2000):
        if g.deal_over:
            break
        for seat in range(players):
            assert "hands_left" not in g.observation(seat)
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.deal_over
    for seat in range(players):
        left = g.observation(seat)["hands_left"]
        assert [sorted(h) for h in left] == [sorted(h) for h in g.hands]
        assert sum(map(len, left)) > 0
    if not g.match_over:
        g.next_deal()
        assert all("hands_left" not in g.observation(s) for s in range(players))
