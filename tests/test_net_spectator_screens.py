"""A spectator's screen, as a person watching sees it, for each of the six games: a real
server on 127.0.0.1, a bot in the remote seat, the host's AI in the others, and the app
joined with ``--watch``. The tests read the rendered screen (the seat boxes, the table,
the key bar), never only the messages behind it: every seat's name and card count is
drawn and follows the moves, the table's text moves with them, no hand is drawn and no
hidden card's label appears anywhere, and no key that acts is offered. The deal-end and
match-end summaries come to the spectator too (waiting for the players, never asking
them to go on), and give way to the next deal. Snapshots at 80×24 show a climbing and a
trick game as a spectator sees them, at a fixed point of a seeded game."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading

import pytest
from net_helpers import PLAYERS, join, live_server, play_moves, remote_table
from textual.widgets import Static
from ui_helpers import WAIT_S, flat, region_text, screen_lines, screen_text, wait_for

from twos_tui.play.net.client import RemoteSeatView, TableClient
from twos_tui.play.net.server import TableServer
from twos_tui.ui.app import make_app
from twos_tui.ui.boards import HIDDEN_NOTE, Board, TrickBoard
from twos_tui.ui.hosting import joined_view
from twos_tui.ui.screens.dialogs import DealEndScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView, KeyBar, PlayLog, SeatPanel

#: words of the keys that act: a spectator's key bar offers none of them
ACTING_WORDS = ("Select", "Play", "Hint", "Pass", "Sort", "Undo", "Choose", "Next")
COUNT = re.compile(r"(\d+) cards?\b")


async def wait_until(pilot, cond, what: str = "the state", tries: int = 0) -> None:
    """Wait for a state (it comes over a socket, on a busy machine): bounded in seconds
    (``ui_helpers.wait_for``), for no longer than the state takes; on failure the screen
    is shown. (``tries``: kept for callers; the bound is time, not a count.)"""
    try:
        await wait_for(pilot, cond, what, timeout=WAIT_S * 2 if tries > 3000 else WAIT_S)
    except AssertionError as e:
        raise AssertionError(f"{e}; the screen shows:\n{screen_text(pilot.app)}") from e


def public_counts(view: RemoteSeatView) -> list[int]:
    public = view.public_observation()
    return list(public.hand_counts) if public is not None else []


def box_text(app, widget) -> str:
    """What ``widget`` shows on the screen, without its side borders (light, or heavy
    for the seat to play), so that wrapped text reads on with :func:`flat`."""
    r = widget.region
    lines = screen_lines(app)[r.y : r.bottom]
    return "\n".join(line[r.x : r.right].strip().strip("│┃").strip() for line in lines)


def seat_boxes(app, screen: TableScreen) -> dict[str, str]:
    """Each seat's box as drawn, by the seat's name: the climbing games' seat panels
    (every seat, in a row), or the trick games' compass (one text: the board)."""
    board = screen.query_one(Board)
    if isinstance(board, TrickBoard):
        text = region_text(app, board)
        return {name: text for name in screen.game.names if name in text}
    out = {}
    for panel in screen.query(SeatPanel):
        if panel.display:
            text = box_text(app, panel)
            for name in screen.game.names:
                if name in text:  # in the title, or (a narrow panel) the first line
                    out[name] = text
    return out


def boxes_show(app, screen: TableScreen, view: RemoteSeatView) -> bool:
    """Every seat's box shows its name and its card count as the public view has it."""
    counts = public_counts(view)
    names = view.names
    boxes = seat_boxes(app, screen)
    if len(counts) != len(names) or set(boxes) != set(names):
        return False
    if isinstance(screen.query_one(Board), TrickBoard):
        drawn = sorted(int(n) for n in COUNT.findall(flat(region_text(app, screen.board))))
        return drawn == sorted(counts)
    return all(
        [int(n) for n in COUNT.findall(flat(boxes[name]))] == [counts[seat]]
        for seat, name in enumerate(names)
    )


def hidden_labels(table, view: RemoteSeatView) -> dict[str, str]:
    g = table.game
    hidden: set[str] = set()
    for seat in range(g.players):
        hidden |= g.hidden_from(seat)
    return {code: view.card_face(code).label for code in hidden}


