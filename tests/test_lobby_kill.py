"""A lobby server killed with SIGKILL mid-match, twenty times (issue 30): each time it
starts again on the same SQLite store, the file is sound, every result recorded before
is still there, the ratings are exactly those the recorded results make, the unfinished
table is reopened, and every move its players were answered for is still played.

Two people (keys of their own) and an AI play rated one-deal matches of Twos through a
real ``twos-tui server`` process; the server is killed after a varying number of
answered moves (a state waited for, never a time), in the middle of deals and once
matches are over, and a new table is made whenever a match has ended."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from lobby_helpers import Player

from twos_tui.play.lobby.model import CreateTable, Seated, SitDown
from twos_tui.play.lobby.store import SqliteStore
from twos_tui.play.net import messages as M

KILLS = 20


class At:
    def __init__(self, port: int) -> None:
        self.port = port


def _start(home: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "twos_tui", "server", "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "TWOS_TUI_HOME": str(home)},
    )
    assert proc.stderr is not None
    for _ in range(50):
        m = re.match(r"Lobby server on 127\.0\.0\.1:(\d+)", proc.stderr.readline())
        if m:
            return proc, int(m.group(1))
    proc.kill()
    raise AssertionError("the server did not start")


def _replayed(tmp: Path, store: SqliteStore, k: int) -> dict[str, tuple[float, float]]:
    """The ratings the recorded results make, in a fresh store."""
    with SqliteStore(tmp / f"replay-{k}.db") as replay:
        for name in ("Ana", "Bo"):
            acct = store.account(name)
            if acct is not None and acct.key:
                replay.claim_name(name, acct.key)
        for outcome in store.matches():
            replay.finish_match(outcome)
        return {
            n: (replay.rating(n, "twos").mu, replay.rating(n, "twos").sigma) for n in ("Ana", "Bo")
        }


async def _move(client) -> tuple[int, int] | None:
    """Play ``client``'s seat once when it is to act (its first legal move that is not a
    pass); the (deal, n) right after that move, or None when the match is over."""
    while True:
        client.changed.clear()
        st = client.state
        if st is not None and st.match_over:
            return None
        if st is not None and st.deal_over:
            await client.request(M.Ready(deal=st.deal))
        elif st is not None and st.decision and client.seat in st.to_act and st.legal:
            legal = list(st.legal)
            action = ([a for a in legal if a.kind != "pass"] or legal)[0]
            reply = await client.request(M.Act(action=action, n=st.n))
            if isinstance(reply, M.Answer):
                # the move answered for (the state seen by now may hold later AI moves,
                # which no player was answered for)
                return (st.deal, st.n + 1)
            continue
        try:
            await asyncio.wait_for(client.changed.wait(), 5.0)
        except TimeoutError:
            continue


@pytest.mark.slow
async def test_kill_9_twenty_times_mid_match_loses_nothing(tmp_path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    rng = random.Random(30)
    db = home / "lobby.db"
    table_id: str | None = None
    answered: tuple[int, int] = (0, 0)  #: the last (deal, n) a move was answered at
    results_seen: list[object] = []
    for k in range(KILLS):
        proc, port = await asyncio.to_thread(_start, home)
        try:
            ana, bo = Player(At(port), tmp_path, "Ana"), Player(At(port), tmp_path, "Bo")
            await ana.open(), await bo.open()
            if table_id is None:
                made = await ana.ask(
                    CreateTable("twos", 3, (("deals_to_win", 1),), ai_seats=(None, None, "easy"))
                )
                sb = await bo.ask(SitDown(made.table_id))
                sa, table_id, answered = made, made.table_id, (0, 0)
            else:  # the reopened table: each is sent back to their seat at login
                sa = await ana.next(Seated, pred=lambda s, t=table_id: s.table_id == t)
                sb = await bo.next(Seated, pred=lambda s, t=table_id: s.table_id == t)
            ca, cb = await ana.join(sa), await bo.join(sb)
            st = ca.state or await asyncio.wait_for(_first_state(ca), 60)
            assert (st.deal, st.n) >= answered, (k, (st.deal, st.n), answered)
            # play a varying number of answered moves, then kill it mid-match
            for _ in range(rng.randint(1, 12)):
                done = await asyncio.wait_for(_either(ca, cb), 120)
                if done is None:  # the match ended: its result goes to the store
                    table_id = None
                    break
                answered = max(answered, done)
        finally:
            proc.send_signal(signal.SIGKILL)
            await asyncio.to_thread(proc.wait)
        with SqliteStore(db) as store:
            assert store.integrity_check() == "ok"
            now = store.matches()
            assert list(now[: len(results_seen)]) == results_seen  # nothing lost
            results_seen = list(now)
            live = {
                n: (store.rating(n, "twos").mu, store.rating(n, "twos").sigma)
                for n in ("Ana", "Bo")
            }
            assert live == _replayed(tmp_path, store, k)
            if table_id is not None and any(o.table_id == table_id for o in now):
                table_id = None  # its match ended (the AI's last move) before the kill
            if table_id is not None:
                assert table_id in [t.table_id for t in store.tables()]  # kept to reopen
    assert results_seen, "no match ended in twenty kills: play longer between them"


async def _first_state(client):
    while client.state is None:
        client.changed.clear()
        await client.changed.wait()
    return client.state


async def _either(ca, cb) -> tuple[int, int] | None:
    """One answered move of whichever of the two is to act (None: the match is over)."""
    a = asyncio.ensure_future(_move(ca))
    b = asyncio.ensure_future(_move(cb))
    done, pending = await asyncio.wait({a, b}, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()
    for t in pending:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await t
    return next(iter(done)).result()
