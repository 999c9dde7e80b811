"""Exact odds of run shapes in a dealt hand (pure; no UI imports).

A *run shape* ``w x l`` (width ``w``, length ``l``) is present in a hand when
some ``l`` consecutive ranks each hold at least ``w`` cards of the hand.
``1x1`` is "any card", ``2x3`` is ``334455``, ``4x1`` is four of a kind.

Ranks form one line of 13 ranks, 3 4 5 6 7 8 9 10 J Q K A 2, with no wrap
(the Twos card order; the 2 may top a run).  Decks:

``standard``
    52 cards, four of each rank.
``chinese``
    the 48-card Chinese Poker deck: 52 minus three 2s and one ace, so the
    ace has 3 cards and the 2 has one.  The 2 keeps its Twos place at the top
    of the rank line (3 ... K A 2), like every other deck here.
``decks:K``
    K standard decks shuffled together (4K cards of each rank), drawn
    without replacement.  ``decks:1`` is the standard deck.
``infinite``
    every card drawn independently and uniformly from the 52 kinds (drawing
    with replacement), so each card's rank is uniform over the 13 ranks and
    any width up to the hand size is possible.

Method: complement counting.  The hands that *avoid* a shape are counted by a
dynamic programme over the ranks in order, keeping for each "current streak"
``s`` (number of consecutive ranks just seen holding >= w cards, s < l) the
generating polynomial of the number of cards used so far.  Each rank splits
into a "low" polynomial (fewer than ``w`` cards: streak resets) and a "high"
polynomial (``w`` or more: streak grows; reaching ``l`` is dropped).  With
finite decks the coefficient of ``x^c`` for one rank is ``C(n_r, c)``; for the
infinite deck it is ``n!/c!`` (an exponential generating function scaled to
integers), which counts ordered draws.  The probability is
``1 - avoid / total`` as an exact :class:`fractions.Fraction`.

The polynomials are packed into single Python integers (Kronecker
substitution: coefficient ``k`` lives in bits ``[k*B, (k+1)*B)``), so a
polynomial product is one big-integer multiplication followed by a mask.
All coefficients are non-negative and every coefficient up to degree ``n``
is below ``2**B``, so the low slots of a product are exact (carries only run
upwards, into the slots that the mask throws away).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random

__all__ = [
    "RANK_LINE",
    "DECKS",
    "PER",
    "Row",
    "DeckSpec",
    "parse_deck",
    "deck_size",
    "max_width",
    "is_bomb",
    "shape_probability",
    "shape_probability_counts",
    "odds_table",
    "bomb_shapes",
    "bomb_order",
    "bomb_strength",
    "hand_has_shape",
    "longest_runs",
    "describe_deck",
    "format_per_10m",
    "format_probability",
    "one_in",
    "deal_rank_counts",
]

#: Rank line used for runs, lowest first (no wrap).
RANK_LINE: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")

#: Deck names understood by :func:`parse_deck` (``decks:K`` takes any K >= 1).
DECKS: tuple[str, ...] = ("standard", "chinese", "decks:2", "infinite")

#: Tables are quoted as expected hands per this many hands (the text's unit).
PER = 10_000_000

_NRANKS = 13


@dataclass(frozen=True)
class DeckSpec:
    """A deck as cards per rank along the rank line; ``None`` = infinite."""

    name: str
    counts: tuple[int, ...] | None

    @property
    def infinite(self) -> bool:
        return self.counts is None

    @property
    def size(self) -> int | None:
        return None if self.counts is None else sum(self.counts)


@cache
def parse_deck(deck: str) -> DeckSpec:
    """Turn a deck string into cards-per-rank.  Raises ValueError if unknown."""
    if not isinstance(deck, str):
        raise ValueError(f"deck must be a string, not {deck!r}")
    d = deck.strip().lower()
    if d == "standard":
        return DeckSpec("standard", (4,) * _NRANKS)
    if d == "chinese":
        # 3..K four each, ace three, the single 2 at the top of the line.
        return DeckSpec("chinese", (4,) * 11 + (3, 1))
    if d == "infinite":
        return DeckSpec("infinite", None)
    if d.startswith("decks:"):
        k_text = d[len("decks:") :]
        if k_text.isdigit() and int(k_text) >= 1:
            k = int(k_text)
            return DeckSpec(f"decks:{k}", (4 * k,) * _NRANKS)
        raise ValueError(f"bad deck {deck!r}: decks:K needs a whole number of decks K >= 1")
    raise ValueError(f"unknown deck {deck!r}: use standard, chinese, decks:K (K >= 1) or infinite")


def deck_size(deck: str) -> int | None:
    """Number of cards in the deck, or None for the infinite deck."""
    return parse_deck(deck).size


def _check_hand_size(hand_size: int, spec: DeckSpec) -> None:
    if not isinstance(hand_size, int) or isinstance(hand_size, bool):
        raise ValueError(f"hand size must be a whole number, not {hand_size!r}")
    if hand_size < 1:
        raise ValueError(f"hand size must be at least 1 (got {hand_size})")
    if spec.size is not None and hand_size > spec.size:
        raise ValueError(
            f"hand size {hand_size} does not fit the {spec.name} deck of {spec.size} cards"
        )


def max_width(hand_size: int, deck: str = "standard") -> int:
    """Largest width a hand of this size can hold in this deck."""
    spec = parse_deck(deck)
    _check_hand_size(hand_size, spec)
    if spec.counts is None:
        return hand_size
    return min(max(spec.counts), hand_size)


def bomb_rule(deck: str) -> str:
    """The game whose bombs a deck's table marks: the Chinese Poker deck is that game's
    (its only bomb is four of a kind, played with a fifth card); every other deck is
    Twos'."""
    return "chinese-poker" if parse_deck(deck).name == "chinese" else "twos"


