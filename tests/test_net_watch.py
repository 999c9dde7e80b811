"""Spectators and table chat on a hosted table: ``--watch`` and a full table watch the
public view (no hand, no decision, ever: also after leaving a seat); a spectator takes
a free seat when the host allows it; chat lines reach everybody, cleaned and rate
limited by the host."""

from __future__ import annotations

import asyncio
import json

from net_helpers import find_leaks, join, live_server, remote_table

from twos_tui.engine import Action
from twos_tui.play.net import messages as M
from twos_tui.play.net import protocol as P
from twos_tui.play.net.client import TableClient


async def wait_for(client: TableClient, pred, timeout: float = 10.0) -> None:
    async def loop() -> None:
        while not pred():
            client.changed.clear()
            await client.changed.wait()

    await asyncio.wait_for(loop(), timeout)


async def test_a_spectator_sees_the_public_view_only() -> None:
    async with live_server() as server:
        table = server.add(remote_table("big-two", seed=4))
        got: list[str] = []
        watcher = TableClient(
            "127.0.0.1", server.port, table.code, "Eve", retry_delays=(), role="watch"
        )
        watcher.raw_hook = got.append
        await watcher.open()
        assert watcher.watching and watcher.seat == -1 and watcher.token is None
        assert watcher.welcome is not None and watcher.welcome.role == "watch"
        welcome = next(text for text in got if '"type":"welcome"' in text)
        assert '"token"' not in welcome
        players = [await join(server, table, n) for n in ("Ana", "Bo", "Cy", "Di")]
        await wait_for(
            watcher,
            lambda: (
                watcher.state is not None
                and len(watcher.state.seats) > 3
                and watcher.state.seats[3].name == "Di"
            ),
        )
        st = watcher.state
        assert st is not None
        assert st.seat is None and st.decision is None and st.legal == ()
        assert st.observation.hand == () and st.observation.seat is None
        assert st.observation.hand_counts == (13, 13, 13, 13)
        assert st.watching == 1
        # the players see the spectator counted; a spectator's moves are refused
        reply = await watcher.request(M.Act(action=Action("pass")))
        assert isinstance(reply, M.Error)
        assert reply.code == P.E_NOT_NOW and "Spectators watch" in reply.reason
        # no message the spectator got names a card any seat holds hidden
        for text in got:
            assert find_leaks(table.game, None, text) == [], text[:200]
        for c in [*players, watcher]:
            await c.close()


async def test_a_full_table_watches_and_a_spectator_takes_a_free_seat() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=2))  # three seats
        a = await join(server, table, "Ana")
        w = TableClient("127.0.0.1", server.port, table.code, "Wes", retry_delays=(), role="watch")
        await w.open()
        await wait_for(w, lambda: bool(w.state and w.state.can_sit))
        assert await w.sit() is None
        await wait_for(w, lambda: bool(w.state and w.state.seat == 1))
        assert not w.watching and w.seat == 1 and w.token
        assert len(w.state.observation.hand) > 0  # their own hand, now
        assert await w.sit() == "You have a seat already."
        c = await join(server, table, "Cy")
        late = await join(server, table, "Dee")  # full: watches
        assert late.watching and late.welcome.note == "The table is full: you are watching."
        assert await late.sit() == "The table is full."
        for x in (a, w, c, late):
            await x.close()


async def test_the_host_can_forbid_taking_seats() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=2, allow_sit=False))
        w = TableClient("127.0.0.1", server.port, table.code, "Wes", retry_delays=(), role="watch")
        await w.open()
        await wait_for(w, lambda: w.state is not None)
        assert w.state.can_sit is False
        assert await w.sit() == "The host does not let spectators take seats at this table."
        await w.close()


async def test_after_leaving_a_seat_to_watch_no_hand_comes_again() -> None:
    async with live_server(rate=1000, burst=1000) as server:
        table = server.add(remote_table("big-two", seed=5, kinds=["remote", "ai", "ai", "ai"]))
        got: list[str] = []
        a = await join(server, table, "Ana")
        await wait_for(a, lambda: a.state is not None)
        assert len(a.state.observation.hand) == 13
        assert await a.leave_seat() is None
        a.raw_hook = got.append
        assert a.watching and a.token is None
        await wait_for(a, lambda: a.state.seat is None)
        assert a.state.observation.hand == ()
        # the seat is held as after a drop, then the AI plays it: the match goes on and
        # every message after leaving is the public view
        table.hold_s = 0.0
        table._schedule()
        await wait_for(a, lambda: a.state.n >= 8, timeout=30)
        assert got
        for text in got:
            msg = json.loads(text)
            assert msg.get("seat") is None or msg["type"] == "chat", text[:200]
            assert find_leaks(table.game, None, text) == [], text[:200]
        # a dropped connection comes back watching (the token was forgotten here)
        await a.drop()
        await wait_for(a, lambda: a.connected and a.state is not None, timeout=10)
        assert a.watching
        await a.close()


