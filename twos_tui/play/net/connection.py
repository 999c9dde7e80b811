"""The connection of a seat at a table hosted on another computer (asyncio).

:class:`TableClient`: hello, join, the host's messages (read into their types at the
door, :func:`~.protocol.decode_server`) kept as that seat's mirror of the table, requests
(typed client messages, :mod:`.messages`) answered by id, and reconnecting with the
seat's token when the connection drops. :class:`TokenStore`: the reconnect tokens kept
between runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import ssl
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypedDict

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ...engine.views import AnyView, LogLine
from ..paths import data_dir
from . import messages as M
from . import protocol as P
from . import tls as T

log = logging.getLogger("twos_tui.net.client")


DEFAULT_PORT = 7417
MAX_FROM_HOST = 8 * 2**20  #: the host's states can be larger than a client's messages
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 4.0)  #: reconnecting after a drop
REQUEST_TIMEOUT_S = 10.0
TOKENS_FILE = "net-tokens.json"
CLIENT_NAME = "twos-tui"


class JoinError(Exception):
    """The table could not be joined; ``str()`` says why, in a player's words."""


# ----- tokens kept between runs ----------------------------------------------------------------
class TokenEntry(TypedDict):
    """One kept reconnect token: the token and when it was kept (Unix time)."""

    token: str
    at: float


