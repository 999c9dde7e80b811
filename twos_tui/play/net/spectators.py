"""The spectators of a hosted table and the public view they get: watching, leaving a
seat to watch, taking a free seat, and the observation and log every seat shares (no
card hidden from any seat is in them)."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, cast

from ...engine.cards import HIDDEN
from ...engine.observation import Observation
from ...engine.views import AnyView, LogLine, view_from_json
from ...jsontypes import JsonObject, JsonValue
from . import messages as M
from .seats import JoinRefused, RemoteSeat, SeatsRole

if TYPE_CHECKING:
    from .conn import Conn
    from .table import HostedTable

log = logging.getLogger("twos_tui.net")


class SpectatorsRole(SeatsRole):
    """Spectators and the public view."""

    _spectators_seen: int

    @property
    def spectators(self) -> list[Conn]:
        return [c for c in self.conns if c.watching]

    def watch(self, conn: Conn, name: str | None) -> None:
        """``conn`` watches the table: the public view only (no hand, no decision)."""
        from ..names import clean_name

        self._spectators_seen += 1
        conn.table = cast("HostedTable", self)  # (the only kind of table there is)
        conn.seat = None
        conn.watching = True
        conn.name = clean_name(name or "", f"Spectator {self._spectators_seen}")
        conn.cursor = (-1, 0, 0)
        self.conns.add(conn)
        log.info("table %s: %s watches", self.code, conn.name)
        self._schedule(remote=True)

    def leave_seat(self, conn: Conn) -> None:
        """A player leaves their seat to watch: the seat is held as after a drop (their
        token still takes it back); from now on the connection gets the public view."""
        seat = conn.seat
        rs = self.seats.get(seat) if seat is not None else None
        conn.name = self.game.names[seat] if seat is not None else conn.name
        if rs is not None and rs.conn is conn:
            rs.conn = None
            rs.dropped_at = self.now()
            self.ready_seats.discard(rs.seat)
        conn.seat = None
        conn.watching = True
        conn.cursor = (-1, 0, 0)
        log.info("table %s: seat %s left to watch", self.code, seat)
        self._schedule(remote=True)

    def sit(self, conn: Conn, name: str | None) -> RemoteSeat:
        """A spectator takes the first free seat (JoinRefused with the reason)."""
        if not self.allow_sit:
            raise JoinRefused("The host does not let spectators take seats at this table.")
        rs = self.claim(name or conn.name or None)
        conn.watching = False
        conn.seat = rs.seat
        conn.cursor = (-1, 0, 0)
        self.connect(rs, conn)
        return rs

    def public_observation(self) -> AnyView:
        """What every seat sees: the parts of all the seats' observations that are the
        same for each (a hand, a secret choice, a seat's own prompt are left out, or
        blank), so it holds no card hidden from any seat; read as the public view of the
        game's family. Without the log (see :meth:`public_state`)."""
        g = self.game
        key = (
            len(g.actions),
            g.deal_number,
            g.deal_over,
            g.match_over,
            len(g.history),
            tuple(g.names),
        )
        if self._public is not None and self._public[0] == key:
            return self._public[1]
        full = g.history
        g.history = []
        try:
            # the seats' observations as JSON: what is the same in each is found key by
            # key, whatever the family
            views: list[JsonValue] = [_as_json(g.observation(s)) for s in range(g.players)]
        finally:
            g.history = full
        for v in views:
            if isinstance(v, dict):
                v.pop("history", None)
        _, common = _common(views)
        obs: JsonObject = dict(common) if isinstance(common, dict) else {}
        obs["seat"] = None
        obs["hand"] = []
        obs["history"] = []
        view = view_from_json(obs, public=True)
        self._public = (key, view)
        return view

    def public_log(self, start: int) -> tuple[LogLine, ...]:
        """The log entries from ``start`` (of the match's log) that every seat's log holds
        at the same place (the engine's logs are public today: this keeps it so)."""
        g = self.game
        key = (g.deal_number, len(g.actions), g.deal_over, len(g.history), start)
        cached = self._public_log
        if cached is not None and cached[0] == key:
            return cached[1]  # every spectator at the same place: made once
        full = g.history
        g.history = full[start:]
        try:
            logs = [list(g.observation(s)["history"]) for s in range(g.players)]
        finally:
            g.history = full
        out = []
        for i, entry in enumerate(logs[0]):  # compared as the engine wrote them, key for key
            if all(i < len(other) and other[i] == entry for other in logs[1:]):
                out.append(LogLine.from_json(entry, "log"))
            else:
                break
        self._public_log = (key, tuple(out))
        return self._public_log[1]

    def public_state(
        self, cursor: tuple[int, int, int] = (-1, 0, 0)
    ) -> tuple[M.State, tuple[int, int, int]]:
        """A spectator's ``state``: ``seat`` null, the public observation, no decision,
        no legal moves."""
        g = self.game
        deal, raw, count = cursor
        if deal != g.deal_number:
            deal, raw, count = g.deal_number, 0, 0
        fresh = self.public_log(raw)
        cursor = (deal, raw + len(fresh), count + len(fresh))
        msg = M.State(
            seat=None,
            n=len(g.actions),
            deal=g.deal_number,
            deal_over=g.deal_over,
            match_over=g.match_over,
            to_act=tuple(g.to_act()),
            decision=None,
            legal=(),
            observation=self.public_observation(),
            log_from=count,
            log=fresh,
            totals=tuple(g.totals),
            results=tuple(g.results),
            seats=self.seat_entries(-1),
            ready=tuple(sorted(self.ready_seats)),
            waiting=self.waiting(-1),
            watching=len(self.spectators),
            can_sit=self.allow_sit and any(not rs.claimed for rs in self.seats.values()),
            clock=self.clock_state(),
        )
        return msg, cursor


