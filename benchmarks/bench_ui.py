"""UI benchmark (not a test): command to home screen, and keypress to updated table.

    .venv/bin/python benchmarks/bench_ui.py [--runs 5] [--keys 40] [--json]

* startup: wall time from launching ``python -c`` (a fresh interpreter, like typing the
  command) until the home screen has been composed and painted (headless), median of runs.
* ``--thinking busy|hard``: the same key timing for cursor moves and sorts while an AI
  seat thinks on the table's worker thread the whole time (``busy``: pure-Python CPU
  work that holds the GIL like a 0.4 s search; ``hard``: the ``hard`` agent deciding
  again and again).
* keypress: what a player feels, timed *inside* the app, so the test harness's own waits
  are not counted. The real app runs headless at 80x24 (``App.run_test``) on a seeded
  3-player Twos table where the human is to play; two hooks are added by a subclass used only here:

  - ``on_event``: ``perf_counter()`` when the key event reaches the app (t0, before the
    priority bindings, the focused widget, the bubbling and the screen's binding run);
  - ``_display``: after every screen update the compositor hands to the terminal
    (``Screen._compositor_refresh`` -> ``render_update``), ``perf_counter()`` and, since a
    headless driver writes nothing, the update is first also turned into the terminal
    escape sequence (``render_segments``), the work a real terminal run does there. The
    update is then applied to a cell model of the terminal (character + style per cell)
    whose fingerprint is kept with the time; that bookkeeping is subtracted from later
    timestamps.

  A press is timed from t0 to the update after which the screen showed its final state
  (the state once the app is idle again; every later update left the screen the same):
  handler, state update, autosave, layout, render and compositor, and Textual's frame
  timer (at most one 1/60 s tick per frame). Textual's follow-up frames that repaint the
  same cells (a second layout pass after widgets change size) change nothing the player
  sees and so end nothing; a frame that changes any cell counts. The key is posted to the
  app as a terminal driver does and the benchmark then only sleeps (``SETTLE``), so no
  Pilot round trip (which probes every widget and would compete with the app for the
  CPU) is in or around the figure.
  Keys: cursor move (left/right), select (space), sort toggle (s), Play (Enter on a legal
  selection, which also autosaves) and Pass (p). For Play and Pass each sample is a fresh
  table brought by the engine to a position where the human may play/pass, with the AI
  pause set long so the AI's following turns are not in the figure (in the real game the
  AI waits for the pace chosen, 0.6 s by default, before moving). Median and p90 per key,
  in wall-clock time and in the process's CPU time over the same span (the CPU figure
  leaves out the time other processes held the cores; the load average is printed).
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
from collections.abc import Iterable
from pathlib import Path
from typing import cast

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


def timed_app_class():
    from rich.segment import ControlType, Segment
    from textual import events
    from textual._compositor import ChopsUpdate, InlineUpdate, LayoutUpdate

    from twos_tui.ui import app as app_module
    from twos_tui.ui.app import TwosApp

    class TimedApp(TwosApp):
        """The real app plus a key timestamp and a model of the terminal's screen (see the
        module docstring)."""

        CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))

        def __init__(self, *a, **kw) -> None:
            super().__init__(*a, **kw)
            self.key_at: float | None = None
            self.key_cpu = 0.0
            self.frames: list[tuple[float, int]] = []  #: (time, screen fingerprint)
            self.frame_cpu: list[float] = []  #: process CPU time at each frame
            self.hook_time = 0.0  #: time spent in this hook since the key (subtracted)
            self.cells: list[list[tuple[str, object]]] = []

        async def on_event(self, event: events.Event) -> None:
            if isinstance(event, events.Key) and not event.is_forwarded:
                self.key_at = time.perf_counter()
                self.key_cpu = time.process_time()
                self.frames = []
                self.frame_cpu = []
                self.hook_time = 0.0
            await super().on_event(event)

        def _display(self, screen, renderable) -> None:
            super()._display(screen, renderable)
            if (
                renderable is None
                or self._batch_count
                or not isinstance(renderable, (LayoutUpdate, InlineUpdate, ChopsUpdate))
            ):
                return
            done = time.perf_counter()
            if self.is_headless:  # the work a real terminal run does here
                renderable.render_segments(self.console)
                done = time.perf_counter()
            self.frames.append((done - self.hook_time, self._paint(renderable)))
            self.frame_cpu.append(time.process_time() - self.hook_time)
            self.hook_time += time.perf_counter() - done

        def _paint(self, update: LayoutUpdate | InlineUpdate | ChopsUpdate) -> int:
            """Apply the update to a cell model of the terminal; its fingerprint."""
            w, h = self.size
            if len(self.cells) != h or (self.cells and len(self.cells[0]) != w):
                self.cells = [[(" ", None)] * w for _ in range(h)]
            x = y = 0
            # every update renders to segments only
            segments = cast(
                "Iterable[Segment]", update.__rich_console__(self.console, self.console.options)
            )
            for seg in segments:
                if seg.control:
                    for c in seg.control:
                        if c[0] == ControlType.CURSOR_MOVE_TO and len(c) == 3:
                            x, y = c[1], c[2]
                    continue
                if seg.text == "\n":
                    continue
                row = self.cells[y] if 0 <= y < h else None
                for ch in seg.text:
                    if row is not None and 0 <= x < w:
                        row[x] = (ch, seg.style)
                    x += 1
            return hash(tuple(tuple(r) for r in self.cells))

        def final_frame(self) -> int:
            """Index of the screen update after which the screen showed its final state
            (every later update left it the same)."""
            assert self.key_at is not None and self.frames
            final = self.frames[-1][1]
            at = len(self.frames) - 1
            for i in range(len(self.frames) - 1, -1, -1):
                if self.frames[i][1] != final:
                    break
                at = i
            return at

        def updated_after(self) -> float:
            """Seconds from the key to that screen update (wall clock)."""
            assert self.key_at is not None
            return self.frames[self.final_frame()][0] - self.key_at

        def cpu_after(self) -> float:
            """CPU seconds the process used from the key to that update: the same work
            without the time the machine's other processes took the cores."""
            return self.frame_cpu[self.final_frame()] - self.key_cpu

    return TimedApp


