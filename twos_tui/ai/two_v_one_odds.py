"""What the 2v1 opponents (:mod:`.two_v_one_ai`) know about pairs: each card's strength on
its own, the odds that a lead holds against the duo (:class:`DuoOdds`), the lone
player's plan for the round (:class:`LonePlan`), and when the duo fights
(:func:`duo_fights`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..engine.two_v_one.core import (
    CODES,
    PV,
    RB,
    SUIT,
    SUIT_MASK,
    VALUE,
    bits,
    follow_mask,
)
from ..engine.two_v_one.deck import HANDS_PER_ROUND

N = 3
#: how useful a card is on its own: its value; the rainbow counts as the best card
STRENGTH: tuple[int, ...] = tuple(7 if c == RB else VALUE[c] for c in range(len(CODES)))
BLIND: tuple[bool, ...] = tuple(VALUE[c] == 2 for c in range(len(CODES)))
NSUITS = len(SUIT_MASK)
MAXV = 13  # pair values are 0..12


def odds_key(up: int) -> int:
    """Which odds table a lead uses: its suit, plus 5 after a blindfold lead."""
    return SUIT[up] + (NSUITS if BLIND[up] else 0)


#: :func:`odds_key` of every card (the rainbow is never led: -1)
KEY: tuple[int, ...] = tuple(
    -1 if c == RB else SUIT[c] + (NSUITS if VALUE[c] == 2 else 0) for c in range(len(CODES))
)


def duo_extremes(hand_a: int, hand_b: int, led: int, blind: bool) -> tuple[int, int]:
    """The best and the worst pair value two duo hands can show to a lead of suit
    ``led``. After a blindfold lead neither sees the other's card: each plays its
    strongest card (fighting) or its weakest (feeding)."""
    fa = bits(follow_mask(hand_a, led))
    fb = bits(follow_mask(hand_b, led))
    if not fa or not fb:
        return 0, 0
    if blind:
        ka = STRENGTH.__getitem__
        return (
            PV[max(fa, key=ka)][max(fb, key=ka)],
            PV[min(fa, key=ka)][min(fb, key=ka)],
        )
    mx, mn = 0, 99
    for x in fa:
        row = PV[x]
        for y in fb:
            v = row[y]
            if v > mx:
                mx = v
            if v < mn:
                mn = v
    return mx, mn


def duo_discard(hand: int) -> int:
    """The card a duo member lays away: its weakest, sooner from a short suit (a void
    frees its play), never the rainbow."""
    best, cost = -1, 99.0
    for c in bits(hand):
        if c == RB:
            continue
        same = bin(hand & SUIT_MASK[SUIT[c]]).count("1")
        k = STRENGTH[c] - (1.5 if same == 1 else 0.0)
        if k < cost:
            best, cost = c, k
    return best if best >= 0 else bits(hand)[0]


class DuoOdds:
    """How a lone pair of value ``v`` fares, from sampled duo hands: ``fight[key][v]``
    is the share of samples where it holds against the duo's best answer (the lone
    player wins ties), ``feed[key][v]`` where it holds against their worst (a duo
    trying to hand the lone player the hand). Only the ``keys`` asked for are filled
    (the others say a pair always holds)."""

    __slots__ = ("fight", "feed")

    def __init__(self, duo_hands: list[tuple[int, int]], keys: Iterable[int] | None = None) -> None:
        k = max(1, len(duo_hands))
        one = [1.0] * MAXV
        fight = [one] * (2 * NSUITS)
        feed = [one] * (2 * NSUITS)
        keys = range(2 * NSUITS) if keys is None else keys
        cf = {key: [0] * MAXV for key in keys}
        cd = {key: [0] * MAXV for key in keys}
        ka = STRENGTH.__getitem__
        for a, b in duo_hands:
            fa_all: dict[int, list[int]] = {}
            fb_all: dict[int, list[int]] = {}
            for key in keys:
                led = key % NSUITS
                fa = fa_all.get(led)
                if fa is None:
                    fa = fa_all[led] = bits(follow_mask(a, led))
                    fb_all[led] = bits(follow_mask(b, led))
                fb = fb_all[led]
                if not fa or not fb:
                    mx = mn = 0
                elif key >= NSUITS:  # blindfold: no answering each other
                    mx = PV[max(fa, key=ka)][max(fb, key=ka)]
                    mn = PV[min(fa, key=ka)][min(fb, key=ka)]
                else:
                    mx, mn = 0, 99
                    for x in fa:
                        row = PV[x]
                        for y in fb:
                            v = row[y]
                            if v > mx:
                                mx = v
                            if v < mn:
                                mn = v
                cf[key][mx if mx < MAXV else MAXV - 1] += 1
                cd[key][mn if mn < MAXV else MAXV - 1] += 1
        for key in keys:
            run_f = run_d = 0
            f = [0.0] * MAXV
            d = [0.0] * MAXV
            cfk, cdk = cf[key], cd[key]
            for v in range(MAXV):
                run_f += cfk[v]
                run_d += cdk[v]
                f[v] = run_f / k
                d[v] = run_d / k
            fight[key] = f
            feed[key] = d
        self.fight = fight
        self.feed = feed


def depleted(duo_hands: list[tuple[int, int]], k: int, rng: random.Random) -> list[tuple[int, int]]:
    """The duo hands ``k`` hands later: each has lost ``k`` cards (at random; at least
    one card stays)."""
    if k <= 0:
        return duo_hands
    out = []
    for a, b in duo_hands:
        pair = []
        for h in (a, b):
            cards = bits(h)
            drop = min(k, len(cards) - 1)
            for c in rng.sample(cards, drop) if drop > 0 else ():
                h &= ~(1 << c)
            pair.append(h)
        out.append((pair[0], pair[1]))
    return out


def plan_for(
    duo_hands: list[tuple[int, int]],
    keys: list[int],
    top_left: int,
    rng: random.Random,
    rule: bool = False,
) -> LonePlan:
    """A :class:`LonePlan` whose odds for each later hand come from the duo hands with
    as many cards gone as hands played by then (a suit the duo hold now may be gone)."""
    levels = [DuoOdds(duo_hands, keys)]
    for k in range(1, max(1, top_left)):
        levels.append(DuoOdds(depleted(duo_hands, k, rng), keys))
    return LonePlan(levels, top_left, rule)


def keys_for(hand: int) -> list[int]:
    """The odds tables a lone hand can need: the suits it can lead (and blindfolds)."""
    out = set()
    for c in bits(hand):
        if c != RB:
            out.add(odds_key(c))
    return sorted(out)


class LonePlan:
    """The lone player's plan for the rest of the round, as a small dynamic programme
    over its own cards: the chance of landing exactly on the bid when each hand is
    played with the odds of :class:`DuoOdds` against a duo that always does what hurts
    most (fight when a win helps the lone player, feed when it hurts). Winning keeps the
    better card for later; after a loss the duo send back the card that hurts most.

    :meth:`chances` gives, for a hand of ``left + 1`` cards, the chance for every number
    of hands still needed (index 0 .. ``left``)."""

    def __init__(
        self, odds: DuoOdds | list[DuoOdds], top_left: int = 5, rule: bool = False
    ) -> None:
        levels = odds if isinstance(odds, list) else [odds]
        self.fights = [o.fight for o in levels]
        self.feeds = [o.feed for o in levels]
        self.fight = self.fights[0]  #: the odds of the next hand
        self.feed = self.feeds[0]
        self.top_left = top_left
        self.memo: dict[int, list[float]] = {}
        #: model the duo by :func:`duo_fights` instead of the worst case
        self.rule = rule

    def value(self, hand: int, need: int, left: int) -> float:
        if need < 0 or need > left:
            return 0.0
        if left == 0:
            return 1.0 if need == 0 else 0.0
        return self.chances(hand)[need]

    def chances(self, hand: int) -> list[float]:
        got = self.memo.get(hand)
        if got is not None:
            return got
        cards = bits(hand)
        left = len(cards) - 1
        level = min(max(0, self.top_left - left), len(self.fights) - 1)
        fight, feed = self.fights[level], self.feeds[level]
        if left == 1:
            a, b = cards
            v = PV[a][b]
            lose_best = win_best = 0.0
            for u in (a, b):
                if u != RB:
                    key = KEY[u]
                    x = 1.0 - feed[key][v]
                    if x > lose_best:
                        lose_best = x
                    x = fight[key][v]
                    if x > win_best:
                        win_best = x
            got = self.memo[hand] = [lose_best, win_best]
            return got
        best = [0.0] * (left + 1)
        rng_need = range(left + 1)
        chances = self.chances
        rule = self.rule
        fights = FIGHTS[left]
        for i, x in enumerate(cards):
            for y in cards[i + 1 :]:
                rest = hand & ~((1 << x) | (1 << y))
                if x == RB or y == RB:
                    c = chances(rest | (1 << (y if x == RB else x)))
                    win = [0.0, *c]
                    lose = [*c, 0.0]
                else:
                    cu = chances(rest | (1 << x))
                    cd = chances(rest | (1 << y))
                    win = [0.0] + [a if a > b else b for a, b in zip(cu, cd, strict=True)]
                    if self.rule:
                        cs, cw = (cu, cd) if STRENGTH[x] >= STRENGTH[y] else (cd, cu)
                        lose = [cw[k] if FIGHTS[left - 1][k] else cs[k] for k in range(left)] + [
                            0.0
                        ]
                    else:
                        lose = [a if a < b else b for a, b in zip(cu, cd, strict=True)] + [0.0]
                v = PV[x][y]
                seen_key = -1
                for u in (x, y):
                    if u == RB:
                        continue
                    key = KEY[u]
                    if key == seen_key:
                        continue
                    seen_key = key
                    pf = fight[key][v]
                    pd = feed[key][v]
                    for need in rng_need:
                        vw = win[need]
                        vl = lose[need]
                        if rule:
                            val = vl + (pf if fights[need] else pd) * (vw - vl)
                        else:
                            val = vl + (pf if vw >= vl else pd) * (vw - vl)
                        if val > best[need]:
                            best[need] = val
        self.memo[hand] = best
        return best

    def _pair(self, hand: int, u: int, d: int, left: int) -> list[float]:
        """Chance per need after leading ``u`` and hiding ``d`` from ``hand``."""
        v = PV[u][d]
        key = KEY[u]
        level = min(max(0, self.top_left - left), len(self.fights) - 1)
        pf = self.fights[level][key][v]
        pd = self.feeds[level][key][v]
        if left <= 1:
            return [1.0 - pd, pf]
        rest = hand & ~((1 << u) | (1 << d))
        if u == RB or d == RB:
            c = self.chances(rest | (1 << (u if d == RB else d)))
            win = [0.0, *c]
            lose = [*c, 0.0]
        else:
            cu = self.chances(rest | (1 << u))
            cd = self.chances(rest | (1 << d))
            win = [0.0] + [a if a > b else b for a, b in zip(cu, cd, strict=True)]
            if self.rule:
                cs, cw = (cu, cd) if STRENGTH[u] >= STRENGTH[d] else (cd, cu)
                lose = [cw[k] if FIGHTS[left - 1][k] else cs[k] for k in range(left)] + [0.0]
            else:
                lose = [a if a < b else b for a, b in zip(cu, cd, strict=True)] + [0.0]
        if self.rule:
            f = FIGHTS[left]
            return [
                vl + (pf if f[k] else pd) * (vw - vl)
                for k, (vw, vl) in enumerate(zip(win, lose, strict=True))
            ]
        return [vl + (pf if vw >= vl else pd) * (vw - vl) for vw, vl in zip(win, lose, strict=True)]

    def outcome(self, hand: int, u: int, d: int, need: int, left: int) -> float:
        """Chance of landing on the bid after leading ``u`` face up and hiding ``d``
        (``hand`` holds both)."""
        if need < 0 or need > left:
            return 0.0
        return self._pair(hand, u, d, left)[need]

    def best(self, hand: int, need: int, left: int, up: int = -1) -> tuple[float, int, int]:
        """``(chance, up, down)`` of the best pair from ``hand`` (``up`` fixed if given,
        already out of ``hand``). At equal odds it spends less."""
        full = hand | (1 << up) if up >= 0 else hand
        cards = bits(hand)
        best = (-1.0, -1, -1)
        ups = [up] if up >= 0 else [c for c in cards if c != RB]
        for u in ups:
            for d in cards:
                if d == u:
                    continue
                val = self.outcome(full, u, d, need, left)
                val -= 0.0005 * (STRENGTH[u] + STRENGTH[d])
                if val > best[0]:
                    best = (val, u, d)
        return best


def duo_fights(need: int, left: int) -> bool:
    """Whether the duo try to win this hand: while the lone player needs more of the
    remaining hands than it must lose (a win then is what it needs least). Once it
    needs fewer, they feed it hands so that it overshoots."""
    if need <= 0 or need > left:
        return need > left  # a lost cause either way: take the hands
    return need >= left - need


#: ``FIGHTS[left][need]``: :func:`duo_fights` as a table
FIGHTS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(duo_fights(need, left) for need in range(left + 1)) for left in range(HANDS_PER_ROUND + 1)
)