def assert_watching_screen(app, screen: TableScreen, table, view: RemoteSeatView) -> None:
    """No hand, no hidden card, no key or button that acts; the table is not hidden."""
    shown = screen_text(app)
    assert HIDDEN_NOTE[:30] not in flat(shown)
    hand = screen.query_one(HandView)
    assert hand.cards == [] and "Watching" in str(hand.render())
    # the screen but the log, and the log's lines of this deal but the cut (the dealer's
    # cut is public, from a deck shuffled again before the deal)
    log = screen.query_one(PlayLog)
    r = log.region
    outside = [
        line[: r.x] + line[r.right :] if r.y <= y < r.bottom else line
        for y, line in enumerate(screen_lines(app))
    ]
    logged = [e.plain for e in log.entries if not e.plain.startswith("Cut for the deal")]
    for code, label in hidden_labels(table, view).items():
        assert label not in "\n".join(outside), (code, label, shown)
        assert not [line for line in logged if label in line], (code, label, logged)
    keys = screen.query_one(KeyBar).shown_text()
    assert "Home" in keys and "Scores" in keys and "Log" in keys, keys
    assert "Help" in keys or screen.query_one("#help").display  # (the button, at 80 columns)
    for word in ACTING_WORDS:
        assert word not in keys, (word, keys)
    for button in ("#submit", "#hint", "#sort"):
        assert not screen.query_one(button).display, button
    enabled = {b.action for _k, (_n, b, on, _t) in screen.active_bindings.items() if on}
    acting = {"pick", "submit", "pass_turn", "hint", "sort", "undo", "watch_instead"}
    assert not {a.split("(")[0] for a in enabled} & acting, enabled


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PLAYERS))
async def test_a_spectator_sees_every_seat_and_the_table_move(variant, tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    kinds = ["remote"] + ["ai"] * (PLAYERS[variant] - 1)
    table = remote_table(variant, seed=3, kinds=kinds, autosave=False, ai_pause=0.05)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        bot: TableClient | None = None
        playing: asyncio.Future | None = None
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen) and screen.spectator
                # before anyone plays: every seat drawn (a free seat says so), no hand
                await wait_until(
                    pilot, lambda: boxes_show(app, screen, view), "the seats before play"
                )
                assert "free" in flat(screen_text(app))
                assert_watching_screen(app, screen, table, view)
                before_boxes = seat_boxes(app, screen)
                before_table = region_text(app, screen.board)
                # the bot takes the free seat and plays; the AI seats play on
                bot = await join(server, table, "Ana")
                playing = asyncio.ensure_future(play_moves(bot, 3))
                g = table.game
                await wait_until(pilot, lambda: playing.done(), "the bot's moves", tries=6000)
                # the table stops at the bot's next turn (or the deal's end): the spectator
                # has every move, and the screen shows it
                await wait_until(
                    pilot,
                    lambda: (
                        (g.deal_over or bot.seat in g.to_act())
                        and view.action_count == len(g.actions)
                        and boxes_show(app, screen, view)
                        and "Ana" in seat_boxes(app, screen)
                    ),
                    "the spectator's screen after the moves",
                )
                assert g.deal_number == 1  # (the hidden cards below are this deal's)
                after_boxes = seat_boxes(app, screen)
                after_table = region_text(app, screen.board)
                assert after_boxes != before_boxes and after_table != before_table
                counts = public_counts(view)
                assert counts == list(g.observation(0)["hand_counts"])
                assert_watching_screen(app, screen, table, view)
                # the public views open for a spectator: the log, the score sheet
                await pilot.press("o")
                await wait_until(pilot, lambda: app.screen is not screen, "the score sheet")
                await pilot.press("escape")
                await wait_until(pilot, lambda: app.screen is screen, "the table again")
                # a key that acts does nothing: no selection, no move, no message of one
                n = len(g.actions)
                await pilot.press("space", "enter", "h", "p", "s")
                await pilot.pause()
                assert len(g.actions) == n and screen.selected == set()
                assert app.screen is screen
        finally:
            if playing is not None:
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
            if bot is not None:
                await bot.close()
            await asyncio.to_thread(view.close)


