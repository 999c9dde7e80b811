"""UI benchmark (not a test): command to home screen, and key (or AI move) to updated table.

    .venv/bin/python benchmarks/bench_ui.py [--vs REF] [--size 80x24 --size 200x60]
        [--key cursor --key select --key sort --key play --key pass --key ai]
        [--rounds 3] [--keys 10] [--runs 3] [--thinking busy|hard] [--json]

    e.g. the table work against today's main, both sizes, every key:
    .venv/bin/python benchmarks/bench_ui.py --vs 620ba78

* ``--size WxH`` (repeat it; default 80x24 and 200x60): the terminal the app runs in.
* startup (``--runs``, 0 to leave it out): wall time from launching ``python -c`` (a
  fresh interpreter, like typing the command) until the home screen has been composed and
  painted (headless, 80x24), per run; ``benchmarks/bench_start.py`` compares it with a
  bare Textual app.
* keys (``--key``, repeat it; default all six), what a player feels, timed *inside* the
  app so the harness's own waits are not counted, in a real app run headless
  (``App.run_test``) on seeded 3-player Twos tables where the human is seat 0:

  - ``cursor``: a cursor move (right, right, left, ...) in a hand the human may select
    from; ``select``: Space there; ``sort``: the sort toggle (s);
  - ``play``: Enter on a legal one-card lead (which autosaves); ``pass``: p (autosaves).
    Each sample is a fresh table brought by the engine to such a position (for ``play``
    one where every single card may lead, Space picking the card under the cursor), with
    the AI's pace set to "wait until woken" so its following turns are not in the figure;
  - ``ai``: an AI move landing: a fresh table where the AI who plays just before the
    human (seat 2) is to move and the human plays next; the app's AI worker decides as
    in a game (its pace a short 0.05 s). The move is timed from the moment the worker
    hands it to the UI (the agent's ``choose`` returning on the worker thread) to the
    update after which the screen showed it; the pace is then set to "wait until woken"
    so no later AI turn is in the figure.

  Hooks, set on the app *instance* (``timed_app.Probe``; the app is driven only by keys,
  ``app.screen``, ``make_app``, ``start_session``, ``ai_pause`` and the session's public
  API, so the same code runs against any tree):

  - ``on_event``: ``perf_counter()`` when the key event reaches the app (t0, before the
    priority bindings, the focused widget, the bubbling and the screen's binding run);
  - ``_display``: after every screen update the compositor hands to the terminal, the
    update is also turned into the terminal's escape sequence (``render_segments``, which
    a headless driver skips; a real terminal run does it there) and ``perf_counter()`` is
    kept. The update is then applied to a cell model of the terminal (character + style
    per cell) whose fingerprint is kept with the time; that bookkeeping is subtracted from
    later timestamps.

  A sample is timed from t0 to the update after which the screen showed its final state
  (the state once the app is idle again; every later update left the screen the same):
  handler, state update, autosave, layout, render and compositor, and Textual's frame
  timer (at most one 1/60 s tick per frame). Follow-up frames that repaint the same cells
  change nothing the player sees and so end nothing; a frame that changes any cell counts.
  The key is posted to the app as a terminal driver does and the benchmark then only
  sleeps (``SETTLE``), so no Pilot round trip is in or around the figure. Before each
  sample the garbage its set-up left (the engine's search for the position, the table
  before) is collected (``gc.collect()``), so that a full collection of it does not land
  in the figure; one the sample's own work sets off still counts. Each app's first
  sample of each key is a warm-up and is not kept. Figures: p50 and
  p95 (nearest rank) per key and size, in wall-clock time and in the process's CPU time
  over the same span (the CPU figure leaves out the time other processes held the cores).
* ``--thinking busy|hard``: instead, cursor moves and sorts while an AI seat thinks on the
  table's worker thread the whole time (``busy``: pure-Python CPU work that holds the GIL
  like a 0.4 s search; ``hard``: the ``hard`` agent deciding again and again).

Each tree runs in a subprocess of its own (this file's code, the tree's package first on
``sys.path``, a fresh ``TWOS_TUI_HOME``) that stays up for the whole run; each job there
(one key at one size, ``--keys`` samples after a warm-up one) runs in an app of its own.
With ``--vs REF`` (a git ref, checked out with ``git worktree add`` in a temporary folder
and removed after; or the path of a checkout already there) the two are INTERLEAVED: per
round, size and key, one side then the other (the order swapped every round; start-up
runs alternate too), so both sides' samples of a key are seconds apart, and round ``k``
uses the same seeds on both sides. Printed per size and key, in wall-clock and in CPU
time: p50 / p95 per side over every sample of every round, the ratios (this tree over
REF), and the load average at the start and the end. ``--vs HEAD`` on a clean tree is the
self-test: every ratio should come out near 1.0 (on a shared machine the CPU figures
come closer; the wall clock's p95 is what the other processes made of it). Each sample
waits ``SETTLE`` (0.25 s) after its key, so the default run against a REF (3 rounds x 10
samples per key, two sizes) takes about 10 minutes at a load of 2.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timed_app import SETTLE, Probe  # noqa: E402
from vs_tree import load, serve, tree_of  # noqa: E402

KEYS = ("cursor", "select", "sort", "play", "pass", "ai")
SIZES = ("80x24", "200x60")
AI_PACE = 0.05  #: the AI's pace before the timed AI move (the table is drawn by then)

STARTUP_CODE = """
import twos_tui
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen

