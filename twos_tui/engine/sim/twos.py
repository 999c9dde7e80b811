"""Sim rules of Twos (the climbing game). Cards are the engine's integers
(``4 * rank + suit``, spades lowest), and the moves are the engine's canonical suit
choices (one per distinct outcome), listed by the engine's own enumeration functions on
per-rank suit masks, so the sim lists and compares exactly what the protocol does.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..climbing import Slot
from ..twos import (
    _LOWK,
    _SET_OUT,
    _TOPS,
    BOMB_SHAPES,
    CODE_INT,
    CODES,
    STRICT,
    Outcome,
    _classify_mask,
    _opt_key,
    _powers,
    _suited_runs,
)
from .core import LeadMemo, Move, Rules, SimState

_POP = tuple(bin(m).count("1") for m in range(16))
_LIMIT = 100_000


_SLOT_ID: dict[Slot, int] = {("set", n): n for n in (1, 2, 3)}
_SLOT_ID.update({("run", n): 10 + n for n in range(3, 14)})
_SLOT_ID.update({("bomb",) + s: 100 + 16 * s[0] + s[1] for s in BOMB_SHAPES})


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


def rank_counts(mask: int) -> int:
    """Per-rank card counts (0-4), one nibble a rank."""
    x = (mask & _M1) + ((mask >> 1) & _M1)
    return (x & _M2) + ((x >> 2) & _M2)


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

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        opts = dict(options)
        opts["_players"] = players
        super().__init__(players, options)
        self.opt = _opt_key(opts)
        self.hand_size = self.opt[0]
        self.same_suit = self.opt[2]
        self.lowest_opens = options.get("opening") == "lowest"
        self.deck_mask = (1 << 52) - 1
        self._power = {_SLOT_ID[s]: p for s, p in _powers(self.opt[0], self.opt[1]).items()}
        self._moves: dict[int, Move] = {}
        #: SET_MOVES[n][r][suit mask]: the canonical n-card sets of rank r, by key
        self.set_moves = {
            n: tuple(
                tuple(tuple(self._from_outcome(o) for o in _SET_OUT[n][r][m]) for m in range(16))
                for r in range(13)
            )
            for n in (1, 2, 3)
        }
        #: ALL_SETS[r][suit mask]: the canonical singles, pairs and triples of rank r
        self.all_sets = tuple(
            tuple(
                self.set_moves[1][r][m] + self.set_moves[2][r][m] + self.set_moves[3][r][m]
                for m in range(16)
            )
            for r in range(13)
        )

    # ----- classification ------------------------------------------------------------
    def _from_outcome(self, o: Outcome) -> Move:
        """The move of an engine outcome ``(slot, top card, strict, card mask)``."""
        mask = o[3]
        mv = self._moves.get(mask)
        if mv is None:
            sid = _SLOT_ID[o[0]]
            mv = (mask, sid, o[1], self._power.get(sid, 0), o[2])
            if len(self._moves) > _LIMIT:
                self._moves.clear()
            self._moves[mask] = mv
        return mv

    def move_of(self, mask: int) -> Move | None:
        mv = self._moves.get(mask)
        if mv is not None:
            return mv
        # quick refusal: a play is one rank, or 3+ consecutive ranks with as many
        # cards at each
        cnt = rank_counts(mask)
        x = (cnt | cnt >> 1 | cnt >> 2) & _NIB
        if x & (x - 1):
            sh = (x & -x).bit_length() - 1
            k = x.bit_count()
            if k < 3 or x >> sh != _RUN_NIBS[k] or cnt != (cnt >> sh & 15) * x:
                return None
        c = _classify_mask(mask, self.opt)
        if c is None:
            return None
        return self._from_outcome((c.slot, c.key[0], c.strict, mask))

    # ----- listing -------------------------------------------------------------------
    @staticmethod
    def _ms(mask: int) -> list[int]:
        return [(mask >> sh) & 15 for sh in range(0, 52, 4)]

    def _runs(self, mask: int, length: int = 0, above: int = -1, an: int = _NIB) -> list[Move]:
        """Canonical free-suit runs (what the engine's ``_multi(ms, 1, ...)`` lists): the
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
            outs: list[Outcome] = []
            _suited_runs(self._ms(mask), outs.append)
            conv = self._from_outcome
            out += [conv(o) for o in outs]
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
        outs: list[Outcome] = []
        _suited_runs(self._ms(mask), outs.append, slot - 10)
        conv = self._from_outcome
        return [conv(o) for o in outs]

    def _gen_bombs(self, mask: int) -> list[Move]:
        """Four of a kind and multi-runs (what the engine's ``_bombs`` lists): for a
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
        low = min(h & -h for h in hands)
        cur = next(s for s in range(n) if hands[s] & low)
        return SimState(self, hands, cur, req=low if self.lowest_opens else 0)


__all__ = ["TwosRules", "STRICT", "rank_counts"]
