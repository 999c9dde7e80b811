"""The flow of a deal at the table: after every action announce, redraw and hand the
turn on — to an AI worker, to the human at the screen, or (hot seat) through a "pass to
NAME" screen — and at the end of a deal hold the last trick for the pace's pause, then
show the deal-end screen and act on its choice."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text

from ..chrome import event_clock
from ..typed_app import twos_app

if TYPE_CHECKING:
    from textual import events

    from .dialogs import DealEndScreen
    from .table import TableScreen


RECAP_LINES = 6  #: the most lines a pass screen's recap shows
SPECTATOR_HOLD_S = 1.5  #: a spectator's look at the last play ("trick pause: until a key")
SPECTATOR_READ_S = 5.0  #: a spectator's summary stays this long at least (a key closes it)


class DealFlow:
    """Who moves next, and what comes between the moves."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.pass_pending = False  #: a "pass to NAME" screen is up
        self.deal_end_shown: int | None = None  #: the deal whose end screen was shown
        self.recap_from = 0  #: history index: where this deal's recaps start at most
        #: seat -> history index just after that seat's last move: its pass screen
        #: recaps everything after it
        self.seen_to: dict[int, int] = {}
        #: the event clock when the hand was last shown after a pass screen: keys pressed
        #: before it (meant for the pass screen) are dropped
        self.shown_at = 0.0
        self.deal_end_waiting = False  #: the deal is over; its summary waits (a key shows it)
        #: a spectator's deal-end dialog while it is open (closed when the next deal starts)
        self.watched_end: DealEndScreen | None = None
        self.watched_end_at = 0.0  #: when a spectator's summary opened (monotonic)
        self.close_timer = False  #: a timer will close a spectator's summary
        #: a spectator: the last deal that ended before this screen watched
        self.watched_from: int | None = None

    def pace(self) -> tuple[float, float]:
        """(before an AI move, after a finished trick) in seconds: the app's pace."""
        pace = getattr(self.screen.app, "pace", None)
        return pace() if pace is not None else (0.0, 0.0)

    def trick_hold(self) -> float | None:
        """Seconds a finished trick stays before an AI plays on at a table with a person
        (None: until a key): the app's trick pause."""
        hold = getattr(self.screen.app, "trick_hold", None)
        return hold() if hold is not None else 0.0

    def after_change(self) -> None:
        """After any action: announce, refresh, then hand the turn on."""
        screen = self.screen
        g = screen.game
        screen.announcer.announce()
        error = screen.table.save_error
        if error:
            screen.app.notify(error, severity="error")
        if screen.spectator:
            self.spectate()
            return
        if g.deal_over:
            screen.refresh_view()
            # the last play stays to be read: the demo's pace, or the trick pause at a
            # table with a person (where any key shows the deal's end at once)
            hold = self.pace()[1] if screen.demo else self.trick_hold()
            if self.pass_pending or (hold is not None and hold <= 0):
                self.show_deal_end()
                return
            self.deal_end_waiting = True
            if hold is not None:
                screen.set_timer(hold, self.show_deal_end)
            if not screen.demo:
                screen.show_message(self.deal_over_note())
            return
        screen.advance()

    # ----- a spectator's screen ------------------------------------------------------------
    def spectate(self) -> None:
        """After a change at a watched table: redraw; every deal that ends gets its
        summary (the players may have begun the next deal already: a table of bots
        goes on at once), and a summary gives way to the next deal once read."""
        screen = self.screen
        g = screen.game
        screen.refresh_view()
        self._close_watched_end()
        r = g.last_result
        if self.watched_from is None:
            # the deals that ended before this screen watched are not summed up again
            self.watched_from = (r.deal_number if r else 0) - (1 if g.deal_over else 0)
        ended = r.deal_number if r is not None else 0
        if ended > self.watched_from and ended != self.deal_end_shown and not self.deal_end_waiting:
            # the last play stays a moment (the trick pause; with "until a key", the
            # usual moment), then the summary
            self.deal_end_waiting = True
            hold = self.trick_hold()
            hold = SPECTATOR_HOLD_S if hold is None else hold
            if hold > 0:
                screen.set_timer(hold, self.show_deal_end)
            else:
                self.show_deal_end()
        screen.tips.check()

    def _close_watched_end(self) -> None:
        """A spectator's summary closes once the next deal is under way and it has been
        up ``SPECTATOR_READ_S`` (a key closes it sooner)."""
        end = self.watched_end
        if end is None:
            return
        if not end.is_attached:
            self.watched_end = None
            return
        g = self.screen.game
        if self.deal_end_shown is None or g.deal_number <= self.deal_end_shown:
            return  # the next deal has not begun
        left = SPECTATOR_READ_S - (time.monotonic() - self.watched_end_at)
        end.next_deal_begun()
        if left > 0:
            if not self.close_timer:
                self.close_timer = True
                self.screen.set_timer(left, self._closing_time)
            return
        if end.is_current:  # (once it is on top again, if a view was opened over it)
            self.watched_end = None
            end.dismiss("watch")

    def _closing_time(self) -> None:
        self.close_timer = False
        self._close_watched_end()

    def advance(self) -> None:
        """Hand the turn on: an AI seat's worker, or the human whose turn it is."""
        screen = self.screen
        s = screen.table
        if screen.demo:
            if s.ai_to_act() and screen.demo_controls.may_move():
                screen.ai_turn()
            screen.refresh_view()
            return
        if s.ai_to_act():
            screen.ai_turn()
        humans = s.humans_to_act()
        if humans and not self.pass_pending:
            target = screen.viewer if screen.viewer in humans else humans[0]
            if s.hot_seat and target != screen.viewer:
                if screen.autopass.pass_hidden(target):
                    return  # passed by auto-pass: no pass screen for it
                recap = self.recap(target)
                screen.viewer = None
                screen.selected.clear()
                self.pass_pending = True
                screen.refresh_view()
                from .dialogs import PassScreen

                screen.app.push_screen(
                    PassScreen(screen.game.names[target], recap),
                    lambda _r, t=target: self.passed_to(t),
                )
                return
            screen.viewer = target
        screen.refresh_view()
        screen.autopass.after_refresh()
        if not self.pass_pending:
            screen.tips.check()

    def recap(self, seat: int | None = None) -> Text:
        """What happened since ``seat``'s own last turn (public log lines), for its pass
        screen: the mover also sees how the trick ended before the table is hidden. At
        most the last ``RECAP_LINES``; a first line says how many came before."""
        g = self.screen.game
        start = self.recap_from  # the deal's start: no turn yet in this deal
        if seat is not None and seat in self.seen_to:
            start = max(start, self.seen_to[seat])
        lines = [h.text for h in g.history[start:]]
        if len(lines) > RECAP_LINES:
            more = len(lines) - RECAP_LINES + 1
            lines = [f"… {more} earlier line{'s' if more != 1 else ''} in the log (l)"] + lines[
                -(RECAP_LINES - 1) :
            ]
        return Text("\n".join(lines))

    def moved(self, seat: int) -> None:
        """``seat`` (a person at this screen) has just made a move."""
        self.seen_to[seat] = len(self.screen.game.history)

    def rewound(self, length: int) -> None:
        """An undo took the history back to ``length`` entries."""
        self.recap_from = min(self.recap_from, length)
        for seat, seen in self.seen_to.items():
            self.seen_to[seat] = min(seen, length)

    def key_before_hand_shown(self, event: events.Key) -> bool:
        """A key pressed before the hand was shown (meant for the pass screen) is
        dropped: it must not play the card under the cursor."""
        if event.time >= self.shown_at:
            return False
        event.stop()
        event.prevent_default()
        return True

    def passed_to(self, seat: int) -> None:
        self.shown_at = event_clock()
        self.pass_pending = False
        self.screen.viewer = seat
        self.screen.advance()

    def deal_over_note(self) -> str:
        return f"The {self.screen.game.deal_word} is over. Any key: its summary."

    def key_pressed(self) -> None:
        """A key at the table: a finished trick, or the deal's last play, has been
        read."""
        self.screen.ai.go_on()
        if self.deal_end_waiting:
            self.show_deal_end()

    def show_deal_end(self) -> None:
        screen = self.screen
        g = screen.game
        self.deal_end_waiting = False
        spectator = screen.spectator
        r = g.last_result
        # the deal summed up: the one just over (a spectator's: the last one finished,
        # though its players may have begun the next)
        number = r.deal_number if spectator and r is not None else g.deal_number
        if self.deal_end_shown == number or not screen.is_mounted:
            return
        if not g.deal_over and not spectator:
            return
        if screen.app.screen is not screen:
            # a dialog (help, last trick) is open: show the deal end when it closes
            screen.set_timer(0.3, self.show_deal_end)
            return
        self.deal_end_shown = number
        if screen.messages.shown == (self.deal_over_note(), ""):
            screen.show_message("")
        from .dialogs import DealEndScreen

        hints = screen.table.hints_this_deal()
        end = DealEndScreen(
            screen.table,
            hints,
            screen.views.last_trick_dialog,
            screen.trick_word,
            screen.viewer,
            watching=screen.spectator,
        )
        self.watched_end = end if spectator else None
        self.watched_end_at = time.monotonic()
        screen.app.push_screen(end, self.deal_end_choice)
        if spectator:
            self._close_watched_end()  # the next deal may be under way already

    def deal_end_choice(self, choice: str | None) -> None:
        screen = self.screen
        if choice == "watch":  # a spectator: back to the table; the players go on
            self.watched_end = None
            screen.refresh_view()
        elif choice == "next":
            screen.table.next_deal()
            screen.selected.clear()
            self.recap_from = len(screen.game.history)
            self.seen_to.clear()  # a new deal: each recap starts at its deal
            screen.after_change()
        elif choice == "again":
            again = screen.table.again()
            if again is not None:
                twos_app(screen).start_session(again)
        elif choice == "new":
            twos_app(screen).open_picker(screen.game.variant_id)
        elif choice == "home":
            twos_app(screen).go_home()
