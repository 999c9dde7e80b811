"""Issue 19, item 13: every bad command-line value exits 2 with one line (escape codes
never echoed raw); long runs are bounded or show progress."""

from __future__ import annotations

import pytest

from twos_tui.cli import main

BIG = "123456789012345678901234567890"
ESC = "\x1b]2;owned\x07\x1b[2J"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    import twos_tui.ui.app as app_mod

    def boom(*a, **kw):
        raise AssertionError("the app was started")

    monkeypatch.setattr(app_mod, "run_app", boom)
    return tmp_path


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["replay", BIG], "no id"),
        (["export", "log", BIG], "no id"),
        (["export", "log", "-5"], "no id"),
        (["arena", "--variant", "twos", "--seats", "normal", "--players", "0"], "1 to 8"),
        (["arena", "--variant", "twos", "--seats", "normal", "--jobs", "999"], "1 to 256"),
        (["arena", "--variant", "twos", "--seats", "normal", "--deals", BIG], "1 to 10000000"),
        (["odds", "--hand-size", "13", "--simulate", "1000000"], "--simulate"),
        (["serve", "--host", f"evil{ESC}"], "--host"),
        (["serve", "--port", "99999"], "1 to 65535"),
        (["play", f"twos{ESC}"], "invalid choice"),
        (["play", "twos", "--seed", f"1{ESC}"], "not a whole number"),
    ],
)
def test_bad_values_exit_2_with_one_clean_line(argv, needle, capsys):
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert needle in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert "\x1b" not in err and "\x07" not in err


def test_arena_jobs_are_capped_to_the_cores_and_said(capsys, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    argv = ["arena", "--variant", "twos", "--seats", "random,random,random"]
    assert run(argv + ["--deals", "4", "--jobs", "256", "--json"]) == 0
    err = capsys.readouterr().err
    assert "using 2" in err and len(err.strip().splitlines()) == 1
