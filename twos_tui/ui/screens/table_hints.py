"""Hints at the table (``h``): what the hint engine suggests for the seat at the screen,
said on the message line with its reason and taken up at once, so that Enter makes the
move: the hinted cards are picked up (and marked ◆), or the hinted choice's button (a
bid, 2v1's keep or return, a pass) gets the focus.

A hint draws from a generator of its own, derived from the seed and the position, so
asking for one never changes the game (the AI seats' generators are not touched)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...ai import DEFAULT_HINT_LEVEL, HINT_LEVELS, suggest
from ...engine import Action
from ..widgets import HandView

if TYPE_CHECKING:
    from .table import TableScreen


#: seconds a hard hint may search (it runs while the player waits for it)
HINT_BUDGET_S = 0.3


def hint_line(move: str, reason: str, cards: str) -> str:
    """The message line of a hint: the reason alone when it already names the move (each
    of its cards, or its first word for a move without cards, such as "Pass"), else the
    move in words and the reason — never the move twice. ``cards``: the move's card
    labels, spaced."""
    if cards:
        named = all(label in reason for label in cards.split(" "))
    else:
        word = move.split(" ")[0].lower()
        named = bool(word) and reason.lower().startswith(word)
    return reason if named else f"{move} — {reason}"


class HintHelper:
    """The table's hint: the one shown (if any) and how to give the next."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.shown: tuple[int, Action] | None = None  #: (actions so far, hinted action)
        #: the position (deal, actions so far, seat) whose hint was last counted
        self.counted: tuple[int, int, int] | None = None
        #: the position whose hard hint is being searched for (on a thread)
        self.pending: tuple[int, int, int] | None = None
        #: the message of the hint shown (without what Enter does)
        self.last_line = ""

    def rng(self, seat: int) -> random.Random:
        """A generator of its own for each hint, derived from the seed and the position:
        never the AI seats' generators, so asking for a hint cannot change the game."""
        return random.Random(f"twos-tui-hint:{self.screen.table.hint_seed}:{seat}")

    def give(self) -> None:
        """``h``: show a hint, or pick up the one shown."""
        screen = self.screen
        seat = screen.viewer
        d = screen.decision
        if seat is None or d is None:
            return
        g = screen.game
        shown = self.shown
        if shown is not None and shown[0] == g.action_count and self.last_line:
            # h again on the same position: the same hint, taken up again (a selection
            # changed since is put back to the hint's)
            screen.show_message(self.last_line + self.take(shown[1]), "hint")
            return
        legal = g.legal_actions(seat)
        if not legal:
            return
        level = self.level()
        obs = g.observation(seat)
        # one hint per position: asking again on the same position shows it again but
        # does not count as another hint
        position = (g.deal_number, g.action_count, seat)
        if self.counted != position:
            screen.table.count_hint(seat)
            self.counted = position
        if level != "hard":  # the rule-based levels answer at once
            hint = suggest(g.variant_id, obs, legal, d, self.rng(seat), level)
            self._show(position, hint)
            return
        # hard searches for up to HINT_BUDGET_S: on a thread, so keys and the table's
        # clock go on; the answer is shown only if the position is still the same
        if self.pending == position:
            return
        self.pending = position
        screen.show_message(f"from {level}: thinking…", "hint")
        variant, rng = g.variant_id, self.rng(seat)
        app = screen.app

        def think() -> None:
            try:
                hint = suggest(variant, obs, legal, d, rng, level, budget_s=HINT_BUDGET_S)
            except Exception:  # a hint must never end the game: the normal level's then
                hint = suggest(variant, obs, legal, d, rng, "normal")
            app.call_from_thread(self._show, position, hint)

        screen.run_worker(think, thread=True, group="hint", name="hint")

    def _show(self, position: tuple[int, int, int], hint: Any) -> None:
        """Show a hint computed for ``position`` (dropped if the game has moved on)."""
        screen = self.screen
        if self.pending == position:
            self.pending = None
        g = screen.game
        d = screen.decision
        if (
            not screen.is_attached
            or d is None
            or (g.deal_number, g.action_count, screen.viewer) != position
        ):
            return
        self.shown = (g.action_count, hint.action)
        self.render_marks()
        cards = " ".join(g.card_face(c).label for c in hint.action.cards)
        line = hint_line(self.describe(hint.action), hint.reason, cards)
        self.last_line = f"from {hint.level}: {line}"
        screen.show_message(self.last_line + self.take(hint.action), "hint")

    def take(self, action: Action) -> str:
        """Take the hinted ``action`` up so that Enter makes it: its cards picked up (the
        hand focused, so Enter reaches the table and not a button), or its choice's
        button focused (a bid, 2v1's keep or return, a pass). Returns what Enter then
        does, to end the message with ("" when the move cannot be taken up)."""
        screen = self.screen
        d = screen.decision
        if d is None:
            return ""
        selection = screen.selection
        if action.cards and d.select:
            selection.set(set(action.cards))
            screen.query_one(HandView).focus()
            verb = (d.submit or "play").replace("-", " ")
            return f" · Enter: {verb}"
        for i, c in enumerate(d.choices):
            if c.action == action:
                if selection.selected:  # a pass (or a choice) is hinted: nothing stays raised
                    selection.set(set())
                button = screen.buttons.choice_button(i)
                if button is None:
                    return ""
                # a button pressed in the last 0.2 s (its press effect, "-active") lets
                # Enter through to nothing: the pooled button of the last turn's pass
                # must take this turn's Enter, however quickly the turn came back
                button.remove_class("-active")
                button.focus()
                return f" · Enter: {c.label}"
        return ""

    def level(self) -> str:
        """The level hints come from: the player's setting (hard unless changed)."""
        settings = getattr(self.screen.app, "settings", None)
        level = getattr(settings, "hint_level", DEFAULT_HINT_LEVEL)
        return level if level in HINT_LEVELS else DEFAULT_HINT_LEVEL

    def describe(self, action: Action) -> str:
        """An action in words: the decision's own label for it, else its kind and cards."""
        d = self.screen.decision
        for c in d.choices if d else ():
            if c.action == action:
                return f"{c.label} ({c.key})" if c.key else c.label
        g = self.screen.game
        cards = " ".join(g.card_face(c).label for c in action.cards)
        verb = action.kind.replace("-", " ")
        return f"{verb} {cards}".strip()

    def render_marks(self) -> None:
        """Mark the hinted cards on the hand (a hint of an older position is dropped)."""
        screen = self.screen
        hand = screen.query_one(HandView)
        hint = self.shown
        if hint is None or hint[0] != screen.game.action_count or screen.decision is None:
            self.shown = None
            hand.set_hint(())
            return
        hand.set_hint(hint[1].cards)
