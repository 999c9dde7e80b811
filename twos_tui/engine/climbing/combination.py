"""A combination of cards as players read it and how it compares (:class:`Combination`,
the core's :func:`~.core.beats` over its fields), and the order its cards are shown
in (:func:`shown_order`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from ..cards import display, display_cards
from .core import Move, beats

#: a combination's pattern: ``("set", 2)``, ``("run", 5)``, ``("bomb", 4, 1)``, ...
Slot = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Combination:
    """A legal set of cards and how it compares.

    ``a.beats(b)`` when ``a.power > b.power`` (a bomb over a non-bomb), or when both
    have the same ``power`` and ``slot`` (the same pattern: same count, same run
    length, ...) and ``a.key > b.key``. If ``b.strict`` is set, ``a`` must carry the
    same ``strict`` mark to beat it (e.g. a same-suit run under the house rule).
    """

    kind: str
    cards: tuple[str, ...]
    slot: Slot
    key: tuple[int, ...]
    power: int = 0
    strict: str | None = None

    def beats(self, other: Combination) -> bool:
        """The core's comparison (:func:`.core.beats`) over these fields."""
        return beats(
            cast(Move, (0, self.slot, self.key, self.power, self.strict)),
            cast(Move, (0, other.slot, other.key, other.power, other.strict)),
        )

    @property
    def is_bomb(self) -> bool:
        return self.power > 0

    def describe(self) -> str:
        return f"{self.kind.replace('-', ' ')} {display_cards(shown_order(self.kind, self.cards))}"


@lru_cache(maxsize=256)
def describe_kind(kind: str) -> str:
    if kind.startswith("bomb-"):
        w, ln = kind[5:].split("x")
        return f"bomb {w}×{ln}"
    return kind.replace("-", " ")


def shown_order(kind: str, cards: Sequence[str]) -> tuple[str, ...]:
    """The cards of a play in the order a player reads them: a straight's 2 first (in a
    straight the 2 is the bottom card: 2-3-4-5-6), a full house's three of a kind before
    its pair. Other plays keep their order (lowest first). Display only: the rules never
    depend on the order."""
    if kind in ("straight", "straight-flush"):
        twos = [c for c in cards if c[:-1] == "2"]
        if twos and len(twos) < len(cards):
            return tuple(twos + [c for c in cards if c[:-1] != "2"])
    elif kind == "full-house":
        count: dict[str, int] = {}
        for c in cards:
            count[c[:-1]] = count.get(c[:-1], 0) + 1
        three = [c for c in cards if count[c[:-1]] >= 3]
        return tuple(three + [c for c in cards if count[c[:-1]] < 3])
    return tuple(cards)


def reading_order(cards: Sequence[str]) -> tuple[str, ...]:
    """:func:`shown_order` for cards whose kind is not at hand: five or more cards of
    different ranks holding a 2 and a 3 are a straight (no game's run goes round from
    the 2 to the 3 the other way); five cards of two ranks, three and two, a full house."""
    ranks = [c[:-1] for c in cards]
    if len(cards) >= 5 and len(set(ranks)) == len(ranks) and "2" in ranks and "3" in ranks:
        return shown_order("straight", cards)
    if len(cards) == 5 and sorted(ranks.count(r) for r in set(ranks)) == [2, 3]:
        return shown_order("full-house", cards)
    return tuple(cards)


def show_combo(combo: Combination) -> str:
    """A combination's cards as a player reads them (see :func:`shown_order`)."""
    return _show(shown_order(combo.kind, combo.cards))


_SHOWN: dict[str, str] = {}


def _show(cards: Iterable[str]) -> str:
    """``display_cards`` with a memo of each card's face (the play log is hot)."""
    out = []
    for c in cards:
        t = _SHOWN.get(c)
        if t is None:
            t = _SHOWN[c] = display(c)
        out.append(t)
    return " ".join(out)
