"""Pilot tests of what a newcomer found playing the app in tmux (80x24, over the SSH door
and the lobby server): leaving a match asks first everywhere, the SSH lobby asks before it
ends the session, the keys say where they go, the match-over box offers what comes next
(and a rated match's rating change), and a held seat shows only its hold. Each fails on
the app as it was before the fix."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest
from ui_helpers import deal_over, flat, screen_text, wait_for, wait_for_screen, wait_for_text

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import ConfirmLeave, DealEndScreen
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.table import TableScreen

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


# ---------------------------------------------------------------------------------------
# 1. leaving a match in progress asks first, from the deal summary as from the table
# ---------------------------------------------------------------------------------------


async def at_deal_end(pilot) -> DealEndScreen:
    dialog = await wait_for_screen(pilot, DealEndScreen, "the deal summary")
    await wait_for_text(pilot, "Home (q)")
    return dialog


@pytest.mark.parametrize("stay", ["n", "escape"])
async def test_q_at_a_mid_match_deal_summary_asks_and_n_or_esc_stays(stay):
    session = deal_over("big-two")
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await at_deal_end(pilot)
        await pilot.press("q")
        await wait_for_screen(pilot, ConfirmLeave, "the table's question")
        text = flat(screen_text(app))
        assert "Leave this table for the home screen?" in text
        assert "Stay (n)" in text and "Leave (y)" in text
        # the question has its own key bar (it had none: the table's showed through)
        await wait_for(pilot, lambda: "n Stay" in key_bar(app), "the question's keys")
        assert "y Leave" in key_bar(app)
        await pilot.press(stay)
        await wait_for(pilot, lambda: app.screen is dialog, "the deal summary again")
        assert session.game.deal_number == 1 and app.table is not None
        await pilot.press("q")
        await wait_for_screen(pilot, ConfirmLeave, "asked again")
        await pilot.press("y")
        await wait_for_screen(pilot, HomeScreen)


async def test_the_home_button_at_a_mid_match_deal_summary_asks_too():
    app = make_app(session=deal_over("twos"), ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await at_deal_end(pilot)
        await pilot.click("#home")
        await wait_for_screen(pilot, ConfirmLeave, "the table's question")
        await pilot.press("enter")  # Stay has the focus
        await wait_for(pilot, lambda: app.screen is dialog, "the deal summary again")


async def test_a_table_that_is_not_saved_does_not_say_it_is():
    session = deal_over("big-two")
    session.autosave = False
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_deal_end(pilot)
        await pilot.press("escape")  # on to the next deal
        await wait_for_screen(pilot, TableScreen)
        await pilot.press("q")
        await wait_for_screen(pilot, ConfirmLeave, "the table's question")
        text = flat(screen_text(app))
        assert "Leave this table for the home screen?" in text
        assert "The game is saved" not in text


# ---------------------------------------------------------------------------------------
# 2. an SSH door's guest: Esc (and q) in the lobby asks before ending the session
# ---------------------------------------------------------------------------------------


def guest_lobby_app(link):
    """The lobby as the SSH door opens it: leaving it ends the app (the session)."""
    app = make_app(autosave=False, ai_pause=None)
    app.exit_on_leave = True
    app.on_start = lambda: app.open_lobby(link, ("127.0.0.1", 9350))
    return app


@pytest.mark.parametrize("key", ["escape", "q"])
async def test_the_ssh_lobby_asks_before_it_ends_the_session(key):
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.ui.screens.lobby import LobbyScreen
    from twos_tui.ui.screens.lobby_dialogs import ConfirmEndSession

    link = FakeLobbyLink(sample_state())
    app = guest_lobby_app(link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        # the key bar says that leaving ends it (it said "esc Back"), and still has room
        # for the lobby's own keys at 80 columns
        await wait_for(pilot, lambda: "q Quit" in key_bar(app), "q Quit in the key bar")
        assert "Back" not in key_bar(app) and "Home" not in key_bar(app)
        assert "l Leaderboard" in key_bar(app)
        await pilot.press(key)
        await wait_for_screen(pilot, ConfirmEndSession, "the question")
        text = flat(screen_text(app))
        assert "End the session?" in text and "No (n)" in text and "Yes (y)" in text
        await wait_for(pilot, lambda: "n Stay" in key_bar(app), "the question's keys")
        assert "y End session" in key_bar(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is lobby, "the lobby again")
        await pilot.press(key)
        await wait_for_screen(pilot, ConfirmEndSession, "asked again")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is lobby, "the lobby again")
        assert not link.closed and app.return_code is None
        await pilot.press(key)
        await wait_for_screen(pilot, ConfirmEndSession, "asked a third time")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.return_code is not None, "the app (the session) over")


class HeldSeatView:
    """What the lobby's join gives back, as far as the lobby touches it before the table
    opens (a seat held for the player, re-seated as they log in)."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_a_seat_given_back_while_ending_the_session_waits_for_the_answer(answer, monkeypatch):
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.ui.screens import lobby_results
    from twos_tui.ui.screens.lobby import LobbyScreen
    from twos_tui.ui.screens.lobby_dialogs import ConfirmEndSession

    opened = []
    app = guest_lobby_app(FakeLobbyLink(sample_state()))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        await pilot.press("q")
        question = await wait_for_screen(pilot, ConfirmEndSession, "the question")
        # the join of a held seat lands now: the question stays (it gave way before)
        view = HeldSeatView()
        lobby.joined(view)
        await pilot.pause()
        assert app.screen is question and lobby.waiting_table is view
        monkeypatch.setattr(lobby_results, "open_joined", lambda lb, v: opened.append(v))
        await pilot.press(answer)
        if answer == "y":  # the session ends; the seat stays held (its view closed)
            await wait_for(pilot, lambda: app.return_code is not None, "the session over")
            assert view.closed and not opened
        else:  # staying: the table opens now
            await wait_for(pilot, lambda: opened == [view], "the table opened")
            assert not view.closed and lobby.waiting_table is None


