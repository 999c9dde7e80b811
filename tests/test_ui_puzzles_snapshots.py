"""Snapshots of the puzzle screens: a puzzle at the table (80x24 and 120x40) and the
games' list (80x24)."""

from __future__ import annotations

import pytest
from ui_helpers import wait_for_screen

from twos_tui.play.puzzle_play import PuzzleSeatView
from twos_tui.puzzles.model import load_puzzles
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.puzzles import PuzzlesScreen, PuzzleTableScreen

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (120, 40)]
IDS = ["80x24", "120x40"]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


def _puzzle_app(variant: str, index: int = 0):
    puzzles = load_puzzles(variant)
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.push_screen(
        PuzzleTableScreen(PuzzleSeatView(puzzles[index]), puzzles, index)
    )
    return app


async def puzzle_asked(pilot) -> None:
    await wait_for_screen(
        pilot, PuzzleTableScreen, "the puzzle", when=lambda s: s._decision is not None
    )


async def puzzles_list(pilot) -> None:
    await wait_for_screen(pilot, PuzzlesScreen)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_puzzle_table(snap_compare, size):
    app = _puzzle_app("big-two")
    assert snap_compare(app, terminal_size=size, run_before=puzzle_asked)


def test_snapshot_puzzle_table_tricks(snap_compare):
    app = _puzzle_app("twos-tricks")
    assert snap_compare(app, terminal_size=(80, 24), run_before=puzzle_asked)


def test_snapshot_puzzles_list(snap_compare):
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.push_screen(PuzzlesScreen())
    assert snap_compare(app, terminal_size=(80, 24), run_before=puzzles_list)