def _as_json(obs: Observation) -> JsonValue:
    """An observation as plain JSON (a copy: the seats' views are compared and cut here)."""
    value: JsonValue = json.loads(json.dumps(obs))
    return value


def _blank(value: JsonValue) -> JsonValue:
    """The empty value of a kind (what a spectator gets where the seats differ)."""
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    if isinstance(value, str):
        return ""
    if isinstance(value, bool):
        return False
    return None


def _common(values: list[JsonValue]) -> tuple[bool, JsonValue]:
    """The part of ``values`` that is the same in each: (True, it) — equal values whole,
    objects key by key, lists of objects of one length item by item, lists of cards of
    one length card by card where each card differs only by being face down (``??``) to
    some seat — or (False, None)."""
    first = values[0]
    if all(v == first for v in values[1:]):
        copy: JsonValue = json.loads(json.dumps(first))
        return True, copy
    objects = [v for v in values if isinstance(v, dict)]
    if len(objects) == len(values) and isinstance(first, dict):
        out: JsonObject = {}
        for k, v0 in first.items():
            if all(k in v for v in objects[1:]):
                ok, val = _common([v[k] for v in objects])
                out[k] = val if ok else _blank(v0)
        return True, out
    lists = [v for v in values if isinstance(v, list)]
    if len(lists) != len(values) or not isinstance(first, list) or len(set(map(len, lists))) != 1:
        return False, None
    if all(isinstance(x, dict) for v in lists for x in v):
        items: list[JsonValue] = []
        for i in range(len(first)):
            ok, val = _common([v[i] for v in lists])
            items.append(val if ok else {})
        return True, items
    cards = [[x for x in v if isinstance(x, str)] for v in lists]
    if all(len(c) == len(first) for c in cards) and all(
        len({c[i] for c in cards}) == 1 or any(c[i] == HIDDEN for c in cards)
        for i in range(len(first))
    ):
        # cards some seats see face down (2v1's face-down lead, a blindfold's follows):
        # what every seat sees stays, a card any seat sees face down is face down
        return True, [
            cards[0][i] if len({c[i] for c in cards}) == 1 else HIDDEN for i in range(len(first))
        ]
    return False, None
