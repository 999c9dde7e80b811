"""Issue 23 items 3 (the history deleted mid-game), 4 (escape codes in save file names
and a newer save's ``app`` field), 6 (the palette at 10x3, the Stats screen off the UI
thread)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from rich.text import Text
from ui_helpers import wait_for, wait_for_screen

from twos_tui.play import history, saves
from twos_tui.play.replay import load_replay
from twos_tui.play.session import SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import DamagedSaveDialog
from twos_tui.ui.screens.home import ContinueScreen, HomeScreen

ESC = "\x1b]0;owned\x07\x1b]2;owned\x1b\\\x1b[2J\x9b31m"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    history.RECORDER.flush()


# ----- item 3: the history file deleted mid-game ---------------------------------------------
def _play_deal(s: Session, rng: random.Random) -> None:
    while not s.game.deal_over:
        seat = s.game.to_act()[0]
        ai = s.seats[seat].is_ai
        s.apply(seat, s.ai_choose(seat) if ai else rng.choice(s.game.legal_actions(seat)))


@pytest.mark.parametrize("companions", [False, True])
def test_deleting_the_history_mid_game_loses_no_later_deal_and_says_so(data_home, companions):
    seats = [SeatConfig("Ann"), SeatConfig("Bob", "ai", "easy"), SeatConfig("Cy", "ai", "easy")]
    s = Session.start("twos", seats, options={"deals_to_win": 9}, seed=5)
    rng = random.Random(1)
    _play_deal(s, rng)
    history.RECORDER.flush()
    told_before = len(history.RECORDER.notices)
    for extra in ("", "-wal", "-shm") if companions else ("",):
        with contextlib.suppress(FileNotFoundError):
            (data_home / f"history.sqlite3{extra}").unlink()
    for _ in range(2):
        s.next_deal()
        _play_deal(s, rng)
    history.RECORDER.flush()
    conn = history.open_history()
    ids = [r[0] for r in conn.execute("SELECT id FROM deals ORDER BY deal_number")]
    numbers = [r[0] for r in conn.execute("SELECT deal_number FROM deals ORDER BY deal_number")]
    assert numbers == [2, 3]  # deal 1 went with the file; the next two are all there
    for deal_id in ids:  # and they replay exactly
        assert (
            load_replay(conn, deal_id).result.changes
            == s.game.results[load_replay(conn, deal_id).deal_number - 1].changes
        )
    told = history.RECORDER.notices[told_before:]
    assert len(told) == 1 and "deleted or moved" in told[0]
    conn.close()
    s.close()


# ----- item 4: escape codes in save file names and a newer save's app field ------------------
def _real_save() -> dict:
    s = Session.start("twos", seed=3, autosave=False)
    return json.loads(json.dumps(s.to_json()))


def _no_escape(text: str) -> bool:
    return not any(ch in text for ch in "\x1b\x07\x9b")


def test_save_infos_show_no_escape_codes(data_home):
    folder = data_home / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"evil{ESC}.json").write_text("{ not json")
    newer = _real_save()
    newer["format"] = 99
    newer["app"] = f"twos-tui{ESC}"[:39]
    (folder / "future.json").write_text(json.dumps(newer))
    infos = saves.scan_saves()
    assert len(infos) == 2
    for info in infos:
        assert _no_escape(info.describe()) and _no_escape(info.display_name)
        assert _no_escape(info.problem or "")
    assert any("evil" in i.display_name for i in infos)
    assert any("newer" in (i.problem or "") and "twos-tui" in (i.problem or "") for i in infos)


async def test_continue_and_the_damaged_save_dialog_show_no_escape_codes(data_home):
    folder = data_home / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"evil{ESC}.json").write_text("{ not json")
    newer = _real_save()
    newer["format"] = 99
    newer["app"] = f"x{ESC}"[:39]
    (folder / "future.json").write_text(json.dumps(newer))
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("c")
        screen = await wait_for_screen(pilot, ContinueScreen)
        ol = screen.query_one("#saves")
        labels = []
        for i in range(ol.option_count):
            p = ol.get_option_at_index(i).prompt
            labels.append(p.plain if isinstance(p, Text) else str(p))
        assert any("evil" in t for t in labels) and any("future.json" in t for t in labels)
        assert all(_no_escape(t) for t in labels), labels
        for name in ("evil", "future.json"):
            ol.highlighted = next(i for i, t in enumerate(labels) if name in t)
            await pilot.press("enter")
            dialog = await wait_for_screen(pilot, DamagedSaveDialog)
            shown = str(dialog.query_one("#damaged-text").render())
            assert name in shown and _no_escape(shown), shown
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen, "the list again")


# ----- item 6: the palette in a tiny terminal, the Stats screen off the UI thread ------------
@pytest.mark.parametrize("size", [(10, 3), (10, 4), (8, 2), (5, 1)])
async def test_page_keys_in_the_palette_of_a_tiny_terminal_never_end_the_app(size):
    from textual.command import CommandPalette

    app = make_app(ai_pause=0)
    async with app.run_test(size=size) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        for keys in (["pageup"], ["pagedown"], ["down", "pagedown", "pageup"]):
            await pilot.press("ctrl+p")
            await wait_for_screen(pilot, CommandPalette)
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            assert app.is_running and app.return_code is None
            assert isinstance(app.screen, CommandPalette)
            await pilot.press("escape")
            await wait_for_screen(pilot, HomeScreen, "home again")
    assert app.return_code in (None, 0)


async def test_the_stats_screen_reads_the_history_off_the_ui_thread(data_home, monkeypatch):
    """While the history cannot be read (another program holds it: here a gate the test
    opens), the Stats screen shows that it is reading, and the app answers keys: Escape
    goes home at once. Once the history can be read, the figures come."""
    import threading

    from test_ui_stats import stats_ready

    from twos_tui.ui.screens import stats as stats_screen

    gate = threading.Event()
    threads: list[str] = []
    real_open = history.open_history

    def slow_open(*a, **kw):
        threads.append(threading.current_thread().name)
        gate.wait(30)  # (before the fix: on the UI thread, the app waited here)
        return real_open(*a, **kw)

    monkeypatch.setattr(stats_screen.history, "open_history", slow_open)
    app = make_app(ai_pause=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_screen(pilot, HomeScreen)
            await pilot.press("s")
            screen = await wait_for_screen(pilot, stats_screen.StatsScreen)
            await wait_for(pilot, lambda: threads, "the read to start on its thread")
            assert screen.reading and not screen.ready
            assert screen.query_one("#stats-right").loading
            assert "Reading the history" in str(screen.query_one("#stats-figures").render())
            await pilot.press("escape")  # the app answers while the read waits
            await wait_for_screen(pilot, HomeScreen, "home while the read waits")
            assert threads and threading.main_thread().name not in threads
            gate.set()
            await app.workers.wait_for_complete()
            await pilot.press("s")
            screen = await stats_ready(pilot, app)
            assert not screen.query_one("#stats-right").loading
            assert "Matches: 0 played" in str(screen.query_one("#stats-figures").render())
    finally:
        gate.set()
