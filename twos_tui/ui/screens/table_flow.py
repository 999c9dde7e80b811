"""The flow of a deal at the table: after every action announce, redraw and hand the
turn on — to an AI worker, to the human at the screen, or (hot seat) through a "pass to
NAME" screen — and at the end of a deal hold the last trick for the pace's pause, then
show the deal-end screen and act on its choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..typed_app import twos_app

if TYPE_CHECKING:
    from .table import TableScreen


class DealFlow:
    """Who moves next, and what comes between the moves."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.pass_pending = False  #: a "pass to NAME" screen is up
        self.deal_end_shown: int | None = None  #: the deal whose end screen was shown
        self.recap_from = 0  #: history index: what the pass screen recaps

    def pace(self) -> tuple[float, float]:
        """(before an AI move, after a finished trick) in seconds: the app's pace."""
        pace = getattr(self.screen.app, "pace", None)
        return pace() if pace is not None else (0.0, 0.0)

    def after_change(self) -> None:
        """After any action: announce, refresh, then hand the turn on."""
        screen = self.screen
        g = screen.game
        screen.announcer.announce()
        if screen.session.save_error:
            screen.app.notify(screen.session.save_error, severity="error")
        if g.deal_over:
            screen.refresh_view()
            hold = self.pace()[1]
            if hold > 0 and not self.pass_pending:
                screen.set_timer(hold, self.show_deal_end)
            else:
                self.show_deal_end()
            return
        screen.advance()

    def advance(self) -> None:
        """Hand the turn on: an AI seat's worker, or the human whose turn it is."""
        screen = self.screen
        s = screen.session
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
                recap = self.recap()
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

    def recap(self) -> Text:
        """What happened since the last player took the screen (public log lines), for
        the pass screen: the mover sees how the trick ended before the table is hidden."""
        g = self.screen.game
        lines = [str(h.get("text", "")) for h in g.history[self.recap_from :]][-6:]
        return Text("\n".join(lines))

    def passed_to(self, seat: int) -> None:
        self.pass_pending = False
        self.recap_from = len(self.screen.game.history)
        self.screen.viewer = seat
        self.screen.advance()

    def show_deal_end(self) -> None:
        screen = self.screen
        g = screen.game
        if self.deal_end_shown == g.deal_number or not screen.is_mounted:
            return
        if screen.app.screen is not screen:
            # a dialog (help, last trick) is open: show the deal end when it closes
            screen.set_timer(0.3, self.show_deal_end)
            return
        self.deal_end_shown = g.deal_number
        from .dialogs import DealEndScreen

        hints = screen.session.hints_this_deal()
        screen.app.push_screen(
            DealEndScreen(
                screen.session,
                hints,
                screen.last_trick_dialog,
                screen.trick_word,
                screen.viewer,
            ),
            self.deal_end_choice,
        )

    def deal_end_choice(self, choice: str | None) -> None:
        screen = self.screen
        if choice == "next":
            screen.session.next_deal()
            screen.selected.clear()
            self.recap_from = len(screen.game.history)
            screen.after_change()
        elif choice == "again":
            twos_app(screen).start_session(screen.session.again())
        elif choice == "new":
            twos_app(screen).open_picker(screen.game.variant_id)
        elif choice == "home":
            twos_app(screen).go_home()
