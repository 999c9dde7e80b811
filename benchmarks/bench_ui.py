"""UI benchmark (not a test): command to home screen, and keypress to updated table.

    .venv/bin/python benchmarks/bench_ui.py [--runs 5] [--keys 60] [--json]

* startup: wall time from launching ``python -c`` (a fresh interpreter, like typing the
  command) until the home screen has been composed and painted (headless), median of runs;
* keypress: in-process, for the table of a seeded Twos game at 80x24, the time from
  sending a key (cursor move, select, sort) until the app is idle again with the table
  redrawn, and for Enter on a legal play (the AI pause is long, so only the human's play
  is measured). Median and worst. The Pilot's own round trip (waiting for the app to be
  idle) is in every figure: the "baseline" line presses a key nothing is bound to, so the
  app's own work is roughly each figure minus the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

STARTUP_CODE = """
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen

async def pilot(p):
    while not isinstance(p.app.screen, HomeScreen):
        await p.pause()
    await p.pause()
    p.app.exit(0)

make_app(ai_pause=0).run(headless=True, size=(80, 24), auto_pilot=pilot)
"""


def bench_startup(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", STARTUP_CODE], check=True)
        times.append(time.perf_counter() - t0)
    return times


async def bench_keys(count: int) -> dict[str, list[float]]:
    from twos_tui.engine import Action
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.table import TableScreen

    app = make_app("twos", seed=21, ai_pause=30.0)
    out: dict[str, list[float]] = {"baseline (unbound key)": [], "move": [], "select": [],
                                   "sort": [], "play": []}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)

        async def timed(kind: str, key: str) -> None:
            t0 = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            out[kind].append(time.perf_counter() - t0)

        for i in range(count):
            await timed("baseline (unbound key)", "x")
            await timed("move", "right" if i % 3 else "left")
            await timed("select", "space")
            if i % 6 == 0:
                await timed("sort", "s")
        # plays: a fresh seeded table each time, the human leads the first legal play
        for seed in range(max(3, count // 10)):
            app.pop_screen()
            from twos_tui.ui.session import Session
            session = Session.start("twos", None, 3, {}, seed, autosave=True)
            app.push_screen(TableScreen(session))
            await pilot.pause()
            s = app.screen
            if s._decision is None:
                continue
            g = s.game
            a = next(x for x in g.legal_actions(s.viewer) if x.kind == "play")
            s.selected = set(a.cards)
            s._selection_changed()
            await pilot.pause()
            assert g.check(s.viewer, Action("play", a.cards)) is None
            t0 = time.perf_counter()
            await pilot.press("enter")
            await pilot.pause()
            out["play"].append(time.perf_counter() - t0)
    return out


def summary(xs: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(xs) * 1000, 1),
            "max_ms": round(max(xs) * 1000, 1), "n": len(xs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keys", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        start = bench_startup(args.runs)
        keys = asyncio.run(bench_keys(args.keys))
    result = {"startup_s": {"median": round(statistics.median(start), 3),
                            "max": round(max(start), 3), "n": len(start)},
              "keypress": {k: summary(v) for k, v in keys.items() if v}}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        s = result["startup_s"]
        print(f"command to home screen: median {s['median']:.3f} s, max {s['max']:.3f} s "
              f"({s['n']} runs)")
        for k, v in result["keypress"].items():
            print(f"keypress '{k}' to updated table: median {v['median_ms']} ms, "
                  f"max {v['max_ms']} ms ({v['n']} presses)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
