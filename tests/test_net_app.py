"""The real app at a networked table, driven by Pilot: as a client that joined a table
hosted elsewhere (its screen shows its own seat's view only), and as the host (a bot
joins from "another computer", the host plays at its screen)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from net_helpers import join, live_server, remote_table, server_elsewhere
from textual.widgets import Input
from ui_helpers import wait_for, wait_for_screen

from twos_tui.play.net.client import RemoteSeatView, play_bot
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.join import JoinScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView


async def wait_until(pilot, cond, what: str = "the state waited for") -> None:
    """Wait for a state (the host's answer comes over a socket): polled, with a bound
    generous enough for a busy machine; the test waits only as long as the state takes."""
    await wait_for(pilot, cond, what)


def hand_text(screen: TableScreen) -> str:
    return str(screen.query_one(HandView).render())


async def test_app_joins_a_hosted_table_and_plays(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False
        )
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                assert screen.table is view and view.remote
                seat = view.controls[0]
                assert screen.viewer == seat
                # other seats' hands are never visible to this screen
                for other in range(view.players):
                    if other != seat:
                        try:
                            view.observation(other)
                        except PermissionError:
                            pass
                        else:
                            raise AssertionError("a remote view showed another seat's hand")
                moves = 0
                while moves < 6 and not view.deal_over:
                    await wait_until(
                        pilot,
                        lambda: view.deal_over or (seat in view.to_act() and screen._decision),
                    )
                    if view.deal_over:
                        break
                    hand = view.observation(seat).hand
                    shown = hand_text(screen)
                    for code in hand:
                        assert view.card_face(code).label in shown
                    # the hidden cards of the whole deal (as the host knows them) are
                    # never drawn on this screen
                    for code in table.game.hidden_from(seat):
                        assert view.card_face(code).label not in shown
                    before = view.action_count
                    screen.act(view.legal_actions(seat)[0])
                    await wait_until(pilot, lambda b=before: view.action_count > b)
                    moves += 1
                assert moves >= 1
                assert table.game.actions  # the host applied them
                await pilot.press("i")
                await wait_until(
                    pilot,
                    lambda: "127.0.0.1" in str(app.screen.query_one("#info-body").render()),
                    "the table's address in its info",
                )
        finally:
            view.close()


async def test_app_hosts_a_table_a_bot_joins(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    from twos_tui.play.net.server import HostedTable, TableServer

    table = HostedTable.create(
        "twos",
        ["human", "remote", "ai"],
        names=["Host", "", "Cleo"],
        options={"deals_to_win": 1},
        seed=9,
        level="easy",
        autosave=False,
        drive_ai=False,
    )
    server = TableServer()
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.host_table(table, server, "127.0.0.1", 0)
    async with app.run_test(size=(100, 30)) as pilot:
        # (a screen is on top of the stack as soon as it is pushed, before it is mounted
        # and drawn: wait for it to be up; test_a_hosted_table_is_drawn_with_its_code
        # checks every frame drawn)
        await wait_until(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted
        )
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert table.code in screen.sub_title
        bot = await join(server, table, "Robo")
        bot_task = asyncio.create_task(play_bot(bot, "easy"))
        try:
            # undo is off at a table with a player on another computer
            await pilot.press("ctrl+z")
            line = screen.query_one("#message")
            await wait_until(pilot, lambda: "other computers" in str(line.render()), "no undo")
            host_moves = 0
            for _ in range(40):
                await wait_until(
                    pilot,
                    lambda: table.game.deal_over or (0 in table.game.to_act() and screen._decision),
                )
                if table.game.deal_over:
                    break
                screen.act(table.game.legal_actions(0)[0])
                host_moves += 1
                await pilot.pause()
            assert host_moves >= 1
            # the remote player's name replaced the seat's, and it moved from its own screen
            assert "Robo" in table.game.names
            robo = table.game.names.index("Robo")
            assert any(seat == robo for seat, _ in table.game.actions)
        finally:
            bot_task.cancel()
            await bot.close()
    assert server.server is None or not server.tables  # the server stopped with the table


async def test_join_screen_reports_an_unreachable_host(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    async with live_server() as server:
        port = server.port
    # nothing listens there any more
    app = make_app(autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        screen = await wait_for_screen(pilot, JoinScreen)
        screen.query_one("#join-address", Input).value = f"127.0.0.1:{port}"
        screen.query_one("#join-code", Input).value = "ABCD-EFGH"
        screen.action_join()
        await wait_until(
            pilot,
            lambda: "✗" in str(screen.query_one("#join-error").render()),
            "the join refused",
        )
        assert isinstance(app.screen, JoinScreen)


@pytest.mark.slow
async def test_a_joined_player_keeps_their_own_results_in_their_history(tmp_path, monkeypatch):
    """The client records each finished deal as its seat saw it: its own result only
    (the others are recorded on their own computers), and says a replay is not kept."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    from twos_tui.play import history
    from twos_tui.play.replay import load_replay

    table = remote_table("twos", seed=3, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False
        )
        app = make_app(autosave=True, ai_pause=None)
        app.on_start = lambda: app.start_session(view)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                seat = view.controls[0]
                for _ in range(200):
                    await wait_until(
                        pilot,
                        lambda: view.deal_over or (seat in view.to_act() and screen._decision),
                    )
                    if view.deal_over:
                        break
                    before = view.action_count
                    screen.act(view.legal_actions(seat)[0])
                    await wait_until(pilot, lambda b=before: view.action_count > b)
                assert view.deal_over
                await wait_until(pilot, lambda: view._recorded >= 1)
        finally:
            view.close()
    assert history.RECORDER.flush(timeout=10)
    conn = history.open_history()
    rows = conn.execute("SELECT player, seat FROM results").fetchall()
    assert [tuple(r) for r in rows] == [("Zoe", seat)]  # this seat only
    deal_id = conn.execute("SELECT id FROM deals").fetchone()[0]
    match = conn.execute("SELECT match_key, seats FROM matches").fetchone()
    assert match[0].startswith(history.JOINED_PREFIX)
    try:
        load_replay(conn, deal_id)
    except history.HistoryError as e:
        assert "hosted on another computer" in str(e)
    else:
        raise AssertionError("a joined deal cannot be replayed: its cards were never known")


@pytest.mark.slow
async def test_a_hosted_save_reopens_as_the_hosted_table(tmp_path, monkeypatch):
    """Continue on a table this app hosted reopens it hosted (same code, where it
    listened): never as a local game, which would show the remote seat's hand here."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    from twos_tui.play.net.host_view import HostSeatView
    from twos_tui.play.net.server import HostedTable, TableServer
    from twos_tui.play.saves import scan_saves

    table = HostedTable.create(
        "twos", ["human", "remote", "ai"], names=["Host", "", "Cleo"], seed=4, drive_ai=False
    )
    code = table.code
    app = make_app(autosave=True, ai_pause=0)
    app.on_start = lambda: app.host_table(table, TableServer(), "127.0.0.1", 0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        port = app.table.server.port
        bot = await join(app.table.server, table, "Robo")
        await wait_until(pilot, lambda: table.started)  # every seat taken: play began
        app.go_home()  # the table is left: its server stops, its save stays
        await pilot.pause()
        await bot.close()
        info = next(i for i in scan_saves() if i.save_id == table.session.save_id)
        app.resume(info)
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        view = app.screen.table
        assert isinstance(view, HostSeatView)
        assert view.code == code and 1 not in view.controls and 1 not in view.visible
        assert view.server.port == port  # where it listened before
        app.go_home()
        await pilot.pause()


@pytest.mark.slow
async def test_app_watches_chats_and_takes_a_free_seat(tmp_path, monkeypatch):
    """A spectator's screen: no hand (a sentence says so), the public view; ``c`` says a
    line that the log panel shows as typed (markup stays text); ``j`` takes the free
    seat and the hand appears."""
    from twos_tui.ui.widgets import PlayLog

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False, watch=True
        )
        assert view.watching
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert screen.viewer is None and view.controls == ()
                await wait_until(pilot, lambda: "Watching" in hand_text(screen))
                assert "j takes it" in hand_text(screen)
                await pilot.press("c")
                await wait_until(pilot, lambda: bool(app.screen.query(Input)))
                await pilot.press(*"[bold]hi[/bold]", "enter")
                log = screen.query_one(PlayLog)
                await wait_until(
                    pilot,
                    lambda: any(
                        e.plain == "Chat · Zoe (watching): [bold]hi[/bold]" for e in log.entries
                    ),
                )
                await pilot.press("j")
                await wait_until(pilot, lambda: screen.viewer == 1)
                assert not view.watching
                await wait_until(pilot, lambda: bool(view.observation(1).hand))
                shown = hand_text(screen)
                for code in view.observation(1).hand:
                    assert view.card_face(code).label in shown
        finally:
            await asyncio.to_thread(view.close)


@pytest.mark.slow
async def test_join_screen_watch_button_watches_a_table(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        app = make_app(autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            screen = await wait_for_screen(pilot, JoinScreen)
            screen.query_one("#join-address", Input).value = f"127.0.0.1:{server.port}"
            screen.query_one("#join-code", Input).value = table.code
            await pilot.click("#watch")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
            view = app.screen.table
            assert view.watching and view.controls == ()
            assert not table.seats[1].claimed  # watching takes no seat
            await pilot.press("q")
            await pilot.press("y")
            await wait_until(pilot, lambda: not isinstance(app.screen, TableScreen))


async def test_a_change_from_the_network_thread_runs_in_the_apps_context(tmp_path, monkeypatch):
    """What the network's thread asks the table to redraw runs with the app's context
    variables, so a timer it starts (the deal end after the trick pause) can fire: before,
    its task had the network thread's context and failed with a LookupError."""
    import threading

    from textual._context import active_app

    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.table import TableScreen

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    app = make_app("twos", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_screen(pilot, TableScreen)
        fired = []
        done = asyncio.Event()

        def tick() -> None:
            fired.append(active_app.get())
            done.set()

        def redraw() -> None:  # what a redraw may do: start a timer
            screen.set_timer(0.01, tick)

        monkeypatch.setattr(screen, "changed_elsewhere", redraw)
        t = threading.Thread(target=screen.table.changed_elsewhere)
        t.start()
        t.join()
        # the state, not a clock: the timer either fires (then at once) or fails
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 30)
        assert fired == [app]


async def test_a_hosted_table_is_drawn_with_its_code(tmp_path, monkeypatch):
    """``twos-tui host``: the home screen is the app's first screen and the table is
    pushed over it at once; every frame the terminal gets of the table shows its title
    and join code (none is drawn before the table's screen has set them)."""
    from textual.app import App

    from twos_tui.play.net.server import HostedTable, TableServer

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    frames: list[tuple[str, str | None]] = []
    display = App._display

    def record(app, screen, renderable):
        if renderable is not None:
            frames.append((type(screen).__name__, screen.sub_title))
        return display(app, screen, renderable)

    monkeypatch.setattr(App, "_display", record)
    table = HostedTable.create(
        "twos", ["human", "remote", "ai"], seed=9, autosave=False, drive_ai=False
    )
    server = TableServer()
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.host_table(table, server, "127.0.0.1", 0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: any(name == "TableScreen" for name, _ in frames), "the table drawn"
        )
    drawn = [title for name, title in frames if name == "TableScreen"]
    assert drawn and all(title and table.code in title for title in drawn)


async def test_w_once_asks_before_leaving_the_seat(tmp_path, monkeypatch):
    """A joined player's first ``w`` does not leave the seat: the message line says to
    press it again (the seat is held for them), and the hand stays."""
    from twos_tui.ui.widgets import MessageLine

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                await wait_until(pilot, lambda: "Watching" in hand_text(screen))
                assert not screen.check_action("watch_instead", ())  # no seat to leave yet
                await pilot.press("j")
                await wait_until(pilot, lambda: screen.viewer == 1 and view.can_leave_seat)
                await wait_until(pilot, lambda: "Watching" not in hand_text(screen))
                assert screen.check_action("watch_instead", ())
                message = screen.query_one(MessageLine)
                await pilot.press("w")
                await wait_until(
                    pilot, lambda: "Press w again" in str(message.render()), "the question"
                )
                assert screen.viewer == 1 and not view.watching
                assert "Watching" not in hand_text(screen)
        finally:
            await asyncio.to_thread(view.close)


def key_bar_text(app) -> str:
    from twos_tui.ui.widgets import KeyBar

    return app.screen.query_one(KeyBar).shown_text()


async def test_w_twice_leaves_the_seat_to_watch_and_j_sits_again(tmp_path, monkeypatch):
    """A joined player's second ``w`` leaves the seat: the screen becomes a spectator's
    (the hand area says Watching, no card of the old hand is drawn, ``j`` is offered
    while a seat is free) with no error; ``j`` then takes a seat and its hand shows.
    The host runs on its own thread, as on another computer."""
    from twos_tui.ui.widgets import MessageLine

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "remote"], autosave=False)
    async with server_elsewhere(table) as server:
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False
        )
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                seat = view.my_seat
                assert screen.viewer == seat
                await wait_until(pilot, lambda: "Watching" not in hand_text(screen))
                labels = [view.card_face(c).label for c in view.observation(seat).hand]
                assert labels and all(label in hand_text(screen) for label in labels)
                message = screen.query_one(MessageLine)
                await pilot.press("w")
                await wait_until(pilot, lambda: "Press w again" in str(message.render()))
                await pilot.press("w")
                await wait_until(
                    pilot,
                    lambda: "You are watching" in str(message.render()),
                    "the screen to say the seat was left",
                )
                assert view.watching and screen.viewer is None and screen.spectator
                assert "host did not answer" not in str(message.render())
                await wait_until(pilot, lambda: "Watching" in hand_text(screen))
                shown = hand_text(screen)
                assert not any(label in shown for label in labels)  # no card of the hand
                assert not screen.check_action("watch_instead", ())
                # the other remote seat is free: j is offered in the key bar
                await wait_until(pilot, lambda: view.can_sit, "a free seat")
                await wait_until(
                    pilot, lambda: "Take a seat" in key_bar_text(app), "j in the key bar"
                )
                await pilot.press("j")
                await wait_until(
                    pilot,
                    lambda: not view.watching and screen.viewer == view.my_seat,
                    "the seat taken",
                )
                assert "You took a seat" in str(message.render())
                back = view.my_seat
                await wait_until(pilot, lambda: "Watching" not in hand_text(screen))
                hand = [view.card_face(c).label for c in view.observation(back).hand]
                await wait_until(
                    pilot, lambda: hand and all(label in hand_text(screen) for label in hand)
                )
                assert "Take a seat" not in key_bar_text(app)
                assert isinstance(app.screen, TableScreen)  # no error on the way
        finally:
            await asyncio.to_thread(view.close)


