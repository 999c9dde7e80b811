"""Benchmark: the games through their public API, and the hard AI's search, side by side.

Run:  .venv/bin/python benchmarks/bench_engine_api.py [--vs REF] [--rounds 3]
          [--games 100] [--unit deal|match] [--deals 3] [--decisions 4] [--rollouts 150]
          [--worlds 20] [--section games|playouts] [--variant big-two ...]
          [--clock cpu|wall] [--json]

Two sections, for every game (Big Two, Twos, Big Two five-round, Chinese Poker, 2v1,
Twos trick-taking, each at its default number of players):

* **games/s** — seeded games played with uniformly random legal actions through the
  public protocol only, as the app drives a game: ``new_game``, then each turn
  ``to_act``, the seat's view (``observe(seat)``, the typed view the app reads, in a
  tree that has it; else ``observation(seat)``) and ``legal_actions(seat)`` for the seat to
  act, and ``apply``. With ``--unit deal`` (the default) a game is one deal from a fresh
  ``new_game`` to ``deal_over`` (as ``twos-tui bench`` counts it); with ``--unit match``
  a whole match with the game's default options, ``next_deal`` between deals, to
  ``match_over``.
* **playouts/s** — the ``hard`` AI (``agent_for(variant, "hard", iterations=N)``) asked
  for its move (``choose``) at the first ``--decisions`` searched decisions of
  ``--deals`` seeded deals played at random, each with its own seeded generator, so both
  sides search the same positions with the same draws. ``iterations`` caps what today's
  searches count: in the climbing games *rollouts* (``--rollouts``; one rollout is one
  candidate played out in one sampled deal; the agent reports the number it did in
  ``last["rollouts"]``, fewer than N when all but one candidate are dropped early); in the
  trick games sampled *worlds* (``--worlds``; each world is played out once for every
  candidate still in; the search does exactly N, and the playouts per world are not
  reported). The rate is that count per second spent in ``choose``. Searched decisions:
  ``play`` in the climbing and trick games; in 2v1 ``exchange``, ``discard`` and
  ``follow`` (bids, raises, the lone player's lead, hide and keep come from a plan
  without playouts).

Each tree runs in a subprocess of its own (this file's code, the tree's package) that
stays up for the whole run. With ``--vs REF`` (a git ref, checked out with ``git worktree
add`` in a temporary folder and removed after; or the path of a checkout already there)
the two are INTERLEAVED: per round and per game, one side then the other (the order
swapped every round), so a change of machine load falls on both alike. Round ``k`` plays
the same seeds on both sides and other seeds than round ``k - 1``. Printed per game:
min / median / max of the rounds per side and the ratio (this tree over REF): the median
of the rounds' own ratios (a round's positions are the same on both sides, so its ratio
is free of how hard that round's deals are, which moves the rates themselves), and the
load average at the start and the end. ``--vs HEAD`` on a clean tree is the self-test:
every ratio should come out near 1.0.

Times are CPU seconds of the worker process (``--clock cpu``, the default: on a shared
machine the wall clock also counts the waits for a core) or wall seconds (``--clock
wall``). The default run against a REF takes about 45 s of CPU (3.5 minutes of wall clock
at a load average of 10 on two cores): a quick look; use more ``--rounds``, ``--games``
and ``--deals`` for figures to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vs_tree import load, serve, tree_of  # noqa: E402

#: the games, each at its default number of players, in the order printed
VARIANTS = ("big-two", "twos", "big-two-5r", "chinese-poker", "2v1", "twos-tricks")
CLIMBING = ("twos", "big-two", "big-two-5r", "chinese-poker")
#: the decisions at which each game's hard AI searches with playouts
SEARCHED: dict[str, frozenset[str]] = {
    **{v: frozenset({"play"}) for v in CLIMBING},
    "twos-tricks": frozenset({"play"}),
    "2v1": frozenset({"exchange", "discard", "follow"}),
}
#: a random game that runs this long has a bug: stop rather than spin
MAX_MOVES = 200_000
SECTIONS = ("games", "playouts")


# ---------------------------------------------------------------------------------------
# The worker: runs in its own process with one tree's package first on sys.path


def clock_of(name: str) -> Callable[[], float]:
    return time.process_time if name == "cpu" else time.perf_counter


def play_games(
    variant: str, games: int, seed: int, unit: str, clock: Callable[[], float]
) -> dict[str, Any]:
    """``games`` random games of ``variant`` through the protocol API (see the module
    text); the seconds they took and the actions applied."""
    from twos_tui.engine import new_game

    rng = random.Random(seed)
    moves = 0
    deals = 0
    start = clock()
    for i in range(games):
        g = new_game(variant, seed=seed * 1_000_003 + i)
        while True:
            if g.deal_over:
                deals += 1
                if unit == "deal" or g.match_over:
                    break
                if not g.to_act():
                    g.next_deal()
                    continue
            seat = g.to_act()[0]
            # the app's path: the typed view where the tree has one (since issue 28, built
            # from the JSON-shaped observation), else the observation as the app read it
            look = g.observe if hasattr(g, "observe") else g.observation
            look(seat)
            acts = g.legal_actions(seat)
            g.apply(seat, acts[rng.randrange(len(acts))])
            moves += 1
            if moves > MAX_MOVES * games:
                raise RuntimeError(f"{variant} game {i} (seed {seed}) did not end")
    seconds = clock() - start
    return {"seconds": seconds, "games": games, "deals": deals, "moves": moves}


def search(
    variant: str,
    deals: int,
    decisions: int,
    iterations: int,
    seed: int,
    clock: Callable[[], float],
) -> dict[str, Any]:
    """The hard AI's ``choose`` at the first ``decisions`` searched decisions of each of
    ``deals`` random deals; the seconds spent in ``choose`` and the playouts (see the
    module text for what each game counts)."""
    from twos_tui.ai import agent_for
    from twos_tui.engine import new_game

    hard = agent_for(variant, "hard", iterations=iterations)
    kinds = SEARCHED[variant]
    rng = random.Random(seed)
    seconds = 0.0
    asked = playouts = 0
    for i in range(deals):
        g = new_game(variant, seed=seed * 1_000_003 + i)
        taken = 0
        while not g.deal_over and taken < decisions:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            d = g.decision(seat)
            if d is not None and d.kind in kinds and len(legal) > 1:
                obs = g.observation(seat)
                draws = random.Random(seed * 7919 + asked)
                t = clock()
                hard.choose(obs, legal, d, draws)
                seconds += clock() - t
                asked += 1
                taken += 1
                if variant in CLIMBING:
                    last = getattr(hard, "last", None)
                    if not isinstance(last, dict) or "rollouts" not in last:
                        raise RuntimeError(
                            f"the {variant} hard AI no longer reports last['rollouts']: "
                            "update this benchmark's count of playouts"
                        )
                    playouts += int(last["rollouts"])
                else:
                    playouts += iterations
            g.apply(seat, legal[rng.randrange(len(legal))])
    return {"seconds": seconds, "decisions": asked, "playouts": playouts}


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """One job of a side's worker (:func:`vs_tree.serve`): a game's section for a seed."""
    clock = clock_of(job["clock"])
    if job["section"] == "games":
        return play_games(job["variant"], job["games"], job["seed"], job["unit"], clock)
    return search(
        job["variant"], job["deals"], job["decisions"], job["iterations"], job["seed"], clock
    )


def worker(root: str) -> int:
    return serve(root, run_job)


# ---------------------------------------------------------------------------------------
# The driver


class Side:
    """One tree and its worker process."""

    def __init__(self, name: str, label: str, root: Path) -> None:
        #: "this" or "ref" (the column and the key in --json), and what it is
        self.name = name
        self.label = label
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(root),
        )
        try:
            self.package = str(self._read()["ready"])
        except BaseException:
            self.close()
            raise

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker of {self.label} ({self.root}) stopped")
        out: dict[str, Any] = json.loads(line)
        if "error" in out:
            raise RuntimeError(f"{self.label} ({self.root}): {out['error']}")
        return out

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            with suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def jobs_of(section: str, variant: str, a: argparse.Namespace, seed: int) -> dict[str, Any]:
    job: dict[str, Any] = {"section": section, "variant": variant, "seed": seed, "clock": a.clock}
    if section == "games":
        job.update(games=a.games, unit=a.unit)
    else:
        cap = a.rollouts if variant in CLIMBING else a.worlds
        job.update(deals=a.deals, decisions=a.decisions, iterations=cap)
    return job


def unit_of(section: str, variant: str) -> str:
    if section == "games":
        return "games"
    return "rollouts" if variant in CLIMBING else "worlds"


def rate(section: str, out: dict[str, Any]) -> float:
    work = out["games"] if section == "games" else out["playouts"]
    return float(work) / out["seconds"] if out["seconds"] > 0 else 0.0


def measure(
    sides: list[Side],
    section: str,
    variants: list[str],
    a: argparse.Namespace,
    say: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Round by round and game by game, each side in turn; a row per game."""
    rates: dict[tuple[str, str], list[float]] = {}
    extra: dict[str, dict[str, Any]] = {}
    for v in variants:  # warm up: imports, caches, the learned network, bytecode
        tiny = dict(jobs_of(section, v, a, seed=0), games=1, deals=1, decisions=1)
        for side in sides:
            side.run(tiny)
    for k in range(a.rounds):
        order = sides if k % 2 == 0 else sides[::-1]
        for v in variants:
            for side in order:
                out = side.run(jobs_of(section, v, a, seed=k + 1))
                rates.setdefault((side.name, v), []).append(rate(section, out))
                if side is sides[0]:
                    e = extra.setdefault(v, {"moves": 0, "decisions": 0, "playouts": 0})
                    for key in e:
                        e[key] += out.get(key, 0)
        say(f"  {section}: round {k + 1} of {a.rounds} done")
    rows = []
    for v in variants:
        row: dict[str, Any] = {"variant": v, "unit": unit_of(section, v), **extra[v]}
        for side in sides:
            xs = rates[(side.name, v)]
            row[side.name] = {
                "min": round(min(xs), 1),
                "median": round(statistics.median(xs), 1),
                "max": round(max(xs), 1),
                "all": [round(x, 1) for x in xs],
            }
        if len(sides) == 2:
            pairs = zip(rates[(sides[0].name, v)], rates[(sides[1].name, v)], strict=True)
            ratios = [x / y for x, y in pairs if y > 0]
            row["ratio"] = round(statistics.median(ratios), 3) if ratios else None
            row["ratios"] = [round(r, 3) for r in ratios]
        rows.append(row)
    return rows


