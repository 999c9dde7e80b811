"""Snapshots of the lobby screens (issue 30) with a scripted lobby (``lobby_fakes_ui``):
the lobby at 80x24 and 120x40, a game's leaderboard, a quick match waiting (its time
waited on a stopped clock), and the create-a-table dialog."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lobby_fakes_ui import FakeLobbyLink, sample_state
from textual.widgets import DataTable
from ui_helpers import wait_for, wait_for_screen

from twos_tui.play.lobby.model import QueueInfo
from twos_tui.ui.app import make_app
from twos_tui.ui.screens import lobby as lobby_module
from twos_tui.ui.screens.lobby import LobbyScreen, TablesList
from twos_tui.ui.screens.lobby_create import CreateTableScreen
from twos_tui.ui.screens.lobby_dialogs import LeaderboardScreen

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    monkeypatch.setattr(lobby_module, "now", lambda: 500.0)  # the queue's time stands still


def lobby_app(state=None):
    link = FakeLobbyLink(state or sample_state())
    app = make_app(autosave=False, ai_pause=None)
    app.on_start = lambda: app.open_lobby(link, ("127.0.0.1", 9350))
    return app


async def lobby_shown(pilot) -> LobbyScreen:
    screen = await wait_for_screen(pilot, LobbyScreen, when=lambda s: s.events_seen >= 1)
    lst = screen.query_one(TablesList)
    await wait_for(
        pilot,
        lambda: lst.highlighted == 0 and "▸ Table" in str(lst.options[0].prompt),
        "the first table chosen",
    )
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_lobby(snap_compare, size):
    assert snap_compare(lobby_app(), terminal_size=size, run_before=lobby_shown)


def test_snapshot_leaderboard(snap_compare):
    async def run_before(pilot):
        await lobby_shown(pilot)
        await pilot.press("l")
        board = await wait_for_screen(pilot, LeaderboardScreen)
        await wait_for(pilot, lambda: board.query_one(DataTable).row_count == 4, "the rows")
        await pilot.pause()

    assert snap_compare(lobby_app(), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_quick_match_waiting(snap_compare):
    state = replace(sample_state(), queue=QueueInfo("big-two", 4, 2, 120.0, 47.0))

    async def run_before(pilot):
        screen = await lobby_shown(pilot)
        line = screen.query_one("#lobby-queue")
        await wait_for(pilot, lambda: line.display and "0:47" in str(line.render()), "queue")
        await pilot.pause()

    assert snap_compare(lobby_app(state), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_create_table(snap_compare):
    async def run_before(pilot):
        await lobby_shown(pilot)
        await pilot.press("c")
        await wait_for_screen(pilot, CreateTableScreen, when=lambda d: d.settled)
        await pilot.pause()

    assert snap_compare(lobby_app(), terminal_size=(80, 24), run_before=run_before)
