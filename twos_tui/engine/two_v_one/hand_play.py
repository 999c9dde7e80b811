"""The words of the five hands of a 2v1 round (docs/rules.md §5.6 to §5.8).

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

The trick flow is the core's (:class:`~.core.RoundSim`); this module words it, shows the
table, reveals the cards to every seat as they turn face up, and keeps the last hand's
summary and the order of the pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import HIDDEN
from ..observation import TableEntry
from ..protocol import Action, Choice, Decision
from ..words import whose
from .core import CODES, INDEX, KEEP, OVER, PV, RB, SUIT, N, action_of
from .deck import (
    HANDS_PER_ROUND,
    SUIT_NAMES,
    SUIT_ORDER,
    label,
    labels,
    pair_reason,
    parse,
)
from .phase import Phase, lone_name, said, score_text, selection

if TYPE_CHECKING:
    from .game import TwoVOneGame


def hand_table(g: TwoVOneGame, seat: int) -> list[TableEntry]:
    """The hand in progress as ``seat`` sees it: the lone player's two cards (the
    face-down one shown to the lone player, and to all once the hand is decided) and the
    duo's cards (face down to the partner during a blindfold)."""
    table: list[TableEntry] = []
    core = g.core
    lone = core.lone
    if lone < 0 or core.up < 0:
        return table
    cards = [CODES[core.up]]
    keep = core.phase == KEEP
    if core.down >= 0:
        cards.append(CODES[core.down] if keep or seat == lone else HIDDEN)
    last = g.last_hand if keep else None
    lab = f"lone {last['lone_value']}" if last else "led"
    table.append({"seat": lone, "cards": cards, "label": lab})
    if last:
        for s, c in last["duo"]:
            table.append({"seat": s, "cards": [c], "label": f"duo {last['duo_value']}"})
        return table
    blind = core.blind
    for s in ((lone + 1) % N, (lone + 2) % N):
        f = core.follows[s]
        if f >= 0:
            face_up = (not blind) or s == seat
            table.append(
                {
                    "seat": s,
                    "cards": [CODES[f] if face_up else HIDDEN],
                    "label": "face down" if blind else "played",
                }
            )
    return table


class LeadPhase(Phase):
    """The lone player leads a card face up (the core starts a new hand with it)."""

    name = "lead"
    verb = "lead a card face up"

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "lead")
        if isinstance(got, str):
            return got
        if INDEX[got[0]] not in g.core.legal(seat):
            return "The rainbow may not be led face up (it may be your face-down card)."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        card = action.cards[0]
        i = INDEX[card]
        g.core.apply(seat, i)
        g.reveal_mask(1 << i)
        g.log(
            f"Hand {g.core.hand_no}: {said(g.names[seat], 'leads')} {label(card)} face up.",
            seat,
            kind="lead",
            card=card,
        )

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

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "lay face down")
        return got if isinstance(got, str) else None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        core = g.core
        core.apply(seat, INDEX[action.cards[0]])
        text = f"{said(g.names[seat], 'lays a second card face down')}."
        if core.blind:
            text += " A blindfold card was led: the duo choose face down, together."
        g.log(text, seat, kind="hide")

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat, "hide", "Now choose the card to lay face down beside it.", (1, 1), "hide"
        )

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)


