"""Pilot tests of the lobby screens (issue 30) against a scripted lobby link
(``lobby_fakes_ui.FakeLobbyLink``): what the lobby shows, every request it sends (sit,
watch, create, quick match and its cancel), live updates that keep the table chosen,
the answers (a refusal's notice, a redirect followed, a seat joined at a real table)."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace

import pytest
from lobby_fakes_ui import FakeLobbyLink, sample_state, seat, without_table
from net_helpers import remote_table, server_elsewhere
from textual.widgets import DataTable, Input, Select, Static
from ui_helpers import flat, screen_text, wait_for, wait_for_screen, wait_for_text

from twos_tui.play.lobby.model import (
    CancelQuickMatch,
    CreateTable,
    QueueInfo,
    QuickMatch,
    Redirect,
    Refused,
    Seated,
    SitDown,
    TableInfo,
    Watch,
)
from twos_tui.play.net.client import TokenStore
from twos_tui.ui.app import make_app
from twos_tui.ui.lobby_text import change_text, clock_words, mm_ss, place_text
from twos_tui.ui.screens import lobby as lobby_module
from twos_tui.ui.screens.dialogs import ConfirmLeave
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.lobby import LobbyScreen, TablesList
from twos_tui.ui.screens.lobby_create import CreateTableScreen
from twos_tui.ui.screens.lobby_dialogs import CodeDialog, LeaderboardScreen, QuickMatchScreen
from twos_tui.ui.screens.table import TableScreen

ADDRESS = ("127.0.0.1", 9350)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


def lobby_app(link: FakeLobbyLink, connect=None):
    app = make_app(autosave=False, ai_pause=None)
    app.on_start = lambda: app.open_lobby(link, ADDRESS, connect)
    return app


async def lobby_up(pilot, events: int = 1) -> LobbyScreen:
    """The lobby screen once it has handled ``events`` of the link's events."""
    return await wait_for_screen(
        pilot, LobbyScreen, "the lobby", when=lambda s: s.events_seen >= events
    )


def shown(screen, selector: str) -> str:
    return flat(str(screen.query_one(selector, Static).render()))


def tables_text(screen: LobbyScreen) -> str:
    lst = screen.query_one(TablesList)
    return flat(" ".join(str(o.prompt) for o in lst.options))


def toasts(app) -> str:
    """The notes in the corner (Textual's toasts) on the screen, as text."""
    from textual.widgets._toast import Toast

    return flat(" ".join(str(t.render()) for t in app.screen.query(Toast)))


def highlighted_id(screen: LobbyScreen) -> str | None:
    option = screen.query_one(TablesList).highlighted_option
    return option.id if option is not None else None


async def sent(pilot, link: FakeLobbyLink, count: int):
    await wait_for(pilot, lambda: len(link.requests) >= count, f"{count} request(s) sent")
    return link.requests[count - 1]


