"""The SSH door of a hosted table, driven by asyncssh's own client with a key: a PTY,
the code typed, the table on screen, a move played; a connection without a terminal,
a key that is not authorized and one connection too many from an address are refused
with a sentence. (The screen is read as the bytes the terminal gets, its escape codes
taken out.)"""

from __future__ import annotations

import asyncio
import os
import stat
import sys

import pytest
from net_helpers import (
    SshScreen,
    at_the_code_prompt,
    live_server,
    open_door,
    plain,
    remote_table,
    ssh_connect,
    until,
)

asyncssh = pytest.importorskip("asyncssh")
if os.name != "posix":  # pragma: no cover
    pytest.skip("the SSH door needs pseudo-terminals (POSIX)", allow_module_level=True)

from twos_tui.play.net.ssh_door import host_key  # noqa: E402


@pytest.fixture
def keys(tmp_path):
    good = asyncssh.generate_private_key("ssh-ed25519")
    bad = asyncssh.generate_private_key("ssh-ed25519")
    auth = tmp_path / "authorized_keys"
    auth.write_bytes(good.export_public_key())
    return good, bad, str(auth)


@pytest.mark.slow
async def test_a_guest_types_the_code_sees_the_table_and_plays(tmp_path, monkeypatch, keys):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    good, _, auth = keys
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        door = await open_door(server, authorized_keys=auth)
        async with await ssh_connect(door, good, "ana") as conn:
            proc, screen = await at_the_code_prompt(conn, "xterm-256color", (100, 30))
            proc.stdin.write(b"NOPE\r")
            await screen.until(lambda s: s.has("No table here has that code."))
            proc.stdin.write(table.code.lower().replace("-", "").encode() + b"\r")
            # the table, as seat 1 sees it: its name (from the SSH user name), the keys
            await screen.until(lambda s: s.has("c Chat") and s.has("ana"), timeout=90)
            assert table.seats[1].claimed and table.game.names[1] == "ana"
            # window size changes are followed: the client redraws at the new size (a
            # 30-row screen never moves its cursor to row 40)
            assert b"\x1b[40;" not in screen.data
            proc.change_terminal_size(120, 40)
            await screen.until(lambda s: b"\x1b[40;" in s.data)
            # play a move: wait for seat 1's turn on its screen, then pass or lead
            seat_moves = lambda: [a for a in table.game.actions if a[0] == 1]  # noqa: E731
            await screen.until(lambda s: 1 in table.game.to_act() and s.has("ana —"), timeout=90)
            before = len(seat_moves())
            if table.game.decision(1).choices:  # a pass is on offer
                proc.stdin.write(b"p")
            else:  # a lead: the first card, played
                proc.stdin.write(b" ")
                await asyncio.sleep(0)
                proc.stdin.write(b"\r")
            await screen.until(lambda s: len(seat_moves()) > before, timeout=60)
            # the hand on screen is seat 1's; no other seat's card label is ever drawn
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("Leave (y)"))
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 30)
        # the guest's client kept its token in a home of its own (by key), not the host's
        homes = list((tmp_path / "home" / "ssh-guests").iterdir())
        assert len(homes) == 1 and (homes[0] / "net-tokens.json").exists()
        assert not door.children


@pytest.mark.slow
async def test_a_guest_who_types_the_code_and_watch_sees_every_seat(tmp_path, monkeypatch, keys):
    """``CODE watch`` at the door: the spectator's terminal shows every seat's name and
    card count (a free seat says so), never the hot-seat "table is hidden" note, no card
    before one is played, and the seat boxes follow the moves when a player comes."""
    from net_helpers import join, play_moves

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    good, _, auth = keys
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    g = table.game
    async with live_server() as server:
        server.add(table)
        door = await open_door(server, authorized_keys=auth)
        async with await ssh_connect(door, good, "eve") as conn:
            proc, screen = await at_the_code_prompt(conn, "xterm-256color", (80, 24))
            proc.stdin.write(table.code.encode() + b" watch\r")
            names = list(g.names)
            await screen.until(
                lambda s: s.has("Watching") and all(s.has(n) for n in names) and s.has("13 cards"),
                timeout=90,
            )
            assert shows_none(screen, ["The table is hidden", "Select", "Hint"])
            assert shows_none(screen, [g.card_face(c).label for c in g.deck_cards()])
            assert screen.has("free") and not table.seats[1].claimed  # watching takes no seat
            # a player comes and plays: the boxes show the name and the counts moving
            bot = await join(server, table, "Ana")
            try:
                await play_moves(bot, 2)
                left = g.observation(1)["hand_counts"][1]  # the table waits for Ana now
                assert left < 13
                await screen.until(lambda s: s.has("Ana") and s.has(f"{left} card"), timeout=60)
            finally:
                await bot.close()
            proc.stdin.write(b"q")
            await screen.until(lambda s: s.has("Leave (y)"))
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 30)


def shows_none(screen: SshScreen, texts: list[str]) -> bool:
    """None of ``texts`` was ever drawn on ``screen``."""
    shown = plain(screen.data)
    return not [t for t in texts if t in shown]


@pytest.mark.slow
async def test_no_terminal_wrong_key_and_the_per_address_cap_are_refused(
    tmp_path, monkeypatch, keys
):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    good, bad, auth = keys
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5, autosave=False))
        door = await open_door(server, authorized_keys=auth, per_address=1)
        # a key not in the authorized keys
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(door, bad)
        # no terminal: a sentence, status 1
        async with await ssh_connect(door, good) as conn:
            result = await conn.run(term_type=None)
            assert result.exit_status == 1
            assert "needs a terminal" in str(result.stderr)
        # one connection from 127.0.0.1 at a time: the second is refused with a sentence
        async with await ssh_connect(door, good) as first:
            proc, _ = await at_the_code_prompt(first)
            with pytest.raises(asyncssh.DisconnectError) as e:
                await ssh_connect(door, good)
            assert "Too many connections from your address (1 at most)." in str(e.value.reason)
            proc.stdin.write(b"\x03")
            await asyncio.wait_for(proc.wait_closed(), 10)
        assert table.code  # the table was never touched
        # once the first has gone, the address may come in again
        await until(lambda: not door.by_address, "the first connection's address let go", 30)
        async with await ssh_connect(door, good) as again:
            await at_the_code_prompt(again)


def test_the_host_key_is_made_once_and_kept_private(tmp_path) -> None:
    path = tmp_path / "key"
    k1 = host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert host_key(path).get_fingerprint() == k1.get_fingerprint()


def test_the_door_names_the_extra_when_asyncssh_is_missing(monkeypatch, capsys) -> None:
    from twos_tui.cli import main

    monkeypatch.setitem(sys.modules, "asyncssh", None)
    assert main(["host", "twos", "--headless", "--ssh", "2222"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "twos-tui: the SSH door needs the ssh extra: pip install 'twos-tui[ssh]'"
    )


def test_a_guest_terminal_name_is_used_only_when_plain() -> None:
    from twos_tui.play.net.ssh_door import guest_name, term_name

    assert term_name("screen-256color") == "screen-256color"
    assert term_name("../../etc/x") == "xterm-256color"
    assert term_name("x\x1b[2J") == "xterm-256color"
    assert term_name(None) == "xterm-256color"
    assert guest_name("\x1b[31mana") == "[31mana"
    assert guest_name("") == "Guest"
