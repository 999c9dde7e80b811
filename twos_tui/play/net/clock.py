"""A hosted table's turn clock (:class:`ClockRole`): each person's seat gets ``per_move``
seconds for each move, then its bank runs down; when the bank is empty the host makes
the move for it — a pass where passing is legal, else the move the AI (at the takeover
level of :mod:`.holds`) chooses — and the log says so.

* The bank does not refill: it is the seat's spare time for the whole match. A move's own
  seconds come back at every move, so a player who always moves in time never touches
  it, and one who keeps stalling runs out once and then has the move time only.
* Only people's seats are timed: at the host's screen or joined from elsewhere, the
  latter once claimed. A seat the AI plays for (its hold ran out) has no clock until its
  person is back; then its bank is what it had left.
* A dropped seat's clock runs on while it is held (a drop does not stop the table's
  clock, as it does not in a chess club): when its time runs out first, the host moves
  for it and the seat stays held; when its hold runs out first, the AI takes the seat
  over as before (:mod:`.holds`) and its clock stops.
* Time is read through the table's ``now`` (injectable: tests move it by hand) and
  wakes through the loop's timers; a state carries every seat's clock as of the moment
  it is sent (:meth:`ClockRole.clock_state`), and screens count down from it.
* A table reopened after the host restarted keeps its rule (in the sidecar file), and
  every bank starts full again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass

from ...ai import Agent, RandomAgent, agent_for
from ...engine import Action, Decision
from ...engine.protocol import PASS
from ...engine.words import says
from ..turn_clock import ClockState, SeatClock
from .holds import HoldsRole

log = logging.getLogger("twos_tui.net")

#: the AI level that chooses a move whose time ran out (the takeover's level)
TIMEOUT_LEVEL = "normal"


@dataclass
class Turn:
    """A seat's running time: since ``started`` (``now`` time), for the move it is
    asked at ``key`` (the deal and how many moves the seat had made)."""

    started: float
    key: tuple[int, int]


class ClockRole(HoldsRole):
    """The turn clock of a hosted table (see the module's docstring)."""

    def _init_clock(self, clock: tuple[float, float] | None) -> None:
        self.turn_clock = (float(clock[0]), float(clock[1])) if clock is not None else None
        self.banks: dict[int, float] = {}
        self.turns: dict[int, Turn] = {}
        self._own_moves: dict[int, int] = {}
        self._moves_counted = 0
        self._clock_timer: asyncio.TimerHandle | None = None
        self._timeout_task: asyncio.Task[None] | None = None
        self._timeout_agents: dict[int, Agent] = {}  #: per seat, as the session's

    # ----- who is timed ----------------------------------------------------------------
    def timed(self, seat: int) -> bool:
        """A person plays ``seat`` (at the host's screen, or joined and not taken over
        by the AI)."""
        rs = self.seats.get(seat)
        if rs is not None:
            return rs.claimed and not rs.taken_over
        return not self.session.seats[seat].is_ai

    def bank_left(self, seat: int) -> float:
        assert self.turn_clock is not None
        return self.banks.get(seat, self.turn_clock[1])

    def _turn_key(self, seat: int) -> tuple[int, int]:
        g = self.game
        actions = g.actions
        if len(actions) < self._moves_counted:  # (taken back: count again)
            self._own_moves.clear()
            self._moves_counted = 0
        for s, _ in actions[self._moves_counted :]:
            self._own_moves[s] = self._own_moves.get(s, 0) + 1
        self._moves_counted = len(actions)
        return (g.deal_number, self._own_moves.get(seat, 0))

    # ----- keeping time ----------------------------------------------------------------
    def update_clock(self) -> None:
        """After a change (on the loop): turns that ended are charged to their banks,
        turns that began start, a seat out of time gets its move made, and a timer wakes
        the table when the next one would run out."""
        rule = self.turn_clock
        if rule is None or self.closed:
            return
        per_move = rule[0]
        now = self.now()
        g = self.game
        playing = self.started and not g.deal_over and not g.match_over
        asked = {s for s in g.to_act() if self.timed(s)} if playing else set()
        for seat, turn in list(self.turns.items()):
            if seat not in asked or self._turn_key(seat) != turn.key:
                used = max(0.0, now - turn.started - per_move)
                self.banks[seat] = max(0.0, self.bank_left(seat) - used)
                del self.turns[seat]
        wake: float | None = None
        for seat in sorted(asked):
            turn = self.turns.setdefault(seat, Turn(now, self._turn_key(seat)))
            left = turn.started + per_move + self.bank_left(seat) - now
            if left <= 0:
                # (again after each change until it is made: one AI move at a time)
                if self.loop is not None:
                    self.loop.call_soon(self.time_out, seat, turn.key)
            else:
                wake = left if wake is None else min(wake, left)
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        if wake is not None and self.loop is not None:
            self._clock_timer = self.loop.call_later(wake + 0.01, self._schedule)

    def clock_state(self) -> ClockState | None:
        """Every seat's clock now (``None``: the table has no clock)."""
        rule = self.turn_clock
        if rule is None:
            return None
        per_move = rule[0]
        now = self.now()
        out = []
        for seat in range(self.game.players):
            if not self.timed(seat):
                out.append(SeatClock(timed=False))
                continue
            bank = self.bank_left(seat)
            turn = self.turns.get(seat)
            if turn is None:
                out.append(SeatClock(move_left=per_move, bank_left=bank))
            else:
                out.append(SeatClock(running=True, move_left=per_move, bank_left=bank))
                out[-1] = out[-1].after(now - turn.started)
        return ClockState(per_move=per_move, bank=rule[1], seats=tuple(out))

    # ----- out of time -------------------------------------------------------------------
    def time_out(self, seat: int, key: tuple[int, int]) -> None:
        """``seat``'s time ran out at the move ``key``: it passes when it may, else the
        AI chooses its move (on a thread); the log says which."""
        if (
            self.closed
            or seat not in self.turns
            or seat not in self.game.to_act()
            or self._turn_key(seat) != key  # it moved meanwhile
        ):
            return
        g = self.game
        name = g.names[seat]
        passing = self._pass_of(seat)
        if passing is not None:
            g.log(f"{says(name, 'ran out of time')}: passed for them.", None, kind="net")
            log.info("table %s: seat %d ran out of time: passed", self.code, seat)
            self.apply(seat, passing, remote=True)
            return
        if self._timeout_task is None and self.loop is not None:
            self._timeout_task = self.loop.create_task(self._ai_moves_for(seat, key))

    async def _ai_moves_for(self, seat: int, key: tuple[int, int]) -> None:
        try:
            s = self.session
            g = s.game
            n = len(g.actions)
            obs, legal, decision = s.ai_inputs(seat)
            agent = self._timeout_agents.get(seat)
            if agent is None:
                try:
                    agent = agent_for(g.variant_id, TIMEOUT_LEVEL)
                except ImportError:  # (this game's AI is not installed: a legal move)
                    agent = RandomAgent()
                self._timeout_agents[seat] = agent
            rng = random.Random(f"{g.seed}-{seat}-{n}")
            action = await asyncio.to_thread(agent.choose, obs, legal, decision, rng)
            if (
                self.closed
                or len(g.actions) != n
                or seat not in self.turns
                or self._turn_key(seat) != key
                or g.check(seat, action)
            ):
                return  # the player moved after all (or the table moved on)
            at = len(g.history)
            self.apply(seat, action, remote=True)
            # the line goes before the move's own (made now: whether the cards are
            # public shows only after the move)
            did = self._what_ai_did(seat, action, decision)
            text = f"{says(g.names[seat], 'ran out of time')}: {did}"
            g.history.insert(at, {"seat": None, "text": text, "deal": g.deal_number, "kind": "net"})
            s.save()
            log.info("table %s: seat %d ran out of time: the AI moved", self.code, seat)
        finally:
            self._timeout_task = None
            if not self.closed:
                self._schedule(remote=True)

    def _pass_of(self, seat: int) -> Action | None:
        """The seat's pass, when passing is legal now: a pass, or the choice the game
        calls "Pass" (2v1's bid of none)."""
        g = self.game
        if g.check(seat, PASS) is None:
            return PASS
        decision = g.decision(seat)
        for choice in decision.choices if decision is not None else ():
            if choice.label.lower() == "pass" and g.check(seat, choice.action) is None:
                return choice.action
        return None

    def _what_ai_did(self, seat: int, action: Action, decision: Decision) -> str:
        """What the AI did, in words: "the AI played 3♠ for them" when the move's cards
        are face up now (every other seat sees them); a secret choice (cards passed, a
        card discarded face down) names none; a move without cards says its choice's
        label ("the AI chose bid 3 for them")."""
        g = self.game
        cards = list(action.cards or ())
        others = [s for s in range(g.players) if s != seat]
        if cards and not any(set(cards) & g.hidden_from(s) for s in others):
            labels = " ".join(g.card_face(c).label for c in cards)
            return f"the AI played {labels} for them."
        for choice in decision.choices if not cards else ():  # a bid, by its label
            if choice.action == action:
                return f"the AI chose {choice.label.lower()} for them."
        return "the AI chose their move for them."
