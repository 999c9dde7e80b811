"""The rules of Chinese Poker (the shedding game) as integers: the one implementation
that the protocol game (:mod:`.game_chinese_poker`) and the search use. Cards are the
engine's integers (the 48-card deck: no 2♥ 2♦ 2♣ A♣); suits never matter, so the moves
are one canonical choice: the lowest-suited cards of each rank a play uses.
:func:`classify` names the play any set of cards makes.

Slots: single 1, pairs (and chains of k pairs) 20 + k, triples (chains) 40 + k, full
house 60, straight of n cards 70 + n, four of a kind plus one 90 (a bomb, power 1).
Keys are the engine's: the top rank (climbing order; straights: their top position with
the 2 lowest), the triple of a full house, the fifth card of a bomb (or the quad rank
under the house rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from .core import HouseRules, LeadMemo, Move, Rules, SimState
from .poker_cards import CODE_IDX, IDX_CODE, LOW_CARDS, mask_ints, penalty_50_40_30

if TYPE_CHECKING:
    import random

#: the four cards taken out of the 52-card deck
REMOVED = ("2H", "2D", "2C", "AC")
CP_DECK: tuple[str, ...] = tuple(c for c in IDX_CODE if c not in REMOVED)

SINGLE, FULL, BOMB = 1, 60, 90
_POP = tuple(bin(m).count("1") for m in range(16))
_CP_INTS = tuple(CODE_IDX[c] for c in CP_DECK)
DECK_MASK = sum(1 << i for i in _CP_INTS)
#: straight position (0 = the 2, 1 = the 3, ..., 12 = the ace) -> climbing rank
_SP_RANK = tuple((sp - 1) % 13 for sp in range(13))
_LIMIT = 100_000
_NIB = 0x1111111111111
_E = 0xEEEEEEEEEEEEE
_C = 0xCCCCCCCCCCCCC
_8 = 0x8888888888888
_M1 = 0x5555555555555
_M2 = 0x3333333333333
#: SET_MOVE[w][r][suit mask]: the canonical w cards of rank r (w = 1: a single,
#: 2: a pair, 3: a triple) from those suits, or None
SET_MOVE: dict[int, tuple[tuple[Move | None, ...], ...]] = {
    w: tuple(
        tuple(
            (LOW_CARDS[r][sm][w], base + 1 if w > 1 else SINGLE, r, 0, None)
            if LOW_CARDS[r][sm][w]
            else None
            for sm in range(16)
        )
        for r in range(13)
    )
    for w, base in ((1, 0), (2, 20), (3, 40))
}


_ALL = (1 << 13) - 1
#: _SPREAD8[b]: 8 bits (a bit a rank) as nibble bits
_SPREAD8 = tuple(sum(1 << (4 * i) for i in range(8) if b >> i & 1) for b in range(256))
#: _PACK[n]: nibble bits of 4 ranks (16 bits) packed to 4 bits
_PACK = {sum(1 << (4 * i) for i in range(4) if b >> i & 1): b for b in range(16)}


def _spread(A: int) -> int:
    """Ranks as bits (bit r) -> ranks as nibble bits (bit 4r)."""
    return _SPREAD8[A & 255] | (_SPREAD8[(A >> 8) & 255] << 32)


def _pack_sp(nib: int) -> int:
    """Nibble bits of ranks 0-11 (3 to ace) -> straight positions 1-12 as bits."""
    return (
        _PACK[nib & 0x1111] | _PACK[(nib >> 16) & 0x1111] << 4 | _PACK[(nib >> 32) & 0x1111] << 8
    ) << 1


def rank_counts(mask: int) -> int:
    """Per-rank card counts (0-4), one nibble a rank."""
    x = (mask & _M1) + ((mask >> 1) & _M1)
    return (x & _M2) + ((x >> 2) & _M2)


def _has_quad(mask: int) -> bool:
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & _NIB)


def classify(idxs: Sequence[int], by_quad: bool) -> tuple[int, int, int] | None:
    """(slot, key, power) of the play made by ascending card integers of the deck, or
    ``None``. ``by_quad``: bombs compare by the rank of the four (house rule), not by
    the fifth card."""
    n = len(idxs)
    if n == 1:
        return SINGLE, idxs[0] >> 2, 0
    counts: dict[int, int] = {}
    for i in idxs:
        r = i >> 2
        counts[r] = counts.get(r, 0) + 1
    ranks = sorted(counts)
    k = len(ranks)
    if n == 5 and k == 2:
        (r1, c1), (r2, c2) = sorted(counts.items(), key=lambda rc: -rc[1])
        if c1 == 4:
            return BOMB, (r1 if by_quad else r2), 1
        return FULL, r1, 0
    consecutive = ranks[-1] - ranks[0] == k - 1
    if n == 2 * k and consecutive and all(v == 2 for v in counts.values()):
        return 20 + k, ranks[-1], 0
    if n == 3 * k and consecutive and all(v == 3 for v in counts.values()):
        return 40 + k, ranks[-1], 0
    if n == k and 5 <= n <= 13:
        sps = sorted((r + 1) % 13 for r in ranks)  # straight positions: the 2 lowest
        if sps[-1] - sps[0] == n - 1:
            return 70 + n, sps[-1], 0
    return None


_SET_SLOTS = {SINGLE: 1, 21: 2, 41: 3}


class ChinesePokerRules(Rules):
    codes = tuple(IDX_CODE)
    index = CODE_IDX
    has_bombs = True
    winner_leads_next = True

    variant_id = "chinese-poker"

    def __init__(self, players: int, options: HouseRules) -> None:
        super().__init__(players, options)
        self.hand_size = 12 if players == 4 else 16
        self.deck_mask = DECK_MASK
        self.open_pass = True
        self.by_quad = options.get("bomb_compare") == "quad"
        self._moves: dict[int, Move | None] = {}

    def penalty(self, left: int) -> int:
        """50 for every card still held, 40 for all but one, 30 for all but two, else a
        point a card."""
        return penalty_50_40_30(left, self.hand_size)

    def move_of(self, mask: int) -> Move | None:
        got: Move | Literal[False] | None = self._moves.get(mask, False)
        if got is not False:
            return got
        mv: Move | None = None
        if mask and not mask & ~DECK_MASK:
            c = classify(mask_ints(mask), self.by_quad)
            if c is not None:
                mv = (mask, c[0], c[1], c[2], None)
        if len(self._moves) > _LIMIT:
            self._moves.clear()
        self._moves[mask] = mv
        return mv

    # ----- listing -------------------------------------------------------------------
    @staticmethod
    def _counts(mask: int) -> list[int]:
        return [_POP[(mask >> sh) & 15] for sh in range(0, 52, 4)]

    @staticmethod
    def _chains(
        mask: int, cnt: list[int], w: int, base: int, out: list[Move], length: int, above: int
    ) -> None:
        """Chains of ``w`` cards at consecutive ranks, ``length`` long, top rank above
        ``above``."""
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

    @staticmethod
    def _full_houses(mask: int, cnt: list[int], out: list[Move], above: int) -> None:
        low = LOW_CARDS
        for t in range(above + 1, 13):
            if cnt[t] >= 3:
                tm = low[t][(mask >> (t << 2)) & 15][3]
                for p in range(13):
                    if p != t and cnt[p] >= 2:
                        out.append((tm | low[p][(mask >> (p << 2)) & 15][2], FULL, t, 0, None))

    @staticmethod
    def _straights(mask: int, cnt: list[int], out: list[Move], length: int, above: int) -> None:
        """Straights ``length`` long with the top position above ``above``."""
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

    def _bombs_of(self, mask: int, cnt: list[int]) -> list[Move]:
        out: list[Move] = []
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

    def _gen_leads(self, mask: int) -> list[Move]:
        return self._touching(mask)

    def _touching(self, mask: int, A: int = _ALL) -> list[Move]:
        """The moves of ``mask`` that use a rank of ``A`` (a bit a rank; all of them by
        default: every move), and every bomb. After a seat's hand lost cards of the
        ranks ``A``, these are the moves its lead list must list again."""
        c = rank_counts(mask)
        low = LOW_CARDS
        out: list[Move] = []
        app = out.append
        present = (c | c >> 1 | c >> 2) & _NIB
        ge2 = ((c >> 1) | (c >> 2)) & _NIB
        ge3 = ((c >> 2) | ((c >> 1) & c)) & _NIB
        an = _spread(A)  # A as nibble bits
        x = present & an
        while x:  # singles
            b = x & -x
            x ^= b
            sh = b.bit_length() - 1
            app((low[sh >> 2][(mask >> sh) & 15][1], SINGLE, sh >> 2, 0, None))
        for w, base, ok in ((2, 20, ge2), (3, 40, ge3)):  # chains through a rank of A
            x = ok & an
            while x:
                b = x & -x
                sh = b.bit_length() - 1
                lo = hi = sh >> 2
                while lo > 0 and ok >> ((lo - 1) << 2) & 1:
                    lo -= 1
                while hi < 12 and ok >> ((hi + 1) << 2) & 1:
                    hi += 1
                x &= ~((1 << ((hi + 1) << 2)) - 1)  # the stretch is done
                picks = [low[q][(mask >> (q << 2)) & 15][w] for q in range(lo, hi + 1)]
                n = hi - lo + 1
                for i in range(n):
                    m = 0
                    for j in range(i, n):
                        m |= picks[j]
                        if (A >> (lo + i)) & ((1 << (j - i + 1)) - 1):
                            app((m, base + j - i + 1, lo + j, 0, None))
        if ge3 and (ge2 & ~ge3 or ge3 & (ge3 - 1)):  # full houses: a triple and a pair
            x = ge3
            while x:
                b = x & -x
                x ^= b
                tsh = b.bit_length() - 1
                t = tsh >> 2
                tm = low[t][(mask >> tsh) & 15][3]
                y = (ge2 & ~b) if A >> t & 1 else (ge2 & an & ~b)
                while y:
                    pb = y & -y
                    y ^= pb
                    psh = pb.bit_length() - 1
                    app((tm | low[psh >> 2][(mask >> psh) & 15][2], FULL, t, 0, None))
        # straights (the 2 lowest): stretches of 5+ straight positions through a rank of A
        sp_present = ((present >> 48) & 1) | _pack_sp(present)
        sp_a = ((A >> 12) & 1) | ((A << 1) & 0x1FFE)
        x = sp_present & sp_a
        while x:
            b = x & -x
            p = b.bit_length() - 1
            lo = hi = p
            while lo > 0 and sp_present >> (lo - 1) & 1:
                lo -= 1
            while hi < 12 and sp_present >> (hi + 1) & 1:
                hi += 1
            x &= ~((2 << hi) - 1)
            n = hi - lo + 1
            if n < 5:
                continue
            lms = []
            for q in range(lo, hi + 1):
                r = _SP_RANK[q]
                lms.append(low[r][(mask >> (r << 2)) & 15][1])
            for i in range(n - 4):
                m = lms[i] | lms[i + 1] | lms[i + 2] | lms[i + 3]
                for j in range(i + 4, n):
                    m |= lms[j]
                    if (sp_a >> (lo + i)) & ((1 << (j - i + 1)) - 1):
                        app((m, 70 + j - i + 1, lo + j, 0, None))
        if c & (_NIB << 2):  # four of a kind: every bomb
            out += self._bombs_of(mask, [(c >> sh) & 15 for sh in range(0, 52, 4)])
        return out

    def legal(self, s: SimState) -> Sequence[Move | None]:
        if s.winner >= 0:
            return []
        cur = s.cur
        h = s.hands[cur]
        top = s.top
        if top is not None:
            out = self.follows(h, top)
            out.append(None)  # type: ignore[arg-type]  # a new list: the pass joins it
            return out
        # leads: a seat's list is kept in ``s.memo`` and, after the seat's hand shrank,
        # the moves using none of the ranks that lost a card are kept (they are still
        # the lowest cards of their ranks) and only the others are listed again
        memo: LeadMemo | None = s.memo[cur]
        if memo is None:
            leads = self.leads(h)
            s.memo[cur] = (h, leads)
        elif memo[0] == h:
            leads = memo[1]
        else:
            gone = memo[0] & ~h
            x = (gone | gone >> 1 | gone >> 2 | gone >> 3) & _NIB
            aff = x * 15
            A = 0
            while x:
                b = x & -x
                x ^= b
                A |= 1 << ((b.bit_length() - 1) >> 2)
            leads = [m for m in memo[1] if not m[0] & aff and not m[3]]
            leads += self._touching(h, A)
            s.memo[cur] = (h, leads)
        if s.opening and s.open_passes < self.players:
            return leads + [None]
        return leads

    def _gen_slot(self, mask: int, slot: int) -> list[Move]:
        return self._beating(mask, self._counts(mask), slot, -1)

    def _gen_bombs(self, mask: int) -> list[Move]:
        return self._bombs_of(mask, self._counts(mask))

    def _beating(self, mask: int, cnt: list[int], slot: int, k: int) -> list[Move]:
        out: list[Move] = []
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

    def follows(self, mask: int, top: Move) -> list[Move]:
        slot = top[1]
        if slot in _SET_SLOTS and not _has_quad(mask):
            # singles, pairs, triples: rank by rank above the top, from the tables
            table = SET_MOVE[_SET_SLOTS[slot]]
            r = top[2] + 1
            m = mask >> (r << 2)
            out: list[Move] = []
            while m:
                mv = table[r][m & 15]
                if mv is not None:
                    out.append(mv)
                m >>= 4
                r += 1
            return out
        cnt = self._counts(mask)
        if top[3]:
            k = top[2]
            return [m for m in self._bombs_of(mask, cnt) if m[2] > k]
        out = self._beating(mask, cnt, top[1], top[2])
        if _has_quad(mask):
            out += self._bombs_of(mask, cnt)
        return out

    # ----- dealing -------------------------------------------------------------------
    def deal(self, rng: random.Random, dealer: int | None = None) -> SimState:
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
        return self.start(hands, dealer)

    def start(self, hands: list[int], dealer: int) -> SimState:
        """The dealer plays first (and may pass on the empty opening table)."""
        return SimState(self, hands, dealer, dealer=dealer)
