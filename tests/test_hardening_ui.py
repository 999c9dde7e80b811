"""Issue 9 through the app: the command palette under a pushed screen (case 10), the
exit status after an unexpected error (case 11), the delete confirmation (case 8),
names that try to drive the terminal (case 9), damaged, newer and locked saves on the
Continue screen (cases 1-5, 7) and a read-only disk (issue 11, item 2)."""

from __future__ import annotations

import errno
import json
import math
import random

import pytest
import ui_helpers
from rich.text import Text
from saves_helpers import crafted_saves, mutate, open_elsewhere, place, real_save
from textual.command import CommandPalette

from twos_tui.engine import VARIANT_IDS
from twos_tui.play import saves
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import (
    ConfirmDelete,
    DamagedSaveDialog,
    PassScreen,
    SaveLockedDialog,
)
from twos_tui.ui.screens.home import ContinueScreen, HomeScreen
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
    g = screen.session.game
    action = g.legal_actions(screen.viewer)[0]
    screen.act(action)
    await pilot.pause()


async def wait_for(pilot, cond, what: str = "the state waited for") -> None:
    await ui_helpers.wait_for(pilot, cond, what)


# ----- case 10: ctrl+p after a screen was pushed over an open palette ---------------------


async def test_palette_then_pass_screen_then_palette_again():
    session = hot_seat_session()
    # the AI waits as long as the test needs: the test lets it move (no race with a
    # 1.5 s pause on a busy machine)
    app = make_app(session=session, ai_pause=math.inf)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # the pass screen for Ann first (hot-seat): she takes the keyboard
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        assert table.viewer == 0
        await play_one_legal(pilot, table)  # Ann moves; the AI waits
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        # the AI moves and the pass screen for Bob is pushed while the palette is open
        await wait_for(pilot, lambda: table.ai.waiting_for is not None)
        table.ai.hurry()
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("ctrl+p")  # Bob opens the palette: this used to end the app
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen), "the pass screen")
        assert app.return_code in (None, 0)


# ----- case 8: delete asks first ---------------------------------------------------------


async def open_continue(pilot, app) -> ContinueScreen:
    await ui_helpers.wait_for_screen(pilot, HomeScreen)
    await pilot.press("c")
    return await ui_helpers.wait_for_screen(pilot, ContinueScreen)


async def test_delete_on_continue_asks_first(data_home):
    s = Session.start("twos", seed=5)
    s.close()
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_continue(pilot, app)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete), "the question")
        await pilot.press("enter")  # Enter keeps: deleting takes a y
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueScreen), "the list again")
        assert len(saves.list_saves()) == 1
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete), "the question")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueScreen), "the list again")
        assert len(saves.list_saves()) == 1
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDelete), "the question")
        await pilot.press("y")
        # nothing left to continue: home
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        assert saves.list_saves() == []


# ----- case 9: names from files never drive the terminal -------------------------------

EVIL = ["\x1b]2;PWNED\x1b\\Ada", "\x1b[2J", "[bold]x", "\u202eevil", "N" * 300]


def evil_save() -> dict:
    """A save whose names hold escape codes, its game (and log) made by the engine with
    those names, so it replays to itself (a forged log line is refused: issue 23)."""
    from twos_tui.engine import new_game

    seats = [SeatConfig("Ann", HUMAN)] + [SeatConfig(f"P{i}", HUMAN) for i in range(3)]
    s = Session.start("big-two", seats, seed=2, autosave=False)
    data = json.loads(json.dumps(s.to_json()))
    names = ["Ann", EVIL[0], EVIL[1], EVIL[2]]
    data["game"] = json.loads(json.dumps(new_game("big-two", 4, {}, 2, names).to_json()))
    for seat, name in zip(data["seats"], names, strict=True):
        seat["name"] = name
    return data


def no_controls(text: str) -> bool:
    return not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u202d" for c in text)