async def test_the_hosts_public_state_makes_a_seat_watch_when_the_answer_is_late() -> None:
    """The host's answer to ``watch`` may come after the request stopped waiting: the
    public state the host sends first is enough for the connection to know it watches
    (no seat, no token kept); nothing of the hand comes after it."""
    async with live_server(rate=1000, burst=1000) as server:
        table = server.add(remote_table("big-two", seed=5, kinds=["remote", "ai", "ai", "ai"]))
        a = await join(server, table, "Ana")
        await wait_for(a, lambda: a.state is not None and a.state.seat == 0)
        assert not a.watching and a.seat == 0 and a.token
        got: list[str] = []
        a.raw_hook = got.append
        assert a.ws is not None
        await a.ws.send(P.encode(M.Watch(id=7)))  # an answer nobody waits for any more
        await wait_for(a, lambda: a.watching)
        assert a.seat == -1 and a.token is None and a.role == "watch"
        assert a.state is not None and a.state.seat is None
        assert a.state.observation.hand == ()
        assert table.seats[0].conn is None  # the host holds the seat
        await wait_for(a, lambda: any('"type":"answer"' in t for t in got))
        msgs = [json.loads(text) for text in got]
        # (the seat's own states sent before the host read the request come first)
        first = next(i for i, m in enumerate(msgs) if m["type"] == "state" and m["seat"] is None)
        for text, msg in zip(got[first:], msgs[first:], strict=True):
            assert msg.get("seat") is None or msg["type"] == "chat", text[:200]
            assert find_leaks(table.game, None, text) == [], text[:200]
        await a.close()


async def test_chat_reaches_everybody_cleaned_and_limited() -> None:
    async with live_server(chat_rate=0.001, chat_burst=3) as server:
        table = server.add(remote_table("twos", seed=2))
        a = await join(server, table, "Ana")
        b = await join(server, table, "Bo")
        w = TableClient("127.0.0.1", server.port, table.code, "Wes", retry_delays=(), role="watch")
        await w.open()
        assert await a.send_chat("hello \x1b[31m[bold]there[/bold]\n" + "x" * 400) is None
        await wait_for(b, lambda: bool(b.chat))
        await wait_for(w, lambda: bool(w.chat))
        line = b.chat[0].text
        assert line.startswith("Chat · Ana: hello [31m[bold]there[/bold] x")
        assert "\x1b" not in line and "\n" not in line
        assert len(line) == len("Chat · Ana: ") + P.MAX_CHAT
        assert await w.send_chat("hi from the rail") is None
        await wait_for(a, lambda: len(a.chat) == 2)
        assert a.chat[1].text == "Chat · Wes (watching): hi from the rail"
        # in the log panel's list, where they were said
        assert a.log_with_chat()[-1].kind == "chat"
        # a flood: three lines in a burst pass, then "too fast"
        assert await w.send_chat("2") is None
        assert await w.send_chat("3") is None
        assert await w.send_chat("4") == "You are chatting too fast: wait a moment."
        # someone who arrives later gets the recent lines
        late = TableClient(
            "127.0.0.1", server.port, table.code, "Lu", retry_delays=(), role="watch"
        )
        await late.open()
        await wait_for(late, lambda: len(late.chat) == 4)
        for x in (a, b, w, late):
            await x.close()


def test_the_public_view_shows_2v1_s_face_up_lead_and_a_face_down_card_face_down() -> None:
    """What every seat sees of a card list stays for a spectator, card by card: the lone
    player's face-up lead shows, the face-down card beside it is ``??`` (it was blanked
    whole before, so a spectator saw no lead at all)."""
    import random

    from twos_tui.engine.cards import HIDDEN

    table = remote_table("2v1", seed=3)
    g = table.game
    rng = random.Random(1)
    while not (g.lone is not None and g.lead_up and g.lead_down):
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    lone = table.public_observation().to_json()["table"][0]
    assert lone["seat"] == g.lone and lone["cards"] == [g.lead_up, HIDDEN]
    assert g.lead_down not in json.dumps(table.public_observation().to_json())
    assert find_leaks(g, None, P.encode(table.public_state()[0])) == []


async def test_a_spectator_who_takes_a_seat_has_the_seats_view_at_once() -> None:
    """``sit`` returns once the seat's own state is here: the table screen shows the seat
    right after and asks for its view (it came a moment later, and the app stopped with
    "the host has not sent seat 1's view yet")."""
    from twos_tui.play.net.client import RemoteSeatView

    async with live_server() as server:
        table = server.add(remote_table("twos", seed=2))  # three remote seats
        ana = await join(server, table, "Ana")
        for seat in (1, 2):  # the second spectator: seat 1 is held for the first
            view = await asyncio.to_thread(
                RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Wes", False,
                watch=True,
            )  # fmt: skip
            try:
                assert view.watching and view.can_sit
                assert await asyncio.to_thread(view.sit) is None
                assert not view.watching and view.my_seat == seat
                obs = view.observation(seat)  # at once: no wait
                assert obs.seat == seat
                assert list(obs.hand) == table.game.observation(seat)["hand"]
                assert await asyncio.to_thread(view.leave_seat) is None
            finally:
                await asyncio.to_thread(view.close)
        await ana.close()