@pytest.mark.slow
async def test_the_deal_end_and_the_match_end_come_to_a_spectator(tmp_path, monkeypatch):
    """The summary of each deal comes to the spectator as to the players, but asks
    nothing of them: it says it waits for the players, offers only to keep watching (or
    go home), and gives way when the players begin the next deal. The match's end comes
    too."""
    from twos_tui.play.net.client import play_bot
    from twos_tui.play.net.server import HostedTable
    from twos_tui.ui.screens import table_flow

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    monkeypatch.setattr(table_flow, "SPECTATOR_READ_S", 0.0)  # (it closes once read)
    table = HostedTable.create(
        "twos",
        ["remote", "ai", "ai"],
        options={"deals_to_win": 2},
        seed=3,
        level="easy",
        autosave=False,
    )
    g = table.game
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=0.0)
        app.on_start = lambda: app.start_session(joined_view(view))
        bot = await join(server, table, "Ana")
        playing = asyncio.ensure_future(play_moves(bot, 1000))  # never says ready
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                table_screen = app.screen
                await wait_until(
                    pilot,
                    lambda: (
                        isinstance(app.screen, DealEndScreen)
                        and "Keep watching" in screen_text(app)
                    ),
                    "the deal's end",
                )
                assert g.deal_over and not g.match_over
                shown = flat(screen_text(app))
                assert "Deal 1 over" in shown and "Keep watching" in shown
                assert "Waiting for the players to start the next deal" in shown
                assert "Next deal" not in shown  # the players start it, not a spectator
                keys = app.screen.query_one(KeyBar).shown_text()
                assert "Keep watching" in keys and "Continue" not in keys, keys
                # the players go on: the summary gives way to the next deal
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
                playing = asyncio.ensure_future(play_bot(bot, "easy"))
                await wait_until(
                    pilot,
                    lambda: app.screen is table_screen and view.deal_number == 2,
                    "the next deal on the spectator's table",
                )
                assert "Deal 2" in screen_text(app)
                # the match's end
                await wait_until(
                    pilot,
                    lambda: (
                        isinstance(app.screen, DealEndScreen) and "Match over" in screen_text(app)
                    ),
                    "the match's end",
                )
                shown = flat(screen_text(app))
                assert "You are watching: the match is over." in shown
                assert "Play again" not in shown and "Next deal" not in shown
                await pilot.press("enter")  # keep watching: the table, as it ended
                await wait_until(pilot, lambda: app.screen is table_screen, "the table again")
                assert "Watching" in str(table_screen.query_one(HandView).render())
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await bot.close()
            await asyncio.to_thread(view.close)


