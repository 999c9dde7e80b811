"""The seats of a hosted table and their tokens: join codes, who sits where, joining
and reconnecting by token, dropping, and what the table waits for in words."""

from __future__ import annotations

import hmac
import logging
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.words import says
from ..seat_view import AI, HUMAN, REMOTE, SeatInfo
from .messages import SeatEntry
from .status import waiting_text
from .table_base import SidecarSeat, TableBase

if TYPE_CHECKING:
    from .conn import Conn

log = logging.getLogger("twos_tui.net")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L


class JoinRefused(Exception):
    """A join that cannot be accepted; ``str()`` says why."""


def new_code() -> str:
    """A join code: 8 random characters (about 40 bits), shown as ``ABCD-EFGH``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalize_code(code: str) -> str:
    raw = re.sub(r"[\s-]", "", code).upper()
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == 8 else raw


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

    def to_json(self) -> SidecarSeat:
        return {
            "seat": self.seat,
            "token": self.token,
            "claimed": self.claimed,
            "name": self.name,
            "taken_over": self.taken_over,
            "ever_taken": self.ever_taken,
        }


class SeatsRole(TableBase):
    """Seats and tokens: who sits where, joining, reconnecting and dropping."""

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
        return max(0.0, self.hold_s - (self.now() - rs.dropped_at))

    def seat_entries(self, viewer: int | None) -> tuple[SeatEntry, ...]:
        """Every seat as a ``state`` for ``viewer`` tells it (see :meth:`seat_infos`)."""
        out = []
        for i, info in enumerate(self.seat_infos(viewer)):
            rs = self.seats.get(i)
            out.append(
                SeatEntry.of(
                    info,
                    ai_plays=bool(rs and rs.taken_over),
                    hold_left=round(self.hold_left(rs), 1) if rs else 0.0,
                    free=bool(rs and not rs.claimed),
                )
            )
        return tuple(out)

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
            rs.dropped_at = self.now()
            self.ready_seats.discard(rs.seat)
            log.info("table %s: seat %d dropped; held %.0f s", self.code, rs.seat, self.hold_s)
            self._schedule(remote=True)


def _mmss(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"
