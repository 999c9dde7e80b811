"""The hand planner of Chinese Poker (:mod:`.hand_plan`): plans over rank counts, since
suits never matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.bitmask import bits
from ..engine.climbing.game_chinese_poker import ChinesePokerGame
from ..engine.climbing.poker_cards import CODE_IDX, IDX_CODE
from ..engine.climbing.rules_chinese_poker import CP_DECK
from ..engine.views import ClimbingView
from .plan_base import (
    _POP,
    BOMB_WEIGHT,
    INF,
    Combo,
    Info,
    Planner,
    SlotKey,
    _Named,
    _Opp,
    _suffix_none,
)

# =========================================================================================
# Chinese Poker (suits never matter: plans are over rank counts)

#: straight position (0 = the 2, 1 = the 3, ... 12 = the ace) -> rank
_SP_RANK = tuple((sp - 1) % 13 for sp in range(13))
_RANK_SP = tuple((r + 1) % 13 for r in range(13))
_CP_SET = frozenset(CP_DECK)


def _cnt(code: int, r: int) -> int:
    return (code >> (3 * r)) & 7


class ChinesePokerPlanner(Planner):
    """Masks here are rank-count codes: 3 bits a rank (rank ``r`` at bit ``3r``)."""

    variant = "chinese-poker"
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
        self.by_quad = self.options.get("bomb_compare") == "quad"
        # the seat's cards rank by rank (to name the cards of a plan)
        self.card_mask = self.hand
        self.hand = self.counts_of(self.hand)

    def deck_mask(self) -> int:
        m = 0
        for c in CP_DECK:
            m |= 1 << CODE_IDX[c]
        return m

    @staticmethod
    def counts_of(card_mask: int) -> int:
        code = 0
        for r in range(13):
            code |= _POP[(card_mask >> (4 * r)) & 15] << (3 * r)
        return code

    def remove(self, mask: int, c: Combo) -> int:
        return mask - c.mask

    def combo_of(self, cards: Sequence[str]) -> Combo | None:
        c = self.classify_counts(self.sig_of(cards))
        return None if c is None else _Named(c, tuple(cards))

    def rest_cards(self, cards: Sequence[str]) -> int:
        return self.card_mask & ~self.mask_of(cards)

    def classify_counts(self, code: int) -> Combo | None:
        hit = self.costs.get(code)
        if hit is not None:
            return hit
        counts = {r: _cnt(code, r) for r in range(13) if _cnt(code, r)}
        if not counts:
            return None
        n = sum(counts.values())
        ranks = sorted(counts)
        k = len(ranks)
        vals = set(counts.values())
        if n == 1:
            c = Combo(code, code, "single", 1, ranks[0], ("single", 1, ranks[0]))
        elif n == 5 and k == 2:
            (r1, c1), (r2, _) = sorted(counts.items(), key=lambda rc: -rc[1])
            if c1 == 4:
                key = r1 if self.by_quad else r2
                c = Combo(code, code, "four-of-a-kind", 5, r1, ("bomb", key))
            else:
                c = Combo(code, code, "full-house", 5, r1, ("full", r1))
        elif vals == {2} and ranks[-1] - ranks[0] == k - 1:
            kind = "pair" if k == 1 else "pairs"
            c = Combo(code, code, kind, n, ranks[-1], ("pairs", k, ranks[-1]))
        elif vals == {3} and ranks[-1] - ranks[0] == k - 1:
            kind = "triple" if k == 1 else "triples"
            c = Combo(code, code, kind, n, ranks[-1], ("triples", k, ranks[-1]))
        elif vals == {1} and n >= 5:
            sps = sorted(_RANK_SP[r] for r in ranks)
            if sps[-1] - sps[0] != n - 1:
                return None
            c = Combo(code, code, "straight", n, _SP_RANK[sps[-1]], ("straight", n, sps[-1]))
        else:
            return None
        if c.info[0] == "bomb":
            self._finish(c, self._strength(c, self.opps, False), bomb=True)
        else:
            self._finish(c, self._strength(c, self.opps, False))
        self.costs[code] = c
        return c

    def _strength(self, c: Combo, opps: list[_Opp], with_bombs: bool) -> float:
        info = c.info
        kind = info[0]
        s = 1.0
        slot, key = self._slot_key(info)
        after = self._after_pass
        for o in opps:
            if o.n < c.n:
                continue
            if kind == "bomb":
                s *= 1.0 - 0.5 * self._opp_bomb(o)
                continue
            p = 1.0
            if kind == "single":
                p = self._windows(o, 1, 1)[info[2]]
            elif kind in ("pairs", "triples"):
                w = 2 if kind == "pairs" else 3
                p = self._windows(o, w, info[1])[info[2]]
            elif kind == "full":
                k = ("set", 3)
                arr = o.cache.get(k)
                if arr is None:
                    arr = o.cache[k] = _suffix_none(o.q[3])
                p = 1.0 - (1.0 - arr[info[1]]) * self._opp_pair(o)
            elif kind == "straight":
                p = self._straights(o, info[1])[info[2]]
            s *= after(o, slot, key, p)
        if with_bombs and kind != "bomb":
            s *= 1.0 - BOMB_WEIGHT * self._threat_of(opps)
        return s

    @staticmethod
    def _slot_key(info: Info) -> SlotKey:
        if info[0] in ("full", "bomb"):
            return (info[0],), info[1]
        return (info[0], info[1]), info[2]

    def slot_of(self, cards: Sequence[str]) -> SlotKey | None:
        if not all(c in _CP_SET for c in cards):
            return None
        got = ChinesePokerGame.classify_idx(sorted(CODE_IDX[c] for c in cards), self.options)
        if got is None or got[3]:
            return None  # not a play, or a bomb (nothing is inferred)
        kind, slot, key = got[0], got[1], got[2]
        if kind == "full-house":
            return ("full",), key
        if kind == "single":
            return ("single", 1), key
        return slot, key

    def _windows(self, o: _Opp, w: int, ln: int) -> list[float]:
        """P(no chain of ``ln`` ranks with ``w`` cards each topped above rank r)."""
        key = ("chain", w, ln)
        arr = o.cache.get(key)
        if arr is None:
            q = o.q[w]
            win = [0.0] * 13
            for p in range(ln - 1, 13):
                v = 1.0
                for j in range(p - ln + 1, p + 1):
                    v *= q[j]
                win[p] = v
            arr = o.cache[key] = _suffix_none(win)
        return arr

    def _straights(self, o: _Opp, ln: int) -> list[float]:
        key = ("straight", ln)
        arr = o.cache.get(key)
        if arr is None:
            q = o.q[1]
            win = [0.0] * 13
            for p in range(ln - 1, 13):
                v = 1.0
                for j in range(p - ln + 1, p + 1):
                    v *= q[_SP_RANK[j]]
                win[p] = v
            arr = o.cache[key] = _suffix_none(win)
        return arr

    def _opp_pair(self, o: _Opp) -> float:
        none = 1.0
        for v in o.q[2]:
            none *= 1.0 - v
        return 1.0 - none

    def _opp_bomb(self, o: _Opp) -> float:
        got = o.cache.get("quad")
        if got is None:
            none = 1.0
            if o.n >= 5:
                for v in o.q[4]:
                    none *= 1.0 - v
            got = o.cache["quad"] = 1.0 - none
        return got

    # ----- the search over rank counts --------------------------------------------------
    def _options(self, code: int) -> list[int]:
        cnt = [(code >> (3 * r)) & 7 for r in range(13)]
        p0 = 0
        while not cnt[_SP_RANK[p0]]:
            p0 += 1
        r0 = _SP_RANK[p0]
        c0 = cnt[r0]
        one = 1 << (3 * r0)
        out = [one]
        # chains of pairs and triples starting at r0 (the 2 has no pairs in this deck)
        for w in (2, 3):
            if c0 >= w:
                cur = 0
                r = r0
                while r < 13 and cnt[r] >= w:
                    cur += w << (3 * r)
                    out.append(cur)
                    r += 1
        # full houses with r0 as the triple or as the pair, and four of a kind plus one
        for r in range(13):
            if r == r0 or not cnt[r]:
                continue
            if c0 >= 3 and cnt[r] >= 2:
                out.append((3 << (3 * r0)) + (2 << (3 * r)))
            if c0 >= 2 and cnt[r] >= 3:
                out.append((2 << (3 * r0)) + (3 << (3 * r)))
            if c0 == 4:
                out.append((4 << (3 * r0)) + (1 << (3 * r)))
            if cnt[r] == 4:
                out.append(one + (4 << (3 * r)))
        # straights of 5+ from p0 (in straight order: the 2 lowest, the ace highest)
        cur = one
        p = p0 + 1
        while p < 13 and cnt[_SP_RANK[p]]:
            cur += 1 << (3 * _SP_RANK[p])
            if p - p0 >= 4:
                out.append(cur)
            p += 1
        return out

    def _best(self, code: int) -> tuple[float, int]:
        memo = self.memo
        hit = memo.get(code)
        if hit is not None:
            return hit
        if not code:
            return (0.0, 0)
        best = INF
        choice = 0
        costs = self.costs
        for cm in self._options(code):
            c = costs.get(cm)
            if c is None:
                c = self.classify_counts(cm)
                if c is None:
                    continue
            v = c.cost
            if v >= best:
                continue
            v += self._best(code - cm)[0]
            if v < best:
                best, choice = v, cm
        hit = memo[code] = (best, choice)
        return hit

    def cost(self, mask: int) -> float:
        return self._best(mask)[0]

    def plan(self, mask: int | None = None, cards: int | None = None) -> list[Combo]:
        if mask is None:
            mask, cards = self.hand, self.card_mask
        code = mask
        out = []
        while code:
            cm = self._best(code)[1]
            out.append(self.costs[cm])
            code -= cm
        out.sort(key=lambda c: (c.s, -c.n))
        if cards is not None:
            # name the cards: the lowest suits held, rank by rank, weakest play first
            left = [bits(cards & (15 << (4 * r))) for r in range(13)]
            named: list[Combo] = []
            for c in out:
                codes: list[str] = []
                for r in range(13):
                    k = _cnt(c.mask, r)
                    if k:
                        codes.extend(IDX_CODE[b] for b in left[r][:k])
                        left[r] = left[r][k:]
                named.append(_Named(c, tuple(codes)))
            return named
        return out
