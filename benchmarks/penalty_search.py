"""Hard's objective, measured paired: the same seeded deals played by ``hard`` against
three (or two) ``normal``, once with the search playing for the match's penalty points
(today's ``hard``) and once playing for the deal won plus the cards shed (as it did
before issue 33), with the arena's figures for each: win rate, mean penalty a deal,
share of hands ended with 10+ and 11+ cards, and the paired comparison of ``hard`` with
``normal`` on the same hands. Hard's search stops after a fixed number of rollouts
(``--iterations``), so a run is reproducible whatever the machine's load::

    python benchmarks/penalty_search.py --variant big-two --deals 700 --jobs 2

``--objective`` picks which to run (both by default); ``--json`` prints the two reports.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.arena import AgentKw, ArenaReport, format_report, run_arena  # noqa: E402

OBJECTIVES = ("penalty", "deal")


def run(
    variant: str, deals: int, seed: int, iterations: int, jobs: int, objective: str
) -> ArenaReport:
    from twos_tui.engine import variant_class

    players = variant_class(variant).default_players
    seats = ["hard"] + ["normal"] * (players - 1)
    kw: AgentKw = {"iterations": iterations, "play_for_penalty": objective == "penalty"}
    return run_arena(variant, seats, deals, seed, players, jobs, None, {"hard": kw})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="big-two")
    ap.add_argument("--deals", type=int, default=700)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=600, help="hard's rollouts a decision")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--objective", choices=OBJECTIVES, action="append")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    reports = {}
    for objective in a.objective or OBJECTIVES:
        t = time.perf_counter()
        r = run(a.variant, a.deals, a.seed, a.iterations, a.jobs, objective)
        reports[objective] = r
        if not a.json:
            print(f"== hard playing for the {objective} ({time.perf_counter() - t:.0f} s) ==")
            print(format_report(r))
            print(flush=True)
    if a.json:
        print(json.dumps(reports))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
