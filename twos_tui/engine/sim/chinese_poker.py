"""Sim rules of Chinese Poker (the shedding game). Cards are the engine's integers (the
48-card deck: no 2♥ 2♦ 2♣ A♣); suits never matter, so the moves are the engine's
canonical choice: the lowest-suited cards of each rank a play uses.

Slots: single 1, pairs (and chains of k pairs) 20 + k, triples (chains) 40 + k, full
house 60, straight of n cards 70 + n, four of a kind plus one 90 (a bomb, power 1).
Keys are the engine's: the top rank (climbing order; straights: their top position with
the 2 lowest), the triple of a full house, the fifth card of a bomb (or the quad rank
under the house rule).
"""

from __future__ import annotations

from typing import Any

from ..chinese_poker import CP_DECK
from ..poker_hands import CODE_IDX, IDX_CODE, LOW_CARDS, mask_ints
from .core import Rules, SimState

SINGLE, FULL, BOMB = 1, 60, 90
_POP = tuple(bin(m).count("1") for m in range(16))
_CP_INTS = tuple(CODE_IDX[c] for c in CP_DECK)
DECK_MASK = sum(1 << i for i in _CP_INTS)
#: straight position (0 = the 2, 1 = the 3, ..., 12 = the ace) -> climbing rank
_SP_RANK = tuple((sp - 1) % 13 for sp in range(13))
_LIMIT = 100_000


def _slot_id(slot: tuple) -> int:
    kind = slot[0]
    if kind == "single":
        return SINGLE
    if kind == "pairs":
        return 20 + slot[1]
    if kind == "triples":
        return 40 + slot[1]
    if kind == "full-house":
        return FULL
    if kind == "straight":
        return 70 + slot[1]
    return BOMB


