"""Drops and reconnects: a client dropped mid-trick rejoins with its token (same view,
play goes on); a seat whose hold ran out is played by the AI; the seat view of a remote
seat (RemoteSeatView) joins, plays and rejoins with its kept token."""

from __future__ import annotations

import asyncio
from typing import Any

from net_helpers import join, live_server, remote_table, until

from twos_tui.engine import IllegalAction
from twos_tui.play.net import messages as M
from twos_tui.play.net.client import (
    JoinError,
    RemoteSeatView,
    TableClient,
    TokenStore,
    play_bot,
)


def view_of(st: M.State | None) -> tuple[Any, ...]:
    assert st is not None
    return (st.n, st.deal, st.observation, st.decision, st.legal, st.to_act)


async def test_dropped_mid_trick_rejoins_with_its_token_and_play_goes_on() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=4))
        me = await join(server, table, "Ana")
        others = [await join(server, table, n) for n in ("Bram", "Cleo")]
        bots = asyncio.gather(*(play_bot(c, "easy") for c in others))
        g = table.game
        # play seat 0 by hand until it is asked again with cards on the table
        for _ in range(40):
            await until(lambda: me.state and me.seat in me.state.to_act or g.deal_over)
            assert me.state is not None
            if me.state.observation.table and len(g.actions) >= 3:
                break
            legal = me.state.legal
            reply = await me.request(M.Act(action=legal[-1]))
            assert isinstance(reply, M.Answer)
        assert not g.deal_over and me.state.observation.table
        before = view_of(me.state)
        log_before = list(me.log)
        token, seat = me.token, me.seat

        await me.drop()  # the network goes: the client reconnects with its token
        await until(lambda: not me.connected)
        await until(lambda: me.connected and me.state is not None and me.updates > 0)
        await until(lambda: table.seats[seat].conn is not None)
        assert (me.seat, me.token) == (seat, token)
        assert view_of(me.state) == before  # the same view, nothing moved meanwhile
        assert me.log == log_before
        # and the match goes on to its end
        await asyncio.wait_for(asyncio.gather(bots, play_bot(me, "easy")), 60)
        assert g.match_over
        for c in [me, *others]:
            await c.close()


async def test_a_seat_whose_hold_ran_out_is_played_by_the_ai() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5, hold_s=0.05))
        away = TableClient("127.0.0.1", server.port, table.code, "Ana", retry_delays=())
        await away.open()
        seat = away.seat
        others = [await join(server, table, n) for n in ("Bram", "Cleo")]
        await away.close()  # gone for good (no reconnecting)
        await until(lambda: table.seats[seat].conn is None)
        bots = asyncio.gather(*(play_bot(c, "easy") for c in others))
        await asyncio.wait_for(bots, 60)
        g = table.game
        assert g.match_over
        rs = table.seats[seat]
        assert rs.taken_over and rs.ever_taken
        assert any(
            "is away: the AI plays for them" in h["text"] and h.get("kind") == "net"
            for h in g.history
        )
        # the session's seat is the AI's: the history does not count it as Ana's
        assert table.session.seats[seat].is_ai
        assert table.seat_infos()[seat].note == "away: the AI plays for them"
        # the seat did move (the AI's moves are in the match)
        assert any(s == seat for s, _ in g.actions)
        for c in others:
            await c.close()


async def test_the_hold_keeps_the_seat_while_it_runs() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5, hold_s=300))
        a = TableClient("127.0.0.1", server.port, table.code, "Ana", retry_delays=())
        await a.open()
        others = [await join(server, table, n) for n in ("Bram", "Cleo")]
        await a.close()
        await until(lambda: table.seats[a.seat].conn is None)
        text = table.waiting(others[0].seat)
        assert text in ("Ana dropped; holding the seat 5:00", "Ana dropped; holding the seat 4:59")
        assert not table.seats[a.seat].taken_over
        # Ana comes back with her token
        back = TableClient("127.0.0.1", server.port, table.code, token=a.token, retry_delays=())
        await back.open()
        assert back.seat == a.seat
        await until(lambda: back.state is not None)
        assert table.waiting(others[0].seat) is None
        for c in [back, *others]:
            await c.close()


async def test_tokens_and_codes_are_checked() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5))
        ok = await join(server, table, "Ana")
        for kw in (
            {"token": ok.token[:-1] + ("A" if ok.token[-1] != "A" else "B")},
            {"token": "x"},
        ):
            bad = TableClient("127.0.0.1", server.port, table.code, retry_delays=(), **kw)
            try:
                await bad.open()
                raise AssertionError("a wrong token joined")
            except JoinError as e:
                assert "token" in str(e)
        wrong = TableClient("127.0.0.1", server.port, "AAAA-AAAA", "Eve", retry_delays=())
        try:
            await wrong.open()
            raise AssertionError("a wrong code joined")
        except JoinError as e:
            assert str(e) == "No table here has that code."
        # the code is read without its dash and in any case
        loose = TableClient(
            "127.0.0.1", server.port, table.code.replace("-", "").lower(), "Bo", retry_delays=()
        )
        await loose.open()
        assert loose.seat == 1
        full = [await join(server, table, "Cy")]
        late = TableClient("127.0.0.1", server.port, table.code, "Dee", retry_delays=())
        # a full table: the late one watches (the public view, no seat, no token)
        await late.open()
        assert late.watching and late.seat == -1 and late.token is None
        assert (
            late.welcome is not None and late.welcome.note == "The table is full: you are watching."
        )
        for c in [ok, loose, *full, late]:
            await c.close()


