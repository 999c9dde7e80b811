"""Choosing cards at the table: the cursor, the selection, what the selection would play
and why it may not (said as it is made), and the hand's sort order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action
from ..widgets import HandView

if TYPE_CHECKING:
    from .table import TableScreen


class Selection:
    """The screen's ``selected`` cards and cursor, against the decision at the screen."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen

    def action(self) -> Action | None:
        """What Enter would play: the selected cards (a single-card decision: the card
        under the cursor when none is selected)."""
        screen = self.screen
        d = screen._decision
        if d is None or not d.select:
            return None
        order = screen._hand_order
        cards = [c for c in order if c in screen.selected]
        if not cards and d.select == (1, 1) and order:
            cards = [order[screen.query_one(HandView).cursor]]
        return Action(d.submit or "play", tuple(cards))

    def reason(self) -> str | None:
        """Why the selection may not be played now (None: it may)."""
        screen = self.screen
        a = self.action()
        d = screen._decision
        if a is None or d is None or d.select is None:
            return "Nothing to play now."
        lo, hi = d.select
        if not a.cards and lo > 0:  # the decision's own bounds: nothing selected yet
            many = f"{lo}" if lo == hi else f"at least {lo}"
            return f"Select {many} card{'s' if lo > 1 else ''} first."
        if screen.viewer is None:
            return "Nothing to play now."
        return screen.game.check(screen.viewer, a)

    def preview(self, reason: str | None = "") -> None:
        """Say what the selection is as it is made: what it beats, or why it is not a play."""
        screen = self.screen
        d = screen._decision
        if d is None or not d.select or not screen.selected:
            screen.show_message("")
            return
        a = self.action()
        if reason == "":
            reason = self.reason()
        if reason is not None:
            text = reason if "not a play" in reason else f"not a play: {reason}"
            screen.show_message(text, "preview")
            return
        assert a is not None and screen.viewer is not None
        what = screen.game.describe(screen.viewer, a)
        verb = (d.submit or "play").replace("-", " ")
        screen.show_message(what or f"ready: Enter to {verb}", "ok")

    def changed(self) -> None:
        """The selection changed: redraw the marks, the preview and the buttons."""
        screen = self.screen
        screen.query_one(HandView).set_selected(screen.selected)
        reason = screen.current_reason()
        screen.preview(reason)
        screen.buttons.render(reason)

    def toggle(self, i: int) -> None:
        """Pick up or put down the hand's ``i``-th card."""
        screen = self.screen
        d = screen._decision
        order = screen._hand_order
        if d is None or not d.select or not (0 <= i < len(order)):
            return
        code = order[i]
        if code in screen.selected:
            screen.selected.discard(code)
        elif d.select[1] == 1:
            screen.selected = {code}
        else:
            screen.selected.add(code)
        screen._selection_changed()
        # Enter must reach the table and play the selection: never a button (a pass, a
        # choice) that had the focus from a hint or a Tab
        screen.query_one(HandView).focus()

    def cursor(self, step: int) -> None:
        screen = self.screen
        hand = screen.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            d = screen._decision
            if d is not None and d.select == (1, 1):
                screen.buttons.render()  # a single card: the cursor card is the play

    def cursor_to(self, index: int) -> None:
        hand = self.screen.query_one(HandView)
        if hand.cards:
            hand.cursor = index % len(hand.cards)

    def row(self, step: int) -> None:
        hand = self.screen.query_one(HandView)
        if hand.cards:
            i = hand.cursor + step * hand.per_row()
            if 0 <= i < len(hand.cards):
                hand.cursor = i

    def sort(self) -> None:
        """Sort the hand the other way (remembered per variant); the cursor stays on its
        card."""
        screen = self.screen
        screen.sort_by = "suit" if screen.sort_by == "rank" else "rank"
        remember = getattr(screen.app, "remember_sort", None)
        if remember is not None:
            remember(screen.game.variant_id, screen.sort_by)
        hand = screen.query_one(HandView)
        current = screen._hand_order[hand.cursor] if screen._hand_order else None
        screen._render_hand(screen.table_view())
        if current in screen._hand_order:
            hand.cursor = screen._hand_order.index(current)