# ----- the words --------------------------------------------------------------------------
def test_the_lobby_words():
    assert [place_text(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
    ]  # fmt: skip
    assert [change_text(c) for c in (12.4, -7.6, 0.2, None)] == ["+12", "-8", "±0", "unrated"]
    assert [clock_words(s) for s in (0, 30, 120, 90)] == ["at once", "30 s", "2 min", "1 min 30 s"]
    assert mm_ss(0) == "0:00" and mm_ss(75.9) == "1:15"


# ----- what the lobby shows ---------------------------------------------------------------
async def test_lobby_shows_games_tables_and_the_player():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(120, 40), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        # it opens on the game played last (Big Two), its four tables listed
        assert screen.game == "big-two"
        await wait_for(pilot, lambda: "Big Two · 4 tables" in shown(screen, "#lobby-title"), "")
        text = tables_text(screen)
        assert "Table bt-101 · not started · 2 seats free" in text
        # seats: a name with its rating, free, an AI's level, away; markup-looking names
        assert "1 Bo[b] 1611 · 2 free · 3 AI hard · 4 free" in text
        assert "2 Dee (away)" in text
        assert "public · rated · clock 20 s + 2 min" in text
        assert "public · not rated · no clock" in text
        assert "private (needs its code)" in text
        assert "Table bt-103 · playing" in text and "5 watching" in text
        assert "4 players, 2s high off · nobody watching" in text
        assert "4 players, the usual rules · 2 watching" in text
        me = shown(screen, "#lobby-me")
        assert "Ann [admin]" in me
        assert "Big Two: rating 1532, 14 matches, rank #3" in me
        assert "1st of 4 · Big Two · +12" in me and "3rd of 4 · Big Two · -8" in me
        assert "2nd of 3 · Twos · unrated" in me
        # the screen as drawn shows the names as they are (never read as markup)
        await wait_for_text(pilot, "Bo[b] 1611", "Ann [admin]")
        games = flat(screen_text(pilot.app))
        assert "Big Two (4)" in games and "Twos (1)" in games and "Chinese Poker (1)" in games
        # another game: its tables and the player's rating there
        await pilot.press("left", "up")
        await wait_for(pilot, lambda: screen.game == "twos", "Twos chosen")
        await wait_for(pilot, lambda: "Table tw-201" in tables_text(screen), "Twos' table")
        assert "Table bt-101" not in tables_text(screen)
        assert "Twos: rating 1480, 3 matches, not ranked yet" in shown(screen, "#lobby-me")
        await pilot.press("up")
        await wait_for(pilot, lambda: "no open table" in shown(screen, "#lobby-title"), "none")


async def test_a_guest_is_marked_and_unrated():
    link = FakeLobbyLink(sample_state(guest=True))
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        me = shown(screen, "#lobby-me")
        assert "Ann [admin] (guest)" in me and "Guests play unrated games." in me


# ----- sit, watch -------------------------------------------------------------------------
async def test_sit_with_enter_and_s_and_watch_with_w():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-101", "the first table")
        await pilot.press("enter")
        assert await sent(pilot, link, 1) == SitDown("bt-101")
        await pilot.press("down", "s")
        assert await sent(pilot, link, 2) == SitDown("bt-102")
        await pilot.press("w")
        assert await sent(pilot, link, 3) == Watch("bt-102")
        # a full table: no request, a notice says why and what to do
        await pilot.press("down")
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-103", "the full table")
        await pilot.press("s")
        await wait_for_text(
            pilot,
            "Every seat at that table is taken: w watches it.",
            where=lambda: toasts(pilot.app),
        )
        assert len(link.requests) == 3
        # ... unless a seat there is yours (you left it, it is held): back to it
        mine = replace(
            sample_state(),
            tables=tuple(
                replace(t, seats=(seat("Ann [admin]", 1532.4, connected=False), *t.seats[1:]))
                if t.table_id == "bt-103"
                else t
                for t in sample_state().tables
            ),
        )
        link.push(mine)
        await wait_for(pilot, lambda: screen.state is mine, "the listing with Ann's seat")
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-103", "still the full table")
        await pilot.press("s")
        assert await sent(pilot, link, 4) == SitDown("bt-103")
        link.push(sample_state())
        await wait_for(pilot, lambda: screen.state is not mine, "the listing as before")
        # a private table asks for its code
        await pilot.press("down", "enter")
        dialog = await wait_for_screen(pilot, CodeDialog)
        dialog.query_one(Input).value = "ABCD-12"
        await pilot.press("enter")
        assert await sent(pilot, link, 5) == SitDown("bt-104", None, "ABCD-12")
        await wait_for_screen(pilot, LobbyScreen)


async def test_a_click_chooses_a_table_and_a_double_click_sits():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(120, 40), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-101", "the first table")
        lst = screen.query_one(TablesList)
        # the second table's first line: the border, 4 lines of the first table, its
        # divider, then it
        await pilot.click(lst, offset=(5, 6))
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-102", "the click's table")
        await pilot.pause()
        assert link.requests == []
        await pilot.press("w")
        assert await sent(pilot, link, 1) == Watch("bt-102")
        await pilot.click(lst, offset=(5, 1), times=2)
        assert await sent(pilot, link, 2) == SitDown("bt-101")


# ----- live updates -----------------------------------------------------------------------
async def test_updates_keep_the_table_chosen_and_the_scroll():
    state = sample_state()
    link = FakeLobbyLink(state)
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-101", "the first table")
        await pilot.press("down", "down", "down")
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-104", "the last table")
        lst = screen.query_one(TablesList)
        await wait_for(pilot, lambda: lst.scroll_y > 0, "the list scrolled")
        scroll = lst.scroll_y
        await pilot.press("up")
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-103", "the third table")
        assert lst.scroll_y == scroll
        # the same tables, changed: updated in place
        t101 = state.tables[0]
        changed = replace(t101, seats=(*t101.seats[:1], seat("Zed", 1500.0), *t101.seats[2:]))
        state = replace(state, tables=(changed, *state.tables[1:]))
        link.push(state)
        await wait_for(pilot, lambda: "2 Zed 1500" in tables_text(screen), "the new seat")
        assert highlighted_id(screen) == "bt-103" and lst.scroll_y == scroll
        # a new table at the end: the same table chosen, the same scroll
        new = TableInfo("bt-105", "big-two", 4, "", (seat(None),) * 4, 0, True, True, "", False)
        state = replace(state, tables=(*state.tables, new))
        link.push(state)
        await wait_for(pilot, lambda: "Table bt-105" in tables_text(screen), "the new table")
        await wait_for(pilot, lambda: lst.scroll_y == scroll, "the scroll kept")
        assert highlighted_id(screen) == "bt-103"
        # a table above it gone: still the same table chosen, and on the screen
        state = without_table(state, "bt-102")
        link.push(state)
        await wait_for(pilot, lambda: "Table bt-102" not in tables_text(screen), "it went")
        assert highlighted_id(screen) == "bt-103"
        await wait_for_text(pilot, "Table bt-103")
        # the chosen table goes: its neighbour is chosen
        link.push(without_table(state, "bt-103"))
        await wait_for(pilot, lambda: "Table bt-103" not in tables_text(screen), "it went")
        assert highlighted_id(screen) == "bt-104"
        # the game chosen stays chosen too
        await pilot.press("left", "up")
        await wait_for(pilot, lambda: screen.game == "twos", "Twos chosen")
        link.push(state)
        await wait_for(pilot, lambda: screen.events_seen == 5, "the fifth state")
        assert screen.game == "twos" and "Table tw-201" in tables_text(screen)


# ----- create -----------------------------------------------------------------------------
async def test_create_sends_the_table_chosen():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(100, 40), notifications=True) as pilot:
        await lobby_up(pilot)
        await pilot.press("c")
        dialog = await wait_for_screen(pilot, CreateTableScreen, when=lambda d: d.settled)
        assert dialog.game == "big-two" and len(dialog.seat_selects) == 3
        # the usual: public, rated, the 20 s + 2 min clock, every other seat free
        dialog.query_one("#create-players", Select).value = 3
        await wait_for(pilot, lambda: dialog.settled and len(dialog.seat_selects) == 2, "3")
        dialog.seat_selects[1].value = "hard"
        dialog.query_one("#create-public", Select).value = False
        dialog.query_one("#create-rated", Select).value = False
        dialog.query_one("#create-clock", Select).value = 2
        spec, sel = dialog.option_selects[0]
        other = next(i for i, (v, _) in enumerate(spec.choices) if v != spec.default)
        sel.value = other
        await wait_for_text(pilot, "• House rule: the usual is")
        await pilot.press("ctrl+s")
        request = await sent(pilot, link, 1)
        assert request == CreateTable(
            game="big-two",
            players=3,
            rules=((spec.id, spec.choices[other][0]),),
            public=False,
            ai_seats=(None, None, "hard"),
            rated=False,
            clock=None,
        )
        await wait_for_screen(pilot, LobbyScreen)
        # the defaults, in another game, by the button
        await pilot.press("c")
        dialog = await wait_for_screen(pilot, CreateTableScreen, when=lambda d: d.settled)
        dialog.query_one("#create-game", Select).value = "twos"
        await wait_for(pilot, lambda: dialog.settled and dialog.game == "twos", "Twos")
        await pilot.click("#create-ok")
        assert await sent(pilot, link, 2) == CreateTable(
            game="twos", players=3, ai_seats=(None, None, None)
        )
        # Esc: nothing sent
        await pilot.press("c")
        await wait_for_screen(pilot, CreateTableScreen, when=lambda d: d.settled)
        await pilot.press("escape")
        await wait_for_screen(pilot, LobbyScreen)
        assert len(link.requests) == 2


