"""Exact run-shape odds: published tables, brute force, closed forms."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from math import comb, factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twos_tui.engine import odds
from twos_tui.engine.odds import (
    PER,
    bomb_order,
    bomb_shapes,
    deal_rank_counts,
    hand_has_shape,
    is_bomb,
    max_width,
    odds_table,
    parse_deck,
    shape_probability,
    shape_probability_counts,
)

# The text's tables: hands (out of 10,000,000 sampled) holding each shape.
# Every row of both published tables, transcribed as printed.
TEXT_13 = {
    "3x4": 3,
    "2x6": 172,
    "4x2": 219,
    "1x13": 979,
    "3x3": 1124,
    "2x5": 7250,
    "1x12": 10579,
    "1x11": 46448,
    "2x4": 106649,
    "3x2": 126110,
    "1x10": 145179,
    "4x1": 342976,
    "1x9": 367730,
    "1x8": 813649,
    "2x3": 917211,
    "1x7": 1632653,
    "1x6": 3033189,
    "3x1": 4906188,
    "2x2": 5164667,
    "1x5": 5181797,
    "1x4": 7797492,
    "1x3": 9652373,
    "1x2": 9998564,
    "2x1": 9999021,
    "1x1": 10000000,
}
TEXT_13_BOMBS = ["3x4", "2x6", "3x3", "2x5", "2x4", "4x1", "2x3"]

TEXT_20 = {
    "2x10": 24,
    "4x3": 62,
    "3x5": 169,
    "2x9": 931,
    "3x4": 7829,
    "2x8": 10502,
    "4x2": 20085,
    "2x7": 63317,
    "3x3": 159321,
    "2x6": 274643,
    "1x13": 897647,
    "2x5": 950825,
    "1x12": 1405553,
    "3x2": 1965803,
    "1x11": 2059459,
    "4x1": 2198049,
    "2x4": 2767478,
    "1x10": 2882221,
    "1x9": 3899799,
    "1x8": 5141079,
    "2x3": 6482887,
    "1x7": 6634212,
    "1x6": 8161395,
    "1x5": 9281048,
    "3x1": 9567731,
    "2x2": 9783220,
    "1x4": 9874388,
    "1x3": 9996418,
    "1x2": 10000000,
    "1x1": 10000000,
    "2x1": 10000000,
}
TEXT_20_BOMBS = [
    "2x10",
    "4x3",
    "3x5",
    "2x9",
    "3x4",
    "2x8",
    "2x7",
    "3x3",
    "2x6",
    "2x5",
    "4x1",
    "2x4",
    "2x3",
]


def _shape(label):
    w, ln = label.split("x")
    return int(w), int(ln)


def _within_4_se(p: Fraction, count: int) -> tuple[bool, float, float]:
    pf = float(p)
    expected = pf * PER
    sd = math.sqrt(PER * pf * (1 - pf))
    slack = max(4 * sd, 4.0)
    return abs(expected - count) <= slack, expected, slack


@pytest.mark.parametrize("hand_size,table", [(13, TEXT_13), (20, TEXT_20)])
def test_every_published_row_within_4_standard_errors(hand_size, table):
    for label, count in table.items():
        w, ln = _shape(label)
        ok, expected, slack = _within_4_se(shape_probability(w, ln, hand_size), count)
        assert ok, (
            f"{hand_size} cards {label}: exact {expected:.1f} vs text {count} (slack {slack:.1f})"
        )


@pytest.mark.parametrize("hand_size,table", [(13, TEXT_13), (20, TEXT_20)])
def test_unlisted_shapes_are_rare_enough_to_be_missed(hand_size, table):
    # The simulator prints only shapes it saw; every shape we list that the
    # text does not must be consistent with a count of 0.
    rows = {r.label: r for r in odds_table(hand_size)}
    missing = set(rows) - set(table)
    for label in missing:
        ok, expected, slack = _within_4_se(rows[label].probability, 0)
        assert ok, f"{label}: {expected}"
    # ...and every shape the text saw is possible here.
    assert set(table) <= set(rows)


@pytest.mark.parametrize("hand_size,bombs", [(13, TEXT_13_BOMBS), (20, TEXT_20_BOMBS)])
def test_bomb_marks_match_published_filtered_tables(hand_size, bombs):
    table = TEXT_13 if hand_size == 13 else TEXT_20
    assert sorted(ln for ln in table if is_bomb(*_shape(ln))) == sorted(bombs)


def test_bomb_order_13_matches_text_list():
    # The text's list, weakest first, minus shapes that cannot fit 13 cards.
    text = [
        (2, 3),
        (4, 1),
        (2, 4),
        (2, 5),
        (3, 3),
        (2, 6),
        (3, 4),
        (2, 7),
        (4, 3),
        (3, 5),
        (3, 6),
        (4, 4),
    ]
    fits = [s for s in text if s[0] * s[1] <= 13]
    assert bomb_order(13) == fits


def test_bomb_order_20_double_run_of_four_beneath_four_of_a_kind():
    order = bomb_order(20)
    assert order[:3] == [(2, 3), (2, 4), (4, 1)]
    assert order.index((2, 5)) < order.index((3, 3)) < order.index((3, 4))
    # Strictly decreasing exact probability (strictly: no ties to break).
    probs = [shape_probability(w, ln, 20) for w, ln in order]
    assert all(a > b for a, b in zip(probs, probs[1:], strict=False))


def test_table_sorted_rarest_first_and_positive():
    for n in (1, 5, 13, 20, 40, 52):
        rows = odds_table(n)
        assert rows, n
        assert all(r.probability > 0 for r in rows)
        assert all(a.probability <= b.probability for a, b in zip(rows, rows[1:], strict=False))
        assert rows[-1].label == "1x1" or rows[-1].probability == 1


# --- closed forms -----------------------------------------------------------


def test_closed_forms_standard():
    N = comb(52, 13)
    # Four of a kind in 13 cards: inclusion-exclusion over the ranks.
    four = sum((-1) ** (j + 1) * comb(13, j) * comb(52 - 4 * j, 13 - 4 * j) for j in range(1, 4))
    assert shape_probability(4, 1, 13) == Fraction(four, N)
    # A full 13-card run: one card of every rank.
    assert shape_probability(1, 13, 13) == Fraction(4**13, N)
    # 1x1 is certain for any non-empty hand.
    for n in (1, 2, 13, 52):
        assert shape_probability(1, 1, n) == 1
    # The full deck holds everything.
    assert shape_probability(4, 13, 52) == 1
    # One card cannot make a pair.
    assert shape_probability(2, 1, 1) == 0
    # A pair in two cards: 3/51.
    assert shape_probability(2, 1, 2) == Fraction(3, 51)
    # 14 cards: pigeonhole forces a pair.
    assert shape_probability(2, 1, 14) == 1
    assert shape_probability(2, 1, 13) == 1 - Fraction(4**13, N)


def test_closed_forms_other_decks():
    # Chinese deck: 1x13 in 13 cards needs the single 2 and the ace (3 ways).
    assert shape_probability(1, 13, 13, "chinese") == Fraction(4**11 * 3 * 1, comb(48, 13))
    # No pair of 2s in the Chinese deck; 4x1 of aces impossible; 4x2 = top pair of ranks 3..K.
    assert shape_probability(4, 12, 48, "chinese") == 0
    assert shape_probability(4, 11, 48, "chinese") == 1
    assert shape_probability(2, 13, 48, "chinese") == 0
    # Two decks: eight of a kind from 8 cards.
    assert shape_probability(8, 1, 8, "decks:2") == Fraction(13, comb(104, 8))
    assert shape_probability(9, 1, 9, "decks:2") == 0
    # Infinite deck: n of a kind in n draws = 13 / 13**n; pair in 2 = 1/13.
    assert shape_probability(5, 1, 5, "infinite") == Fraction(13, 13**5)
    assert shape_probability(2, 1, 2, "infinite") == Fraction(1, 13)
    assert shape_probability(1, 13, 13, "infinite") == Fraction(factorial(13), 13**13)
    assert shape_probability(2, 1, 14, "infinite") == 1
    # decks:1 is the standard deck.
    assert shape_probability(2, 3, 13, "decks:1") == shape_probability(2, 3, 13)


def test_more_decks_tend_to_infinite_deck():
    for shape in [(2, 3), (4, 1), (3, 2), (1, 8)]:
        inf = shape_probability(*shape, 13, "infinite")
        gaps = [abs(shape_probability(*shape, 13, f"decks:{k}") - inf) for k in (1, 4, 50)]
        assert gaps[0] > gaps[1] > gaps[2], shape
        assert gaps[2] < Fraction(1, 100)


# --- brute force ------------------------------------------------------------


def _brute_finite(counts, n, w, ln):
    cards = [r for r, m in enumerate(counts) for _ in range(m)]
    hit = total = 0
    for hand in itertools.combinations(range(len(cards)), n):
        rc = [0] * len(counts)
        for i in hand:
            rc[cards[i]] += 1
        total += 1
        hit += hand_has_shape(rc, w, ln)
    return Fraction(hit, total)


@pytest.mark.parametrize(
    "counts,n",
    [
        ((2, 1, 3, 2, 1), 4),
        ((3, 3, 3, 3), 6),
        ((1, 2, 1, 2, 1, 2), 5),
    ],
)
def test_generic_line_matches_brute_force(counts, n):
    for w in range(1, max(counts) + 1):
        for ln in range(1, len(counts) + 1):
            assert shape_probability_counts(w, ln, n, counts) == _brute_finite(counts, n, w, ln), (
                w,
                ln,
            )


@pytest.mark.parametrize(
    "counts,n",
    [
        ((1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1), 5),
        ((2,) * 13, 4),
        ((1,) * 11 + (3, 1), 6),
    ],
)
def test_thirteen_rank_kronecker_path_matches_brute_force(counts, n):
    for w in range(1, max(counts) + 1):
        for ln in range(1, 14):
            assert shape_probability_counts(w, ln, n, counts) == _brute_finite(counts, n, w, ln), (
                w,
                ln,
            )


def test_kronecker_path_matches_plain_dp_on_real_decks():
    # The 13-rank packed-integer DP against the plain dictionary DP.
    for counts, n in [((4,) * 13, 13), ((4,) * 11 + (3, 1), 16), ((8,) * 13, 20)]:
        for w, ln in [(1, 5), (2, 3), (2, 6), (3, 3), (4, 1), (4, 2), (3, 4), (5, 2)]:
            fast = shape_probability_counts(w, ln, n, counts)
            slow = odds._generic_probability(w, ln, n, counts)
            assert fast == slow, (counts, n, w, ln)


@pytest.mark.parametrize(
    "deck,n",
    [("standard", 13), ("standard", 20), ("decks:2", 30), ("infinite", 9), ("infinite", 20)],
)
def test_symmetric_pattern_method_matches_rank_dp(deck, n):
    # Identical ranks use the high/low pattern sum; check it against the DP.
    counts = parse_deck(deck).counts
    total = odds._setup(counts, n)[2]
    for row in odds_table(n, deck):
        dp = 1 - Fraction(odds._avoid_weight_dp(counts, n, row.width, row.length), total)
        assert row.probability == dp, row.label


def test_no_long_run_patterns_small():
    # Strings of 4 digits, no "11": h=0:1, h=1:4, h=2:3 (1010, 1001, 0101), h=3+:0.
    assert odds._no_long_run_patterns(4, 2) == (1, 4, 3, 0, 0)
    assert sum(odds._no_long_run_patterns(13, 14)) == 2**13


def _brute_infinite(n, w, ln):
    hit = 0
    for seq in itertools.product(range(13), repeat=n):
        rc = [0] * 13
        for r in seq:
            rc[r] += 1
        hit += hand_has_shape(rc, w, ln)
    return Fraction(hit, 13**n)


def _multinomial_infinite(n, w, ln):
    hit = 0
    for rc in _compositions(n, 13):
        if hand_has_shape(rc, w, ln):
            m = factorial(n)
            for c in rc:
                m //= factorial(c)
            hit += m
    return Fraction(hit, 13**n)


def _compositions(n, parts):
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest


def test_infinite_matches_brute_force_small():
    for n in (1, 2, 3):
        for w in range(1, n + 1):
            for ln in range(1, 4):
                assert shape_probability(w, ln, n, "infinite") == _brute_infinite(n, w, ln)


def test_infinite_matches_multinomial_sum():
    n = 6
    for w, ln in [(1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (6, 1), (1, 6)]:
        assert shape_probability(w, ln, n, "infinite") == _multinomial_infinite(n, w, ln)


def test_monte_carlo_agrees_standard_and_infinite():
    rng = random.Random(7)
    for deck in ("standard", "infinite", "chinese"):
        hits = 0
        trials = 4000
        for _ in range(trials):
            hits += hand_has_shape(deal_rank_counts(rng, 13, deck), 2, 3)
        p = float(shape_probability(2, 3, 13, deck))
        sd = math.sqrt(trials * p * (1 - p))
        assert abs(hits - trials * p) <= 4 * sd, deck


# --- decks, widths, errors --------------------------------------------------


def test_parse_deck_and_widths():
    assert parse_deck("standard").counts == (4,) * 13
    assert parse_deck("chinese").counts == (4,) * 11 + (3, 1)
    assert sum(parse_deck("chinese").counts) == 48
    assert parse_deck("decks:3").counts == (12,) * 13
    assert parse_deck("infinite").counts is None
    assert max_width(13) == 4
    assert max_width(20, "infinite") == 20
    assert max_width(3, "decks:2") == 3
    for bad in ("", "tarot", "decks:0", "decks:x", "decks:-1"):
        with pytest.raises(ValueError):
            parse_deck(bad)
    for n, deck in (
        (0, "standard"),
        (53, "standard"),
        (49, "chinese"),
        (105, "decks:2"),
        (-1, "infinite"),
    ):
        with pytest.raises(ValueError):
            shape_probability(1, 1, n, deck)


def test_infinite_and_multideck_tables_have_wide_rows():
    rows = {r.label: r for r in odds_table(20, "infinite")}
    assert "20x1" in rows and "5x4" in rows and "5x1" in rows
    assert not rows["5x1"].bomb and rows["5x3"].bomb and rows["4x1"].bomb
    assert rows["1x1"].probability == 1
    rows2 = {r.label for r in odds_table(20, "decks:2")}
    assert "8x2" in rows2 and "9x1" not in rows2
    chinese = {r.label for r in odds_table(20, "chinese")}
    assert "4x12" not in chinese and "2x13" not in chinese and "1x13" in chinese


def test_bomb_shapes_are_bombs_rarest_first():
    rows = bomb_shapes(20)
    assert [r.label for r in rows][-3:] == ["4x1", "2x4", "2x3"]
    assert all(r.bomb for r in rows)
    assert {(r.width, r.length) for r in rows} == set(bomb_order(20))


def test_row_json():
    row = odds_table(13)[0]
    d = row.to_json()
    assert set(d) == {"width", "length", "probability", "per_10m", "bomb"}
    assert d["per_10m"] == pytest.approx(d["probability"] * PER)


def test_both_full_tables_from_cold_caches():
    """Both full tables compute from empty caches. How fast is a benchmark figure, not a
    test: ``benchmarks/bench_odds.py`` times exactly this (limit 1 s)."""
    for obj in vars(odds).values():
        if hasattr(obj, "cache_clear"):
            obj.cache_clear()
    t13, t20 = odds_table(13), odds_table(20)
    assert len(t13) == 26 and len(t20) == 34
    assert all(0 < r.probability <= 1 for r in t13 + t20)


# examples: the Hypothesis profile's (tests/conftest.py: 100 in `ci`, 10 in `quick`)
@given(
    counts=st.lists(st.integers(0, 5), min_size=13, max_size=13).filter(lambda c: sum(c) >= 1),
    data=st.data(),
)
def test_packed_dp_matches_dictionary_dp_on_random_decks(counts, data):
    counts = tuple(counts)
    n = data.draw(st.integers(1, min(sum(counts), 14)))
    w = data.draw(st.integers(1, 5))
    ln = data.draw(st.integers(1, 6))
    fast = shape_probability_counts(w, ln, n, counts)
    slow = odds._generic_probability(w, ln, n, counts)
    assert fast == slow
    assert 0 <= fast <= 1