async def pilot(p):
    while not isinstance(p.app.screen, HomeScreen):
        await p.pause()
    await p.pause()
    p.app.exit(0)

make_app(ai_pause=0).run(headless=True, size=(80, 24), auto_pilot=pilot)
print(twos_tui.__file__)
"""


# ---------------------------------------------------------------------------------------
# The worker: runs in its own process with one tree's package first on sys.path


class GatedAgent:
    """Wraps a seat's agent: its first decision waits until :attr:`go` is set, and the
    moment it hands its move back is kept (``handed``, wall and CPU clocks)."""

    name = "gated"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.asked = threading.Event()
        self.go = threading.Event()
        self.handed: tuple[float, float] | None = None

    def choose(self, obs: Any, legal: Any, decision: Any, rng: Any) -> Any:
        first = not self.asked.is_set()
        self.asked.set()
        if first:
            self.go.wait(120)
        action = self.inner.choose(obs, legal, decision, rng)
        if first:
            self.handed = (time.perf_counter(), time.process_time())
        return action


def position(seed: int, want: str) -> Any:
    """A 3-player Twos session (autosaving) advanced by the engine, the AI choosing for
    every seat, to a position for ``want``: "select" (the human may pick cards), "lead"
    (every single card of the human's may lead), "pass", or "ai" (seat 2, an AI, is to
    move and the human plays next)."""
    from twos_tui.play.session import Session

    def fits(session: Any) -> bool:
        g = session.game
        seats = g.to_act()
        if want == "ai":
            if tuple(seats) != (2,):
                return False
            rng = session.ai_rngs[2]
            state = rng.getstate()
            after = copy.deepcopy(g)
            after.apply(2, session.ai_choose(2))
            rng.setstate(state)
            return not after.deal_over and 0 in after.to_act()
        if 0 not in seats:
            return False
        legal = g.legal_actions(0)
        if want == "pass":
            return any(a.kind == "pass" for a in legal)
        plays = {tuple(a.cards) for a in legal if a.kind == "play"}
        decision = g.decision(0)
        if want == "select":
            return bool(plays) and decision is not None and bool(decision.select)
        hand = g.observe(0).hand
        return len(hand) > 1 and all((c,) in plays for c in hand)

    for s in range(seed, seed + 50):
        session = Session.start("twos", None, 3, {}, s, autosave=True)
        g = session.game
        for _ in range(200):
            if g.deal_over:
                break
            if fits(session):
                return session
            seat = g.to_act()[0]
            g.apply(seat, session.ai_choose(seat))
        session.close()
    raise RuntimeError(f"no position for {want!r} from seed {seed}")


async def wait_for(pilot: Any, what: str, ok: Any, bound: float = 60.0) -> None:
    """Let the app run until ``ok()`` holds (outside any timed span)."""
    end = time.monotonic() + bound
    while not ok():
        if time.monotonic() > end:
            raise RuntimeError(f"timed out waiting for {what}")
        await pilot.pause()


def is_table(screen: Any) -> bool:
    return type(screen).__name__ == "TableScreen" and bool(screen.is_mounted)


async def bench_keys(
    size: tuple[int, int], keys: list[str], count: int, seed: int
) -> dict[str, list[tuple[float, float]]]:
    """``count`` samples of each of ``keys`` at ``size``: (wall, CPU) seconds each."""
    from textual import events

    from twos_tui.ui.app import make_app

    out: dict[str, list[tuple[float, float]]] = {k: [] for k in keys}
    chars = {"space": " ", "enter": "\r", "left": None, "right": None}
    first = position(seed, "select")
    app = make_app(ai_pause=math.inf, session=first)
    probe = Probe(app)
    async with app.run_test(size=size) as pilot:

        async def press(key: str, kind: str | None = None) -> None:
            if kind is not None:
                gc.collect()  # what setting the sample up left is not collected in it
            probe.key_at = None
            app.post_message(events.Key(key, chars.get(key, key)))
            await asyncio.sleep(SETTLE)
            if kind is not None:
                assert probe.key_at is not None, f"the key {key!r} never reached the app"
                took = probe.since(*probe.key_at)
                if took is not None:
                    out[kind].append(took)

        async def table(session: Any) -> None:
            before = app.screen
            app.start_session(session)
            await wait_for(pilot, "the table", lambda: app.screen is not before)
            await wait_for(pilot, "the table", lambda: is_table(app.screen))
            await asyncio.sleep(SETTLE)  # drawn and idle

        await wait_for(pilot, "the first table", lambda: is_table(app.screen))
        await asyncio.sleep(SETTLE)
        # i == -1: a warm-up sample of each (caches, first layouts), not kept
        for i in range(-1, count):
            keep = i >= 0
            if "cursor" in keys:
                await press("left" if i % 3 == 1 else "right", "cursor" if keep else None)
            if "select" in keys:
                await press("space", "select" if keep else None)
            if "sort" in keys:
                await press("s", "sort" if keep else None)
        for i in range(-1, count):
            keep = i >= 0
            for kind, want in (("play", "lead"), ("pass", "pass")):
                if kind not in keys:
                    continue
                session = position(seed * 1000 + 100 * i + (kind == "pass"), want)
                g = session.game
                await table(session)
                before = len(g.history)
                if kind == "play":
                    await press("space")  # the card under the cursor: a legal lead
                await press("enter" if kind == "play" else "p", kind if keep else None)
                assert len(g.history) > before, f"{kind} did not happen"
            if "ai" in keys:
                session = position(seed * 1000 + 100 * i + 50, "ai")
                g = session.game
                gate = GatedAgent(session.agent(2))
                session.agent = lambda seat, gate=gate: gate
                app.ai_pause = AI_PACE
                await table(session)
                before = len(g.history)
                await wait_for(pilot, "the AI's decision", gate.asked.is_set)
                app.ai_pause = math.inf  # no later AI turn in the figure
                await asyncio.sleep(SETTLE)  # "thinking…" drawn
                gc.collect()
                gate.go.set()
                await asyncio.sleep(SETTLE)
                assert gate.handed is not None and len(g.history) > before, "no AI move"
                took = probe.since(*gate.handed)
                if took is not None and keep:
                    out["ai"].append(took)
    return out


class ThinkingAgent:
    """Keeps an AI seat thinking, on the table's worker thread, until the benchmark stops
    it: ``busy`` burns the CPU in pure Python (what a 0.4 s search does to the GIL);
    ``hard`` runs the real ``hard`` agent's decision over and over."""

    name = "thinking"

    def __init__(self, mode: str, variant: str) -> None:
        self.mode = mode
        self.stop = threading.Event()
        self.started = threading.Event()
        self.decisions = 0
        self.inner: Any = None
        if mode == "hard":
            from twos_tui.ai import agent_for

            self.inner = agent_for(variant, "hard")

    def choose(self, obs: Any, legal: Any, decision: Any, rng: Any) -> Any:
        self.started.set()
        while not self.stop.is_set():
            if self.inner is not None:
                self.inner.choose(obs, legal, decision, rng)
            else:
                t = time.perf_counter()
                while time.perf_counter() - t < 0.4 and not self.stop.is_set():
                    sum(i * i for i in range(200))
            self.decisions += 1
        return legal[0]


