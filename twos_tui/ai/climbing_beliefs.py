"""What the climbing games' ``hard`` search (:mod:`.climbing_search`) reads from the
public play of a deal: the weights with which the unseen cards are dealt again
(:func:`belief_weights`), how erratic each opponent looks (:func:`erratic`), and the test
that a candidate is clearly better than the incumbent (:func:`clearly_better`).

The method and its measurements are in the docstring of :mod:`.climbing_search`
(steps 3 to 6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..engine.bitmask import bits
from ..engine.climbing.core import Rules
from ..engine.climbing.determinize import played_this_deal
from ..engine.observer import ObsIn, as_climbing
from .climbing_rollout import ACE

#: reading how erratic an opponent is (:func:`erratic`): the prior odds that it plays at
#: random, the likelihood ratios of an odd follow and of a plain one, and the share of
#: random moves the rollouts give a player known to play at random
ODD_PRIOR = 1.0
ODD_LR = 6.0
PLAIN_LR = 0.85
ODD_EPS_MAX = 0.8


# ---------------------------------------------------------------------------------------
# Beliefs: what passes and plays suggest about the unseen cards


def clearly_better(
    count: Sequence[int], diff: Sequence[float], diff2: Sequence[float], z: float
) -> int:
    """The candidate (index > 0) whose mean paired gain over the incumbent (index 0) is
    the largest of those more than ``z`` standard errors above nothing; else 0, the
    incumbent. ``count``, ``diff``, ``diff2``: per candidate, the worlds played, the sum
    of its score minus the incumbent's and the sum of those differences squared."""
    best_i, best_m = 0, 0.0
    for i in range(1, len(count)):
        n = count[i]
        if not n:
            continue
        m = diff[i] / n
        se = math.sqrt(max(diff2[i] / n - m * m, 1e-4) / n)
        if m > z * se and m > best_m:
            best_i, best_m = i, m
    return best_i


def belief_weights(observed: ObsIn, rules: Rules) -> dict[Any, dict[str, float]]:
    """Per-card weights for the opponents (see the module docstring, step 3)."""
    obs = as_climbing(observed)
    seat = obs.me
    deal = obs.deal_number
    codes = rules.codes
    single_key = [0] * len(codes)
    for c in range(len(codes)):
        mv = rules.move_of(1 << c) if (rules.deck_mask >> c) & 1 else None
        single_key[c] = mv[2] if mv is not None else -1
    seen = rules.mask_of(obs.hand)
    for _, cards in played_this_deal(obs):
        seen |= rules.mask_of(cards)
    unseen = [c for c in range(len(codes)) if (rules.deck_mask >> c) & 1 and not seen >> c & 1]
    w: dict[int, dict[int, float]] = {}

    def scale(s: int, c: int, f: float) -> None:
        row = w.setdefault(s, {})
        row[c] = row.get(c, 1.0) * f

    top = None
    for e in obs.history:
        if e.deal != deal:
            continue
        kind = e.kind
        s = e.seat if e.seat is not None else -1  # a play or a pass: a seat
        if kind == "play":
            mv = rules.move_of_codes(e.played)
            if (
                mv is not None
                and s != seat
                and top is not None
                and not mv[3]
                and mv[0].bit_count() == 1
                and top[0].bit_count() == 1
                and top[1] == mv[1]
            ):
                # beat a single with a card well above it: the cards between are less
                # likely in that hand
                for c in unseen:
                    if top[2] < single_key[c] < mv[2]:
                        scale(s, c, 0.7)
            top = mv
        elif kind == "trick":
            top = None
        elif kind == "pass" and top is not None and s != seat and not top[3]:
            tk = top[0].bit_count()
            single = rules.move_of(top[0]) if tk == 1 else None  # (a played mask: a move)
            if single is not None and top[1] == single[1]:
                r = (top[0].bit_length() - 1) >> 2
                f = 0.35 if r < 8 else (0.55 if r < ACE else 0.8)
                for c in unseen:
                    if single_key[c] > top[2]:
                        scale(s, c, f)
            elif tk in (2, 3) and len({c >> 2 for c in bits(top[0])}) == 1:
                r = (top[0].bit_length() - 1) >> 2
                for c in unseen:
                    if c >> 2 > r:
                        scale(s, c, 0.85 if tk == 2 else 0.9)
    out: dict[Any, dict[str, float]] = {}
    for s, row in w.items():
        out[s] = {codes[c]: max(0.05, x) for c, x in row.items()}
    return out


def erratic(observed: ObsIn, rules: Rules) -> list[float]:
    """Per seat, the share of random moves the rollouts give that opponent (0 for the
    seat itself): read from the odd follows of this deal that later plays reveal.

    A follow on a single is *odd* when the player passed while holding a single that
    beat it (not an ace or a two, which sound players keep back) or beat it with a card
    above one it held that was enough: both shown by that player playing the card alone
    later in the deal. Sound players almost never do either (measured: 0 to 6% of the
    singles they follow; random players 22 to 25%)."""
    obs = as_climbing(observed)
    seat = obs.me
    deal = obs.deal_number
    n = obs.players
    events = [e for e in obs.history if e.deal == deal and e.kind in ("play", "pass", "trick")]
    # for each event, the singles its seat plays later (keys), walking backwards
    later: list[list[int]] = [[] for _ in range(n)]
    after: list[tuple[int, ...]] = [()] * len(events)
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "trick":
            continue
        after[i] = tuple(later[e.by])
        if e.kind == "play" and len(e.played) == 1:
            mv = rules.move_of_codes(e.played)
            if mv is not None and (mv[0].bit_length() - 1) >> 2 < ACE:
                later[e.by].append(mv[2])
            elif mv is not None:
                later[e.by].append(-mv[2] - 1)  # an ace or two: marked
    follows = [0] * n
    odd = [0] * n
    top = None
    for i, e in enumerate(events):
        kind = e.kind
        if kind == "trick":
            top = None
            continue
        s = e.by
        if top is not None and s != seat and not top[3] and top[0].bit_count() == 1:
            follows[s] += 1
            if kind == "pass":
                if any(k > top[2] for k in after[i]):
                    odd[s] += 1
            else:
                mv = rules.move_of_codes(e.played)
                if (
                    mv is not None
                    and mv[0].bit_count() == 1
                    and any(top[2] < (k if k >= 0 else -k - 1) < mv[2] for k in after[i])
                ):
                    odd[s] += 1
        if kind == "play":
            top = rules.move_of_codes(e.played)
    out = [0.0] * n
    for s in range(n):
        if s != seat:
            odds = ODD_PRIOR * ODD_LR ** odd[s] * PLAIN_LR ** (follows[s] - odd[s])
            out[s] = ODD_EPS_MAX * odds / (1.0 + odds)
    return out
