"""The table screen's view of a seat at a table hosted elsewhere
(:class:`RemoteSeatView`, a :class:`~twos_tui.play.seat_view.SeatView`): the connection
(:mod:`.connection`) runs on a thread of its own, and the screen's synchronous calls are
answered from the seat's mirror of the table or by a request to the host.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
import time
from collections.abc import Coroutine, Sequence
from dataclasses import replace
from typing import TypeVar

from ...engine import Action, Decision, IllegalAction
from ...engine.protocol import DealResult
from ...engine.views import AnyView, LogLine, view_from_json
from ...jsontypes import JsonObject
from ..seat_view import AI, HUMAN, REMOTE, SeatInfo, SeatView, rules_game
from ..turn_clock import ClockState
from . import messages as M
from . import protocol as P
from .connection import (
    REQUEST_TIMEOUT_S,
    RETRY_DELAYS,
    JoinError,
    Reply,
    TableClient,
    TokenStore,
    _why,
)
from .status import waiting_text

log = logging.getLogger("twos_tui.net.client")

_R = TypeVar("_R")


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
        self._public_view: tuple[M.State | None, AnyView] | None = None
        self._lines: tuple[list[LogLine], tuple[int, int, int | None], tuple[LogLine, ...]] | None
        self._lines = None
        self.store = store
        t = client.table
        self.rules = rules_game(t.variant, t.players, t.options, t.names)
        #: the host's answers to ``check`` and ``describe``, by position and action
        self._cache: dict[tuple[object, ...], str | None] = {}
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

    def _run(self, coro: Coroutine[object, object, _R], timeout: float) -> _R:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def _request(self, msg: M.ClientMessage) -> Reply:
        timeout = self.client.timeout
        try:
            return self._run(self.client.request(msg, timeout), timeout + 1)
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
        st = self.client.state
        if st is None or self.watching or not self.record_history or not st.deal_over:
            return
        if not st.results:
            return
        r = st.results[-1]
        if r.deal_number <= self._recorded:
            return
        self._recorded = r.deal_number
        me = self.my_seat
        seats: list[history.SeatJson] = []
        for i, info in enumerate(self.seats):
            kind = "human" if i == me else ("ai" if info.is_ai else "remote")
            seats.append({"name": info.name, "kind": kind, "level": info.level or "normal"})
        over = st.match_over
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
    def _state(self) -> M.State | None:
        """The host's last state (``None`` before the first)."""
        return self.client.state

    @property
    def _seat_entries(self) -> tuple[M.SeatEntry, ...]:
        st = self.client.state
        return st.seats if st is not None else ()

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
        for i, d in enumerate(self._seat_entries):
            kind = d.kind
            if i == self.my_seat:
                kind = HUMAN
            elif kind != AI:
                kind = REMOTE
            out.append(SeatInfo(d.name, kind, d.level, d.connected, d.note))
        if not out:
            out = [SeatInfo(n, REMOTE) for n in self.rules.names]
        return out

    @property
    def names(self) -> list[str]:
        """The names at the table now: a seat taken after this screen joined shows its
        player's name (the rules' names are the ones at the join)."""
        names = list(self.rules.names)
        for i, d in enumerate(self._seat_entries[: len(names)]):
            if d.name:
                names[i] = d.name
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
        st = self._state
        return self.watching and st is not None and bool(st.can_sit)

    def sit(self) -> str | None:
        try:
            result: str | None = self._run(self.client.sit(), 2 * self.client.timeout + 1)
        except (ConnectionError, concurrent.futures.TimeoutError, TimeoutError):
            return "The host did not answer: the connection is down."
        if result is None:
            t = self.client.table
            self.rules = rules_game(t.variant, t.players, t.options, t.names)
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
        st = self._state
        cached = self._public_view
        if cached is None or cached[0] is not st:
            if st is not None and st.seat is None:
                view = st.observation
            else:
                obs: JsonObject = {}
                if st is not None:
                    obs = {
                        k: v for k, v in st.observation.to_json().items() if k in _SPECTATOR_SAFE
                    }
                obs.setdefault("variant", self.variant_id)
                obs.setdefault("players", self.players)
                obs.update(hand=[], seat=None, history=[])
                view = view_from_json(obs, public=True)
            cached = self._public_view = (st, view)
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
        key = (len(c.log), len(c.chat), c.state.deal if c.state is not None else None)
        cached = self._lines
        if cached is None or cached[0] is not c.log or cached[1] != key:
            cached = self._lines = (c.log, key, tuple(c.log_with_chat()))
        return cached[2]

    def to_act(self) -> tuple[int, ...]:
        st = self._state
        return st.to_act if st is not None else ()

    def decision(self, seat: int) -> Decision | None:
        st = self._state
        if seat != self.my_seat or st is None:
            return None
        return st.decision

    def legal_actions(self, seat: int) -> list[Action]:
        st = self._state
        if seat != self.my_seat or st is None:
            return []
        return list(st.legal)

    def _position(self) -> tuple[int | None, int | None, tuple[int, ...]]:
        st = self._state
        if st is None:
            return (None, None, ())
        return (st.deal, st.n, st.to_act)

    def check(self, seat: int, action: Action) -> str | None:
        if seat != self.my_seat:
            return "That seat is not played at this screen."
        st = self._state
        if st is not None and st.decision and action.to_json() in [a.to_json() for a in st.legal]:
            return None
        key = ("check", *self._position(), json.dumps(action.to_json(), sort_keys=True))
        if key not in self._cache:
            reply = self._request(M.Check(action=action))
            if isinstance(reply, M.Error):
                return reply.reason or "The host refused that."
            self._cache[key] = reply.result if isinstance(reply, M.Answer) else None
            if len(self._cache) > 500:
                self._cache.clear()
        return self._cache.get(key)

    def describe(self, seat: int, action: Action) -> str | None:
        if seat != self.my_seat:
            return None
        key = ("describe", *self._position(), json.dumps(action.to_json(), sort_keys=True))
        if key not in self._cache:
            reply = self._request(M.Describe(action=action))
            if isinstance(reply, M.Error):
                return None
            self._cache[key] = reply.result if isinstance(reply, M.Answer) else None
        return self._cache.get(key)

    def act(self, seat: int, action: Action) -> None:
        if seat != self.my_seat:
            raise IllegalAction("That seat is not played at this screen.")
        reply = self._request(M.Act(action=action))
        if isinstance(reply, M.Error):
            raise IllegalAction(reply.reason or "The host refused that move.")

    @property
    def history(self) -> Sequence[LogLine]:
        return self._log_lines()

    @property
    def action_count(self) -> int:
        st = self._state
        return st.n if st is not None else 0

    @property
    def deal_number(self) -> int:
        st = self._state
        return st.deal if st is not None else 0

    @property
    def deal_over(self) -> bool:
        st = self._state
        return st is not None and st.deal_over

    @property
    def match_over(self) -> bool:
        st = self._state
        return st is not None and st.match_over

    @property
    def totals(self) -> list[int]:
        st = self._state
        return list(st.totals) if st is not None else [0] * self.players

    @property
    def results(self) -> list[DealResult]:
        st = self._state
        return list(st.results) if st is not None else []

    def next_deal(self) -> None:
        if self.watching:
            return  # the players start the next deal
        reply = self._request(M.Ready(deal=self.deal_number))
        if isinstance(reply, M.Error) and reply.code != P.E_NOT_NOW:
            raise IllegalAction(reply.reason)

    def clock_now(self) -> ClockState | None:
        """The clock of the host's last state, counted down since it came (a seat
        whose time runs: its move's time, then its bank)."""
        c = self.client
        st = self._state
        if st is None or st.clock is None:
            return None
        if c.reconnecting or not c.connected:
            return st.clock  # (stopped where the host last said)
        return st.clock.after(time.monotonic() - c.state_at)

    def waiting_for(self) -> str | None:
        c = self.client
        if c.lost:
            return c.lost
        if c.reconnecting or not c.connected:
            return "Connection lost: reconnecting…"
        st = self._state
        if st is None:
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


def _waiting_of(st: M.State, me: int, age: float) -> str | None:
    seats = st.seats
    names = [d.name for d in seats]
    free = [names[i] for i, d in enumerate(seats) if d.free]
    dropped = [
        (names[i], max(0.0, d.hold_left - age))
        for i, d in enumerate(seats)
        if i != me and d.kind != AI and not d.free and not d.connected and not d.ai_plays
    ]
    not_ready: list[str] = []
    if st.deal_over and not st.match_over:
        ready = set(st.ready)
        if me in ready:
            not_ready = [
                names[i]
                for i, d in enumerate(seats)
                if i != me and d.kind != AI and d.connected and i not in ready
            ]
    return waiting_text(free, dropped, not_ready, "", False)