async def test_remote_seat_view_joins_plays_and_rejoins_with_its_kept_token(tmp_path) -> None:
    async with live_server() as server:
        table = server.add(remote_table("big-two", seed=9))
        store = TokenStore(tmp_path / "tokens.json")
        port = server.port
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", port, table.code, "Ana", store
        )
        changes: list[int] = []
        view.set_listener(lambda: changes.append(1))
        assert view.remote and view.controls == view.visible == (view.my_seat,)
        assert view.ai_to_act() == []
        assert view.variant_id == "big-two" and view.names[0] == "Ana"
        others = [await join(server, table, n) for n in ("Bram", "Cleo", "Dev")]
        bots = [asyncio.ensure_future(play_bot(c, "easy")) for c in others]
        g = table.game
        await until(lambda: view.my_seat in view.to_act() and view.decision(0) is not None)
        obs = view.observation(0)
        assert list(obs.hand) == g.observation(0)["hand"]
        assert set(obs.hand).isdisjoint(g.hidden_from(0))
        legal = view.legal_actions(0)
        assert legal and await asyncio.to_thread(view.check, 0, legal[0]) is None
        # an illegal move: the host's reason, and nothing changes
        n = len(g.actions)
        bad = legal[0].__class__("play", ("3S", "3S"))
        reason = await asyncio.to_thread(view.check, 0, bad)
        assert reason
        try:
            await asyncio.to_thread(view.act, 0, bad)
            raise AssertionError("an illegal move was taken")
        except IllegalAction as e:
            assert str(e)
        assert len(g.actions) == n
        await asyncio.to_thread(view.act, 0, legal[0])
        # the move is made (the other seats' bots may already have answered it)
        assert g.actions[n] == (0, legal[0].to_json()) and view.action_count >= n + 1
        await until(lambda: len(changes) > 0)
        await asyncio.to_thread(view.close)
        # the same join command comes back to the same seat (the token was kept)
        again = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", port, table.code, "Ana", store
        )
        assert again.my_seat == 0 and again.client.token == view.client.token
        await asyncio.to_thread(again.close)
        for b in bots:
            b.cancel()
        for c in others:
            await c.close()


async def test_joining_an_unreachable_host_says_so() -> None:
    def go() -> str:
        try:
            RemoteSeatView.connect("127.0.0.1", 1, "ABCD-EFGH", "Ana", False, timeout=2)
        except JoinError as e:
            return str(e)
        return ""

    text = await asyncio.to_thread(go)
    assert text.startswith("Could not reach 127.0.0.1:1")


async def test_a_host_that_stops_says_so_and_clients_do_not_keep_retrying() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5))
        c = await join(server, table, "Ana")
        await until(lambda: c.state is not None)
    await until(lambda: c.lost is not None)
    assert c.lost is not None and c.lost.startswith("The host stopped the table. It is saved")
    assert not c.reconnecting


async def test_a_bot_dropped_on_its_turn_reconnects_and_plays_on() -> None:
    """The bot waits for its connection to come back (it used to spin on the loop the
    reconnecting needs, and hang)."""
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=6))
        me = TableClient("127.0.0.1", server.port, table.code, "Ana", retry_delays=(0.5, 0.5))
        await me.open()
        clients = [me] + [await join(server, table, n) for n in ("Bram", "Cleo")]
        bots = [asyncio.ensure_future(play_bot(c, "easy")) for c in clients[1:]]
        await until(lambda: me.state is not None and me.seat in me.state.to_act, 1000)
        await me.drop()  # on Ana's turn; her client comes back after half a second
        await until(lambda: not me.connected)
        bots.append(asyncio.ensure_future(play_bot(me, "easy")))
        await asyncio.wait_for(asyncio.gather(*bots), 60)
        assert table.game.match_over and me.lost is None
        for c in clients:
            await c.close()


def test_a_damaged_tokens_file_keeps_its_good_entries(tmp_path) -> None:
    """The tokens file is read at the door: an entry of another shape (a hand edit, a
    damaged file) is left out, the good ones still rejoin, and the next write keeps only
    them (the damaged ones were written back, and one that was not an object stopped the
    write once the file held 200 entries)."""
    import json

    path = tmp_path / "tokens.json"
    path.write_text(
        json.dumps(
            {
                "h:1/ABCD-EFGH": {"token": "good", "at": 5},
                "h:1/BAD1-BAD1": "not an entry",
                "h:1/BAD2-BAD2": {"token": 7},
                "h:1/OLDS-OLDS": {"token": "old"},  # no time: the oldest
            }
        ),
        encoding="utf-8",
    )
    store = TokenStore(path)
    assert store.get("h:1/ABCD-EFGH") == "good" and store.get("h:1/OLDS-OLDS") == "old"
    assert store.get("h:1/BAD1-BAD1") is None and store.get("h:1/BAD2-BAD2") is None
    store.put("h:1/NEWS-NEWS", "new")
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(kept) == ["h:1/ABCD-EFGH", "h:1/NEWS-NEWS", "h:1/OLDS-OLDS"]
    assert kept["h:1/OLDS-OLDS"] == {"token": "old", "at": 0.0}
    path.write_text("[1, 2]", encoding="utf-8")  # not an object at all: nothing kept
    assert store.get("h:1/ABCD-EFGH") is None