def prepared_session(seed: int, want: str):
    """A 3-player Twos session advanced by the engine (the AI choosing for every seat)
    until the human (seat 0) is to act and ``want`` ("play" or "pass") is legal."""
    from twos_tui.play.session import Session

    for s in range(seed, seed + 50):
        session = Session.start("twos", None, 3, {}, s, autosave=True)
        g = session.game
        for _ in range(200):
            if g.deal_over:
                break
            seats = g.to_act()
            if 0 in seats:
                kinds = {a.kind for a in g.legal_actions(0)}
                decision = g.decision(0)  # (seat 0 is to act: it has one)
                if want in kinds and (want == "pass" or (decision is not None and decision.select)):
                    return session
            seat = seats[0]
            session.game.apply(seat, session.ai_choose(seat))
    raise RuntimeError("no position found")


CHARS = {"space": " ", "enter": "\r", "left": None, "right": None}
SETTLE = 0.25  #: seconds after a key: long after the last screen update


async def bench_keys(count: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    from textual import events

    from twos_tui.engine import Action
    from twos_tui.ui.screens.table import TableScreen

    app = timed_app_class()("twos", 3, 21, ai_pause=3600.0)
    out: dict[str, list[float]] = {"move": [], "select": [], "sort": [], "play": [], "pass": []}
    cpu: dict[str, list[float]] = {k: [] for k in out}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()

        async def timed(kind: str, key: str) -> None:
            # the key arrives as from a terminal driver; then the test just sleeps, so no
            # harness code (the Pilot's idle probing) competes with the app for the CPU
            app.post_message(events.Key(key, CHARS.get(key, key)))
            await asyncio.sleep(SETTLE)
            out[kind].append(app.updated_after())
            cpu[kind].append(app.cpu_after())
            app.key_at = None

        app.start_session(prepared_session(7, "play"))  # a hand the human may select from
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen._decision is not None
        for i in range(count):
            await timed("move", "right" if i % 3 else "left")
            await timed("select", "space")
            await timed("sort", "s")
        for i in range(count):
            for want in ("play", "pass"):
                app.start_session(prepared_session(100 * i + (want == "pass"), want))
                await pilot.pause()
                await pilot.pause()
                s = app.screen
                assert isinstance(s, TableScreen) and s._decision is not None
                if want == "play":
                    g = s.game
                    a = next(x for x in g.legal_actions(0) if x.kind == "play")
                    s.selected = set(a.cards)
                    s._selection_changed()
                    await pilot.pause()
                    assert g.check(0, Action("play", a.cards)) is None
                    before = len(g.history)
                    await timed("play", "enter")
                else:
                    before = len(s.game.history)
                    await timed("pass", "p")
                assert len(s.game.history) > before, want
    return out, cpu


class ThinkingAgent:
    """Keeps an AI seat thinking, on the table's worker thread, until the benchmark stops
    it: ``busy`` burns the CPU in pure Python (what a 0.4 s search does to the GIL);
    ``hard`` runs the real ``hard`` agent's decision over and over."""

    name = "thinking"

    def __init__(self, mode: str, variant: str) -> None:
        import threading

        self.mode = mode
        self.stop = threading.Event()
        self.started = threading.Event()
        self.decisions = 0
        self.inner = None
        if mode == "hard":
            from twos_tui.ai import agent_for

            self.inner = agent_for(variant, "hard")

    def choose(self, obs, legal, decision, rng):
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
    count: int, mode: str
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Cursor moves and sorts while an AI seat thinks (see :class:`ThinkingAgent`)."""
    from textual import events

    from twos_tui.play.session import Session
    from twos_tui.ui.screens.table import TableScreen

    session = Session.start("twos", None, 3, {}, 7, autosave=True)
    g = session.game
    while g.to_act()[0] == 0:  # an AI seat to act; the human's hand on screen
        g.apply(0, g.legal_actions(0)[0])
    agent = ThinkingAgent(mode, "twos")
    session.agent = lambda seat: agent  # type: ignore[method-assign]
    app = timed_app_class()(ai_pause=0.001, session=session)
    out: dict[str, list[float]] = {"move": [], "sort": []}
    cpu: dict[str, list[float]] = {"move": [], "sort": []}
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await pilot.pause()
            if agent.started.is_set():
                break
        assert agent.started.is_set() and isinstance(app.screen, TableScreen)
        await asyncio.sleep(0.2)
        for i in range(count):
            for kind, key in (("move", "right" if i % 3 else "left"), ("sort", "s")):
                app.post_message(events.Key(key, CHARS.get(key, key)))
                await asyncio.sleep(SETTLE)
                out[kind].append(app.updated_after())
                cpu[kind].append(app.cpu_after())
                app.key_at = None
        assert not agent.stop.is_set() and app.screen.ai_busy  # it thought all along
        agent.stop.set()
    return out, cpu


def summary(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
    return {
        "median_ms": round(statistics.median(xs) * 1000, 1),
        "p90_ms": round(p90 * 1000, 1),
        "max_ms": round(xs[-1] * 1000, 1),
        "n": len(xs),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keys", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--thinking",
        choices=("busy", "hard"),
        help="instead: cursor moves and sorts while an AI seat thinks on its worker "
        "thread (busy: a pure-Python CPU loop, the GIL's worst case; hard: the hard agent)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        if args.thinking:
            start = []
            keys, cpu = asyncio.run(bench_thinking(args.keys, args.thinking))
        else:
            start = bench_startup(args.runs)
            keys, cpu = asyncio.run(bench_keys(args.keys))
    result: dict = {"keypress": {k: summary(v) for k, v in keys.items() if v}}
    result["keypress_cpu"] = {k: summary(v) for k, v in cpu.items() if v}
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.thinking:
        result["while_ai_thinks"] = args.thinking
    if start:
        result["startup_s"] = {
            "median": round(statistics.median(start), 3),
            "max": round(max(start), 3),
            "n": len(start),
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        if start:
            s = result["startup_s"]
            print(
                f"command to home screen: median {s['median']:.3f} s, "
                f"max {s['max']:.3f} s ({s['n']} runs)"
            )
        for k, v in result["keypress"].items():
            c = result["keypress_cpu"][k]
            print(
                f"keypress '{k}' to updated table: median {v['median_ms']} ms, "
                f"p90 {v['p90_ms']} ms, max {v['max_ms']} ms ({v['n']} presses); "
                f"CPU median {c['median_ms']} ms"
            )
        print("load average (1, 5, 15 min):", result["load_average"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
