"""A seat at a table hosted on another computer.

:class:`TableClient` is the connection (asyncio): hello, join, the host's messages kept
as that seat's mirror of the table, requests answered by id, and reconnecting with the
seat's token when the connection drops. :class:`RemoteSeatView` puts it on a thread of
its own and answers the table screen's synchronous calls (a :class:`SeatView`).
:func:`run_bot` plays a seat with the AI (``twos-tui join ... --bot LEVEL``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ...engine import Action, Decision, IllegalAction
from ...engine.observation import LogEntry
from ...engine.protocol import DealResult
from ...engine.views import AnyView, LogLine, ViewError, view_from_json
from ..paths import data_dir
from ..seat_view import AI, HUMAN, REMOTE, SeatInfo, SeatView, log_lines, rules_game
from . import protocol as P
from .status import waiting_text

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
class TokenStore:
    """Reconnect tokens per host and code, in the data directory (mode 0600): the same
    ``join`` command rejoins the same seat."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / TOKENS_FILE

    @staticmethod
    def key(host: str, port: int, code: str) -> str:
        from .server import normalize_code

        return f"{host}:{port}/{normalize_code(code)}"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> str | None:
        entry = self._read().get(key)
        if isinstance(entry, dict) and isinstance(entry.get("token"), str):
            return str(entry["token"])
        return None

    def put(self, key: str, token: str | None) -> None:
        data = self._read()
        if token is None:
            data.pop(key, None)
        else:
            data[key] = {"token": token, "at": time.time()}
        if len(data) > 200:  # the oldest go
            keep = sorted(data.items(), key=lambda kv: kv[1].get("at", 0))[-200:]
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
    ) -> None:
        self.host, self.port, self.code = host, port, code
        self.role = role  #: "player", or "watch": a spectator (the public view only)
        self.watching = False  #: this connection watches (no seat, no hand)
        #: chat lines, as log entries (``kind`` "chat"), with where the log was when
        #: each came (``anchor``)
        self.chat: list[dict[str, Any]] = []
        self.name = name
        self.token = token
        self.on_change = on_change
        self.retry_delays = retry_delays
        self.timeout = timeout
        self.version = version
        self.ws: ClientConnection | None = None
        self.welcome: dict[str, Any] = {}
        self.seat = -1
        self.state: dict[str, Any] | None = None
        #: the state's observation, typed at the door (without the log: see ``log``)
        self.view: AnyView | None = None
        self.log: list[LogEntry] = []
        self.state_at = 0.0  #: monotonic time the last state came
        self.updates = 0
        self.changed = asyncio.Event()
        self.connected = False
        self.reconnecting = False
        self.lost: str | None = None  #: why the connection is gone for good
        self.last_error: dict[str, Any] | None = None
        self.closing = False
        self.raw_hook: Callable[[str], None] | None = None  #: tests: every text received
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self._reader: asyncio.Task[None] | None = None

    @property
    def uri(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}/"

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
            ws = await ws_connect(
                self.uri,
                max_size=MAX_FROM_HOST,
                compression=None,
                open_timeout=self.timeout,
                ping_interval=20,
                proxy=None,
                user_agent_header=None,
            )
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

    async def _handshake(self, ws: ClientConnection) -> None:
        await ws.send(
            P.encode({"v": self.version, "type": "hello", "client": CLIENT_NAME, "id": 0})
        )
        reply = await self._recv(ws)
        if reply["type"] == "error":
            raise JoinError(str(reply.get("reason", "The host refused us.")))
        role = "watch" if self.role == "watch" and not self.token else "player"
        join: dict[str, Any] = {"type": "join", "code": self.code, "id": 1, "role": role}
        if self.name and (role == "watch" or not self.token):
            join["name"] = self.name
        if self.token:
            join["token"] = self.token
        await ws.send(P.encode(join))
        while True:
            reply = await self._recv(ws)
            if reply["type"] == "error":
                raise JoinError(str(reply.get("reason", "The host refused us.")))
            if reply["type"] == "bye":
                raise JoinError(str(reply.get("reason", "The host said goodbye.")))
            if reply["type"] == "welcome":
                break
        self._welcomed(reply)

    def _welcomed(self, reply: dict[str, Any]) -> None:
        self.welcome = reply
        if reply.get("role") == "watch" or reply.get("seat") is None:
            self.watching = True
            self.role = "watch"
            self.seat = -1
            self.token = None
        else:
            self.watching = False
            self.role = "player"
            self.seat = int(reply["seat"])
            self.token = str(reply["token"])
        self.code = str(reply.get("code", self.code))

    async def _recv(self, ws: ClientConnection) -> dict[str, Any]:
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
                try:
                    msg = P.decode_server(raw)
                except P.BadMessage as e:
                    log.warning("%s", e)
                    continue
                if msg["type"] == "bye":
                    bye = str(msg.get("reason", ""))
                self._handle(msg)
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

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "state":
            try:
                self.view = door_view(msg)
            except ViewError as e:
                # the typed view is made here, at the door: a state whose observation
                # is not one is refused (the last good state stays on screen)
                log.warning("The host sent a state this version cannot read: %s", e)
                return
            start = int(msg.get("log_from", 0))
            entries = list(msg.get("log", []))
            self.log = entries if start == 0 else self.log[:start] + entries
            self.state = msg
            self.state_at = time.monotonic()
            self._notify()
            return
        if kind == "chat":
            self._chat(msg)
            return
        if kind == "welcome":  # a spectator took a seat (``sit``)
            self._welcomed(msg)
        rid = msg.get("id")
        if kind in ("answer", "error", "welcome") and isinstance(rid, int) and rid in self._pending:
            fut = self._pending.pop(rid)
            if not fut.done():
                fut.set_result(msg)
            return
        if kind == "error":
            self.last_error = msg

    def _chat(self, msg: dict[str, Any]) -> None:
        name = P.clean_chat(str(msg.get("name", "")))[:40] or "Someone"
        text = P.clean_chat(str(msg.get("text", "")))
        if not text:
            return
        who = f"{name} (watching)" if msg.get("watching") else name
        seat = msg.get("seat")
        self.chat.append(
            {
                "seat": seat if type(seat) is int else None,
                "text": f"Chat · {who}: {text}",
                "kind": "chat",
                "deal": msg.get("deal"),
                "anchor": len(self.log),
            }
        )
        del self.chat[: -P.CHAT_KEPT]
        self._notify()

    def log_with_chat(self) -> list[dict[str, Any]]:
        """The log with this deal's chat lines where they came."""
        from ..seat_view import with_chat

        return with_chat(list(self.log), self.chat, (self.state or {}).get("deal"))

    async def send_chat(self, text: str) -> str | None:
        """Say a line at the table; the host's reason when it refuses, else ``None``."""
        reply = await self.request({"type": "chat", "text": text})
        return str(reply.get("reason")) if reply["type"] == "error" else None

    async def leave_seat(self) -> str | None:
        """Leave the seat to watch (the seat is held as after a drop); the reason when
        refused. From then on this connection gets the public view only, and a dropped
        connection comes back as a spectator (the token is forgotten here)."""
        reply = await self.request({"type": "watch"})
        if reply["type"] == "error":
            return str(reply.get("reason"))
        self.watching = True
        self.role = "watch"
        self.seat = -1
        self.token = None
        self._notify()
        return None

    async def sit(self) -> str | None:
        """A spectator takes a free seat; the reason when refused."""
        reply = await self.request({"type": "sit", "name": self.name})
        if reply["type"] == "error":
            return str(reply.get("reason"))
        return None

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
    async def request(self, msg: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send ``msg`` and wait for its ``answer`` or ``error``."""
        ws = self.ws
        if ws is None or not self.connected:
            raise ConnectionError("Not connected to the host.")
        self._next_id += 1
        rid = 1000 + self._next_id
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        try:
            text = P.encode({**msg, "id": rid})
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
                await ws.send(P.encode({"type": "leave"}))
            await ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2.0)

    async def drop(self) -> None:
        """Tests: lose the connection as a network would (the client reconnects)."""
        ws = self.ws
        if ws is not None:
            ws.transport.abort()


def _why(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text[:120]


# ----- the seat view ------------------------------------------------------------------------------
class RemoteSeatView(SeatView):
    """One seat of a table hosted elsewhere, for the table screen (see :class:`SeatView`).

    The connection runs on a thread with its own loop; the screen's calls block briefly
    for the host's answer. ``changed_elsewhere`` is called from that thread."""

    def __init__(
        self,
        client: TableClient,
        loop: asyncio.AbstractEventLoop,
        thread: threading.Thread | None,
        store: TokenStore | None = None,
    ) -> None:
        self.client = client
        self.loop = loop
        self.thread = thread
        #: the typed views made last (made again when the state or the log changes)
        self._public_view: tuple[dict[str, Any], AnyView] | None = None
        self._lines: tuple[list[LogEntry], tuple[Any, ...], tuple[LogLine, ...]] | None = None
        self.store = store
        t = client.welcome["table"]
        self.rules = rules_game(t["variant"], t["players"], t["options"], t["names"])
        self._cache: dict[tuple[Any, ...], str | None] = {}
        client.on_change = self._host_changed

    @classmethod
    def connect(
        cls,
        host: str,
        port: int,
        code: str,
        name: str | None = None,
        token_store: TokenStore | None | bool = None,
        timeout: float = REQUEST_TIMEOUT_S,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        watch: bool = False,
    ) -> RemoteSeatView:
        """Join (or rejoin, with the kept token) and return once welcomed; raises
        :class:`JoinError` with the reason. ``watch``: as a spectator (no token used)."""
        store: TokenStore | None
        if token_store is None or token_store is True:
            store = TokenStore()
        elif token_store is False:
            store = None
        else:
            store = token_store
        key = TokenStore.key(host, port, code)
        token = store.get(key) if store and not watch else None
        role = "watch" if watch else "player"
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="twos-tui-net", daemon=True)
        thread.start()

        async def join() -> TableClient:
            client = TableClient(
                host, port, code, name, token, None, retry_delays, timeout, role=role
            )
            try:
                await client.open()
            except JoinError:
                if not token:
                    raise
                client = TableClient(
                    host, port, code, name, None, None, retry_delays, timeout, role=role
                )
                await client.open()
            # the first state follows the welcome at once
            for _ in range(100):
                if client.state is not None:
                    break
                client.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(client.changed.wait(), 0.1)
            return client

        try:
            client = asyncio.run_coroutine_threadsafe(join(), loop).result(timeout * 3)
        except BaseException as e:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(2)
            if isinstance(e, JoinError):
                raise
            if isinstance(e, concurrent.futures.TimeoutError | TimeoutError):
                raise JoinError(f"{host}:{port} did not answer in time.") from None
            raise JoinError(f"Could not join ({_why(e)}).") from None
        if store is not None and client.token:
            store.put(key, client.token)
        return cls(client, loop, thread, store)

    def _run(self, coro: Any, timeout: float) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def _request(self, msg: dict[str, Any]) -> dict[str, Any]:
        timeout = self.client.timeout
        try:
            reply: dict[str, Any] = self._run(self.client.request(msg, timeout), timeout + 1)
            return reply
        except (ConnectionError, concurrent.futures.TimeoutError, TimeoutError):
            return P.error(P.E_NOT_NOW, "The host did not answer: the connection is down.")

    def _host_changed(self) -> None:
        with contextlib.suppress(Exception):  # a record is a courtesy: never break play
            self._record_finished_deal()
        self.changed_elsewhere()

    # ----- this player's own history ----------------------------------------------------------
    #: set by the app (``record_history``): finished deals go to this computer's history
    record_history = False
    _recorded: int = 0  #: the last deal number handed to the history
    _joined_at: float = 0.0
    _deal_from: float = 0.0

    def _record_finished_deal(self) -> None:
        """A finished deal goes to this computer's history as this seat saw it: its
        result for this seat only (the others are recorded by their own computers), no
        seed and no cards (a joined table's deals cannot be replayed here)."""
        import time

        from .. import history

        now = time.time()
        if not self._joined_at:
            self._joined_at = self._deal_from = now
        st = self._st
        results = st.get("results") or []
        if self.watching or not self.record_history or not st.get("deal_over") or not results:
            return
        r = DealResult.from_json(results[-1])
        if r.deal_number <= self._recorded:
            return
        self._recorded = r.deal_number
        me = self.my_seat
        seats: list[history.SeatJson] = []
        for i, info in enumerate(self.seats):
            kind = "human" if i == me else ("ai" if info.is_ai else "remote")
            seats.append({"name": info.name, "kind": kind, "level": info.level or "normal"})
        over = bool(st.get("match_over"))
        client = self.client
        rec: history.DealRecord = {
            "type": "deal",
            "match_key": f"{history.JOINED_PREFIX}{client.host}-{client.port}-{client.code}-{me}",
            "variant": self.variant_id,
            "variant_name": self.name,
            "players": self.players,
            "options": dict(self.options),
            "seed": 0,
            "names": list(self.names),
            "seats": seats,
            "score_label": self.score_label,
            "low_score_wins": bool(self.low_score_wins),
            "deal_number": r.deal_number,
            "first_action": 0,
            "actions": [],
            "prefix": [],
            "changes": list(r.changes),
            "totals": list(r.totals),
            "winners": list(r.winners),
            "summary": r.summary,
            "details": list(r.details),
            "started": self._deal_from,
            "ended": now,
            "duration": max(0.0, now - self._deal_from),
            "match_over": over,
            "match_winners": self.match_winners() if over else None,
            "match_started": self._joined_at,
            "match_duration": max(0.0, now - self._joined_at),
        }
        self._deal_from = now
        history.RECORDER.submit(rec)

    @property
    def _st(self) -> dict[str, Any]:
        return self.client.state or {}

    @property
    def my_seat(self) -> int:
        return self.client.seat

    @property
    def code(self) -> str:
        """The table's join code."""
        return self.client.code

    @property
    def address(self) -> str:
        """The host, as ``HOST:PORT``."""
        c = self.client
        host = f"[{c.host}]" if ":" in c.host else c.host
        return f"{host}:{c.port}"

    def can_undo(self) -> str | None:
        return "Undo is off at a table with players on other computers."

    # ----- who sits where ---------------------------------------------------------------------
    @property
    def remote(self) -> bool:
        return True

    @property
    def seats(self) -> list[SeatInfo]:
        out = []
        for i, d in enumerate(self._st.get("seats", [])):
            kind = d.get("kind", REMOTE)
            if i == self.my_seat:
                kind = HUMAN
            elif kind != AI:
                kind = REMOTE
            out.append(
                SeatInfo(
                    str(d.get("name", "")),
                    kind,
                    str(d.get("level", "")),
                    bool(d.get("connected", True)),
                    str(d.get("note", "")),
                )
            )
        if not out:
            out = [SeatInfo(n, REMOTE) for n in self.rules.names]
        return out

    @property
    def names(self) -> list[str]:
        """The names at the table now: a seat taken after this screen joined shows its
        player's name (the rules' names are the ones at the join)."""
        names = list(self.rules.names)
        for i, d in enumerate(self._st.get("seats", [])[: len(names)]):
            if d.get("name"):
                names[i] = str(d["name"])
        return names

    @property
    def controls(self) -> tuple[int, ...]:
        return () if self.watching else (self.my_seat,)

    @property
    def visible(self) -> tuple[int, ...]:
        return () if self.watching else (self.my_seat,)

    # ----- spectators and chat ------------------------------------------------------------------
    @property
    def watching(self) -> bool:
        return self.client.watching

    @property
    def can_chat(self) -> bool:
        return True

    def send_chat(self, text: str) -> str | None:
        try:
            result: str | None = self._run(self.client.send_chat(text), self.client.timeout + 1)
            return result
        except (ConnectionError, concurrent.futures.TimeoutError, TimeoutError):
            return "The host did not answer: the connection is down."

    @property
    def can_sit(self) -> bool:
        return self.watching and bool(self._st.get("can_sit"))

    def sit(self) -> str | None:
        try:
            result: str | None = self._run(self.client.sit(), self.client.timeout + 1)
        except (ConnectionError, concurrent.futures.TimeoutError, TimeoutError):
            return "The host did not answer: the connection is down."
        if result is None:
            t = self.client.welcome["table"]
            self.rules = rules_game(t["variant"], t["players"], t["options"], t["names"])
            self._cache.clear()
            if self.store is not None and self.client.token:
                key = TokenStore.key(self.client.host, self.client.port, self.client.code)
                self.store.put(key, self.client.token)
        return result

    @property
    def can_leave_seat(self) -> bool:
        return not self.watching

    def leave_seat(self) -> str | None:
        try:
            result: str | None = self._run(self.client.leave_seat(), self.client.timeout + 1)
        except (ConnectionError, concurrent.futures.TimeoutError, TimeoutError):
            return "The host did not answer: the connection is down."
        self._cache.clear()
        return result

    @property
    def people_at_table(self) -> int:
        return sum(1 for s in self.seats if not s.is_ai)

    # ----- the state of play ------------------------------------------------------------------
    def public_observation(self) -> AnyView | None:
        if not self.watching:
            return None
        # the host's public view; a player's state still on its way when the seat was
        # left shows no hand (only what every seat knows of it is kept)
        st = self._st
        cached = self._public_view
        if cached is None or cached[0] is not st:
            obs = dict(st.get("observation") or {})
            if st.get("seat") is not None:
                obs = {k: v for k, v in obs.items() if k in _SPECTATOR_SAFE}
            obs.setdefault("variant", self.variant_id)
            obs.setdefault("players", self.players)
            obs["hand"] = []
            obs["seat"] = None
            obs["history"] = []
            cached = self._public_view = (st, view_from_json(obs, public=True))
        return replace(cached[1], history=self._log_lines())

    def observation(self, seat: int) -> AnyView:
        from ..seat_view import NotVisible

        public = self.public_observation()
        if public is not None:
            return public  # a spectator: the public view, the same for any seat
        if seat != self.my_seat:
            raise NotVisible(f"seat {seat} is not shown at this screen")
        view = self.client.view
        if view is None or view.seat != seat:
            raise NotVisible(f"the host has not sent seat {seat}'s view yet")
        return replace(view, history=self._log_lines())

    def _log_lines(self) -> tuple[LogLine, ...]:
        """The log with this deal's chat lines, typed (made again only when it grew)."""
        c = self.client
        key = (len(c.log), len(c.chat), (c.state or {}).get("deal"))
        cached = self._lines
        if cached is None or cached[0] is not c.log or cached[1] != key:
            cached = self._lines = (c.log, key, log_lines(c.log_with_chat()))
        return cached[2]

    def to_act(self) -> tuple[int, ...]:
        return tuple(self._st.get("to_act", ()))

    def decision(self, seat: int) -> Decision | None:
        d = self._st.get("decision")
        if seat != self.my_seat or not d:
            return None
        return Decision.from_json(d)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.my_seat:
            return []
        return [Action.from_json(a) for a in self._st.get("legal", [])]

    def _position(self) -> tuple[Any, ...]:
        st = self._st
        return (st.get("deal"), st.get("n"), tuple(st.get("to_act", ())))

    def check(self, seat: int, action: Action) -> str | None:
        if seat != self.my_seat:
            return "That seat is not played at this screen."
        st = self._st
        if st.get("decision") and action.to_json() in st.get("legal", []):
            return None
        key = ("check", *self._position(), json.dumps(action.to_json(), sort_keys=True))
        if key not in self._cache:
            reply = self._request({"type": "check", "action": action.to_json()})
            if reply["type"] == "error":
                return str(reply.get("reason", "The host refused that."))
            self._cache[key] = reply.get("result")
            if len(self._cache) > 500:
                self._cache.clear()
        return self._cache.get(key)

    def describe(self, seat: int, action: Action) -> str | None:
        if seat != self.my_seat:
            return None
        key = ("describe", *self._position(), json.dumps(action.to_json(), sort_keys=True))
        if key not in self._cache:
            reply = self._request({"type": "describe", "action": action.to_json()})
            if reply["type"] == "error":
                return None
            self._cache[key] = reply.get("result")
        return self._cache.get(key)

    def act(self, seat: int, action: Action) -> None:
        if seat != self.my_seat:
            raise IllegalAction("That seat is not played at this screen.")
        reply = self._request({"type": "act", "action": action.to_json()})
        if reply["type"] == "error":
            raise IllegalAction(str(reply.get("reason", "The host refused that move.")))

    @property
    def history(self) -> Sequence[LogLine]:
        return self._log_lines()

    @property
    def action_count(self) -> int:
        return int(self._st.get("n", 0))

    @property
    def deal_number(self) -> int:
        return int(self._st.get("deal", 0))

    @property
    def deal_over(self) -> bool:
        return bool(self._st.get("deal_over", False))

    @property
    def match_over(self) -> bool:
        return bool(self._st.get("match_over", False))

    @property
    def totals(self) -> list[int]:
        return list(self._st.get("totals", [0] * self.players))

    @property
    def results(self) -> list[DealResult]:
        return [DealResult.from_json(r) for r in self._st.get("results", [])]

    def next_deal(self) -> None:
        if self.watching:
            return  # the players start the next deal
        reply = self._request({"type": "ready", "deal": self.deal_number})
        if reply["type"] == "error" and reply.get("code") != P.E_NOT_NOW:
            raise IllegalAction(str(reply.get("reason", "")))

    def waiting_for(self) -> str | None:
        c = self.client
        if c.lost:
            return c.lost
        if c.reconnecting or not c.connected:
            return "Connection lost: reconnecting…"
        st = self._st
        if not st:
            return "Waiting for the host…"
        return _waiting_of(st, self.my_seat, time.monotonic() - c.state_at)

    def close(self) -> None:
        loop = self.loop
        if not loop.is_closed() and loop.is_running():
            with contextlib.suppress(Exception):
                self._run(self.client.close(), 3)

            async def finish_the_rest() -> None:
                # the connection's own tasks (keepalive, a reader) end here, not with
                # the loop: nothing is left pending when the loop stops
                rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
                for t in rest:
                    t.cancel()
                await asyncio.gather(*rest, return_exceptions=True)

            with contextlib.suppress(Exception):
                self._run(finish_the_rest(), 3)
            loop.call_soon_threadsafe(loop.stop)
        if self.thread is not None:
            self.thread.join(3)
            if not self.thread.is_alive() and not loop.is_running() and not loop.is_closed():
                loop.close()


