"""Sim rules of Big Two and Big Two (five rounds): every suit choice is a different play,
so a hand's moves are exactly its sub-masks that classify. Cards are the engine's
integers (``rank * 4 + suit``, diamonds lowest), so a card's int is its single order.

Five-card hands come from the engine's own enumeration pieces (straights of a window,
flushes of a suit, full houses of two ranks, four of a kind), each remembered by the
cards that matter to it, so the sim and the engine list and compare the same plays.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import combinations, product
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from ..poker_hands import CODE_IDX, IDX_CODE, RANK_CARDS, mask_ints
from .core import HandMoves, Move, Rules, SimState, SlotMoves

if TYPE_CHECKING:
    import random

    from ..big_two import BigTwoGame

#: TABLE[r][suit mask]: moves of rank r from those suits
SetTable: TypeAlias = tuple[tuple[tuple[Move, ...], ...], ...]

_ORDER = itemgetter(2, 0)
_KEYS = itemgetter(2)

S1, S2, S3, S5 = 1, 2, 3, 5
_NIB = 0x1111111111111
_M1 = 0x5555555555555
_M2 = 0x3333333333333
_POP = tuple(bin(m).count("1") for m in range(16))
_LIMIT = 60_000

#: SINGLES[i]: the move of card i
SINGLES: tuple[Move, ...] = tuple((1 << i, S1, i, 0, None) for i in range(52))


def _sets(n: int) -> SetTable:
    """SETS[r][suit mask]: the n-card sets of rank r from those suits, by key."""
    out = []
    for r in range(13):
        row = []
        for sm in range(16):
            cards = RANK_CARDS[r][sm]
            moves: list[Move] = []
            for c in combinations(cards, n):
                m = sum(1 << i for i in c)
                key = c[-1] if n == 2 else r
                moves.append((m, n, key, 0, None))
            moves.sort(key=lambda mv: (mv[2], mv[0]))
            row.append(tuple(moves))
        out.append(tuple(row))
    return tuple(out)


PAIRS = _sets(2)
TRIPLES = _sets(3)
#: SINGLE_SETS[r][suit mask]: the single-card moves of those suits of rank r
SINGLE_SETS: SetTable = tuple(
    tuple(tuple(SINGLES[i] for i in RANK_CARDS[r][sm]) for sm in range(16)) for r in range(13)
)


class BigTwoRules(Rules):
    """Big Two (and, through the game class, the five-round edition)."""

    codes = tuple(IDX_CODE)
    index = CODE_IDX

    def __init__(self, game_cls: type[BigTwoGame], players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.variant_id = game_cls.variant_id
        self.game_cls = game_cls
        self.hand_size = game_cls.hand_size
        self.deck_mask = (1 << 52) - 1
        # a bare game object: the engine's enumeration pieces read only the class
        # tables and ``options``
        gen = game_cls.__new__(game_cls)
        gen.options = dict(options)
        self._gen = gen
        self._windows = game_cls._fast_windows()
        ranks = game_cls.WINDOWS
        #: per window: its ranks (lowest first) and whether its 2 is the top card
        self._win = tuple(
            (
                tuple(rs),
                rs[0] == 12 and options.get("straight_23456") == "high",
            )
            for rs in ranks
        )
        #: (kind, cards that matter) -> five-card moves
        self._sub: dict[tuple[int, ...], tuple[Move, ...]] = {}
        self._moves: dict[int, Move | None] = {}  # mask -> move (classification)

    # ----- classification ------------------------------------------------------------
    def move_of(self, mask: int) -> Move | None:
        got: Move | Literal[False] | None = self._moves.get(mask, False)
        if got is not False:
            return got
        idxs = mask_ints(mask)
        c = self.game_cls.classify_idx(idxs, self.options)
        mv: Move | None = None
        if c is not None:
            kind, slot, key = c
            mv = (mask, cast(int, slot[0]), key, 0, None)  # Big Two slots: (count,)
        if len(self._moves) > _LIMIT:
            self._moves.clear()
        self._moves[mask] = mv
        return mv

    def _straights(self, w: int, mask: int) -> tuple[Move, ...]:
        """Straights and straight flushes of window ``w`` (what the engine's
        ``_straight_entries`` lists, in the same order)."""
        ranks, two_top = self._win[w]
        lists = [RANK_CARDS[r][(mask >> (r << 2)) & 15] for r in ranks]
        out: list[Move] = []
        for a, b, c, d, e in product(*lists):
            s0 = a & 3
            sf = (b & 3) == s0 and (c & 3) == s0 and (d & 3) == s0 and (e & 3) == s0
            key = 52 + s0 if two_top else e
            out.append(
                (
                    (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e),
                    S5,
                    (5 if sf else 1) * 64 + key,
                    0,
                    None,
                )
            )
        return tuple(out)

    def _flushes(self, sm: int) -> tuple[Move, ...]:
        """Flushes that are not straight flushes from the cards ``sm`` of one suit."""
        wm = self.game_cls.WINDOW_MASKS
        suit_first = self.game_cls._flush_suit_first(self.options)
        out: list[Move] = []
        for f in combinations(mask_ints(sm), 5):
            rm = 0
            m = 0
            for i in f:
                rm |= 1 << (i >> 2)
                m |= 1 << i
            if rm in wm:
                continue
            top = f[4]
            key = (top & 3) * 13 + (top >> 2) if suit_first else top
            out.append((m, S5, 2 * 64 + key, 0, None))
        return tuple(out)

    def _five(self, mask: int) -> list[Move]:
        """Every five-card hand in ``mask``: straights window by window, flushes suit by
        suit, full houses rank by rank, then four of a kind (each part remembered by
        the cards that matter to it)."""
        sub = self._sub
        out: list[Move] = []
        k: tuple[int, ...]
        x = (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIB  # ranks held
        for w, need, cm in self._windows:
            if x & need == need:
                k = (0, w, mask & cm)
                lst = sub.get(k)
                if lst is None:
                    lst = sub[k] = self._straights(w, mask)
                out += lst
        for sm in (mask & _NIB, mask & _NIB << 1, mask & _NIB << 2, mask & _NIB << 3):
            if sm.bit_count() >= 5:
                k = (1, sm)
                lst = sub.get(k)
                if lst is None:
                    lst = sub[k] = self._flushes(sm)
                out += lst
        c = (mask & _M1) + ((mask >> 1) & _M1)
        c = (c & _M2) + ((c >> 2) & _M2)  # cards a rank, a nibble a rank
        ge3 = ((c >> 2) | ((c >> 1) & c)) & _NIB
        if ge3:
            ge2 = ((c >> 1) | (c >> 2)) & _NIB
            t3 = ge3
            while t3:
                b = t3 & -t3
                t3 ^= b
                tsh = b.bit_length() - 1
                r = tsh >> 2
                sm = (mask >> tsh) & 15
                trips = TRIPLES[r][sm]
                p2 = ge2 & ~b
                while p2:
                    pb = p2 & -p2
                    p2 ^= pb
                    psh = pb.bit_length() - 1
                    sm2 = (mask >> psh) & 15
                    k = (2, r, sm, psh, sm2)
                    lst = sub.get(k)
                    if lst is None:
                        key = 3 * 64 + r
                        lst = sub[k] = tuple(
                            (t[0] | p[0], S5, key, 0, None)
                            for p in PAIRS[psh >> 2][sm2]
                            for t in trips
                        )
                    out += lst
                if sm == 15:
                    qm = 15 << tsh
                    rest = mask & ~qm
                    key = 4 * 64 + r
                    while rest:
                        low = rest & -rest
                        out.append((qm | low, S5, key, 0, None))
                        rest ^= low
        if len(sub) > _LIMIT:
            sub.clear()
        return out

    def _gen_leads(self, mask: int) -> list[Move]:
        return self._gen_leads_into(HandMoves(mask))

    def _gen_leads_into(self, hm: HandMoves) -> list[Move]:
        """Every move (and the sorted five-card list of ``hm`` on the way)."""
        mask = hm.mask
        singles: list[Move] = []
        sets: list[Move] = []
        pop = _POP
        m = mask
        r = 0
        while m:
            sm = m & 15
            if sm:
                singles += SINGLE_SETS[r][sm]
                if pop[sm] >= 2:
                    sets += PAIRS[r][sm]
                    if pop[sm] >= 3:
                        sets += TRIPLES[r][sm]
            m >>= 4
            r += 1
        five = self._five(mask)
        f5 = sorted(five, key=_ORDER)
        hm._slots[S5] = (list(map(_KEYS, f5)), f5)
        return singles + sets + five

    def _gen_slot(self, mask: int, slot: int) -> list[Move]:
        if slot == S1:
            return [SINGLES[i] for i in mask_ints(mask)]
        if slot == S5:
            return self._five(mask)
        table = PAIRS if slot == S2 else TRIPLES
        out: list[Move] = []
        pop = _POP
        for r in range(13):
            sm = (mask >> (r << 2)) & 15
            if pop[sm] >= slot:
                out += table[r][sm]
        return out

    def follows(self, mask: int, top: Move) -> list[Move]:
        slot = top[1]
        k = top[2]
        if slot == S1:  # the cards above the top card: no listing needed
            m = mask & -(2 << k)
            out: list[Move] = []
            while m:
                low = m & -m
                out.append(SINGLES[low.bit_length() - 1])
                m ^= low
            return out
        if slot == S2:
            out = []
            r0 = k >> 2
            sm = (mask >> (r0 << 2)) & 15
            if _POP[sm] >= 2:
                out += [mv for mv in PAIRS[r0][sm] if mv[2] > k]
            for r in range(r0 + 1, 13):
                sm = (mask >> (r << 2)) & 15
                if _POP[sm] >= 2:
                    out += PAIRS[r][sm]
            return out
        if slot == S3:
            out = []
            for r in range(k + 1, 13):
                sm = (mask >> (r << 2)) & 15
                if _POP[sm] >= 3:
                    out += TRIPLES[r][sm]
            return out
        return super().follows(mask, top)

    # ----- listing along a deal ----------------------------------------------------------
    # Every suit choice is listed, so the moves of a smaller hand are exactly those of
    # a larger one that use none of the cards that left, in the same order. Each seat's
    # ``memo`` in the state keeps ``(mask, leads, five)``: its lead list for ``mask``
    # and the five-card hands of it sorted as ``(keys, moves)`` (or None); a later hand
    # of the seat filters them instead of listing again.

    def _memo(self, s: SimState, seat: int, h: int) -> list[Any]:
        memo: list[Any] | None = s.memo[seat]
        if memo is not None:
            if memo[0] == h:
                return memo
            gone = memo[0] & ~h
            leads: list[Move] = [m for m in memo[1] if not m[0] & gone]
            five: SlotMoves | None = memo[2]
            if five is not None:
                moves = [m for m in five[1] if not m[0] & gone]
                five = ([m[2] for m in moves], moves)
            memo = s.memo[seat] = [h, leads, five]
            return memo
        leads = self.leads(h)
        memo = s.memo[seat] = [h, leads, self._hands[h]._slots.get(S5)]
        return memo

    def legal(self, s: SimState) -> Sequence[Move | None]:
        if s.winner >= 0:
            return []
        cur = s.cur
        h = s.hands[cur]
        top = s.top
        if top is not None:
            slot = top[1]
            if slot == S1:  # the cards above the top card
                m = h & -(2 << top[2])
                singles: list[Move | None] = []
                while m:
                    low = m & -m
                    singles.append(SINGLES[low.bit_length() - 1])
                    m ^= low
                singles.append(None)
                return singles
            if slot != S5:
                out = self.follows(h, top)
            else:
                memo = self._memo(s, cur, h)
                five: SlotMoves | None = memo[2]
                if five is None:
                    moves: list[Move] = [m for m in memo[1] if m[1] == S5]
                    moves.sort(key=_ORDER)
                    five = memo[2] = ([m[2] for m in moves], moves)
                keys, moves = five
                k = top[2]
                out = moves[bisect_right(keys, k) :] if keys and keys[-1] > k else []
            out.append(None)  # type: ignore[arg-type]  # a new list: the pass joins it
            return out
        leads: list[Move] = self._memo(s, cur, h)[1]
        req = s.req
        if req:
            return [m for m in leads if m[0] & req]
        return leads

    # ----- dealing -------------------------------------------------------------------
    def deal(self, rng: random.Random) -> SimState:
        n, k = self.players, self.hand_size
        rnd = rng.random
        keys = [rnd() for _ in range(52)]
        order = sorted(range(52), key=keys.__getitem__)
        hands = []
        for j in range(n):
            m = 0
            for i in order[j * k : (j + 1) * k]:
                m |= 1 << i
            hands.append(m)
        low = min(h & -h for h in hands)
        cur = next(s for s in range(n) if hands[s] & low)
        return SimState(self, hands, cur, req=low, dealer=(cur - 1) % n)
