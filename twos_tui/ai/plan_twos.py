"""The hand planner of Twos (:mod:`.hand_plan`): the combinations of a Twos hand (sets,
runs, bombs) and how they compare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.bitmask import bits
from ..engine.climbing.rules_twos import CODE_INT, CODES, bomb_order, default_hand_size
from ..engine.views import ClimbingView
from .plan_base import (
    _LOWBITS,
    _POP,
    ALPHA,
    BOMB_WEIGHT,
    EPS,
    INF,
    Combo,
    Info,
    Planner,
    SlotKey,
    _Opp,
    _suffix_none,
    none_of,
)

# =========================================================================================
# Twos


class TwosPlanner(Planner):
    variant = "twos"
    enc = CODE_INT
    dec = CODES

    def __init__(
        self,
        obs: ClimbingView,
        hand: list[str] | None = None,
        opponents: list[int] | None = None,
        known_out: list[str] | None = None,
    ) -> None:
        super().__init__(obs, hand, opponents, known_out)
        opts = self.options
        hs = opts.get("hand_size")
        mode = opts.get("bomb_order", "rarity")
        order = bomb_order(
            hs if isinstance(hs, int) and hs else default_hand_size(self.players),
            mode if isinstance(mode, str) else "rarity",
        )
        self.power = {s: i + 1 for i, s in enumerate(order)}
        self.strict = opts.get("run_suits") == "same-suit"
        self.info_costs: dict[Info, float] = {}

    # the combination a card set makes (None if none)
    def classify_mask(self, m: int) -> Combo | None:
        hit = self.costs.get(m)
        if hit is not None:
            return hit
        w = 0
        ranks = []
        r = 0
        x = m
        while x:
            sub = x & 15
            if sub:
                n = _POP[sub]
                if w and n != w:
                    return None
                w = n
                ranks.append(r)
            x >>= 4
            r += 1
        if not ranks:
            return None
        ln = len(ranks)
        top_card = m.bit_length() - 1
        if ln == 1:
            kind = ("single", "pair", "triple", "bomb")[w - 1]
            info: Info = ("bomb", (4, 1), top_card) if w == 4 else ("set", w, top_card)
        else:
            if ln < 3 or ranks[-1] - ranks[0] != ln - 1:
                return None
            if w == 1:
                kind = "run"
                suited = self.strict and len({b & 3 for b in bits(m)}) == 1
                info = ("run", ln, suited, top_card)
            else:
                kind = "bomb"
                info = ("bomb", (w, ln), top_card)
        sig = 0
        for b in bits(m):
            sig += 1 << (3 * (b >> 2))
        c = Combo(m, sig, kind, w * ln, ranks[-1], info)
        c.cards = self.codes(m)
        bomb = info[0] == "bomb"
        self._finish(c, self._info_strength(info, self.opps, False), bomb=bomb)
        self.costs[m] = c
        return c

    def combo_of(self, cards: Sequence[str]) -> Combo | None:
        return self.classify_mask(self.mask_of(cards))

    def slot_of(self, cards: Sequence[str]) -> SlotKey | None:
        m = self.mask_of(cards)
        widths = {_POP[(m >> (4 * r)) & 15] for r in range(13)} - {0}
        if len(widths) != 1:
            return None
        w = widths.pop()
        if w == 1 and len(cards) >= 3:
            return ("run", len(cards)), m.bit_length() - 1
        if w <= 3 and len(cards) == w:
            return ("set", w), m.bit_length() - 1
        return None  # bombs: nothing is inferred

    def _strength(self, c: Combo, opps: list[_Opp], with_bombs: bool) -> float:
        return self._info_strength(c.info, opps, with_bombs)

    def _info_strength(self, info: Info, opps: list[_Opp], with_bombs: bool) -> float:
        top_card = info[-1]
        r = top_card >> 2
        unseen = self.unseen
        higher_same_rank = (unseen >> (4 * r)) & 15 & ~((2 << (top_card & 3)) - 1)
        s = 1.0
        total = self.total
        if info[0] == "bomb":
            mine = self.power.get(info[1], 1)
            for o in opps:
                p = self._opp_bomb(o)
                s *= 1.0 - p * 0.5 / mine
            return s
        slot = (info[0], info[1])
        after = self._after_pass
        if info[0] == "set":
            n = info[1]
            for o in opps:
                if o.n < n:
                    continue
                if n == 1:
                    m = (unseen >> (top_card + 1)).bit_count()
                    s *= after(o, slot, top_card, none_of(total, o.n, m))
                    continue
                key = ("set", n)
                arr = o.cache.get(key)
                if arr is None:
                    arr = o.cache[key] = _suffix_none(o.q[n])
                p = arr[r]
                if higher_same_rank:
                    p *= 1.0 - 0.5 * o.q[n][r]
                s *= after(o, slot, top_card, p)
        else:  # run
            ln = info[1]
            suited = info[2]
            for o in opps:
                if o.n < ln:
                    continue
                if suited:
                    s *= after(o, slot, top_card, self._suited_runs_none(o, ln, r, top_card))
                    continue
                key = ("run", ln)
                arr = o.cache.get(key)
                if arr is None:
                    q1 = o.q[1]
                    win = [0.0] * 13
                    for p in range(ln - 1, 13):
                        v = 1.0
                        for j in range(p - ln + 1, p + 1):
                            v *= q1[j]
                        win[p] = v
                    arr = o.cache[key] = (_suffix_none(win), win)
                p = arr[0][r]
                if higher_same_rank:
                    p *= 1.0 - 0.5 * arr[1][r]
                s *= after(o, slot, top_card, p)
        if with_bombs:
            s *= 1.0 - BOMB_WEIGHT * self._threat_of(opps)
        return s

    def _suited_runs_none(self, o: _Opp, ln: int, r: int, top_card: int) -> float:
        """P(``o`` holds no same-suit run of ``ln`` above a same-suit run topped by
        ``top_card``)."""
        f = o.n / self.total if self.total else 0.0
        unseen = self.unseen
        p_none = 1.0
        for p in range(max(r, ln - 1), 13):
            for suit in range(4):
                if p == r and suit <= (top_card & 3):
                    continue
                ok = True
                for j in range(p - ln + 1, p + 1):
                    if not unseen >> (4 * j + suit) & 1:
                        ok = False
                        break
                if ok:
                    p_none *= 1.0 - f**ln
        return p_none

    def _opp_bomb(self, o: _Opp) -> float:
        got = o.cache.get("bomb")
        if got is None:
            none = 1.0
            if o.n >= 4:
                for v in o.q[4]:
                    none *= 1.0 - v
            if o.n >= 6:
                q2 = o.q[2]
                for a in range(11):
                    none *= 1.0 - q2[a] * q2[a + 1] * q2[a + 2]
            got = o.cache["bomb"] = 1.0 - none
        return got

    # ----- the search --------------------------------------------------------------------
    def _options(self, mask: int) -> list[tuple[int, Info]]:
        """Card sets that use the lowest card of ``mask`` (see the module doc), each with
        what it is: ``("set", n, top)``, ``("run", length, suited, top)`` or
        ``("bomb", (width, length), top)``."""
        low = (mask & -mask).bit_length() - 1
        r0 = low >> 2
        lowbit = 1 << low
        sh0 = 4 * r0
        m0 = (mask >> sh0) & 15
        others = [4 * r0 + b for b in _LOWBITS[m0] if 4 * r0 + b != low]
        out: list[tuple[int, Info]] = []
        # sets: the lowest card with the lowest others of its rank (which suits go
        # together barely matters, and this keeps the search small)
        k = len(others)
        if k == 3:
            out.append((15 << sh0, ("bomb", (4, 1), sh0 + 3)))
        # runs and multi-runs come first: they make the best plans cheap to find
        self._runs(mask, low, r0, m0, others, out)
        if k >= 2:
            a, b = others[0], others[1]
            out.append((lowbit | 1 << a | 1 << b, ("set", 3, b)))
        if k >= 1:
            a = others[0]
            out.append((lowbit | 1 << a, ("set", 2, a)))
        out.append((lowbit, ("set", 1, low)))
        return out

    def _runs(
        self, mask: int, low: int, r0: int, m0: int, others: list[int], out: list[tuple[int, Info]]
    ) -> None:
        lowbit = 1 << low
        # runs: the lowest card of each higher rank
        cur = lowbit
        suits = 1 << (low & 3)
        r = r0 + 1
        strict = self.strict
        while r < 13:
            sm = (mask >> (4 * r)) & 15
            if not sm:
                break
            b = sm & -sm
            cur |= b << (4 * r)
            if strict:
                suits |= b
            if r - r0 >= 2:
                top = 4 * r + b.bit_length() - 1
                out.append((cur, ("run", r - r0 + 1, strict and suits == b, top)))
            r += 1
        # multi-runs of width w: the lowest w cards at each rank
        n0 = _POP[m0]
        for w in range(2, n0 + 1):
            base = lowbit
            for a in others[: w - 1]:
                base |= 1 << a
            r = r0 + 1
            while r < 13:
                sm = (mask >> (4 * r)) & 15
                if _POP[sm] < w:
                    break
                pick = 0
                for b in _LOWBITS[sm][:w]:
                    pick |= 1 << b
                base |= pick << (4 * r)
                if r - r0 >= 2:
                    out.append((base, ("bomb", (w, r - r0 + 1), base.bit_length() - 1)))
                r += 1

    def _info_cost(self, info: Info) -> float:
        c = self.info_costs.get(info)
        if c is None:
            s = self._info_strength(info, self.opps, False)
            if info[0] != "bomb":
                s *= 1.0 - BOMB_WEIGHT * self.bomb_threat()
            c = self.info_costs[info] = 1.0 + EPS - ALPHA * s
        return c

    def cost(self, mask: int) -> float:
        return self._best(mask)[0]

    def _best(self, mask: int) -> tuple[float, int]:
        memo = self.memo
        hit = memo.get(mask)
        if hit is not None:
            return hit
        if not mask:
            return (0.0, 0)
        best = INF
        choice = 0
        info_costs = self.info_costs
        for cm, info in self._options(mask):
            v = info_costs.get(info)
            if v is None:
                v = self._info_cost(info)
            if v >= best:
                continue
            v += self._best(mask ^ cm)[0]
            if v < best:
                best, choice = v, cm
        hit = memo[mask] = (best, choice)
        return hit

    def plan(self, mask: int | None = None, cards: int | None = None) -> list[Combo]:
        mask = self.hand if mask is None else mask
        out: list[Combo] = []
        while mask:
            cm = self._best(mask)[1]
            c = self.classify_mask(cm)
            assert c is not None
            out.append(c)
            mask ^= cm
        out.sort(key=lambda c: (c.s, -c.n))
        return out