async def test_the_lobby_at_home_still_goes_home_without_asking():
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.ui.screens.lobby import LobbyScreen

    link = FakeLobbyLink(sample_state())
    app = guest_lobby_app(link)
    app.exit_on_leave = False
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        await wait_for(pilot, lambda: "q Home" in key_bar(app), "q Home in the key bar")
        assert "Quit" not in key_bar(app) and "l Leaderboard" in key_bar(app)
        await pilot.press("escape")
        await wait_for_screen(pilot, HomeScreen)


# ---------------------------------------------------------------------------------------
# 3. at a table the lobby seated us at, q says it goes back to the lobby
# ---------------------------------------------------------------------------------------


def key_bar(app) -> str:
    from ui_helpers import screen_lines

    return screen_lines(app)[-1]


async def test_q_at_a_lobby_table_says_lobby():
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.play.seat_view import LocalSeatView
    from twos_tui.play.session import Session
    from twos_tui.ui.screens.lobby import LobbyScreen

    link = FakeLobbyLink(sample_state())
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.open_lobby(link, ("127.0.0.1", 9350))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        session = Session.start("big-two", None, None, {}, 4, autosave=False)
        app.start_session(LocalSeatView(session), over_lobby=True)
        await wait_for_screen(pilot, TableScreen, "the lobby's table")
        await wait_for(pilot, lambda: "q Lobby" in key_bar(app), "q Lobby in the key bar")
        assert "Home" not in key_bar(app)
        await pilot.press("q")
        await wait_for_text(pilot, "Leave this table and go back to the lobby?")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is lobby, "the lobby again")


async def test_q_at_a_lobby_tables_deal_summary_says_lobby():
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.play.seat_view import LocalSeatView
    from twos_tui.ui.screens.lobby import LobbyScreen

    link = FakeLobbyLink(sample_state())
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.open_lobby(link, ("127.0.0.1", 9350))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        app.start_session(LocalSeatView(deal_over("big-two")), over_lobby=True)
        await wait_for_screen(pilot, DealEndScreen, "the deal summary")
        await wait_for_text(pilot, "Lobby (q)")
        assert "q Lobby" in key_bar(app) and "Home" not in flat(screen_text(app))


