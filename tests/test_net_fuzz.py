"""Garbage against a live table: malformed, oversized, binary, out-of-turn, wrong-seat,
stale and replayed-token messages. The server stays up, every refused message leaves
every table's state as it was, and the other players' games go on to their end."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import pytest
from net_helpers import join, live_server, remote_table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from twos_tui.play.net import protocol as P
from twos_tui.play.net.client import play_bot
from twos_tui.play.net.server import Conn, TableServer

JUNK_TEXTS = [
    "",
    "null",
    "[]",
    "42",
    '"hello"',
    "{",
    '{"v": 1}',
    '{"type": "act"}',
    '{"v": "1", "type": "ping"}',
    '{"v": 1, "type": "nope"}',
    '{"v": 1, "type": "ping", "extra": 1}',
    '{"v": 1, "type": "act", "action": []}',
    '{"v": 1, "type": "act", "action": {"kind": 3}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "cards": "3S"}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "cards": [3]}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "value": 1e999}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "value": NaN}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "value": [1]}}',
    '{"v": 1, "type": "act", "action": {"kind": "play", "evil": 1}}',
    '{"v": 1, "type": "join", "code": 5}',
    '{"v": 1, "type": "chat", "text": "hi"}',
    '{"v": 1, "type": "join", "code": "X", "role": "watch"}',
    '{"v": 1, "type": "ready", "deal": -1}',
    '{"v": 1, "type": "act", "action": {"kind": "play"}, "n": "x"}',
    '{"v": 1, "type": "ping", "id": {"a": 1}}',
    "[" * 5000 + "]" * 5000,
    '{"v": 1, "type": "ping", "id": "' + "x" * 200 + '"}',
    "\x00\x01\x02 \u202e \x1b[31m",
]


def chat_junk(rng: random.Random, rid: int) -> str | bytes:
    """A chat line: long, binary, escape codes, markup, wrong kinds (a flood, as the
    fuzzer sends many: the host's chat limit refuses most)."""
    kind = rng.randrange(6)
    if kind == 0:  # long: over the 280 a line keeps, or over what a chat may carry
        text = "y" * rng.choice([281, 1000, P.MAX_CHAT_RAW, P.MAX_CHAT_RAW + 1])
    elif kind == 1:  # binary-looking text
        text = "".join(chr(rng.randrange(0, 0x2FF)) for _ in range(rng.randrange(1, 300)))
    elif kind == 2:  # escape codes and bidirectional overrides
        text = "\x1b[2J\x1b]0;pwned\x07\u202ehi\x1b[31m red \r\n\x00 end"
    elif kind == 3:  # markup and card labels as text
        text = "[bold red]win[/] [link=http://x]y[/link] [10♠]"
    elif kind == 4:  # not a text at all
        return P.encode({"type": "chat", "id": rid, "text": rng.choice([5, None, [1], {"a": 1}])})
    else:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    return P.encode({"type": "chat", "id": rid, "text": text})


def junk(
    rng: random.Random, table_game, my_seat: int, tokens: list[str], table_code: str = "X"
) -> str | bytes:
    """One bad message (it may still happen to be a legal move: the test tells)."""
    kind = rng.randrange(10)
    rid = rng.randrange(1, 10**6)
    if kind == 9:
        return chat_junk(rng, rid)
    if kind == 0:
        return rng.choice(JUNK_TEXTS)
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 2:  # random printable text
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 80)))
    g = table_game
    others = [s for s in range(g.players) if s != my_seat]
    if kind == 3:  # another seat's cards (wrong seat)
        hand = g.observation(rng.choice(others))["hand"]
        cards = rng.sample(hand, min(len(hand), rng.randrange(1, 4))) if hand else ["3S"]
        action = {"kind": rng.choice(["play", "exchange", "discard", "pass"]), "cards": cards}
        return P.encode({"type": "act", "id": rid, "action": action})
    if kind == 4:  # out of turn: a move that would be legal for the seat to act
        acting = g.to_act()
        if acting and my_seat not in acting:
            legal = g.legal_actions(acting[0])
            if legal:
                a = rng.choice(legal).to_json()
                return P.encode({"type": "act", "id": rid, "action": a})
        return P.encode({"type": "act", "id": rid, "action": {"kind": "pass"}})
    if kind == 5:  # stale
        return P.encode(
            {"type": "act", "id": rid, "action": {"kind": "pass"}, "n": len(g.actions) + 1}
        )
    if kind == 6:  # replayed / forged tokens (another table's, one character off), codes
        token = rng.choice(tokens) if tokens else "x"
        if rng.random() < 0.5:
            token = token[:-1] + ("A" if token[-1:] != "A" else "B")
        code = rng.choice([table_code, "ABCD-EFGH", table_code.lower(), table_code[:-1]])
        return P.encode({"type": "join", "id": rid, "code": code, "token": token})
    if kind == 7:
        cards = ["".join(rng.choice("0123456789AKQJSHDCX?") for _ in range(2))]
        return P.encode(
            {
                "type": rng.choice(["check", "describe", "act"]),
                "id": rid,
                "action": {
                    "kind": rng.choice(["play", "pass", "bid", "x" * 40]),
                    "cards": cards,
                    "value": rng.choice([None, 3, "w", -7]),
                },
            }
        )
    return P.encode({"type": "ready", "id": rid, "deal": rng.randrange(0, 5)})


