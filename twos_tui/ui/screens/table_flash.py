"""Bombs and catches at the table: a notice, and the board lit up for a moment."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .table import TableScreen

FLASH_SECONDS = 1.2  #: how long a bomb or a catch lights the table up


class Announcer:
    """Says what is news in the game's history and lights the table up for it."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        #: history entries before this index are old news (a loaded game's bombs too)
        self.seen = len(screen.game.history)
        self.until = 0.0  #: the event loop's time the highlight ends at
        self.timer: Any = None

    def announce(self) -> None:
        """A bomb or a catch: a notice and a short highlight of the table."""
        screen = self.screen
        g = screen.game
        if self.seen > len(g.history):  # an undo took moves back
            self.seen = len(g.history)
            screen.flow.rewound(len(g.history))
        new = g.history[self.seen :]
        self.seen = len(g.history)
        for entry in new:
            if entry.bomb:
                screen.app.notify(entry.text, title="Bomb!", severity="warning", timeout=4)
                self.flash()
            elif entry.kind == "trick" and "catches" in entry.text:
                screen.app.notify(entry.text, title="Catch!", timeout=4)
                self.flash()

    def flash(self) -> None:
        self.until = asyncio.get_event_loop().time() + FLASH_SECONDS
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.screen.set_timer(FLASH_SECONDS, self._over)

    def end_flash(self) -> None:
        """End the highlight now (what its timer does; tests drive it with this)."""
        if self.timer is not None:
            self.timer.stop()
        self.until = 0.0
        self._over()

    def flashing(self) -> bool:
        return self.until > asyncio.get_event_loop().time()

    def _over(self) -> None:
        self.timer = None
        screen = self.screen
        if screen.is_mounted:
            screen.board.show(screen.table_view())