async def test_w_twice_when_the_host_answers_late(tmp_path, monkeypatch):
    """The host's answer to the second ``w`` comes after the screen stopped waiting for
    it (here the host shares the screen's loop, so it answers only once the screen has
    given up): the host's public state still turns the screen into a spectator's, with
    no hand and no error, and the message line says so."""
    from twos_tui.ui.widgets import MessageLine

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False
        )
        view.client.timeout = 1.0  # (the screen gives up on the answer sooner)
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                seat = view.my_seat
                await wait_until(pilot, lambda: "Watching" not in hand_text(screen))
                labels = [view.card_face(c).label for c in view.observation(seat).hand]
                message = screen.query_one(MessageLine)
                await pilot.press("w")
                await wait_until(pilot, lambda: "Press w again" in str(message.render()))
                await pilot.press("w")
                await wait_until(
                    pilot,
                    lambda: "You are watching" in str(message.render()),
                    "the screen to say the seat was left",
                )
                assert view.watching and screen.viewer is None and screen.spectator
                await wait_until(pilot, lambda: "Watching" in hand_text(screen))
                shown = hand_text(screen)
                assert not any(label in shown for label in labels)
                assert table.seats[seat].conn is None  # the host holds the seat
                assert isinstance(app.screen, TableScreen)
        finally:
            await asyncio.to_thread(view.close)
