"""One hosted match (:class:`HostedTable`), made of its roles: seats and tokens
(:mod:`~.seats`), holds and takeovers (:mod:`~.holds`), spectators (:mod:`~.spectators`)
and chat (:mod:`~.chat`). Here: making and reopening a table, the loop it runs on, and
what a seat receives."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, cast

from ...jsontypes import JsonObject
from .. import saves
from ..paths import data_dir
from ..seat_view import AI, HUMAN, REMOTE
from ..session import SeatConfig, Session
from . import messages as M
from . import protocol as P
from .chat import ChatRole
from .clock import ClockRole
from .seats import RemoteSeat, new_code, normalize_code
from .spectators import SpectatorsRole
from .table_base import DEFAULT_HOLD_S, SIDECAR_DIR, read_sidecar, sidecar_path

DEFAULT_AI_PAUSE_S = 0.4


class HostedTable(ClockRole, SpectatorsRole, ChatRole):
    """One hosted match: a :class:`Session` (autosaved as a local game is), its join
    code, one reconnect token per remote seat, and the connections of its players.

    ``drive_ai``: the server plays the AI seats itself (headless); at a host's screen the
    screen plays them and the server only plays a remote seat whose hold ran out.
    ``clock``: the turn clock, (seconds a move, bank seconds), or ``None`` for none
    (see :mod:`.clock`). ``now`` is the time, injectable (tests move it by hand)."""

    def __init__(
        self,
        session: Session,
        remote_seats: tuple[int, ...],
        code: str | None = None,
        tokens: dict[int, str] | None = None,
        hold_s: float = DEFAULT_HOLD_S,
        ai_pause: float = DEFAULT_AI_PAUSE_S,
        drive_ai: bool = True,
        now: Callable[[], float] = time.monotonic,
        sidecar: bool = True,
        allow_sit: bool = True,
        clock: tuple[float, float] | None = None,
    ) -> None:
        self.session = session
        self.remote_seats = tuple(sorted(remote_seats))
        self.code = normalize_code(code) if code else new_code()
        tokens = tokens or {}
        self.seats = {
            s: RemoteSeat(s, tokens.get(s) or secrets.token_urlsafe(24)) for s in self.remote_seats
        }
        self.hold_s = float(hold_s)
        self.ai_pause = float(ai_pause)
        self.drive_ai = drive_ai
        self.now = now
        self._init_clock(clock)
        self.use_sidecar = sidecar and session.autosave
        self.loop = None
        self.views = []
        self.ready_seats = set()
        self.host_ready = False
        self.conns = set()  #: every connection at the table, spectators too
        self.watchers = []  #: called on the loop after changes
        #: a spectator may take a free seat (``twos-tui host --no-sit`` forbids it)
        self.allow_sit = allow_sit
        #: the last chat lines (where the match's log was, the ``chat`` message), sent
        #: again to whoever joins later
        self.chat_log = deque(maxlen=P.CHAT_KEPT)
        self._spectators_seen = 0
        self._public = None
        self._public_log = None
        self._ai_task = None
        self._hold_timer = None
        self._scheduled = False
        self._origin_remote = False
        self.closed = False
        #: where its server listened (kept in the sidecar: a table reopened from the
        #: app's Continue list listens there again)
        self.listen = None
        self.reopened = False  #: made from a save (after the host restarted)
        session.listeners.append(self._session_changed)
        session.remote_seats = self.remote_seats
        for s in self.remote_seats:
            if session.seats[s].is_ai:  # reopened after a takeover: it stays the AI's
                self.seats[s].ever_taken = True
        self.write_sidecar()

    @classmethod
    def create(
        cls,
        variant: str,
        kinds: list[str],
        names: list[str] | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        level: str = "normal",
        autosave: bool = True,
        **kw: Any,
    ) -> HostedTable:
        """A new table: ``kinds`` says per seat "human" (at the host's screen), "ai" or
        "remote"."""
        from ..session import AI_NAMES

        seats = []
        for i, kind in enumerate(kinds):
            if kind not in (HUMAN, AI, REMOTE):
                raise ValueError(f"a seat is human, ai or remote, not {kind!r}")
            name = names[i] if names and i < len(names) and names[i] else ""
            if kind == AI:
                seats.append(SeatConfig(name or AI_NAMES[i % len(AI_NAMES)], AI, level))
            else:
                seats.append(SeatConfig(name or f"Player {i + 1}", HUMAN))
        # the house rules, by name: the engine checks each one's value when the game starts
        rules = cast(JsonObject, dict(options)) if options is not None else None
        session = Session.start(variant, seats, len(kinds), rules, seed, autosave=autosave)
        remote = tuple(i for i, k in enumerate(kinds) if k == REMOTE)
        return cls(session, remote, **kw)

    @classmethod
    def reopen(cls, save_id: str, **kw: Any) -> HostedTable:
        """The table of a save and its sidecar (same code, same tokens) — after the host
        was restarted, even killed."""
        from ..names import clean_name

        side = read_sidecar(save_id)  # (DamagedTableFile or TextRefused: the reason)
        seats = {d["seat"]: d for d in side["seats"]}
        data = saves.read_save(saves.save_path(save_id))
        session = Session.from_json(data, save_id)
        session.tracker.record(session)
        table = cls(
            session,
            tuple(seats),
            code=side["code"],
            tokens={s: d["token"] for s, d in seats.items()},
            hold_s=kw.pop("hold_s", side["hold_s"]),
            clock=kw.pop("clock", tuple(side["clock"]) if side["clock"] else None),
            **kw,
        )
        table.reopened = True
        listen = side["listen"]
        if listen is not None:
            host, port = listen
            assert isinstance(host, str) and isinstance(port, int)  # (read_sidecar checked)
            table.listen = (host, port)
            table.write_sidecar()
        now = table.now()
        for s, d in seats.items():
            rs = table.seats[s]
            rs.claimed = d["claimed"]
            rs.name = clean_name(d["name"], "")
            rs.ever_taken = rs.ever_taken or d["ever_taken"]
            rs.taken_over = d["taken_over"]
            if rs.claimed:
                rs.dropped_at = now  # everybody is away until they rejoin: a new hold
        return table

    @staticmethod
    def find_unfinished(variant: str | None = None) -> list[str]:
        """Save ids of hosted tables whose match is not over, newest first."""
        d = data_dir() / SIDECAR_DIR
        out: list[tuple[float, str]] = []
        if not d.is_dir():
            return []
        for p in d.glob("*.json"):
            sid = p.stem
            try:
                save = saves.save_path(sid)
                if not save.exists():  # the save was pruned: its tokens go too
                    p.unlink(missing_ok=True)
                    continue
                info = saves.inspect_save(save)
            except Exception:
                continue
            if not info.ok or info.match_over or (variant and info.variant != variant):
                continue
            out.append((p.stat().st_mtime, sid))
        return [sid for _, sid in sorted(out, reverse=True)]

    def forget(self) -> None:
        """Delete the table's save and sidecar (a table that never opened)."""
        for path in (sidecar_path(self.session.save_id), saves.save_path(self.session.save_id)):
            with contextlib.suppress(OSError):
                path.unlink()

    # ----- the loop ------------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run on ``loop`` (the server's, which is the app's at a host's screen)."""
        self.loop = loop
        self._schedule()

    def _session_changed(self) -> None:
        """The session applied a move or dealt (on any thread)."""
        self._schedule(remote=self._origin_remote)

    def _changed(self) -> None:
        """After any change (on the loop): new states go out, holds are checked, the
        next deal may start, the AI moves."""
        self._scheduled = False
        if self.closed:
            return
        self.update_clock()
        for c in list(self.conns):
            c.push_state()
        for w in self.watchers:
            w()
        self._check_holds()
        self._maybe_next_deal()
        self._drive()

    # ----- what a seat receives ----------------------------------------------------------
    def state_for(
        self, seat: int, cursor: tuple[int, int, int] = (-1, 0, 0)
    ) -> tuple[M.State, tuple[int, int, int]]:
        """The ``state`` message of ``seat``, with the log entries that seat has not been
        sent yet, and the cursor for the next one.

        ``cursor`` is (deal, entries of the match's log seen, entries of the seat's log
        sent). A seat's log is the observation's ``history``: the engine copies (and in
        some games filters, entry by entry) the match's log into every observation; here
        the observation is made from the unseen entries only, which gives exactly the
        new part of the seat's log at a fraction of the cost (a late deal's log has
        hundreds of entries). A new deal sends the seat's log afresh (some games keep
        only the current deal's entries)."""
        g = self.game
        deal, raw, count = cursor
        if deal != g.deal_number:
            deal, raw, count = g.deal_number, 0, 0
        full = g.history
        g.history = full[raw:]  # on the loop, no await in between: nothing else sees it
        try:
            view = g.observe(seat)
        finally:
            g.history = full
        fresh = view.history
        log_from = count
        cursor = (deal, len(full), count + len(fresh))
        to_act = tuple(g.to_act())
        decision = g.decision(seat) if seat in to_act and self.started else None
        legal = tuple(g.legal_actions(seat)) if decision else ()
        rs = self.seats.get(seat)
        if rs is not None and rs.taken_over:
            decision, legal = None, ()
        msg = M.State(
            seat=seat,
            n=len(g.actions),
            deal=g.deal_number,
            deal_over=g.deal_over,
            match_over=g.match_over,
            to_act=to_act,
            decision=decision,
            legal=legal,
            observation=replace(view, history=()),
            log_from=log_from,
            log=fresh,
            totals=tuple(g.totals),
            results=tuple(g.results),
            seats=self.seat_entries(seat),
            ready=tuple(sorted(self.ready_seats)),
            waiting=self.waiting(seat),
            watching=len(self.spectators),
            clock=self.clock_state(),
        )
        return msg, cursor

    def scrub(self, seat: int, text: str, allowed: tuple[str, ...] = ()) -> str:
        """``text`` unless it names a card ``seat`` may not see (other than the ones it
        sent itself): then a reason that names none."""
        try:
            hidden = self.game.hidden_from(seat) - set(allowed)
        except Exception:
            return "That is not possible now."
        if not hidden:
            return text
        words = set(re.findall(r"[0-9A-Za-z]+", text))
        if words & hidden:
            return "That is not possible now."
        for c in hidden:
            if self.game.card_face(c).label in text:
                return "That is not possible now."
        return text

    def close(self) -> None:
        self.closed = True
        if self._hold_timer is not None:
            self._hold_timer.cancel()
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        if self._timeout_task is not None:
            self._timeout_task.cancel()
        if self._ai_task is not None:
            self._ai_task.cancel()
        with contextlib.suppress(ValueError):
            self.session.listeners.remove(self._session_changed)
