"""Several lobby server processes on one PostgreSQL database (``twos-tui server --db
postgresql://...``): one lobby, with each table in one process.

Each process (:class:`Shared`, beside its :class:`~.server.LobbyServer`):

* **says it is alive** every :data:`HEARTBEAT_S` with the address players are sent to
  (``lobby_processes``; one not heard from for ``store_pg.ALIVE_S`` is taken for gone and
  its tables are no longer listed elsewhere);
* **publishes** what its lobby lists of its own: its public tables (the same JSON as in a
  ``lobby`` message, written only when a table's listing changed) and how many people
  wait in each of its quick-match queues, in one transaction that ends with a ``NOTIFY``;
* **listens** (``LISTEN``, on a connection of its own) and, told that another process
  changed something, reads the others' listings and queues again and pushes its lobby's
  state: so every lobby shows every process's tables;
* **sends players on**: a ``sit`` or ``watch`` for a table another process holds is
  answered with a ``redirect`` to that process's address (the client reconnects there,
  logs in with the same key and asks again); a ``quick`` match whose queue is empty here
  but has people waiting in another process is sent there, so people quick-matching in
  different processes meet.

Why LISTEN/NOTIFY rather than polling a table: a change reaches the other lobbies in
milliseconds, and an idle server does no work; the notice carries only the sender's name
(the data is read from the tables, so a notice lost while a listener reconnects costs
nothing but the delay until the next one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING

from .model import TableInfo
from .store_pg import CHANNEL, PostgresStore
from .wire import table_json, table_of

if TYPE_CHECKING:
    from .server import LobbyServer

log = logging.getLogger("twos_tui.lobby")

HEARTBEAT_S = 5.0  #: how often a process says it is alive
PUBLISH_AFTER_S = 0.1  #: changes within this long go out together
RELISTEN_S = 1.0  #: after the listening connection failed, try again after this long


class Shared:
    """This process's part in a database shared with other lobby server processes (see
    the module text). ``address``: where players are sent to reach this process
    (``host:port``; None: the address the server listens on, once it does)."""

    def __init__(self, store: PostgresStore, address: str | None = None) -> None:
        self.store = store
        self.address: str | None = address
        self.process = ""
        self.server: LobbyServer | None = None
        #: the other processes' public tables: (address, listing), as last read
        self.remote: tuple[tuple[str, TableInfo], ...] = ()
        #: the other processes' queues with people waiting: (address, game, players, n)
        self.remote_queues: tuple[tuple[str, str, int, int], ...] = ()
        self._published: dict[str, str] = {}  #: table id -> the listing last written
        self._queues_published: tuple[tuple[str, int, int], ...] = ()
        self._publish_at: asyncio.TimerHandle | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()  #: set once the listener hears (tests wait on it)

    # ----- life ------------------------------------------------------------------------
    async def start(self, server: LobbyServer) -> None:
        self.server = server
        if self.address is None:
            self.address = f"{server.host}:{server.port}"
        self.process = server.process or self.address
        self.store.heartbeat(self.process, self.address)
        self.reload()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._beat())]
        self.publish()
        await asyncio.wait_for(self.listening.wait(), 30)

    async def close(self) -> None:
        if self._publish_at is not None:
            self._publish_at.cancel()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        with contextlib.suppress(Exception):
            self.store.leave(self.process)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                self.store.heartbeat(self.process, self.address or self.process)
            except Exception:  # the database away for a moment: said, tried again
                log.exception("lobby: the heartbeat could not be written")

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.store.dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    # a notice may have been missed while (re)connecting: read once
                    self._heard()
                    async for note in conn.notifies():
                        if note.payload != self.process:
                            self._heard()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database restarted or the link dropped
                log.exception("lobby: listening to the other processes failed; again soon")
                await asyncio.sleep(RELISTEN_S)

    def _heard(self) -> None:
        try:
            self.reload()
        except Exception:
            log.exception("lobby: the other processes' tables could not be read")
            return
        if self.server is not None:
            self.server.changed()

    # ----- what the others list ----------------------------------------------------------
    def reload(self) -> None:
        tables, queues = self.store.elsewhere(self.process)
        remote = []
        for address, listing in tables:
            try:
                remote.append((address, table_of(json.loads(listing))))
            except (ValueError, KeyError, TypeError):  # another version's listing: skipped
                continue
        self.remote = tuple(remote)
        self.remote_queues = queues

    def tables(self) -> tuple[TableInfo, ...]:
        return tuple(info for _, info in self.remote)

    def where(self, table_id: str) -> str | None:
        """The address of the process holding ``table_id``, when another one does."""
        for address, info in self.remote:
            if info.table_id == table_id:
                return address
        return None

    def queue_elsewhere(self, game: str, players: int, waiting_here: bool) -> str | None:
        """Where a quick match of ``game`` for ``players`` asked here should go instead:
        people waiting for it gather in the process with the lowest address among those
        where someone waits (this one included when ``waiting_here``). Every process
        reads the same order, so players sent on do not bounce between two processes
        (as "the one with the most waiting" did under load). ``None``: here."""
        there = sorted(a for a, g, p, n in self.remote_queues if g == game and p == players)
        if not there:
            return None
        if waiting_here and self.address is not None and self.address < there[0]:
            return None
        return there[0]

    # ----- what this process lists -------------------------------------------------------
    def changed(self) -> None:
        """Something here changed: publish soon (changes close together go at once)."""
        if self._publish_at is not None or self.server is None:
            return
        loop = asyncio.get_running_loop()
        self._publish_at = loop.call_later(PUBLISH_AFTER_S, self._publish_soon)

    def _publish_soon(self) -> None:
        self._publish_at = None
        try:
            self.publish()
        except Exception:  # the database away for a moment: the next change tries again
            log.exception("lobby: this process's tables could not be published")
            self._published.clear()

    def publish(self) -> None:
        server = self.server
        assert server is not None
        now = {t: json.dumps(table_json(i), ensure_ascii=False) for t, i in server.listed()}
        old = self._published
        changed: dict[str, str | None] = {t: j for t, j in now.items() if old.get(t) != j}
        for gone in self._published.keys() - now.keys():
            changed[gone] = None
        queues = tuple(sorted((g, p, len(w)) for (g, p), w in server.queues.queues.items() if w))
        if not changed and queues == self._queues_published:
            return
        self.store.publish(self.process, changed, queues)
        self._published = now
        self._queues_published = queues
