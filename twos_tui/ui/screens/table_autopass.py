"""Auto-pass (``a``) in the climbing games: pass now and at each of your turns until the
trick ends. A new trick (a new lead, a new deal, an undo) or ``a`` again turns it off, so
it never passes a lead. It is kept per seat (each player at a shared screen has their
own), and a seat that has it on says "auto-pass" in its seat box and on the prompt.

Every pass goes through the same path as ``p`` for the player at the screen; at a shared
screen a seat with auto-pass on passes without its "pass to NAME" screen (a pass shows
nothing of a hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import IllegalAction
from ...engine.views import AnyView, ClimbingView
from .table_moves import pass_choice

if TYPE_CHECKING:
    from .table import TableScreen

#: the word in a seat box and on the prompt while a seat has auto-pass on
AUTO_PASS = "auto-pass"


def trick_key(obs: AnyView) -> tuple[Any, ...]:
    """Which trick the table is in: the deal and the trick's first play (seat and cards).
    A new lead, or a new deal, gives another key; a trick not led yet has none of its
    own (so a pass made before the lead is not carried into the trick)."""
    for entry in obs.trick if isinstance(obs, ClimbingView) else ():
        if entry.cards:
            return (obs.deal_number, entry.seat, tuple(entry.cards))
    return (obs.deal_number, None)


class AutoPass:
    """The seats with auto-pass on, and the passes it makes."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        #: seat -> the trick (:func:`trick_key`) it was turned on in
        self.armed: dict[int, tuple[Any, ...]] = {}
        self._scheduled = False
        self._climbing: bool | None = None

    def offered(self) -> bool:
        """The game has auto-pass at all: a climbing game, with a person playing."""
        screen = self.screen
        if screen.demo or not screen.table.humans or not screen.AUTO_PASS:
            return False
        if self._climbing is None:
            g = screen.game
            family = g.observation((g.visible or (0,))[0]).family
            self._climbing = family == "climbing"
        return self._climbing

    def usable(self, which: str) -> bool:
        """The key bar's ``a``: "on" where the seat at the screen may start it (its
        decisions have had a pass: kept between turns, as the pass key is, so the bar
        does not blink), "off" while it is on."""
        screen = self.screen
        seat = screen.viewer
        if seat is None or not self.offered():
            return False
        if which == "off":
            return seat in self.armed
        d = screen.decision
        if d is not None and any(c.key == "a" for c in d.choices):
            return False  # a choice of its own on a (Chinese Poker's hand A)
        return seat not in self.armed and screen.buttons.footer_pass

    def on(self, seat: int | None) -> bool:
        return seat is not None and seat in self.armed

    def key(self) -> tuple[Any, ...]:
        g = self.screen.game
        return trick_key(g.observation((g.visible or (0,))[0]))

    def toggle(self) -> None:
        """``a``: turn auto-pass on (passing now) for the seat at the screen, or off."""
        screen = self.screen
        seat = screen.viewer
        if seat is None or not self.offered():
            return
        if seat in self.armed:
            del self.armed[seat]
            screen.show_message("Auto-pass is off: you play your next turn yourself.")
            self.redraw()
            return
        d = screen.decision
        if d is None or pass_choice(d) is None:
            why = "it is not your turn" if d is None else "you cannot pass now"
            screen.show_message(
                f"Auto-pass starts on a turn where you may pass ({why}).", error=True
            )
            return
        key = self.key()
        if not screen.moves.pass_turn():
            return  # refused: the reason is on the message line, nothing is on
        if self.key() == key:  # (a pass that ended the trick leaves nothing to pass in)
            self.armed[seat] = key
            self.redraw()
            screen.show_message("Auto-pass is on: you pass until this trick ends (a: off).")

    def clear(self) -> None:
        """An undo: every seat plays its next turn itself."""
        if self.armed:
            self.armed.clear()
            self.redraw()

    def drop_stale(self) -> None:
        """Turn auto-pass off for every seat whose trick has ended."""
        if not self.armed:
            return
        key = self.key()
        stale = [seat for seat, at in self.armed.items() if at != key]
        for seat in stale:
            del self.armed[seat]
        if stale:
            self.redraw()
            if self.screen.viewer in stale:
                self.screen.show_message("A new trick: auto-pass is off.")

    def due(self, seat: int) -> bool:
        """``seat`` has auto-pass on for this trick and may pass now."""
        self.drop_stale()
        if seat not in self.armed or seat not in self.screen.table.humans_to_act():
            return False
        d = self.screen.game.decision(seat)
        if d is None or pass_choice(d) is None:
            del self.armed[seat]  # no pass on offer (a lead): the seat plays itself
            self.redraw()
            return False
        return True

    def pass_hidden(self, seat: int) -> bool:
        """A shared screen: ``seat`` (not shown) passes by auto-pass, without its pass
        screen. True: it did."""
        if not self.due(seat):
            return False
        d = self.screen.game.decision(seat)
        c = pass_choice(d) if d is not None else None
        if c is None:
            return False
        try:
            self.screen.table.act(seat, c.action)
        except IllegalAction:
            del self.armed[seat]
            self.redraw()
            return False
        self.screen.call_later(self.screen.after_change)
        return True

    def after_refresh(self) -> None:
        """The player at the screen is shown their turn: pass for them if auto-pass is
        on (on the next turn of the event loop, so the table is drawn first)."""
        seat = self.screen.viewer
        if seat is None or not self.armed or self._scheduled:
            self.drop_stale()
            return
        if self.due(seat):
            self._scheduled = True
            self.screen.call_later(self._pass_now)

    def _pass_now(self) -> None:
        self._scheduled = False
        screen = self.screen
        seat = screen.viewer
        if not screen.is_attached or seat is None or screen.decision is None:
            return
        if self.due(seat):
            screen.moves.pass_turn()  # the same path as p

    def note(self, seat: int) -> str:
        return AUTO_PASS if seat in self.armed else ""

    def redraw(self) -> None:
        screen = self.screen
        screen.refresh_bindings()
        if screen.is_attached:
            screen.refresh_view()