#: what of a player's observation a spectator's screen may keep for the moment between
#: leaving the seat and the public view arriving (nothing of the seat's own)
_SPECTATOR_SAFE = frozenset(
    {"variant", "family", "players", "names", "hand_counts", "to_act", "dealer", "deal_number"}
    | {"totals", "seat_tags", "deal_over", "match_over", "options"}
)


def _waiting_of(st: dict[str, Any], me: int, age: float) -> str | None:
    seats = st.get("seats", [])
    names = [str(d.get("name", "")) for d in seats]
    free = [names[i] for i, d in enumerate(seats) if d.get("free")]
    dropped = [
        (names[i], max(0.0, float(d.get("hold_left", 0)) - age))
        for i, d in enumerate(seats)
        if i != me
        and d.get("kind") != AI
        and not d.get("free")
        and not d.get("connected", True)
        and not d.get("ai_plays")
    ]
    not_ready: list[str] = []
    if st.get("deal_over") and not st.get("match_over"):
        ready = set(st.get("ready", []))
        if me in ready:
            not_ready = [
                names[i]
                for i, d in enumerate(seats)
                if i != me and d.get("kind") != AI and d.get("connected") and i not in ready
            ]
    return waiting_text(free, dropped, not_ready, "", False)


# ----- the bot ----------------------------------------------------------------------------
async def play_bot(
    client: TableClient,
    level: str = "normal",
    on_move: Callable[[float], None] | None = None,
    think_in_thread: bool = False,
    pause: float = 0.0,
) -> dict[str, Any]:
    """Play ``client``'s seat with the AI until the match is over (or the connection
    is lost for good); the last state. ``on_move(seconds)``: each move's round trip.
    ``pause``: seconds to wait before each move (a person's pace, for benchmarks)."""
    from ...ai import agent_for

    variant = client.welcome["table"]["variant"]
    agent = agent_for(variant, level)
    rng = random.Random(f"twos-tui-bot:{client.code}:{client.seat}")
    acted_at: tuple[Any, ...] | None = None
    ready_for: int | None = None
    while True:
        client.changed.clear()
        st = client.state
        if client.lost:
            raise JoinError(client.lost)
        if st is not None:
            if st.get("match_over"):
                return st
            me = client.seat
            position = (st.get("deal"), st.get("n"))
            if st.get("decision") and me in st.get("to_act", []) and acted_at != position:
                assert client.view is not None  # made with the state, at the door
                obs = replace(client.view, history=log_lines(list(client.log)))
                legal = [Action.from_json(a) for a in st["legal"]]
                decision = Decision.from_json(st["decision"])
                if think_in_thread:
                    action = await asyncio.to_thread(agent.choose, obs, legal, decision, rng)
                else:
                    action = agent.choose(obs, legal, decision, rng)
                acted_at = position
                if pause > 0:
                    await asyncio.sleep(pause * (0.5 + rng.random()))
                t0 = time.perf_counter()
                try:
                    reply = await client.request({"type": "act", "action": action.to_json()})
                except (ConnectionError, TimeoutError):
                    # the connection is down (it is being made again): wait for news,
                    # never spin (the reconnecting runs on this same loop)
                    acted_at = None
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(client.changed.wait(), 1.0)
                    continue
                if reply["type"] == "error":
                    log.info("move refused: %s", reply.get("reason"))
                    acted_at = None
                    if reply.get("code") == P.E_TOO_FAST:
                        await asyncio.sleep(0.2)
                elif on_move is not None:
                    on_move(time.perf_counter() - t0)
                continue
            deal = st.get("deal")
            if st.get("deal_over") and ready_for != deal:
                ready_for = deal
                try:
                    reply = await client.request({"type": "ready", "deal": deal})
                except (ConnectionError, TimeoutError):
                    reply = {"type": "error", "code": ""}
                if reply["type"] == "error" and reply.get("code") != P.E_NOT_NOW:
                    ready_for = None  # say it again
                    await asyncio.sleep(0.2)
                continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.changed.wait(), 5.0)


