"""The player's side of a lobby (:class:`LobbyClient`, a :class:`~.model.LobbyLink`):
the connection (``wss``, the server's certificate pinned on the first visit and checked
later, exactly as ``twos-tui join`` does: :mod:`..net.tls`), the hello, the login (the
install's key signs the server's challenge: :mod:`.identity`; no key: a guest), then
requests out and events in, typed at the door (:mod:`.wire`).

After a :class:`~.model.Seated`, the player joins the table on the same address as
``twos-tui join`` does: :meth:`LobbyClient.table_client` makes that client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..net import tls as T
from ..net.connection import CLIENT_NAME, JoinError, TableClient
from . import wire as W
from .identity import Identity
from .model import LobbyEvent, LobbyLink, LobbyRequest, LobbyState, Refused, Seated


class LobbyError(Exception):
    """The lobby could not be reached or refused us; ``str()`` says why."""


class LobbyClient:
    """One player's connection to a lobby server (use it on one asyncio loop)."""

    def __init__(
        self,
        host: str,
        port: int,
        identity: Identity | None = None,
        name: str | None = None,
        known_hosts: T.KnownHosts | None = None,
        cafile: str | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.host, self.port = host, port
        self.identity = identity  #: None: a guest
        self.name = name  #: the name asked for at the first visit
        self.known_hosts = known_hosts or T.KnownHosts()
        self.cafile = cafile
        self.timeout = timeout
        self.ws: ClientConnection | None = None
        self.state: LobbyState | None = None  #: the last listing
        self.security = ""  #: what the player is told of the encryption
        self._queue: asyncio.Queue[LobbyEvent | None] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._link = TableClient(host, port, "", known_hosts=self.known_hosts, cafile=cafile)

    async def open(self) -> LobbyState:
        """Connect, say hello, log in; the first listing. :class:`LobbyError` with the
        reason (a changed certificate, a name taken, a ban)."""
        try:
            ws = await self._link.connect()
        except JoinError as e:
            raise LobbyError(str(e)) from None
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            raise LobbyError(f"Could not reach {self.host}:{self.port} ({e}).") from None
        self.security = self._security_line()
        try:
            await ws.send(W.encode_request(W.Hello(client=CLIENT_NAME)))
            first = await self._recv(ws)
            if not isinstance(first, W.Challenge):
                raise LobbyError(_reason(first))
            if self.identity is None:
                login = W.Login(name=self.name)
            else:
                ident = self.identity
                login = W.Login(self.name, ident.public_b64, ident.sign(first.nonce))
            await ws.send(W.encode_request(login))
            while True:
                reply = await self._recv(ws)
                if isinstance(reply, LobbyState):
                    break
                if isinstance(reply, Refused):
                    raise LobbyError(reply.reason)
                if isinstance(reply, Seated):  # a seat to go back to: after the listing
                    self._queue.put_nowait(reply)
        except (ConnectionClosed, TimeoutError, W.WireError) as e:
            await ws.close()
            raise LobbyError(f"The lobby did not let us in ({e or type(e).__name__}).") from None
        except LobbyError:
            await ws.close()
            raise
        self.ws = ws
        self.state = reply
        self._reader = asyncio.get_running_loop().create_task(self._read(ws))
        return reply

    def _security_line(self) -> str:
        """What the player is told of the connection's encryption (as ``join`` says
        it of a table)."""
        link = self._link
        where = T.address_key(self.host, self.port)
        if not link.encrypted:
            return f"Connected to {where}: the server does not encrypt (--no-tls)."
        if link.verified:
            return (
                f"Connected to {where}: encrypted, with a certificate signed by a known authority."
            )
        if link.pinned_now:
            return (
                f"First visit to {where}: pinned the server's certificate {link.pinned_now}. "
                "Check that it is the one the server printed."
            )
        return (
            f"Connected to {where}: encrypted, the same certificate as before ({link.fingerprint})."
        )

    async def _recv(self, ws: ClientConnection) -> W.ServerWire:
        raw = await asyncio.wait_for(ws.recv(), self.timeout)
        return W.decode_event(raw)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                try:
                    msg = W.decode_event(raw)
                except W.WireError as e:
                    msg = Refused(str(e))
                if isinstance(msg, W.Challenge):
                    continue
                if isinstance(msg, LobbyState):
                    self.state = msg
                self._queue.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            self._queue.put_nowait(None)

    # ----- LobbyLink -----------------------------------------------------------------------
    async def send(self, request: LobbyRequest) -> None:
        if self.ws is None:
            raise LobbyError("Not connected to the lobby.")
        try:
            await self.ws.send(W.encode_request(request))
        except ConnectionClosed:
            raise LobbyError("The lobby's connection is closed.") from None

    async def events(self) -> AsyncIterator[LobbyEvent]:
        """The lobby's events as they come, until the connection ends."""
        while True:
            ev = await self._queue.get()
            if ev is None:
                self._queue.put_nowait(None)  # the end stays the end
                return
            yield ev

    async def next_event(self, timeout: float | None = None) -> LobbyEvent | None:
        """The next event (None: the connection ended)."""
        ev = await asyncio.wait_for(self._queue.get(), timeout)
        if ev is None:
            self._queue.put_nowait(None)
        return ev

    async def close(self) -> None:
        ws = self.ws
        if ws is not None:
            await ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2.0)

    def table_client(self, seated: Seated, **kw: object) -> TableClient:
        """The client that joins ``seated``'s table (the same address, pinned the same):
        its seat by token, or watching."""
        token = seated.token or None
        role = "player" if seated.seat is not None else "watch"
        return TableClient(
            self.host,
            self.port,
            seated.code,
            token=token,
            role=role,
            known_hosts=self.known_hosts,
            cafile=self.cafile,
            **kw,  # type: ignore[arg-type]
        )


def _reason(msg: W.ServerWire) -> str:
    if isinstance(msg, Refused):
        return msg.reason
    return "The lobby answered something unexpected."


if TYPE_CHECKING:

    def _a_lobby_link(client: LobbyClient) -> LobbyLink:
        return client  # (mypy: LobbyClient is model.py's LobbyLink)
