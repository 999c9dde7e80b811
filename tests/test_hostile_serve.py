"""Issue 19, items 1-3: the browser door. Only the server's own pages connect (a token
when asked), every malformed message leaves the server and the other sessions up, the
sizes are clamped, and the number of sessions at once is capped. Loopback only, bounded
loops; the app behind each session is a stand-in process (a sleeper), so these tests
need the web extra but no browser."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shlex
import sys

import pytest

from twos_tui.serve import MAX_COLS, MAX_ROWS, BadFrame, check_frame, clamp_size

HAS_WEB = importlib.util.find_spec("textual_serve") is not None
needs_web = pytest.mark.skipif(not HAS_WEB, reason="the web extra (textual-serve) is missing")

#: the malformed messages of the campaign, one per class
MALFORMED = [
    "not json at all",
    "{",
    '{"stdin": "x"}',
    "[]",
    '["stdin"]',
    '["stdin", 5]',
    '["stdin", null]',
    '["stdin", ""]',
    '["stdin", ["x"]]',
    '["resize"]',
    '["resize", {}]',
    '["resize", {"width": "80", "height": "24"}]',
    '["resize", {"width": -5, "height": -1}]',
    '["resize", {"width": 0, "height": 24}]',
    '["resize", {"width": 80.5, "height": 24}]',
    '["resize", [80, 24]]',
    '["resize", {"width": true, "height": true}]',
    '["ping", {"a": 1}]',
    '["nonsense", 1]',
    "[5]",
    "[" * 10_000 + "]" * 10_000,
]


def test_the_malformed_classes_are_refused_and_sizes_clamped():
    assert len(MALFORMED) == 21
    for text in MALFORMED:
        with pytest.raises(BadFrame):
            check_frame(text)
    assert check_frame('["resize", {"width": 100000, "height": 100000}]') == (
        "resize",
        (MAX_COLS, MAX_ROWS),
    )
    assert check_frame('["stdin", "r"]') == ("stdin", "r")
    assert check_frame('["ping", "7"]') == ("ping", "7")
    assert check_frame('["focus"]') == ("focus", None)
    assert clamp_size("100000", 80, MAX_COLS) == MAX_COLS
    assert clamp_size("-3", 80, MAX_COLS) == 1
    assert clamp_size("9" * 50, 80, MAX_COLS) == 80


#: a stand-in app's loop: read what the server sends until it says quit (or 60 s pass)
READ_UNTIL_QUIT = (
    "end = time.monotonic() + 60\n"
    "seen = b''\n"
    "while time.monotonic() < end and b'quit' not in seen:\n"
    "    if select.select([0], [], [], 1)[0]:\n"
    "        chunk = os.read(0, 4096)\n"
    "        if not chunk:\n"
    "            break\n"
    "        seen = seen[-100:] + chunk\n"
)
#: the stand-in app: reads what the server sends until it says quit
STAND_IN = "import os, select, sys, time\n" + READ_UNTIL_QUIT
SLEEPER = f"{shlex.quote(sys.executable)} -c {shlex.quote(STAND_IN)}"


async def door(max_sessions=2, token=None):
    from aiohttp.test_utils import TestClient, TestServer
    from textual_serve.server import Server

    from twos_tui.serve import door_server, own_origins

    server = door_server(Server)(SLEEPER, host="127.0.0.1", port=0, title="t")
    client = TestClient(TestServer(await server.web_app(), host="127.0.0.1"))
    await client.start_server()
    port = client.server.port
    url = f"http://127.0.0.1:{port}"
    server.public_url = url
    server.setup_door(own_origins("127.0.0.1", port, url, []), token, max_sessions)
    return server, client, url


async def shut(server, client, *sockets) -> None:
    """Close the connections, wait (bounded) until every session's app has ended, then
    the server."""
    for ws in sockets:
        await ws.close()
    for _ in range(200):
        if server.sessions == 0:
            break
        await asyncio.sleep(0.05)
    await client.close()


async def pong(ws, n: int) -> bool:
    await ws.send_str(json.dumps(["ping", str(n)]))
    for _ in range(20):
        msg = await asyncio.wait_for(ws.receive(), 10)
        if msg.type.name == "TEXT" and json.loads(msg.data) == ["pong", str(n)]:
            return True
    return False


@needs_web
async def test_a_foreign_origin_is_refused_and_the_own_one_plays():
    server, client, url = await door()
    try:
        r = await client.get("/ws", headers={"Origin": "https://evil.example"})
        assert r.status == 403 and "Only pages of this twos-tui server" in await r.text()
        r = await client.get("/ws")  # no Origin at all: refused too
        assert r.status == 403
        ws = await client.ws_connect("/ws", headers={"Origin": url})
        assert await pong(ws, 1)
    finally:
        await shut(server, client, *[w for w in [locals().get("ws")] if w is not None])


@needs_web
async def test_a_token_is_asked_when_set():
    server, client, url = await door(token="sekrit")
    try:
        r = await client.get("/")
        assert r.status == 403 and "token" in await r.text()
        r = await client.get("/?token=wrong")
        assert r.status == 403
        r = await client.get("/?token=sekrit")
        assert r.status == 200 and "twos_token" in r.cookies
        ws = await client.ws_connect("/ws", headers={"Origin": url})  # the cookie
        assert await pong(ws, 2)
    finally:
        await shut(server, client, *[w for w in [locals().get("ws")] if w is not None])


@needs_web
async def test_malformed_messages_leave_the_server_and_other_sessions_up():
    server, client, url = await door(max_sessions=3)
    try:
        other = await client.ws_connect("/ws?width=100000&height=100000", headers={"Origin": url})
        bad = await client.ws_connect("/ws", headers={"Origin": url})
        for text in MALFORMED:
            await bad.send_str(text)
        assert await pong(bad, 3)  # the bad one is still served (ignored, not ended)
        assert await pong(other, 4)
        assert server.bad_frames == len(MALFORMED)
        for _ in range(60):  # past the limit: that connection alone is closed
            await bad.send_str("[]")
        closed = None
        for _ in range(100):
            msg = await asyncio.wait_for(bad.receive(), 10)
            if msg.type.name in ("CLOSE", "CLOSED", "CLOSING"):
                closed = msg
                break
        assert closed is not None
        assert await pong(other, 5)
    finally:
        found = [locals().get(k) for k in ("other", "bad")]
        await shut(server, client, *[w for w in found if w is not None])


@needs_web
async def test_the_session_cap_holds_and_refuses_politely():
    server, client, url = await door(max_sessions=2)
    try:
        a = await client.ws_connect("/ws", headers={"Origin": url})
        b = await client.ws_connect("/ws", headers={"Origin": url})
        assert await pong(a, 6) and await pong(b, 7)
        r = await client.get("/ws", headers={"Origin": url})
        assert r.status == 503 and "Try again" in await r.text()
        r = await client.get("/")
        assert r.status == 503
        await a.close()
        for _ in range(100):
            if server.sessions < 2:
                break
            await asyncio.sleep(0.05)
        c = await client.ws_connect("/ws", headers={"Origin": url})
        assert await pong(c, 8)
    finally:
        found = [locals().get(k) for k in ("a", "b", "c")]
        await shut(server, client, *[w for w in found if w is not None])
