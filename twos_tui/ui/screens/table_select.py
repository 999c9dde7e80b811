"""Choosing cards at the table: the cursor, the selection, what the selection would play
and why it may not (said as it is made), and the hand's sort order.

:class:`Selection` owns the selected cards (the screen's ``selected`` is this set) and the
hand's sort order (the screen's ``sort_by``); the decision and the hand's order it reads
are the ones the screen drew the hand for (:attr:`TableScreen.decision`,
:attr:`TableScreen.hand_order`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action
from ..widgets import HandView

if TYPE_CHECKING:
    from .table import TableScreen


def initial_sort(screen: TableScreen, variant_id: str) -> str:
    """The hand's order a table of ``variant_id`` starts with: the player's, as last
    chosen for that variant (or the variant's own)."""
    from ...play.settings import Settings, default_sort

    settings = getattr(screen.app, "settings", None)
    if not isinstance(settings, Settings):
        return default_sort(variant_id)
    return settings.sort_for(variant_id)


class Selection:
    """The cards picked up and the cursor, against the decision at the screen."""

    def __init__(self, screen: TableScreen, sort_by: str) -> None:
        self.screen = screen
        self.selected: set[str] = set()  #: the cards picked up (card codes)
        self.sort_by = sort_by  #: the hand's order: "rank" or "suit"

    def action(self) -> Action | None:
        """What Enter would play: the selected cards (a single-card decision: the card
        under the cursor when none is selected)."""
        screen = self.screen
        d = screen.decision
        if d is None or not d.select:
            return None
        order = screen.hand_order
        cards = [c for c in order if c in self.selected]
        if not cards and d.select == (1, 1) and order:
            cards = [order[screen.query_one(HandView).cursor]]
        return Action(d.submit or "play", tuple(cards))

    def reason(self) -> str | None:
        """Why the selection may not be played now (None: it may)."""
        screen = self.screen
        a = self.action()
        d = screen.decision
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
        d = screen.decision
        if d is None or not d.select or not self.selected:
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
        screen.query_one(HandView).set_selected(self.selected)
        reason = self.reason()
        self.preview(reason)
        screen.buttons.render(reason)

    def set(self, cards: set[str]) -> None:
        """Pick up exactly ``cards`` (of the hand shown); the marks and the buttons
        follow (the message line is the caller's)."""
        self.selected = cards & set(self.screen.hand_order)
        self.screen.query_one(HandView).set_selected(self.selected)
        self.screen.buttons.render()

    def toggle(self, i: int) -> None:
        """Pick up or put down the hand's ``i``-th card."""
        screen = self.screen
        d = screen.decision
        order = screen.hand_order
        if d is None or not d.select or not (0 <= i < len(order)):
            return
        code = order[i]
        if code in self.selected:
            self.selected.discard(code)
        elif d.select[1] == 1:
            self.selected = {code}
        else:
            self.selected.add(code)
        self.changed()
        # Enter must reach the table and play the selection: never a button (a pass, a
        # choice) that had the focus from a hint or a Tab
        screen.query_one(HandView).focus()

    def clear(self) -> bool:
        """Put every card down (Esc). False: none was up."""
        if not self.selected:
            return False
        self.selected.clear()
        self.changed()
        return True

    def cursor(self, step: int) -> None:
        screen = self.screen
        hand = screen.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            d = screen.decision
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
        self.sort_by = "suit" if self.sort_by == "rank" else "rank"
        remember = getattr(screen.app, "remember_sort", None)
        if remember is not None:
            remember(screen.game.variant_id, self.sort_by)
        hand = screen.query_one(HandView)
        order = screen.hand_order
        current = order[hand.cursor] if order else None
        screen.redraw_hand()
        order = screen.hand_order
        if current in order:
            hand.cursor = order.index(current)
