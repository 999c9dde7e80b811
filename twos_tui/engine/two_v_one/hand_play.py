"""The five hands of a 2v1 round (docs/rules.md §5.6 to §5.8).

The lone player leads in two steps: ``Action("lead", (card,))`` lays the face-up card
(never the rainbow), then ``Action("hide", (card,))`` the face-down one. The duo then
``follow`` (one card each; the led suit if they hold it; the rainbow only when void), the
lone's left neighbour first; after a led 2 (blindfold) both duo members choose at once,
face down, and their cards are revealed together. The pairs are valued
(:func:`~.deck.pair_value`), the lone player wins ties. The winning side chooses which of
the lone's two cards goes back to the lone hand (``Action("keep", value=code)``); the
lone player's choice is secret, and when the duo win, the duo member on the lone
player's left decides (§5.10). A played rainbow is always discarded (the other card
returns at once), and after the fifth hand nothing returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import HIDDEN
from ..observation import TableEntry
from ..protocol import Action, Choice, Decision
from ..words import says, whose
from .deck import (
    BLINDFOLD,
    HANDS_PER_ROUND,
    RAINBOW,
    SUIT_NAMES,
    card_suit,
    card_value,
    hand_order,
    label,
    labels,
    must_follow,
    pair_reason,
    pair_value,
    parse,
)
from .phase import Phase, lone_name, score_text, selection

if TYPE_CHECKING:
    from .game import TwoVOneGame


def hand_table(g: TwoVOneGame, seat: int) -> list[TableEntry]:
    """The hand in progress as ``seat`` sees it: the lone player's two cards (the
    face-down one shown to the lone player, and to all once the hand is decided) and the
    duo's cards (face down to the partner during a blindfold)."""
    table: list[TableEntry] = []
    if g.lone is None or not g.lead_up:
        return table
    cards = [g.lead_up]
    if g.lead_down is not None:
        shown = g.phase == "keep" or seat == g.lone
        cards.append(g.lead_down if shown else HIDDEN)
    last = g.last_hand if g.phase == "keep" else None
    lab = f"lone {last['lone_value']}" if last else "led"
    table.append({"seat": g.lone, "cards": cards, "label": lab})
    if last:
        for s, c in last["duo"]:
            table.append({"seat": s, "cards": [c], "label": f"duo {last['duo_value']}"})
        return table
    for s in g.duo():
        f = g.follows[s]
        if f is not None:
            face_up = (not g.blind) or s == seat
            table.append(
                {
                    "seat": s,
                    "cards": [f if face_up else HIDDEN],
                    "label": "face down" if g.blind else "played",
                }
            )
    return table


class LeadPhase(Phase):
    """The lone player leads a card face up (entering it starts a new hand)."""

    name = "lead"
    verb = "lead a card face up"

    def enter(self, g: TwoVOneGame) -> None:
        g.phase = "lead"
        g.hand_no += 1
        g.lead_up = g.lead_down = None
        g.follows = [None] * g.players
        g.blind = False
        g.keep_seat = None

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        assert g.lone is not None
        return (g.lone,)

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "lead")
        if isinstance(got, str):
            return got
        if got[0] == RAINBOW:
            return "The rainbow may not be led face up (it may be your face-down card)."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        card = parse(action.cards[0])
        g.hands[seat].remove(card)
        g.lead_up = card
        g.reveal(card)
        g.enter("hide")
        g.log(
            f"Hand {g.hand_no}: {says(g.names[seat], 'leads')} {label(card)} face up.",
            seat,
            kind="lead",
            card=card,
        )

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("lead", (c,)) for c in g.hands[seat] if c != RAINBOW]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat,
            "lead",
            f"Hand {g.hand_no} of {HANDS_PER_ROUND}: choose "
            "the card to lead face up (not the rainbow).",
            (1, 1),
            "lead",
        )

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Hand {g.hand_no}: {lone_name(g)} to lead. {score_text(g)}."