# ----- quick match ------------------------------------------------------------------------
async def test_quick_match_shows_the_queue_live_and_cancels(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(lobby_module, "now", lambda: clock[0])
    state = sample_state()
    link = FakeLobbyLink(state)
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await pilot.press("m")
        dialog = await wait_for_screen(pilot, QuickMatchScreen)
        assert dialog.query_one("#quick-game", Select).value == "big-two"
        dialog.query_one("#quick-wait", Select).value = 0.0
        dialog.query_one("#quick-players", Select).value = 4
        await pilot.click("#quick-start")
        assert await sent(pilot, link, 1) == QuickMatch("big-two", 4, 0.0)
        await wait_for_screen(pilot, LobbyScreen)
        # the server's queue: shown, and the time waited counts on between updates
        queued = replace(state, queue=QueueInfo("big-two", 4, 2, 30.0, 5.0))
        link.push(queued)
        line = screen.query_one("#lobby-queue", Static)
        await wait_for(pilot, lambda: line.display, "the queue line")
        text = shown(screen, "#lobby-queue")
        assert "Quick match: Big Two for 4 · 2 of 4 players here · waited 0:05" in text
        assert "AI fills the empty seats at 0:30" in text and "Esc cancels" in text
        assert "⌛ queued" in flat(screen_text(pilot.app))
        clock[0] += 26
        await wait_for(pilot, lambda: "waited 0:31" in shown(screen, "#lobby-queue"), "tick")
        assert "filling the empty seats with AI" in shown(screen, "#lobby-queue")
        # m again does nothing while queued; Esc cancels (and stays in the lobby)
        await pilot.press("m")
        await pilot.press("escape")
        assert await sent(pilot, link, 2) == CancelQuickMatch()
        assert isinstance(pilot.app.screen, LobbyScreen) and len(link.requests) == 2
        link.push(state)
        await wait_for(pilot, lambda: not line.display, "the queue line gone")
        # Esc with no queue leaves the lobby, and the link is closed
        await pilot.press("escape")
        await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: link.closed, "the link closed")


