"""Seats at a table played from several computers: moves made elsewhere heard of, chat
(``c``), a spectator taking a free seat (``j``), a player leaving their seat to watch
(``w``, twice), the table's info (``i``); the hand shown following the seat when it
changes (a spectator's screen shows none); and the turn clock on the seat boxes
(:class:`SeatClocks`)."""

from __future__ import annotations

import asyncio
import contextvars
from typing import TYPE_CHECKING

from rich.text import Text

from ...play.seat_view import REMOTE, SeatInfo

if TYPE_CHECKING:
    from textual.timer import Timer

    from .table import TableScreen

#: how often a screen looks at the turn clock (it redraws only when a shown second changes)
CLOCK_TICK_S = 0.25


def join_notes(*notes: str) -> str:
    return " · ".join(n for n in notes if n)


def seat_note(seat: SeatInfo) -> str:
    """What the seat panel adds about a seat played from another computer."""
    if seat.kind != REMOTE:
        return seat.note
    return seat.note or ("" if seat.connected else "away")


class SeatChanges:
    """Who sits at this screen, and the keys that change it."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.watch_armed: int | None = None  #: ``w`` pressed once at this move
        self.could_sit = False  #: "j Take a seat" shown (see :meth:`changed_elsewhere`)

    def listen(self) -> None:
        """Hear of moves made elsewhere (players on other computers, a hosted table's
        AI): they come from the network's thread or the server's callbacks, and the
        screen's :meth:`~TableScreen.changed_elsewhere` runs on the UI's turn."""
        screen = self.screen
        loop = asyncio.get_running_loop()
        # (in the UI's context, not the calling thread's: what the redraw starts, such
        # as the deal end's timer, needs the app's context variables)
        context = contextvars.copy_context()

        def listener() -> None:
            loop.call_soon_threadsafe(screen.changed_elsewhere, context=context.copy())

        screen.table.set_listener(listener)
        self.could_sit = screen.table.can_sit

    def changed_elsewhere(self) -> None:
        """The table changed by a move not made at this screen: the seat shown follows,
        and the key bar when a seat came free or was taken."""
        screen = self.screen
        if self.follow_seat():
            # the host's news moved this screen's seat (its answer to ``w`` or ``j``
            # came after the screen stopped waiting for it): say where it stands now
            screen.show_message(self.seat_message())
        can_sit = screen.table.can_sit
        if can_sit != self.could_sit:
            self.could_sit = can_sit
            screen.refresh_bindings()

    def follow_seat(self) -> bool:
        """A joined table's seat can change: a spectator took a seat, a player left
        theirs to watch. The hand shown follows (a spectator's screen shows none);
        whether it changed."""
        screen = self.screen
        table = screen.table
        if not table.remote:
            return False
        want = table.humans[0] if table.humans else None
        if want == screen.viewer:
            return False
        screen.viewer = want
        screen.selection.selected.clear()
        self.watch_armed = None
        screen.refresh_bindings()
        return True

    def seat_message(self) -> str:
        """What the message line says once this screen's seat changed."""
        if self.screen.viewer is None:
            return "You are watching: no hand is shown."
        return "You took a seat: your hand is below."

    def chat(self) -> None:
        screen = self.screen
        if not screen.table.can_chat:
            screen.show_message("Chat is for tables with players on other computers.")
            return
        from .chat import ChatDialog

        def said(text: str | None) -> None:
            if text and text.strip():
                reason = screen.table.send_chat(text)
                if reason:
                    screen.show_message(reason, error=True)
            screen.refresh_view()

        screen.app.push_screen(ChatDialog(), said)

    def sit(self) -> None:
        screen = self.screen
        if not screen.table.can_sit:
            screen.show_message("There is no free seat to take.")
            return
        reason = screen.table.sit()
        if reason:
            screen.show_message(reason, error=True)
            return
        self.follow_seat()
        screen.show_message(self.seat_message())
        screen.after_change()

    def leave_to_watch(self) -> None:
        screen = self.screen
        table = screen.table
        if not table.can_leave_seat:
            return
        count = table.action_count
        if self.watch_armed != count:
            self.watch_armed = count
            screen.show_message("Press w again to leave your seat and watch (it is held for you).")
            return
        self.watch_armed = None
        reason = table.leave_seat()
        if reason and not table.watching:
            screen.show_message(reason, error=True)
            return
        self.follow_seat()
        screen.show_message(self.seat_message())
        screen.after_change()

    def table_info(self) -> None:
        screen = self.screen
        lines = screen.table.table_info()
        if not lines:
            screen.show_message("This table is played on this computer only.")
            return
        from .dialogs import InfoDialog

        title = f"{screen.game.name}: this table"
        screen.app.push_screen(InfoDialog(title, Text("\n".join(lines))))


class SeatClocks:
    """The turn clock of a hosted table on this screen: each seat's box shows its clock
    (the seat to act counting down, ``0:14 +1:52``: the move's time, then the bank after
    the +; the others their bank, ``bank 1:52``), the screen's own seat shows it on the
    line above its hand. It counts down here, between the host's states, from the times
    in the last one: a timer on the UI's loop looks every :data:`CLOCK_TICK_S` and
    redraws when a shown second changed."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.shown: tuple[str, ...] = ()  #: every seat's clock as last drawn
        self.timer: Timer | None = None

    def texts(self) -> tuple[str, ...]:
        """Every seat's clock in words now (none: the table has no clock)."""
        clock = self.screen.table.clock_now()
        if clock is None:
            return ()
        return tuple(clock.text(i) for i in range(len(clock.seats)))

    def notes(self) -> list[str]:
        """What each seat's box adds of its clock: the screen's own seat's goes above
        its hand (:meth:`mine`), a spectator's screen shows every seat's."""
        self.shown = self.texts()
        own = self.screen.seat_on_screen()
        return [t if i != own else "" for i, t in enumerate(self.shown)]

    def mine(self, seat: int | None) -> str:
        """The clock of ``seat`` (the screen's own), as last drawn."""
        if seat is None or not 0 <= seat < len(self.shown):
            return ""
        return self.shown[seat]

    def start(self) -> None:
        """Look at the clock every :data:`CLOCK_TICK_S` once the table has one."""
        if self.timer is None and self.screen.table.clock_now() is not None:
            self.timer = self.screen.set_interval(CLOCK_TICK_S, self.tick)

    def tick(self) -> None:
        if self.texts() != self.shown:
            self.screen.refresh_view()
