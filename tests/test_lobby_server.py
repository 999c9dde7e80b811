"""The lobby server for real: a server on 127.0.0.1 over TLS, players with real
WebSocket clients who log in with their key, create, sit, watch and quick-match, and
join the tables on the same port as ``twos-tui join`` does."""

from __future__ import annotations

import asyncio

from lobby_helpers import Player, SqliteStore, listing, lobby_server, one_deal
from net_helpers import find_leaks, play_moves, until

from twos_tui.play.lobby.model import (
    CancelQuickMatch,
    CreateTable,
    LobbyState,
    QuickMatch,
    Refused,
    Seated,
    SitDown,
    Watch,
)
from twos_tui.play.lobby.server import LobbyServer
from twos_tui.play.net.client import play_bot


async def test_create_sit_and_watch(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        ana, bo, cy = (Player(server, tmp_path, n) for n in ("Ana", "Bo", "Cy"))
        first = await ana.open()
        assert first.me.name == "Ana" and not first.me.guest and first.tables == ()
        assert {g for g, _ in first.leaderboards} >= {"twos", "big-two"}
        seated = await ana.ask(CreateTable("twos", 3, ai_seats=(None, None, "hard"), rated=False))
        assert seated.seat == 0 and seated.token and seated.code
        await bo.open()
        state = await listing(bo, lambda s: s.tables)
        (t,) = state.tables
        assert (t.table_id, t.game, t.players, t.public, t.rated) == (
            seated.table_id, "twos", 3, True, False
        )  # fmt: skip
        assert [s.name for s in t.seats] == ["Ana", None, t.seats[2].name]
        assert t.seats[2].ai_level == "hard" and not t.started
        assert t.clock == "20 s + 2 min"
        bo_seat = await bo.ask(SitDown(t.table_id))
        assert bo_seat.seat == 1 and bo_seat.code == seated.code
        await cy.open()
        watching = await cy.ask(Watch(t.table_id))
        assert watching.seat is None and watching.token == ""
        # the table is joined as `twos-tui join` joins it: the same port, the seat's token
        a = await ana.join(seated)
        b = await bo.join(bo_seat)
        c = await cy.join(watching)
        assert (a.seat, b.seat, c.watching) == (0, 1, True)
        assert a.encrypted and a.table.names[:2] == ["Ana", "Bo"]
        started = await listing(
            cy, lambda s: s.tables and s.tables[0].started and s.tables[0].spectators == 1
        )
        assert [s.connected for s in started.tables[0].seats] == [True, True, True]
        st = await until(lambda: a.state, "Ana's first state")
        assert st.seat == 0 and st.observation is not None
        await ana.close(), await bo.close(), await cy.close()


async def test_quick_match_seats_two_people_together_and_the_ai_fills(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        ana, bo = Player(server, tmp_path, "Ana"), Player(server, tmp_path, None, key=False)
        await ana.open()
        guest = await bo.open()
        assert guest.me.guest and guest.me.name.startswith("guest")
        await ana.lobby.send(QuickMatch("big-two", 4, wait_s=60))
        waiting = await listing(ana, lambda s: s.queue is not None)
        assert waiting.queue is not None
        assert (waiting.queue.game, waiting.queue.players, waiting.queue.waiting) == (
            "big-two", 4, 1
        )  # fmt: skip
        assert waiting.queue.wait_s == 60
        await bo.lobby.send(QuickMatch("big-two", 4, wait_s=0))  # bo will not wait
        sa, sb = await ana.next(Seated), await bo.next(Seated)
        assert sa.table_id == sb.table_id and {sa.seat, sb.seat} == {0, 1}
        lt = server.lobby_tables[sa.table_id]
        cfg = lt.hosted.session.seats
        assert [c.is_ai for c in cfg] == [False, False, True, True]
        assert {c.level for c in cfg[2:]} == {"normal"}
        a, b = await ana.join(sa), await bo.join(sb)
        assert a.table.names[:2] == ["Ana", guest.me.name]
        # a deal played through the joined seats, to its end
        await asyncio.wait_for(asyncio.gather(one_deal(a), one_deal(b)), 120)
        assert lt.game.deal_over or lt.game.deal_number > 1
        # (a player at a table under way gets no lobby states; another player sees it)
        cy = Player(server, tmp_path, "Cy")
        assert (await cy.open()).tables[0].started
        await cy.close()
        await ana.close(), await bo.close()


async def test_quick_match_waits_then_can_be_cancelled(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        await ana.lobby.send(QuickMatch("twos", 3, wait_s=600))
        await listing(ana, lambda s: s.queue is not None and s.queue.waiting == 1)
        await ana.lobby.send(CancelQuickMatch())
        await listing(ana, lambda s: s.queue is None)
        assert not server.queues.queues and not server.lobby_tables
        refused = await ana.ask(CancelQuickMatch(), Refused)
        assert "not waiting" in refused.reason
        await ana.close()


async def test_a_finished_match_reports_to_the_store_and_its_table_closes(tmp_path) -> None:
    store = SqliteStore(tmp_path / "lobby.db")
    texts: list[tuple[str, str]] = []
    async with lobby_server(tmp_path, store) as server:
        server.lobby_hook = lambda name, text: texts.append((name, text))
        ana, bo = Player(server, tmp_path, "Ana"), Player(server, tmp_path, "Bo")
        await ana.open(), await bo.open()
        sa = await ana.ask(
            CreateTable("twos", 3, (("deals_to_win", 1),), ai_seats=(None, None, "easy"))
        )
        sb = await bo.ask(SitDown(sa.table_id))
        lt = server.lobby_tables[sa.table_id]
        game = lt.game
        # every lobby message during the match is checked against every hidden card
        leaks: list[str] = []
        server.lobby_hook = lambda name, text: leaks.extend(find_leaks(game, None, text))
        a, b = await ana.join(sa), await bo.join(sb)
        await asyncio.wait_for(asyncio.gather(play_bot(a, "easy"), play_bot(b, "easy")), 180)
        assert game.match_over
        await until(lambda: store.matches(), "the result in the store")
        (outcome,) = store.matches()
        assert outcome.table_id == sa.table_id and outcome.rated and outcome.game == "twos"
        assert [n for n, _ in outcome.places] == ["Ana", "Bo", None]
        assert sorted(p for _, p in outcome.places)[0] == 1
        assert outcome.ai_levels == (None, None, "easy")
        assert store.tables() == ()  # a finished table is not reopened
        cy = Player(server, tmp_path, "Cy")
        assert (await cy.open()).tables == ()  # nor offered to others
        await cy.close()
        await a.close(), await b.close()
        after = await listing(ana, lambda s: not s.tables and s.me.recent)
        assert after.me.recent[0].game == "twos"
        assert any(rows for _, rows in after.leaderboards)
        assert leaks == []
        assert not server.lobby_tables and lt.hosted.code not in server.tables
        await ana.close(), await bo.close()


async def test_refusals_say_why_and_keep_the_connection(tmp_path) -> None:
    async with lobby_server(tmp_path, max_tables=1) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        # another key cannot take a name; a first visit needs a name
        (tmp_path / "other").mkdir()
        thief = Player(server, tmp_path / "other", "Ana")  # another install's key
        refused = await _open_refused(thief)
        assert "taken" in refused
        nameless = Player(server, tmp_path, None)
        assert "Choose a name" in await _open_refused(nameless)
        # bad requests: a sentence each, and the lobby still answers
        await ana.lobby.ws.send('{"v":1,"type":"dance"}')
        assert "no lobby message" in (await ana.next(Refused)).reason
        r = await ana.ask(CreateTable("twos", 5), Refused)
        assert "played by 2 or 3 players" in r.reason
        r = await ana.ask(CreateTable("twos", 3, ai_seats=("easy",) * 3), Refused)
        assert "person" in r.reason
        r = await ana.ask(CreateTable("twos", 3, (("no_such_rule", 1),)), Refused)
        assert "cannot be made" in r.reason
        r = await ana.ask(SitDown("t-nope"), Refused)
        assert "no such table" in r.reason
        private = await ana.ask(CreateTable("twos", 3, public=False))
        r = await ana.ask(CreateTable("twos", 3), Refused)
        assert "all the tables" in r.reason  # --tables 1
        bo = Player(server, tmp_path, "Bo")
        state = await bo.open()
        assert state.tables == ()  # a private table is not listed to others
        assert "private" in (await bo.ask(SitDown(private.table_id), Refused)).reason
        assert "private" in (await bo.ask(Watch(private.table_id), Refused)).reason
        sat = await bo.ask(SitDown(private.table_id, code=private.code.lower()))
        assert sat.seat == 1
        cy = Player(server, tmp_path, "Cy")
        await cy.open()
        sat = await cy.ask(SitDown(private.table_id, code=private.code))
        dee = Player(server, tmp_path, "Dee")
        await dee.open()
        r = await dee.ask(SitDown(private.table_id, code=private.code), Refused)
        assert "full" in r.reason
        # a banned account is told, and let go
        server.store.ban("Dee")
        again = Player(server, tmp_path, "Dee")
        assert "banned" in await _open_refused(again)
        await ana.close(), await bo.close(), await cy.close(), await dee.close()


async def _open_refused(player: Player) -> str:
    from twos_tui.play.lobby.client import LobbyError

    try:
        await player.open()
    except LobbyError as e:
        return str(e)
    raise AssertionError("the lobby let them in")


async def test_a_table_connection_on_the_same_port_is_a_tables(tmp_path) -> None:
    """Anything that is not a lobby hello is served as a table's connection (the join by
    code as today), and a lobby hello to a table's code goes nowhere else."""
    from twos_tui.play.net.client import JoinError, TableClient
    from twos_tui.play.net.tls import KnownHosts

    async with lobby_server(tmp_path) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        seated = await ana.ask(CreateTable("twos", 3))
        c = TableClient(
            "127.0.0.1", server.port, seated.code, "Bo", known_hosts=KnownHosts(tmp_path / "kh")
        )
        await c.open()  # a free seat, by code, as `twos-tui join HOST CODE` does
        assert c.seat == 1
        await c.close()
        bad = TableClient(
            "127.0.0.1", server.port, "ZZZZ-ZZZZ", "Bo", known_hosts=KnownHosts(tmp_path / "kh")
        )
        try:
            await bad.open()
        except JoinError as e:
            assert "No table" in str(e)
        else:
            raise AssertionError("joined a table that is not there")
        await ana.close()


async def test_a_player_who_dropped_is_sent_back_to_their_seat(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        seated = await ana.ask(CreateTable("twos", 3, ai_seats=(None, "easy", "easy")))
        a = await ana.join(seated)
        await play_moves(a, 1)
        await ana.close()  # gone: the table and the lobby
        back = Player(server, tmp_path, "Ana")
        await back.open()
        again = await back.next(Seated)  # the lobby says where their seat is
        assert (again.table_id, again.seat, again.token) == (
            seated.table_id, 0, seated.token
        )  # fmt: skip
        a2 = await back.join(again)
        assert a2.seat == 0 and a2.token == seated.token
        assert (await back.ask(SitDown(seated.table_id))).token == seated.token
        await back.close()


async def test_the_tables_are_reopened_after_a_restart(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    store = SqliteStore(tmp_path / "lobby.db")
    async with lobby_server(tmp_path, store, process="p1") as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        seated = await ana.ask(CreateTable("big-two", 4, ai_seats=(None, None, "hard", "easy")))
        a = await ana.join(seated)
        await a.close()
        await ana.close()
    assert [r.table_id for r in store.tables("p1")] == [seated.table_id]
    async with lobby_server(tmp_path, store, process="p1") as server:
        bo = Player(server, tmp_path, "Bo")
        state = await bo.open()
        (t,) = state.tables
        assert t.table_id == seated.table_id and [s.name for s in t.seats][:2] == ["Ana", None]
        assert t.seats[2].ai_level == "hard"
        sat = await bo.ask(SitDown(t.table_id))
        assert sat.code == seated.code and sat.seat == 1
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        back = await ana.next(Seated)
        assert back.token == seated.token
        a = await ana.join(back)
        assert a.seat == 0
        await ana.close(), await bo.close()


async def test_states_are_coalesced(tmp_path) -> None:
    """Many changes in a moment send a few states, not one each."""
    async with lobby_server(tmp_path) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        for _ in range(30):
            server.changed()
        await asyncio.sleep(0.8)
        got = 0
        while True:
            try:
                ev = await ana.lobby.next_event(0.05)
            except TimeoutError:
                break
            got += isinstance(ev, LobbyState)
        assert 1 <= got <= 4
        await ana.close()


async def test_a_guest_name_is_given_back_when_the_guest_has_gone(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        guest = Player(server, tmp_path, None, key=False)
        name = (await guest.open()).me.name
        assert server.store.account(name) is not None
        await guest.lobby.send(Watch("t-none"))
        await guest.next(Refused)
        await guest.close()
        await until(lambda: server.store.account(name) is None, "the guest's name given back")
        # a guest seated at a table keeps the name while the table lives
        guest = Player(server, tmp_path, None, key=False)
        name = (await guest.open()).me.name
        await guest.ask(CreateTable("twos", 3, ai_seats=(None, "easy", "easy")))
        await guest.close()
        await until(lambda: not server.lobby_conns, "the server to see the guest go")
        assert server.store.account(name) is not None


async def test_the_table_runs_the_clock_asked_for(tmp_path) -> None:
    async with lobby_server(tmp_path) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        timed = await ana.ask(CreateTable("twos", 3, clock=(15.0, 60.0)))
        untimed = await ana.ask(CreateTable("twos", 3, clock=None))
        assert server.lobby_tables[timed.table_id].hosted.turn_clock == (15.0, 60.0)
        assert server.lobby_tables[untimed.table_id].hosted.turn_clock is None
        state = await listing(ana, lambda s: len(s.tables) == 2)
        clocks = {t.table_id: t.clock for t in state.tables}
        assert clocks == {timed.table_id: "15 s + 1 min", untimed.table_id: ""}
        await ana.close()


async def test_a_connection_that_keeps_sending_garbage_or_never_logs_in_is_let_go(
    tmp_path,
) -> None:
    from websockets.asyncio.client import connect

    async with lobby_server(tmp_path, tls=False, join_timeout=1.0) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        for _ in range(server.max_bad):
            await ana.lobby.ws.send('{"v":1,"type":"dance"}')
        last = None
        while (ev := await ana.lobby.next_event(30)) is not None:
            last = ev
        assert isinstance(last, Refused) and "Too many refused" in last.reason
        async with connect(f"ws://127.0.0.1:{server.port}/") as ws:
            await ws.send('{"v":1,"type":"hello","lobby":true}')
            assert "challenge" in await ws.recv()
            bye = await asyncio.wait_for(ws.recv(), 30)
            assert "Log in within 1 second of" in bye


async def test_one_account_waits_in_one_queue_and_a_seat_joined_by_code_is_unrated(
    tmp_path,
) -> None:
    from twos_tui.play.net.client import TableClient
    from twos_tui.play.net.tls import KnownHosts

    store = SqliteStore(tmp_path / "lobby.db")
    async with lobby_server(tmp_path, store) as server:
        ana, again = Player(server, tmp_path, "Ana"), Player(server, tmp_path, "Ana")
        await ana.open(), await again.open()
        await ana.lobby.send(QuickMatch("twos", 3, wait_s=600))
        await listing(ana, lambda s: s.queue is not None)
        r = await again.ask(QuickMatch("twos", 3, wait_s=600), Refused)
        assert "already" in r.reason
        await ana.lobby.send(CancelQuickMatch())
        # a person who joins by code (not through the lobby) plays, and is nobody's account
        seated = await ana.ask(
            CreateTable("twos", 3, (("deals_to_win", 1),), ai_seats=(None, None, "easy"))
        )
        a = await ana.join(seated)
        stranger = TableClient(
            "127.0.0.1", server.port, seated.code, "Ana", known_hosts=KnownHosts(tmp_path / "kh")
        )
        await stranger.open()
        await asyncio.wait_for(asyncio.gather(play_bot(a, "easy"), play_bot(stranger, "easy")), 180)
        await until(lambda: store.matches(), "the result in the store")
        (outcome,) = store.matches()
        names = [n for n, _ in outcome.places]
        assert names[0] == "Ana" and names[1].startswith("(") and names[2] is None
        await stranger.close()
        await ana.close(), await again.close()


async def test_a_table_left_before_it_started_closes_after_its_hold(tmp_path) -> None:
    kw = {"ai_pause": 0.0, "level": "easy", "seed": 1, "hold_s": 0.5}
    async with lobby_server(tmp_path, table_kw=kw) as server:
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        seated = await ana.ask(CreateTable("twos", 3))  # two seats wait for people
        a = await ana.join(seated)
        waiting = await listing(ana, lambda s: s.tables and s.tables[0].seats[0].connected)
        assert not waiting.tables[0].started
        await a.close()  # Ana leaves the table (not the lobby) before anyone came
        await listing(ana, lambda s: s.tables == ())
        assert seated.table_id not in server.lobby_tables
        assert server.store.tables() == ()
        await ana.close()


async def test_the_lobby_pins_the_servers_certificate_and_refuses_a_changed_one(
    tmp_path,
) -> None:
    from twos_tui.play.lobby.client import LobbyError
    from twos_tui.play.net.tls import host_cert, make_self_signed

    make_self_signed(tmp_path / "other.pem", tmp_path / "other-key.pem")
    other = host_cert(str(tmp_path / "other.pem"), str(tmp_path / "other-key.pem"))
    async with lobby_server(tmp_path, process="p", port=0) as server:
        port = server.port
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        assert ana.lobby.security.startswith(f"First visit to 127.0.0.1:{port}: pinned")
        await ana.close()
        ana = Player(server, tmp_path, "Ana")
        await ana.open()
        assert "the same certificate as before" in ana.lobby.security
        await ana.close()
    # the same address, another certificate: refused before anything is sent
    server = LobbyServer(SqliteStore(tmp_path / "lobby.db"), process="p", cert=other)
    await server.start("127.0.0.1", port)
    try:
        ana = Player(server, tmp_path, "Ana")
        try:
            await ana.open()
        except LobbyError as e:
            assert "now shows the certificate" in str(e) and other.fingerprint in str(e)
        else:
            raise AssertionError("a changed certificate was let through")
    finally:
        await server.close()
