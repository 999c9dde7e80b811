"""The progress bar of long runs (issue 20 item 3): on stderr when it is a terminal, never
on stdout (``--json`` stays parseable), nothing at all when stderr is not a terminal."""

from __future__ import annotations

import io
import json
import sys

import pytest

from twos_tui import bench as bench_module
from twos_tui.cli import main
from twos_tui.progress import ProgressBar, progress_bar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_terminal_no_bar():
    out = io.StringIO()
    with progress_bar("Playing", "deals", stream=out) as bar:
        assert bar is None
    assert out.getvalue() == ""


def test_the_bar_shows_done_total_rate_and_time_left():
    out = FakeTerminal()
    with progress_bar("Playing", "deals", stream=out) as bar:
        assert isinstance(bar, ProgressBar)
        for i in range(1, 4):
            bar(i, 3)
    text = out.getvalue()
    assert "Playing" in text and "3/3" in text and "deals/s" in text and "left" in text
    assert bar.shown


def test_a_short_run_under_the_delay_shows_nothing():
    out = FakeTerminal()
    with progress_bar("Playing", "deals", delay=60, stream=out) as bar:
        assert bar is not None
        for i in range(1, 50):
            bar(i, 50)
    assert not bar.shown and out.getvalue() == ""


ARENA = ["arena", "--variant", "twos", "--seats", "easy,easy,easy", "--deals", "6", "--json"]
BENCH = ["bench", "--variant", "twos", "--games", "5", "--json"]


@pytest.mark.parametrize("argv", [ARENA, BENCH], ids=["arena", "bench"])
def test_json_on_stdout_bar_on_the_terminal_stderr(argv, capsys, monkeypatch):
    monkeypatch.setattr(bench_module, "BAR_DELAY_S", 0.0)
    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    json.loads(out)  # stdout: the JSON and nothing else
    assert out.count("\n") == 1 and "\x1b" not in out
    assert "Playing" in err.getvalue() and "deals/s" in err.getvalue()


@pytest.mark.parametrize("argv", [ARENA, BENCH], ids=["arena", "bench"])
def test_no_bar_when_stderr_is_not_a_terminal(argv, capsys, monkeypatch):
    monkeypatch.setattr(bench_module, "BAR_DELAY_S", 0.0)
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert captured.err == ""


def test_bench_progress_is_called_per_deal():
    seen: list[tuple[int, int]] = []
    bench_module.bench("twos", games=4, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
