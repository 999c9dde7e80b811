"""One client connection of the host (:class:`Conn`): its seat once joined, its rate
buckets, its count of refused messages, and its outbox (a writer task sends in order;
states coalesce)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .. import saves
from . import messages as M
from . import protocol as P

if TYPE_CHECKING:
    from .server import TableServer
    from .table import HostedTable

log = logging.getLogger("twos_tui.net")


class _StateDue:
    """In an outbox: the connection's state is due (made when it is sent: the latest)."""


_STATE = _StateDue()


class Conn:
    """One client connection: its seat once joined, its rate bucket, its count of
    refused messages, and its outbox (a writer task sends in order; states coalesce)."""

    def __init__(self, ws: ServerConnection, server: TableServer) -> None:
        self.ws = ws
        self.server = server
        self.table: HostedTable | None = None
        self.seat: int | None = None
        self.watching = False  #: a spectator: the public view only, never a hand
        self.name = ""  #: a spectator's name (for chat)
        self.chat_bucket = P.TokenBucket(server.chat_rate, server.chat_burst)
        self.hello = False
        self.bad = 0
        self.bucket = P.TokenBucket(server.rate, server.burst)
        self.outbox: deque[M.ServerMessage | _StateDue] = deque()
        self.wake = asyncio.Event()
        self.cursor = (-1, 0, 0)  #: what of the log this connection was sent
        self.closing = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def push_state(self) -> None:
        if (self.seat is not None or self.watching) and _STATE not in self.outbox:
            self.outbox.append(_STATE)
            self.wake.set()

    def send(self, msg: M.ServerMessage) -> None:
        self.outbox.append(msg)
        self.wake.set()

    def bye(self, reason: str) -> None:
        self.send(M.Bye(reason=reason))
        self.closing = True
        self.wake.set()

    def refuse(self, code: str, reason: str, req: M.RequestId = None) -> None:
        self.bad += 1
        self.send(M.Error(code=code, reason=reason, id=req))
        if self.bad >= self.server.max_bad:
            self.bye("Too many refused messages.")

    async def _write(self) -> None:
        ws = self.ws
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                table = self.table
                if table is not None and table.session.autosave:
                    # what a player is told is on the host's disk first: a host killed
                    # right after a move reopens with that move
                    await asyncio.to_thread(saves.WRITER.flush)
                while self.outbox:
                    item = self.outbox.popleft()
                    seat, table = self.seat, self.table
                    msg: M.ServerMessage
                    if isinstance(item, _StateDue):
                        if table is None:
                            continue
                        if self.watching:
                            msg, self.cursor = table.public_state(self.cursor)
                        elif seat is None:
                            continue
                        else:
                            msg, self.cursor = table.state_for(seat, self.cursor)
                    else:
                        msg = item
                    try:
                        text = P.encode(msg)
                    except P.Unsendable as e:
                        # never expected (text is checked at the door): this connection
                        # goes, with one line in the log; no other is touched
                        log.warning("closing a connection: %s", e)
                        await ws.close(1011, "server error")
                        return
                    hook = self.server.send_hook
                    if hook is not None:
                        hook(table, seat, text)
                    await ws.send(text)
                    started = self.server._started.pop(id(msg), None)
                    if started is not None and self.server.timings is not None:
                        self.server.timings.append(time.perf_counter() - started)
                if self.closing:
                    await ws.close(1000, "bye")
                    return
        except ConnectionClosed:
            return
        except asyncio.CancelledError:
            raise
        except Exception:  # never expected: the connection goes, the server stays
            log.exception("writer failed")
            with contextlib.suppress(Exception):
                await ws.close(1011, "server error")
