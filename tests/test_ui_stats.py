"""Pilot tests: the Stats screen, the replay of a recorded deal, ``twos-tui replay ID``
and undo (ctrl+z) at the table, refused where another human would see it."""

from __future__ import annotations

import json
import math
import random
import sqlite3

import pytest
from test_ui_play import drive, human_turn
from textual.widgets import DataTable, Static
from ui_helpers import ai_plays_the_deal, polls, wait_for, wait_for_screen

from twos_tui.engine import Action, new_game
from twos_tui.play import history, saves
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.home_menu import HomeMenu
from twos_tui.ui.screens.dialogs import ConfirmLeave, DealEndScreen, PassScreen
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.replay import ReplayScreen
from twos_tui.ui.screens.stats import StatsScreen
from twos_tui.ui.screens.table import TableScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    history.RECORDER.flush()


def shown(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def labels(game, codes) -> list[str]:
    return [game.card_face(c).label for c in codes]


async def test_stats_from_home_on_a_fresh_history(data_home):
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        assert "stats" in home.query_one(HomeMenu).shown()
        await pilot.press("s")
        screen = await stats_ready(pilot, app)
        text = shown(screen, "#stats-figures")
        assert "Matches: 0 played, 0 won" in text and "Deals:   0 played, 0 won" in text
        assert "No deal of this game recorded yet" in shown(screen, "#stats-deals-title")
        assert (data_home / "history.sqlite3").is_file()
        # another game: its figures
        await pilot.press("down")
        await stats_ready(pilot, app)
        assert screen.variant == "big-two"
        await pilot.press("escape")
        await wait_for_screen(pilot, HomeScreen, "home again")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Statistics" in titles


async def test_a_deal_played_in_the_app_is_in_stats_and_replays(data_home):
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bo", AI, "easy"), SeatConfig("Cy", AI)]
    session = Session.start("2v1", seats, seed=3)
    app = make_app(ai_pause=0, session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, random.Random(4), lambda a: isinstance(a.screen, DealEndScreen))
        g = session.game
        result = g.last_result
        history.RECORDER.flush()
        await pilot.press("q")  # home from the deal-end dialog (asked first: the match goes on)
        await wait_for_screen(pilot, ConfirmLeave)
        await pilot.press("y")
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("s")
        stats = await stats_ready(pilot, app)
        assert isinstance(stats, StatsScreen) and stats.variant == "2v1"
        won = int(0 in result.winners)
        assert f"Rounds   1 played · {won} won" in shown(stats, "#stats-figures")  # 2v1: rounds
        assert "easy+normal" in shown(stats, "#stats-figures")
        table = stats.query_one("#stats-deals", DataTable)
        assert table.row_count == 1
        assert str(next(iter(table.columns.values())).label) == "Round"  # the game's word
        assert "Recent rounds" in shown(stats, "#stats-deals-title")
        await pilot.press("tab")
        await wait_for(pilot, lambda: table.has_focus, "the deals list focused")
        await pilot.press("enter")
        replay = await wait_for_screen(pilot, ReplayScreen)

        # the engine, on its own, at each step the replay shows
        deal = g.actions[: len(g.actions)]
        ref = new_game("2v1", g.players, dict(g.options), g.seed, list(g.names))

        def check(step: int) -> None:
            assert replay.step == step
            assert shown(replay, "#replay-step").startswith(f"Step {step} of {len(deal)}")
            hands = shown(replay, "#replay-hands")
            for seat in range(ref.players):
                line = " ".join(
                    f"{x}" for x in labels(ref, ref.sort_cards(ref.observation(seat)["hand"]))
                )
                assert " ".join(hands.split()).count(" ".join(line.split())) >= 1
            log = shown(replay, "#replay-log")
            assert ref.history[-1]["text"] in log
            for later in g.history[len(ref.history) :]:
                assert later["text"] not in log or later["text"] in [h["text"] for h in ref.history]

        check(0)
        await pilot.press("right", "right", "right")
        await wait_for(pilot, lambda: replay.step == 3, "step 3")
        await pilot.pause()
        for seat, a in deal[:3]:
            ref.apply(seat, Action.from_json(a))
        check(3)
        await pilot.press("left")
        await wait_for(pilot, lambda: replay.step == 2, "step 2")
        await pilot.pause()
        ref = new_game("2v1", g.players, dict(g.options), g.seed, list(g.names))
        for seat, a in deal[:2]:
            ref.apply(seat, Action.from_json(a))
        check(2)
        await pilot.press("end")
        await wait_for(pilot, lambda: replay.step == len(deal), "the last step")
        await pilot.pause()
        assert result.summary in str(replay.query_one("#replay-table").render())
        await pilot.press("home")
        await wait_for(pilot, lambda: replay.step == 0, "the first step")
        await pilot.press("escape")
        await wait_for_screen(pilot, StatsScreen, "the Stats screen again")
        # exports from the list
        await pilot.press("e")
        log_file = data_home / "exports" / "game-1.txt"
        await wait_for(pilot, log_file.is_file, "the exported log")
        assert "Ann (human)" in log_file.read_text("utf-8")
        await pilot.press("x")
        exports = data_home / "exports"
        await wait_for(pilot, lambda: list(exports.glob("history-*.csv")), "the exported CSV")
        (csv_file,) = exports.glob("history-*.csv")
        assert len(csv_file.read_text("utf-8").splitlines()) == 2


async def test_replay_id_opens_the_replay(data_home):
    s = Session.start("big-two", seed=6)
    ai_plays_the_deal(s)
    history.RECORDER.flush()
    app = make_app(ai_pause=0, replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await wait_for_screen(pilot, ReplayScreen)
        assert replay.replay.deal_id == 1
        await pilot.press("space")  # plays on its own; space again pauses
        await pilot.press("space")
        await pilot.press("escape")
        # `twos-tui replay`: Esc goes back to the shell
        await wait_for(pilot, lambda: app.return_code is not None, "the app to end")
        assert app.return_code == 0
    app = make_app(ai_pause=0, replay=99)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)  # a notice, and home


def message(screen) -> str:
    return shown(screen, "#message")


async def stats_ready(pilot, app) -> StatsScreen:
    """The Stats screen once it has read the history (on its worker thread): waits for
    the workers to finish, then for their answers to be shown (no clock involved)."""
    async for _ in polls(pilot, "the Stats screen to finish reading the history"):
        await app.workers.wait_for_complete()
        screen = app.screen
        if isinstance(screen, StatsScreen) and screen.ready:
            return screen
    raise AssertionError("not reached")


async def wait_for_my_turn(pilot, app) -> TableScreen:
    def mine() -> TableScreen | None:
        s = app.screen
        if isinstance(s, TableScreen) and s._decision is not None and not s.ai_busy:
            return s
        return None

    return await wait_for(pilot, mine, "the human's turn")  # type: ignore[no-any-return]


async def test_undo_against_the_ai_goes_back_to_your_turn(data_home):
    app = make_app("big-two", seed=8, ai_pause=0)
    rng = random.Random(8)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_my_turn(pilot, app)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "Nothing to undo" in message(screen), "Nothing to undo")
        before = json.dumps(screen.session.game.to_json())
        n = len(screen.session.game.actions)
        await human_turn(pilot, screen, rng)
        screen = await wait_for_my_turn(pilot, app)
        assert len(screen.session.game.actions) > n + 1  # the AI has answered
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "Took back your last move and" in message(screen), "undo")
        assert json.dumps(screen.session.game.to_json()) == before
        assert screen._decision is not None and screen.viewer == 0
        hand = sorted(screen._hand_order)
        assert hand == sorted(screen.session.game.observation(0)["hand"])
        screen.session.flush()
        save = saves.read_save(saves.saves_dir() / f"{screen.session.save_id}.json")
        assert len(save["game"]["actions"]) == n
    history.RECORDER.flush()
    conn = history.open_history()
    assert [tuple(r) for r in conn.execute("SELECT seat FROM undos")] == [(0,)]