@pytest.mark.slow
async def test_fuzz_leaves_tables_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    refused = 0
    broken: list[str] = []
    tables: list[Any] = []

    orig = TableServer.receive

    cache: dict[int, tuple[Any, str]] = {}

    def fingerprint(g: Any) -> Any:
        return (len(g.actions), g.deal_number, len(g.history), g.deal_over, tuple(g.names))

    def snapshot(g: Any) -> str:
        text = json.dumps(g.to_json(), sort_keys=True)
        cache[id(g)] = (fingerprint(g), text)
        return text

    def receive(self: TableServer, conn: Conn, raw: str | bytes) -> bool:
        # the state before (a move changes the fingerprint; the whole state after a
        # refused message is compared with it in full)
        nonlocal refused
        before = []
        for t in tables:
            fp, text = cache.get(id(t.game), (None, ""))
            before.append(text if fp == fingerprint(t.game) else snapshot(t.game))
        ok = orig(self, conn, raw)
        if not ok:
            refused += 1
            after = [snapshot(t.game) for t in tables]
            if after != before:
                for x, y in zip(before, after, strict=True):
                    if x != y:
                        xa, ya = json.loads(x), json.loads(y)
                        diff = {k: (xa[k], ya.get(k)) for k in xa if xa[k] != ya.get(k)}
                        broken.append(f"{str(raw)[:200]} changed {str(diff)[:600]}")
        return ok

    monkeypatch.setattr(TableServer, "receive", receive)
    async with live_server(rate=10**6, burst=10**6, max_bad=10**9) as server:
        a = server.add(remote_table("big-two", seed=11))
        b = server.add(remote_table("twos", seed=12))
        tables += [a, b]
        bots_a = [await join(server, a, f"A{i}") for i in range(3)]
        bots_b = [await join(server, b, f"B{i}") for i in range(3)]
        fuzz_client = await join(server, a, "Fuzz")  # the fuzzer's own seat at table A
        # table B's tokens replayed at table A (and A's own, one character off)
        tokens = [c.token for c in bots_b] + [c.token[:-1] + "Z" for c in bots_a]
        games = asyncio.gather(*(play_bot(c, "easy") for c in bots_a + bots_b))

        rng = random.Random(5)
        sent = 0
        ws_seat = fuzz_client.seat
        # the fuzzer's seat is played by a bot between the junk: the same seat, a second
        # connection (the bot's) would replace it, so the junk goes on the bot's own socket
        mine = asyncio.ensure_future(play_bot(fuzz_client, "easy"))
        ws = fuzz_client.ws
        assert ws is not None
        while sent < 10_500 and not a.game.match_over:
            msg = junk(rng, a.game, ws_seat, tokens, a.code)
            try:
                await ws.send(msg)
            except ConnectionClosed:
                break
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0)  # the bots get their turns
        # the rest from connections with no seat: before hello, before join, bad codes
        while sent < 10_500:
            async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as raw:
                for i in range(60):
                    if i == 1:
                        await raw.send(P.encode({"type": "hello", "id": 0}))
                    else:
                        await raw.send(junk(rng, a.game, ws_seat, tokens, a.code))
                    sent += 1
        await asyncio.wait_for(games, 120)
        await asyncio.wait_for(mine, 60)
        assert a.game.match_over and b.game.match_over
        # nobody took a seat with a forged or replayed token: every seat kept its player
        for bot in bots_a + bots_b + [fuzz_client]:
            assert bot.lost is None
        # the chat lines that got through reached table A only, cleaned: no control
        # character, at most 280 characters
        said = [c.text for c in bots_a[0].chat]
        assert said and not any(c.chat for c in bots_b)
        for line in said:
            text = line.split(": ", 1)[1]
            assert len(text) <= P.MAX_CHAT
            assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in line), line
        for c in bots_a + bots_b + [fuzz_client]:
            await c.close()
    assert broken == []
    assert sent >= 10_000 and refused >= 9_000, (sent, refused)


