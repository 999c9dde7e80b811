"""The host's side: the WebSocket server that hosts tables by their join code
(:class:`TableServer`), and where the parts of a hosted table are imported from.

Everything runs on one asyncio loop: the connections' handlers, the broadcasts, the AI
seats the server plays (their thinking on a thread, :func:`asyncio.to_thread`) and, at
a host's own screen, the Textual app. A client's message is checked and typed at the
door (:func:`~.protocol.decode_client`), carried out by its handler (:mod:`~.dispatch`)
and applied to the table (:class:`~.table.HostedTable`); each connection (:class:`~.conn.Conn`)
then gets a ``state`` made from its own seat's observation only, so no other seat's
hidden card is ever in what it receives.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from . import messages as M
from . import protocol as P
from .conn import Conn
from .dispatch import dispatch
from .seats import CODE_ALPHABET, JoinRefused, RemoteSeat, new_code, normalize_code
from .table import DEFAULT_AI_PAUSE_S, HostedTable
from .table_base import DEFAULT_HOLD_S, SIDECAR_DIR, sidecar_path

if TYPE_CHECKING:
    from .ssh_door import SshDoor
    from .tls import HostCert

__all__ = [
    "CODE_ALPHABET",
    "DEFAULT_AI_PAUSE_S",
    "DEFAULT_HOLD_S",
    "SIDECAR_DIR",
    "STOP_REASON",
    "Conn",
    "HostedTable",
    "JoinRefused",
    "RemoteSeat",
    "TableServer",
    "new_code",
    "normalize_code",
    "sidecar_path",
]

log = logging.getLogger("twos_tui.net")

STOP_REASON = (
    "The host stopped the table. It is saved: join again with the same command once the "
    "host has started it again."
)


class TableServer:
    """A WebSocket server hosting tables by join code: ``wss`` with ``cert`` (see
    :mod:`.tls`), else plain ``ws``.

    ``send_hook(table, seat, text)`` (tests) sees every message text at send time."""

    def __init__(
        self,
        rate: float = P.RATE_PER_S,
        burst: float = P.RATE_BURST,
        ping_interval: float | None = 20.0,
        max_bad: int = P.MAX_BAD_MESSAGES,
        host: str = "127.0.0.1",
        port: int = 0,
        max_connections: int = P.MAX_CONNECTIONS,
        join_timeout: float = P.JOIN_TIMEOUT_S,
        chat_rate: float = P.CHAT_RATE_PER_S,
        chat_burst: float = P.CHAT_BURST,
        cert: HostCert | None = None,
    ) -> None:
        #: the certificate served (``None``: plain WebSocket, not encrypted)
        self.cert = cert
        self.tables: dict[str, HostedTable] = {}
        self.chat_rate = chat_rate
        self.chat_burst = chat_burst
        #: other doors to the same tables (the SSH door): started after the WebSocket
        #: server listens, closed before it stops
        self.doors: list[SshDoor] = []
        self.max_connections = max_connections
        self.join_timeout = join_timeout
        self.max_bad = max_bad
        self.rate = rate
        self.burst = burst
        self.ping_interval = ping_interval
        self.server: Server | None = None
        self.host = host  #: the address it binds (127.0.0.1 unless told otherwise)
        self.port = port  #: the port asked for; after start(), the port bound
        self.send_hook: Callable[[HostedTable | None, int | None, str], None] | None = None
        #: benchmarks: seconds from a move's arrival to its answer on the socket (the
        #: new states of the table go out before the answer); ``None``: not timed
        self.timings: list[float] | None = None
        self._started: dict[int, float] = {}
        self._arrived = 0.0
        self.conns: set[Conn] = set()

    def add(self, table: HostedTable) -> HostedTable:
        self.tables[table.code] = table
        if self.server is not None:
            table.attach(asyncio.get_running_loop())
        return table

    async def start(self, host: str | None = None, port: int | None = None) -> None:
        """Listen (``port`` 0: any free port; :attr:`port` says which). Raises
        ``OSError`` when the address cannot be bound."""
        host = self.host if host is None else host
        port = self.port if port is None else port
        self.server = await serve(
            self._handler,
            host,
            port,
            max_size=P.MAX_MESSAGE_BYTES,
            compression=None,
            ping_interval=self.ping_interval,
            max_queue=4,
            ssl=self.cert.context() if self.cert is not None else None,
            logger=logging.getLogger("twos_tui.net.ws"),
        )
        sock = next(iter(self.server.sockets))
        self.host = host
        self.port = sock.getsockname()[1]
        loop = asyncio.get_running_loop()
        for t in self.tables.values():
            t.listen = (host, self.port)
            t.write_sidecar()
            t.attach(loop)
        try:
            for door in self.doors:
                await door.start(self)
        except BaseException:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
            raise

    async def close(self, reason: str = STOP_REASON) -> None:
        """Stop: every player is told (``bye``: their client does not keep retrying),
        then the connections close."""
        for door in self.doors:
            with contextlib.suppress(Exception):
                await door.close()
        writers = []
        for c in list(self.conns):
            if not c.closing:
                c.bye(reason)
                writers.append(c.writer)
        if writers:
            await asyncio.wait(writers, timeout=1.0)
        for t in self.tables.values():
            t.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for c in list(self.conns):
            c.writer.cancel()

    def table_for(self, code: str) -> HostedTable | None:
        key = normalize_code(code)
        found = None
        for c, t in self.tables.items():
            if hmac.compare_digest(c.encode(), key.encode("utf-8", "surrogatepass")):
                found = t
        return found

    # ----- a connection's messages -----------------------------------------------------------
    async def _handler(self, ws: ServerConnection) -> None:
        await self.serve_conn(ws)

    async def serve_conn(self, ws: ServerConnection, first: tuple[str | bytes, ...] = ()) -> None:
        """Serve one table connection to its end; ``first``: messages already read from
        it (the lobby server reads a connection's first message to tell a lobby's from
        a table's)."""
        if len(self.conns) >= self.max_connections:
            await ws.close(1013, "The host is full: try again later.")
            return
        conn = Conn(ws, self)
        self.conns.add(conn)
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.join_timeout, self._join_late, conn)
        try:
            closing_at = 0.0
            for raw in first:
                self.receive(conn, raw)
            async for raw in ws:
                if conn.closing:
                    # read on (and ignore) what is still coming, so the client's answer
                    # to our close is seen at once after a flood; a few seconds at most
                    closing_at = closing_at or time.monotonic()
                    if time.monotonic() - closing_at > 3.0:
                        break
                    continue
                self.receive(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            timer.cancel()
            self.conns.discard(conn)
            if conn.table is not None:
                conn.table.disconnect(conn)
            if not conn.closing:
                conn.writer.cancel()
            else:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.writer, 2.0)

    def _join_late(self, conn: Conn) -> None:
        if conn.table is None and not conn.closing:
            conn.bye(f"Join a table within {self.join_timeout:.0f} seconds of connecting.")

    def receive(self, conn: Conn, raw: str | bytes) -> bool:
        """One message of ``conn``: checked, then carried out (True), or refused with an
        ``error`` and nothing changed (False)."""
        self._arrived = time.perf_counter()
        if not conn.bucket.take():
            conn.refuse(P.E_TOO_FAST, "Too many messages: slow down.", P.peek_id(raw))
            return False
        try:
            dispatch(self, conn, P.decode_client(raw))
        except P.BadMessage as e:
            conn.refuse(e.code, str(e), e.req)
            return False
        if conn.bad:
            conn.bad -= 1  # garbage is what keeps coming: a good message counts too
        return True

    def note_answer(self, answer: M.Answer) -> None:
        """Benchmarks (:attr:`timings`): time ``answer`` from its move's arrival to the
        socket."""
        if self.timings is not None:
            self._started[id(answer)] = self._arrived