class TokenStore:
    """Reconnect tokens per host and code, in the data directory (mode 0600): the same
    ``join`` command rejoins the same seat. The file is ``{KEY: {"token", "at"}}``; an
    entry of another shape (a damaged or hand-edited file) is left out when read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / TOKENS_FILE

    @staticmethod
    def key(host: str, port: int, code: str) -> str:
        from .server import normalize_code

        return f"{host}:{port}/{normalize_code(code)}"

    def _read(self) -> dict[str, TokenEntry]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return _token_entries(data)

    def get(self, key: str) -> str | None:
        entry = self._read().get(key)
        return entry["token"] if entry is not None else None

    def put(self, key: str, token: str | None) -> None:
        data = self._read()
        if token is None:
            data.pop(key, None)
        else:
            data[key] = {"token": token, "at": time.time()}
        if len(data) > 200:  # the oldest go
            keep = sorted(data.items(), key=lambda kv: kv[1]["at"])[-200:]
            data = dict(keep)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)
        except OSError as e:
            log.warning("could not keep the reconnect token: %s", e)


def _token_entries(data: object) -> dict[str, TokenEntry]:
    """The well-formed entries of a tokens file just read (its JSON, unchecked)."""
    out: dict[str, TokenEntry] = {}
    if not isinstance(data, dict):
        return out
    for key, entry in data.items():
        if not isinstance(key, str) or not isinstance(entry, dict):
            continue
        token, at = entry.get("token"), entry.get("at", 0)
        if isinstance(token, str):
            out[key] = {"token": token, "at": float(at) if type(at) in (int, float) else 0.0}
    return out


#: a reply to a request: its answer, its refusal, or (a spectator's ``sit``) a welcome
Reply = M.Answer | M.Error | M.Welcome


# ----- the connection -----------------------------------------------------------------------------
class TableClient:
    """One seat's connection to a host (use it on one asyncio loop)."""

    def __init__(
        self,
        host: str,
        port: int,
        code: str,
        name: str | None = None,
        token: str | None = None,
        on_change: Callable[[], None] | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        timeout: float = REQUEST_TIMEOUT_S,
        version: int = P.PROTOCOL_VERSION,
        role: str = "player",
        known_hosts: T.KnownHosts | None = None,
        cafile: str | None = None,
    ) -> None:
        self.host, self.port, self.code = host, port, code
        self.known_hosts = known_hosts or T.KnownHosts()
        self.cafile = cafile  #: authorities to trust besides the system's (tests)
        #: the connection is encrypted (``wss``); ``None`` before the first join
        self.encrypted: bool | None = None
        self.fingerprint = ""  #: the host's certificate's, when encrypted
        #: the fingerprint pinned by this client's first join (to tell the player)
        self.pinned_now: str | None = None
        #: the certificate was vouched for by an authority (no pin needed)
        self.verified = False
        self.role = role  #: "player", or "watch": a spectator (the public view only)
        self.watching = False  #: this connection watches (no seat, no hand)
        #: chat lines, as log lines (``kind`` "chat"), with where the log was when each
        #: came (``anchor``)
        self.chat: list[LogLine] = []
        self.name = name
        self.token = token
        self.on_change = on_change
        self.retry_delays = retry_delays
        self.timeout = timeout
        self.version = version
        self.ws: ClientConnection | None = None
        self.welcome: M.Welcome | None = None
        self.seat = -1
        #: the host's last state, typed at the door (its log is kept apart: ``log``)
        self.state: M.State | None = None
        #: this seat's log (the entries of every state, from the deal's first)
        self.log: list[LogLine] = []
        self.state_at = 0.0  #: monotonic time the last state came
        self.updates = 0
        self.changed = asyncio.Event()
        self.connected = False
        self.reconnecting = False
        self.lost: str | None = None  #: why the connection is gone for good
        self.last_error: M.Error | None = None
        self.closing = False
        self.raw_hook: Callable[[str], None] | None = None  #: tests: every text received
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._next_id = 0
        self._reader: asyncio.Task[None] | None = None

    @property
    def uri(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'ws' if self.encrypted is False else 'wss'}://{host}:{self.port}/"

    @property
    def view(self) -> AnyView | None:
        """The last state's observation, typed at the door (without the log)."""
        return self.state.observation if self.state is not None else None

    @property
    def table(self) -> M.TableInfo:
        """The table as the welcome told it (the game, the players, the options)."""
        if self.welcome is None:
            raise ConnectionError("The host has not let us in yet.")
        return self.welcome.table

    # ----- joining -----------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect, say hello and join (with the token when there is one); raises
        :class:`JoinError` with the reason."""
        from ...textdoor import TextRefused, checked_text

        try:  # what is sent is text that can be sent (see twos_tui/textdoor.py)
            checked_text(self.code, "the code", 64, identifier=True)
            if self.token is not None:
                checked_text(self.token, "the reconnect token", 128, identifier=True)
            if self.name is not None:
                checked_text(self.name, "your name", 200)
        except TextRefused as e:
            raise JoinError(str(e)) from None
        try:
            ws = await self._connect()
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            raise JoinError(f"Could not reach {self.host}:{self.port} ({_why(e)}).") from None
        try:
            await self._handshake(ws)
        except JoinError:
            await ws.close()
            raise
        except (ConnectionClosed, TimeoutError, P.BadMessage) as e:
            await ws.close()
            raise JoinError(f"The host did not let us in ({_why(e)}).") from None
        self.ws = ws
        self.connected = True
        self.lost = None
        self._reader = asyncio.get_running_loop().create_task(self._read(ws))

    async def connect(self) -> ClientConnection:
        """The connection alone, its certificate checked and pinned as a join's is (the
        lobby's client talks its own messages over it). :class:`JoinError`, or
        ``OSError`` and the like when the host cannot be reached."""
        return await self._connect()

    async def _ws(self, ctx: ssl.SSLContext | None) -> ClientConnection:
        self.encrypted = ctx is not None
        return await ws_connect(
            self.uri,
            ssl=ctx,
            max_size=MAX_FROM_HOST,
            compression=None,
            open_timeout=self.timeout,
            ping_interval=20,
            proxy=None,
            user_agent_header=None,
        )

    async def _connect(self) -> ClientConnection:
        """The connection, encrypted unless the host does not speak TLS and this address
        was never seen encrypted; the certificate checked (:mod:`.tls`) before anything
        is sent. :class:`JoinError` when it is refused."""
        if self.encrypted is False:  # joined in plain before: no TLS since then
            return await self._ws(None)
        pinned = self.known_hosts.get(self.host, self.port)
        if pinned is None or pinned == T.VERIFIED:
            try:
                ws = await self._ws(T.verifying_context(self.cafile))
            except ssl.SSLCertVerificationError:
                pass  # self-signed (or not for this name): pinned below, or refused
            except (ssl.SSLError, ConnectionResetError):
                if pinned is not None:
                    raise JoinError(self._plain_refused()) from None
                self.fingerprint = ""
                return await self._ws(None)  # an older host, or --no-tls: not encrypted
            else:
                self.verified = True
                self.fingerprint = _peer_fingerprint(ws)
                if pinned is None:
                    self.known_hosts.put(self.host, self.port, T.VERIFIED)
                return ws
        try:
            ws = await self._ws(T.pinning_context())
        except (ssl.SSLError, ConnectionResetError):
            if pinned is not None:
                raise JoinError(self._plain_refused()) from None
            raise
        self._check_pin(ws, pinned)  # an authority's before, self-signed now: refused
        return ws

    def _check_pin(self, ws: ClientConnection, pinned: str | None) -> None:
        shown = _peer_fingerprint(ws)
        self.fingerprint = shown
        if pinned is None:
            self.known_hosts.put(self.host, self.port, shown)
            self.pinned_now = shown
            return
        if shown != pinned:  # (never equal to VERIFIED)
            ws.transport.abort()
            raise JoinError(
                T.changed_message(self.host, self.port, pinned, shown, self.known_hosts.path)
            )

    def _plain_refused(self) -> str:
        where = T.address_key(self.host, self.port)
        return (
            f"Not joined: the host at {where} encrypted its table when you joined before, "
            "but now it does not. Ask the host whether they started it with --no-tls; if "
            f"so, forget the old certificate with `twos-tui join {where} --forget` and "
            "join again."
        )

    def security_line(self) -> str:
        """What the player is told of the connection's encryption (after joining)."""
        where = T.address_key(self.host, self.port)
        if not self.encrypted:
            return f"Joined {where}: the host does not encrypt (an older version, or --no-tls)."
        if self.verified:
            return f"Joined {where}: encrypted, with a certificate signed by a known authority."
        if self.pinned_now:
            return (
                f"First join to {where}: pinned the host's certificate {self.pinned_now}. "
                "Check that it is the one the host's screen shows."
            )
        return f"Joined {where}: encrypted, the same certificate as before ({self.fingerprint})."

    async def _handshake(self, ws: ClientConnection) -> None:
        await ws.send(P.encode(M.Hello(v=self.version, id=0, client=CLIENT_NAME)))
        reply = await self._recv(ws)
        if isinstance(reply, M.Error):
            raise JoinError(reply.reason or "The host refused us.")
        watch = self.role == "watch" and not self.token
        named = bool(self.name) and (watch or not self.token)
        join = M.Join(
            id=1,
            code=self.code,
            name=self.name if named else None,
            token=self.token or None,
            role="watch" if watch else "player",
        )
        await ws.send(P.encode(join))
        while True:
            reply = await self._recv(ws)
            if isinstance(reply, M.Error):
                raise JoinError(reply.reason or "The host refused us.")
            if isinstance(reply, M.Bye):
                raise JoinError(reply.reason or "The host said goodbye.")
            if isinstance(reply, M.Welcome):
                break
        self._welcomed(reply)

    def _welcomed(self, reply: M.Welcome) -> None:
        self.welcome = reply
        if reply.role == "watch" or reply.seat is None or reply.token is None:
            self.watching = True
            self.role = "watch"
            self.seat = -1
            self.token = None
        else:
            self.watching = False
            self.role = "player"
            self.seat = reply.seat
            self.token = reply.token
        self.code = reply.code or self.code

    async def _recv(self, ws: ClientConnection) -> M.HostMessage:
        raw = await asyncio.wait_for(ws.recv(), self.timeout)
        if self.raw_hook is not None:
            self.raw_hook(raw if isinstance(raw, str) else "")
        return P.decode_server(raw)

    # ----- the host's messages -----------------------------------------------------------------
    async def _read(self, ws: ClientConnection) -> None:
        bye: str | None = None
        try:
            async for raw in ws:
                if self.raw_hook is not None:
                    self.raw_hook(raw if isinstance(raw, str) else "")
                msg = self.receive(raw)
                if isinstance(msg, M.Bye):
                    bye = msg.reason
        except ConnectionClosed:
            pass
        finally:
            self.connected = False
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("Not connected to the host."))
            self._pending.clear()
        if self.closing:
            return
        if bye is not None:
            self.lost = bye or "The host closed the table."
            self._notify()
            return
        await self._reconnect()

    def receive(self, raw: str | bytes) -> M.HostMessage | None:
        """One message of the host, read at the door and handled; a message this version
        cannot read is set aside with the reason in the log (a state: the last good one
        stays on screen), and ``None`` returned."""
        try:
            msg = P.decode_server(raw)
        except P.BadMessage as e:
            log.warning("%s", e)
            return None
        self._handle(msg)
        return msg

    def _handle(self, msg: M.HostMessage) -> None:
        if isinstance(msg, M.State):
            if msg.seat is None and not self.watching:
                # the host sends a seat's own state only to that seat: a public state
                # means the host has this connection watching (its answer to ``watch``
                # may come later than the request waited for)
                self._now_watching()
            entries = list(msg.log)
            self.log = entries if msg.log_from == 0 else self.log[: msg.log_from] + entries
            self.state = msg
            self.state_at = time.monotonic()
            self._notify()
            return
        if isinstance(msg, M.ChatLine):
            self._chat(msg)
            return
        if isinstance(msg, M.Welcome):  # a spectator took a seat (``sit``)
            self._welcomed(msg)
        if isinstance(msg, M.Answer | M.Error | M.Welcome):
            rid = msg.id
            if isinstance(rid, int) and rid in self._pending:
                fut = self._pending.pop(rid)
                if not fut.done():
                    fut.set_result(msg)
                return
        if isinstance(msg, M.Error):
            self.last_error = msg

    def _chat(self, msg: M.ChatLine) -> None:
        name = P.clean_chat(msg.name)[:40] or "Someone"
        text = P.clean_chat(msg.text)
        if not text:
            return
        self.chat.append(msg.log_line(len(self.log), name, text))
        del self.chat[: -P.CHAT_KEPT]
        self._notify()

    def log_with_chat(self) -> list[LogLine]:
        """The log with this deal's chat lines where they came."""
        from ..seat_view import log_lines, with_chat

        deal = self.state.deal if self.state is not None else None
        return list(log_lines(with_chat(self.log, self.chat, deal)))

    async def send_chat(self, text: str) -> str | None:
        """Say a line at the table; the host's reason when it refuses, else ``None``."""
        reply = await self.request(M.Chat(text=text))
        return reply.reason if isinstance(reply, M.Error) else None

    async def leave_seat(self) -> str | None:
        """Leave the seat to watch (the seat is held as after a drop); the reason when
        refused. From then on this connection gets the public view only, and a dropped
        connection comes back as a spectator (the token is forgotten here)."""
        reply = await self.request(M.Watch())
        if isinstance(reply, M.Error):
            return reply.reason
        self._now_watching()
        self._notify()
        return None

    def _now_watching(self) -> None:
        """This connection has left its seat: the public view only from now on, and a
        dropped connection comes back as a spectator (the seat's token is forgotten)."""
        self.watching = True
        self.role = "watch"
        self.seat = -1
        self.token = None

    async def sit(self) -> str | None:
        """A spectator takes a free seat; the reason when refused."""
        reply = await self.request(M.Sit(name=self.name))
        if isinstance(reply, M.Error):
            return reply.reason
        # the seat's own state follows the welcome at once: wait for it, so that a screen
        # that shows the seat next has its view (it asked for a hand not yet sent, and
        # the app stopped on NotVisible)
        await self._until(lambda: self.state is not None and self.state.seat == self.seat)
        return None

    async def _until(self, cond: Callable[[], bool]) -> bool:
        """Wait (at most :attr:`timeout` seconds) for the host's news to make ``cond``
        hold; whether it does."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            self.changed.clear()
            if cond():
                return True
            left = deadline - loop.time()
            if left <= 0 or not self.connected:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    def _notify(self) -> None:
        self.updates += 1
        self.changed.set()
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("on_change failed")

    async def _reconnect(self) -> None:
        self.reconnecting = True
        self._notify()
        try:
            for delay in self.retry_delays:
                await asyncio.sleep(delay)
                if self.closing:
                    return
                try:
                    await self.open()
                    log.info("reconnected to seat %d", self.seat)
                    return
                except JoinError as e:
                    self.lost = str(e)
            self.lost = self.lost or "Lost the connection to the host."
        finally:
            self.reconnecting = False
            self._notify()

    # ----- requests ----------------------------------------------------------------------------
    async def request(self, msg: M.ClientMessage, timeout: float | None = None) -> Reply:
        """Send ``msg`` (with a request id of its own) and wait for its ``answer`` or
        ``error``."""
        ws = self.ws
        if ws is None or not self.connected:
            raise ConnectionError("Not connected to the host.")
        self._next_id += 1
        rid = 1000 + self._next_id
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        try:
            text = P.encode(replace(msg, id=rid))
        except P.Unsendable:  # a broken character (a lone surrogate): never sent
            reason = "That holds a broken character (not valid text), so it was not sent."
            return P.error(P.E_BAD, reason, rid)
        self._pending[rid] = fut
        try:
            await ws.send(text)
        except ConnectionClosed:
            self._pending.pop(rid, None)
            raise ConnectionError("Not connected to the host.") from None
        try:
            return await asyncio.wait_for(fut, timeout or self.timeout)
        finally:
            self._pending.pop(rid, None)

    async def send_raw(self, text: str) -> None:
        """Tests: any text to the host."""
        assert self.ws is not None
        await self.ws.send(text)

    async def close(self) -> None:
        self.closing = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.send(P.encode(M.Leave()))
            await ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2.0)

    async def drop(self) -> None:
        """Tests: lose the connection as a network would (the client reconnects)."""
        ws = self.ws
        if ws is not None:
            ws.transport.abort()


def _peer_fingerprint(ws: ClientConnection) -> str:
    obj = ws.transport.get_extra_info("ssl_object")
    der = obj.getpeercert(binary_form=True) if obj is not None else None
    if not der:
        ws.transport.abort()
        raise JoinError("The host showed no certificate.")
    return T.fingerprint(der)


def _why(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text[:120]