@pytest.mark.slow
async def test_a_spectator_sees_a_dropped_seat_held_then_played_by_the_ai(tmp_path, monkeypatch):
    """A seat's note is drawn in its box on a spectator's screen: free, then the player's
    name, "dropped: seat held M:SS" when the connection goes, and "away: the AI plays for
    them" when the hold runs out."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=3, kinds=["remote", "ai", "ai"], autosave=False, hold_s=3.0)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen

                def box() -> str:
                    return flat(seat_boxes(app, screen).get(view.names[0], ""))

                await wait_until(pilot, lambda: "free: waiting for a player" in box(), "free")
                bot = TableClient("127.0.0.1", server.port, table.code, "Ana", retry_delays=())
                await bot.open()
                await wait_until(pilot, lambda: "Ana" in box() and "free" not in box(), "Ana")
                await bot.drop()  # the connection goes, and does not come back
                await wait_until(pilot, lambda: "dropped: seat held" in box(), "the hold")
                await wait_until(
                    pilot, lambda: "away: the AI plays for them" in box(), "the AI taking over"
                )
                await bot.close()
        finally:
            await asyncio.to_thread(view.close)


# ----- snapshots -------------------------------------------------------------------------
@contextlib.contextmanager
def table_on_a_thread(variant: str, kinds: list[str], seed: int, moves: int):
    """A live server on a thread of its own (a snapshot runs the app on its own loop):
    ``variant``'s seeded table, where a player in seat 0 makes ``moves`` moves (the same
    each time) and stops; the AI seats play on until seat 0's turn comes again, so the
    table always stands at the same point. Yields (server, table)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="spectator-server", daemon=True)
    thread.start()

    def run(coro, timeout: float = 120.0):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)

    async def setup() -> tuple[TableServer, object, TableClient]:
        server = TableServer()
        await server.start("127.0.0.1", 0)
        table = server.add(remote_table(variant, seed=seed, kinds=kinds, autosave=False))
        player = await join(server, table, "Ana")
        await play_moves(player, moves)
        g = table.game
        while not (g.deal_over or 0 in g.to_act()):
            await asyncio.sleep(0.01)
        return server, table, player

    server, table, player = run(setup())
    try:
        yield server, table
    finally:
        run(player.close())
        run(server.close())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def spectator_snapshot(snap_compare, variant: str, kinds: list[str], moves: int) -> bool:
    with table_on_a_thread(variant, kinds, 3, moves) as (server, table):
        n = len(table.game.actions)
        view = RemoteSeatView.connect(
            "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        joined_view(view)
        view.banner = "at 127.0.0.1"  # (the port is any free one: not in the picture)
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(view)

        async def run_before(pilot) -> None:
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
            await wait_until(
                pilot,
                lambda: view.action_count == n and boxes_show(app, app.screen, view),
                "the table at its fixed point",
            )

        try:
            return bool(snap_compare(app, terminal_size=(80, 24), run_before=run_before))
        finally:
            view.close()


@pytest.mark.slow
def test_snapshot_a_spectator_at_a_climbing_table(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    assert spectator_snapshot(snap_compare, "twos", ["remote", "ai", "ai"], 3)


@pytest.mark.slow
def test_snapshot_a_spectator_at_a_trick_table(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    assert spectator_snapshot(snap_compare, "twos-tricks", ["remote", "ai", "ai", "ai"], 3)


def toasts(screen) -> str:
    """The notes in the corner (Textual's toasts) on ``screen``, as text."""
    from textual.widgets._toast import Toast

    return "\n".join(str(t.render()) for t in screen.query(Toast))


@pytest.mark.slow
async def test_a_spectators_tip_is_a_note_that_does_not_cover_the_table(tmp_path, monkeypatch):
    """A first-game tip that news on the table calls for (here: a catch, as the trick
    games have) comes to a spectator as a note in the corner, not a box over the table
    waiting for a key: their table goes on without them. It is kept as seen."""
    from twos_tui.ui.screens import table_tips
    from twos_tui.ui.tips import tip_id

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    # the first news on the table is taken for a catch: the tip is due at once
    monkeypatch.setattr(table_tips, "moments_for_news", lambda v, e: ["catch"] if e else [])
    table = remote_table("twos-tricks", seed=3, kinds=["remote", "ai", "ai", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None, tips=True)
        app.on_start = lambda: app.start_session(joined_view(view))
        bot = await join(server, table, "Ana")
        playing = asyncio.ensure_future(play_moves(bot, 2))
        try:
            async with app.run_test(size=(80, 24), notifications=True) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen) and screen.spectator
                await wait_until(pilot, lambda: "Tip: A catch" in toasts(screen), "the tip's note")
                assert "caught by the 3 of its suit" in toasts(screen)
                await wait_until(
                    pilot, lambda: "Tip: A catch" in screen_text(app), "the note drawn"
                )
                assert app.screen is screen  # no box over the table
                assert app.settings.tip_due(tip_id("twos-tricks", "catch")) is False
                # the table goes on under the note, and no box ever comes
                g = table.game
                await wait_until(
                    pilot,
                    lambda: playing.done() and view.action_count == len(g.actions),
                    "the bot's moves on the spectator's table",
                    tries=6000,
                )
                assert app.screen is screen
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await bot.close()
            await asyncio.to_thread(view.close)


def trick_numbers(view: RemoteSeatView) -> list[int]:
    """The numbers of the tricks the log says were won, oldest first."""
    return [int(m.group(1)) for e in view.history if (m := re.search(r"wins trick (\d+)", e.text))]


@pytest.mark.slow
async def test_a_spectators_last_trick_names_the_trick_the_log_names(tmp_path, monkeypatch):
    """The last-trick view on a spectator's screen, opened right after a trick is won,
    shows the trick the log names; the table plays on while it is open (the players do
    not wait for a spectator), and when the log names the next tricks won, the open view
    shows the newest of them, not the one it was opened on (it lagged behind the log)."""
    from twos_tui.ui.screens.dialogs import InfoDialog

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos-tricks", seed=3, kinds=["remote", "ai", "ai", "ai"], autosave=False)
    g = table.game
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        bot = await join(server, table, "Ana")
        playing: asyncio.Future | None = None
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                log = screen.query_one(PlayLog)

                def logged() -> list[int]:
                    """The tricks the log panel on the screen says were won."""
                    return [
                        int(m.group(1))
                        for e in log.entries
                        if (m := re.search(r"wins trick (\d+)", e.plain))
                    ]

                async def bot_plays(moves: int) -> None:
                    """The bot plays ``moves`` moves; the AI seats play on until the
                    bot's turn comes again, and the spectator has every move."""
                    nonlocal playing
                    playing = asyncio.ensure_future(play_moves(bot, moves))
                    await wait_until(
                        pilot,
                        lambda: (
                            playing.done()
                            and bot.seat in g.to_act()
                            and view.action_count == len(g.actions)
                        ),
                        "the table at the bot's turn",
                    )

                await bot_plays(2)
                await wait_until(pilot, lambda: logged() == trick_numbers(view) != [], "the log")
                first = logged()[-1]
                await pilot.press("t")
                await wait_until(pilot, lambda: isinstance(app.screen, InfoDialog), "the view")
                dialog = app.screen

                def shown() -> str:
                    return flat(str(dialog.query_one("#info-body", Static).render()))

                assert f"Trick {first}" in shown() and f"wins trick {first}" in shown()
                # the table plays on under the open view
                await bot_plays(2)
                await wait_until(
                    pilot, lambda: logged() == trick_numbers(view), "the log behind the view"
                )
                newest = logged()[-1]
                assert newest >= first + 2 and app.screen is dialog
                await wait_until(
                    pilot, lambda: f"Trick {newest}" in shown(), f"the view to show trick {newest}"
                )
                assert f"wins trick {newest}" in shown() and f"Trick {first}" not in shown()
                await pilot.press("escape")
                await wait_until(pilot, lambda: app.screen is screen, "the table again")
        finally:
            if playing is not None:
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
            await bot.close()
            await asyncio.to_thread(view.close)
