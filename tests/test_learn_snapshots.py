"""Snapshots of Learn (issue 21): a lesson step at the table at 80x24 and 120x40, with a
wrong move just refused, and the lessons list with some progress kept."""

from __future__ import annotations

import pytest
from ui_helpers import wait_for, wait_for_screen

from twos_tui.engine import Action
from twos_tui.play import saves
from twos_tui.play import settings as settings_file
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.learn import LessonScreen
from twos_tui.ui.widgets import HandView

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (120, 40)]
IDS = ["80x24", "120x40"]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    saves.WRITER.flush()
    saves.WRITER.error = None


async def lesson_step_with_a_refusal(pilot) -> None:
    """Big Two, step 2 (answer a pair): 10♦ J♣ tried, and refused with its reason."""
    screen = await wait_for_screen(
        pilot, LessonScreen, "a lesson step", when=lambda s: s._decision is not None
    )
    hand = screen.query_one(HandView)
    for code in Action("play", ("10D", "JC")).cards:
        hand.cursor = screen._hand_order.index(code)
        await pilot.press("space")
    before = screen.run.mistakes
    await pilot.press("enter")
    await wait_for(pilot, lambda: screen.run.mistakes > before, "the move refused")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_lesson_step(snap_compare, size):
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("big-two", 1)
    assert snap_compare(app, terminal_size=size, run_before=lesson_step_with_a_refusal)


def test_snapshot_learn_list(snap_compare):
    s = settings_file.Settings()
    s.lessons = {"twos": {"done": list(range(7)), "stars": 2}, "big-two": {"done": [0, 1]}}
    settings_file.save(s)
    app = make_app(ai_pause=0)
    app.on_start = app.open_learn

    async def run_before(pilot):
        from twos_tui.ui.screens.learn import LearnScreen

        await wait_for_screen(pilot, LearnScreen)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