def print_rows(section: str, rows: list[dict[str, Any]], sides: list[Side], a: Any) -> None:
    if section == "games":
        title = "games/s"
        what = f"{a.games} random {'deals' if a.unit == 'deal' else 'matches'} a round"
    else:
        title = "the hard AI's playouts/s"
        what = (
            f"{a.decisions} decisions x {a.deals} deals a round, each searching "
            f"{a.rollouts} rollouts (climbing games) or {a.worlds} worlds (2v1, trick-taking)"
        )
    about = f"{title}: {what}; min / median / max of {a.rounds} rounds, {a.clock} clock"
    if len(sides) == 2:
        about += "; ratio: this over ref, the median of the rounds' ratios"
    print("\n" + textwrap.fill(about, 79))
    head = f"{'game':<14}{'unit':>11}" + "".join(f"{s.name:>23}" for s in sides)
    print(head + ("   ratio" if len(sides) == 2 else ""))
    print("-" * len(head + ("   ratio" if len(sides) == 2 else "")))
    for row in rows:
        cells = "".join(
            f"{'{min:,.0f} / {median:,.0f} / {max:,.0f}'.format(**row[s.name]):>23}" for s in sides
        )
        ratio = f"   {row['ratio']:.2f}x" if row.get("ratio") else ""
        print(f"{row['variant']:<14}{row['unit'] + '/s':>11}{cells}{ratio}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--vs", metavar="REF", help="also time this git ref (or checkout folder)")
    ap.add_argument("--rounds", type=int, default=3, help="timed rounds per game (default 3)")
    ap.add_argument("--games", type=int, default=100, help="games a round (default 100)")
    ap.add_argument("--unit", choices=("deal", "match"), default="deal", help="what a game is")
    ap.add_argument("--deals", type=int, default=3, help="deals a round for playouts (3)")
    ap.add_argument("--decisions", type=int, default=4, help="searched decisions a deal (4)")
    ap.add_argument("--rollouts", type=int, default=150, help="hard's cap, climbing games (150)")
    ap.add_argument("--worlds", type=int, default=20, help="hard's cap, trick games (20)")
    ap.add_argument("--section", choices=SECTIONS, action="append", help="default: both")
    ap.add_argument("--variant", choices=VARIANTS, action="append", help="default: all six")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    ap.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        return worker(a.worker)
    for name in ("rounds", "games", "deals", "decisions", "rollouts", "worlds"):
        if getattr(a, name) < 1:
            ap.error(f"--{name} must be at least 1")
    variants = list(dict.fromkeys(a.variant or VARIANTS))
    sections = list(dict.fromkeys(a.section or SECTIONS))

    def say(text: str) -> None:
        if not a.json:
            print(text, file=sys.stderr, flush=True)

    out: dict[str, Any] = {"load_start": load(), "cores": os.cpu_count(), "settings": vars(a)}
    try:
        with tree_of(a.vs, "bench_engine_api") if a.vs else _no_tree() as other:
            sides = [Side("this", "this tree", ROOT)]
            try:
                if other is not None:
                    sides.append(Side("ref", f"--vs {other[1]}", other[0]))
                out["trees"] = {s.name: s.package for s in sides}
                out["ref"] = other[1] if other is not None else None
                if not a.json:
                    print(f"load average (1, 5, 15 min) at the start: {out['load_start']}")
                    for s in sides:
                        print(f"{s.name}: {s.label}, {s.package}")
                for section in sections:
                    rows = measure(sides, section, variants, a, say)
                    out[section] = rows
                    if not a.json:
                        print_rows(section, rows, sides, a)
            finally:
                for s in sides:
                    s.close()
    except RuntimeError as e:  # a worker stopped or said what went wrong
        print(f"bench_engine_api: {e}", file=sys.stderr)
        return 1
    out["load_end"] = load()
    if a.json:
        print(json.dumps(out))
    else:
        print(f"\nload average (1, 5, 15 min) at the end: {out['load_end']}")
    return 0


@contextmanager
def _no_tree() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    raise SystemExit(main())