async def test_quick_match_other_game_and_players():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        await lobby_up(pilot)
        await pilot.press("m")
        dialog = await wait_for_screen(pilot, QuickMatchScreen)
        dialog.query_one("#quick-game", Select).value = "twos"
        players = dialog.query_one("#quick-players", Select)
        await wait_for(pilot, lambda: dialog.game == "twos", "Twos chosen")
        players.value = 2
        dialog.query_one("#quick-wait", Select).value = 120.0
        await pilot.press("ctrl+s")
        assert await sent(pilot, link, 1) == QuickMatch("twos", 2, 120.0)


# ----- the leaderboard --------------------------------------------------------------------
async def test_leaderboard_per_game_live():
    state = sample_state()
    link = FakeLobbyLink(state)
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        await lobby_up(pilot)
        await pilot.press("l")
        board = await wait_for_screen(pilot, LeaderboardScreen)
        table = board.query_one(DataTable)
        await wait_for(pilot, lambda: table.row_count == 4, "Big Two's rows")
        assert [str(c) for c in table.get_row_at(2)] == ["#3", "▸ Ann [admin] (you)", "1532", "14"]
        await wait_for_text(pilot, "Leaderboard · Big Two", "[red]Mallory", "1401")
        await pilot.press("right")
        await wait_for(pilot, lambda: board.game == "big-two-5r", "the next game")
        await wait_for_text(pilot, "No rated match of Big Two (five rounds) yet.")
        await pilot.press("left", "left")
        await wait_for(pilot, lambda: table.row_count == 1, "Twos' row")
        await wait_for_text(pilot, "You are not on this leaderboard yet.")
        # live: a new row arrives while it is open
        boards = dict(state.leaderboards)
        from twos_tui.play.lobby.model import LeaderRow

        boards["twos"] = (*boards["twos"], LeaderRow(2, "Ann [admin]", 1480.0, 3))
        link.push(replace(state, leaderboards=tuple(boards.items())))
        await wait_for(pilot, lambda: table.row_count == 2, "the new row")
        await pilot.press("escape")
        await wait_for_screen(pilot, LobbyScreen)


# ----- the answers ------------------------------------------------------------------------
async def test_a_refusal_is_a_notice_and_the_lobby_stays():
    reason = "That seat was just taken: choose another."
    link = FakeLobbyLink(sample_state(), answer=lambda r: [Refused(reason)])
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-101", "the first table")
        await pilot.press("s")
        await wait_for_text(pilot, reason, where=lambda: toasts(pilot.app))
        assert pilot.app.screen is screen and highlighted_id(screen) == "bt-101"


async def test_a_lost_connection_is_said():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        link.fail(ConnectionResetError("reset by peer"))
        await wait_for(
            pilot,
            lambda: "The connection to the lobby was lost" in shown(screen, "#lobby-title"),
            "the loss said",
        )


