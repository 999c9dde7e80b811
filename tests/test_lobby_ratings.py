"""The lobby's ratings (issue 30): OpenSkill's Plackett–Luce, checked against OpenSkill's
own numbers; AI seats at fixed ratings; leavers last; ties; the displayed number."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from twos_tui.play.lobby.model import MatchOutcome
from twos_tui.play.lobby.ratings import (
    AI_RATINGS,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    display,
    effective_places,
)
from twos_tui.play.lobby.store import SqliteStore


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The store in SQLite and in PostgreSQL (skipped where it cannot start): the
    ratings must come out exactly OpenSkill's in both."""
    if request.param == "sqlite":
        s = SqliteStore(tmp_path / "lobby.db")
    else:
        from twos_tui.play.lobby.store_pg import PostgresStore

        s = PostgresStore(request.getfixturevalue("pg_dsn"))
    with s:
        for n, name in enumerate(("Alice", "Bob", "Carol", "Dora")):
            s.claim_name(name, f"SHA256:key{n}")
        yield s


def _openskill(ratings, ranks):
    """OpenSkill itself, on fresh objects: each seat's (mu, sigma) after."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def _stored(store, names, game):
    return [(store.rating(n, game).mu, store.rating(n, game).sigma) for n in names]


def test_four_humans_match_openskill_exactly_over_several_matches(store):
    names = ["Alice", "Bob", "Carol", "Dora"]
    orders = [(1, 2, 3, 4), (4, 3, 2, 1), (2, 1, 4, 3), (1, 1, 3, 4), (3, 1, 2, 2)]
    expected = [(DEFAULT_MU, DEFAULT_SIGMA)] * 4
    for i, places in enumerate(orders):
        before = _stored(store, names, "big-two")
        assert before == expected
        out = store.finish_match(
            MatchOutcome(
                f"t{i}", "big-two", True, 100.0 + i, tuple(zip(names, places, strict=True))
            )
        )
        expected = _openskill(before, list(places))
        assert _stored(store, names, "big-two") == expected  # exactly, not approximately
        assert out == {
            n: (display(*b), display(*a)) for n, b, a in zip(names, before, expected, strict=True)
        }
    assert [store.rating(n, "big-two").matches for n in names] == [5] * 4
    # another game's ratings are untouched
    assert _stored(store, names, "twos") == [(DEFAULT_MU, DEFAULT_SIGMA)] * 4


def test_ai_seats_play_at_their_levels_fixed_rating_and_never_change(store):
    out = store.finish_match(
        MatchOutcome(
            "t1",
            "twos",
            True,
            1.0,
            (("Alice", 1), (None, 2), (None, 3), ("Bob", 4)),
            ai_levels=(None, "hard", "easy", None),
        )
    )
    expected = _openskill(
        [
            (DEFAULT_MU, DEFAULT_SIGMA),
            AI_RATINGS["hard"],
            AI_RATINGS["easy"],
            (DEFAULT_MU, DEFAULT_SIGMA),
        ],
        [1, 2, 3, 4],
    )
    assert _stored(store, ["Alice", "Bob"], "twos") == [expected[0], expected[3]]
    assert set(out) == {"Alice", "Bob"}
    # the AI's numbers are what they were: nothing stores or moves them
    assert AI_RATINGS["hard"] == (30.0, 2.0) and AI_RATINGS["easy"] == (18.0, 2.0)


def test_beating_the_hard_ai_counts_more_than_beating_the_easy_one(tmp_path):
    gains = {}
    for level in ("easy", "hard"):
        with SqliteStore(tmp_path / f"{level}.db") as s:
            s.claim_name("Alice", "k")
            out = s.finish_match(
                MatchOutcome(
                    "t", "big-two", True, 1.0, (("Alice", 1), (None, 2)), ai_levels=(None, level)
                )
            )
            gains[level] = out["Alice"][1] - out["Alice"][0]
    assert gains["hard"] > gains["easy"] > 0


def test_losing_to_the_easy_ai_costs_more_than_losing_to_the_hard_one(tmp_path):
    mus = {}
    for level in ("easy", "hard"):
        with SqliteStore(tmp_path / f"{level}.db") as s:
            s.claim_name("Alice", "k")
            s.finish_match(
                MatchOutcome(
                    "t", "big-two", True, 1.0, (("Alice", 2), (None, 1)), ai_levels=(None, level)
                )
            )
            mus[level] = s.rating("Alice", "big-two").mu
    assert mus["easy"] < mus["hard"] < DEFAULT_MU


def test_an_ai_seat_of_unreported_level_counts_as_normal(store):
    store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("Alice", 2), (None, 1))))
    expected = _openskill([(DEFAULT_MU, DEFAULT_SIGMA), AI_RATINGS["normal"]], [2, 1])
    assert _stored(store, ["Alice"], "twos") == [expected[0]]


def test_a_leaver_counts_as_last_below_everyone_who_stayed(store):
    names = ["Alice", "Bob", "Carol", "Dora"]
    outcome = MatchOutcome(
        "t", "big-two", True, 1.0, tuple(zip(names, (1, 2, 3, 4), strict=True)), left=("Alice",)
    )
    assert effective_places(outcome) == [5, 2, 3, 4]
    store.finish_match(outcome)
    assert _stored(store, names, "big-two") == _openskill(
        [(DEFAULT_MU, DEFAULT_SIGMA)] * 4, [5, 2, 3, 4]
    )
    # the leaver lost rating, and their result says last place
    assert store.rating("Alice", "big-two").mu < DEFAULT_MU
    assert store.recent_results("Alice")[0].place == 5
    # two leavers share last place
    two = MatchOutcome(
        "u",
        "twos",
        True,
        2.0,
        tuple(zip(names, (1, 2, 3, 4), strict=True)),
        left=("Alice", "Carol"),
    )
    assert effective_places(two) == [5, 2, 5, 4]


def test_ties_are_ties(store):
    store.finish_match(
        MatchOutcome("t", "2v1", True, 1.0, (("Alice", 1), ("Bob", 1), ("Carol", 2)))
    )
    a, b, c = _stored(store, ["Alice", "Bob", "Carol"], "2v1")
    assert a == b  # equal places, equal ratings before: equal after
    assert (a, c) == tuple(
        _openskill([(DEFAULT_MU, DEFAULT_SIGMA)] * 3, [1, 1, 2])[i] for i in (0, 2)
    )
    assert a[0] > DEFAULT_MU > c[0]


def test_guests_count_as_newcomers_and_are_never_rated(store):
    g = store.guest()
    out = store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("Alice", 1), (g.name, 2))))
    assert set(out) == {"Alice"}
    assert _stored(store, ["Alice"], "twos") == [
        _openskill([(DEFAULT_MU, DEFAULT_SIGMA)] * 2, [1, 2])[0]
    ]
    assert store.ratings(g.name) == ()
    assert store.recent_results(g.name)[0].rating_change is None


def test_a_name_without_an_account_counts_as_a_guest(store):
    out = store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("Alice", 1), ("Stranger", 2))))
    assert set(out) == {"Alice"}
    assert store.rating("Stranger", "twos").matches == 0
    assert store.account("Stranger") is None
    assert store.leaderboard("twos")[0].name == "Alice"


def test_an_unrated_match_moves_nothing_but_is_in_the_results(store):
    out = store.finish_match(MatchOutcome("t", "twos", False, 1.0, (("Alice", 1), ("Bob", 2))))
    assert out == {}
    assert store.rating("Alice", "twos").matches == 0
    assert store.ratings("Alice") == ()
    (res,) = store.recent_results("Alice")
    assert (res.game, res.place, res.players, res.rating_change) == ("twos", 1, 2, None)


def test_the_displayed_rating_is_1000_plus_40_times_the_ordinal():
    assert display(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(1000.0)
    assert display(30.0, 2.0) == pytest.approx(1000 + 40 * 24)
    model = PlackettLuce()
    r = model.rating(mu=27.5, sigma=3.1)
    assert display(27.5, 3.1) == pytest.approx(1000 + 40 * r.ordinal())


def test_the_shown_change_is_the_difference_of_the_shown_ratings(store):
    out = store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("Alice", 2), ("Bob", 1))))
    (res,) = store.recent_results("Alice")
    assert res.rating_change == pytest.approx(out["Alice"][1] - out["Alice"][0])
    assert store.ratings("Alice")[0].rating == pytest.approx(out["Alice"][1])
