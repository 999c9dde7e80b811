"""AI turns at the table. The screen's worker (``TableScreen.ai_turn``, an exclusive
worker in the "ai" group: leaving the table or an undo cancels it) runs :meth:`AiTurns.turn`:
wait for the pace, decide off the UI thread (:mod:`twos_tui.ui.ai_runner`), then play
the move unless a simultaneous human choice changed the game meanwhile."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.worker import WorkerState

from ..ai_runner import commit, decide

if TYPE_CHECKING:
    from .table import TableScreen

BUSY = (WorkerState.PENDING, WorkerState.RUNNING)


class AiTurns:
    """The AI seats' moves, and which seat is thinking."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.thinking: int | None = None  #: the seat deciding now (shown "thinking…")

    @property
    def busy(self) -> bool:
        """An AI worker of this table is waiting or deciding."""
        screen = self.screen
        return any(
            w.group == "ai" and w.node is screen and w.state in BUSY for w in screen.app.workers
        )

    def trick_just_finished(self) -> bool:
        """The last thing that happened finished a trick (or a 2v1 hand)."""
        screen = self.screen
        g = screen.game
        if not g.history or g.history[-1].get("kind") not in ("trick", "hand"):
            return False
        obs = g.observation(screen.table_view().me)
        return type(screen.board).holds_finished_trick(obs)

    async def turn(self) -> None:
        """One AI move: wait for the pace, decide off the UI thread, then play it."""
        screen = self.screen
        table = screen.table
        seats = table.ai_to_act()
        if not seats or screen.game.deal_over:
            return
        sync = getattr(screen.app, "ai_sync", False)
        move, hold = screen.pace()
        delay = max(move, hold if self.trick_just_finished() else 0.0)
        if delay > 0:
            await asyncio.sleep(delay)
        seats = table.ai_to_act()
        if not seats:
            return
        s = screen.session  # AI seats move only at a table played on this computer
        seat = seats[0]
        n_actions = table.action_count
        if not sync:
            # the last move's autosave is on disk before the AI moves on
            await asyncio.to_thread(s.flush)
            self.thinking = seat
            screen.refresh_view()
        try:
            action, rng = await decide(s, seat, sync)
        finally:
            self.thinking = None
        if table.action_count != n_actions or s.game.check(seat, action) is not None:
            screen.advance()  # a simultaneous human choice changed the state: ask again
            return
        if sync:
            s.flush()
        commit(s, seat, rng)
        s.apply(seat, action)
        screen.after_change()

    def cancelled(self) -> None:
        """The worker was cancelled: nobody is thinking any more."""
        self.thinking = None