async def test_a_redirect_reconnects_and_asks_again():
    first = FakeLobbyLink(sample_state(), answer=lambda r: [Redirect("10.1.2.3:9351", "bt-101")])
    second = FakeLobbyLink(sample_state())
    asked: list[tuple[str, int]] = []

    async def connect(host: str, port: int) -> FakeLobbyLink:
        asked.append((host, port))
        return second

    async with lobby_app(first, connect).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        await wait_for(pilot, lambda: highlighted_id(screen) == "bt-101", "the first table")
        await pilot.press("w")
        assert await sent(pilot, first, 1) == Watch("bt-101")
        assert await sent(pilot, second, 1) == Watch("bt-101")
        assert asked == [("10.1.2.3", 9351)] and first.closed
        assert screen.address == ("10.1.2.3", 9351) and screen.link is second
        # the new link's events are the lobby's now
        second.push(replace(sample_state(), tables=()))
        await wait_for(pilot, lambda: "no open table" in shown(screen, "#lobby-title"), "new")


async def test_a_redirect_after_a_quick_match_sits_at_that_table():
    queued = QuickMatch("big-two", 4, 0.0)
    first = FakeLobbyLink(sample_state(), answer=lambda r: [Redirect("[::1]:9352", "q-9")])
    second = FakeLobbyLink(sample_state())

    async def connect(host: str, port: int) -> FakeLobbyLink:
        return second

    async with lobby_app(first, connect).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        screen.ask(queued)
        assert await sent(pilot, second, 1) == SitDown("q-9")
        assert screen.address == ("::1", 9352)


async def test_a_quick_match_sent_on_to_another_server_asks_there_again():
    """A ``redirect`` without a table after a quick match: people wait for that match in
    another server process; the lobby asks there again, marked so that process keeps
    the player (never sends them on a second time)."""
    queued = QuickMatch("big-two", 4, 30.0)
    first = FakeLobbyLink(sample_state(), answer=lambda r: [Redirect("10.9.8.7:9353", "")])
    second = FakeLobbyLink(sample_state())

    async def connect(host: str, port: int) -> FakeLobbyLink:
        return second

    async with lobby_app(first, connect).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        screen.ask(queued)
        assert await sent(pilot, second, 1) == replace(queued, redirected=True)
        assert screen.address == ("10.9.8.7", 9353)


async def test_seated_opens_the_table_as_join_does(data_home):
    """``Seated`` joins the real table at the lobby's address with the token given: it
    is kept where ``twos-tui join`` keeps tokens, and the table opens (a seat), or as a
    spectator when there is no seat."""
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with server_elsewhere(table) as server:
        link = FakeLobbyLink(sample_state())
        app = make_app(autosave=False, ai_pause=None)
        address = ("127.0.0.1", server.port)
        app.on_start = lambda: app.open_lobby(link, address)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await lobby_up(pilot)
            link.push(Seated("tw-1", table.code, 1, "lobby-token-1"))
            screen = await wait_for_screen(pilot, TableScreen, "the table")
            view = screen.table
            assert view.my_seat == 1 and not view.watching
            assert view.names[1] == "Ann [admin]"
            key = TokenStore.key(*address, table.code)
            assert TokenStore().get(key)  # the seat's token, kept for a rejoin
            # leaving the table goes back to the lobby, still connected
            await pilot.press("q")
            dialog = await wait_for_screen(pilot, ConfirmLeave)
            await wait_for_text(pilot, "Leave this table and go back to the lobby?")
            assert dialog.to_lobby
            await pilot.press("y")
            lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby again")
            assert app.table is None and not link.closed and not lobby.joining
            await wait_for(
                pilot, lambda: "Big Two · 4 tables" in shown(lobby, "#lobby-title"), "title"
            )
            # the lobby still lives: a new state shows
            link.push(replace(sample_state(), tables=()))
            await wait_for(pilot, lambda: "no open table" in shown(lobby, "#lobby-title"), "")
            await pilot.press("escape")
            await wait_for_screen(pilot, HomeScreen)
            await wait_for(pilot, lambda: link.closed, "the lobby's link closed")
        # watching: no seat, no token
        link = FakeLobbyLink(sample_state(), Seated("tw-1", table.code, None, ""))
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.open_lobby(link, address)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            screen = await wait_for_screen(pilot, TableScreen, "the table, watched")
            assert screen.table.watching and screen.spectator
            # a dialog open over the lobby when the seat comes gives way to the table
            app.go_home()
            lobby = await wait_for_screen(pilot, LobbyScreen, "the lobby again")
            await pilot.press("l")
            await wait_for_screen(pilot, LeaderboardScreen)
            link.push(Seated("tw-1", table.code, None, ""))
            screen = await wait_for_screen(pilot, TableScreen, "the table, watched again")
            assert screen.table.watching and lobby in app.screen_stack


