"""The AI strength table of the README: one arena row per game and pairing.

Every row is one ``twos-tui arena`` run (duplicate seat rotation, seeded deals); this
script only lists the rows, runs them one after another and prints a table (and, with
``--out``, one JSON line per row as soon as it is done, so a cut-off run keeps what it
finished). Only the standard library and the package itself are needed, so it runs on a
bare machine with many cores::

    python benchmarks/arena_table.py --jobs 16 --only hard --out rows.jsonl
    python benchmarks/arena_table.py --list

The equivalent single command of a row is printed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.arena import run_arena  # noqa: E402


@dataclass
class Row:
    key: str
    variant: str
    seats: list[str]
    deals: int
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    target: str = ""

    def command(self, seed: int, jobs: int) -> str:
        parts = [f"twos-tui arena --variant {self.variant} --seats {','.join(self.seats)}"]
        if self.players:
            parts.append(f"--players {self.players}")
        for k, v in self.options.items():
            parts.append(f"--option {k}={v}")
        parts.append(f"--deals {self.deals} --seed {seed} --jobs {jobs}")
        return " ".join(parts)


CLIMBING = [
    ("big-two", None, {}, 4, "B2"),
    ("big-two-5r", None, {}, 4, "B2-5r"),
    ("chinese-poker", None, {}, 4, "CP"),
    ("twos", 3, {}, 3, "Twos3"),
    ("twos", 2, {"hand_size": 20}, 2, "Twos2"),
]


def rows(deals_hard: int, deals_fast: int) -> list[Row]:
    out: list[Row] = []
    for variant, players, options, n, label in CLIMBING:
        for me, other in (
            ("hard", "greedy"),
            ("hard", "normal"),
            ("hard", "random"),
            ("normal", "greedy"),
            ("greedy", "normal"),
            ("easy", "greedy"),
            ("normal", "easy"),
        ):
            deals = deals_hard if me == "hard" else deals_fast
            out.append(
                Row(
                    f"{label}:{me}-vs-{other}",
                    variant,
                    [me] + [other] * (n - 1),
                    deals,
                    players,
                    dict(options),
                )
            )
    for variant, n, label in (("2v1", 3, "2v1"), ("twos-tricks", 4, "TT")):
        for me, other in (
            ("hard", "normal"),
            ("hard", "greedy"),
            ("normal", "greedy"),
            ("greedy", "normal"),
            ("easy", "greedy"),
            ("normal", "easy"),
        ):
            deals = deals_hard if me == "hard" else deals_fast
            out.append(Row(f"{label}:{me}-vs-{other}", variant, [me] + [other] * (n - 1), deals))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals-hard", type=int, default=400)
    ap.add_argument("--deals", type=int, default=2000, help="deals of rows without hard")
    ap.add_argument("--only", action="append", help="run rows whose key contains this")
    ap.add_argument("--out", help="append one JSON line per finished row here")
    ap.add_argument("--list", action="store_true", help="print the rows and stop")
    a = ap.parse_args(argv)
    todo = rows(a.deals_hard, a.deals)
    if a.only:
        todo = [r for r in todo if any(s in r.key for s in a.only)]
    if a.list:
        for r in todo:
            print(f"{r.key:<24} {r.command(a.seed, a.jobs)}")
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(todo)} rows, {a.jobs} jobs, {os.cpu_count()} cores, load {load:.2f}")
    for r in todo:
        t0 = time.perf_counter()
        res = run_arena(r.variant, r.seats, r.deals, a.seed, r.players, a.jobs, r.options)
        res["key"] = r.key
        res["command"] = r.command(a.seed, a.jobs)
        me = res["agents"][0]
        d = me["decision_ms"]
        lo, hi = me["win_ci95"]
        extra = ""
        if "coin_share" in me:
            extra = f" coins {me['coin_share']:.1%}"
        if "top_share" in me:
            extra = f" top {me['top_share']:.1%}"
        print(
            f"{r.key:<24} {me['hands']:>5} hands  win {me['win_rate']:.1%} "
            f"[{lo:.1%}–{hi:.1%}] chance {me['chance']:.1%}{extra}  "
            f"ms p50/p95 {d['median']:.1f}/{d['p95']:.1f}  ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        if a.out:
            with open(a.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(res) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
