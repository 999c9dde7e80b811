"""The host's own screen at a hosted table (HostSeatView): its moves go through the
table (remote players hear at once), remote seats show their connection, moves made
elsewhere call ``changed_elsewhere`` from the loop (never inside the screen's call), and
the next deal waits for every connected person."""

from __future__ import annotations

import asyncio

from net_helpers import SHORT, join, live_server, until

from twos_tui.engine import Action, IllegalAction
from twos_tui.play.net import messages as M
from twos_tui.play.net.client import play_bot
from twos_tui.play.net.host_view import HostSeatView
from twos_tui.play.net.server import HostedTable
from twos_tui.play.seat_view import REMOTE


async def test_host_plays_its_seat_beside_remote_and_ai_seats() -> None:
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos",
                ["human", "remote", "ai"],
                ["Host"],
                options=SHORT["twos"] | {"deals_to_win": 2},
                seed=8,
                level="easy",
                drive_ai=False,  # the screen plays the AI seats
                ai_pause=0,
            )
        )
        view = HostSeatView(table)
        assert view.code == table.code and view.controls == (0,) and view.visible == (0,)
        assert view.can_undo() is not None
        assert view.waiting_for() == f"Waiting for a player to join (code {table.code})"
        assert view.seats[1].kind == REMOTE and not view.seats[1].connected
        inside = False
        calls: list[bool] = []

        def listener() -> None:
            calls.append(inside)

        view.set_listener(listener)
        friend = await join(server, table, "Friend")
        await until(lambda: view.seats[1].connected, "the friend's seat connected")
        assert view.names[1] == "Friend"
        assert view.waiting_for() is None
        bot = asyncio.ensure_future(play_bot(friend, "easy"))
        s = table.session
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120  # the match, on a busy machine: bounded in seconds
        while loop.time() < deadline:
            if view.match_over:
                break
            if view.deal_over:
                inside = True
                view.next_deal()
                inside = False
            elif view.ai_to_act():
                seat = view.ai_to_act()[0]
                s.apply(seat, s.ai_choose(seat))  # as the screen's AI worker does
            elif 0 in view.to_act():
                n = view.action_count
                inside = True
                try:
                    view.act(0, view.legal_actions(0)[0])
                finally:
                    inside = False
                assert view.action_count == n + 1
            await asyncio.sleep(0.002)
        assert view.match_over
        await asyncio.wait_for(bot, 20)
        assert calls and not any(calls)  # told from the loop, never inside its own call
        assert friend.state is not None and list(friend.state.totals) == view.totals
        try:
            view.act(1, view.legal_actions(0)[0] if view.legal_actions(0) else None)  # type: ignore[arg-type]
            raise AssertionError("the host moved a remote seat")
        except IllegalAction:
            pass
        await friend.close()
        view.close()


async def test_the_next_deal_waits_for_the_remote_player() -> None:
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos-tricks",
                ["human", "remote", "ai", "ai"],
                ["Host"],
                options={"game_length": 2},
                seed=2,
                level="easy",
                drive_ai=True,  # the server plays the AI here (no screen in this test)
                ai_pause=0,
            )
        )
        view = HostSeatView(table)
        friend = await join(server, table, "Friend")
        g = table.game
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120  # the deal, on a busy machine: bounded in seconds
        while loop.time() < deadline:
            if g.deal_over:
                break
            acting = g.to_act()
            if 0 in acting:
                view.act(0, view.legal_actions(0)[0])
            elif (
                1 in acting
                and friend.state
                and friend.state.decision
                and friend.state.n == len(g.actions)
            ):
                await friend.request(M.Act(action=friend.state.legal[0]))
            await asyncio.sleep(0.002)
        assert g.deal_over and g.deal_number == 1
        view.next_deal()
        await until(
            lambda: view.waiting_for() == "Waiting for Friend to continue", "waiting for Friend"
        )
        assert g.deal_number == 1
        reply = await friend.request(M.Ready(deal=1))
        assert isinstance(reply, M.Answer)
        await until(lambda: g.deal_number == 2, "the second deal")
        await friend.close()
        view.close()


