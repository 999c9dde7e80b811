"""The lobby over SSH (issue 30): ``ssh -p PORT NAME@server`` with nothing installed lands
in the lobby, the SSH key is the account (the same key comes back as the same player),
a key-less guest is a guest, a table is sat at and played from there, leaving the table
goes back to the lobby and leaving the lobby ends the connection. Driven by asyncssh's
own client; the screen is read as the bytes the terminal gets, escape codes taken out."""

from __future__ import annotations

import asyncio
import os

import pytest
from lobby_helpers import Player, lobby_server
from net_helpers import SshScreen, open_door, ssh_connect, until

asyncssh = pytest.importorskip("asyncssh")
if os.name != "posix":  # pragma: no cover
    pytest.skip("the SSH door needs pseudo-terminals (POSIX)", allow_module_level=True)

from twos_tui.play.lobby.model import CreateTable  # noqa: E402


async def _session(conn, size=(100, 30)):
    proc = await conn.create_process(term_type="xterm-256color", encoding=None, term_size=size)
    return proc, SshScreen(proc)


@pytest.mark.slow
async def test_ssh_lands_in_the_lobby_sits_plays_and_comes_back(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with lobby_server(tmp_path) as server:
        door = await open_door(server, lobby=True)
        bo = Player(server, tmp_path, "Bo")
        await bo.open()
        made = await bo.ask(CreateTable("twos", 3, ai_seats=(None, None, "easy"), rated=False))
        async with await ssh_connect(door, key, "ana") as conn:
            proc, screen = await _session(conn)
            # the lobby, as ana: no code asked; Bo's table listed
            await screen.until(lambda s: s.has("Quick match") and s.has("Bo"), timeout=120)
            account = server.store.account("ana")
            assert account is not None and not account.guest
            assert "Code:" not in screen.data.decode("utf-8", "replace")
            # sit at it (the selected table), and the table comes: ana's seat
            proc.stdin.write(b"s")
            lt = server.lobby_tables[made.table_id]
            await until(lambda: lt.seat_of("ana") is not None, "ana seated", timeout=120)
            await screen.until(lambda s: s.has("c Chat"), timeout=120)
            # leaving the table goes back to the lobby, still there
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("go back to the lobby"), timeout=60)
            proc.stdin.write(b"y")
            screen.data = b""
            await screen.until(lambda s: s.has("Quick match"), timeout=60)
            # and leaving the lobby ends the connection (a guest never gets a home screen),
            # once the guest says yes
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("End the session?"), timeout=60)
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 60)
        # the same SSH key again: the same account, no name to claim; the lobby seats
        # ana back at the table she left (her seat is held), and she leaves it again
        async with await ssh_connect(door, key, "ana") as conn:
            proc, screen = await _session(conn)
            await screen.until(lambda s: s.has("c Chat"), timeout=120)
            assert lt.seat_of("ana") is not None
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("go back to the lobby"), timeout=60)
            proc.stdin.write(b"y")
            screen.data = b""
            await screen.until(lambda s: s.has("Quick match") and s.has("ana"), timeout=60)
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("End the session?"), timeout=60)
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 60)
        assert [a.name for a in (server.store.account("ana"),) if a] == ["ana"]
        await bo.close()


@pytest.mark.slow
async def test_a_keyless_ssh_guest_is_a_guest_in_the_lobby(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    async with lobby_server(tmp_path) as server:
        door = await open_door(server, lobby=True)
        watcher = Player(server, tmp_path, "Cy")
        await watcher.open()
        async with await asyncssh.connect(
            "127.0.0.1",
            door.port,
            username="dee",
            known_hosts=None,
            agent_path=None,
            client_keys=None,
            password="anything",  # (the door takes any: a guest without a key)
            kbdint_auth=False,
        ) as conn:
            proc, screen = await _session(conn)
            await screen.until(lambda s: s.has("Quick match") and s.has("guest"), timeout=120)
            assert server.store.account("dee") is None  # no account without a key
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("End the session?"), timeout=60)
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 60)
        await watcher.close()
