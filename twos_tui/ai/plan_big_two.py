"""The hand planner of Big Two, both editions (:mod:`.hand_plan`): singles, pairs,
triples and the five-card poker hands, and how they compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from ..engine.bitmask import bits
from ..engine.climbing.game_big_two import BigTwoGame
from ..engine.climbing.game_big_two_5r import BigTwoFiveRoundGame
from ..engine.climbing.poker_cards import CODE_IDX, IDX_CODE
from ..engine.views import ClimbingView
from .plan_base import (
    _LOWBITS,
    _POP,
    INF,
    NIBBLES,
    Combo,
    Planner,
    SlotKey,
    _Opp,
    _suffix_none,
    none_of,
    tail,
)

# =========================================================================================
# Big Two (both editions)

_FIVE_CAT = {
    "straight": 1,
    "flush": 2,
    "full-house": 3,
    "four-of-a-kind": 4,
    "straight-flush": 5,
}


class _Fives(TypedDict):
    """An opponent's chances at five-card hands (kept in its cache): each straight
    window's, any hand of each category's, and a pair's (for a full house)."""

    windows: list[float]
    any: list[float]
    pair: float


class BigTwoPlanner(Planner):
    variant = "big-two"
    game_cls: Any = BigTwoGame
    enc = CODE_IDX
    dec = IDX_CODE

    def __init__(
        self,
        obs: ClimbingView,
        hand: list[str] | None = None,
        opponents: list[int] | None = None,
        known_out: list[str] | None = None,
    ) -> None:
        super().__init__(obs, hand, opponents, known_out)
        cls = self.game_cls
        self.windows = cls.WINDOWS
        self.suit_first = cls._flush_suit_first(self.options)
        high = self.options.get("straight_23456") == "high"
        # the order of each straight window (its top card's rank; 13 above all)
        self.window_rank = [13 if (high and w[0] == 12) else w[-1] for w in self.windows]
        self.rank_memo: dict[tuple[int, int], tuple[float, tuple[int, ...]]] = {}
        self.five_memo: dict[int, list[Combo]] = {}

    def combo_of(self, cards: Sequence[str]) -> Combo | None:
        return self.classify_mask(self.mask_of(cards))

    def sig_of(self, cards: Sequence[str]) -> int:
        return self.mask_of(cards)

    def slot_of(self, cards: Sequence[str]) -> SlotKey | None:
        got = self.game_cls.classify_idx(sorted(CODE_IDX[c] for c in cards), self.options)
        return None if got is None else ((len(cards),), got[2])

    def classify_mask(self, m: int) -> Combo | None:
        hit = self.costs.get(m)
        if hit is not None:
            return hit
        idxs = bits(m)
        got = self.game_cls.classify_idx(idxs, self.options)
        if got is None:
            return None
        kind, _slot, key = got
        n = len(idxs)
        c = Combo(m, m, kind, n, idxs[-1] >> 2, (key,))
        c.cards = tuple(IDX_CODE[i] for i in idxs)
        self._finish(c, self._strength(c, self.opps, False))
        self.costs[m] = c
        return c

    def _strength(self, c: Combo, opps: list[_Opp], with_bombs: bool) -> float:
        n = c.n
        key = c.info[0]
        unseen = self.unseen
        total = self.total
        s = 1.0
        slot = (n,)
        after = self._after_pass
        if n == 1:
            m = (unseen >> (key + 1)).bit_count()
            for o in opps:
                s *= after(o, slot, key, none_of(total, o.n, m))
            return s
        if n in (2, 3):
            top = c.mask.bit_length() - 1
            r = top >> 2
            higher_same = (unseen >> (4 * r)) & 15 & ~((2 << (top & 3)) - 1)
            for o in opps:
                if o.n < n:
                    continue
                k = ("set", n)
                arr = o.cache.get(k)
                if arr is None:
                    arr = o.cache[k] = _suffix_none(o.q[n])
                p = arr[r]
                if n == 2 and higher_same:
                    p *= 1.0 - 0.5 * o.q[2][r]
                s *= after(o, slot, key, p)
            return s
        cat, k = divmod(key, 64)
        for o in opps:
            if o.n < 5:
                continue
            f = self._fives(o)
            beat = sum(f["any"][cat + 1 :])
            if cat == 1:  # straight
                wr = 13 if k >= 52 else k >> 2
                for w, p in enumerate(f["windows"]):
                    if self.window_rank[w] > wr:
                        beat += p
                    elif (
                        self.window_rank[w] == wr
                        and k < 52
                        and (unseen >> (4 * wr)) & 15 & ~((2 << (k & 3)) - 1)
                    ):
                        beat += 0.5 * p
            elif cat == 2:  # flush
                if self.suit_first:
                    suit, rank = divmod(k, 13)
                    frac = (3 - suit + rank / 13) / 4
                else:
                    frac = (12 - (k >> 2) + 0.5) / 13
                beat += f["any"][2] * max(0.0, min(1.0, frac))
            elif cat == 3:  # full house: a higher triple and any pair
                r = k
                beat += (1.0 - self._suffix(o, 3)[r]) * f["pair"]
            elif cat == 4:
                beat += 1.0 - self._suffix(o, 4)[k]
            s *= after(o, slot, key, max(0.0, 1.0 - beat))
        return s

    def _suffix(self, o: _Opp, n: int) -> list[float]:
        k = ("set", n)
        arr = o.cache.get(k)
        if arr is None:
            arr = o.cache[k] = _suffix_none(o.q[n])
        return arr

    def _fives(self, o: _Opp) -> _Fives:
        got: _Fives | None = o.cache.get("fives")
        if got is not None:
            return got
        q1 = o.q[1]
        wins = []
        for w in self.windows:
            v = 1.0
            for r in w:
                v *= q1[r]
            wins.append(v)
        none = 1.0
        for v in wins:
            none *= 1.0 - v
        p_straight = 1.0 - none
        none = 1.0
        for suit in range(4):
            u = (self.unseen >> suit & NIBBLES).bit_count()
            none *= 1.0 - tail(self.total, o.n, u, 5)
        p_flush = 1.0 - none
        trip_none = self._suffix(o, 3)
        p_trip = 1.0 - trip_none[0] * (1.0 - o.q[3][0])
        pair_none = self._suffix(o, 2)
        p_pair = 1.0 - pair_none[0] * (1.0 - o.q[2][0])
        quad_none = self._suffix(o, 4)
        p_quad = 1.0 - quad_none[0] * (1.0 - o.q[4][0])
        fives: _Fives = {
            "windows": wins,
            "any": [0.0, p_straight, p_flush, p_trip * p_pair, p_quad, 0.0],
            "pair": p_pair,
        }
        o.cache["fives"] = fives
        return fives

    # ----- singles, pairs and triples rank by rank -------------------------------------------
    def _rank_cost(self, r: int, sm: int) -> tuple[float, tuple[int, ...]]:
        """The best split of the cards of rank ``r`` (suit mask ``sm``) into sets."""
        key = (r, sm)
        hit = self.rank_memo.get(key)
        if hit is not None:
            return hit
        if not sm:
            return (0.0, ())
        low = sm & -sm
        rest = [b for b in (1, 2, 4, 8) if sm & b and b != low]
        picks = [low]
        for i, a in enumerate(rest):
            picks.append(low | a)
            for b in rest[i + 1 :]:
                picks.append(low | a | b)
        best: tuple[float, tuple[int, ...]] = (INF, ())
        for p in picks:
            c = self.classify_mask(p << (4 * r))
            assert c is not None  # cards of one rank: a single, pair or triple
            sub = self._rank_cost(r, sm & ~p)
            v = c.cost + sub[0]
            if v < best[0]:
                best = (v, (p << (4 * r),) + sub[1])
        self.rank_memo[key] = best
        return best

    def _sets_cost(self, mask: int, ranks: Iterable[int] = range(13)) -> float:
        total = 0.0
        for r in ranks:
            sm = (mask >> (4 * r)) & 15
            if sm:
                total += self._rank_cost(r, sm)[0]
        return total

    def sets_cost(self, mask: int) -> float:
        """The cost of ``mask`` split into singles, pairs and triples alone (no five-card
        hands: each of those needs a lead to be played)."""
        return self._sets_cost(mask)

    # ----- five-card candidates ------------------------------------------------------------
    def fives(self, mask: int) -> list[Combo]:
        """A short list of five-card hands in ``mask`` worth planning with."""
        hit = self.five_memo.get(mask)
        if hit is not None:
            return hit
        hand = self.hand
        if mask != hand and mask & hand == mask:
            # part of the hand: the hand's candidates that are still there
            out = [f for f in self.fives(hand) if f.mask & mask == f.mask]
            self.five_memo[mask] = out
            return out
        found: dict[int, Combo] = {}

        def add(m: int) -> None:
            if m in found or m.bit_count() != 5:
                return
            c = self.classify_mask(m)
            if c is not None:
                found[m] = c

        rank_sm = [(mask >> (4 * r)) & 15 for r in range(13)]
        held = [r for r in range(13) if rank_sm[r]]
        suit_masks = [(mask >> s) & NIBBLES for s in range(4)]
        flush_suits = [s for s in range(4) if suit_masks[s].bit_count() >= 5]
        # straights: lowest suits, and avoiding each suit that could make a flush
        for w in self.windows:
            if not all(rank_sm[r] for r in w):
                continue
            for avoid in [None] + flush_suits:
                m = 0
                for r in w:
                    sm = rank_sm[r]
                    if avoid is not None and sm & ~(1 << avoid):
                        sm &= ~(1 << avoid)
                    m |= (sm & -sm) << (4 * r)
                add(m)
            for s in range(4):  # straight flushes
                if all(rank_sm[r] >> s & 1 for r in w):
                    add(sum(1 << (4 * r + s) for r in w))
        # flushes: the lowest five, and the five that least break other sets
        for s in flush_suits:
            cards = bits(suit_masks[s] << s)
            add(sum(1 << i for i in cards[:5]))
            loose = sorted(cards, key=lambda i: (_POP[rank_sm[i >> 2]] > 1, i))
            add(sum(1 << i for i in loose[:5]))
            if len(cards) >= 6:
                add(sum(1 << i for i in cards[-6:-1]))
        # full houses and four of a kind
        trips = [r for r in held if _POP[rank_sm[r]] >= 3]
        pairs = [r for r in held if _POP[rank_sm[r]] >= 2]
        for t in trips:
            tm = 0
            for b in _LOWBITS[rank_sm[t]][:3]:
                tm |= 1 << (4 * t + b)
            for p in pairs:
                if p != t:
                    pm = 0
                    for b in _LOWBITS[rank_sm[p]][:2]:
                        pm |= 1 << (4 * p + b)
                    add(tm | pm)
            if rank_sm[t] == 15:
                qm = 15 << (4 * t)
                loose = [r for r in held if r != t and _POP[rank_sm[r]] == 1]
                others = [r for r in held if r != t]
                for r in loose[:1] + others[:1]:
                    sm = rank_sm[r]
                    add(qm | ((sm & -sm) << (4 * r)))
        out = sorted(found.values(), key=lambda c: c.mask)
        self.five_memo[mask] = out
        return out

    def _best(self, mask: int) -> tuple[float, tuple[Combo, ...]]:
        hit = self.memo.get(mask)
        if hit is not None:
            return hit
        base = self._sets_cost(mask)
        best: tuple[float, tuple[Combo, ...]] = (base, ())
        if mask.bit_count() >= 5:
            fives = self.fives(mask)
            deltas = []
            for f in fives:
                ranks = {i >> 2 for i in bits(f.mask)}
                rest = mask & ~f.mask
                d = f.cost + self._sets_cost(rest, ranks) - self._sets_cost(mask, ranks)
                deltas.append((d, f, ranks))
                if base + d < best[0]:
                    best = (base + d, (f,))
            for i, (d1, f1, r1) in enumerate(deltas):
                for d2, f2, r2 in deltas[i + 1 :]:
                    if f1.mask & f2.mask:
                        continue
                    if r1 & r2:
                        both = f1.mask | f2.mask
                        ranks = r1 | r2
                        v = (
                            base
                            + f1.cost
                            + f2.cost
                            + self._sets_cost(mask & ~both, ranks)
                            - self._sets_cost(mask, ranks)
                        )
                    else:
                        v = base + d1 + d2
                    if v < best[0]:
                        best = (v, (f1, f2))
        self.memo[mask] = best
        return best

    def cost(self, mask: int) -> float:
        return self._best(mask)[0]

    def plan(self, mask: int | None = None, cards: int | None = None) -> list[Combo]:
        mask = self.hand if mask is None else mask
        _, fives = self._best(mask)
        out = list(fives)
        rest = mask
        for f in fives:
            rest &= ~f.mask
        for r in range(13):
            sm = (rest >> (4 * r)) & 15
            if sm:
                for m in self._rank_cost(r, sm)[1]:
                    out.append(self.costs[m])
        out.sort(key=lambda c: (c.s, -c.n))
        return out


class BigTwoFiveRoundPlanner(BigTwoPlanner):
    variant = "big-two-5r"
    game_cls = BigTwoFiveRoundGame