async def test_connect_seated_keeps_the_token_where_join_looks(data_home, monkeypatch):
    from twos_tui.play.net.client import RemoteSeatView
    from twos_tui.ui.lobby_join import connect_seated

    seen = {}

    def fake_connect(host, port, code, name=None, token_store=None, watch=False, **kw):
        seen.update(host=host, port=port, code=code, name=name, watch=watch)
        seen["token"] = token_store.get(TokenStore.key(host, port, code))
        return "view"

    monkeypatch.setattr(RemoteSeatView, "connect", fake_connect)
    got = connect_seated("h", 9353, Seated("t", "ABCD", 2, "tok-2"), "Ann")
    assert got == "view"
    assert seen == dict(host="h", port=9353, code="ABCD", name="Ann", watch=False, token="tok-2")
    connect_seated("h", 9353, Seated("t", "WXYZ", None, ""), "Ann")
    assert seen["watch"] is True and seen["token"] is None


async def test_a_failed_join_is_said_and_the_lobby_stays(monkeypatch):
    from twos_tui.play.net.client import JoinError
    from twos_tui.ui import lobby_join

    def refused(*args, **kw):
        raise JoinError("No table has the code NOPE.")

    monkeypatch.setattr(lobby_join, "connect_seated", refused)
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        screen = await lobby_up(pilot)
        link.push(Seated("bt-101", "NOPE", 0, "t"))
        await wait_for_text(pilot, "No table has the code NOPE.", where=lambda: toasts(pilot.app))
        await wait_for(pilot, lambda: not screen.joining, "the join over")
        assert pilot.app.screen is screen and not link.closed
        await wait_for(
            pilot, lambda: "Big Two · 4 tables" in shown(screen, "#lobby-title"), "the title"
        )


async def test_q_goes_home_and_closes_the_link():
    link = FakeLobbyLink(sample_state())
    async with lobby_app(link).run_test(size=(80, 24), notifications=True) as pilot:
        await lobby_up(pilot)
        await pilot.press("q")
        await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: link.closed, "the link closed")


# ----- twos-tui join HOST[:PORT]: a real lobby server -----------------------------------
@contextlib.asynccontextmanager
async def lobby_elsewhere(tmp_path):
    """A real lobby server (TLS, SQLite) on a loop and thread of its own, as a server on
    another computer is: the table screen's calls that wait for the host do not hold it
    up."""
    import threading

    from twos_tui.play.lobby.server import LobbyServer
    from twos_tui.play.lobby.store import SqliteStore
    from twos_tui.play.net.tls import host_cert

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="test-lobby", daemon=True)
    thread.start()

    def on_server(coro):
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    async def make():
        server = LobbyServer(
            SqliteStore(tmp_path / "server" / "lobby.db"),
            process="test",
            rate=1000,
            burst=1000,
            cert=host_cert(),
            table_kw={"ai_pause": 0.0, "level": "easy", "seed": 1},
        )
        await server.start("127.0.0.1", 0)
        return server

    (tmp_path / "server").mkdir()
    server = await on_server(make())
    try:
        yield server
    finally:

        async def close():
            await server.close()
            server.store.close()  # (on the thread that opened it, as SQLite wants)

        with contextlib.suppress(Exception):
            await asyncio.wait_for(on_server(close()), 10)
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, 10)


