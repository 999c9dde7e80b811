"""Snapshot tests (pytest-textual-snapshot): home, picker, a table of each variant family,
the 2v1 table and help, at 80x24, from seeded games with the AI pause at zero."""

from __future__ import annotations

import pytest

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.table import TableScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


async def wait_for_human(pilot) -> None:
    """Let the AI seats play until the human seat is asked something."""
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, TableScreen) and screen._decision is not None and not screen.ai_busy:
            break
    await pilot.pause()


def test_snapshot_home(snap_compare):
    assert snap_compare(make_app(ai_pause=0), terminal_size=SIZE)


def test_snapshot_picker(snap_compare):
    assert snap_compare(make_app(ai_pause=0), press=["n"], terminal_size=SIZE)


def test_snapshot_climbing_table(snap_compare):
    assert snap_compare(
        make_app("big-two", seed=12, ai_pause=0), terminal_size=SIZE, run_before=wait_for_human
    )


def test_snapshot_twos_table_selection(snap_compare):
    async def run_before(pilot):
        await wait_for_human(pilot)
        await pilot.press("right", "space", "right", "right", "space")
        await pilot.pause()

    assert snap_compare(
        make_app("twos", seed=3, ai_pause=0), terminal_size=SIZE, run_before=run_before
    )


def test_snapshot_trick_table(snap_compare):
    assert snap_compare(
        make_app("twos-tricks", seed=12, ai_pause=0), terminal_size=SIZE, run_before=wait_for_human
    )


def test_snapshot_2v1_table(snap_compare):
    assert snap_compare(
        make_app("2v1", seed=12, ai_pause=0), terminal_size=SIZE, run_before=wait_for_human
    )


def test_snapshot_help(snap_compare):
    async def run_before(pilot):
        await wait_for_human(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(
        make_app("big-two", seed=12, ai_pause=0), terminal_size=SIZE, run_before=run_before
    )
