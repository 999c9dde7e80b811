"""The fast policies of the ``hard`` 2v1 opponent's playouts (:mod:`.two_v_one_search`):
a quick bid, the lone player planning with :class:`LoneModel`, the duo by quick rules,
on the lean simulation of :mod:`twos_tui.engine.two_v_one.core`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..engine.two_v_one import core as S
from ..engine.two_v_one.core import (
    BID,
    DISCARD,
    EXCHANGE,
    FOLLOW,
    HIDE,
    KEEP,
    LEAD,
    PV,
    RAISE,
    RB,
    RB_BIT,
    SUIT,
    VALUE,
    RoundSim,
    bits,
    follow_mask,
)
from ..engine.two_v_one.deck import HANDS_PER_ROUND
from .two_v_one_odds import (
    BLIND,
    STRENGTH,
    LonePlan,
    N,
    duo_discard,
    duo_extremes,
    duo_fights,
    keys_for,
    odds_key,
    plan_for,
)

# ===== fast policies for the simulation (hard's playouts) =====================================
_BID_SCORES: dict[int, int] = {}


def _quick_bid_score(hand: int) -> int:
    """A cheap stand-in for the normal bid: the value of the best three disjoint pairs,
    and 4 more with the rainbow (remembered per hand)."""
    got = _BID_SCORES.get(hand)
    if got is None:
        if len(_BID_SCORES) > 50_000:
            _BID_SCORES.clear()
        got = _BID_SCORES[hand] = _bid_score(hand)
    return got


def _bid_score(hand: int) -> int:
    cards = bits(hand)
    pairs = sorted(
        ((PV[a][b], a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]), reverse=True
    )
    used = 0
    total = 0
    taken = 0
    for v, a, b in pairs:
        if used >> a & 1 or used >> b & 1:
            continue
        used |= (1 << a) | (1 << b)
        total += v
        taken += 1
        if taken == 3:
            break
    return total + (4 if hand & RB_BIT else 0)


QUICK_BID3 = 20
QUICK_BID4 = 22


class LoneModel:
    """How the lone player plays in a playout: with a :class:`LonePlan` over odds it
    could know — the duo's cards (hands and discards) dealt again at random between the
    two duo hands, since it cannot see who holds what. Plans are shared between the
    playouts of one iteration (same duo cards, same plan). ``rule_seat`` plans with the
    fight/feed rule (the searching seat itself), the others with the worst case."""

    def __init__(self, rng: random.Random, rule_seat: int = -1, splits: int = 4) -> None:
        self.rng = rng
        self.rule_seat = rule_seat
        self.splits = splits
        self.plans: dict[tuple[int, int, int, int], LonePlan] = {}
        self.downs: dict[tuple[int, int], int] = {}

    def plan(self, s: RoundSim) -> LonePlan:
        lone = s.lone
        a, b = (lone + 1) % N, (lone + 2) % N
        ha, hb = s.hands[a], s.hands[b]
        union = ha | hb
        for c in s.discards:
            if c >= 0:
                union |= 1 << c
        na, nb = bin(ha).count("1"), bin(hb).count("1")
        key = (union, na, nb, s.hands[lone])
        plan = self.plans.get(key)
        if plan is None:
            cards = bits(union)
            splits = []
            for _ in range(self.splits):
                self.rng.shuffle(cards)
                splits.append((_mask(cards[:na]), _mask(cards[na : na + nb])))
            lone_cards = s.hands[lone]
            for c in (s.up, s.down):
                if c >= 0:
                    lone_cards |= 1 << c
            if s.phase == KEEP:
                top_left = bin(s.hands[lone]).count("1")
            else:
                top_left = bin(lone_cards).count("1") - 1
            plan = plan_for(
                splits, keys_for(lone_cards), top_left, self.rng, lone == self.rule_seat
            )
            self.plans[key] = plan
        return plan

    def move(self, s: RoundSim, seat: int) -> int:
        p = s.phase
        need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
        hand = s.hands[seat]
        if p == LEAD:
            _, u, d = self.plan(s).best(hand, need, left)
            if u < 0:  # a hand of one card (only in positions built by hand)
                return s.legal(seat)[0]
            self.downs[(s.hand_no, hand & ~(1 << u))] = d
            return u
        if p == HIDE:
            d = self.downs.get((s.hand_no, hand), -1)
            if d >= 0 and hand >> d & 1:
                return d
            d = self.plan(s).best(hand, need, left, up=s.up)[2]
            return d if d >= 0 else s.legal(seat)[0]
        # KEEP, lone: the card that leaves the better plan
        plan = self.plan(s)
        a, b = s.up, s.down
        left -= 1
        va = plan.value(hand | (1 << a), need, left)
        vb = plan.value(hand | (1 << b), need, left)
        if va == vb:
            return a if (STRENGTH[a] >= STRENGTH[b]) == (need > 0) else b
        return a if va > vb else b


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def rollout_move(
    s: RoundSim, seat: int, rng: random.Random, lone_model: LoneModel | None = None
) -> int:
    """A quick, sensible move for ``seat`` in a simulated round. It may look at the other
    hands of the sampled deal (they are a guess anyway) but never at a face-down card.
    With ``lone_model`` the lone player plans its hands (:class:`LoneModel`)."""
    p = s.phase
    if p == FOLLOW:
        return _rollout_follow(s, seat)
    if lone_model is not None and seat == s.lone and p in (LEAD, HIDE, KEEP):
        return lone_model.move(s, seat)
    if p == LEAD:
        u, _ = _rollout_pair(s, -1)
        return u
    if p == HIDE:
        _, d = _rollout_pair(s, s.up)
        return d
    if p == KEEP:
        need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no
        a, b = s.up, s.down
        strong, weak = (a, b) if STRENGTH[a] >= STRENGTH[b] else (b, a)
        if seat == s.lone:
            return strong if need > 0 else weak
        return weak if duo_fights(need, left) else strong
    if p == DISCARD:
        return duo_discard(s.hands[seat])
    if p == BID:
        legal = s.legal(seat)
        score = _quick_bid_score(s.hands[seat])
        if 4 in legal and score >= QUICK_BID4:
            return 4
        if 3 in legal and score >= QUICK_BID3:
            return 3
        if 0 in legal:
            return 0
        return 3 if 3 in legal else 4
    if p == RAISE:
        return 4 if _quick_bid_score(s.hands[seat]) >= QUICK_BID4 + 3 else 3
    if p == EXCHANGE:
        cards = sorted(bits(s.hands[seat]), key=lambda c: (c != RB, STRENGTH[c]))
        return (1 << cards[0]) | (1 << cards[1])
    legal = s.legal(seat)
    return legal[rng.randrange(len(legal))]


def _rollout_pair(s: RoundSim, up: int) -> tuple[int, int]:
    lone = s.lone
    a, b = (lone + 1) % N, (lone + 2) % N
    ha, hb = s.hands[a], s.hands[b]
    hand = s.hands[lone]
    need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
    cards = bits(hand)
    ext: dict[int, tuple[int, int]] = {}
    if need >= left:
        want = 1
    elif need <= 0:
        want = 0
    else:
        want = -1  # either: take whichever is sure, throwing first while the duo fight
    best = None
    best_key = None
    ups = [up] if up >= 0 else [c for c in cards if c != RB]
    for u in ups:
        key = odds_key(u)
        e = ext.get(key)
        if e is None:
            e = ext[key] = duo_extremes(ha, hb, SUIT[u], BLIND[u])
        mx, mn = e
        for d in cards:
            if d == u:
                continue
            v = PV[u][d]
            spend = STRENGTH[u] + STRENGTH[d]
            lo = STRENGTH[u] if STRENGTH[u] < STRENGTH[d] else STRENGTH[d]
            if want == 1:
                k = (v >= mx, -lo if v >= mx else v - mx, -spend)
            elif want == 0:
                k = (v < mn, -spend if v < mn else mn - v, 0)
            else:
                sure_win = v >= mx
                sure_loss = v < mn
                if need > left - need:
                    k = (sure_win, sure_loss, -lo)
                else:
                    k = (sure_loss, sure_win, -spend)
            if best_key is None or k > best_key:
                best_key, best = k, (u, d)
    if best is None:  # a hand of one card (only in positions built by hand)
        c = bits(hand)[0] if hand else -1
        return (c, c) if up < 0 else (up, c)
    return best


def _rollout_follow(s: RoundSim, seat: int) -> int:
    lone = s.lone
    hand = s.hands[seat]
    up = s.up
    legal = bits(follow_mask(hand, SUIT[up]))
    if len(legal) == 1:
        return legal[0]
    need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
    fight = duo_fights(need, left)
    partner = 3 - lone - seat
    pcard = s.follows[partner]
    if s.blind:
        pcard = -1
    # the lone pair is unseen: judge by what it could be
    lone_hand = s.hands[lone] | ((1 << s.down) if s.down >= 0 else 0)
    vals = [PV[up][x] for x in bits(lone_hand)] or [VALUE[up]]
    lone_v = max(vals) if need >= left - need else min(vals)
    if pcard >= 0:
        scored = [((PV[c][pcard] > lone_v) == fight, c) for c in legal]
    elif not s.blind:
        replies = bits(follow_mask(s.hands[partner], SUIT[up]))
        scored = []
        for c in legal:
            if replies:
                dv = max(PV[c][x] for x in replies) if fight else min(PV[c][x] for x in replies)
            else:
                dv = STRENGTH[c]
            scored.append(((dv > lone_v) == fight, c))
    else:
        c = max(legal, key=STRENGTH.__getitem__) if fight else min(legal, key=STRENGTH.__getitem__)
        return c
    good = [c for ok, c in scored if ok]
    pool = good or legal
    if fight == bool(good):
        return min(pool, key=STRENGTH.__getitem__)
    return max(pool, key=STRENGTH.__getitem__)


def playout(s: RoundSim, rng: random.Random, lone_model: LoneModel | None = None) -> None:
    """Play ``s`` to the end of the round with :func:`rollout_move`."""
    moves = 0
    while s.phase != S.OVER:
        acting = s.to_act()
        seat = acting[0]
        s.apply(seat, rollout_move(s, seat, rng, lone_model))
        moves += 1
        if moves > 400:  # exchanges forever cannot happen (the rainbow forces a bid)
            raise RuntimeError("a simulated round did not end")
