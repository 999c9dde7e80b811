"""First-game tips: a short word at the moments a newcomer needs it (your first lead,
the first bomb on the table, the first time you cannot beat the table, 2v1's first bid,
exchange and hidden card, the trick game's wild twos and catches).

Each tip has an id ``"<variant>.<moment>"`` and is shown once (the settings keep the ids
shown; a setting turns them all back on). What is due is read from what the seat at the
screen sees: its observation, its decision, its legal moves and the new log lines. The
texts are ours; they say what to do, not the whole rule (the help page has that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine import Action, Decision
from ..engine.views import AnyView, ClimbingView, LogLine, TricksView

#: (variant, moment) -> (title, text)
TIPS: dict[tuple[str, str], tuple[str, str]] = {}


def _add(variants: Iterable[str], moment: str, title: str, text: str) -> None:
    for v in variants:
        TIPS[(v, moment)] = (title, text)


CLIMBING = ("twos", "big-two", "big-two-5r", "chinese-poker")

_add(
    ["twos"],
    "lead",
    "Your lead",
    "The table is empty, so you choose the pattern: a single, a pair, a triple, four of "
    "a kind or a run of three or more ranks. Each player after you must play the same "
    "pattern, higher, or pass. Leading low cards you cannot otherwise get rid of is "
    "usually wise.",
)
_add(
    ["big-two", "big-two-5r"],
    "lead",
    "Your lead",
    "The table is empty, so you choose the pattern: a single, a pair, a triple or a "
    "five-card poker hand. The others must answer with the same number of cards, "
    "higher, or pass. At the start of a deal the lead must include the lowest card "
    "dealt.",
)
_add(
    ["chinese-poker"],
    "lead",
    "Your lead",
    "The table is empty, so you choose the pattern: a single, pairs or triples (alone "
    "or a chain of consecutive ranks), a full house, a straight of five or more, or four "
    "of a kind with one more card. The others must match it, higher, or pass.",
)
_add(
    CLIMBING,
    "cannot-beat",
    "Nothing beats the table",
    "None of your cards can beat what is on the table: press p to pass. When everyone "
    "else passes too, the last player to play leads the next trick.",
)
_add(
    ["twos"],
    "bomb",
    "A bomb!",
    "A bomb (four of a kind, or two or more cards at each of three or more consecutive "
    "ranks) beats any play that is not a bomb. Only a higher bomb of the same shape, or a "
    "stronger shape, beats it.",
)
_add(
    ["chinese-poker"],
    "bomb",
    "A bomb!",
    "Four of a kind with one more card may be played on anything. Only a higher four of a "
    "kind (compared as the house rules say) beats it.",
)
_add(
    ["chinese-poker"],
    "choose-hand",
    "Choose a hand",
    "Three hands are dealt face down and each player picks one; the last one is put "
    "aside. Pick a letter: you see your hand once you hold it.",
)
_add(
    ["2v1"],
    "bid",
    "Bidding",
    "Bid 3 or 4 if you think you can take exactly that many of the five hands alone "
    "against the other two; otherwise pass. The bidder plays alone; an exact bid earns "
    "two coins, a missed one gives each of the duo a coin.",
)
_add(
    ["2v1"],
    "exchange",
    "The exchange",
    "Nobody bid, so everyone passes two cards to the left at once. Whoever holds the "
    "rainbow must pass it on.",
)
_add(
    ["2v1"],
    "discard",
    "The duo discard",
    "You are in the duo against the bidder: put one card aside face down. Keep cards "
    "that can follow the bidder's suits.",
)
_add(
    ["2v1"],
    "lead",
    "Your lead, face up",
    "As the lone player you lead two cards each hand: first one face up (never the "
    "rainbow), which the duo must follow in suit, then one face down.",
)
_add(
    ["2v1"],
    "hide",
    "The hidden card",
    "Now lay a second card face down. It pairs with your face-up card when the hand is "
    "scored: same suit or same value adds them up, the rainbow doubles the other card.",
)
_add(
    ["2v1"],
    "follow",
    "Following",
    "Play a card of the led suit if you have one. Your card pairs with your partner's to "
    "beat the lone player's two cards.",
)
_add(
    ["twos-tricks"],
    "lead",
    "Your lead",
    "Lead any card: the others must follow its suit if they can. The highest card of the "
    "led suit takes the trick, unless someone plays a 2.",
)
_add(
    ["twos-tricks"],
    "wild-two",
    "Your 2s are wild",
    "A 2 may be played at any time, even when you could follow suit, and the first 2 in "
    "a trick wins it, unless the 3 of the same suit joins the trick.",
)
_add(
    ["twos-tricks"],
    "cannot-follow",
    "You cannot follow suit",
    "You hold none of the led suit, so any card will do. A card of another suit never "
    "wins the trick: it is a good moment to shed a low card.",
)
_add(
    ["twos-tricks"],
    "catch",
    "A catch!",
    "A later 2 caught by the first 2, or a 2 caught by the 3 of its suit, moves points "
    "from the victim to the catcher: catches count beside the honours (A, K, Q, J).",
)


def tip_id(variant: str, moment: str) -> str:
    return f"{variant}.{moment}"


def tip_text(variant: str, moment: str) -> tuple[str, str] | None:
    return TIPS.get((variant, moment))


def _rank(code: str) -> str:
    return code[:-1]


def moments_for_turn(
    variant: str,
    obs: AnyView,
    decision: Decision | None,
    legal: Sequence[Action],
) -> list[str]:
    """The tips a seat's turn may call for, most useful first."""
    if decision is None:
        return []
    kind = decision.kind
    out: list[str] = []
    if variant == "2v1":
        return [kind] if (variant, kind) in TIPS else []
    if kind == "choose-hand":
        return ["choose-hand"]
    if isinstance(obs, TricksView):
        hand = [str(c) for c in obs.hand]
        led = obs.led_suit
        if led is None:
            out.append("lead")
        elif not any(c[-1] == led and _rank(c) != "2" for c in hand):
            out.append("cannot-follow")
        if any(_rank(c) == "2" for c in hand):
            out.append("wild-two")
        return out
    if not isinstance(obs, ClimbingView) or obs.top is None:
        out.append("lead")
    elif legal and all(a.kind == "pass" for a in legal):
        out.append("cannot-beat")
    return out


def moments_for_news(variant: str, entries: Iterable[LogLine]) -> list[str]:
    """The tips new log lines may call for (a bomb, a catch)."""
    out = []
    for e in entries:
        if e.bomb:
            out.append("bomb")
        elif e.kind == "trick" and "catches" in e.text:
            out.append("catch")
    return [m for m in out if (variant, m) in TIPS]
