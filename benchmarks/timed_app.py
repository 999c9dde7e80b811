"""Timing a key inside the app, for the UI benchmarks (not a test; see ``bench_ui.py``'s
text for the method): :class:`Probe` sets the hooks on an app instance (what
``bench_ui.py`` uses, so that one driver runs against any tree), and
:func:`timed_app_class` is the same method as an app subclass (``bench_history.py``)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

SETTLE = 0.25  #: seconds after a key: long after the last screen update


@dataclass
class Frame:
    at: float  #: perf_counter() once the update was turned into the terminal's sequence
    cpu: float  #: process_time() then
    hook: float  #: wall seconds this benchmark's bookkeeping took after it
    hook_cpu: float  #: and CPU seconds
    screen: int  #: fingerprint of the modelled terminal after it


class Probe:
    """Hooks on one app instance (see the module text): key times, and every screen
    update with the fingerprint of a cell model of the terminal."""

    def __init__(self, app: Any) -> None:
        from rich.segment import ControlType, Segment
        from textual import events
        from textual._compositor import ChopsUpdate, InlineUpdate, LayoutUpdate

        self.app = app
        self.key_at: tuple[float, float] | None = None  #: (wall, CPU) of the last key
        self.frames: list[Frame] = []
        self.cells: list[list[tuple[str, object]]] = []
        updates = (LayoutUpdate, InlineUpdate, ChopsUpdate)
        display = app._display
        on_event = app.on_event

        async def timed_event(event: Any) -> None:
            if isinstance(event, events.Key) and not event.is_forwarded:
                self.key_at = (time.perf_counter(), time.process_time())
            await on_event(event)

        def timed_display(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is None or app._batch_count or not isinstance(renderable, updates):
                return
            if app.is_headless:  # the work a real terminal run does here
                renderable.render_segments(app.console)
            at, cpu = time.perf_counter(), time.process_time()
            fingerprint = self.paint(renderable, Segment, ControlType)
            self.frames.append(
                Frame(at, cpu, time.perf_counter() - at, time.process_time() - cpu, fingerprint)
            )

        app.on_event = timed_event
        app._display = timed_display

    def paint(self, update: Any, segment: Any, control: Any) -> int:
        """Apply the update to a cell model of the terminal; its fingerprint."""
        w, h = self.app.size
        if len(self.cells) != h or (self.cells and len(self.cells[0]) != w):
            self.cells = [[(" ", None)] * w for _ in range(h)]
        x = y = 0
        console = self.app.console
        for seg in cast("Iterable[Any]", update.__rich_console__(console, console.options)):
            assert isinstance(seg, segment)
            if seg.control:
                for c in seg.control:
                    if c[0] == control.CURSOR_MOVE_TO and len(c) == 3:
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

    def since(self, t0: float, cpu0: float) -> tuple[float, float] | None:
        """(wall, CPU) seconds from ``t0`` to the update after which the screen showed its
        final state (every later update left it the same), this benchmark's bookkeeping
        in between left out; None when nothing was drawn after ``t0``."""
        frames = [f for f in self.frames if f.at >= t0]
        if not frames:
            return None
        at = len(frames) - 1
        while at > 0 and frames[at - 1].screen == frames[-1].screen:
            at -= 1
        hook = sum(f.hook for f in frames[:at])
        hook_cpu = sum(f.hook_cpu for f in frames[:at])
        return frames[at].at - t0 - hook, frames[at].cpu - cpu0 - hook_cpu


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


def summary(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
    return {
        "median_ms": round(statistics.median(xs) * 1000, 1),
        "p90_ms": round(p90 * 1000, 1),
        "max_ms": round(xs[-1] * 1000, 1),
        "n": len(xs),
    }