def is_bomb_in(rule: str, width: int, length: int) -> bool:
    """Is the shape a bomb in the game ``rule`` (see :func:`bomb_rule`)?"""
    if rule == "chinese-poker":
        return (width, length) == (4, 1)
    return is_bomb(width, length)


def is_bomb(width: int, length: int) -> bool:
    """Twos bombs: multi-runs (width >= 2, length >= 3) and four of a kind (4x1).

    Five or more of a kind (possible only with several decks or the infinite
    deck) is not a bomb of its own: a play of one rank has at most four cards,
    and any such hand already holds the 4x1 bomb.
    """
    return (width >= 2 and length >= 3) or (width == 4 and length == 1)


# ---------------------------------------------------------------------------
# Core counting


def _pack(coeffs: list[int], bits: int) -> int:
    v = 0
    for k in range(len(coeffs) - 1, -1, -1):
        v = (v << bits) | coeffs[k]
    return v


def _unpack_coeff(v: int, k: int, bits: int) -> int:
    return (v >> (k * bits)) & ((1 << bits) - 1)


@lru_cache(maxsize=256)
def _setup(
    counts: tuple[int, ...] | None, n: int
) -> tuple[tuple[tuple[int, ...], ...], int, int, int, int]:
    """Per-rank weights, slot width, start value and per-rank divisor.

    Returns ``(weights, bits, total, start, divisor)``: ``weights[r][c]`` is
    the weight of rank ``r`` holding ``c`` cards, ``total`` the weight of all
    hands, ``start`` the packed polynomial before any rank, and ``divisor``
    an exact divisor of every slot after each rank's product.

    Finite decks: weights ``C(n_r, c)``, start 1, divisor 1; slot ``k``
    counts the ``k``-card subsets of the ranks seen so far.

    Infinite deck: ordered draws.  Slot ``k`` holds ``S_k * n!/k!`` where
    ``S_k`` counts sequences of ``k`` draws from the ranks seen so far.  A
    rank multiplies by ``sum_c n!/c! x^c``; since ``S'_m = sum C(m, c) S_k``
    the product's slot ``m`` is ``S'_m * n! * n!/m!``, so dividing the whole
    packed integer by ``n!`` restores the form exactly (every slot is a
    multiple of ``n!``, and an exact division of a packed integer divides
    each slot).  At the end slot ``n`` is the plain sequence count and the
    total is ``13**n``.
    """
    if counts is None:
        fn = factorial(n)
        weights = (tuple(fn // factorial(c) for c in range(n + 1)),) * _NRANKS
        total = 13**n
        start = fn
        divisor = fn
        bound = 13**n * fn * fn  # largest slot value before the division
    else:
        weights = tuple(tuple(comb(m, c) for c in range(min(m, n) + 1)) for m in counts)
        big = sum(counts)
        total = comb(big, n)
        start = 1
        divisor = 1
        bound = max(comb(big, k) for k in range(n + 1))
    bits = bound.bit_length() + 1
    return weights, bits, total, start, divisor


@lru_cache(maxsize=4096)
def _split_polys(counts: tuple[int, ...] | None, n: int, width: int) -> tuple[tuple[int, int], ...]:
    """Packed (low, high) polynomials for each rank at this width."""
    weights, bits = _setup(counts, n)[:2]
    out = []
    for wr in weights:
        low = [wr[c] if c < width else 0 for c in range(len(wr))]
        high = [wr[c] if c >= width else 0 for c in range(len(wr))]
        out.append((_pack(low, bits), _pack(high, bits)))
    return tuple(out)


@lru_cache(maxsize=8192)
def _avoid_weight(counts: tuple[int, ...] | None, n: int, width: int, length: int) -> int:
    """Total weight of n-card hands with no run of ``length`` ranks >= ``width``."""
    if counts is None or len(set(counts)) == 1:
        return _avoid_weight_patterns(counts, n, width, length)
    return _avoid_weight_dp(counts, n, width, length)


@lru_cache(maxsize=64)
def _no_long_run_patterns(ranks: int, length: int) -> tuple[int, ...]:
    """``out[h]`` = binary strings of ``ranks`` digits with ``h`` ones and no
    ``length`` ones in a row."""
    # state[(ones, streak)] -> number of strings
    state = {(0, 0): 1}
    for _ in range(ranks):
        new: dict[tuple[int, int], int] = {}
        for (ones, streak), v in state.items():
            new[(ones, 0)] = new.get((ones, 0), 0) + v
            if streak + 1 < length:
                key = (ones + 1, streak + 1)
                new[key] = new.get(key, 0) + v
        state = new
    out = [0] * (ranks + 1)
    for (ones, _), v in state.items():
        out[ones] += v
    return tuple(out)


@lru_cache(maxsize=1024)
def _split_weights(counts: tuple[int, ...] | None, n: int, width: int) -> tuple[int, ...]:
    """Identical ranks: ``out[h]`` = weight of hands in which a given set of
    ``h`` ranks hold >= ``width`` cards each and the other ``13 - h`` fewer.

    By symmetry it does not matter which ``h`` ranks, so the weight of hands
    avoiding a run is ``sum_h patterns_l(h) * out[h]`` (see
    :func:`_no_long_run_patterns`).  About 40 polynomial products per width
    instead of one per rank and streak per length.
    """
    _, bits, _, start, divisor = _setup(counts, n)
    low, high = _split_polys(counts, n, width)[0]
    mask = (1 << ((n + 1) * bits)) - 1

    def times(a: int, b: int) -> int:
        v = (a * b) & mask
        return v // divisor if divisor != 1 else v

    low_pow = [start]
    high_pow = [start]
    for _ in range(_NRANKS):
        low_pow.append(times(low_pow[-1], low))
        high_pow.append(times(high_pow[-1], high) if high_pow[-1] else 0)
    out = []
    for h in range(_NRANKS + 1):
        a, b = low_pow[_NRANKS - h], high_pow[h]
        out.append(_unpack_coeff(times(a, b), n, bits) if a and b else 0)
    return tuple(out)


def _avoid_weight_patterns(counts: tuple[int, ...] | None, n: int, width: int, length: int) -> int:
    split = _split_weights(counts, n, width)
    patterns = _no_long_run_patterns(_NRANKS, length)
    return sum(p * w for p, w in zip(patterns, split, strict=False))


def _avoid_weight_dp(counts: tuple[int, ...] | None, n: int, width: int, length: int) -> int:
    """Rank-by-rank DP (any cards-per-rank line of 13 ranks)."""
    _, bits, _, start, divisor = _setup(counts, n)
    polys = _split_polys(counts, n, width)
    mask = (1 << ((n + 1) * bits)) - 1
    # state[s] = packed polynomial of hands so far whose current streak is s.
    state = [start] + [0] * (length - 1)
    for low, high in polys:
        everything = sum(state)
        new = [(everything * low) & mask]
        if high:
            for s in range(length - 1):
                f = state[s]
                new.append((f * high) & mask if f else 0)
        else:
            new.extend([0] * (length - 1))
        if divisor != 1:
            new = [v // divisor for v in new]
        state = new
    return _unpack_coeff(sum(state), n, bits)


def _possible(counts: tuple[int, ...] | None, n: int, width: int, length: int) -> bool:
    if width < 1 or length < 1 or length > _NRANKS or width * length > n:
        return False
    if counts is None:
        return True
    streak = 0
    for m in counts:
        streak = streak + 1 if m >= width else 0
        if streak >= length:
            return True
    return False


def shape_probability_counts(
    width: int, length: int, hand_size: int, counts: tuple[int, ...] | None
) -> Fraction:
    """Exact P(hand contains width x length) for any cards-per-rank line.

    ``counts`` lists the cards of each rank along the rank line (any number
    of ranks, used e.g. by tests with tiny decks); ``None`` = infinite
    13-rank deck.
    """
    if counts is not None:
        counts = tuple(int(c) for c in counts)
        if hand_size < 0 or hand_size > sum(counts):
            raise ValueError(f"hand size {hand_size} does not fit {sum(counts)} cards")
        if len(counts) != _NRANKS:
            return _generic_probability(width, length, hand_size, counts)
    return _shape_probability(width, length, hand_size, counts)


@lru_cache(maxsize=8192)
def _shape_probability(width: int, length: int, n: int, counts: tuple[int, ...] | None) -> Fraction:
    if not _possible(counts, n, width, length):
        return Fraction(0)
    total = _setup(counts, n)[2]
    return 1 - Fraction(_avoid_weight(counts, n, width, length), total)


def _generic_probability(width: int, length: int, n: int, counts: tuple[int, ...]) -> Fraction:
    """Same DP for a rank line of any length (plain integer lists)."""
    if width < 1 or length < 1 or length > len(counts) or width * length > n:
        return Fraction(0)
    # state[(cards, streak)] -> number of hands
    state = {(0, 0): 1}
    for m in counts:
        new: dict[tuple[int, int], int] = {}
        for (used, s), v in state.items():
            for c in range(0, min(m, n - used) + 1):
                s2 = s + 1 if c >= width else 0
                if s2 >= length:
                    continue
                key = (used + c, s2)
                new[key] = new.get(key, 0) + v * comb(m, c)
        state = new
    avoid = sum(v for (used, _), v in state.items() if used == n)
    return 1 - Fraction(avoid, comb(sum(counts), n))


def shape_probability(width: int, length: int, hand_size: int, deck: str = "standard") -> Fraction:
    """Exact probability that a ``hand_size``-card hand holds a ``width x length`` run.

    ``deck`` is ``"standard"``, ``"chinese"``, ``"decks:K"`` or ``"infinite"``.
    Raises ValueError for an unknown deck or a hand size that does not fit.
    Impossible shapes (e.g. width 5 in one deck, length 14) have probability 0.
    """
    spec = parse_deck(deck)
    _check_hand_size(hand_size, spec)
    return _shape_probability(int(width), int(length), hand_size, spec.counts)


# ---------------------------------------------------------------------------
# Tables


@dataclass(frozen=True)
class Row:
    """One table row: a shape and its exact chance in a dealt hand."""

    width: int
    length: int
    probability: Fraction
    #: whose bombs ``bomb`` marks: ``"twos"``, or ``"chinese-poker"`` (the Chinese Poker
    #: deck's game, whose only bomb is four of a kind)
    rule: str = "twos"

    @property
    def bomb(self) -> bool:
        return is_bomb_in(self.rule, self.width, self.length)

    @property
    def per_10m(self) -> float:
        """Expected number of hands holding the shape per 10,000,000 hands."""
        return float(self.probability * PER)

    @property
    def label(self) -> str:
        return f"{self.width}x{self.length}"

    def to_json(self) -> dict[str, object]:
        return {
            "width": self.width,
            "length": self.length,
            "probability": float(self.probability),
            "per_10m": self.per_10m,
            "bomb": self.bomb,
        }


def _sort_key(row: Row) -> tuple[Fraction, int, int, int]:
    # Rarest first; exact ties (e.g. several shapes certain) put the bigger
    # shape first, then the wider one.
    return (row.probability, -row.width * row.length, -row.width, -row.length)


@lru_cache(maxsize=128)
def _table(hand_size: int, counts: tuple[int, ...] | None) -> tuple[Row, ...]:
    top = hand_size if counts is None else min(max(counts), hand_size)
    rows = []
    for w in range(1, top + 1):
        for ln in range(1, _NRANKS + 1):
            if not _possible(counts, hand_size, w, ln):
                break  # longer runs at this width are impossible too
            p = _shape_probability(w, ln, hand_size, counts)
            if p == 0:
                break
            rows.append(Row(w, ln, p))
    rows.sort(key=_sort_key)
    return tuple(rows)


def odds_table(hand_size: int, deck: str = "standard") -> list[Row]:
    """Every shape with non-zero probability, rarest first."""
    spec = parse_deck(deck)
    _check_hand_size(hand_size, spec)
    rule = bomb_rule(deck)
    rows = list(_table(hand_size, spec.counts))
    return rows if rule == "twos" else [replace(r, rule=rule) for r in rows]


@lru_cache(maxsize=128)
def _bomb_table(hand_size: int, counts: tuple[int, ...] | None) -> tuple[Row, ...]:
    top = hand_size if counts is None else min(max(counts), hand_size)
    rows = []
    if _possible(counts, hand_size, 4, 1):
        rows.append(Row(4, 1, _shape_probability(4, 1, hand_size, counts)))
    for w in range(2, top + 1):
        for ln in range(3, _NRANKS + 1):
            if not _possible(counts, hand_size, w, ln):
                break
            p = _shape_probability(w, ln, hand_size, counts)
            if p == 0:
                break
            rows.append(Row(w, ln, p))
    rows = [r for r in rows if r.probability > 0]
    rows.sort(key=_sort_key)
    return tuple(rows)


def bomb_shapes(hand_size: int, deck: str = "standard") -> list[Row]:
    """The bomb rows of :func:`odds_table` (rarest, i.e. strongest, first).

    Computed directly (only bomb shapes), so it is cheaper than the table.
    """
    spec = parse_deck(deck)
    _check_hand_size(hand_size, spec)
    rule = bomb_rule(deck)
    if rule != "twos":  # the game's own bombs only
        return [r for r in odds_table(hand_size, deck) if r.bomb]
    return list(_bomb_table(hand_size, spec.counts))


def bomb_order(hand_size: int, deck: str = "standard") -> list[tuple[int, int]]:
    """Bomb shapes ``(width, length)`` that can be dealt, WEAKEST first.

    Rarer beats commoner (docs/rules.md §1.7): the order is by decreasing exact
    probability.  At 13 cards from the standard deck this gives
    2x3, 4x1, 2x4, 2x5, 3x3, 2x6, 3x4, 4x3: the text's list with the shapes
    that do not fit in 13 cards (2x7, 3x5, 3x6, 4x4) left out.
    """
    return [(r.width, r.length) for r in reversed(bomb_shapes(hand_size, deck))]


def bomb_strength(hand_size: int, deck: str = "standard") -> dict[tuple[int, int], int]:
    """Map bomb shape -> strength rank (0 = weakest) for this hand size."""
    return {shape: i for i, shape in enumerate(bomb_order(hand_size, deck))}


# ---------------------------------------------------------------------------
# Text helpers shared by the CLI and the Odds screen


def describe_deck(deck: str) -> str:
    """A short player-facing description of a deck string."""
    spec = parse_deck(deck)
    if spec.name == "standard":
        return "standard deck (52 cards)"
    if spec.name == "chinese":
        return "Chinese Poker deck (48 cards: one 2, three aces)"
    if spec.name == "infinite":
        return "endless deck (each card drawn with replacement)"
    assert spec.counts is not None  # a number of decks
    k = spec.counts[0] // 4
    return f"{k} decks shuffled together ({spec.size} cards)"


def format_per_10m(value: float) -> str:
    """Expected hands per 10,000,000, readable at every size."""
    if value == 0:
        return "0"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 0.1:
        return f"{value:,.1f}"
    return f"{value:.2g}"


def format_probability(p: Fraction | float) -> str:
    """A probability as a short decimal (scientific when tiny)."""
    x = float(p)
    if x == 1:
        return "1"
    if x >= 0.0001:
        return f"{x:.6f}"
    return f"{x:.3e}"


def one_in(p: Fraction | float) -> str:
    """``1 in N`` odds text."""
    x = float(p)
    if x <= 0:
        return "never"
    n = 1 / x
    if n < 10:
        return f"1 in {n:.2f}"
    return f"1 in {n:,.0f}"


# ---------------------------------------------------------------------------
# Helpers shared with the Monte Carlo cross-check


def hand_has_shape(rank_counts: Iterable[int], width: int, length: int) -> bool:
    """Does a hand with these per-rank counts (rank-line order) hold the shape?"""
    streak = 0
    for c in rank_counts:
        streak = streak + 1 if c >= width else 0
        if streak >= length:
            return True
    return False


def longest_runs(rank_counts: Sequence[int], max_w: int) -> list[int]:
    """``out[w]`` = longest streak of consecutive ranks holding >= w cards
    (index 0 unused), for w = 1..max_w.  A hand holds w x l iff out[w] >= l."""
    out = [0] * (max_w + 1)
    for w in range(1, max_w + 1):
        best = streak = 0
        for c in rank_counts:
            if c >= w:
                streak += 1
                if streak > best:
                    best = streak
            else:
                streak = 0
        out[w] = best
        if best == 0:
            break
    return out


def deal_rank_counts(rng: random.Random, hand_size: int, deck: str = "standard") -> list[int]:
    """Deal one random hand with ``rng`` (a random.Random) -> cards per rank."""
    spec = parse_deck(deck)
    _check_hand_size(hand_size, spec)
    counts = [0] * _NRANKS
    if spec.counts is None:
        for _ in range(hand_size):
            counts[rng.randrange(_NRANKS)] += 1
        return counts
    pool = [r for r, m in enumerate(spec.counts) for _ in range(m)]
    for r in rng.sample(pool, hand_size):
        counts[r] += 1
    return counts