async def test_names_from_a_save_are_cleaned_and_shown_literally(data_home):
    (data_home / "saves" / "evil.json").write_text(json.dumps(evil_save()))
    (info,) = saves.list_saves()
    assert all(no_controls(n) and len(n) <= 16 for n in info.names)
    assert "[bold]x" in info.names
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_continue(pilot, app)
        prompt = screen.query_one("#saves").get_option_at_index(0).prompt
        plain = prompt.plain if isinstance(prompt, Text) else str(prompt)
        assert no_controls(plain.replace("\n", " ")) and "[bold]x" in plain
        assert "\x1b" not in app.export_screenshot() and "[bold]x" in plain
        await pilot.press("enter")  # resume: hot-seat, the pass screen names the player
        await wait_for(pilot, lambda: isinstance(app.screen, (PassScreen, TableScreen)))
        svg = app.export_screenshot()
        assert "\x1b" not in svg and "\u202e" not in svg
        g = app.session.game
        assert all(no_controls(n) for n in g.names)
        assert all(no_controls(h["text"]) and len(h["text"]) <= 4000 for h in g.history)


def test_clean_name_rules():
    from twos_tui.play.names import MAX_NAME_CELLS, clean_name

    assert clean_name("\x1b]2;PWNED\x1b\\Ada") == "]2;PWNED\\Ada"
    assert clean_name("\x1b[2J") == "[2J"
    assert clean_name("[bold]x") == "[bold]x"
    assert clean_name("\u202eevil\u200b") == "evil"
    assert clean_name("  a \t\n b  ") == "a b"
    assert clean_name("\x00\x07", "Player 2") == "Player 2"
    assert clean_name("漢" * 20) == "漢" * (MAX_NAME_CELLS // 2)
    assert len(clean_name("N" * 300)) == MAX_NAME_CELLS
    assert SeatConfig("\x1b[31mRed").name == "[31mRed"


# ----- case 11: an unexpected error exits non-zero, the terminal restored, game saved ---


def test_a_crash_exits_non_zero_with_the_game_saved(data_home, monkeypatch, capsys):
    import twos_tui.ui.app as app_mod

    moved = {}

    async def autopilot(pilot):
        screen = await ui_helpers.wait_for_human(pilot)
        seat = screen.viewer
        action = screen.session.game.legal_actions(seat)[0]
        screen.act(action)  # a move, autosaved in the background
        moved["actions"] = len(screen.session.game.actions)
        await pilot.pause()
        await pilot.press("s")  # ... and then something unexpected goes wrong

    def explode(self):
        raise RuntimeError("an unexpected bug")

    monkeypatch.setattr(TableScreen, "action_sort", explode)
    real_run = app_mod.TwosApp.run
    monkeypatch.setattr(
        app_mod.TwosApp,
        "run",
        lambda self: real_run(self, headless=True, size=(100, 30), auto_pilot=autopilot),
    )
    from twos_tui.play import settings as settings_file

    # a player's app shows first-game tips: this player has turned them off
    settings_file.save(settings_file.Settings(tips=False))
    code = app_mod.run_app("twos", None, 0)  # seed 0: the human (seat 0) leads
    assert code == 1
    err = capsys.readouterr().err
    assert "unexpected error" in err and "Continue picks it up" in err
    (info,) = saves.list_saves()
    data = saves.read_save(info.path)
    assert len(data["game"]["actions"]) >= moved["actions"] >= 1
    assert not list((data_home / "saves").glob("*.lock"))  # the lock was released
    # the traceback Textual printed, kept by the app itself (issue 32: no private App
    # attribute read), in the log folder: where it happened and what it was
    log = (data_home / "logs" / "crash.log").read_text()
    assert "in explode" in log and "RuntimeError: an unexpected bug" in log, log


# ----- Continue: recognisable entries, newest first, damaged apart -----------------------


async def test_continue_lists_newest_first_with_damaged_apart(data_home):
    folder = data_home / "saves"
    for i, variant in enumerate(["twos", "2v1", "big-two"]):
        data = real_save(variant, moves=2, seed=i)
        data["updated"] = 1_700_000_000 + i * 1000
        (folder / f"game-{i}.json").write_text(json.dumps(data))
    (folder / "broken.json").write_text("{ not json")
    newer = real_save()
    newer["format"] = 99
    (folder / "future.json").write_text(json.dumps(newer))
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_continue(pilot, app)
        ol = screen.query_one("#saves")
        labels = []
        for i in range(ol.option_count):
            p = ol.get_option_at_index(i).prompt
            labels.append(p.plain if isinstance(p, Text) else str(p))
        assert labels[0].startswith("Big Two") and labels[1].startswith("2v1")
        assert labels[2].startswith("Twos")
        assert "vs Ada (easy)" in labels[0] and "Penalty" in labels[0]
        heading = labels.index("Saves that cannot be opened")
        assert heading > 2
        tail = " ".join(labels[heading:])
        assert "broken.json" in tail and "not valid JSON" in tail
        assert "future.json" in tail and "newer" in tail
        # Enter on a damaged save explains and offers to move it aside
        ol.highlighted = next(i for i, t in enumerate(labels) if "broken.json" in t)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DamagedSaveDialog), "the dialog")
        await pilot.press("m")
        moved = folder / "damaged" / "broken.json"
        await wait_for(pilot, moved.is_file, "the save moved aside")
        assert moved.read_text() == "{ not json"
        assert not (folder / "broken.json").exists()
        # the newer one is refused and kept as it is
        screen = app.screen
        ol = screen.query_one("#saves")
        idx = next(
            i
            for i in range(ol.option_count)
            if "future.json" in str(getattr(ol.get_option_at_index(i).prompt, "plain", ""))
        )
        ol.highlighted = idx
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, DamagedSaveDialog) and app.screen.newer,
            "the dialog for the newer save",
        )
        await pilot.press("m")  # not offered for a newer save
        await pilot.pause()
        assert isinstance(app.screen, DamagedSaveDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert json.loads((folder / "future.json").read_text())["format"] == 99


async def test_the_app_starts_with_every_crafted_and_mutated_save(data_home):
    folder = data_home / "saves"
    for name, content in crafted_saves().items():
        place(folder, name, content)
    rng = random.Random(9)
    sources = [real_save(v, moves=m, seed=1) for v in VARIANT_IDS for m in (0, 9)]
    for i in range(60):
        (folder / f"mutant-{i}.json").write_text(json.dumps(mutate(rng.choice(sources), rng, 2)))
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_continue(pilot, app)
        ok = [s for s in screen.saves if s.ok]
        # every save that is offered opens at a table
        for info in ok:
            app.resume(info)
            await wait_for(pilot, lambda: isinstance(app.screen, (TableScreen, PassScreen)))
            await pilot.pause()
            app.go_home()
            await pilot.pause()
        assert app.return_code in (None, 0)
    assert len(screen.saves) == len(list(folder.glob("*.json")))


# ----- case 7 in the app: the second window is told and offered a copy ------------------


async def test_a_save_open_elsewhere_is_offered_as_a_copy(data_home):
    first = Session.start("twos", seed=8)
    first.close()
    with open_elsewhere(data_home, first.save_id):
        app = make_app(ai_pause=0)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await open_continue(pilot, app)
            label = screen.query_one("#saves").get_option_at_index(0).prompt.plain
            assert "open in another window" in label
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveLockedDialog), "the lock")
            await pilot.press("c")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.session.save_id != first.save_id
    assert len(saves.list_saves()) == 2


