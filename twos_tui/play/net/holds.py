"""The holds of a hosted table's dropped seats and the AI's takeovers: a seat whose
player dropped is held for them; when the hold runs out on its turn the AI plays it.
Also the AI seats the server plays itself, and the start of the next deal."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from ...ai import ai_rng
from ...engine import Action
from ...engine.words import says
from ..seat_view import AI
from ..session import SeatConfig
from .seats import RemoteSeat, SeatsRole

log = logging.getLogger("twos_tui.net")

TAKEOVER_LEVEL = "normal"


class HoldsRole(SeatsRole):
    """Holds and takeovers, the server's AI seats, moves and the next deal."""

    def apply(self, seat: int, action: Action, remote: bool = True) -> None:
        """Apply through the session (checked by the engine; IllegalAction with the
        reason, nothing changed)."""
        self._origin_remote = remote
        try:
            self.session.apply(seat, action)
        finally:
            self._origin_remote = False

    def when_saved(self, then: Callable[[], None]) -> None:
        """Call ``then`` once the session's last save is on disk (on the table's loop;
        the disk is waited for on a worker thread, never on the loop): a move is
        answered only when a restart would find it, so a server killed between the two
        loses no move it answered for."""
        loop = self.loop
        if not self.session.autosave or loop is None or loop.is_closed():
            self.session.flush()
            then()
            return
        done = loop.run_in_executor(None, self.session.flush)
        done.add_done_callback(lambda _: then())

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
