"""Text at the door of a hosted table: a message whose text cannot be sent on (a lone
UTF-16 surrogate, valid in JSON) is refused with a reason where it comes in, and
never reaches another connection, the table or the chat kept for later arrivals."""

from __future__ import annotations

import asyncio
import json
import logging

from net_helpers import live_server, remote_table
from websockets.asyncio.client import connect

from twos_tui.play.net import protocol as P
from twos_tui.play.net.client import TableClient


async def join(server, table, name: str) -> TableClient:
    """A player who does not reconnect: a dropped connection stays dropped (``lost``)."""
    c = TableClient("127.0.0.1", server.port, table.code, name)
    await c.open()
    return c


async def _replies(ws, until_id: int, timeout: float = 10.0) -> list[dict]:
    """What the host sent ``ws`` up to the answer (or error) of request ``until_id``."""
    got: list[dict] = []

    async def read() -> None:
        while True:
            msg = json.loads(await ws.recv())
            got.append(msg)
            if msg.get("id") == until_id and msg["type"] in ("answer", "error", "welcome"):
                return

    await asyncio.wait_for(read(), timeout)
    return got


async def test_a_lone_surrogate_in_chat_is_refused_and_the_table_stays(caplog) -> None:
    """The denial of service of the issue: before the fix the line was broadcast, every
    connection's send failed on it and every player was dropped (and every later
    arrival, as the line was replayed to them)."""
    caplog.set_level(logging.INFO)
    async with live_server(chat_rate=100, chat_burst=100) as server:
        table = server.add(remote_table("twos", seed=3))
        ana = await join(server, table, "Ana")
        bram = await join(server, table, "Bram")
        url = f"ws://127.0.0.1:{server.port}/"
        async with connect(url, compression=None) as ws:  # a spectator with the code
            await ws.send(P.encode({"type": "hello", "id": 0}))
            await ws.send(P.encode({"type": "join", "id": 1, "code": table.code, "role": "watch"}))
            await _replies(ws, 1)
            await ws.send('{"v":1,"type":"chat","id":2,"text":"hi \\ud800 there"}')
            replies = await _replies(ws, 2)
            refusal = replies[-1]
            assert refusal["type"] == "error" and refusal["code"] == P.E_BAD
            assert "text" in refusal["reason"] and "surrogate" in refusal["reason"]
            # the spectator's connection is still good
            await ws.send(P.encode({"type": "ping", "id": 3}))
            assert (await _replies(ws, 3))[-1]["result"] == "pong"
        # nothing was kept for later arrivals, and the players are all still there
        assert list(table.chat_log) == []
        for c in (ana, bram):
            assert c.connected and c.lost is None
            assert (await c.request({"type": "ping"}))["result"] == "pong"
        assert all(rs.conn is not None for rs in list(table.seats.values())[:2])
        # a good line still goes round, and a newcomer is welcomed and stays
        assert await ana.send_chat("gg") is None
        carl = await join(server, table, "Carl")
        for _ in range(200):
            if carl.chat and bram.chat:
                break
            await asyncio.sleep(0.02)
        assert [c["text"] for c in carl.chat] == ["Chat · Ana: gg"]
        assert [c["text"] for c in bram.chat] == ["Chat · Ana: gg"]
        assert (await carl.request({"type": "ping"}))["result"] == "pong"
        assert carl.lost is None and ana.lost is None and bram.lost is None
        for c in (ana, bram, carl):
            await c.close()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