# ----- issue 11, item 2: a full disk during play ------------------------------------------


async def test_a_full_disk_gives_a_notice_and_play_goes_on(data_home, monkeypatch):
    def full(*a, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    app = make_app("twos", seed=9, ai_pause=0)
    notes = []
    async with app.run_test(size=(100, 30)) as pilot:
        await ui_helpers.wait_for_screen(pilot, TableScreen)
        monkeypatch.setattr(saves.tempfile, "mkstemp", full)
        real_notify = app.notify
        monkeypatch.setattr(
            app, "notify", lambda msg, **kw: (notes.append(msg), real_notify(msg, **kw))
        )
        screen = app.screen
        for _ in range(4):
            await wait_for(
                pilot,
                lambda: (
                    screen.session.game.deal_over or screen.viewer in screen.session.game.to_act()
                ),
            )
            if screen.session.game.deal_over:
                break
            screen.act(screen.session.game.legal_actions(screen.viewer)[0])
            await pilot.pause()
        assert isinstance(app.screen, TableScreen) or screen.session.game.deal_over
        assert len(screen.session.game.actions) >= 4
    full_notes = [n for n in notes if "disk is full" in str(n)]
    assert len(full_notes) == 1, notes


async def test_notifications_show_names_literally():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui_helpers.wait_for_screen(pilot, HomeScreen)
        app.notify("[bold]x plays a bomb", title="Bomb!")
        await wait_for(pilot, lambda: list(app._notifications), "the notification")
        (note,) = list(app._notifications)
        assert note.markup is False and note.message == "[bold]x plays a bomb"
