"""``twos-tui server``: bad arguments get one line; the operator's commands print from the
store; the server itself runs as a process, prints where it listens and its
fingerprint, serves a player, and stops on Ctrl-C with its tables saved for the next
start."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys

import pytest

from twos_tui.cli import main
from twos_tui.play.lobby.client import LobbyClient
from twos_tui.play.lobby.identity import Identity
from twos_tui.play.lobby.model import CreateTable, MatchOutcome, Seated
from twos_tui.play.lobby.store import SqliteStore
from twos_tui.play.net.tls import KnownHosts


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["server", "ban"], "needs the NAME"),
        (["server", "leaderboard", "chess"], "unknown game"),
        (["server", "tables", "x"], "no argument"),
        (["server", "--port", "99999"], "65535"),
        (["server", "--tables", "0"], "from 1"),
        (["server", "dance"], "invalid choice"),
        (["server", "--cert", "c.pem"], "go together"),
    ],
)
def test_bad_arguments_are_one_line(argv, words, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as e:
        raise SystemExit(main(argv))
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err


def test_the_operators_commands_print_from_the_store(capsys, tmp_path) -> None:
    db = tmp_path / "lobby.db"
    with SqliteStore(db) as store:
        store.claim_name("Alice", "SHA256:a")
        store.claim_name("Bob", "SHA256:b")
        store.finish_match(
            MatchOutcome("t-1", "twos", True, 1.0e9, (("Alice", 1), ("Bob", 2), (None, 3)))
        )
    assert main(["server", "leaderboard", "twos", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "twos:" in out and out.index("Alice") < out.index("Bob")
    assert main(["server", "tables", "--db", str(db)]) == 0
    assert "No tables are open." in capsys.readouterr().out
    assert main(["server", "ban", "Bob", "--db", str(db)]) == 0
    assert "Bob" in capsys.readouterr().out
    with SqliteStore(db) as store:
        account = store.account("Bob")
        assert account is not None and account.banned


async def _lines_until(proc, pattern: str, seen: list[str], timeout: float = 60.0) -> re.Match:
    async def read() -> re.Match:
        while True:
            raw = await proc.stderr.readline()
            if not raw:
                raise AssertionError("the server ended: " + "".join(seen))
            seen.append(raw.decode())
            m = re.search(pattern, seen[-1])
            if m:
                return m

    return await asyncio.wait_for(read(), timeout)


async def _start(tmp_path, seen: list[str]):
    env = {**os.environ, "TWOS_TUI_HOME": str(tmp_path / "home")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "twos_tui", "server", "--port", "0",
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    m = await _lines_until(proc, r"Lobby server on 127\.0\.0\.1:(\d+)", seen)
    return proc, int(m.group(1))


async def test_the_server_runs_serves_and_stops_with_its_tables_saved(tmp_path) -> None:
    seen: list[str] = []
    proc, port = await _start(tmp_path, seen)
    try:
        fp = await _lines_until(proc, r"fingerprint: (SHA256:\S+)", seen)
        await _lines_until(proc, r"Ctrl-C stops it", seen)
        assert any(f"twos-tui join 127.0.0.1:{port}" in line for line in seen)
        known = KnownHosts(tmp_path / "kh")
        lobby = LobbyClient("127.0.0.1", port, Identity.load(tmp_path / "k.pem"), "Alice", known)
        state = await lobby.open()
        assert state.me.name == "Alice" and fp.group(1) in lobby.security
        await lobby.send(CreateTable("big-two", 4, ai_seats=(None, "easy", "easy", "easy")))
        seated = None
        while not isinstance(seated, Seated):
            seated = await lobby.next_event(30)
        await lobby.close()
    finally:
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    rest = (await proc.stderr.read()).decode()
    assert "Stopped. 1 table saved" in rest
    with SqliteStore(tmp_path / "home" / "lobby.db") as store:
        assert [r.table_id for r in store.tables()] == [seated.table_id]
    seen = []
    proc, port = await _start(tmp_path, seen)
    try:
        await _lines_until(proc, r"Reopened 1 table", seen)
    finally:
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 60) == 0
