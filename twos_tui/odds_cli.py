"""``twos-tui odds``: exact chances of every run shape in a dealt hand.

Plain text (no rich needed) or ``--json``.  ``--simulate N --seed S`` deals N
random hands with one ``random.Random(S)`` and adds a Monte Carlo column.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import TextIO

from .engine.odds import (
    PER,
    Row,
    bomb_rule,
    describe_deck,
    format_per_10m,
    format_probability,
    longest_runs,
    odds_table,
    one_in,
    parse_deck,
)

_RANKS = 13
#: the exact table stays quick (about a second at most): hands up to this size for the
#: endless deck and for more than MAX_DECKS_ANY_HAND decks; any hand that fits otherwise
MAX_HAND_LARGE_DECK = 60
MAX_DECKS_ANY_HAND = 8
MAX_DECKS = 1000
#: simulated hands x hand size: a few seconds of dealing at most
MAX_SIMULATED_CARDS = 1_000_000


def check_sizes(hand_size: int, deck: str, simulate_n: int) -> None:
    """Refuse sizes that would keep the answer waiting (ValueError with the limits)."""
    spec = parse_deck(deck)
    if spec.counts is not None and spec.name.startswith("decks:"):
        k = int(spec.name.split(":")[1])
        if k > MAX_DECKS:
            raise ValueError(f"--deck decks:K takes at most {MAX_DECKS} decks (got {k})")
    else:
        k = 1
    if hand_size < 1:
        raise ValueError(f"--hand-size must be at least 1 (got {hand_size})")
    if (spec.counts is None or k > MAX_DECKS_ANY_HAND) and hand_size > MAX_HAND_LARGE_DECK:
        raise ValueError(
            f"--hand-size is at most {MAX_HAND_LARGE_DECK} for {describe_deck(deck)} "
            f"(got {hand_size}); up to {MAX_DECKS_ANY_HAND} decks, any hand that fits"
        )
    if simulate_n < 0:
        raise ValueError("--simulate needs a number of hands >= 0")
    most = max(1, MAX_SIMULATED_CARDS // hand_size)
    if simulate_n > most:
        raise ValueError(
            f"--simulate deals at most {most:,} hands of {hand_size} cards (got {simulate_n:,})"
        )


def simulate(hand_size: int, deck: str, hands: int, seed: int) -> dict[tuple[int, int], int]:
    """Deal ``hands`` random hands; count the hands holding each shape."""
    spec = parse_deck(deck)
    rng = random.Random(seed)
    max_w = hand_size if spec.counts is None else min(max(spec.counts), hand_size)
    # longest[w][l] = hands whose longest streak at width w is exactly l
    longest = [[0] * (_RANKS + 1) for _ in range(max_w + 1)]
    pool = None if spec.counts is None else [r for r, m in enumerate(spec.counts) for _ in range(m)]
    for _ in range(hands):
        counts = [0] * _RANKS
        if pool is None:
            for _ in range(hand_size):
                counts[rng.randrange(_RANKS)] += 1
        else:
            for r in rng.sample(pool, hand_size):
                counts[r] += 1
        runs = longest_runs(counts, max(counts))
        for w in range(1, len(runs)):
            longest[w][runs[w]] += 1
    hits: dict[tuple[int, int], int] = {}
    for w in range(1, max_w + 1):
        at_least = 0
        for ln in range(_RANKS, 0, -1):
            at_least += longest[w][ln]
            hits[(w, ln)] = at_least
    return hits


def _table_text(
    rows: list[Row],
    hand_size: int,
    deck: str,
    hits: dict[tuple[int, int], int] | None,
    hands: int,
    seed: int,
) -> str:
    header = ["shape", "per 10,000,000", "probability", "odds", "bomb"]
    if hits is not None:
        header += ["simulated /10M", "diff (sd)"]
    lines = []
    for r in rows:
        cells = [
            r.label,
            format_per_10m(r.per_10m),
            format_probability(r.probability),
            one_in(r.probability),
            "BOMB" if r.bomb else "",
        ]
        if hits is not None:
            h = hits.get((r.width, r.length), 0)
            p = float(r.probability)
            sd = math.sqrt(hands * p * (1 - p))
            cells.append(format_per_10m(h * PER / hands) if hands else "-")
            cells.append(
                f"{(h - hands * p) / sd:+.2f}"
                if sd > 0
                else ("ok" if h == round(hands * p) else "MISMATCH")
            )
        lines.append(cells)
    widths = [max(len(header[i]), *(len(c[i]) for c in lines)) for i in range(len(header))]
    left = {0, 4}

    def fmt(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(cells)
        ).rstrip()

    out = [
        f"Run shapes in a {hand_size}-card hand, {describe_deck(deck)}: exact odds.",
        "A w x l run is l consecutive ranks (3 ... K A 2, no wrap) holding at least w cards each.",
        "per 10,000,000 = how many of ten million dealt hands are expected to hold the shape.",
        (
            "Rarest first.  BOMB = a Chinese Poker bomb (four of a kind 4x1, with a fifth card)."
            if bomb_rule(deck) == "chinese-poker"
            else "Rarest first.  BOMB = a Twos bomb (multi-run w>=2, l>=3, or four of a kind 4x1)."
        ),
        "",
    ]
    if hits is not None:
        out.insert(
            4,
            f"Simulated column: {hands:,} random hands, seed {seed}; "
            "diff = (simulated - expected) in standard deviations.",
        )
    out.append(fmt(header))
    out.append(fmt(["-" * w for w in widths]))
    out.extend(fmt(c) for c in lines)
    bombs = [r.label for r in rows if r.bomb]
    out.append("")
    if bombs and bomb_rule(deck) == "chinese-poker":
        out.append("The one bomb: " + bombs[0] + " (four of a kind)")
    elif bombs:
        out.append("Bombs, strongest (rarest) first: " + " > ".join(bombs))
    else:
        out.append("No bomb can be dealt in a hand of this size.")
    return "\n".join(out) + "\n"


def run_odds_cli(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Entry point for ``twos-tui odds``; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    simulate_n = getattr(args, "simulate", 0) or 0
    seed = getattr(args, "seed", 1)
    try:
        check_sizes(args.hand_size, args.deck, simulate_n)
        rows = odds_table(args.hand_size, args.deck)
    except ValueError as exc:
        print(f"twos-tui odds: error: {exc}", file=err)
        return 2
    hits = simulate(args.hand_size, args.deck, simulate_n, seed) if simulate_n else None
    if getattr(args, "json", False):
        data = []
        for r in rows:
            d = r.to_json()
            if hits is not None:
                h = hits.get((r.width, r.length), 0)
                d["simulated_hits"] = h
                d["simulated_per_10m"] = h * PER / simulate_n
            data.append(d)
        out.write(json.dumps(data, indent=2) + "\n")
    else:
        out.write(_table_text(rows, args.hand_size, args.deck, hits, simulate_n, seed))
    return 0