class HidePhase(LeadPhase):
    """The lone player lays a second card face down beside the led one."""

    name = "hide"
    verb = "lay a card face down"

    def enter(self, g: TwoVOneGame) -> None:
        g.phase = "hide"

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "lay face down")
        return got if isinstance(got, str) else None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        card = parse(action.cards[0])
        g.hands[seat].remove(card)
        g.lead_down = card
        g.enter("follow")
        assert g.lead_up
        g.blind = card_value(g.lead_up) == BLINDFOLD
        text = f"{says(g.names[seat], 'lays a second card face down')}."
        if g.blind:
            text += " A blindfold card was led: the duo choose face down, together."
        g.log(text, seat, kind="hide")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("hide", (c,)) for c in g.hands[seat]]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat, "hide", "Now choose the card to lay face down beside it.", (1, 1), "hide"
        )

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)


class FollowPhase(Phase):
    """The duo play one card each (at once, face down, after a blindfold lead); when
    both have played the hand is decided."""

    name = "follow"
    verb = "play a card"

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        waiting = tuple(s for s in g.duo() if g.follows[s] is None)
        return waiting if g.blind else waiting[:1]

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return g.blind and g.follows[seat] is not None

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "play")
        if isinstance(got, str):
            return got
        assert g.lead_up
        led = card_suit(g.lead_up)
        if got[0] not in must_follow(g.hands[seat], led):
            holding = [c for c in g.hands[seat] if card_suit(c) == led]
            if got[0] == RAINBOW:
                return (
                    f"The rainbow has no suit: you may play it only when you hold no "
                    f"{SUIT_NAMES[led]}, and you hold {labels(holding)}."
                )
            return f"You must follow the led suit, {SUIT_NAMES[led]}: you hold {labels(holding)}."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        card = parse(action.cards[0])
        g.hands[seat].remove(card)
        g.follows[seat] = card
        played = [c for c in (g.follows[s] for s in g.duo()) if c is not None]
        if g.blind:
            g.log(f"{says(g.names[seat], 'lays a card face down')}.", seat, kind="follow")
            if len(played) == 2:
                d = g.duo()
                g.reveal(*played)
                g.log(
                    f"The duo reveal: {g.names[d[0]]} {label(played[0])}, "
                    f"{g.names[d[1]]} {label(played[1])}.",
                    None,
                    kind="reveal",
                )
        else:
            g.reveal(card)
            g.log(f"{says(g.names[seat], 'plays')} {label(card)}.", seat, kind="follow", card=card)
        if len(played) == 2:
            self._resolve(g)

    def _resolve(self, g: TwoVOneGame) -> None:
        """Value both pairs, count the hand, and return a card or end the round."""
        assert g.lone is not None and g.lead_up and g.lead_down
        up, down = g.lead_up, g.lead_down
        duo = g.duo()
        d1, d2 = (g.follows[s] for s in duo)
        assert d1 and d2
        g.reveal(down, d1, d2)
        lone_v, duo_v = pair_value(up, down), pair_value(d1, d2)
        lone_wins = lone_v >= duo_v
        g.hands_won[0 if lone_wins else 1] += 1
        winner = "lone" if lone_wins else "duo"
        g.last_hand = {
            "hand": g.hand_no,
            "lone": [up, down],
            "duo": [(duo[0], d1), (duo[1], d2)],
            "lone_value": lone_v,
            "duo_value": duo_v,
            "lone_reason": pair_reason(up, down),
            "duo_reason": pair_reason(d1, d2),
            "winner": winner,
            "returned": None,
            "returned_public": True,
        }
        tie = " (a tie goes to the lone player)" if lone_v == duo_v else ""
        side = g.names[g.lone]
        g.log(
            f"{says(g.names[g.lone], 'turns over')} {label(down)}: {label(up)} {label(down)} "
            f"= {lone_v} ({pair_reason(up, down)}) against {label(d1)} {label(d2)} = "
            f"{duo_v} ({pair_reason(d1, d2)}). "
            f"{says(side, 'wins') if lone_wins else 'The duo win'} "
            f"hand {g.hand_no}{tie}.",
            g.lone,
            kind="hand",
            winner=winner,
            lone_value=lone_v,
            duo_value=duo_v,
            hand=g.hand_no,
            lone_cards=[up, down],
            duo_cards=[[duo[0], d1], [duo[1], d2]],
        )
        g.pile.extend([d1, d2])
        g.follows = [None] * g.players
        if g.hand_no >= HANDS_PER_ROUND:
            g.pile.extend([up, down])
            g.lead_up = g.lead_down = None
            g.enter("over")
        elif RAINBOW in (up, down):
            back = up if down == RAINBOW else down
            g.pile.append(RAINBOW)
            g.hands[g.lone] = hand_order(g.hands[g.lone] + [back])
            g.last_hand["returned"] = back
            g.log(
                f"The rainbow is spent; {label(back)} goes back to {whose(g.names[g.lone])} hand.",
                g.lone,
                kind="return",
                card=back,
            )
            g.lead_up = g.lead_down = None
            g.enter("lead")
        else:
            g.enter("keep")
            g.keep_seat = g.lone if lone_wins else duo[0]

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        assert g.lead_up
        return [Action("follow", (c,)) for c in must_follow(g.hands[seat], card_suit(g.lead_up))]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        assert g.lead_up
        led = SUIT_NAMES[card_suit(g.lead_up)]
        prompt = f"Play one card: follow {led} if you can."
        if g.blind:
            prompt = f"Blindfold! Choose one card face down (follow {led} if you can)."
        return Decision(seat, "follow", prompt, (1, 1), "follow", (), hidden=g.blind)

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Hand {g.hand_no}: {acting} to play. {score_text(g)}."

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)