async def test_undo_before_the_ai_moves_takes_back_only_your_move(data_home):
    session = Session.start("twos", None, 3, {}, seed=9)
    while 0 not in session.game.to_act():  # the AI plays up to the human's turn
        seat = session.game.to_act()[0]
        session.apply(seat, session.ai_choose(seat))
    app = make_app(ai_pause=math.inf, session=session)  # the AI waits until woken
    rng = random.Random(9)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_screen(
            pilot, TableScreen, "the human's turn", when=lambda s: s._decision is not None
        )
        before = json.dumps(screen.session.game.to_json())
        await human_turn(pilot, screen, rng)
        await wait_for(pilot, lambda: screen.ai_busy, "the AI waiting to answer")
        await pilot.press("ctrl+z")
        await wait_for(
            pilot, lambda: message(screen).startswith("Took back your last move."), "the undo"
        )
        assert json.dumps(screen.session.game.to_json()) == before
        assert screen._decision is not None and not screen.ai_busy


async def test_undo_is_refused_where_another_human_would_see_it():
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN), SeatConfig("Cy", AI)]
    session = Session.start("twos", seats, 3, {}, seed=10)
    app = make_app(ai_pause=0, session=session)
    rng = random.Random(10)
    async with app.run_test(size=(80, 24)) as pilot:
        acted: list[int] = []
        async for _ in polls(pilot, "the other human's turn"):
            s = app.screen
            if isinstance(s, PassScreen):
                await pilot.press("enter")
            elif isinstance(s, TableScreen) and s._decision is not None:
                if acted and s.viewer != acted[0]:
                    break  # the other human now sees the table after Ann's or Bob's move
                acted.append(s.viewer)
                await human_turn(pilot, s, rng)
        screen = app.screen
        assert isinstance(screen, TableScreen) and acted
        before = json.dumps(session.game.to_json())
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "No undo at a shared table" in message(screen), "refusal")
        assert json.dumps(session.game.to_json()) == before


