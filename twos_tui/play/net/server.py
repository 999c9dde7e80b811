"""The host's side: one authoritative table (:class:`HostedTable`) and the WebSocket
server that hosts tables by their join code (:class:`TableServer`).

Everything runs on one asyncio loop: the connections' handlers, the broadcasts, the AI
seats the server plays (their thinking on a thread, :func:`asyncio.to_thread`) and, at
a host's own screen, the Textual app. A client's intent is checked by the engine and
applied here; each connection then gets a ``state`` made from its own seat's
observation only, so no other seat's hidden card is ever in what it receives.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import random
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ...ai import ai_rng
from ...engine import Action, IllegalAction
from ...engine.cards import HIDDEN
from ...engine.words import says
from .. import saves
from ..paths import data_dir
from ..seat_view import AI, HUMAN, REMOTE, SeatInfo
from ..session import SeatConfig, Session
from . import protocol as P
from .status import waiting_text

if TYPE_CHECKING:
    from .host_view import HostSeatView

log = logging.getLogger("twos_tui.net")

DEFAULT_HOLD_S = 120.0
DEFAULT_AI_PAUSE_S = 0.4
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
SIDECAR_DIR = "hosted"
TAKEOVER_LEVEL = "normal"
STOP_REASON = (
    "The host stopped the table. It is saved: join again with the same command once the "
    "host has started it again."
)


class JoinRefused(Exception):
    """A join that cannot be accepted; ``str()`` says why."""


def new_code() -> str:
    """A join code: 8 random characters (about 40 bits), shown as ``ABCD-EFGH``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalize_code(code: str) -> str:
    raw = re.sub(r"[\s-]", "", code).upper()
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == 8 else raw


def sidecar_path(save_id: str) -> Path:
    return data_dir() / SIDECAR_DIR / f"{save_id}.json"


@dataclass
class RemoteSeat:
    """A seat played from another computer."""

    seat: int
    token: str
    claimed: bool = False  #: a person has joined it
    name: str = ""
    conn: Conn | None = None
    dropped_at: float | None = None  #: when its connection was lost (clock time)
    taken_over: bool = False  #: the AI plays it now (its hold ran out)
    ever_taken: bool = False  #: the AI played for it at some point in the match

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "token": self.token,
            "claimed": self.claimed,
            "name": self.name,
            "taken_over": self.taken_over,
            "ever_taken": self.ever_taken,
        }


