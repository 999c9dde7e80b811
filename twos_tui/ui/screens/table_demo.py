"""The demo table's controls (every seat an AI): space pauses and runs, ``n`` steps one
move while paused, ``f`` looks over the next seat's shoulder."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .table import TableScreen


class DemoControls:
    """Pause, step and follow for a table with no human seat."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.follow = 0  #: the seat whose hand is shown
        self.paused = False
        self.steps = 0  #: moves still to play while paused

    def may_move(self) -> bool:
        """Whether the next AI move may be made now (a step is used up if paused)."""
        if not self.paused or self.steps > 0:
            self.steps = max(0, self.steps - 1)
            return True
        return False

    def toggle_pause(self) -> None:
        screen = self.screen
        self.paused = not self.paused
        screen.refresh_bindings()
        self.steps = 0
        screen.refresh_view()
        if not self.paused:
            screen.advance()

    def step(self) -> None:
        screen = self.screen
        if not self.paused:
            self.paused = True
            screen.refresh_view()
            return
        self.steps = 1
        screen.advance()

    def next_seat(self) -> None:
        screen = self.screen
        self.follow = (self.follow + 1) % screen.game.players
        screen.refresh_view()