async def test_q_at_a_home_table_still_says_home():
    app = make_app("big-two", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await wait_for(pilot, lambda: "q Home" in key_bar(app), "q Home in the key bar")


# ---------------------------------------------------------------------------------------
# 4. the match-over box at a lobby table: what comes next, and the rating change
# ---------------------------------------------------------------------------------------


def match_over_session():
    """A Twos session (one deal wins the match) whose match is over."""
    import random

    from ui_helpers import play_until

    from twos_tui.play.session import Session

    session = Session.start("twos", None, None, {"deals_to_win": 1}, 3, autosave=False)
    play_until(session.game, lambda g: g.deal_over, random.Random(3))
    assert session.game.match_over
    return session


@contextlib.asynccontextmanager
async def lobby_match_over(monkeypatch):
    """A lobby seats us at a table (a player on another computer, no "play again")
    whose match is over: the app, its pilot, the lobby screen, the fake link and the
    lobby state it started from, once the match-over box is up."""
    from lobby_fakes_ui import FakeLobbyLink, sample_state

    from twos_tui.play.lobby.model import Seated
    from twos_tui.play.seat_view import LocalSeatView
    from twos_tui.ui import lobby_join
    from twos_tui.ui.screens.lobby import LobbyScreen

    view = LocalSeatView(match_over_session(), remote_seats=(1,))
    monkeypatch.setattr(lobby_join, "connect_seated", lambda *a, **kw: view)
    state = sample_state()
    link = FakeLobbyLink(state)
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.open_lobby(link, ("127.0.0.1", 9350))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen)
        link.push(Seated("bt-101", "ABCD", 0, "token"))
        await wait_for_screen(pilot, DealEndScreen, "the match-over box")
        yield app, pilot, lobby, link, state


async def test_a_lobby_matchs_end_offers_the_lobby_and_shows_the_rating_change(monkeypatch):
    from twos_tui.play.lobby.model import RatingInfo, ResultInfo

    async with lobby_match_over(monkeypatch) as (app, pilot, lobby, link, state):
        await wait_for_text(pilot, "Back to the lobby (⏎)")
        text = flat(screen_text(app))
        assert "Match over" in text and "Next deal" not in text and "Rating" not in text
        bar = key_bar(app)
        assert "q Lobby" in bar and "New game" not in bar
        # the lobby's news, unchanged results: still no rating line
        link.push(replace(state, tables=()))
        await wait_for(pilot, lambda: lobby.events_seen >= 3, "the lobby's news read")
        assert "Rating" not in flat(screen_text(app))
        # the lobby says the result: the box shows the rating and its change
        me = state.me
        result = ResultInfo("twos", 1_700_000_900.0, 1, 4, 207.2)
        ratings = (me.ratings[0], RatingInfo("twos", 1207.4, 4, 2))
        link.push(replace(state, me=replace(me, ratings=ratings, recent=(result, *me.recent))))
        await wait_for_text(pilot, "Rating 1207 (+207)")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is lobby, "back in the lobby")


async def test_an_unrated_lobby_match_shows_no_rating(monkeypatch):
    from twos_tui.play.lobby.model import ResultInfo

    async with lobby_match_over(monkeypatch) as (app, pilot, lobby, link, state):
        result = ResultInfo("twos", 1_700_000_900.0, 2, 4, None)
        link.push(replace(state, me=replace(state.me, recent=(result, *state.me.recent))))
        await wait_for(pilot, lambda: lobby.events_seen >= 3, "the lobby's news read")
        assert "Rating" not in flat(screen_text(app))


async def test_a_held_seat_shows_its_hold_not_its_clock(tmp_path, monkeypatch):
    import re

    from net_helpers import join
    from test_net_clock_screens import Hand, box_of, clocked_table

    from twos_tui.play.net.host_view import HostSeatView
    from twos_tui.play.net.server import TableServer

    clock = re.compile(r"\d+:\d\d \+\d+:\d\d|bank \d+:\d\d")
    now = Hand()
    table = clocked_table(now, kinds=["human", "remote", "ai"], names=["Hana"], drive_ai=False)
    server = TableServer()
    server.add(table)
    view = HostSeatView(table)
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.start_session(view)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        await server.start("127.0.0.1", 0)
        try:
            jo = await join(server, table, "Jo")  # seat 1: Jo leads, his clock runs
            await wait_for(pilot, lambda: "0:30 +1:00" in box_of(app, "Jo"), "Jo's clock")
            token = jo.token
            await jo.close()  # Jo drops: his seat is held
            await wait_for(pilot, lambda: "seat held" in box_of(app, "Jo"), "the hold")
            assert not clock.search(box_of(app, "Jo")), box_of(app, "Jo")
            now.t += 30  # the hold counts down; the clock is still not shown
            await wait_for(pilot, lambda: "seat held 1:30" in box_of(app, "Jo"), "the hold on")
            assert not clock.search(box_of(app, "Jo")), box_of(app, "Jo")
            # Jo comes back: his clock's figures are shown again, the hold is gone
            jo = await join(server, table, "Jo", token=token)
            await wait_for(pilot, lambda: clock.search(box_of(app, "Jo")), "Jo's clock back")
            assert "seat held" not in box_of(app, "Jo")
            await jo.close()
        finally:
            await server.close()
            view.close()