async def test_oversized_and_binary_and_garbage_close_the_connection() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=3))
        # a frame over 64 KiB: closed with 1009 (too big)
        async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
            await ws.send("x" * (P.MAX_MESSAGE_BYTES + 1))
            with pytest.raises(ConnectionClosed) as e:
                await asyncio.wait_for(ws.recv(), 5)
            assert e.value.rcvd is not None and e.value.rcvd.code == 1009
        # garbage: an error each (with a reason), then a bye and the close
        async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
            reasons = []
            for _ in range(P.MAX_BAD_MESSAGES):
                await ws.send("not json")
            with pytest.raises(ConnectionClosed):
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    reasons.append(msg)
            assert [m["type"] for m in reasons] == ["error"] * P.MAX_BAD_MESSAGES + ["bye"]
            assert reasons[0]["reason"] == "That is not JSON."
        # the table is still there for a real player
        c = await join(server, table, "Ana")
        assert c.seat == 0
        await c.close()


async def test_rate_limit_refuses_a_flood_and_the_id_is_answered() -> None:
    async with live_server(rate=5, burst=5) as server:
        server.add(remote_table("twos", seed=3))
        async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
            await ws.send(P.encode({"type": "hello", "id": 0}))
            for i in range(1, 8):
                await ws.send(P.encode({"type": "ping", "id": i}))
            replies = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(8)]
        codes = [(r.get("id"), r.get("code")) for r in replies]
        assert codes[:5] == [(0, None), (1, None), (2, None), (3, None), (4, None)]
        assert codes[5:] == [(5, "too-fast"), (6, "too-fast"), (7, "too-fast")]


async def test_versions_old_client_told_to_upgrade_newer_told_the_host_is_older() -> None:
    async with live_server() as server:
        for v, code in ((0, "upgrade"), (2, "newer")):
            async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
                await ws.send(json.dumps({"v": v, "type": "hello", "id": 1}))
                err = json.loads(await ws.recv())
                bye = json.loads(await ws.recv())
                assert err["code"] == code and err["id"] == 1 and "update" in err["reason"]
                assert bye["type"] == "bye"


async def test_a_connection_that_never_joins_is_closed_and_the_host_caps_connections() -> None:
    async with live_server(join_timeout=0.1, max_connections=2) as server:
        server.add(remote_table("twos", seed=3))
        async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
            bye = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert bye["type"] == "bye" and bye["reason"].startswith("Join a table within")
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
    async with live_server(max_connections=1) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        async with connect(url, compression=None) as first, connect(url) as second:
            with pytest.raises(ConnectionClosed) as e:
                await asyncio.wait_for(second.recv(), 5)
            assert e.value.rcvd is not None and e.value.rcvd.code == 1013
            await first.send(P.encode({"type": "hello", "id": 1}))
            assert json.loads(await first.recv())["type"] == "answer"


async def test_a_chat_flood_is_cut_short_and_the_others_get_a_few_lines() -> None:
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=3))
        ana = await join(server, table, "Ana")
        async with connect(f"ws://127.0.0.1:{server.port}/", compression=None) as ws:
            await ws.send(P.encode({"type": "hello", "id": 0}))
            await ws.send(P.encode({"type": "join", "id": 1, "code": table.code, "name": "Flo"}))
            for i in range(100):
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(P.encode({"type": "chat", "id": 10 + i, "text": f"spam {i}"}))
            codes: list[str] = []
            with pytest.raises(ConnectionClosed):
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if msg["type"] == "error":
                        codes.append(msg["code"])
                    elif msg["type"] == "bye":
                        assert msg["reason"] == "Too many refused messages."
        assert codes and set(codes) == {P.E_TOO_FAST}
        # Ana heard the burst the limit lets through, no more
        for _ in range(100):
            if len(ana.chat) >= P.CHAT_BURST:
                break
            ana.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ana.changed.wait(), 0.1)
        assert [c.text for c in ana.chat] == [
            f"Chat · Flo: spam {i}" for i in range(int(P.CHAT_BURST))
        ]
        await ana.close()
