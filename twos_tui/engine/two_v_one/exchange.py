"""The words of the 2v1 exchange and the duo discard.

**Exchange** (docs/rules.md §5.4): when nobody bids, every player chooses two cards at
once (the rainbow holder must include the rainbow); nobody sees another's choice until
all three have chosen; then each pair goes to the left neighbour and the bidding starts
again. **Discard** (§5.5): each duo member lays one card face down, out of play for the
round; both choose at once. The rules are the core's (:class:`~.core.RoundSim`); this
module words them and records each choice in the order it was made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import HIDDEN
from ..observation import TableEntry
from ..protocol import Action, Decision
from ..words import names_text, whom
from .core import BID, INDEX, RB_BIT, mask_of
from .deck import hand_order, parse
from .phase import Phase, lone_name, said, selection

if TYPE_CHECKING:
    from .game import TwoVOneGame


def waited_for(g: TwoVOneGame) -> str:
    """The players the table waits for, inside a sentence ("you and Cleo")."""
    return names_text([whom(g.names[s]) for s in g.to_act()])


class ExchangePhase(Phase):
    """Everyone chooses two cards to pass left, in secret and at once."""

    name = "exchange"
    verb = "choose two cards to pass left"

    def entered(self, g: TwoVOneGame) -> None:
        g.pending = [None] * g.players
        g.log(
            "Nobody bids: everyone passes two cards to the left "
            "(the rainbow holder must include it).",
            None,
            kind="exchange",
        )

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return g.core.pending[seat] != 0

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 2, "pass")
        if isinstance(got, str):
            return got
        if mask_of(got) not in g.core.legal(seat):
            return "You hold the rainbow: it must be one of the two cards you pass."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        n = g.players
        core = g.core
        choice = [parse(c) for c in action.cards]
        g.pending[seat] = choice
        moving = list(g.pending)
        core.apply(seat, mask_of(choice))
        g.log(f"{said(g.names[seat], 'has chosen two cards')}.", seat, kind="exchange-ready")
        if core.phase != BID:
            return
        for s in range(n):
            cards = moving[s]
            assert cards is not None
            to = (s + 1) % n
            g.received[to] = hand_order(cards)
            g.seen[to] |= mask_of(cards)
        g.pending = [None] * n
        passes = core.rainbow_passes
        g.log(
            f"The cards change hands (the rainbow has moved {passes} "
            f"time{'s' if passes != 1 else ''}).",
            None,
            kind="exchange-done",
        )
        g.RULES[BID].entered(g)

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        prompt = "Nobody bid: choose two cards to pass to your left."
        if g.core.hands[seat] & RB_BIT:
            prompt += " The rainbow must be one of them."
        return Decision(seat, "exchange", prompt, (2, 2), "exchange", (), hidden=True)

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Exchange: waiting for {waited_for(g)} to choose two cards."

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        table: list[TableEntry] = []
        for s in range(g.players):
            p = g.pending[s]
            if p is not None:
                table.append(
                    {
                        "seat": s,
                        "cards": list(p) if s == seat else [HIDDEN] * 2,
                        "label": "passing left",
                    }
                )
        return table


class DiscardPhase(Phase):
    """Each duo member lays one card face down, out of play for the round."""

    name = "discard"
    verb = "discard one card face down"

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return seat in g.duo() and g.core.discards[seat] >= 0

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "discard")
        return got if isinstance(got, str) else None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        g.core.apply(seat, INDEX[action.cards[0]])
        g.log(f"{said(g.names[seat], 'discards a card face down')}.", seat, kind="discard")

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat,
            "discard",
            "Discard one card face down; it is out of play this round.",
            (1, 1),
            "discard",
            (),
            hidden=True,
        )

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return (
            f"{said(lone_name(g), 'bids')} {g.bid}. The duo discard: waiting for {waited_for(g)}."
        )
