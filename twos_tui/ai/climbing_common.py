"""What the climbing games' ``easy`` and ``normal`` opponents (:mod:`.climbing_ai`) share:
each variant's card order, the words for a kind of play and for cards, and small facts
about a hand (the penalty it would cost, whether a play splits a set, whether it holds
the lowest card, whether a play can be beaten).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..engine.cards import display
from ..engine.climbing.combination import reading_order
from ..engine.climbing.poker_cards import CODE_IDX
from ..engine.climbing.rules import rules_for
from ..engine.climbing.rules_twos import CODE_INT
from ..engine.observer import ObsIn, as_climbing
from ..engine.protocol import Action
from ..engine.views import ClimbingView
from .hand_plan import Combo, Planner

#: card orders of the variants (a higher integer is a higher single card; in Chinese
#: Poker suits do not count, so only ``>> 2`` matters)
_ORDER = {
    "twos": CODE_INT,
    "big-two": CODE_IDX,
    "big-two-5r": CODE_IDX,
    "chinese-poker": CODE_IDX,
}

_KIND_WORDS = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "run": "run",
    "bomb": "bomb",
    "pairs": "chain of pairs",
    "triples": "chain of triples",
    "straight": "straight",
    "flush": "flush",
    "full-house": "full house",
    "four-of-a-kind": "four of a kind",
    "straight-flush": "straight flush",
}


def show(cards: Iterable[str]) -> str:
    """Card labels as a player reads them: ``10♥ J♥`` (a straight's 2 first, a full
    house's three of a kind before its pair, as the table shows them)."""
    return " ".join(display(c) for c in reading_order(tuple(cards)))


def kind_word(combo: Combo) -> str:
    if combo.kind == "run":
        return f"run of {combo.n}"
    return _KIND_WORDS.get(combo.kind, combo.kind.replace("-", " "))


def _plays(legal: list[Action]) -> tuple[list[Action], Action | None]:
    plays = [a for a in legal if a.kind == "play"]
    passes = [a for a in legal if a.kind == "pass"]
    return plays, (passes[0] if passes else None)


def _climbing(obs: ObsIn) -> ClimbingView:
    """The observation as what it is: a climbing game's (the registry gives these agents
    no other family)."""
    return as_climbing(obs)


def _offered(obs: ClimbingView) -> Mapping[str, tuple[str, ...]]:
    """The hands on offer to this seat (Chinese Poker's hand choice), or none."""
    return obs.offered_hands or {}


def _names(obs: ClimbingView) -> list[str]:
    return list(obs.names or [f"Player {i + 1}" for i in range(obs.players)])


def penalty(obs: ClimbingView, left: int) -> int:
    """What holding ``left`` cards costs when someone else goes out (0 where only the
    winner counts)."""
    if left <= 0:
        return 0
    return rules_for(obs.variant, obs.players, obs.options).penalty(left) or 0


def _cards_word(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def splits_a_set(variant: str, hand: Sequence[str], cards: Sequence[str]) -> bool:
    """Does playing ``cards`` take some but not all of a rank the hand holds two or more
    of (a pair, triple or four broken up)? What "without breaking up your hand" denies."""
    order = _ORDER[variant]
    held: dict[int, int] = {}
    for c in hand:
        held[order[c] >> 2] = held.get(order[c] >> 2, 0) + 1
    used: dict[int, int] = {}
    for c in cards:
        used[order[c] >> 2] = used.get(order[c] >> 2, 0) + 1
    return any(held.get(r, 0) >= 2 and u < held[r] for r, u in used.items())


#: the kinds whose plays compare by their highest card (so "lowest" can be told by it)
_BY_TOP_CARD = ("single", "pair", "triple", "run")


def is_lowest(P: Planner, act: Action, combo: Combo, plays: Sequence[Action]) -> bool:
    """Is ``act`` the lowest legal play of its kind and size? Only told for the kinds
    that compare by their highest card; the others are never called lowest."""
    if combo.kind not in _BY_TOP_CARD:
        return False
    k = P.key(act.cards)
    for a in plays:
        if len(a.cards) != combo.n or P.key(a.cards) >= k:
            continue
        other = P.combo_of(a.cards)
        if other is not None and other.kind == combo.kind:
            return False
    return True


def _unbeatable(P: Planner, c: Combo) -> str:
    """How sure a control is, in words: bombs may still beat it where the game has them."""
    if c.bomb or P.bomb_threat() == 0.0:
        return "nobody can beat it"
    return "only a bomb can beat it"
