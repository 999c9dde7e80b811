"""``hard`` with and without its exact endgames, on the same seeded deals.

Plays the arena's own deals (``twos-tui arena --seed S``: the same deal seeds and seat
rotations, through :func:`twos_tui.arena.play_deal`) twice, once with the exact
endgame solver of the hard search switched off and once on, with the search in the
first seat of the rotation (``hard``; in Twos, whose ``hard`` is the network-guided
search, which does not use the solver, ``rollouts``) and the given agents in the
others, and reports per arm the search's
win rate and mean score (penalty points a deal in the penalty games, deals won's score
change in Twos), and the paired differences (on - off) with 95% intervals::

    python benchmarks/endgame_paired.py --variant big-two --seats hard,normal,normal,normal \
        --deals 200 --hard-iterations 400
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import climbing_search  # noqa: E402
from twos_tui.arena import SEED_STRIDE, AgentKw, play_deal  # noqa: E402
from twos_tui.engine import variant_class  # noqa: E402
from twos_tui.engine.climbing.rules import rules_for  # noqa: E402


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return round(m, 4), round(m - half, 4), round(m + half, 4)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--seats", required=True)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hard-iterations", type=int, default=400)
    a = ap.parse_args(argv)
    seats = a.seats.split(",")
    players = len(seats)
    me_name = seats[0]  # the search under test: hard, or rollouts (Twos' hard is guided)
    assert me_name not in seats[1:]
    cls = variant_class(a.variant)
    assert players in cls.player_counts
    kw: dict[str, AgentKw] = {me_name: {"iterations": a.hard_iterations}}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    start = time.perf_counter()
    win: dict[bool, list[float]] = {False: [], True: []}
    score: dict[bool, list[float]] = {False: [], True: []}
    penalty = None
    groups = -(-a.deals // players)
    for k in range(groups):
        deal_seed = a.seed * SEED_STRIDE + k
        for rot in range(players):
            specs = [seats[(i - rot) % players] for i in range(players)]
            me = specs.index(me_name)
            for on in (False, True):
                climbing_search.EXACT = on
                out = play_deal(a.variant, players, specs, deal_seed, None, kw)
                win[on].append(1.0 if me in out["winners"] else 0.0)
                score[on].append(float(out["changes"][me]))
            if penalty is None:
                penalty = rules_for(a.variant, players, {}).penalty(13) is not None
    climbing_search.EXACT = True
    hands = len(win[True])
    pairs = zip(win[True], score[True], win[False], score[False], strict=True)
    changed = sum(1 for w1, s1, w0, s0 in pairs if (w1, s1) != (w0, s0))
    row = {
        "variant": a.variant,
        "seats": a.seats,
        "hands": hands,
        "hard_iterations": a.hard_iterations,
        "score": "penalty a deal (lower is better)" if penalty else "score change a deal",
        "off": {"win_rate": mean_ci(win[False]), "avg_score": mean_ci(score[False])},
        "on": {"win_rate": mean_ci(win[True]), "avg_score": mean_ci(score[True])},
        "on_minus_off": {
            "win_rate": mean_ci([x - y for x, y in zip(win[True], win[False], strict=True)]),
            "avg_score": mean_ci([x - y for x, y in zip(score[True], score[False], strict=True)]),
        },
        "hands_that_differ": changed,
        "seconds": round(time.perf_counter() - start, 1),
        "load_at_start": round(load, 2),
    }
    print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
