"""The 2v1 exchange and the duo discard.

**Exchange** (docs/rules.md §5.4): when nobody bids, every player chooses two cards at
once (the rainbow holder must include the rainbow); nobody sees another's choice until
all three have chosen; then each pair goes to the left neighbour and the bidding starts
again. **Discard** (§5.5): each duo member lays one card face down, out of play for the
round; both choose at once.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ..cards import HIDDEN
from ..observation import TableEntry
from ..protocol import Action, Decision
from ..words import names_text, says, whom
from .deck import RAINBOW, hand_order, parse
from .phase import Phase, lone_name, selection

if TYPE_CHECKING:
    from .game import TwoVOneGame


def waited_for(g: TwoVOneGame) -> str:
    """The players the table waits for, inside a sentence ("you and Cleo")."""
    return names_text([whom(g.names[s]) for s in g.to_act()])


class ExchangePhase(Phase):
    """Everyone chooses two cards to pass left, in secret and at once."""

    name = "exchange"
    verb = "choose two cards to pass left"

    def enter(self, g: TwoVOneGame) -> None:
        g.phase = "exchange"
        g.pending = [None] * g.players
        g.log(
            "Nobody bids: everyone passes two cards to the left "
            "(the rainbow holder must include it).",
            None,
            kind="exchange",
        )

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        return tuple(s for s in range(g.players) if g.pending[s] is None)

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return g.pending[seat] is not None

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 2, "pass")
        if isinstance(got, str):
            return got
        if RAINBOW in g.hands[seat] and RAINBOW not in got:
            return "You hold the rainbow: it must be one of the two cards you pass."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        n = g.players
        g.pending[seat] = [parse(c) for c in action.cards]
        g.log(f"{says(g.names[seat], 'has chosen two cards')}.", seat, kind="exchange-ready")
        moving = [p for p in g.pending if p is not None]
        if len(moving) < n:
            return
        for s in range(n):
            for c in moving[s]:
                g.hands[s].remove(c)
        for s in range(n):
            to = (s + 1) % n
            g.hands[to] = hand_order(g.hands[to] + moving[s])
            g.received[to] = hand_order(moving[s])
            g.seen[to].update(moving[s])
        g.pending = [None] * n
        g.rainbow_passes += 1
        g.log(
            f"The cards change hands (the rainbow has moved {g.rainbow_passes} "
            f"time{'s' if g.rainbow_passes != 1 else ''}).",
            None,
            kind="exchange-done",
        )
        g.enter("bid")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        hand = g.hands[seat]
        pairs = combinations(hand, 2)
        if RAINBOW in hand:
            return [Action("exchange", pr) for pr in pairs if RAINBOW in pr]
        return [Action("exchange", pr) for pr in pairs]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        prompt = "Nobody bid: choose two cards to pass to your left."
        if RAINBOW in g.hands[seat]:
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

    def enter(self, g: TwoVOneGame) -> None:
        g.phase = "discard"
        g.duo_discards = [None] * g.players

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        return tuple(s for s in g.duo() if g.duo_discards[s] is None)

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return seat in g.duo() and g.duo_discards[seat] is not None

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "discard")
        return got if isinstance(got, str) else None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        card = parse(action.cards[0])
        g.hands[seat].remove(card)
        g.duo_discards[seat] = card
        g.log(f"{says(g.names[seat], 'discards a card face down')}.", seat, kind="discard")
        if all(g.duo_discards[s] is not None for s in g.duo()):
            g.enter("lead")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("discard", (c,)) for c in g.hands[seat]]

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
            f"{says(lone_name(g), 'bids')} {g.bid}. The duo discard: waiting for {waited_for(g)}."
        )