async def test_join_without_a_code_opens_the_lobby_and_quick_matches(tmp_path):
    from twos_tui.ui.lobby_join import lobby_app as real_lobby_app

    async with lobby_elsewhere(tmp_path) as server:
        app, failed = real_lobby_app("127.0.0.1", server.port, "Zoe")
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            lobby = await wait_for_screen(
                pilot, LobbyScreen, "the lobby", when=lambda s: s.state is not None
            )
            assert lobby.state.me.name == "Zoe" and not lobby.state.me.guest
            # the first visit pinned the server's certificate, and says so
            await wait_for_text(pilot, "First visit", where=lambda: toasts(pilot.app))
            await wait_for(pilot, lambda: "Zoe" in shown(lobby, "#lobby-me"), "my panel")
            # quick match, at once: the AI fills the table and it opens
            await pilot.press("m")
            dialog = await wait_for_screen(pilot, QuickMatchScreen)
            dialog.query_one("#quick-game", Select).value = "twos"
            await wait_for(pilot, lambda: dialog.game == "twos", "Twos chosen")
            dialog.query_one("#quick-wait", Select).value = 0.0
            await pilot.press("ctrl+s")
            table = await wait_for_screen(pilot, TableScreen, "the quick match's table")
            assert table.table.my_seat is not None and not table.table.watching
            assert "Zoe" in table.table.names
            # leave: the lobby again, with the table listed (it goes on with the AI)
            await pilot.press("q")
            await wait_for_screen(pilot, ConfirmLeave)
            await pilot.press("y")
            await wait_for_screen(pilot, LobbyScreen, "the lobby again")
            await pilot.press("escape")
            await wait_for_screen(pilot, HomeScreen)
        assert failed == []


async def test_join_without_a_code_says_when_there_is_no_lobby():
    from twos_tui.ui.lobby_join import lobby_app as real_lobby_app

    app, failed = real_lobby_app("127.0.0.1", 9357)  # nothing listens there
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: failed, "the lobby's failure")
    assert "127.0.0.1:9357" in failed[0] and app.return_code in (None, 0)


def test_run_lobby_says_why_in_one_line(monkeypatch, capsys):
    """A lobby that refuses us: one line, status 2, and no crash report."""
    from twos_tui.ui import app as app_module
    from twos_tui.ui import lobby_join

    def refused(app):
        app.on_start = None
        failed.append("A name may use letters, digits, spaces and the marks - _ . only.")
        return 0

    failed: list[str] = []
    real = lobby_join.lobby_app
    monkeypatch.setattr(lobby_join, "lobby_app", lambda *a: (real(*a)[0], failed))
    monkeypatch.setattr(app_module, "run_built", refused)
    assert lobby_join.run_lobby("127.0.0.1", 9359, "Bo[b]") == 2
    err = capsys.readouterr().err
    assert err == "twos-tui: A name may use letters, digits, spaces and the marks - _ . only.\n"


def test_join_without_a_code_is_the_lobby(monkeypatch, capsys):
    """``twos-tui join HOST[:PORT]`` opens the lobby there (with ``--name``); with
    ``--bot`` or ``--watch`` a code is still needed."""
    from twos_tui.cli import main
    from twos_tui.ui import lobby_join

    asked = []
    monkeypatch.setattr(lobby_join, "run_lobby", lambda *a: asked.append(a) or 0)
    assert main(["join", "127.0.0.1:9358", "--name", "Zoe"]) == 0
    assert main(["join", "[::1]"]) == 0
    # (the SSH door's lobby: leaving it ends the program; a guest who came without a key)
    assert main(["join", "127.0.0.1:9358", "--guest", "--no-key"]) == 0
    assert asked == [
        ("127.0.0.1", 9358, "Zoe", False, False),
        ("::1", 7417, None, False, False),
        ("127.0.0.1", 9358, None, True, True),
    ]
    assert main(["join", "127.0.0.1:9358", "--bot", "easy"]) == 2
    assert main(["join", "127.0.0.1:9358", "--watch"]) == 2
    assert "join code" in capsys.readouterr().err and len(asked) == 3


async def test_home_join_without_a_code_opens_the_lobby(tmp_path):
    """Home → Join a table, with the address of a lobby server and no code: its lobby."""
    from twos_tui.ui.screens.join import JoinScreen

    async with lobby_elsewhere(tmp_path) as server:
        app = make_app(autosave=False, ai_pause=None)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for_screen(pilot, HomeScreen)
            await pilot.press("j")
            join = await wait_for_screen(pilot, JoinScreen)
            join.query_one("#join-address", Input).value = f"127.0.0.1:{server.port}"
            join.query_one("#join-name", Input).value = "Uma"
            await pilot.click("#join")
            lobby = await wait_for_screen(
                pilot, LobbyScreen, "the lobby", when=lambda s: s.state is not None
            )
            assert lobby.state.me.name == "Uma"
            await wait_for(pilot, lambda: "Uma" in shown(lobby, "#lobby-me"), "my panel")
            await wait_for_text(pilot, "First visit", where=lambda: toasts(pilot.app))
            await pilot.press("escape")
            await wait_for_screen(pilot, HomeScreen)
