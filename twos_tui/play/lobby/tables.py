"""A lobby's table (:class:`LobbyTable`): a hosted table (:class:`~..net.table.HostedTable`)
and what the lobby knows of it besides — its id, public or private, rated or not, its
clock, and which account sits at each seat. Here: making one from a player's
:class:`~.model.CreateTable`, seating an account (the seat is claimed for them and held
until they join with its token), its line in the listing (:class:`~.model.TableInfo`,
never a card), its result for the store (:class:`~.model.MatchOutcome`) and its record
for a restart (:class:`~.model.TableRecord`)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..net.seats import JoinRefused, RemoteSeat
from ..net.table import HostedTable
from ..seat_view import AI, REMOTE
from .model import CreateTable, MatchOutcome, SeatInfo, TableInfo, TableRecord

#: how the lobby's AI seats are named in a table's listing and log
QUICK_AI_LEVEL = "normal"


def clock_text(clock: tuple[float, float] | None) -> str:
    """``(20, 120)`` as "20 s + 2 min" ("" for no clock)."""
    if clock is None:
        return ""
    per, bank = clock

    def words(s: float) -> str:
        if s >= 60 and s % 60 == 0:
            return f"{int(s // 60)} min"
        return f"{s:g} s"

    return f"{words(per)} + {words(bank)}"


def new_table_id() -> str:
    return "t-" + secrets.token_hex(4)


@dataclass
class LobbyTable:
    """One table of the lobby."""

    table_id: str
    hosted: HostedTable
    public: bool = True
    rated: bool = True
    #: the turn clock (seconds a move, bank seconds), as the hosted table runs it
    clock: tuple[float, float] | None = None
    #: the account at each person's seat (its name), once seated
    accounts: dict[int, str] = field(default_factory=dict)
    reported: bool = False  #: its result went to the store
    #: since when (the table's clock) nobody has been at it, before it started
    idle_since: float | None = None
    created: float = field(default_factory=time.time)

    @classmethod
    def create(cls, req: CreateTable, names: dict[int, str], **kw: Any) -> LobbyTable:
        """A new table for ``req``; ``names``: the accounts to seat at once (by seat).
        ValueError with the reason when the game cannot start so."""
        kinds = []
        for i in range(req.players):
            level = req.ai_seats[i] if i < len(req.ai_seats) else None
            kinds.append(AI if level is not None else REMOTE)
        if REMOTE not in kinds:
            raise ValueError("A lobby table needs at least one seat for a person.")
        levels = [req.ai_seats[i] if i < len(req.ai_seats) else None for i in range(req.players)]
        game_names = [names.get(i, "") for i in range(req.players)]
        hosted = HostedTable.create(
            req.game,
            kinds,
            names=game_names,
            options=dict(req.rules) or None,
            **{"clock": req.clock, **kw},
        )
        # each AI seat at its own level (create gives them all one)
        for i, level in enumerate(levels):
            if level is not None:
                cfg = hosted.session.seats[i]
                hosted.session.seats[i] = type(cfg)(cfg.name, AI, level)
        hosted.session.save()  # (the save names each seat's level: a restart keeps it)
        table = cls(new_table_id(), hosted, req.public, req.rated, req.clock)
        for seat, name in names.items():
            table.seat(name, seat)
        return table

    # ----- seats ---------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        return self.hosted.game

    def free_seats(self) -> list[int]:
        return [s for s, rs in self.hosted.seats.items() if not rs.claimed]

    def seat_of(self, name: str) -> int | None:
        for s, n in self.accounts.items():
            if n == name:
                return s
        return None

    def seat(self, name: str, seat: int | None = None) -> RemoteSeat:
        """Claim a free seat (``seat``, or the first) for the account ``name``: the
        seat is theirs, held for them (the table's hold) until they join with its
        token. :class:`JoinRefused` with the reason."""
        h = self.hosted
        if seat is not None and (seat not in h.seats or h.seats[seat].claimed):
            raise JoinRefused("That seat is not free.")
        others = [rs for s, rs in h.seats.items() if not rs.claimed and s != seat]
        if seat is not None:  # claim() takes the first free seat: the others wait aside
            for rs in others:
                rs.claimed = True
        try:
            rs = h.claim(name)
        finally:
            if seat is not None:
                for o in others:
                    o.claimed = False
        rs.dropped_at = h.now()  # held until they join (not taken over at once)
        self.accounts[rs.seat] = name
        h.write_sidecar()
        h._schedule()
        return rs

    # ----- what the lobby shows --------------------------------------------------------------
    def info(self, rating_of: Callable[[str, str], float | None]) -> TableInfo:
        h = self.hosted
        g = h.game
        seats = []
        for i, cfg in enumerate(h.session.seats):
            rs = h.seats.get(i)
            if rs is None:
                seats.append(SeatInfo(cfg.name, None, cfg.level if cfg.is_ai else None, True))
            elif not rs.claimed:
                seats.append(SeatInfo(None, None, None, False))
            else:
                name = self.accounts.get(i, rs.name)
                seats.append(
                    SeatInfo(name, rating_of(name, g.variant_id), None, rs.conn is not None)
                )
        return TableInfo(
            table_id=self.table_id,
            game=g.variant_id,
            players=g.players,
            rules=rules_text(g),
            seats=tuple(seats),
            spectators=len(h.spectators),
            public=self.public,
            rated=self.rated,
            clock=clock_text(self.clock),
            started=h.started,
        )

    # ----- the end, and a restart ------------------------------------------------------------
    def ended_at(self) -> float:
        """When the match ended, as its save says (the save's time, whole seconds): the
        same after a restart, so a result reported again is known to the store."""
        from .. import saves

        saves.WRITER.flush()
        try:
            return float(int(saves.save_path(self.hosted.session.save_id).stat().st_mtime))
        except OSError:
            return float(int(time.time()))

    def outcome(self) -> MatchOutcome:
        """The match's result (when it is over): each seat's account (None for an AI;
        a person who joined by code, not through the lobby, in brackets: unrated) and
        place; a person the AI played for at the end counts as having left."""
        g = self.game
        h = self.hosted
        places = match_places(g)
        per_seat: list[tuple[str | None, int]] = []
        left: list[str] = []
        for i in range(g.players):
            name = self.accounts.get(i)
            rs = h.seats.get(i)
            if name is None and rs is not None and rs.claimed:
                # joined by code, not through the lobby: nobody's account (a name in
                # brackets is no account's), so counted as a guest
                name = f"({rs.name})"
            per_seat.append((name, places[i]))
            if name is not None and rs is not None and rs.taken_over:
                left.append(name)
        return MatchOutcome(
            table_id=self.table_id,
            game=g.variant_id,
            rated=self.rated,
            ended=self.ended_at(),
            places=tuple(per_seat),
            left=tuple(left),
            ai_levels=tuple(
                cfg.level if cfg.is_ai and i not in h.seats else None
                for i, cfg in enumerate(h.session.seats)
            ),
        )

    def record(self, process: str) -> TableRecord:
        return TableRecord(
            table_id=self.table_id,
            game=self.game.variant_id,
            save_id=self.hosted.session.save_id,
            public=self.public,
            rated=self.rated,
            code=self.hosted.code,
            process=process,
            updated=time.time(),
        )

    @classmethod
    def reopen(cls, rec: TableRecord, **kw: Any) -> LobbyTable:
        """The table of ``rec`` after a restart (its save and sidecar: the same code and
        tokens); the accounts are the seats' names."""
        made = ("level", "seed", "autosave")  # (how a new table is made: not a reopened one)
        hosted = HostedTable.reopen(rec.save_id, **{k: v for k, v in kw.items() if k not in made})
        table = cls(rec.table_id, hosted, rec.public, rec.rated, hosted.turn_clock)
        for s, rs in hosted.seats.items():
            if rs.claimed:
                table.accounts[s] = rs.name
        return table


def rules_text(g: Any) -> str:
    """The house rules that differ from the defaults, in short words ("" for none)."""
    out = []
    try:
        specs = g.option_specs(g.players)
    except Exception:
        return ""
    for s in specs:
        value = g.options.get(s.id, s.default)
        if value != s.default:
            out.append(f"{s.label}: {s.label_of(value)}")
    return ", ".join(out)


def match_places(g: Any) -> list[int]:
    """Each seat's final place (1 = best; ties share a place): the match's winners
    first, then the others by their totals."""
    winners = set(g.match_winners())
    sign = 1 if g.low_score_wins else -1
    order = sorted(range(g.players), key=lambda i: (i not in winners, sign * g.totals[i]))
    places = [0] * g.players
    prev: tuple[bool, int] | None = None
    for rank, i in enumerate(order, 1):
        key = (i not in winners, sign * g.totals[i])
        places[i] = places[order[rank - 2]] if prev == key else rank
        prev = key
    return places
