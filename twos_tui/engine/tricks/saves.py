"""Loading a saved trick game: the checks a ``to_json()`` of :class:`~.game.TwosTricksGame`
must pass (shape, seats, a card census, whose turn) before it becomes a game."""

from __future__ import annotations

from typing import Any

from ..cards import full_deck
from .game import TRICKS_PER_DEAL


def validate_json(cls: Any, data: Any) -> None:
    """Raise :class:`~..protocol.GameDataError` unless ``data`` is a consistent saved deal."""
    from .. import validate as v

    v.validate_base(cls, data)
    d = data
    n = d["players"]
    deck_list = full_deck()
    deck = frozenset(deck_list)
    hands = v.hands(v.field(d, "hands"), "hands", n, deck)
    v.seat(v.field(d, "dealer"), "dealer", n)
    current = v.seat(v.field(d, "current"), "current", n)
    leader = v.seat(v.field(d, "leader"), "leader", n)
    trick = v.array(v.field(d, "trick"), "trick", None, n - 1)
    for i, p in enumerate(trick):
        p = v.array(p, f"trick[{i}]", 2)
        if v.seat(p[0], f"trick[{i}][0]", n) != (leader + i) % n:
            raise v.fail(f"trick[{i}]", "played out of turn")
        v.card(p[1], f"trick[{i}][1]", deck)
    taken = v.hands(v.field(d, "taken"), "taken", n, deck)
    for key in ("tricks_taken", "points", "honours", "catch_points"):
        for i, x in enumerate(v.array(v.field(d, key), key, n)):
            v.integer(x, f"{key}[{i}]")
    v.integer(v.field(d, "trick_number"), "trick_number", 1, TRICKS_PER_DEAL)
    lt = v.field(d, "last_trick")
    if lt is not None:
        lt = v.obj(lt, "last_trick")
        v.integer(v.field(lt, "number", "last_trick"), "last_trick.number", 1, TRICKS_PER_DEAL)
        for i, p in enumerate(v.array(v.field(lt, "plays", "last_trick"), "last_trick.plays", n)):
            p = v.array(p, f"last_trick.plays[{i}]", 2)
            v.seat(p[0], f"last_trick.plays[{i}][0]", n)
            v.card(p[1], f"last_trick.plays[{i}][1]", deck)
        v.seat(v.field(lt, "winner", "last_trick"), "last_trick.winner", n)
        v.card(v.field(lt, "winning_card", "last_trick"), "last_trick.winning_card", deck)
        v.integer(v.field(lt, "honours", "last_trick"), "last_trick.honours")
        for i, c in enumerate(
            v.array(v.field(lt, "catches", "last_trick"), "last_trick.catches", None, 8)
        ):
            c = v.array(c, f"last_trick.catches[{i}]", 3)
            v.seat(c[0], f"last_trick.catches[{i}][0]", n)
            v.seat(c[1], f"last_trick.catches[{i}][1]", n)
            v.integer(c[2], f"last_trick.catches[{i}][2]")
    v.census(
        "cards",
        [c for h in hands for c in h] + [p[1] for p in trick] + [c for t in taken for c in t],
        deck_list,
    )
    if d["deal_over"]:
        if any(hands) or trick:
            raise v.fail("deal_over", "the deal is over but cards are still in play")
        return
    if current != (leader + len(trick)) % n:
        raise v.fail("current", f"seat {current} is not next to play in this trick")
    if not hands[current]:
        raise v.fail("hands", f"seat {current} must play but has no cards")
