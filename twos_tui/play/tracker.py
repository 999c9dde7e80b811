"""What a :class:`~twos_tui.play.session.Session` keeps beside the game for the history
and for undo: the time at the table, where the current deal's actions begin, the points
a human acted at (with the AI generators' states then), and whether the finished deal
was handed to the history's recorder.

The session calls it from a few hooks (after an action, at the next deal); nothing
here knows a rule: rewinding is replaying the match's actions with the engine.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..engine import Action, Game, new_game
from . import history
from .history_records import DealRecord
from .save_data import ClockJson

if TYPE_CHECKING:
    from .session import Session


class UndoRefused(Exception):
    """Undo is not possible now; ``str(err)`` says why, in a player's words."""


@dataclass(frozen=True)
class UndoPoint:
    """Where a human acted: the game had ``index`` actions, and the AI generators'
    states then (so the AI replies the same way if the same move is made again)."""

    index: int
    seat: int
    deal_number: int
    rng_states: dict[int, tuple[Any, ...]]


def rebuild(game: Game, upto: int, deal_number: int | None = None) -> Game:
    """The same match replayed by the engine through its first ``upto`` actions; with
    ``deal_number``, a deal that had begun then (no move made in it yet) is dealt too."""
    g = new_game(game.variant_id, game.players, dict(game.options), game.seed, list(game.names))
    for seat, a in game.actions[:upto]:
        if g.deal_over and not g.match_over and not g.to_act():
            g.next_deal()
        g.apply(seat, Action.from_json(a))
    while deal_number is not None and g.deal_number < deal_number and g.deal_over:
        if g.match_over:
            break
        g.next_deal()
    return g


def current_deal_start(game: Game) -> int:
    """The index in ``game.actions`` of the current deal's first action (replayed by the
    engine when the match is past its first deal)."""
    if game.deal_number <= 1:
        return 0
    g = new_game(game.variant_id, game.players, dict(game.options), game.seed, list(game.names))
    start = 0
    for i, (seat, a) in enumerate(game.actions):
        if g.deal_over and not g.match_over and not g.to_act():
            g.next_deal()
            start = i
        g.apply(seat, Action.from_json(a))
    if g.deal_number < game.deal_number:  # saved just after next_deal: nothing played yet
        start = len(game.actions)
    return start


def _seconds(clock: ClockJson | None, key: Literal["match", "deal"]) -> float:
    """A time from a save's ``clock`` (0 when missing or not a sensible number)."""
    v = clock[key] if clock is not None else None
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v < 1e9:
        return 0.0
    return float(v)


class Tracker:
    def __init__(self, game: Game, clock: ClockJson | None = None) -> None:
        self._t0 = time.monotonic()
        self._match_time = _seconds(clock, "match")  #: seconds at the table before t0
        self._deal_time = _seconds(clock, "deal")
        self.points: list[UndoPoint] = []
        self.recorded_deal: int | None = None
        try:
            self.deal_start = current_deal_start(game)
        except (ValueError, KeyError, TypeError, IndexError):
            # a save the engine cannot replay: its deals are recorded with the whole list
            self.deal_start = 0

    # ----- hooks --------------------------------------------------------------------
    def applied(self, session: Session, seat: int, index: int) -> None:
        """After ``seat``'s action (the game had ``index`` actions before it)."""
        g = session.game
        if not session.seats[seat].is_ai and not session.hot_seat:
            rngs = {s: r.getstate() for s, r in session.ai_rngs.items()}
            self.points.append(UndoPoint(index, seat, g.deal_number, rngs))
        if g.deal_over:
            self.record(session)

    def new_deal(self, game: Game) -> None:
        """After ``next_deal``."""
        self._match_time, _ = self.elapsed()
        self._deal_time = 0.0
        self._t0 = time.monotonic()
        self.points.clear()
        self.deal_start = len(game.actions)

    def elapsed(self) -> tuple[float, float]:
        """Seconds at this table: in the match, in the current deal."""
        d = time.monotonic() - self._t0
        return self._match_time + d, self._deal_time + d

    def clock_json(self) -> ClockJson:
        match, deal = self.elapsed()
        return {"match": match, "deal": deal}

    # ----- undo ---------------------------------------------------------------------
    def can_undo(self, session: Session) -> str | None:
        g = session.game
        if session.hot_seat:
            return "No undo at a shared table: the other players have already seen your move."
        if g.deal_over:
            return "This deal is over and in the history: it cannot be taken back."
        if not any(p.deal_number == g.deal_number for p in self.points):
            humans = set(session.humans)
            if any(s in humans for s, _ in g.actions[self.deal_start :]):
                return "Undo reaches back only to moves made since this game was opened."
            return "Nothing to undo yet in this deal."
        return None

    def undo(self, session: Session) -> int:
        reason = self.can_undo(session)
        if reason is not None:
            raise UndoRefused(reason)
        g = session.game
        while self.points[-1].deal_number != g.deal_number:
            self.points.pop()
        point = self.points[-1]
        try:
            rebuilt = rebuild(g, point.index, g.deal_number)
        except Exception as e:  # the engine cannot replay the moves: keep the game as it is
            raise UndoRefused(
                f"This game's moves cannot be replayed, so nothing was taken back ({e})"[:200]
            ) from e
        if rebuilt.deal_number != g.deal_number:  # never crosses into another deal
            raise UndoRefused("That move belongs to another deal.")
        self.points.pop()
        taken = len(g.actions) - point.index
        session.game = rebuilt
        # new generator objects: an AI still thinking on a worker thread keeps the old
        rngs = {}
        for s, state in point.rng_states.items():
            r = random.Random()
            r.setstate(state)
            rngs[s] = r
        session.ai_rngs = rngs
        session._agents = {}
        if session.record_history:
            history.RECORDER.submit(
                {
                    "type": "undo",
                    "match_key": session.save_id,
                    "deal_number": g.deal_number,
                    "seat": point.seat,
                    "taken_back": taken,
                    "at": time.time(),
                }
            )
        return taken

    # ----- history ------------------------------------------------------------------
    def record(self, session: Session) -> None:
        """Hand the finished deal to the history's recorder (written on its thread)."""
        g = session.game
        r = g.last_result
        if r is None or not g.deal_over or self.recorded_deal == g.deal_number:
            return
        self.recorded_deal = g.deal_number
        if not session.record_history:
            return
        start = self.deal_start
        match_s, deal_s = self.elapsed()
        now = time.time()
        rec: DealRecord = {
            "type": "deal",
            "match_key": session.save_id,
            "variant": g.variant_id,
            "variant_name": g.name,
            "players": g.players,
            "options": dict(g.options),
            "seed": g.seed,
            "names": list(g.names),
            # a hosted table's remote players are recorded on their own computers
            "seats": [
                {**s.to_json(), "kind": "remote"} if i in session.remote_seats else s.to_json()
                for i, s in enumerate(session.seats)
            ],
            "score_label": g.score_label,
            "low_score_wins": bool(g.low_score_wins),
            "deal_number": r.deal_number,
            "first_action": start,
            "actions": [[seat, a] for seat, a in g.actions[start:]],
            "prefix": [[seat, a] for seat, a in g.actions[:start]],
            "changes": list(r.changes),
            "totals": list(r.totals),
            "winners": list(r.winners),
            "summary": r.summary,
            "details": list(r.details),
            "started": now - deal_s,
            "ended": now,
            "duration": deal_s,
            "match_over": g.match_over,
            "match_winners": g.match_winners() if g.match_over else None,
            "match_started": now - match_s,
            "match_duration": match_s,
        }
        history.RECORDER.submit(rec)
