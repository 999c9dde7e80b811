"""The host killed (kill -9) mid-deal and started again with the same command: the
table reopens from its save with the same code and tokens, the players' clients
rejoin by themselves, nothing is lost, and play goes on. Also: the headless host's
command line (what it says, Ctrl-C / SIGTERM stopping it cleanly)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from net_helpers import until

from twos_tui.play.net import messages as M
from twos_tui.play.net.client import TableClient, play_bot

ROOT = Path(__file__).resolve().parents[1]


def start_host(home: Path, *args: str) -> tuple[subprocess.Popen[str], int, str, list[str]]:
    env = dict(os.environ, TWOS_TUI_HOME=str(home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "twos_tui", "host", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    lines: list[str] = []
    for _ in range(50):
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith(("Plain WebSocket", "Friends see this fingerprint")):
            break  # the last line of what the host announces
    text = "\n".join(lines)
    rest: list[str] = []
    proc.rest = rest  # type: ignore[attr-defined]
    # the rest of its log is read as it comes (a full pipe would stop the host)
    threading.Thread(target=lambda: rest.extend(proc.stderr), daemon=True).start()
    m = re.search(r"Hosting .* on 127\.0\.0\.1:(\d+)", text)
    code = re.search(r"Join code: (\S+)", text)
    assert m and code, text
    return proc, int(m.group(1)), code.group(1), lines


def view(c: TableClient) -> tuple:
    st = c.state
    assert st is not None
    return (st.n, st.deal, st.observation, st.legal, tuple(st.to_act))


@pytest.mark.slow
async def test_host_killed_mid_deal_restarts_and_players_rejoin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the players' own data folder: the host's certificate is pinned there
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "players"))
    args = ["twos", "--headless", "--seats", "remote,remote,remote", "--pause", "0",
            "--seed", "3", "--option", "deals_to_win=1"]  # fmt: skip
    proc, port, code, lines = await asyncio.to_thread(start_host, tmp_path, *args, "--port", "0")
    assert "Only this computer can join (use --bind 0.0.0.0 for your network)." in lines
    assert f"Friends join with: twos-tui join 127.0.0.1:{port} {code}" in lines
    pinned = [line for line in lines if "Certificate fingerprint: SHA256:" in line]
    assert len(pinned) == 1
    delays = (0.3, 0.5, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0)
    clients = []
    try:
        for name in ("Ana", "Bram", "Cleo"):
            c = TableClient("127.0.0.1", port, code, name, retry_delays=delays)
            await c.open()
            clients.append(c)
        # a few moves, by hand: the deal is under way
        moves = 0
        while moves < 7:

            def asked() -> list[TableClient]:
                acting = [c for c in clients if c.state and c.seat in c.state.to_act]
                return acting if acting and acting[0].state.decision else []

            c = (await until(asked, "a client asked to move"))[0]
            reply = await c.request(M.Act(action=c.state.legal[0]))
            assert isinstance(reply, M.Answer), reply
            moves += 1
        await until(  # every client has the last state
            lambda: all(c.state and c.state.n == moves for c in clients),
            "every client to have the last state",
        )
        before = {c.seat: view(c) for c in clients}
        logs = {c.seat: list(c.log) for c in clients}
        tokens = {c.seat: c.token for c in clients}
        assert not clients[0].state.deal_over

        proc.kill()  # kill -9
        proc.wait(10)
        await until(lambda: not any(c.connected for c in clients), "every client to be cut off")

        # the same command again (on the port the friends know)
        proc, port2, code2, lines = await asyncio.to_thread(
            start_host, tmp_path, *args, "--port", str(port)
        )
        assert (port2, code2) == (port, code)
        assert any(line.startswith("Reopening your unfinished table") for line in lines)
        assert pinned[0] in lines  # the same certificate: the clients' pins hold
        await until(  # the clients come back by themselves, with their tokens
            lambda: all(c.connected and c.state and c.state.n == moves for c in clients),
            "every client back with the last state",
            timeout=90,
        )
        for c in clients:
            assert c.connected and c.lost is None
            assert c.token == tokens[c.seat]
            assert view(c) == before[c.seat]  # nothing lost
            assert c.log == logs[c.seat]
        # and the match goes on to its end
        finals = await asyncio.wait_for(asyncio.gather(*(play_bot(c, "easy") for c in clients)), 60)
        assert all(st.match_over for st in finals)
        for c in clients:
            await c.close()
        # the host leaves by itself once the match is over and everybody has left
        rc = await asyncio.to_thread(proc.wait, 20)
        assert rc == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_sigterm_stops_a_headless_host_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "players"))
    proc, port, code, lines = await asyncio.to_thread(
        start_host, tmp_path, "big-two", "--headless", "--port", "0", "--hold", "30"
    )
    try:
        assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
        c = TableClient("127.0.0.1", port, code, "Ana", retry_delays=())
        await c.open()
        assert c.table.hold_s == 30
        proc.send_signal(signal.SIGTERM)
        rc = await asyncio.to_thread(proc.wait, 20)
        await asyncio.sleep(0.2)
        rest = "".join(proc.rest)  # type: ignore[attr-defined]
        assert rc == 0
        assert "Stopped. The table is saved: the same command reopens it." in rest
        assert "Traceback" not in rest
        await c.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the sidecar of the table keeps the code and the tokens, for its owner only
    side = list((tmp_path / "hosted").glob("*.json"))
    assert len(side) == 1 and side[0].stat().st_mode & 0o777 == 0o600
    assert code in side[0].read_text()


@pytest.mark.slow
async def test_join_bot_plays_a_match_against_a_headless_host(tmp_path: Path) -> None:
    proc, port, code, _ = await asyncio.to_thread(
        start_host, tmp_path, "twos", "--headless", "--port", "0", "--seats", "remote,ai,ai",
        "--pause", "0", "--option", "deals_to_win=1", "--level", "easy",
    )  # fmt: skip
    try:
        env = dict(os.environ, TWOS_TUI_HOME=str(tmp_path / "friend"))
        bot = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "twos_tui", "join", f"127.0.0.1:{port}", code.lower(),
             "--bot", "easy", "--name", "Robo"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert bot.returncode == 0, bot.stderr
        lines = bot.stdout.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Match over (Robo played seat 1): Robo ")
        assert (tmp_path / "friend" / "net-tokens.json").stat().st_mode & 0o777 == 0o600
        assert await asyncio.to_thread(proc.wait, 20) == 0  # the match is over, all left
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
