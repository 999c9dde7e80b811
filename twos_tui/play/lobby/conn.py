"""One lobby connection of the server (:class:`LobbyConn`): who it is once logged in,
its challenge, its rate bucket and count of refused messages, and its outbox (a writer
task sends in order; the lobby's state coalesces: the latest is made when it is sent)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..net import protocol as P
from . import wire as W
from .identity import new_nonce
from .model import Account, Refused

if TYPE_CHECKING:
    from .server import LobbyServer

log = logging.getLogger("twos_tui.lobby")


class _StateDue:
    """In an outbox: the connection's lobby state is due."""


_STATE = _StateDue()


class LobbyConn:
    def __init__(self, ws: ServerConnection, server: LobbyServer) -> None:
        self.ws = ws
        self.server = server
        self.account: Account | None = None  #: who it is, once logged in
        self.hello = False
        self.nonce = new_nonce()  #: what its key signs to log in
        self.bucket = P.TokenBucket(server.rate, server.burst)
        self.bad = 0
        self.outbox: deque[W.ServerWire | _StateDue] = deque()
        self.wake = asyncio.Event()
        self.closing = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def name(self) -> str:
        return self.account.name if self.account is not None else ""

    def send(self, msg: W.ServerWire) -> None:
        self.outbox.append(msg)
        self.wake.set()

    def push_state(self) -> None:
        if self.account is not None and _STATE not in self.outbox:
            self.outbox.append(_STATE)
            self.wake.set()

    def refuse(self, reason: str) -> None:
        """A refused request: the reason goes back, the connection stays (unless it
        keeps sending what is refused)."""
        self.bad += 1
        self.send(Refused(reason))
        if self.bad >= self.server.max_bad:
            self.bye("Too many refused messages.")

    def bye(self, reason: str) -> None:
        """The last message: then the connection closes."""
        self.send(Refused(reason))
        self.closing = True
        self.wake.set()

    async def _write(self) -> None:
        ws = self.ws
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.outbox:
                    item = self.outbox.popleft()
                    msg = self.server.state_for(self) if isinstance(item, _StateDue) else item
                    if msg is None:
                        continue
                    text = W.encode_event(msg)
                    hook = self.server.lobby_hook
                    if hook is not None:
                        hook(self.name, text)
                    await ws.send(text)
                if self.closing:
                    await ws.close(1000, "bye")
                    return
        except ConnectionClosed:
            return
        except asyncio.CancelledError:
            raise
        except Exception:  # never expected: the connection goes, the server stays
            log.exception("lobby writer failed")
            with contextlib.suppress(Exception):
                await ws.close(1011, "server error")