async def test_undo_in_the_command_palette():
    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        cmds = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Undo (ctrl+z)" in cmds and "Statistics" in cmds
        cmds["Statistics"].callback()
        await stats_ready(pilot, app)
        assert isinstance(app.screen, StatsScreen) and app.screen.variant == "twos"


def test_snapshot_replay(snap_compare):
    """A Big Two deal played by the AI for every seat, replayed at its 9th step."""
    seats = [SeatConfig(n, AI, lv) for n, lv in (("Ada", "easy"), ("Bram", "normal"))]
    seats += [SeatConfig("Cleo", AI, "normal"), SeatConfig("Dev", AI, "easy")]
    s = Session.start("big-two", seats, seed=12)
    ai_plays_the_deal(s)
    history.RECORDER.flush()

    async def run_before(pilot):
        replay = await wait_for_screen(pilot, ReplayScreen)
        await pilot.press(*["right"] * 9)
        await wait_for(pilot, lambda: replay.step == 9, "step 9")

    app = make_app(ai_pause=0, replay=1)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_the_deals_list_reads_older_deals_at_its_end(data_home):
    from test_history_stats import A, deal

    conn = history.open_history()
    for i in range(45):
        history.write_record(conn, deal(f"M{i // 5}", A, i % 5 + 1, [i % 4], [0, 1, 2, 3]))
    conn.close()
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        stats = await stats_ready(pilot, app)
        table = stats.query_one("#stats-deals", DataTable)
        assert stats.variant == "big-two" and table.row_count == 15
        for rows in (30, 45):
            await pilot.press("tab" if rows == 30 else "down", "ctrl+end")  # older ones follow
            await stats_ready(pilot, app)  # (the next page is read on the worker too)
            assert table.row_count == rows
        await pilot.press("ctrl+end")
        await wait_for(pilot, lambda: table.cursor_row == 44, "the cursor on the last row")
        assert table.row_count == 45
        ids = [d.id for d in stats.deals]
        assert ids == sorted(ids, reverse=True) and len(set(ids)) == 45


async def test_key_hints_can_be_clicked(data_home):
    s = Session.start("twos", seed=13)
    ai_plays_the_deal(s)
    history.RECORDER.flush()
    app = make_app(ai_pause=0, replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await wait_for_screen(pilot, ReplayScreen)
        hints = str(replay.query_one("KeyHints", Static).render())
        assert " ".join(hints.split()) == (
            "← Back → Next home Start end End space Play esc Close ^p palette"
        )
        x = hints.index("→")
        await pilot.click("KeyHints", offset=(x + 1, 0))  # the widget has one column of padding
        await wait_for(pilot, lambda: replay.step == 1, "step 1")
        await pilot.click("KeyHints", offset=(hints.index("esc") + 1, 0))
        await wait_for(pilot, lambda: app.return_code is not None, "the app to end")
        assert app.return_code == 0  # opened from the command line: closing it quits


@pytest.mark.parametrize("variant", ["twos", "big-two-5r", "chinese-poker", "2v1", "twos-tricks"])
async def test_every_game_replays_on_screen(data_home, variant):
    """Big Two is replayed above; here every other game, from the first step to the
    last and back, with every hand and the log on screen at each step."""
    s = Session.start(variant, seed=14)
    ai_plays_the_deal(s)
    history.RECORDER.flush()
    app = make_app(ai_pause=0, replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await wait_for_screen(pilot, ReplayScreen)
        last = len(replay.replay.frames) - 1
        for step in list(range(0, last + 1, max(1, last // 6))) + [last, 0]:
            replay.go(step)
            await pilot.pause()
            f = replay.replay.frames[step]
            hands = " ".join(shown(replay, "#replay-hands").split())
            for seat, hand in enumerate(f.hands):
                assert s.game.names[seat] in hands
                if hand:
                    face = replay.replay.game.card_face
                    assert " ".join(face(c).label for c in hand) in hands
            log = shown(replay, "#replay-log")
            if f.log_len:
                assert replay.replay.log[f.log_len - 1]["text"] in log
        assert replay.step == 0


async def test_stats_says_when_the_history_cannot_be_read(data_home):
    c = sqlite3.connect(data_home / "history.sqlite3")  # written by a newer version
    c.execute("PRAGMA user_version = 99")
    c.close()
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await stats_ready(pilot, app)
        assert "cannot be read" in shown(app.screen, "#stats-figures")
        await pilot.press("down", "x")  # another game; export: a notice, no crash
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
