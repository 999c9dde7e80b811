"""A progress bar for long runs on the command line (``arena``, ``bench``, the benchmarks).

The bar is drawn with Rich on **stderr**, never stdout (``--json`` output stays exactly
the JSON), and only when stderr is a terminal (piped or redirected to a file: nothing at
all). It shows what is done out of the total, the rate, the time taken and the time left.
With ``delay`` it appears only once the run has taken that long (a short ``bench`` shows
nothing). It is redrawn from the caller's own updates, at most ten times a second: no
thread of its own, nothing that competes with a timed loop.

    with progress_bar("Playing", "deals") as show:
        for i in range(n):
            ...
            show(i + 1, n)
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

REDRAW_S = 0.1  #: the bar is redrawn at most this often


def on_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a real file
        return False


class ProgressBar:
    """``bar(done, total)``: call it as the work goes; ``close()`` when it ends."""

    def __init__(self, what: str, unit: str, stream: TextIO, delay: float = 0.0) -> None:
        self.what = what
        self.unit = unit
        self.stream = stream
        self.delay = delay
        self.started = time.monotonic()
        self._last = 0.0
        self._progress: Any = None
        self._task: Any = None
        self.shown = False  #: whether the bar was drawn at all

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self._progress is None:
            if done >= total or now - self.started < self.delay:
                return  # (finished before the delay: nothing to show)
            self._start(total)
        elif done < total and now - self._last < REDRAW_S:
            return
        self._last = now
        self._progress.update(self._task, completed=done, total=total)
        self._progress.refresh()

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        unit = self.unit

        class RateColumn(ProgressColumn):
            def render(self, task: Any) -> Text:
                speed = task.speed
                shown = (
                    "–" if speed is None else f"{speed:,.1f}" if speed < 100 else f"{speed:,.0f}"
                )
                return Text(f"{shown} {unit}/s")

        console = Console(file=self.stream, stderr=True, highlight=False)
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            RateColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            auto_refresh=False,  # redrawn from __call__ only: no thread of its own
            redirect_stdout=False,  # stdout (the report, the JSON) is never touched
            redirect_stderr=False,
            speed_estimate_period=30.0,
        )
        self._progress.start()
        # the run so far counts in the rate and the time (it started before the bar did)
        self._task = self._progress.add_task(self.what, total=total, start=True)
        self._progress.tasks[0].start_time -= time.monotonic() - self.started
        self.shown = True

    def close(self) -> None:
        if self._progress is not None:
            self._progress.refresh()
            self._progress.stop()
            self._progress = None


@contextlib.contextmanager
def progress_bar(
    what: str, unit: str, delay: float = 0.0, stream: TextIO | None = None
) -> Iterator[ProgressBar | None]:
    """A :class:`ProgressBar` on ``stream`` (default stderr) if it is a terminal, else
    ``None`` (nothing is drawn). Closed when the block ends, however it ends."""
    out = sys.stderr if stream is None else stream
    if not on_terminal(out):
        yield None
        return
    bar = ProgressBar(what, unit, out, delay)
    try:
        yield bar
    finally:
        bar.close()
