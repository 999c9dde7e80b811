"""Statistics checked against a small history counted by hand."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twos_tui.play import history
from twos_tui.play.stats import change_sparkline, compute, result_strip, stats_text, streaks_of

HUMAN = {"kind": "human"}


def ai(name: str, level: str) -> dict:
    return {"name": name, "kind": "ai", "level": level}


def human(name: str) -> dict:
    return {"name": name, "kind": "human", "level": "normal"}


CLOCK = iter(range(1000, 100000, 10))


def deal(key, seats, number, winners, changes, over=False, match_winners=None, variant="big-two"):
    now = float(next(CLOCK))
    return {
        "type": "deal",
        "match_key": key,
        "variant": variant,
        "variant_name": "Big Two" if variant == "big-two" else "Twos",
        "players": len(seats),
        "options": {},
        "seed": 1,
        "names": [s["name"] for s in seats],
        "seats": seats,
        "score_label": "Penalty",
        "low_score_wins": True,
        "deal_number": number,
        "first_action": 10 * (number - 1),
        "actions": [[0, {"kind": "pass"}]] * 10,
        "prefix": [],
        "changes": changes,
        "totals": changes,
        "winners": winners,
        "summary": f"deal {number} of {key}",
        "details": [],
        "started": now - 5,
        "ended": now,
        "duration": 5.0,
        "match_over": over,
        "match_winners": match_winners,
        "match_started": now - 50,
        "match_duration": 50.0,
    }


def undo(key, number):
    return {
        "type": "undo",
        "match_key": key,
        "deal_number": number,
        "seat": 0,
        "taken_back": 3,
        "at": 1.0,
    }


A = [human("Ann"), ai("B1", "normal"), ai("B2", "normal"), ai("B3", "normal")]
B = [human("Ann"), ai("B1", "hard"), ai("B2", "easy"), ai("B3", "hard")]
C = [ai("B1", "normal"), ai("B2", "normal"), ai("B3", "normal"), ai("B4", "hard")]
D = [human("Ann"), human("Bo"), ai("B1", "normal"), ai("B2", "normal")]

RECORDS = [
    deal("A", A, 1, [0], [0, 5, 3, 2]),  # Ann wins
    deal("A", A, 2, [1], [4, 0, 1, 6]),
    deal("A", A, 3, [0], [0, 2, 2, 9], over=True, match_winners=[0]),  # match won
    undo("B", 1),
    deal("B", B, 1, [2], [7, 1, 0, 3]),  # after an undo
    deal("C", C, 1, [1], [3, 0, 4, 4]),  # watched: nobody's figures
    deal("B", B, 2, [3], [2, 1, 1, 0], over=True, match_winners=[2]),  # match lost
    deal("D", D, 1, [1], [3, 0, 2, 4]),  # hot seat: Bo wins
    deal("E", A, 1, [0], [0, 1, 1, 1], variant="twos"),
    deal("A", A, 3, [0], [0, 2, 2, 9], over=True, match_winners=[0]),  # a repeat: ignored
]


@pytest.fixture
def conn(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    c = history.open_history()
    for rec in RECORDS:
        history.write_record(c, rec)
    yield c
    c.close()


def test_recorded_rows(conn):
    assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 5
    assert conn.execute("SELECT count(*) FROM deals").fetchone()[0] == 8
    # one row per human seat and deal: A 3, B 2, D 2 (two humans), E 1
    assert conn.execute("SELECT count(*) FROM results").fetchone()[0] == 8


def test_figures_match_the_hand_count(conn):
    vs = compute(conn, "big-two")[0]
    assert (vs.deals_recorded, vs.matches_recorded, vs.watched_deals) == (7, 4, 1)
    assert [p.player for p in vs.players] == ["Ann", "Bo"]
    ann, bo = vs.players
    # Ann's deals in order: A1 W, A2 L, A3 W, B1 L, B2 L, D1 L
    assert (ann.deals.played, ann.deals.won) == (6, 2)
    assert (ann.matches.played, ann.matches.won) == (2, 1)  # A won, B lost; D unfinished
    assert {k: (r.played, r.won) for k, r in ann.deals_by_opponents.items()} == {
        "normal": (4, 2),
        "easy+hard": (2, 0),
    }
    assert {k: (r.played, r.won) for k, r in ann.matches_by_opponents.items()} == {
        "normal": (1, 1),
        "easy+hard": (1, 0),
    }
    (avg,) = ann.averages.values()
    assert avg.label == "Penalty" and avg.lower_is_better
    assert avg.deals == 6 and avg.mean == pytest.approx((0 + 4 + 0 + 7 + 2 + 3) / 6)
    assert (ann.deal_streaks.best, ann.deal_streaks.current) == (1, -3)
    assert (ann.match_streaks.best, ann.match_streaks.current) == (1, -1)
    assert (ann.deals_with_undo, ann.matches_with_undo) == (1, 1)
    assert [r["won"] for r in ann.recent] == [True, False, True, False, False, False]
    assert [r["undone"] for r in ann.recent] == [False, False, False, True, False, False]
    assert result_strip(ann.recent) == "█▁█▁▁▁"
    assert change_sparkline(ann.recent) == "▁▅▁█▃▄"
    # Bo played one hot-seat deal and won it
    assert (bo.deals.played, bo.deals.won, bo.matches.played) == (1, 1, 0)
    assert set(bo.deals_by_opponents) == {"normal"} and bo.deal_streaks.current == 1
    assert vs.totals()["deals"] == {"played": 7, "won": 3, "win_rate": round(3 / 7, 4)}


def test_other_games_are_apart(conn):
    figures = {vs.variant: vs for vs in compute(conn)}
    twos = figures["twos"]
    assert twos.deals_recorded == 1 and [p.player for p in twos.players] == ["Ann"]
    assert twos.players[0].deals.won == 1
    assert figures["2v1"].deals_recorded == 0 and figures["2v1"].players == []


def test_text_shows_the_same_figures(conn):
    text = stats_text(conn, "big-two")
    assert "Big Two: 2 matches played, 1 won; 7 deals played, 3 won" in text
    assert "(1 watched all-AI deal not counted)" in text
    assert "Deals    6 played · 2 won · 33%" in text
    assert "normal     2 of 4 (50%) · 1 of 1 (100%)" in text
    assert "easy+hard  0 of 2 (0%) · 0 of 1 (0%)" in text
    assert "Average penalty per deal: +2.67 (lower is better)" in text
    assert "Streaks  deals: best 1, now 3 lost" in text
    assert "won/lost  █▁█▁▁▁" in text
    assert "Undo (↶) used in 1 deal, 1 match" in text


def test_a_late_undo_still_marks_its_deal(conn):
    history.write_record(conn, undo("A", 2))
    ann = compute(conn, "big-two")[0].players[0]
    assert ann.deals_with_undo == 2 and ann.recent[1]["undone"]


@given(st.lists(st.booleans(), max_size=60))
def test_streaks_are_the_runs_of_results(results):
    s = streaks_of([int(w) for w in results])
    runs = [(k, len(list(g))) for k, g in itertools.groupby(results)]
    assert s.best == max([n for k, n in runs if k], default=0)
    if runs:
        k, n = runs[-1]
        assert s.current == (n if k else -n)
    else:
        assert s.current == 0