async def test_nobody_moves_before_every_seat_has_a_player() -> None:
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos", ["remote", "ai", "remote"], options={"deals_to_win": 1}, seed=1,
                level="easy", ai_pause=0,
            )
        )  # fmt: skip
        first = await join(server, table, "Ana")
        await asyncio.sleep(0.05)
        assert table.game.actions == [] and not table.started
        assert first.state is not None and first.state.decision is None
        reply = await first.request(M.Act(action=Action("pass")))
        assert isinstance(reply, M.Error)
        assert reply.code == "not-now" and reply.reason == table.NOT_STARTED
        reply = await first.request(M.Check(action=Action("pass")))
        assert isinstance(reply, M.Answer) and reply.result == table.NOT_STARTED
        second = await join(server, table, "Bo")
        assert table.started
        finals = await asyncio.wait_for(
            asyncio.gather(play_bot(first, "easy"), play_bot(second, "easy")), 60
        )
        assert all(st.match_over for st in finals)
        assert table.game.names[0] == "Ana" and table.game.names[2] == "Bo"
        for c in (first, second):
            await c.close()


def test_the_hosts_history_keeps_only_the_hosts_own_people(tmp_path, monkeypatch):
    """A hosted table's remote players are recorded by their own computers: the host's
    history has results for the host's people only."""
    import random

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    from twos_tui.play import history
    from twos_tui.play.net.server import HostedTable

    table = HostedTable.create(
        "twos", ["human", "remote", "ai"], names=["Host", "Rem", "Cleo"], seed=8, drive_ai=False
    )
    for rs in table.seats.values():
        rs.claimed = True  # as if the friend had joined
    g, rng = table.game, random.Random(1)
    while not g.deal_over:
        seat = g.to_act()[0]
        table.apply(seat, rng.choice(g.legal_actions(seat)), remote=seat == 1)
    table.session.close()
    assert history.RECORDER.flush(timeout=10)
    conn = history.open_history()
    players = [r[0] for r in conn.execute("SELECT player FROM results")]
    assert players == ["Host"]


async def test_the_hosts_screen_chats_with_the_table() -> None:
    """The host's ``c`` line reaches the players and spectators; theirs show in the
    host's log panel (the observation's history), where they were said; a spectator
    counts in every state and does not hold up anything."""
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos", ["human", "remote", "ai"], ["Hosta"], options=SHORT["twos"], seed=8
            )
        )
        view = HostSeatView(table)
        assert view.can_chat and not view.can_sit and not view.can_leave_seat
        friend = await join(server, table, "Friend")
        assert view.send_chat("  welcome\x1b[1m all ") is None
        assert view.send_chat("\x00\x07") == "A chat line needs some text."
        await until(lambda: friend.chat, "the chat line at the friend's")
        assert [c.text for c in friend.chat] == ["Chat · Hosta: welcome [1m all"]
        assert await friend.send_chat("thanks") is None
        await until(lambda: len(view.chat_lines) == 2, "the friend's chat line at the host")
        texts = [h.text for h in view.observation(0).history]
        assert texts[-2:] == ["Chat · Hosta: welcome [1m all", "Chat · Friend: thanks"]
        view.close()
        await friend.close()


async def test_a_joined_name_is_in_the_deals_log_and_the_save_is_its_own_replay() -> None:
    """A remote player's name replaces the seat's before the first move: the deal's
    opening lines name them, every client's log says so (sent again), and the hosted save
    still loads (a save is accepted only if it is its own replay)."""
    from net_helpers import remote_table

    from twos_tui.play import saves

    async with live_server() as server:
        table = server.add(remote_table("twos", seed=3))
        ana = await join(server, table, "Ana")
        bram = await join(server, table, "Bram")
        cleo = await join(server, table, "Cleo")
        g = table.game
        assert "Player" not in g.history[0]["text"], g.history[0]
        await until(
            lambda: all(c.log and "Player" not in c.log[0].text for c in (ana, bram, cleo)),
            "every client's log naming the players",
        )
        for c in (ana, bram, cleo):
            assert c.log[0] == g.observe(c.seat).history[0]
        table.session.save()
        info = saves.inspect_save(saves.save_path(table.session.save_id))
        assert info.ok, info.problem
        for c in (ana, bram, cleo):
            await c.close()
