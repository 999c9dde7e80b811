"""Several lobby servers on one PostgreSQL database (issue 30): one lobby, each table in
one process. A player who quick-matches in process A is sent (``redirect``) to process B
where people wait for the same match, and seated there; both lobbies list the table; a
``watch`` or ``sit`` of another process's table is sent there too; a process that stops
leaves the others' listings.

The first tests run two servers in this test's own process (each a ``LobbyServer`` with
its own store connection and its own listener), the last two real ``twos-tui server``
processes. Skipped, saying why in one line, where PostgreSQL cannot start."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("psycopg", reason="psycopg is not installed: the PostgreSQL tests are skipped")

from lobby_helpers import Player, listing, lobby_server, one_deal  # noqa: E402
from net_helpers import find_leaks, until  # noqa: E402

from twos_tui.play.lobby.model import (  # noqa: E402
    CancelQuickMatch,
    LobbyState,
    QuickMatch,
    Redirect,
    Seated,
    SitDown,
    Watch,
)
from twos_tui.play.lobby.shared import Shared  # noqa: E402
from twos_tui.play.lobby.store_pg import PostgresStore  # noqa: E402


class At:
    """Where a player connects: a server's port (what :class:`Player` reads)."""

    def __init__(self, port: int) -> None:
        self.port = port


async def seen(player: Player, pred: Any) -> LobbyState:
    """The listing ``player`` has now, or the next one, once ``pred`` holds of it: a
    listing that is already right is not sent again."""
    now = player.lobby.state
    if now is not None and pred(now):
        return now
    return await listing(player, pred)


