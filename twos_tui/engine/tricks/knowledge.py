"""What one seat of the trick game knows, as integers, and deals that fit it (for search).

:func:`determinize` samples a full deal consistent with one seat's observation (its own
hand, every card played, the voids the play has revealed) using the caller's generator;
:func:`from_game` is a copy of a protocol game's rules state. Nothing here knows any
strategy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..bitmask import bits
from ..observation import TwosTricksObservation, seat_card
from .cards import FULL, INDEX, mask_of
from .state import TricksState

if TYPE_CHECKING:
    from .game import TwosTricksGame


def from_game(game: TwosTricksGame) -> TricksState:
    """A copy of a protocol game's current deal (its rules state)."""
    return game.core.copy()


def plays_of_deal(obs: TwosTricksObservation) -> list[tuple[int, int]]:
    """Every card played this deal as ``(seat, card)`` in order, from the public log."""
    deal = obs.get("deal_number")
    out = []
    for h in obs.get("history", ()):
        if h.get("kind") == "play" and h.get("deal") == deal and "card" in h:
            seat = h["seat"]
            assert seat is not None  # a play names its player
            out.append((seat, INDEX[h["card"]]))
    return out


def voids(obs: TwosTricksObservation) -> list[int]:
    """Per seat, a mask of the suits (bit ``s``) it has shown it no longer holds: it
    played a card of another suit, not a 2, to a trick led in that suit."""
    out = [0] * obs["players"]
    trick: list[int] = []
    for seat, card in plays_of_deal(obs):
        if len(trick) == obs["players"]:
            trick = []
        if trick:
            led = trick[0] // 13
            if card // 13 != led and card % 13 != 12:
                out[seat] |= 1 << led
        trick.append(card)
    return out


def unseen_mask(obs: TwosTricksObservation) -> int:
    """The cards ``obs``'s seat has not seen: in the other hands."""
    seen = (
        mask_of(obs["hand"])
        | mask_of(obs.get("played", ()))
        | mask_of(seat_card(p)[1] for p in obs["trick"])
    )
    return FULL & ~seen


def determinize(
    obs: TwosTricksObservation,
    rng: random.Random,
    weight: Callable[[int, int], float] | None = None,
    void_masks: list[int] | None = None,
) -> TricksState:
    """A full deal consistent with what ``obs``'s seat knows: its hand, the cards played,
    the trick on the table, each seat's card count and revealed voids. The unseen cards
    go to the other seats at random (``rng``); ``weight(seat, card) -> float`` (optional)
    makes a card likelier in one hand than another (a soft read of the play).

    Cards are placed most-constrained first, each to a seat with room, chosen with odds
    proportional to the room left (times ``weight``); a dead end restarts, and after a
    few restarts the voids are dropped (an observation built by hand may contradict them).
    """
    me = obs["seat"]
    n = obs["players"]
    s = TricksState()
    s.hands[me] = mask_of(obs["hand"])
    s.trick = [INDEX[seat_card(p)[1]] for p in obs["trick"]]
    s.leader = obs["leader"]
    s.current = obs["to_act"][0] if obs["to_act"] else me
    s.points = list(obs["points"])
    s.honours = list(obs["honours"])
    s.catches = list(obs["catch_points"])
    s.tricks_taken = list(obs["tricks_taken"])
    s.trick_number = obs["trick_number"]
    s.played = mask_of(obs.get("played", ()))
    s.over = obs["deal_over"]
    unseen = bits(unseen_mask(obs))
    need = [0 if i == me else obs["hand_counts"][i] for i in range(n)]
    vm = voids(obs) if void_masks is None else void_masks
    others = [i for i in range(n) if i != me]
    for attempt in range(12):
        use_voids = attempt < 10
        allowed = {}
        for c in unseen:
            su = c // 13
            allowed[c] = [i for i in others if not (use_voids and vm[i] >> su & 1)]
        order = unseen[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        room = need[:]
        hands = [0] * n
        ok = True
        for c in order:
            cands = [i for i in allowed[c] if room[i] > 0]
            if not cands:
                ok = False
                break
            if len(cands) == 1:
                pick = cands[0]
            else:
                ws = [room[i] * (weight(i, c) if weight else 1.0) for i in cands]
                total = sum(ws)
                x = rng.random() * total
                pick = cands[-1]
                for i, w in zip(cands, ws, strict=True):
                    x -= w
                    if x < 0:
                        pick = i
                        break
            hands[pick] |= 1 << c
            room[pick] -= 1
        if ok:
            for i in others:
                s.hands[i] = hands[i]
            return s
    raise ValueError("the observation cannot be dealt out: card counts do not add up")
