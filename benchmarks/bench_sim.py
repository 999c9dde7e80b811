"""Benchmark: random deals on the fast simulation path against the game protocol.

Run:  .venv/bin/python benchmarks/bench_sim.py [--games 2000] [--rounds 5] [--json]
          [--variant twos:3 --variant big-two ...]

Both sides play the same kind of game: one deal from a fresh random deal, every move
chosen uniformly among the legal moves with one seeded generator, until someone is out.

* protocol: exactly ``twos-tui bench --variant V --games G --seed 1`` (``bench.bench``):
  ``new_game`` + ``legal_actions`` + ``apply``;
* sim: ``rules.deal(rng)`` + ``SimState.legal`` + ``SimState.play``.

The two are measured interleaved (protocol, sim, protocol, sim, ...) in one process,
``--rounds`` times each, so a change of machine load hits both alike; round ``k`` uses
seed ``k`` on both sides (round 1 is the command above), so neither side replays deals
whose hands it has cached. Printed: the median games/s of each, the ratio of the
medians and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from twos_tui.bench import bench  # noqa: E402
from twos_tui.engine import variant_class  # noqa: E402
from twos_tui.engine.climbing.rules import rules_for  # noqa: E402
from twos_tui.progress import progress_bar  # noqa: E402

DEFAULT_VARIANTS = ("twos:3", "twos:2", "big-two:4", "big-two-5r:4", "chinese-poker:4")


def sim_rate(variant: str, players: int, games: int, seed: int = 1) -> float:
    """Random deals a second on the sim path."""
    rules = rules_for(variant, players)
    rng = random.Random(seed)
    rnd = rng.randrange
    start = time.perf_counter()
    for _ in range(games):
        s = rules.deal(rng)
        while s.winner < 0:
            moves = s.legal()
            s.play(moves[rnd(len(moves))])
    return games / (time.perf_counter() - start)


def protocol_rate(variant: str, players: int, games: int, seed: int = 1) -> float:
    return bench(variant, players, games, seed)["games_per_s"]


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def measure(variant: str, players: int, games: int, rounds: int, bar: Any = None) -> dict:
    proto, sim = [], []
    for k in range(rounds):
        # round k plays seed k + 1 on both sides: no side replays deals it has cached
        proto.append(protocol_rate(variant, players, games, seed=k + 1))
        sim.append(sim_rate(variant, players, games, seed=k + 1))
        if bar is not None:  # (between the timed runs, never inside one)
            bar(k + 1, rounds)
    p, s = statistics.median(proto), statistics.median(sim)
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "rounds": rounds,
        "protocol_games_per_s": round(p, 1),
        "sim_games_per_s": round(s, 1),
        "ratio": round(s / p, 2),
        "protocol_all": [round(x, 1) for x in proto],
        "sim_all": [round(x, 1) for x in sim],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--variant", action="append", help="VARIANT[:PLAYERS], repeatable (default: all four)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {"load_before": load(), "rows": []}
    for item in args.variant or DEFAULT_VARIANTS:
        v, _, p = item.partition(":")
        players = int(p) if p else variant_class(v).default_players
        with progress_bar(f"{v} {players}p", "rounds") as bar:  # stderr, a terminal only
            row = measure(v, players, args.games, args.rounds, bar)
        out["rows"].append(row)
        if not args.json:
            print(
                f"{v:<14} {players}p  protocol {row['protocol_games_per_s']:>8.1f} games/s   "
                f"sim {row['sim_games_per_s']:>8.1f} games/s   ratio {row['ratio']:.2f}x",
                flush=True,
            )
    out["load_after"] = load()
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"load average (1, 5, 15 min): before {out['load_before']}, after {out['load_after']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
