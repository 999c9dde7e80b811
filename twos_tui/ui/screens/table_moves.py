"""The human's moves at the table: Enter plays the selection (with nothing selected it
picks up the card under the cursor and a second Enter plays it; or takes the marked
choice), ``p`` passes (or says why not), a choice's own key or button takes it; every
move is checked by the engine first and a refusal is said on the message line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Action, Decision, IllegalAction
from ..widgets import HandView

if TYPE_CHECKING:
    from textual import events

    from .table import TableScreen

#: keys the table's bindings take before a choice could
BOUND_KEYS = ("p", "space", "enter", "s", "q", "h", "t", "l")


def pass_choice(d: Decision) -> Any:
    """The decision's own "p" choice (a 2v1 bid pass is a bid of nothing), or its pass."""
    for c in d.choices:
        if c.key == "p" or c.action.kind == "pass":
            return c
    return None


class Moves:
    """Turns keys and buttons into the human's actions."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.made = False  #: the last move asked of :meth:`act` was made

    def act(self, action: Action) -> None:
        """Make ``action`` for the seat at the screen (``made`` says whether it was: a
        refusal's reason is on the message line)."""
        screen = self.screen
        seat = screen.viewer
        self.made = False
        if seat is None or screen.decision is None:
            return
        reason = screen.game.check(seat, action)
        if reason is not None:
            screen.show_message(reason, "error")
            return
        try:
            screen.table.act(seat, action)
        except IllegalAction as e:  # the host said no (its state moved on meanwhile)
            screen.show_message(str(e), "error")
            return
        self.made = True
        screen.flow.moved(seat)  # this person's next recap starts here
        screen.selection.selected.clear()
        screen.show_message("")
        screen.query_one(HandView).focus()  # a clicked or tabbed-to button gives focus back
        screen.after_change()

    def submit(self) -> None:
        screen = self.screen
        hinted = self.hinted_choice()
        if hinted is not None:
            # h took a pass (or a bid, a card to return) up and nothing was picked up
            # since: Enter makes it, wherever the focus went after h (a redraw can take
            # it back to the hand before the Enter comes)
            screen.act(hinted)
            return
        if self.pick_cursor_card():
            return
        a = screen.selection.action()
        if a is None:
            d = screen.decision
            if d is not None and d.choices:
                # a decision made by choices only (2v1: the card that goes back; a bid):
                # Enter takes the first, the button drawn as the default (a focused
                # choice button takes Enter itself)
                screen.act(d.choices[0].action)
            return
        reason = screen.selection.reason()
        if reason is not None:
            screen.show_message(reason, "error")
            return
        screen.act(a)

    def hinted_choice(self) -> Action | None:
        """The hint's move when it is one of the decision's choices (a pass, a bid...),
        shown for this very position, with no card picked up since; else None."""
        screen = self.screen
        shown = screen.hints.shown
        d = screen.decision
        if shown is None or d is None or screen.selection.selected:
            return None
        at, action = shown
        if at != screen.game.action_count or action.cards:
            return None
        return action if any(c.action == action for c in d.choices) else None

    def pick_cursor_card(self) -> bool:
        """Enter with no card selected never plays: it picks up the card under the
        cursor and says what a second Enter would do (or why it may not). True: it did."""
        screen = self.screen
        d = screen.decision
        hand = screen.query_one(HandView)
        selection = screen.selection
        if d is None or not d.select or selection.selected or not hand.cards:
            return False
        selection.toggle(hand.cursor)
        if not selection.selected:
            return False
        reason = selection.reason()
        if reason is None and screen.viewer is not None:
            a = selection.action()
            assert a is not None
            verb = (d.submit or "play").replace("-", " ")
            what = screen.game.describe(screen.viewer, a)
            if not what:
                what = " ".join(screen.face(c).label for c in a.cards)
            screen.show_message(f"{what} · Enter again to {verb}", "ok")
        return True

    def pass_turn(self) -> bool:
        """``p``: pass (or say why not). True: the pass was made."""
        screen = self.screen
        d = screen.decision
        if d is None:
            return False
        c = pass_choice(d)
        if c is not None:
            screen.act(c.action)  # (a screen may add to its act: a puzzle counts tries)
            return self.made
        assert screen.viewer is not None
        reason = screen.game.check(screen.viewer, Action("pass")) or "You cannot pass now."
        screen.show_message(reason, "error")
        return False

    def key(self, event: events.Key) -> None:
        """A key no binding took: a choice's own key plays it."""
        screen = self.screen
        d = screen.decision
        if d is not None and event.key == "p" and pass_choice(d) is None:
            event.stop()  # no pass on offer: say why (the footer shows p dimmed)
            screen.action_pass_turn()
            return
        if d is None or event.key in BOUND_KEYS:
            return
        for c in d.choices:
            if c.key and c.key == event.key:
                event.stop()
                screen.act(c.action)
                return

    def choose(self, index: int) -> None:
        """The ``index``-th choice button was pressed."""
        d = self.screen.decision
        if d is not None and index < len(d.choices):
            self.screen.act(d.choices[index].action)
