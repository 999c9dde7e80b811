"""``twos-tui bench``: play random deals through the game protocol and time the engine.

Each *game* is one deal from a fresh ``new_game(variant, players, seed=...)``, played by
choosing uniformly among ``legal_actions`` with one seeded generator until the deal is
over. Printed: games/s, moves/s and the median microseconds of one ``legal_actions``
call (the enumeration), all measured on one core in this process.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import TypedDict

from .engine import new_game, variant_class

MAX_MOVES_PER_DEAL = 20_000


class BenchReport(TypedDict):
    """A run's figures (what ``--json`` prints)."""

    variant: str
    players: int
    games: int
    seed: int
    seconds: float
    games_per_s: float
    moves_per_s: float
    enum_us_median: float  #: one ``legal_actions`` call's median, in microseconds


#: ``bench`` shows its progress bar only once a run has taken this long
BAR_DELAY_S = 2.0


def bench(
    variant: str,
    players: int | None = None,
    games: int = 1000,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> BenchReport:
    """Time ``games`` random deals; ``progress(done, games)`` after each deal."""
    cls = variant_class(variant)
    if players is None:
        players = cls.default_players
    if players not in cls.player_counts:
        counts = ", ".join(map(str, cls.player_counts))
        raise ValueError(f"{cls.name} is for {counts} players, not {players}")
    if type(games) is not int or games < 1:
        raise ValueError(f"--games must be at least 1 (got {games})")
    rng = random.Random(seed)
    enum_ns: list[int] = []
    moves = 0
    clock = time.perf_counter_ns
    start = clock()
    for i in range(games):
        g = new_game(variant, players, seed=seed * 1_000_003 + i)
        n = 0
        while not g.deal_over:
            seat = g.to_act()[0]
            t = clock()
            acts = g.legal_actions(seat)
            enum_ns.append(clock() - t)
            g.apply(seat, acts[rng.randrange(len(acts))])
            n += 1
            if n > MAX_MOVES_PER_DEAL:
                raise RuntimeError(f"{variant} deal {i} did not end after {n} moves")
        moves += n
        if progress is not None:
            progress(i + 1, games)
    elapsed = (clock() - start) / 1e9
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "seed": seed,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "enum_us_median": round(statistics.median(enum_ns) / 1000, 2) if enum_ns else 0.0,
    }


def run_bench_cli(args: argparse.Namespace) -> int:
    from .progress import progress_bar

    try:
        # the bar (stderr, a terminal only) appears once a run takes over BAR_DELAY_S
        with progress_bar("Playing", "deals", delay=BAR_DELAY_S) as bar:
            r = bench(args.variant, args.players, args.games, args.seed, progress=bar)
    except ValueError as e:
        print(f"twos-tui bench: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
    else:
        print(
            f"{r['variant']} ({r['players']} players), {r['games']} random deals, seed {r['seed']}"
        )
        print(f"  games/s        {r['games_per_s']:>12,.1f}")
        print(f"  moves/s        {r['moves_per_s']:>12,.1f}")
        print(f"  enum µs median {r['enum_us_median']:>12,.2f}")
        print(f"  total seconds  {r['seconds']:>12,.3f}")
    return 0