class KeepPhase(Phase):
    """The side that won the hand chooses which of the lone player's two cards goes
    back to the lone hand; the other is out of play."""

    name = "keep"
    verb = "choose the card that goes back to the lone hand"

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        assert g.keep_seat is not None
        return (g.keep_seat,)

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        try:
            code = parse(action.value)
        except ValueError as e:
            return str(e)
        if code not in (g.lead_up, g.lead_down):
            return (
                f"Choose one of the lone player's two cards: "
                f"{label(g.lead_up or '')} or {label(g.lead_down or '')}."
            )
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        assert g.lone is not None and g.lead_up and g.lead_down and g.last_hand
        card = parse(action.value)
        other = g.lead_down if card == g.lead_up else g.lead_up
        g.hands[g.lone] = hand_order(g.hands[g.lone] + [card])
        g.pile.append(other)
        g.last_hand["returned"] = card
        if seat == g.lone:
            g.last_hand["returned_public"] = False
            g.log(
                f"{says(g.names[seat], 'secretly keeps one of the two cards')}.",
                seat,
                kind="return",
            )
        else:
            g.log(
                f"{says(g.names[seat], 'sends')} {label(card)} back to "
                f"{whose(g.names[g.lone])} hand.",
                seat,
                kind="return",
                card=card,
            )
        g.lead_up = g.lead_down = None
        g.enter("lead")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("keep", value=g.lead_up), Action("keep", value=g.lead_down)]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        assert g.lone is not None and g.lead_up and g.lead_down
        cards = (g.lead_up, g.lead_down)
        if seat == g.lone:
            prompt = "You won the hand: secretly choose the card you take back."
            word = "Keep"
        else:
            prompt = (
                "The duo won the hand: choose which card goes back to "
                f"{whose(g.names[g.lone])} hand."
            )
            word = "Return"
        choices = tuple(
            Choice(f"{word} {label(c)}", Action("keep", value=c), str(i + 1))
            for i, c in enumerate(cards)
        )
        return Decision(seat, "keep", prompt, None, None, choices, hidden=seat == g.lone)

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Hand {g.hand_no}: {acting} to choose the card that returns. {score_text(g)}."

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)