class ChinesePokerRules(Rules):
    codes = tuple(IDX_CODE)
    index = CODE_IDX
    has_bombs = True

    def __init__(self, game_cls, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.variant_id = game_cls.variant_id
        self.game_cls = game_cls
        self.hand_size = 12 if players == 4 else 16
        self.deck_mask = DECK_MASK
        self.open_pass = True
        self.by_quad = options.get("bomb_compare") == "quad"
        self._moves: dict[int, tuple | None] = {}

    def move_of(self, mask: int):
        got = self._moves.get(mask, False)
        if got is not False:
            return got
        mv = None
        if mask and not mask & ~DECK_MASK:
            c = self.game_cls.classify_idx(mask_ints(mask), self.options)
            if c is not None:
                kind, slot, key, power = c
                mv = (mask, _slot_id(slot), key, power, None)
        if len(self._moves) > _LIMIT:
            self._moves.clear()
        self._moves[mask] = mv
        return mv

    # ----- listing -------------------------------------------------------------------
    @staticmethod
    def _counts(mask: int) -> list[int]:
        return [_POP[(mask >> sh) & 15] for sh in range(0, 52, 4)]

    @staticmethod
    def _chains(mask: int, cnt: list[int], w: int, base: int, out: list, length=0, above=-1):
        """Chains of ``w`` cards at consecutive ranks (every part of every stretch);
        ``length``/``above``: only that length, only top ranks above ``above``."""
        low = LOW_CARDS
        r = 0
        while r < 13:
            if cnt[r] < w:
                r += 1
                continue
            a = r
            while r < 13 and cnt[r] >= w:
                r += 1
            picks = [low[q][(mask >> (q << 2)) & 15][w] for q in range(a, r)]
            n = r - a
            for i in range(n):
                m = 0
                for j in range(i, n):
                    m |= picks[j]
                    k = j - i + 1
                    if length and k != length:
                        if k > length:
                            break
                        continue
                    if a + j > above:
                        out.append((m, base + k, a + j, 0, None))

    def _full_houses(self, mask: int, cnt: list[int], out: list, above: int = -1) -> None:
        low = LOW_CARDS
        for t in range(above + 1, 13):
            if cnt[t] >= 3:
                tm = low[t][(mask >> (t << 2)) & 15][3]
                for p in range(13):
                    if p != t and cnt[p] >= 2:
                        out.append((tm | low[p][(mask >> (p << 2)) & 15][2], FULL, t, 0, None))

    @staticmethod
    def _straights(mask: int, cnt: list[int], out: list, length=0, above=-1) -> None:
        low = LOW_CARDS
        run: list[int] = []
        for sp in range(14):
            if sp < 13 and cnt[_SP_RANK[sp]]:
                run.append(sp)
                continue
            n = len(run)
            if n >= 5:
                lms = []
                for q in run:
                    r = _SP_RANK[q]
                    lms.append(low[r][(mask >> (r << 2)) & 15][1])
                for i in range(n - 4):
                    m = lms[i] | lms[i + 1] | lms[i + 2] | lms[i + 3]
                    for j in range(i + 4, n):
                        m |= lms[j]
                        k = j - i + 1
                        if length and k != length:
                            if k > length:
                                break
                            continue
                        if run[j] > above:
                            out.append((m, 70 + k, run[j], 0, None))
            run = []

    def _bombs_of(self, mask: int, cnt: list[int]) -> list:
        out: list = []
        if 4 not in cnt:
            return out
        low = LOW_CARDS
        for q in range(13):
            if cnt[q] == 4:
                qm = 15 << (q << 2)
                for f in range(13):
                    if f != q and cnt[f]:
                        fm = low[f][(mask >> (f << 2)) & 15][1]
                        out.append((qm | fm, BOMB, q if self.by_quad else f, 1, None))
        return out

    def _gen_leads(self, mask: int) -> list:
        cnt = self._counts(mask)
        low = LOW_CARDS
        out = [
            (low[r][(mask >> (r << 2)) & 15][1], SINGLE, r, 0, None) for r in range(13) if cnt[r]
        ]
        self._chains(mask, cnt, 2, 20, out)
        self._chains(mask, cnt, 3, 40, out)
        self._full_houses(mask, cnt, out)
        self._straights(mask, cnt, out)
        out += self._bombs_of(mask, cnt)
        return out

    def _gen_slot(self, mask: int, slot: int) -> list:
        return self._beating(mask, self._counts(mask), slot, -1)

    def _gen_bombs(self, mask: int) -> list:
        return self._bombs_of(mask, self._counts(mask))

    def _beating(self, mask: int, cnt: list[int], slot: int, k: int) -> list:
        out: list = []
        if slot == SINGLE:
            low = LOW_CARDS
            return [
                (low[r][(mask >> (r << 2)) & 15][1], SINGLE, r, 0, None)
                for r in range(k + 1, 13)
                if cnt[r]
            ]
        if slot < 40:
            self._chains(mask, cnt, 2, 20, out, slot - 20, k)
        elif slot < 60:
            self._chains(mask, cnt, 3, 40, out, slot - 40, k)
        elif slot == FULL:
            self._full_houses(mask, cnt, out, k)
        elif slot < BOMB:
            self._straights(mask, cnt, out, slot - 70, k)
        return out

    def follows(self, mask: int, top):
        cnt = self._counts(mask)
        if top[3]:
            k = top[2]
            return [m for m in self._bombs_of(mask, cnt) if m[2] > k]
        out = self._beating(mask, cnt, top[1], top[2])
        if 4 in cnt:
            out += self._bombs_of(mask, cnt)
        return out

    # ----- dealing -------------------------------------------------------------------
    def deal(self, rng, dealer: int | None = None) -> SimState:
        """A random deal; with two players, two random hands of 16 (the hand choice
        is not simulated) and the third out of play."""
        n = self.players
        k = self.hand_size
        rnd = rng.random
        keys = [rnd() for _ in range(48)]
        order = sorted(range(48), key=keys.__getitem__)
        hands = []
        for j in range(n):
            m = 0
            for p in order[j * k : (j + 1) * k]:
                m |= 1 << _CP_INTS[p]
            hands.append(m)
        if dealer is None:
            dealer = int(rnd() * n)
        return SimState(self, hands, dealer, dealer=dealer)