class FollowPhase(Phase):
    """The duo play one card each (at once, face down, after a blindfold lead); when
    both have played the core decides the hand."""

    name = "follow"
    verb = "play a card"

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        return g.core.blind and g.core.follows[seat] >= 0

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        got = selection(g, seat, action.cards, 1, "play")
        if isinstance(got, str):
            return got
        core = g.core
        i = INDEX[got[0]]
        if i in core.legal(seat):
            return None
        led_no = SUIT[core.up]
        led = SUIT_ORDER[led_no]
        holding = [CODES[c] for c in core.legal(seat)]  # the led suit, held
        if i == RB:
            return (
                f"The rainbow has no suit: you may play it only when you hold no "
                f"{SUIT_NAMES[led]}, and you hold {labels(holding)}."
            )
        return f"You must follow the led suit, {SUIT_NAMES[led]}: you hold {labels(holding)}."

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        core = g.core
        card = action.cards[0]
        i = INDEX[card]
        lone = core.lone
        a, b = (lone + 1) % N, (lone + 2) % N
        other = core.follows[b if seat == a else a]
        blind = core.blind
        # the hand as it was, for the record once the core has decided it
        before = (core.up, core.down, core.won[0], core.hand_no, core.hands[lone], core.pile)
        core.apply(seat, i)
        name = g.names[seat]
        if blind:
            g.log(f"{said(name, 'lays a card face down')}.", seat, kind="follow")
        else:
            g.reveal_mask(1 << i)
            g.log(f"{said(name, 'plays')} {label(card)}.", seat, kind="follow", card=card)
        if other >= 0:  # both duo cards are down: the core has decided the hand
            d1, d2 = (i, other) if seat == a else (other, i)
            if blind:
                g.log(
                    f"The duo reveal: {g.names[a]} {label(CODES[d1])}, "
                    f"{g.names[b]} {label(CODES[d2])}.",
                    None,
                    kind="reveal",
                )
            self._decided(g, before, d1, d2)

    def _decided(
        self, g: TwoVOneGame, before: tuple[int, int, int, int, int, int], d1_i: int, d2_i: int
    ) -> None:
        """The core has decided the hand: record and word it. ``before``: the lone
        player's face-up and face-down cards, its hands won, the hand's number, its hand
        and the pile before the hand was decided; ``d1_i``, ``d2_i``: the duo's cards (the
        lone player's left neighbour's first)."""
        core = g.core
        up_i, down_i, won, hand_no, lone_hand, pile = before
        lone_wins = core.won[0] > won
        lone = core.lone
        duo = ((lone + 1) % N, (lone + 2) % N)
        up, down, d1, d2 = CODES[up_i], CODES[down_i], CODES[d1_i], CODES[d2_i]
        g.reveal_mask((1 << down_i) | (1 << d1_i) | (1 << d2_i))
        lone_v, duo_v = PV[up_i][down_i], PV[d1_i][d2_i]
        lone_reason, duo_reason = pair_reason(up, down), pair_reason(d1, d2)
        winner = "lone" if lone_wins else "duo"
        last = g.last_hand = {
            "hand": hand_no,
            "lone": [up, down],
            "duo": [(duo[0], d1), (duo[1], d2)],
            "lone_value": lone_v,
            "duo_value": duo_v,
            "lone_reason": lone_reason,
            "duo_reason": duo_reason,
            "winner": winner,
            "returned": None,
            "returned_public": True,
        }
        tie = " (a tie goes to the lone player)" if lone_v == duo_v else ""
        down_label = label(down)
        g.log(
            f"{said(g.names[lone], 'turns over')} {down_label}: {label(up)} {down_label} "
            f"= {lone_v} ({lone_reason}) against {label(d1)} {label(d2)} = "
            f"{duo_v} ({duo_reason}). "
            f"{said(g.names[lone], 'wins') if lone_wins else 'The duo win'} "
            f"hand {hand_no}{tie}.",
            lone,
            kind="hand",
            winner=winner,
            lone_value=lone_v,
            duo_value=duo_v,
            hand=hand_no,
            lone_cards=[up, down],
            duo_cards=[[duo[0], d1], [duo[1], d2]],
        )
        g.pile.extend([d1, d2])
        gone = core.pile & ~pile
        if gone >> up_i & 1:
            g.pile.append(up)
        if gone >> down_i & 1:
            g.pile.append(down)
        back = core.hands[lone] & ~lone_hand
        if core.phase == OVER:
            g.RULES[OVER].entered(g)
        elif back:  # a played rainbow: the other card is back at once
            code = CODES[back.bit_length() - 1]
            last["returned"] = code
            g.log(
                f"The rainbow is spent; {label(code)} goes back to {whose(g.names[lone])} hand.",
                lone,
                kind="return",
                card=code,
            )

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        led = SUIT_NAMES[SUIT_ORDER[SUIT[g.core.up]]]
        prompt = f"Play one card: follow {led} if you can."
        if g.core.blind:
            prompt = f"Blindfold! Choose one card face down (follow {led} if you can)."
        return Decision(seat, "follow", prompt, (1, 1), "follow", (), hidden=g.core.blind)

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Hand {g.hand_no}: {acting} to play. {score_text(g)}."

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)


class KeepPhase(Phase):
    """The side that won the hand chooses which of the lone player's two cards goes
    back to the lone hand; the other is out of play."""

    name = "keep"
    verb = "choose the card that goes back to the lone hand"

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        try:
            code = parse(action.value)
        except ValueError as e:
            return str(e)
        if INDEX[code] not in g.core.legal(seat):
            return (
                f"Choose one of the lone player's two cards: "
                f"{label(g.lead_up or '')} or {label(g.lead_down or '')}."
            )
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        core = g.core
        last = g.last_hand
        assert last is not None and type(action.value) is str
        card = parse(action.value)
        lone, pile = core.lone, core.pile
        core.apply(seat, INDEX[card])
        g.pile.append(CODES[(core.pile & ~pile).bit_length() - 1])
        last["returned"] = card
        if seat == lone:
            last["returned_public"] = False
            g.log(
                f"{said(g.names[seat], 'secretly keeps one of the two cards')}.",
                seat,
                kind="return",
            )
        else:
            g.log(
                f"{said(g.names[seat], 'sends')} {label(card)} back to "
                f"{whose(g.names[lone])} hand.",
                seat,
                kind="return",
                card=card,
            )

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
            Choice(f"{word} {label(c)}", action_of(KEEP, INDEX[c]), str(i + 1))
            for i, c in enumerate(cards)
        )
        return Decision(seat, "keep", prompt, None, None, choices, hidden=seat == g.lone)

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Hand {g.hand_no}: {acting} to choose the card that returns. {score_text(g)}."

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        return hand_table(g, seat)
