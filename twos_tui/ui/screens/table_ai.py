"""AI turns at the table. The screen's worker (``TableScreen.ai_turn``, an exclusive
worker in the "ai" group: leaving the table or an undo cancels it) runs :meth:`AiTurns.turn`:
wait for the pace, decide off the UI thread (:mod:`twos_tui.ui.ai_runner`), then play
the move unless a simultaneous human choice changed the game meanwhile."""

from __future__ import annotations

import asyncio
import math
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
        #: set while a finished trick is held on the table: a key sets it to play on
        self.go_on_event: asyncio.Event | None = None
        self.waiting_for: str | None = None  #: "move" or "trick" while the AI waits

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
        # 2v1: the hand's reveal, or the card going back just after it
        if not g.history or g.history[-1].kind not in ("trick", "hand", "return"):
            return False
        if not screen.is_attached or not screen.query("#board"):
            return False  # the table is being taken down (the app is closing)
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
        if self.trick_just_finished() and not screen.demo:
            # a finished trick stays until read: a moment, or until a key (any key at
            # the table ends the wait)
            await self.hold_trick(screen.flow.trick_hold())
        else:
            delay = max(move, hold if self.trick_just_finished() else 0.0)
            if delay > 0:
                await self.wait(delay, "move")
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

    async def hold_trick(self, seconds: float | None) -> None:
        """Keep the finished trick on the table for ``seconds`` (None: until a key), or
        until :meth:`go_on` (a key at the table; tests call it to drive the pause)."""
        if seconds is not None and seconds <= 0:
            return
        screen = self.screen
        said = "Any key: play on" if seconds is not None else "Press any key to play on"
        word = screen.trick_word
        note = f"{word.capitalize()} over. {said}."
        if not screen.messages.shown or not screen.messages.shown[0]:
            screen.show_message(note)
        try:
            await self.wait(seconds, "trick")
        finally:
            ours = screen.messages.shown == (note, "")
            if ours and screen.is_attached and screen.query("#message"):
                screen.show_message("")

    async def wait(self, seconds: float | None, what: str) -> None:
        """Wait ``seconds`` (None or infinity: until woken) before the AI moves; ``what``:
        "move" (the pace) or "trick" (a finished trick held). :meth:`go_on` ends a
        "trick" wait, :meth:`hurry` any. (Tests that look at a table while nothing moves
        pass ``ai_pause=math.inf``: the AI waits for them, not for a clock.)"""
        self.go_on_event = asyncio.Event()
        self.waiting_for = what
        timeout = None if seconds is None or math.isinf(seconds) else seconds
        try:
            await asyncio.wait_for(self.go_on_event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            self.go_on_event = None
            self.waiting_for = None

    @property
    def holding_trick(self) -> bool:
        """A finished trick is being held on the table (the AI waits to play on)."""
        return self.waiting_for == "trick"

    def go_on(self) -> None:
        """A key at the table: end the wait of a finished trick now."""
        if self.go_on_event is not None and self.waiting_for == "trick":
            self.go_on_event.set()

    def hurry(self) -> None:
        """End the AI's wait now, whatever it waits for (tests drive the pace with it,
        rather than racing it)."""
        if self.go_on_event is not None:
            self.go_on_event.set()

    def cancelled(self) -> None:
        """The worker was cancelled: nobody is thinking any more."""
        self.thinking = None