async def run_bot(
    host: str,
    port: int,
    code: str,
    level: str = "normal",
    name: str | None = None,
    token_store: TokenStore | None = None,
) -> dict[str, Any]:
    """``twos-tui join ... --bot LEVEL``: join (or rejoin), play to the match's end."""
    key = TokenStore.key(host, port, code)
    token = token_store.get(key) if token_store else None
    client = TableClient(host, port, code, name, token)
    try:
        await client.open()
    except JoinError:
        if not token:
            raise
        client = TableClient(host, port, code, name)
        await client.open()
    if token_store:
        token_store.put(key, client.token)
    try:
        return await play_bot(client, level, think_in_thread=True) | {"seat": client.seat}
    finally:
        await client.close()


def door_view(msg: dict[str, Any]) -> AnyView:
    """The typed view of a host's ``state``: a seat's own observation (``seat`` a
    number) or the public one (``seat`` null, read with what it lacks left blank). The
    log comes beside it (``log``), not in it. :class:`ViewError` says why it is not one."""
    obs = msg.get("observation")
    if type(obs) is not dict:
        raise ViewError("the state's observation should be an object")
    public = msg.get("seat") is None
    view = view_from_json({**obs, "history": []}, public=public)
    if not public and view.seat != msg.get("seat"):
        raise ViewError("the state's observation is of another seat")
    return view
