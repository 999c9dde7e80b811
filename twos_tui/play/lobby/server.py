"""The lobby server (:class:`LobbyServer`): one process, one WebSocket endpoint (TLS by
default, :mod:`..net.tls`) serving both the lobby and its tables.

A connection whose first message is a lobby ``hello`` (:func:`.door.is_lobby_hello`)
talks to the lobby (:mod:`.requests`): it logs in, sees the tables and the leaderboards
(:class:`~.model.LobbyState`, pushed again after every change, at most a few a second)
and asks to create, sit, watch or quick-match; it is answered with the table's code and
the seat's token, and joins the table on the same port exactly as ``twos-tui join``
does (any other first message is a table's: :class:`~..net.server.TableServer`).

The tables are :class:`~.tables.LobbyTable`; the store (:class:`~.store_api.LobbyStore`)
keeps the accounts, the results (a finished match reports its
:class:`~.model.MatchOutcome`) and the tables (each saved, and reopened when the server
starts again). A finished table closes once nobody is at it any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ...engine import VARIANT_IDS
from ..net.server import TableServer
from . import door as D
from . import requests as R
from . import wire as W
from .conn import LobbyConn
from .model import LeaderRow, LobbyState, PlayerInfo, TableInfo
from .quick import Queues
from .store_api import LobbyStore
from .tables import LobbyTable

if TYPE_CHECKING:
    from .shared import Shared

log = logging.getLogger("twos_tui.lobby")

PUSH_EVERY_S = 0.3  #: a lobby's state goes out at most this often to each connection
TICK_S = 0.25  #: quick-match waits and finished tables are looked at this often
DEFAULT_MAX_TABLES = 500
STOP_REASON = "The server is stopping. Your table is saved: come back when it is started again."


class LobbyServer(TableServer):
    """The lobby and its tables on one port. ``store``: accounts, ratings, results and
    tables; ``process``: this process's name in the store's table records ("host:port"
    by default); ``table_kw``: passed to every table made (tests: a short AI pause)."""

    def __init__(
        self,
        store: LobbyStore,
        process: str | None = None,
        max_tables: int = DEFAULT_MAX_TABLES,
        table_kw: Mapping[str, object] | None = None,
        clock: Callable[[], float] = time.monotonic,
        shared: Shared | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.store = store
        #: the other server processes on the same database (None: this one is alone)
        self.shared = shared
        self.process = process
        self.max_tables = max_tables
        self.table_kw: dict[str, object] = dict(table_kw or {})
        self.lobby_tables: dict[str, LobbyTable] = {}
        self.lobby_conns: set[LobbyConn] = set()
        self.queues: Queues[LobbyConn] = Queues(clock)
        #: tests: every lobby message text at send time, with the account it went to
        self.lobby_hook: Callable[[str, str], None] | None = None
        self._stale = True
        self._listing: tuple[tuple[LobbyTable, TableInfo], ...] = ()
        self._boards: tuple[tuple[str, tuple[LeaderRow, ...]], ...] = ()
        self._push_at: asyncio.TimerHandle | None = None
        self._last_push = 0.0
        self._ticker: asyncio.Task[None] | None = None

    # ----- start and stop --------------------------------------------------------------------
    async def start(self, host: str | None = None, port: int | None = None) -> None:
        named = self.process is not None
        if self.process is None:  # the address asked for: the same at the next start
            self.process = (
                f"{self.host if host is None else host}:{self.port if port is None else port}"
            )
        any_port = (self.port if port is None else port) == 0
        await super().start(host, port)
        if self.shared is not None and any_port and not named:
            # processes sharing a database need names of their own: the port it got
            self.process = f"{self.host}:{self.port}"
        self.reopen_tables()
        self._ticker = asyncio.get_running_loop().create_task(self._tick())
        if self.shared is not None:
            await self.shared.start(self)

    def reopen_tables(self) -> None:
        """The tables this process had when it stopped (their saves: the same codes and
        tokens); one whose save is gone is dropped from the store."""
        for rec in self.store.tables(self.process):
            if rec.table_id in self.lobby_tables:
                continue
            try:
                lt = LobbyTable.reopen(rec, **self.table_kw)
            except Exception as e:  # a save gone or damaged: said, and forgotten
                log.warning("lobby: table %s cannot be reopened: %s", rec.table_id, e)
                self.store.drop_table(rec.table_id)
                continue
            self.add_table(lt, save=False)
        self.changed()

    async def close(self, reason: str = STOP_REASON) -> None:
        """Stop: the tables are saved (the next start reopens them), every lobby
        connection is told, then the table server stops."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._ticker
        if self._push_at is not None:
            self._push_at.cancel()
        if self.shared is not None:
            await self.shared.close()
        for lt in self.lobby_tables.values():
            if not lt.reported:
                self.save_table(lt)
        writers = []
        for c in list(self.lobby_conns):
            if not c.closing:
                c.bye(reason)
                writers.append(c.writer)
        if writers:
            await asyncio.wait(writers, timeout=1.0)
        for c in list(self.lobby_conns):
            c.writer.cancel()
        await super().close(reason)
        for lt in self.lobby_tables.values():
            with contextlib.suppress(Exception):
                lt.hosted.session.close()

    # ----- the tables --------------------------------------------------------------------------
    def full(self) -> str | None:
        if len(self.lobby_tables) >= self.max_tables:
            return (
                f"The server has all the tables it may hold ({self.max_tables}): "
                "sit at one of them, or try again later."
            )
        return None

    def add_table(self, lt: LobbyTable, save: bool = True) -> None:
        self.lobby_tables[lt.table_id] = lt
        if self.port:
            lt.hosted.listen = (self.host, self.port)
        self.add(lt.hosted)
        lt.hosted.watchers.append(lambda: self._table_changed(lt))
        if save:
            self.save_table(lt)
        self.changed()
        if lt.game.match_over:
            self._table_changed(lt)

    def save_table(self, lt: LobbyTable) -> None:
        self.store.save_table(lt.record(self.process or ""))

    def _table_changed(self, lt: LobbyTable) -> None:
        """After any change at a table (on the loop): its match may be over."""
        self.changed()
        if lt.game.match_over and not lt.reported:
            lt.reported = True
            outcome = lt.outcome()
            try:
                self.store.finish_match(outcome)
            except Exception:  # the store said no: in the log; the table still ends
                log.exception("lobby: table %s: the result was not recorded", lt.table_id)
            self.store.drop_table(lt.table_id)
            log.info("lobby: table %s is over: %s", lt.table_id, outcome.places)

    def close_table(self, lt: LobbyTable) -> None:
        lt.hosted.close()
        lt.hosted.session.close()
        self.tables.pop(lt.hosted.code, None)
        self.lobby_tables.pop(lt.table_id, None)
        for name in lt.accounts.values():
            found = self.store.account(name)
            if found is not None and found.guest:
                self.guest_gone(name)
        self.changed()

    def _abandoned(self, lt: LobbyTable) -> bool:
        """A table that never started and that nobody has been at for longer than its
        hold (its people gone before the first card): it closes."""
        h = lt.hosted
        if h.started or h.conns:
            lt.idle_since = None
            return False
        now = h.now()
        if lt.idle_since is None:
            lt.idle_since = now
        return now - lt.idle_since > h.hold_s

    def run_queues(self) -> None:
        for game, players, group in self.queues.ready():
            R.seat_group(self, game, players, [w.who for w in group])

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            try:
                self.run_queues()
                for lt in list(self.lobby_tables.values()):
                    if lt.reported and not lt.hosted.conns:
                        self.close_table(lt)
                    elif self._abandoned(lt):
                        log.info("lobby: table %s never started and was left", lt.table_id)
                        self.close_table(lt)
                        self.store.drop_table(lt.table_id)
                if self.queues.queues:
                    self.changed()  # the waits shown go on
            except Exception:  # never expected: said, and the lobby goes on
                log.exception("lobby: tick failed")

    # ----- the lobby's state ---------------------------------------------------------------------
    def changed(self) -> None:
        """Something the lobby shows changed: every lobby connection gets its state
        (coalesced: at most one every :data:`PUSH_EVERY_S`)."""
        self._stale = True
        if self.shared is not None:
            self.shared.changed()
        if self._push_at is not None or self.server is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_push + PUSH_EVERY_S - loop.time())
        self._push_at = loop.call_later(delay, self._push)

    def _push(self) -> None:
        self._push_at = None
        self._last_push = asyncio.get_running_loop().time()
        playing = self.at_tables()
        for c in self.lobby_conns:
            # a player at a table is not looking at the lobby: it gets the lobby again
            # when they leave it (the table's change pushes then). Sending every seated
            # player the whole listing at every change was what limited a busy server
            # (benchmarks/bench_lobby.py: 500 players, see docs/scaling.md)
            if c.account is not None and c.account.name in playing:
                continue
            c.push_state()

    def at_tables(self) -> set[str]:
        """The accounts sitting, connected, at a table of this lobby whose match is under
        way (at one still waiting for people, a player may look at the lobby)."""
        out: set[str] = set()
        for lt in self.lobby_tables.values():
            if lt.reported or lt.hosted.closed or not lt.hosted.started:
                continue
            for seat, name in lt.accounts.items():
                rs = lt.hosted.seats.get(seat)
                if rs is not None and rs.conn is not None:
                    out.add(name)
        return out

    def _refresh(self) -> None:
        if not self._stale:
            return
        self._stale = False
        cache: dict[str, dict[str, float]] = {}

        def rating_of(name: str, game: str) -> float | None:
            if name not in cache:
                cache[name] = {r.game: r.rating for r in self.store.ratings(name)}
            return cache[name].get(game)

        self._listing = tuple(
            (lt, lt.info(rating_of))
            for lt in sorted(self.lobby_tables.values(), key=lambda t: t.created)
            if not lt.hosted.closed
        )
        self._boards = tuple((g, self.store.leaderboard(g)) for g in VARIANT_IDS)

    def state_for(self, conn: LobbyConn) -> LobbyState | None:
        """What ``conn``'s player sees: their own name, ratings and results, the
        public tables (and the ones they sit at), the leaderboards, their
        place in a quick-match queue. Never a card. A finished table is listed to its
        own players only (until it closes)."""
        account = conn.account
        if account is None:
            return None
        self._refresh()
        name = account.name
        me = PlayerInfo(
            name=name,
            guest=account.guest,
            ratings=() if account.guest else self.store.ratings(name),
            recent=() if account.guest else self.store.recent_results(name),
        )
        tables = tuple(
            info
            for lt, info in self._listing
            if lt.seat_of(name) is not None or (lt.public and not lt.reported)
        )
        if self.shared is not None:  # the other processes' public tables
            tables += self.shared.tables()
        return LobbyState(me, tables, self._boards, self.queues.info(conn))

    def listed(self) -> tuple[tuple[str, TableInfo], ...]:
        """This process's tables as every lobby lists them (public, not over):
        (table id, listing)."""
        self._refresh()
        return tuple(
            (lt.table_id, info) for lt, info in self._listing if lt.public and not lt.reported
        )

    # ----- connections -------------------------------------------------------------------------
    async def _handler(self, ws: ServerConnection) -> None:
        try:
            first = await asyncio.wait_for(ws.recv(), self.join_timeout)
        except (TimeoutError, ConnectionClosed):
            with contextlib.suppress(Exception):
                await ws.close(1000, "bye")
            return
        if D.is_lobby_hello(first):
            await self._serve_lobby(ws, first)
        else:
            await self.serve_conn(ws, (first,))

    async def _serve_lobby(self, ws: ServerConnection, first: str | bytes) -> None:
        if len(self.conns) + len(self.lobby_conns) >= self.max_connections:
            await ws.close(1013, "The server is full: try again later.")
            return
        conn = LobbyConn(ws, self)
        self.lobby_conns.add(conn)
        timer = asyncio.get_running_loop().call_later(self.join_timeout, self._login_late, conn)
        try:
            self.lobby_receive(conn, first)
            async for raw in ws:
                if conn.closing:
                    break
                self.lobby_receive(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            timer.cancel()
            self.lobby_conns.discard(conn)
            if self.queues.leave(conn):
                self.changed()
            if conn.account is not None and conn.account.guest:
                self.guest_gone(conn.account.name)
            if not conn.closing:
                conn.writer.cancel()
            else:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.writer, 2.0)

    def _login_late(self, conn: LobbyConn) -> None:
        if conn.account is None and not conn.closing:
            n = f"{self.join_timeout:.0f}"
            conn.bye(f"Log in within {n} second{'' if n == '1' else 's'} of connecting.")

    def guest_gone(self, name: str) -> None:
        """A guest's name is given back once they have left the lobby and sit at no
        table (a guest at a table keeps it until the table closes)."""
        if any(c.name == name for c in self.lobby_conns):
            return
        if any(lt.seat_of(name) is not None for lt in self.lobby_tables.values()):
            return
        self.store.drop_guest(name)

    def lobby_receive(self, conn: LobbyConn, raw: str | bytes) -> bool:
        """One message of a lobby connection: checked, then carried out (True), or
        refused with the reason (False; the connection stays)."""
        if not conn.bucket.take():
            conn.refuse("Too many messages: slow down.")
            return False
        try:
            msg = D.decode_request(raw)
        except W.WireError as e:
            conn.refuse(str(e))
            return False
        R.handle(self, conn, msg)
        return True
