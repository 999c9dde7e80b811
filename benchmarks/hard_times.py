"""Decision times of the climbing games' ``hard`` with its real clock (0.4 s budget).

Seeded deals with ``hard`` in seat 0 and ``normal`` elsewhere; every ``hard`` decision
with more than one legal move is timed on the wall clock and in CPU time of the thread
(the difference is time the process waited for a core: on a busy machine the wall clock
is what the player waits, the CPU time what one free core would need). Also, per game,
the card count (all hands together) at which the search starts solving endgames
exactly, the share of decisions that solved at least one world exactly, and the times of
those decisions::

    python benchmarks/hard_times.py --deals 4 [--level rollouts]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import agent_for  # noqa: E402
from twos_tui.ai.climbing_endgame import EXACT_CARDS  # noqa: E402
from twos_tui.ai.climbing_search import HardClimbingAgent  # noqa: E402
from twos_tui.engine import new_game  # noqa: E402

GAMES = [
    ("twos", 3, {}),
    ("twos", 2, {"hand_size": 20}),
    ("big-two", 4, {}),
    ("big-two-5r", 4, {}),
    ("chinese-poker", 4, {}),
]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def spread(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {}
    return {
        "median": round(pct(xs, 0.5), 3),
        "p95": round(pct(xs, 0.95), 3),
        "max": round(max(xs), 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--level",
        default="hard",
        help="the search timed: hard, or rollouts (the search with the exact endgames; "
        "Twos' hard is the network-guided search, which does not use them)",
    )
    a = ap.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load {load:.2f}", flush=True)
    for variant, players, options in GAMES:
        wall: list[float] = []
        cpu: list[float] = []
        exact_wall: list[float] = []
        exact_cpu: list[float] = []
        for k in range(a.deals):
            g = new_game(variant, players, dict(options), a.seed * 1_000_003 + k)
            hard = agent_for(variant, a.level)
            assert isinstance(hard, HardClimbingAgent)
            normal = agent_for(variant, "normal")
            rng = random.Random(k)
            while not g.deal_over:
                seat = g.to_act()[0]
                legal, d, obs = g.legal_actions(seat), g.decision(seat), g.observation(seat)
                assert d is not None
                if seat == 0 and len(legal) > 1:
                    t, c = time.perf_counter(), time.thread_time()
                    act = hard.choose(obs, legal, d, rng)
                    wall.append(time.perf_counter() - t)
                    cpu.append(time.thread_time() - c)
                    if hard.last.get("exact", 0):
                        exact_wall.append(wall[-1])
                        exact_cpu.append(cpu[-1])
                else:
                    act = normal.choose(obs, legal, d, rng)
                g.apply(seat, act)
        row = {
            "game": f"{variant} ({players})",
            "decisions": len(wall),
            "wall_s": spread(wall),
            "cpu_s": spread(cpu),
            "exact_from_cards": EXACT_CARDS.get((variant, players), 0),
            "exact_decisions": len(exact_wall),
            "exact_share": round(len(exact_wall) / max(1, len(wall)), 3),
            "exact_wall_s": spread(exact_wall),
            "exact_cpu_s": spread(exact_cpu),
        }
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