async def bench_thinking(
    size: tuple[int, int], count: int, mode: str
) -> dict[str, list[tuple[float, float]]]:
    """Cursor moves and sorts while an AI seat thinks (see :class:`ThinkingAgent`)."""
    from textual import events

    from twos_tui.play.session import Session
    from twos_tui.ui.app import make_app

    session = Session.start("twos", None, 3, {}, 7, autosave=True)
    g = session.game
    while g.to_act()[0] == 0:  # an AI seat to act; the human's hand on screen
        g.apply(0, g.legal_actions(0)[0])
    agent = ThinkingAgent(mode, "twos")
    session.agent = lambda seat: agent  # type: ignore[method-assign]
    app = make_app(ai_pause=0.001, session=session)
    probe = Probe(app)
    out: dict[str, list[tuple[float, float]]] = {"cursor": [], "sort": []}
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, "the AI to think", agent.started.is_set)
        await asyncio.sleep(0.2)
        try:
            for i in range(-1, count):  # i == -1: a warm-up, not kept
                for kind, key in (("cursor", "left" if i % 3 == 1 else "right"), ("sort", "s")):
                    gc.collect()
                    probe.key_at = None
                    app.post_message(events.Key(key, None if kind == "cursor" else key))
                    await asyncio.sleep(SETTLE)
                    took = probe.since(*probe.key_at) if probe.key_at else None
                    if took is not None and i >= 0:
                        out[kind].append(took)
            assert not agent.stop.is_set() and agent.started.is_set()  # it thought all along
        finally:
            agent.stop.set()
    return out


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """One job of a side's worker (:func:`vs_tree.serve`): a key's samples at a size."""
    size = tuple(job["size"])
    # what earlier jobs left alive (modules, caches) out of the collector's way, as in
    # a fresh app: the per-sample collections then scan this job's objects only
    gc.collect()
    gc.freeze()
    if job.get("thinking"):
        got = asyncio.run(bench_thinking(size, job["count"], job["thinking"]))
    else:
        got = asyncio.run(bench_keys(size, job["keys"], job["count"], job["seed"]))
    return {"samples": got}