def port_of(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


@contextlib.asynccontextmanager
async def two_servers(tmp_path: Path, dsn: str):
    stores = [PostgresStore(dsn), PostgresStore(dsn)]
    try:
        async with (
            lobby_server(tmp_path, stores[0], process="A", shared=Shared(stores[0])) as a,
            lobby_server(tmp_path, stores[1], process="B", shared=Shared(stores[1])) as b,
        ):
            yield a, b
    finally:
        for s in stores:
            s.close()


async def test_a_quick_match_in_a_is_sent_to_the_people_waiting_in_b(tmp_path, pg_dsn) -> None:
    async with two_servers(tmp_path, pg_dsn) as (a, b):
        bo = Player(b, tmp_path, "Bo")
        await bo.open()
        await bo.lobby.send(QuickMatch("big-two", 4, wait_s=120))
        await listing(bo, lambda s: s.queue is not None and s.queue.waiting == 1)
        # A hears of B's queue
        await until(lambda: a.shared.remote_queues, "A to hear of B's queue")
        ana = Player(a, tmp_path, "Ana")
        await ana.open()
        texts: list[str] = []
        a.lobby_hook = b.lobby_hook = lambda name, text: texts.append(text)
        await ana.lobby.send(QuickMatch("big-two", 4, wait_s=0))
        go = await ana.next(Redirect)
        assert go.address == f"127.0.0.1:{b.port}" and go.table_id == ""
        await ana.close()
        # Ana follows it: the same key, so the same account, in B's lobby
        again = Player(At(port_of(go.address)), tmp_path, "Ana")
        first = await again.open()
        assert first.me.name == "Ana"
        await again.lobby.send(QuickMatch("big-two", 4, wait_s=0, redirected=True))
        sa, sb = await again.next(Seated), await bo.next(Seated)
        assert sa.table_id == sb.table_id and {sa.seat, sb.seat} == {0, 1}
        lt = b.lobby_tables[sa.table_id]
        assert sa.table_id not in a.lobby_tables  # the table lives in B only
        # both lobbies list it: B's own, and A's from the database
        cy = Player(a, tmp_path, "Cy")
        await cy.open()
        seen_in_a = await seen(
            cy, lambda s: any(t.table_id == sa.table_id and t.started for t in s.tables)
        )
        (t,) = [t for t in seen_in_a.tables if t.table_id == sa.table_id]
        assert [s.name for s in t.seats][:2] == ["Bo", "Ana"] or [s.name for s in t.seats][:2] == [
            "Ana",
            "Bo",
        ]
        # a deal played at B through the joined seats
        ca, cb = await again.join(sa), await bo.join(sb)
        game = lt.game
        await asyncio.wait_for(asyncio.gather(one_deal(ca), one_deal(cb)), 120)
        assert game.deal_over or game.deal_number > 1
        # watching it from A: sent to B
        await cy.lobby.send(Watch(sa.table_id))
        there = await cy.next(Redirect)
        assert there.address == go.address and there.table_id == sa.table_id
        await cy.lobby.send(SitDown(sa.table_id))
        assert (await cy.next(Redirect)).table_id == sa.table_id
        # no lobby message of either process ever carried a card of that deal
        assert [leak for text in texts for leak in find_leaks(game, None, text)] == []
        await again.close(), await bo.close(), await cy.close()


async def test_a_table_made_in_b_is_listed_in_a_and_leaves_with_b(tmp_path, pg_dsn) -> None:
    from twos_tui.play.lobby.model import CreateTable

    stores = [PostgresStore(pg_dsn), PostgresStore(pg_dsn)]
    try:
        async with lobby_server(tmp_path, stores[0], process="A", shared=Shared(stores[0])) as a:
            cy = Player(a, tmp_path, "Cy")
            await cy.open()
            async with lobby_server(
                tmp_path, stores[1], process="B", shared=Shared(stores[1])
            ) as b:
                bo = Player(b, tmp_path, "Bo")
                await bo.open()
                made = await bo.ask(CreateTable("twos", 3, ai_seats=(None, None, "easy")))
                state = await listing(
                    cy, lambda s: any(t.table_id == made.table_id for t in s.tables)
                )
                (t,) = [t for t in state.tables if t.table_id == made.table_id]
                assert t.game == "twos" and t.seats[0].name == "Bo" and not t.started
                await bo.close()
            # B stopped: its table leaves A's lobby (it reopens when B starts again)
            await listing(cy, lambda s: all(t.table_id != made.table_id for t in s.tables))
            assert [r.table_id for r in stores[0].tables("B")] == [made.table_id]
            await cy.close()
    finally:
        for s in stores:
            s.close()


# ----- two real server processes -------------------------------------------------------
def _start(dsn: str, home: Path, name: str) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "TWOS_TUI_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "twos_tui", "server", "--db", dsn, "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stderr is not None
    for _ in range(50):
        line = proc.stderr.readline()
        if not line:
            break
        m = re.match(r"Lobby server on 127\.0\.0\.1:(\d+)", line)
        if m:
            return proc, int(m.group(1))
    proc.kill()
    raise AssertionError(f"server {name} did not start: {proc.stderr.read()}")


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


async def test_two_server_processes_share_one_lobby(tmp_path, pg_dsn) -> None:
    """Two ``twos-tui server`` processes on 127.0.0.1 and one database: a quick match
    asked of A is sent to B where a player waits, both are seated at one table in B, a
    deal is played there, and both lobbies list it."""
    home = tmp_path / "home"
    home.mkdir()
    pa, port_a = await asyncio.to_thread(_start, pg_dsn, home, "A")
    pb, port_b = await asyncio.to_thread(_start, pg_dsn, home, "B")
    try:
        bo = Player(At(port_b), tmp_path, "Bo")
        await bo.open()
        await bo.lobby.send(QuickMatch("twos", 3, wait_s=120))
        await listing(bo, lambda s: s.queue is not None)
        ana = Player(At(port_a), tmp_path, "Ana")
        await ana.open()
        go: Any = None
        for _ in range(600):  # until A has heard of B's queue: then it sends Ana on
            await ana.lobby.send(QuickMatch("twos", 3, wait_s=120))
            ev = await ana.next(
                (Redirect, LobbyState),
                pred=lambda e: isinstance(e, Redirect) or e.queue is not None,
            )
            if isinstance(ev, Redirect):
                go = ev
                break
            # A did not know yet and queued her here: out again, and ask once more
            await ana.lobby.send(CancelQuickMatch())
            await listing(ana, lambda s: s.queue is None)
        assert go is not None and go.address == f"127.0.0.1:{port_b}"
        await ana.close()
        again = Player(At(port_b), tmp_path, "Ana")
        await again.open()
        await again.lobby.send(QuickMatch("twos", 3, wait_s=0, redirected=True))
        sa, sb = await again.next(Seated), await bo.next(Seated)
        assert sa.table_id == sb.table_id
        ca, cb = await again.join(sa), await bo.join(sb)
        # A's lobby lists B's table, started; B's lobby too
        cy = Player(At(port_a), tmp_path, "Cy")
        await cy.open()
        await seen(cy, lambda s: any(t.table_id == sa.table_id and t.started for t in s.tables))
        # (Bo, at the table, gets no lobby states meanwhile: someone else in B's lobby)
        dee = Player(At(port_b), tmp_path, "Dee")
        await dee.open()
        await seen(dee, lambda s: any(t.table_id == sa.table_id for t in s.tables))
        await dee.close()
        # a deal played there, through the joined seats
        await asyncio.wait_for(asyncio.gather(one_deal(ca), one_deal(cb)), 180)
        # and still listed in A afterwards, to a player who comes in now
        late = Player(At(port_a), tmp_path, "Eve")
        await late.open()
        await seen(late, lambda s: any(t.table_id == sa.table_id for t in s.tables))
        await late.close()
        await again.close(), await bo.close(), await cy.close()
    finally:
        err_a = await asyncio.to_thread(_stop, pa)
        err_b = await asyncio.to_thread(_stop, pb)
    assert "Stopped." in err_a and "Stopped." in err_b, (err_a, err_b)
