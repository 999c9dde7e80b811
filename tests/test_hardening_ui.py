"""Issue 9 through the app: the command palette under a pushed screen (case 10), the
exit status after an unexpected error (case 11), the delete confirmation (case 8),
names that try to drive the terminal (case 9), damaged, newer and locked saves on the
Continue screen (cases 1-5, 7) and a read-only disk (issue 11, item 2)."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import PassScreen
from twos_tui.ui.screens.table import TableScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    (tmp_path / "saves").mkdir()
    return tmp_path


def hot_seat_session(seed: int = 0) -> Session:
    """Ann (human, seat 0, to lead with seed 0), the AI, then Bob (human)."""
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Cpu", AI), SeatConfig("Bob", HUMAN)]
    return Session.start("twos", seats, seed=seed)


async def play_one_legal(pilot, screen: TableScreen) -> None:
    g = screen.game
    action = g.legal_actions(screen.viewer)[0]
    screen.act(action)
    await pilot.pause()


async def wait_for(pilot, cond, steps: int = 1000) -> None:
    for _ in range(steps):
        if cond():
            return
        await pilot.pause(0.02)
    raise AssertionError("timed out waiting for the app")


# ----- case 10: ctrl+p after a screen was pushed over an open palette ---------------------


async def test_palette_then_pass_screen_then_palette_again():
    session = hot_seat_session()
    app = make_app(session=session, ai_pause=1.5)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # the pass screen for Ann first (hot-seat): she takes the keyboard
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        assert table.viewer == 0
        await play_one_legal(pilot, table)  # Ann moves; the AI is thinking (0.3 s)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        # the AI moves and the pass screen for Bob is pushed while the palette is open
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("ctrl+p")  # Bob opens the palette: this used to end the app
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        assert app.return_code in (None, 0)