def worker(root: str) -> int:
    return serve(root, run_job)


# ---------------------------------------------------------------------------------------
# The driver


class Side:
    """One tree, its worker process and its data folder."""

    def __init__(self, name: str, label: str, root: Path) -> None:
        self.name = name  #: "this" or "ref"
        self.label = label
        self.root = root
        self.home = tempfile.mkdtemp(prefix=f"twos-bench-ui-{name}-")
        self.env = dict(os.environ, TWOS_TUI_HOME=self.home)
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(root),
            env=self.env,
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

    def run(self, job: dict[str, Any]) -> dict[str, list[list[float]]]:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        return cast("dict[str, list[list[float]]]", self._read()["samples"])

    def startup(self) -> float:
        """One start to the home screen, in a fresh interpreter, this tree's package."""
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", STARTUP_CODE],
            cwd=str(self.root),
            env=self.env,
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - t0
        if done.returncode != 0:
            raise RuntimeError(f"{self.label}: the start failed: {done.stderr[-500:]}")
        where = Path(done.stdout.strip().splitlines()[-1]).resolve()
        if not where.is_relative_to(self.root.resolve()):
            raise RuntimeError(f"{self.label}: the start used {where}, not {self.root}")
        return took

    def close(self) -> None:
        if self.proc.stdin is not None:
            with suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.home, ignore_errors=True)


def pct(xs: list[float], p: float) -> float:
    """The ``p`` percentile (nearest rank) of ``xs``, in ms."""
    xs = sorted(xs)
    return round(xs[max(0, math.ceil(p / 100 * len(xs)) - 1)] * 1000, 2)


def stats(samples: list[list[float]]) -> dict[str, Any]:
    wall = [s[0] for s in samples]
    cpu = [s[1] for s in samples]
    if not wall:
        return {"n": 0}
    return {
        "p50_ms": pct(wall, 50),
        "p95_ms": pct(wall, 95),
        "cpu_p50_ms": pct(cpu, 50),
        "cpu_p95_ms": pct(cpu, 95),
        "n": len(wall),
    }


def measure(sides: list[Side], a: argparse.Namespace, say: Any) -> dict[str, Any]:
    """Round by round and size by size, each side in turn; figures per size and key."""
    samples: dict[tuple[str, str, str], list[list[float]]] = {}
    startup: dict[str, list[float]] = {s.name: [] for s in sides}
    if a.runs and not a.thinking:
        for side in sides:  # warm-up: bytecode and the page cache
            side.startup()
        for k in range(a.runs):
            for side in sides if k % 2 == 0 else sides[::-1]:
                startup[side.name].append(side.startup())
        say(f"  start-up: {a.runs} runs a side done")
    # one job per round, size and key (the thinking mode: per round and size), each side
    # in turn, so the two sides' samples of a key are seconds apart, not minutes
    groups: list[list[str] | None] = [None] if a.thinking else [[k] for k in a.key]
    for k in range(a.rounds):
        order = sides if k % 2 == 0 else sides[::-1]
        for size in a.size:
            w, h = (int(x) for x in size.split("x"))
            for group in groups:
                job: dict[str, Any] = {"size": [w, h], "count": a.keys, "seed": k + 1}
                if group is None:
                    job["thinking"] = a.thinking
                else:
                    job["keys"] = group
                for side in order:
                    for key, got in side.run(job).items():
                        samples.setdefault((side.name, size, key), []).extend(got)
            say(f"  round {k + 1} of {a.rounds}, {size} done")
    keys = ["cursor", "sort"] if a.thinking else a.key
    rows = []
    for size in a.size:
        for key in keys:
            row: dict[str, Any] = {"size": size, "key": key}
            for side in sides:
                row[side.name] = stats(samples.get((side.name, size, key), []))
            if len(sides) == 2 and row["this"]["n"] and row["ref"]["n"]:
                for p in ("p50", "p95", "cpu_p50", "cpu_p95"):
                    row[f"ratio_{p}"] = round(row["this"][f"{p}_ms"] / row["ref"][f"{p}_ms"], 2)
            rows.append(row)
    out: dict[str, Any] = {"rows": rows}
    if any(startup.values()):
        out["startup_s"] = {
            n: {"median": round(statistics.median(xs), 3), "max": round(max(xs), 3), "n": len(xs)}
            for n, xs in startup.items()
        }
    return out


