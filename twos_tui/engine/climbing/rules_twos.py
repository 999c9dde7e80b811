"""The rules of Twos (the climbing game) as integers: the one implementation that the
protocol game (:mod:`.game_twos`) and the search both use.

Cards are ints ``4 * rank + suit`` (rank 0 = the 3s ... 12 = the 2s; suits spades <
clubs < diamonds < hearts), so a higher int is a higher card and a hand is a 52-bit mask.
This module holds the card encoding, the bomb order, the classification of a card mask
(:func:`classify_mask`) and :class:`TwosRules`: the listing of a hand's canonical plays
(one per distinct outcome, see the protocol module's docstring) and how they compare.

Slot ids (``Move[SLOT]``): ``n`` for a set of ``n`` cards (1-3), ``10 + n`` for a run of
``n``, ``100 + 16 * w + n`` for a bomb of ``w`` cards at each of ``n`` ranks (four of a
kind is ``w = 4, n = 1``). A move's key is its top card; a bomb's power its place in the
bomb order (1 = weakest).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache

from ..cards import CLIMB_RANKS, card_code
from .core import HouseRules, LeadMemo, Move, Rules, SimState, lowest_holder

# ---------------------------------------------------------------------------------------
# Card encoding: card = 4 * rank_index + suit_index, rank_index 0 (3) .. 12 (2),
# suit_index S=0 < C=1 < D=2 < H=3. Higher int = higher card.

SUIT_ORDER = ("S", "C", "D", "H")
NRANKS = 13
CODES: tuple[str, ...] = tuple(card_code(r, s) for r in CLIMB_RANKS for s in SUIT_ORDER)
CODE_INT: dict[str, int] = {c: i for i, c in enumerate(CODES)}

_POP = tuple(bin(m).count("1") for m in range(16))


def _lowest(m: int, k: int) -> int:
    """Mask of the lowest ``k`` suits in suit mask ``m`` (0 if it has fewer)."""
    if _POP[m] < k:
        return 0
    out = 0
    for s in range(4):
        if k == 0:
            break
        if m >> s & 1:
            out |= 1 << s
            k -= 1
    return out


_LOWK = tuple(tuple(_lowest(m, k) for k in range(5)) for m in range(16))
#: _TOPS[m][w]: ((top_suit, submask), ...) for each top suit that has w-1 suits below it
_TOPS = tuple(
    tuple(
        tuple(
            (t, (1 << t) | _LOWK[m & ((1 << t) - 1)][w - 1])
            for t in range(4)
            if m >> t & 1 and _POP[m & ((1 << t) - 1)] >= w - 1
        )
        if w
        else ()
        for w in range(5)
    )
    for m in range(16)
)

#: Every bomb shape (width, length): four of a kind, and multi-runs.
BOMB_SHAPES: tuple[tuple[int, int], ...] = ((4, 1),) + tuple(
    (w, ln) for w in (2, 3, 4) for ln in range(3, NRANKS + 1)
)
#: The text's list, weakest first (the 13-card default, and the fixed-list option).
TEXT_BOMB_LIST: tuple[tuple[int, int], ...] = (
    (2, 3),
    (4, 1),
    (2, 4),
    (2, 5),
    (3, 3),
    (2, 6),
    (3, 4),
    (2, 7),
    (4, 3),
    (3, 5),
    (3, 6),
    (4, 4),
)
STRICT = "same-suit"
QUAD_SID = 100 + 16 * 4 + 1

#: the options play depends on: hand size, bomb order, same-suit runs
OptKey = tuple[int, str, bool]
#: what collects moves (a list's ``append``)
Collect = Callable[[Move], object]


def bomb_sid(width: int, length: int) -> int:
    return 100 + 16 * width + length


def default_hand_size(players: int | None) -> int:
    return 20 if players == 2 else 13


def shape_label(shape: tuple[int, int]) -> str:
    return f"{shape[0]}×{shape[1]}"


@cache
def shape_probabilities(hand_size: int) -> dict[tuple[int, int], Fraction]:
    """Exact chance that a dealt hand of ``hand_size`` holds each bomb shape."""
    from ..odds import shape_probability

    return {
        s: (shape_probability(s[0], s[1], hand_size) if s[0] * s[1] <= hand_size else Fraction(0))
        for s in BOMB_SHAPES
    }


@cache
def rarity_order(hand_size: int) -> tuple[tuple[int, int], ...]:
    """Every bomb shape, weakest (most likely to be dealt) first. Exact ties (shapes
    that cannot be dealt at this size, probability 0) put fewer cards, then the
    narrower shape, first."""
    p = shape_probabilities(hand_size)
    return tuple(sorted(BOMB_SHAPES, key=lambda s: (-p[s], s[0] * s[1], s[0])))


@cache
def bomb_order(hand_size: int, mode: str = "rarity") -> tuple[tuple[int, int], ...]:
    """Every bomb shape, weakest first, for a hand size and the ``bomb_order`` option.

    ``"rarity"`` (default): at 13 cards the text's list; at other sizes the rarer shape
    is stronger (exact probability in a dealt hand). ``"fixed"``: the text's list at
    every size. Shapes not on the text's list come after it, ordered by rarity at
    the hand size.
    """
    if mode == "rarity" and hand_size != 13:
        return rarity_order(hand_size)
    rest = tuple(s for s in rarity_order(hand_size) if s not in TEXT_BOMB_LIST)
    return TEXT_BOMB_LIST + rest


@cache
def powers(hand_size: int, mode: str) -> dict[int, int]:
    """Bomb slot id -> power (1 = the weakest shape)."""
    return {bomb_sid(*s): i + 1 for i, s in enumerate(bomb_order(hand_size, mode))}


def opt_key(options: HouseRules) -> OptKey:
    hs = options.get("hand_size")
    if not isinstance(hs, int):
        players = options.get("_players", 3)
        hs = default_hand_size(players if isinstance(players, int) else 3)
    mode = options.get("bomb_order", "rarity")
    return (hs, mode if isinstance(mode, str) else "rarity", options.get("run_suits") == STRICT)


# ---------------------------------------------------------------------------------------
# Classification

_NIB = 0x1111111111111
_E = 0xEEEEEEEEEEEEE
_C = 0xCCCCCCCCCCCCC
_8 = 0x8888888888888
#: _RUN_NIBS[k]: nibble bits of k consecutive ranks from rank 0
_RUN_NIBS = tuple(sum(1 << (4 * i) for i in range(k)) for k in range(14))
#: _SUITS[suit mask]: the suits in it, low to high
_SUITS = tuple(tuple(t for t in range(4) if m >> t & 1) for m in range(16))
_M1 = 0x5555555555555
_M2 = 0x3333333333333
_LIMIT = 100_000
_CLASSIFIED: dict[OptKey, dict[int, Move | None]] = {}


def rank_counts(mask: int) -> int:
    """Per-rank card counts (0-4), one nibble a rank."""
    x = (mask & _M1) + ((mask >> 1) & _M1)
    return (x & _M2) + ((x >> 2) & _M2)


def classify_mask(mask: int, opt: OptKey) -> Move | None:
    """The move the cards ``mask`` make under the options ``opt``, or ``None``: one rank
    (a set, or four of a kind), or 3+ consecutive ranks with as many cards at each (a
    run of single cards, or a multi-run bomb)."""
    table = _CLASSIFIED.get(opt)
    if table is None:
        table = _CLASSIFIED[opt] = {}
    elif mask in table:
        return table[mask]
    mv = _classify(mask, opt)
    if len(table) > _LIMIT:
        table.clear()
    table[mask] = mv
    return mv


def _classify(mask: int, opt: OptKey) -> Move | None:
    if not mask:
        return None
    cnt = rank_counts(mask)
    x = (cnt | cnt >> 1 | cnt >> 2) & _NIB  # ranks held (bit 4r)
    sh = (x & -x).bit_length() - 1
    w = cnt >> sh & 15
    top = mask.bit_length() - 1
    if not x & (x - 1):  # one rank
        if w < 4:
            return (mask, w, top, 0, None)
        return (mask, QUAD_SID, top, powers(opt[0], opt[1])[QUAD_SID], None)
    k = x.bit_count()
    if k < 3 or x >> sh != _RUN_NIBS[k] or cnt != w * x:
        return None
    if w == 1:
        strict = None
        if opt[2] and any(mask & (_NIB << s) == mask for s in range(4)):
            strict = STRICT
        return (mask, 10 + k, top, 0, strict)
    sid = bomb_sid(w, k)
    return (mask, sid, top, powers(opt[0], opt[1])[sid], None)


#: _SET_OUT[n][r][m]: the canonical sets of n cards at rank r for suit mask m, by top
_SET_OUT: dict[int, tuple[tuple[tuple[Move, ...], ...], ...]] = {
    n: tuple(
        tuple(
            tuple((sub << (4 * r), n, 4 * r + t, 0, None) for t, sub in _TOPS[m][n])
            for m in range(16)
        )
        for r in range(NRANKS)
    )
    for n in (1, 2, 3)
}


def _suited_runs(ms: list[int], app: Collect, only_length: int = 0) -> None:
    """Runs under the same-suit house rule: per top card, the same-suit run (if held)
    and a mixed-suit run (if possible)."""
    for start in range(NRANKS - 2):
        if not (ms[start] and ms[start + 1] and ms[start + 2]):
            continue
        r = start
        base = 0  # lowest suit at each rank so far
        common = 15  # suits held at every rank so far
        while r < NRANKS and ms[r]:
            m = ms[r]
            sh = 4 * r
            if r - start >= 2 and (not only_length or r - start + 1 == only_length):
                sid = 10 + r - start + 1
                for t, sub in _TOPS[m][1]:
                    line = 0
                    for k in range(start, r + 1):
                        line |= (1 << t) << (4 * k)
                    if common >> t & 1:
                        app((line, sid, sh + t, 0, STRICT))
                    mixed = base | (sub << sh)
                    if mixed == line:
                        # the lowest suits are all suit t: switch the first rank that
                        # holds another suit to its lowest other suit
                        mixed = 0
                        for k in range(start, r):
                            other = ms[k] & ~(1 << t)
                            if other:
                                mixed = line ^ ((1 << t) << (4 * k)) ^ (_LOWK[other][1] << (4 * k))
                                break
                    if mixed:
                        app((mixed, sid, sh + t, 0, None))
            common &= m
            base |= _LOWK[m][1] << sh
            r += 1


#: _ALL_SETS[r][suit mask]: the canonical singles, pairs and triples of rank r
_ALL_SETS = tuple(
    tuple(_SET_OUT[1][r][m] + _SET_OUT[2][r][m] + _SET_OUT[3][r][m] for m in range(16))
    for r in range(NRANKS)
)


def _has_bomb(mask: int) -> bool:
    """Does the hand hold a bomb: four of a kind, or 2+ cards at 3 consecutive ranks?"""
    c = rank_counts(mask)
    if c & (_NIB << 2):
        return True
    ge2 = ((c >> 1) | (c >> 2)) & _NIB
    return bool(ge2 & (ge2 >> 4) & (ge2 >> 8))


class TwosRules(Rules):
    codes = CODES
    index = CODE_INT
    has_bombs = True

    def __init__(self, players: int, options: HouseRules) -> None:
        opts = dict(options)
        opts["_players"] = players
        super().__init__(players, options)
        self.opt = opt_key(opts)
        self.hand_size = self.opt[0]
        self.same_suit = self.opt[2]
        self.lowest_opens = options.get("opening") == "lowest"
        self.deck_mask = (1 << 52) - 1
        self._power = powers(self.opt[0], self.opt[1])
        #: SET_MOVES[n][r][suit mask]: the canonical n-card sets of rank r, by key
        self.set_moves = _SET_OUT
        #: ALL_SETS[r][suit mask]: the canonical singles, pairs and triples of rank r
        self.all_sets = _ALL_SETS

    # ----- classification ------------------------------------------------------------

    def penalty(self, left: int) -> int | None:
        """A point a card under penalty scoring; None when deals won decide the match."""
        return left if self.options.get("scoring") == "penalty" else None

    def move_of(self, mask: int) -> Move | None:
        return classify_mask(mask, self.opt)

    # ----- listing -------------------------------------------------------------------
    @staticmethod
    def _ms(mask: int) -> list[int]:
        return [(mask >> sh) & 15 for sh in range(0, 52, 4)]

    def _runs(self, mask: int, length: int = 0, above: int = -1, an: int = _NIB) -> list[Move]:
        """Canonical free-suit runs (one per start, length and top card): the
        lowest suit at each rank below the top and any suit at the top; ``length``
        restricts to one length, ``above`` to top cards above that card, ``an`` (nibble
        bits, with no ``length``) to runs through one of those ranks."""
        x = (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIB  # ranks held (bit 4r)
        low = mask & ~(((mask << 1) & _E) | ((mask << 2) & _C) | ((mask << 3) & _8))
        out: list[Move] = []
        app = out.append
        suits = _SUITS
        if length:
            ok = x
            for i in range(1, length):
                ok &= x >> (4 * i)
            span = (1 << (4 * (length - 1))) - 1
            sid = 10 + length
            while ok:
                b = ok & -ok
                ok ^= b
                sh = b.bit_length() - 1
                she = sh + 4 * (length - 1)
                if she + 3 <= above:
                    continue
                base = low & (span << sh)
                for t in suits[(mask >> she) & 15]:
                    c = she + t
                    if c > above:
                        app((base | (1 << c), sid, c, 0, None))
            return out
        s3 = x & (x >> 4) & (x >> 8)
        while s3:
            b = s3 & -s3
            s3 ^= b
            sh = b.bit_length() - 1
            base = low & (0xFF << sh)
            she = sh + 8
            sid = 13
            hit = an & (0x11 << sh)  # the run so far uses a rank of ``an``
            while she < 52 and x >> she & 1:
                if hit or an >> she & 1:
                    hit = 1
                    for t in suits[(mask >> she) & 15]:
                        c = she + t
                        app((base | (1 << c), sid, c, 0, None))
                base |= low & (15 << she)
                she += 4
                sid += 1
        return out

    def _touching(self, mask: int, an: int) -> list[Move]:
        """The moves of ``mask`` that use a rank of ``an`` (nibble bits), and every
        bomb: what a seat's lead list must list again after those ranks lost cards."""
        out: list[Move] = []
        table = self.all_sets
        x = mask & (an * 15)
        while x:
            b = x & -x
            sh = (b.bit_length() - 1) & ~3
            x &= ~(15 << sh)
            out += table[sh >> 2][(mask >> sh) & 15]
        out += self._runs(mask, 0, -1, an)
        if _has_bomb(mask):
            out += self._gen_bombs(mask)
        return out

    def legal(self, s: SimState) -> Sequence[Move | None]:
        if self.same_suit:
            return super().legal(s)
        if s.winner >= 0:
            return []
        cur = s.cur
        h = s.hands[cur]
        top = s.top
        if top is not None:
            out = self.follows(h, top)
            out.append(None)  # type: ignore[arg-type]  # a new list: the pass joins it
            return out
        # leads: each seat's list is kept in ``s.memo``; after the seat's hand shrank,
        # the moves that use no rank that lost a card are still the canonical ones, and
        # only the moves through those ranks (and the bombs) are listed again
        memo: LeadMemo | None = s.memo[cur]
        if memo is None:
            leads = self.leads(h)
            s.memo[cur] = (h, leads)
        elif memo[0] == h:
            leads = memo[1]
        else:
            gone = memo[0] & ~h
            an = (gone | gone >> 1 | gone >> 2 | gone >> 3) & _NIB
            aff = an * 15
            leads = [m for m in memo[1] if not m[0] & aff and not m[3]]
            leads += self._touching(h, an)
            s.memo[cur] = (h, leads)
        req = s.req
        if req:
            return [m for m in leads if m[0] & req]
        return leads

    def _gen_leads(self, mask: int) -> list[Move]:
        out: list[Move] = []
        table = self.all_sets
        m = mask
        r = 0
        while m:
            sm = m & 15
            if sm:
                out += table[r][sm]
            m >>= 4
            r += 1
        if self.same_suit:
            _suited_runs(self._ms(mask), out.append)
        else:
            out += self._runs(mask)
        if _has_bomb(mask):
            out += self._gen_bombs(mask)
        return out

    def _gen_slot(self, mask: int, slot: int) -> list[Move]:
        if slot <= 3:
            out: list[Move] = []
            table = self.set_moves[slot]
            pop = _POP
            m = mask
            r = 0
            while m:
                sm = m & 15
                if pop[sm] >= slot:
                    out += table[r][sm]
                m >>= 4
                r += 1
            return out
        if not self.same_suit:
            return self._runs(mask, slot - 10)
        out = []
        _suited_runs(self._ms(mask), out.append, slot - 10)
        return out

    def _gen_bombs(self, mask: int) -> list[Move]:
        """Four of a kind and multi-runs, one per shape, start and top card: for a
        multi-run of width w, the lowest w suits at each rank below the top and, at the
        top, each top card with the lowest w - 1 suits below it."""
        cnt = rank_counts(mask)
        out: list[Move] = []
        quads = (cnt >> 2) & _NIB
        if quads:
            sid = 100 + 16 * 4 + 1
            pw = self._power[sid]
            while quads:
                b = quads & -quads
                quads ^= b
                sh = b.bit_length() - 1
                out.append((15 << sh, sid, sh + 3, pw, None))
        ge2 = ((cnt >> 1) | (cnt >> 2)) & _NIB
        if not ge2 & (ge2 >> 4) & (ge2 >> 8):
            return out
        ge3 = ((cnt >> 2) | ((cnt >> 1) & cnt)) & _NIB
        power = self._power
        lowk = _LOWK
        tops = _TOPS
        for w, ok in ((2, ge2), (3, ge3), (4, (cnt >> 2) & _NIB)):
            s3 = ok & (ok >> 4) & (ok >> 8)
            while s3:
                b = s3 & -s3
                s3 ^= b
                sh = b.bit_length() - 1
                base = (lowk[(mask >> sh) & 15][w] << sh) | (
                    lowk[(mask >> (sh + 4)) & 15][w] << (sh + 4)
                )
                she = sh + 8
                sid = 100 + 16 * w + 3
                while she < 52 and ok >> she & 1:
                    pw = power[sid]
                    for t, sub in tops[(mask >> she) & 15][w]:
                        out.append((base | (sub << she), sid, she + t, pw, None))
                    base |= lowk[(mask >> she) & 15][w] << she
                    she += 4
                    sid += 1
        return out

    def follows(self, mask: int, top: Move) -> list[Move]:
        slot = top[1]
        if top[3]:  # a bomb: only a stronger bomb
            if not _has_bomb(mask):
                return []
            return super().follows(mask, top)
        k = top[2]
        if slot <= 3:  # a set: straight from the tables
            table = self.set_moves[slot]
            pop = _POP
            out: list[Move] = []
            r0 = k >> 2
            sm = (mask >> (r0 << 2)) & 15
            if pop[sm] >= slot:
                out += [mv for mv in table[r0][sm] if mv[2] > k]
            m = mask >> ((r0 + 1) << 2)
            r = r0 + 1
            while m:
                sm = m & 15
                if pop[sm] >= slot:
                    out += table[r][sm]
                m >>= 4
                r += 1
        elif not self.same_suit:
            out = self._runs(mask, slot - 10, k)
        else:
            keys, moves = self.slot_moves(self.hand(mask), slot)
            out = moves[bisect_right(keys, k) :] if keys and keys[-1] > k else []
            strict = top[4]
            if strict is not None and out:
                out = [m for m in out if m[4] == strict]
        if _has_bomb(mask):
            out += self.bombs(self.hand(mask))
        return out

    # ----- dealing -------------------------------------------------------------------
    def deal(self, rng: random.Random) -> SimState:
        n, k = self.players, self.hand_size
        rnd = rng.random
        keys = [rnd() for _ in range(52)]
        order = sorted(range(52), key=keys.__getitem__)
        hands: list[int] = []
        for j in range(n):
            m = 0
            for i in order[j * k : (j + 1) * k]:
                m |= 1 << i
            hands.append(m)
        return self.start(hands, 0)

    def start(self, hands: list[int], dealer: int) -> SimState:
        """The holder of the lowest dealt card leads; under the "lowest" opening rule
        the first play must include that card."""
        seat, low = lowest_holder(hands)
        return SimState(self, hands, seat, req=low if self.lowest_opens else 0, dealer=dealer)


__all__ = ["TwosRules", "STRICT", "classify_mask", "rank_counts"]