class HostedTable:
    """One hosted match: a :class:`Session` (autosaved as a local game is), its join
    code, one reconnect token per remote seat, and the connections of its players.

    ``drive_ai``: the server plays the AI seats itself (headless); at a host's screen the
    screen plays them and the server only plays a remote seat whose hold ran out.
    ``clock`` is injectable (the hold's tests drive it)."""

    def __init__(
        self,
        session: Session,
        remote_seats: tuple[int, ...],
        code: str | None = None,
        tokens: dict[int, str] | None = None,
        hold_s: float = DEFAULT_HOLD_S,
        ai_pause: float = DEFAULT_AI_PAUSE_S,
        drive_ai: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sidecar: bool = True,
        allow_sit: bool = True,
    ) -> None:
        self.session = session
        self.remote_seats = tuple(sorted(remote_seats))
        self.code = normalize_code(code) if code else new_code()
        tokens = tokens or {}
        self.seats: dict[int, RemoteSeat] = {
            s: RemoteSeat(s, tokens.get(s) or secrets.token_urlsafe(24)) for s in self.remote_seats
        }
        self.hold_s = float(hold_s)
        self.ai_pause = float(ai_pause)
        self.drive_ai = drive_ai
        self.clock = clock
        self.use_sidecar = sidecar and session.autosave
        self.loop: asyncio.AbstractEventLoop | None = None
        self.views: list[HostSeatView] = []
        self.ready_seats: set[int] = set()
        self.host_ready = False
        self.conns: set[Conn] = set()  #: every connection at the table, spectators too
        self.watchers: list[Callable[[], None]] = []  #: called on the loop after changes
        #: a spectator may take a free seat (``twos-tui host --no-sit`` forbids it)
        self.allow_sit = allow_sit
        #: the last chat lines (where the match's log was, the ``chat`` message), sent
        #: again to whoever joins later
        self.chat_log: deque[tuple[int, dict[str, Any]]] = deque(maxlen=P.CHAT_KEPT)
        self._spectators_seen = 0
        self._public: tuple[Any, dict[str, Any]] | None = None
        self._public_log: tuple[Any, list[dict[str, Any]]] | None = None
        self._ai_task: asyncio.Task[None] | None = None
        self._hold_timer: asyncio.TimerHandle | None = None
        self._scheduled = False
        self._origin_remote = False
        self.closed = False
        #: where its server listened (kept in the sidecar: a table reopened from the
        #: app's Continue list listens there again)
        self.listen: tuple[str, int] | None = None
        self.reopened = False  #: made from a save (after the host restarted)
        session.listeners.append(self._session_changed)
        session.remote_seats = self.remote_seats
        for s in self.remote_seats:
            if session.seats[s].is_ai:  # reopened after a takeover: it stays the AI's
                self.seats[s].ever_taken = True
        self.write_sidecar()

    # ----- making and reopening ------------------------------------------------------
    @classmethod
    def create(
        cls,
        variant: str,
        kinds: list[str],
        names: list[str] | None = None,
        options: dict[str, Any] | None = None,
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
        session = Session.start(variant, seats, len(kinds), options, seed, autosave=autosave)
        remote = tuple(i for i, k in enumerate(kinds) if k == REMOTE)
        return cls(session, remote, **kw)

    @classmethod
    def reopen(cls, save_id: str, **kw: Any) -> HostedTable:
        """The table of a save and its sidecar (same code, same tokens) — after the host
        was restarted, even killed."""
        from ...textdoor import checked_text
        from ..names import clean_name

        side = json.loads(sidecar_path(save_id).read_text(encoding="utf-8"))
        seats = {int(s["seat"]): s for s in side["seats"]}
        # the code and the tokens are sent to players: text that can be sent, or the
        # sidecar is refused as damaged (TextRefused, a ValueError, says why)
        checked_text(side["code"], "the code in the table's file", 64, identifier=True)
        for d in seats.values():
            checked_text(d["token"], "a seat's token in the table's file", 128, identifier=True)
        data = saves.read_save(saves.save_path(save_id))
        session = Session.from_json(data, save_id)
        session.tracker.record(session)
        table = cls(
            session,
            tuple(seats),
            code=side["code"],
            tokens={s: str(d["token"]) for s, d in seats.items()},
            hold_s=kw.pop("hold_s", side.get("hold_s", DEFAULT_HOLD_S)),
            **kw,
        )
        table.reopened = True
        listen = side.get("listen")
        if (
            isinstance(listen, list)
            and len(listen) == 2
            and isinstance(listen[0], str)
            and type(listen[1]) is int
            and 0 <= listen[1] <= 65535
        ):
            table.listen = (listen[0], listen[1])
            table.write_sidecar()
        now = table.clock()
        for s, d in seats.items():
            rs = table.seats[s]
            rs.claimed = bool(d.get("claimed"))
            rs.name = clean_name(d.get("name", ""), "")
            rs.ever_taken = rs.ever_taken or bool(d.get("ever_taken"))
            rs.taken_over = bool(d.get("taken_over"))
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

    def write_sidecar(self) -> None:
        """The code and tokens beside the save (mode 0600): a restarted host reopens
        the table with the same ones."""
        if not self.use_sidecar:
            return
        path = sidecar_path(self.session.save_id)
        data = {
            "format": 1,
            "code": self.code,
            "save_id": self.session.save_id,
            "hold_s": self.hold_s,
            "listen": list(self.listen) if self.listen else None,
            "seats": [rs.to_json() for rs in self.seats.values()],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            log.warning("could not write %s: %s", path, e)

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

    def _schedule(self, remote: bool = False) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if remote:
            for v in self.views:
                loop.call_soon_threadsafe(v.changed_elsewhere)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon_threadsafe(self._changed)

    def _changed(self) -> None:
        """After any change (on the loop): new states go out, holds are checked, the
        next deal may start, the AI moves."""
        self._scheduled = False
        if self.closed:
            return
        for c in list(self.conns):
            c.push_state()
        for w in self.watchers:
            w()
        self._check_holds()
        self._maybe_next_deal()
        self._drive()

    # ----- who is where ----------------------------------------------------------------------
    @property
    def game(self):  # type: ignore[no-untyped-def]
        return self.session.game

    def seat_infos(self, viewer: int | None = None) -> list[SeatInfo]:
        """Every seat as a player may know it. ``viewer``: a remote seat's own view (it
        is "human", the host's people are "remote")."""
        out = []
        for i, s in enumerate(self.session.seats):
            rs = self.seats.get(i)
            if rs is None:
                if s.is_ai:
                    out.append(SeatInfo(s.name, AI, s.level))
                else:
                    out.append(SeatInfo(s.name, HUMAN if viewer is None else REMOTE))
                continue
            kind = HUMAN if viewer == i else REMOTE
            out.append(SeatInfo(s.name, kind, "", rs.conn is not None, self.seat_note(rs)))
        return out

    def seat_note(self, rs: RemoteSeat) -> str:
        if not rs.claimed:
            return "free: waiting for a player"
        if rs.taken_over:
            return "away: the AI plays for them"
        if rs.conn is None:
            left = self.hold_left(rs)
            return f"dropped: seat held {_mmss(left)}" if left else "dropped"
        if rs.ever_taken:
            return "back (the AI played for them a while)"
        return ""

    def hold_left(self, rs: RemoteSeat) -> float:
        if rs.conn is not None or rs.dropped_at is None or rs.taken_over:
            return 0.0
        return max(0.0, self.hold_s - (self.clock() - rs.dropped_at))

    def seats_json(self, viewer: int | None) -> list[dict[str, Any]]:
        out = []
        for i, info in enumerate(self.seat_infos(viewer)):
            d = info.to_json()
            rs = self.seats.get(i)
            d["ai_plays"] = bool(rs and rs.taken_over)
            d["hold_left"] = round(self.hold_left(rs), 1) if rs else 0.0
            d["free"] = bool(rs and not rs.claimed)
            out.append(d)
        return out

    def people_needed(self) -> list[int]:
        """Seats of people the next deal waits for (connected remote seats, and the
        host's own people)."""
        need = [s for s, rs in self.seats.items() if rs.conn is not None]
        return need

    def host_people(self) -> list[int]:
        return [i for i, s in enumerate(self.session.seats) if not s.is_ai and i not in self.seats]

    def waiting(self, viewer: int | None = None) -> str | None:
        """What the table waits for, in words (for ``viewer``'s screen)."""
        g = self.game
        names = g.names
        free = [s for s, rs in self.seats.items() if not rs.claimed]
        dropped = [
            (names[s], self.hold_left(rs))
            for s, rs in self.seats.items()
            if rs.claimed and rs.conn is None and not rs.taken_over
        ]
        not_ready: list[str] = []
        if g.deal_over and not g.match_over:
            not_ready = [names[s] for s in self.people_needed() if s not in self.ready_seats]
            if self.host_people() and not self.host_ready:
                not_ready += [names[s] for s in self.host_people()]
            if viewer is not None and 0 <= viewer < len(names):
                not_ready = [n for n in not_ready if n != names[viewer]]
        return waiting_text([names[s] for s in free], dropped, not_ready, self.code, viewer is None)

    # ----- joining ---------------------------------------------------------------------------
    def claim(self, name: str | None) -> RemoteSeat:
        """A new player takes the first free remote seat."""
        for rs in self.seats.values():
            if not rs.claimed:
                rs.claimed = True
                rs.name = name or self.session.seats[rs.seat].name
                g = self.game
                if name and not g.actions and g.deal_number <= 1 and name not in g.names:
                    from ..names import clean_name

                    clean = clean_name(name, g.names[rs.seat])
                    if clean not in g.names:
                        # before the first move, the game is dealt again with the new
                        # name: the same cards, and the deal's opening lines name them as
                        # a replay of the save will (a save is accepted only if it is its
                        # own replay)
                        names = list(g.names)
                        names[rs.seat] = clean
                        fresh = type(g)(g.players, dict(g.options), g.seed, names)
                        g.names, g.history = fresh.names, fresh.history
                        for c in self.conns:  # everyone gets the deal's log again
                            c.cursor = (-1, 0, 0)
                        self._public = self._public_log = None
                        self.session.seats[rs.seat].name = clean
                        for v in self.views:
                            v.names_changed()
                        self.session.save()
                rs.name = self.game.names[rs.seat]
                self.write_sidecar()
                return rs
        raise JoinRefused("The table is full.")

    def by_token(self, token: str) -> RemoteSeat:
        found = None
        for rs in self.seats.values():
            if hmac.compare_digest(rs.token.encode(), token.encode("utf-8", "surrogatepass")):
                found = rs
        if found is None or not found.claimed:
            raise JoinRefused("That reconnect token is not one of this table's.")
        return found

    def connect(self, rs: RemoteSeat, conn: Conn) -> None:
        old = rs.conn
        rs.conn = conn
        rs.dropped_at = None
        if rs.taken_over:
            rs.taken_over = False  # the person plays again (the AI's part stays marked)
            self.game.log(f"{says(self.game.names[rs.seat], 'is back')}.", None, kind="net")
            self.session.save()
        self.write_sidecar()
        self.conns.add(conn)
        if old is not None and old is not conn:
            old.seat = None
            self.conns.discard(old)
            old.bye("You joined this seat from elsewhere.")
        log.info("table %s: %s joined seat %d", self.code, rs.name, rs.seat)
        self._schedule(remote=True)

    def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        if conn.watching:
            self._schedule()  # the others see one spectator fewer
        seat = conn.seat
        conn.seat = None
        rs = self.seats.get(seat) if seat is not None else None
        if rs is not None and rs.conn is conn:
            rs.conn = None
            rs.dropped_at = self.clock()
            self.ready_seats.discard(rs.seat)
            log.info("table %s: seat %d dropped; held %.0f s", self.code, rs.seat, self.hold_s)
            self._schedule(remote=True)

    # ----- spectators and chat ----------------------------------------------------------------
    @property
    def spectators(self) -> list[Conn]:
        return [c for c in self.conns if c.watching]

    def watch(self, conn: Conn, name: str | None) -> None:
        """``conn`` watches the table: the public view only (no hand, no decision)."""
        from ..names import clean_name

        self._spectators_seen += 1
        conn.table = self
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
            rs.dropped_at = self.clock()
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

    def chat(self, seat: int | None, text: str, name: str = "", watching: bool = False) -> None:
        """One chat line to everybody at the table (the players, the spectators and the
        host's screen). ``text`` is cleaned again here (the host's own lines too)."""
        clean = P.clean_chat(text)
        if not clean:
            return
        if seat is not None:
            name = self.game.names[seat]
        msg: dict[str, Any] = {
            "type": "chat",
            "seat": seat,
            "name": P.clean_chat(name)[:40],
            "watching": watching,
            "text": clean,
            "at": round(time.time(), 1),
            "deal": self.game.deal_number,
        }
        try:  # only a line that can be sent is kept for those who join later
            P.encode(msg)
        except P.Unsendable as e:
            log.warning("table %s: a chat line was not sent: %s", self.code, e)
            return
        self.chat_log.append((len(self.game.history), msg))
        for c in list(self.conns):
            c.send(msg)
        for v in self.views:
            try:
                v.chat_arrived(msg)
            except Exception:  # the host's screen: the others still get the line
                log.exception("the host's screen could not take a chat line")
        loop = self.loop
        if loop is not None and not loop.is_closed():
            for v in self.views:
                loop.call_soon_threadsafe(v.changed_elsewhere)

    def public_observation(self) -> dict[str, Any]:
        """What every seat sees: the parts of all the seats' observations that are the
        same for each (a hand, a secret choice, a seat's own prompt are left out, or
        blank), so it holds no card hidden from any seat. Without the log (see
        :meth:`public_state`)."""
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
            views = [dict(g.observation(s)) for s in range(g.players)]
        finally:
            g.history = full
        for v in views:
            v.pop("history", None)
        _, obs = _common(views)
        obs = dict(obs) if isinstance(obs, dict) else {}
        obs["seat"] = None
        obs["hand"] = []
        self._public = (key, obs)
        return obs

    def public_log(self, start: int) -> list[dict[str, Any]]:
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
            logs = [list(g.observation(s).get("history", [])) for s in range(g.players)]
        finally:
            g.history = full
        out = []
        for i, entry in enumerate(logs[0]):
            if all(i < len(other) and other[i] == entry for other in logs[1:]):
                out.append(entry)
            else:
                break
        self._public_log = (key, out)
        return out

    def public_state(
        self, cursor: tuple[int, int, int] = (-1, 0, 0)
    ) -> tuple[dict[str, Any], tuple[int, int, int]]:
        """A spectator's ``state``: ``seat`` null, the public observation, no decision,
        no legal moves."""
        g = self.game
        deal, raw, count = cursor
        if deal != g.deal_number:
            deal, raw, count = g.deal_number, 0, 0
        fresh = self.public_log(raw)
        cursor = (deal, raw + len(fresh), count + len(fresh))
        msg = {
            "type": "state",
            "seat": None,
            "n": len(g.actions),
            "deal": g.deal_number,
            "deal_over": g.deal_over,
            "match_over": g.match_over,
            "to_act": list(g.to_act()),
            "decision": None,
            "legal": [],
            "observation": self.public_observation(),
            "log_from": count,
            "log": fresh,
            "totals": list(g.totals),
            "results": [r.to_json() for r in g.results],
            "seats": self.seats_json(-1),
            "ready": sorted(self.ready_seats),
            "waiting": self.waiting(-1),
            "watching": len(self.spectators),
            "can_sit": self.allow_sit and any(not rs.claimed for rs in self.seats.values()),
        }
        return msg, cursor

    # ----- moves -------------------------------------------------------------------------------
    def apply(self, seat: int, action: Action, remote: bool = True) -> None:
        """Apply through the session (checked by the engine; IllegalAction with the
        reason, nothing changed)."""
        self._origin_remote = remote
        try:
            self.session.apply(seat, action)
        finally:
            self._origin_remote = False

    def ready(self, seat: int | None) -> None:
        """``seat`` (``None``: the host's people) is ready for the next deal."""
        g = self.game
        if not g.deal_over or g.match_over:
            return
        if seat is None:
            self.host_ready = True
        else:
            self.ready_seats.add(seat)
        self._schedule(remote=seat is not None)

    def _maybe_next_deal(self) -> None:
        g = self.game
        if not g.deal_over or g.match_over or g.to_act():
            return
        need = self.people_needed()
        host = self.host_people()
        if not need and not host:
            return  # nobody at the table: wait for someone
        if any(s not in self.ready_seats for s in need):
            return
        if host and not self.host_ready:
            return
        self.ready_seats.clear()
        self.host_ready = False
        self._origin_remote = True
        try:
            self.session.next_deal()
        finally:
            self._origin_remote = False

    # ----- holds and the AI ----------------------------------------------------------------------
    def _check_holds(self) -> None:
        g = self.game
        if g.deal_over:
            return
        wake: float | None = None
        for s in g.to_act():
            rs = self.seats.get(s)
            if rs is None or not rs.claimed or rs.conn is not None or rs.taken_over:
                continue
            left = self.hold_left(rs)
            if left <= 0:
                self.take_over(rs)
            else:
                wake = left if wake is None else min(wake, left)
        if wake is not None and self.loop is not None:
            if self._hold_timer is not None:
                self._hold_timer.cancel()
            self._hold_timer = self.loop.call_later(wake + 0.01, self._schedule)

    def take_over(self, rs: RemoteSeat) -> None:
        """The hold ran out on this seat's turn: the AI plays it (in the log, in the
        seats of the save: the history does not count the match as the person's)."""
        rs.taken_over = True
        rs.ever_taken = True
        name = self.game.names[rs.seat]
        seat_cfg = self.session.seats[rs.seat]
        if not seat_cfg.is_ai:
            self.session.seats[rs.seat] = SeatConfig(seat_cfg.name, AI, TAKEOVER_LEVEL)
            self.session.ai_rngs.setdefault(rs.seat, ai_rng(self.game.seed, rs.seat))
            self.session._agents.pop(rs.seat, None)
        self.game.log(f"{says(name, 'is away')}: the AI plays for them.", None, kind="net")
        self.session.save()
        self.write_sidecar()
        log.info("table %s: the AI plays seat %d", self.code, rs.seat)
        self._schedule(remote=True)

    @property
    def started(self) -> bool:
        """Every remote seat has had a player: play may begin (nobody moves before,
        the AI included, so the match starts with everybody seated)."""
        return all(rs.claimed for rs in self.seats.values())

    NOT_STARTED = "The game starts when every seat has a player."

    def server_ai_to_act(self) -> list[int]:
        """AI seats the server moves: a remote seat the AI took over, and (headless)
        every AI seat."""
        if not self.started:
            return []
        out = []
        for s in self.game.to_act():
            rs = self.seats.get(s)
            if rs is not None:
                if rs.taken_over:
                    out.append(s)
            elif self.drive_ai and self.session.seats[s].is_ai:
                out.append(s)
        return out

    def _drive(self) -> None:
        if self._ai_task is not None or self.loop is None or not self.server_ai_to_act():
            return
        self._ai_task = self.loop.create_task(self._ai_turns())

    async def _ai_turns(self) -> None:
        try:
            while not self.closed:
                seats = self.server_ai_to_act()
                if not seats or self.game.deal_over:
                    return
                if self.ai_pause > 0:
                    await asyncio.sleep(self.ai_pause)
                seats = self.server_ai_to_act()
                if not seats:
                    return
                seat = seats[0]
                s = self.session
                n = len(s.game.actions)
                inputs = s.ai_inputs(seat)
                own = s.ai_rngs.setdefault(seat, ai_rng(s.game.seed, seat))
                rng = random.Random()
                rng.setstate(own.getstate())
                agent = s.agent(seat)
                obs, legal, decision = inputs
                action = await asyncio.to_thread(agent.choose, obs, legal, decision, rng)
                if (
                    self.closed
                    or len(s.game.actions) != n
                    or seat not in self.server_ai_to_act()  # the person came back
                    or s.game.check(seat, action)
                ):
                    continue
                own.setstate(rng.getstate())
                self.apply(seat, action, remote=True)
        finally:
            self._ai_task = None
            if not self.closed:
                self._schedule()

    # ----- what a seat receives ----------------------------------------------------------
    def state_for(
        self, seat: int, cursor: tuple[int, int, int] = (-1, 0, 0)
    ) -> tuple[dict[str, Any], tuple[int, int, int]]:
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
            obs = dict(g.observation(seat))
        finally:
            g.history = full
        fresh = obs.pop("history", [])
        log_from = count
        cursor = (deal, len(full), count + len(fresh))
        to_act = list(g.to_act())
        decision = g.decision(seat) if seat in to_act and self.started else None
        legal = [a.to_json() for a in g.legal_actions(seat)] if decision else []
        rs = self.seats.get(seat)
        if rs is not None and rs.taken_over:
            decision, legal = None, []
        msg = {
            "type": "state",
            "seat": seat,
            "n": len(g.actions),
            "deal": g.deal_number,
            "deal_over": g.deal_over,
            "match_over": g.match_over,
            "to_act": to_act,
            "decision": decision.to_json() if decision else None,
            "legal": legal,
            "observation": obs,
            "log_from": log_from,
            "log": fresh,
            "totals": list(g.totals),
            "results": [r.to_json() for r in g.results],
            "seats": self.seats_json(seat),
            "ready": sorted(self.ready_seats),
            "waiting": self.waiting(seat),
            "watching": len(self.spectators),
        }
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
        if self._ai_task is not None:
            self._ai_task.cancel()
        with contextlib.suppress(ValueError):
            self.session.listeners.remove(self._session_changed)


def _blank(value: Any) -> Any:
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


def _common(values: list[Any]) -> tuple[bool, Any]:
    """The part of ``values`` that is the same in each: (True, it) — equal values whole,
    objects key by key, lists of objects of one length item by item, lists of cards of
    one length card by card where each card differs only by being face down (``??``) to
    some seat — or (False, None)."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return True, json.loads(json.dumps(first))
    if all(isinstance(v, dict) for v in values):
        out: dict[str, Any] = {}
        for k, v0 in first.items():
            if all(k in v for v in values[1:]):
                ok, val = _common([v[k] for v in values])
                out[k] = val if ok else _blank(v0)
        return True, out
    if (
        all(isinstance(v, list) for v in values)
        and len({len(v) for v in values}) == 1
        and all(isinstance(x, dict) for v in values for x in v)
    ):
        items = []
        for i in range(len(first)):
            ok, val = _common([v[i] for v in values])
            items.append(val if ok else {})
        return True, items
    if (
        all(isinstance(v, list) for v in values)
        and len({len(v) for v in values}) == 1
        and all(isinstance(x, str) for v in values for x in v)
        and all(
            len({v[i] for v in values}) == 1 or any(v[i] == HIDDEN for v in values)
            for i in range(len(first))
        )
    ):
        # cards some seats see face down (2v1's face-down lead, a blindfold's follows):
        # what every seat sees stays, a card any seat sees face down is face down
        return True, [
            first[i] if len({v[i] for v in values}) == 1 else HIDDEN for i in range(len(first))
        ]
    return False, None


def _mmss(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


# ----- one connection ---------------------------------------------------------------------------
_STATE = object()


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
        self.outbox: deque[Any] = deque()
        self.wake = asyncio.Event()
        self.cursor = (-1, 0, 0)  #: what of the log this connection was sent
        self.closing = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def push_state(self) -> None:
        if (self.seat is not None or self.watching) and _STATE not in self.outbox:
            self.outbox.append(_STATE)
            self.wake.set()

    def send(self, msg: dict[str, Any]) -> None:
        self.outbox.append(msg)
        self.wake.set()

    def bye(self, reason: str) -> None:
        self.send({"type": "bye", "reason": reason})
        self.closing = True
        self.wake.set()

    def refuse(self, code: str, reason: str, req: Any = None) -> None:
        self.bad += 1
        self.send(P.error(code, reason, req))
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
                    if item is _STATE:
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


class TableServer:
    """A WebSocket server hosting tables by join code.

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
    ) -> None:
        self.tables: dict[str, HostedTable] = {}
        self.chat_rate = chat_rate
        self.chat_burst = chat_burst
        #: other doors to the same tables (the SSH door): started after the WebSocket
        #: server listens, closed before it stops
        self.doors: list[Any] = []
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
        if len(self.conns) >= self.max_connections:
            await ws.close(1013, "The host is full: try again later.")
            return
        conn = Conn(ws, self)
        self.conns.add(conn)
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.join_timeout, self._join_late, conn)
        try:
            closing_at = 0.0
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
            msg = P.decode_client(raw)
            self._dispatch(conn, msg)
        except P.BadMessage as e:
            conn.refuse(e.code, str(e), e.req)
            return False
        if conn.bad:
            conn.bad -= 1  # garbage is what keeps coming: a good message counts too
        return True

    def _dispatch(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg["id"]
        v = msg["v"]
        if kind == "hello":
            if v < P.MIN_VERSION:
                conn.send(
                    P.error(
                        P.E_UPGRADE,
                        f"This host speaks protocol {P.PROTOCOL_VERSION}; your twos-tui is "
                        "too old: update it (pip install -U twos-tui).",
                        rid,
                    )
                )
                conn.bye("Update twos-tui to join this table.")
                return
            if v > P.PROTOCOL_VERSION:
                conn.send(
                    P.error(
                        P.E_NEWER,
                        f"This host runs an older twos-tui (protocol {P.PROTOCOL_VERSION}): "
                        "ask the host to update.",
                        rid,
                    )
                )
                conn.bye("The host's twos-tui is older than yours.")
                return
            conn.hello = True
            conn.send({"type": "answer", "id": rid, "kind": "hello", "result": None})
            return
        if not conn.hello:
            raise P.BadMessage("Say hello first (with your protocol version).", P.E_HELLO, rid)
        if kind == "leave":
            conn.bye("Goodbye.")
            return
        if kind == "ping":
            conn.send({"type": "answer", "id": rid, "kind": "ping", "result": "pong"})
            return
        if kind == "join":
            self._join(conn, msg)
            return
        table, seat = conn.table, conn.seat
        if table is None:
            raise P.BadMessage("Join a table first.", P.E_JOIN_FIRST, rid)
        if kind == "chat":
            if not conn.chat_bucket.take():
                raise P.BadMessage("You are chatting too fast: wait a moment.", P.E_TOO_FAST, rid)
            table.chat(seat, msg["text"], conn.name, conn.watching)
            conn.send({"type": "answer", "id": rid, "kind": "chat", "result": None})
            return
        if kind == "watch":
            if conn.watching:
                raise P.BadMessage("You are watching already.", P.E_NOT_NOW, rid)
            table.leave_seat(conn)
            conn.push_state()  # the public view comes first, then the answer
            conn.send({"type": "answer", "id": rid, "kind": "watch", "result": None})
            return
        if kind == "sit":
            if not conn.watching:
                raise P.BadMessage("You have a seat already.", P.E_NOT_NOW, rid)
            try:
                rs = table.sit(conn, msg["name"])
            except JoinRefused as e:
                raise P.BadMessage(str(e), P.E_NOT_NOW, rid) from None
            conn.send(self._welcome(table, rid, rs))
            conn.push_state()
            return
        if seat is None:
            raise P.BadMessage(
                "Spectators watch: take a free seat (sit) to play.", P.E_NOT_NOW, rid
            )
        g = table.game
        if kind in ("check", "describe"):
            action: Action = msg["action"]
            if not table.started:
                result = table.NOT_STARTED if kind == "check" else None
            elif kind == "check":
                result = g.check(seat, action)
            else:
                result = g.describe(seat, action) if g.check(seat, action) is None else None
            if result is not None:
                result = table.scrub(seat, result, action.cards)
            conn.send({"type": "answer", "id": rid, "kind": kind, "result": result})
            return
        if kind == "ready":
            deal = msg["deal"]
            if not g.deal_over or g.match_over or (deal is not None and deal != g.deal_number):
                raise P.BadMessage("There is no next deal to be ready for now.", P.E_NOT_NOW, rid)
            table.ready(seat)
            conn.send({"type": "answer", "id": rid, "kind": "ready", "result": None})
            return
        # act
        action = msg["action"]
        n = msg["n"]
        if not table.started:
            raise P.BadMessage(table.NOT_STARTED, P.E_NOT_NOW, rid)
        if n is not None and n != len(g.actions):
            raise P.BadMessage("The table has moved on since that move was chosen.", P.E_STALE, rid)
        reason = g.check(seat, action)
        if reason is not None:
            raise P.BadMessage(table.scrub(seat, reason, action.cards), P.E_ILLEGAL, rid)
        try:
            table.apply(seat, action)
        except IllegalAction as e:  # checked just above: never expected
            raise P.BadMessage(table.scrub(seat, str(e), action.cards), P.E_ILLEGAL, rid) from None
        conn.push_state()
        answer: dict[str, Any] = {"type": "answer", "id": rid, "kind": "act", "result": None}
        if self.timings is not None:
            self._started[id(answer)] = self._arrived
        conn.send(answer)

    def _join(self, conn: Conn, msg: dict[str, Any]) -> None:
        rid = msg["id"]
        if conn.table is not None:
            raise P.BadMessage("You are at a table already.", P.E_JOIN, rid)
        table = self.table_for(msg["code"])
        if table is None or table.closed:
            raise P.BadMessage("No table here has that code.", P.E_JOIN, rid)
        note = None
        if msg["role"] == "watch" and not msg["token"]:
            rs = None
        else:
            try:
                rs = table.by_token(msg["token"]) if msg["token"] else table.claim(msg["name"])
            except JoinRefused as e:
                if msg["token"] or str(e) != "The table is full.":
                    raise P.BadMessage(str(e), P.E_JOIN, rid) from None
                rs, note = None, "The table is full: you are watching."
        if rs is None:  # a spectator
            table.watch(conn, msg["name"])
            welcome = self._welcome(table, rid, None)
            if note:
                welcome["note"] = note
            conn.send(welcome)
        else:
            conn.table = table
            conn.seat = rs.seat
            conn.cursor = (-1, 0, 0)
            conn.send(self._welcome(table, rid, rs))
            table.connect(rs, conn)
        for _, line in table.chat_log:  # the recent chat, for whoever arrives
            conn.send(line)
        conn.push_state()

    @staticmethod
    def _welcome(table: HostedTable, rid: Any, rs: RemoteSeat | None) -> dict[str, Any]:
        g = table.game
        msg: dict[str, Any] = {
            "type": "welcome",
            "id": rid,
            "role": "player" if rs is not None else "watch",
            "seat": rs.seat if rs is not None else None,
            "code": table.code,
            "table": {
                "variant": g.variant_id,
                "players": g.players,
                "options": g.options,
                "names": list(g.names),
                "hold_s": table.hold_s,
                "can_sit": table.allow_sit,
            },
        }
        if rs is not None:
            msg["token"] = rs.token
        return msg