LABELS = {
    "cursor": "cursor (←/→)",
    "select": "select (Space)",
    "sort": "sort (s)",
    "play": "play (Enter)",
    "pass": "pass (p)",
    "ai": "AI move lands",
}


def print_rows(out: dict[str, Any], sides: list[Side], a: argparse.Namespace) -> None:
    for name, s in out.get("startup_s", {}).items():
        print(
            f"command to home screen ({name}): median {s['median']:.3f} s, "
            f"max {s['max']:.3f} s ({s['n']} runs)"
        )
    what = f"while an AI seat thinks ({a.thinking})" if a.thinking else "key (or AI move)"
    for clock, pre in (("wall clock", ""), ("CPU time of the app's process", "cpu_")):
        about = (
            f"{what} to the screen updated, {clock}, ms: p50 and p95 over {a.rounds} rounds x "
            f"{a.keys} samples"
        )
        if len(sides) == 2:
            about += "; ratios: this over ref"
        print("\n" + textwrap.fill(about, 79))
        head = f"{'size':<7}{'key':<15}" + "".join(f"{s.name:>18}" for s in sides)
        head += "   ratio p50 / p95" if len(sides) == 2 else ""
        print(head)
        print("-" * len(head))
        for row in out["rows"]:
            cells = ""
            for s in sides:
                f = row[s.name]
                text = f"{f[pre + 'p50_ms']:.1f} / {f[pre + 'p95_ms']:.1f}" if f["n"] else "-"
                cells += f"{text:>18}"
            ratio = ""
            if f"ratio_{pre}p50" in row:
                ratio = f"   {row[f'ratio_{pre}p50']:.2f}x / {row[f'ratio_{pre}p95']:.2f}x"
            print(f"{row['size']:<7}{LABELS[row['key']]:<15}{cells}{ratio}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--vs", metavar="REF", help="also time this git ref (or checkout folder)")
    ap.add_argument("--size", action="append", metavar="WxH", help="default: 80x24 and 200x60")
    ap.add_argument("--key", choices=KEYS, action="append", help="default: all six")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, sides interleaved (3)")
    ap.add_argument("--keys", type=int, default=10, help="samples per key, size and round (10)")
    ap.add_argument("--runs", type=int, default=3, help="start-up runs a side (3; 0: none)")
    ap.add_argument(
        "--thinking",
        choices=("busy", "hard"),
        help="instead: cursor moves and sorts while an AI seat thinks on its worker "
        "thread (busy: a pure-Python CPU loop, the GIL's worst case; hard: the hard agent)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    ap.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        return worker(a.worker)
    a.size = list(dict.fromkeys(a.size or SIZES))
    for size in a.size:
        parts = size.split("x")
        if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
            ap.error(f"--size {size!r}: give it as WIDTHxHEIGHT, e.g. 80x24")
    a.key = list(dict.fromkeys(a.key or KEYS))
    if a.rounds < 1 or a.keys < 1 or a.runs < 0:
        ap.error("--rounds and --keys must be at least 1, --runs at least 0")

    def say(text: str) -> None:
        if not a.json:
            print(text, file=sys.stderr, flush=True)

    out: dict[str, Any] = {"load_start": load(), "cores": os.cpu_count(), "settings": vars(a)}
    out["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        with tree_of(a.vs, "bench_ui") if a.vs else _no_tree() as other:
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
                out.update(measure(sides, a, say))
            finally:
                for s in sides:
                    s.close()
    except RuntimeError as e:  # a worker stopped or said what went wrong
        print(f"bench_ui: {e}", file=sys.stderr)
        return 1
    out["load_end"] = load()
    if a.json:
        print(json.dumps(out))
    else:
        print_rows(out, sides, a)
        print(f"\nload average (1, 5, 15 min) at the end: {out['load_end']}")
        print(f"started {out['date']}")
    return 0


@contextmanager
def _no_tree() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    raise SystemExit(main())
