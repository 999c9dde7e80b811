"""The rules of Big Two and Big Two (five rounds) as integers: the one implementation
that the protocol games (:mod:`.game_big_two`, :mod:`.game_big_two_5r`) and the search use.

Every suit choice is a different play, so a hand's moves are exactly its sub-masks that
classify. Cards are ints ``rank * 4 + suit`` (climbing rank 0 = the 3s ... 12 = the 2s;
diamonds < clubs < hearts < spades), so a card's int is its single-card order.

:class:`Order` holds what the two editions and the house rules change (the straight
windows, where 2-3-4-5-6 stands, how flushes compare); :func:`classify` names the play
a set of cards makes; :class:`BigTwoRules` lists a hand's plays (five-card hands
straight window by window, flush suit by suit, full house rank by rank, then four of a
kind with each fifth card, each part remembered by the cards that matter to it).

Slots (``Move[SLOT]``): the number of cards (1, 2, 3, 5). Keys: a single's card; a
pair's higher card; a triple's rank; a five-card hand ``64 * category + key`` with the
categories straight 1 < flush 2 < full house 3 < four of a kind 4 < straight flush 5.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeAlias

from .core import HandMoves, HouseRules, Move, Rules, SimState, SlotMoves, lowest_holder
from .poker_cards import CODE_IDX, IDX_CODE, RANK_CARDS, mask_ints, penalty_50_40_30

if TYPE_CHECKING:
    import random

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


# five-card categories, weakest first
STRAIGHT, FLUSH, FULL_HOUSE, FOUR_KIND, STRAIGHT_FLUSH = 1, 2, 3, 4, 5
FIVE_KIND = {
    STRAIGHT: "straight",
    FLUSH: "flush",
    FULL_HOUSE: "full-house",
    FOUR_KIND: "four-of-a-kind",
    STRAIGHT_FLUSH: "straight-flush",
}
SET_KIND = {1: "single", 2: "pair", 3: "triple"}
#: Blume's straights: 2-3-4-5-6 (the 2 below the 3) up to 10-J-Q-K-A
BLUME_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + k - 1) % 13 for k in range(5)) for s in range(9)
)
#: the five-round edition's: 3-4-5-6-7 up to J-Q-K-A-2
TOP_TWO_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s + k for k in range(5)) for s in range(9)
)


class Order(NamedTuple):
    """What an edition and its house rules make of the cards: the straight windows
    (climbing ranks, lowest card first), each window by its 13-bit rank mask, whether
    the 2 tops the straight 2-3-4-5-6, whether flushes compare by suit first."""

    windows: tuple[tuple[int, ...], ...]
    window_masks: dict[int, int]
    two_high: bool
    suit_first: bool


@cache
def order_for(five_round: bool, straight_23456: str | None, flush_order: str | None) -> Order:
    windows = TOP_TWO_WINDOWS if five_round else BLUME_WINDOWS
    masks = {sum(1 << r for r in ranks): w for w, ranks in enumerate(windows)}
    two_high = not five_round and straight_23456 == "high"
    return Order(windows, masks, two_high, five_round or flush_order == "suit")


def order_of(variant_id: str, options: HouseRules) -> Order:
    straight, flush = options.get("straight_23456"), options.get("flush_order")
    return order_for(
        variant_id == "big-two-5r",
        straight if isinstance(straight, str) else None,
        flush if isinstance(flush, str) else None,
    )


def kind_of(slot: int, key: int) -> str:
    return SET_KIND[slot] if slot < 5 else FIVE_KIND[key >> 6]


def classify(idxs: Sequence[int], o: Order) -> tuple[int, int] | None:
    """(slot, key) of the play made by ascending card integers, or ``None``."""
    n = len(idxs)
    if n == 1:
        return 1, idxs[0]
    if n == 2:
        if idxs[0] >> 2 == idxs[1] >> 2:
            return 2, idxs[1]
        return None
    if n == 3:
        r = idxs[0] >> 2
        if idxs[1] >> 2 == r and idxs[2] >> 2 == r:
            return 3, r
        return None
    if n != 5:
        return None
    counts: dict[int, int] = {}
    for i in idxs:
        counts[i >> 2] = counts.get(i >> 2, 0) + 1
    if len(counts) == 2:
        (r1, c1), (r2, c2) = counts.items()
        if c1 < c2:
            r1, c1, r2, c2 = r2, c2, r1, c1
        if c1 == 4:
            return 5, FOUR_KIND * 64 + r1
        return 5, FULL_HOUSE * 64 + r1
    if len(counts) != 5:
        return None
    flush = len({i & 3 for i in idxs}) == 1
    rm = 0
    for i in idxs:
        rm |= 1 << (i >> 2)
    w = o.window_masks.get(rm)
    if w is not None:
        cat = STRAIGHT_FLUSH if flush else STRAIGHT
        ranks = o.windows[w]
        if w == 0 and ranks[0] == 12 and o.two_high:
            two = next(i for i in idxs if i >> 2 == 12)
            return 5, cat * 64 + 52 + (two & 3)
        top = ranks[-1]
        return 5, cat * 64 + next(i for i in idxs if i >> 2 == top)
    if flush:
        top = idxs[-1]
        return 5, FLUSH * 64 + ((top & 3) * 13 + (top >> 2) if o.suit_first else top)
    return None


class BigTwoRules(Rules):
    """Big Two (and, through the game class, the five-round edition)."""

    codes = tuple(IDX_CODE)
    index = CODE_IDX

    def __init__(self, variant_id: str, players: int, options: HouseRules) -> None:
        super().__init__(players, options)
        self.variant_id = variant_id
        self.order = o = order_of(variant_id, options)
        self.hand_size = 13
        self.deck_mask = (1 << 52) - 1
        #: per window: (its ranks as the low bit of each rank's nibble, all its cards)
        self._windows = tuple(
            (w, sum(1 << (4 * r) for r in rs), sum(15 << (4 * r) for r in rs))
            for w, rs in enumerate(o.windows)
        )
        #: per window: its ranks (lowest first) and whether its 2 is the top card
        self._win = tuple((rs, rs[0] == 12 and o.two_high) for rs in o.windows)
        #: (kind, cards that matter) -> five-card moves
        self._sub: dict[tuple[int, ...], tuple[Move, ...]] = {}
        self._moves: dict[int, Move | None] = {}  # mask -> move (classification)

    # ----- classification ------------------------------------------------------------

    def penalty(self, left: int) -> int:
        """Big Two: 50 for every card still held, 40 for all but one, 30 for all but two,
        else a point a card; the five-round edition: a point a card, doubled from 10
        cards, tripled at 13."""
        if self.variant_id == "big-two-5r":
            return 3 * left if left >= 13 else 2 * left if left >= 10 else left
        return penalty_50_40_30(left, self.hand_size)

    def move_of(self, mask: int) -> Move | None:
        got: Move | Literal[False] | None = self._moves.get(mask, False)
        if got is not False:
            return got
        c = classify(mask_ints(mask), self.order)
        mv: Move | None = None
        if c is not None:
            mv = (mask, c[0], c[1], 0, None)
        if len(self._moves) > _LIMIT:
            self._moves.clear()
        self._moves[mask] = mv
        return mv

    def _straights(self, w: int, mask: int) -> tuple[Move, ...]:
        """Straights and straight flushes of window ``w`` (every suit choice)."""
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
        wm = self.order.window_masks
        suit_first = self.order.suit_first
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
        s = self.start(hands, 0)
        s.dealer = (s.cur - 1) % n
        return s

    def start(self, hands: list[int], dealer: int) -> SimState:
        """The holder of the lowest dealt card (3♦ when it is dealt) starts, and the
        first play must include that card."""
        seat, low = lowest_holder(hands)
        return SimState(self, hands, seat, req=low, dealer=dealer)
