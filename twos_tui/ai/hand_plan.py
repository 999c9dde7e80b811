"""Hand planning for the climbing games (Twos, Big Two, Big Two five-round, Chinese Poker).

A :class:`Planner` is built from one seat's observation (or from a hand on offer) and
knows only what that seat may know: its own cards, the cards already played this deal,
every seat's card count and the house rules. It answers three questions:

* **How strong is a combination?** :meth:`Planner.strength` gives the chance that no
  opponent can beat it, from the cards still unseen (counted from the play history) and
  how many cards each opponent holds: each opponent is taken to hold a random share of
  the unseen cards (the hypergeometric law), bombs they might hold count half. An
  opponent who passed on a play this deal is taken to beat a play of that kind as high
  or higher only half as often (a pass may be a choice). A combination nobody can beat
  except with a bomb is a *control*; so is one no opponent holds enough cards to follow.
* **What is the best way to split a hand?** :meth:`Planner.plan` splits a set of cards
  into combinations at the lowest cost, where a combination costs
  ``1 + EPS - ALPHA * strength``: fewest combinations first, and among those the split
  that keeps the strongest ones (a control costs next to nothing, a low single a whole
  turn). Per variant:

  - Twos: an exact search over card sets (memoised; which suits of a rank go together
    is fixed, lowest first), deciding at each step how the lowest card is used: single,
    pair, triple, four of a kind, a run (3+ ranks) or a multi-run
    bomb starting at it;
  - Big Two (both editions): singles, pairs and triples split rank by rank (exactly), plus
    up to two five-card hands chosen from a short list of candidates (straights, flushes
    with the cards that are not needed elsewhere, full houses, four of a kind with the
    lowest loose card, straight flushes);
  - Chinese Poker (suits never matter): an exact search over rank counts: singles, pairs
    and triples alone or in consecutive chains, full houses, straights of 5-13 with the 2
    low, four of a kind plus one.

* **What does a play cost the hand?** ``plan_cost(hand) - plan_cost(hand - play)``.

Cards are integers ``4 * rank + suit`` with ``rank`` 0 (three) ... 12 (two) and suits in
the variant's order (a higher integer is a higher single card in Twos and Big Two).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb
from typing import Any

from ..engine.big_two import BigTwoGame
from ..engine.big_two_5r import BigTwoFiveRoundGame
from ..engine.bitmask import bits
from ..engine.chinese_poker import CP_DECK, ChinesePokerGame
from ..engine.observer import ObsIn, as_climbing
from ..engine.poker_hands import CODE_IDX, IDX_CODE
from ..engine.twos import CODE_INT, CODES, bomb_order, default_hand_size
from ..engine.views import ClimbingView

INF = float("inf")

#: a combination's identity in a planner's strength model: its family word first, then
#: what that family is compared by, e.g. ``("set", width, top)``, ``("run", length,
#: suited, top)``, ``("bomb", (width, length), top)`` (Twos), ``(key,)`` (Big Two).
#: The layout depends on the family and is read by position, so the fields are ``Any``.
Info = tuple[Any, ...]
#: (kind of play, comparison key), as :meth:`Planner.slot_of` gives it
SlotKey = tuple[Info, int]
#: cost of a combination: 1 + EPS - ALPHA * strength
ALPHA = 1.0
EPS = 0.05
#: how much an opponent's possible bomb weighs on the strength of a non-bomb
BOMB_WEIGHT = 0.5
#: a combination is a control when its strength (bombs aside) is at least this
CONTROL = 0.999
#: an opponent who passed on a play this deal beats a play of the same kind that is as
#: high or higher only this often (a pass may be a choice, so it is no proof)
AFTER_PASS = 0.5

_POP = tuple(bin(m).count("1") for m in range(16))
_LOWBITS = tuple(tuple(b for b in range(4) if m >> b & 1) for m in range(16))
NIBBLES = 0x1111111111111


@lru_cache(maxsize=65536)
def tail(total: int, held: int, u: int, k: int) -> float:
    """P(a random ``held`` of ``total`` unseen cards include at least ``k`` of ``u``
    given cards)."""
    if k <= 0:
        return 1.0
    if u < k or held < k or total <= 0 or u > total:
        return 0.0
    held = min(held, total)
    den = comb(total, held)
    p = 0
    for j in range(k, min(u, held) + 1):
        p += comb(u, j) * comb(total - u, held - j)
    return p / den


@lru_cache(maxsize=65536)
def none_of(total: int, held: int, m: int) -> float:
    """P(a random ``held`` of ``total`` unseen cards include none of ``m`` given cards)."""
    if m <= 0:
        return 1.0
    if held > total - m or m > total:
        return 0.0
    return comb(total - m, held) / comb(total, held)


class Combo:
    """One combination of a plan or a legal play.

    ``mask``: the cards (bits of the planner's integers; for Chinese Poker, a rank-count
    code: 3 bits a rank). ``sig``: what identifies the play among the legal actions (the
    rank counts, or the exact cards in Big Two). ``kind``: ``single``, ``pair``,
    ``triple``, ``run``, ``bomb``, ``pairs``/``triples`` (chains), ``straight``,
    ``flush``, ``full-house``, ``four-of-a-kind``, ``straight-flush``. ``n``: cards.
    ``top``: the rank that leads the comparison (for display and chains).
    """

    __slots__ = ("mask", "sig", "kind", "n", "top", "info", "cost", "s", "ctrl", "cards")

    def __init__(self, mask: int, sig: int, kind: str, n: int, top: int, info: Info) -> None:
        self.mask = mask
        self.sig = sig
        self.kind = kind
        self.n = n
        self.top = top
        self.info = info
        self.cost = 0.0
        self.s = 0.0
        self.ctrl = False
        self.cards: tuple[str, ...] = ()

    @property
    def bomb(self) -> bool:
        return self.kind in ("bomb", "four-of-a-kind") and self.info[0] == "bomb"

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.kind} {' '.join(self.cards)} s={self.s:.2f}>"


class _Named(Combo):
    """A plan's combination with the cards it uses named (Chinese Poker plans are over
    rank counts, so the shared combination cannot carry card names)."""

    __slots__ = ()

    def __init__(self, c: Combo, cards: tuple[str, ...]) -> None:
        super().__init__(c.mask, c.sig, c.kind, c.n, c.top, c.info)
        self.cost, self.s, self.ctrl = c.cost, c.s, c.ctrl
        self.cards = cards


class _Opp:
    """What one opponent may hold: per rank, P(at least k of the unseen cards)."""

    __slots__ = ("n", "q", "cache", "passed")

    def __init__(self, n: int, total: int, per_rank: list[int]) -> None:
        self.n = n
        #: (kind of play) -> the lowest play of that kind it passed on this deal
        self.passed: dict[Info, int] = {}
        table = _tails(total, n)
        self.q = [[table[u][k] for u in per_rank] for k in range(5)]
        self.cache: dict[Any, Any] = {}


@lru_cache(maxsize=4096)
def _tails(total: int, held: int) -> tuple[tuple[float, ...], ...]:
    """``[u][k]``: :func:`tail` for u, k = 0..4."""
    return tuple(tuple(tail(total, held, u, k) for k in range(5)) for u in range(5))


def _suffix_none(probs: list[float]) -> list[float]:
    """``out[r]`` = product of ``1 - probs[x]`` for every ``x > r``."""
    out = [1.0] * len(probs)
    acc = 1.0
    for r in range(len(probs) - 1, -1, -1):
        out[r] = acc
        acc *= 1.0 - probs[r]
    return out


class Planner:
    """Base class: the seat's knowledge and the strength model. See the module doc."""

    variant = ""
    deck_size = 52

    def __init__(
        self,
        obs: ClimbingView,
        hand: list[str] | None = None,
        opponents: list[int] | None = None,
        known_out: list[str] | None = None,
    ) -> None:
        self.obs = obs
        self.options: dict[str, Any] = dict(obs.options or {})
        self.seat = obs.me
        self.players = obs.players
        enc = self.enc
        codes = obs.hand if hand is None else hand
        hm = 0
        for c in codes:
            hm |= 1 << enc[c]
        self.hand = hm
        played = 0
        deal = obs.deal_number
        for h in obs.history or ():
            if h.kind == "play" and h.deal == deal:
                for c in h.cards or ():
                    played |= 1 << enc[c]
        self.played = played
        out = self.mask_of(known_out) if known_out else 0
        self.unseen = self.deck_mask() & ~hm & ~played & ~out
        self.total = self.unseen.bit_count()
        if opponents is None:
            counts = obs.hand_counts
            opponents = [counts[s] for s in range(self.players) if s != self.seat and counts[s]]
        self.opp_counts = opponents
        per_rank = [self.unseen_rank(r) for r in range(13)]
        self.unseen_per_rank = per_rank
        self.opps = [_Opp(n, self.total, per_rank) for n in opponents]
        if hand is None:
            self._read_passes(obs)
        self.memo: dict[int, tuple[float, Any]] = {}
        self.costs: dict[Any, Combo] = {}
        self._bomb_threat: float | None = None

    def _read_passes(self, obs: ClimbingView) -> None:
        """Note, for each opponent, the lowest play of each kind it passed on this deal
        (replaying the public log: a play sets the table, a new trick clears it)."""
        counts = obs.hand_counts
        seats = [s for s in range(self.players) if s != self.seat and counts[s]]
        by_seat = dict(zip(seats, self.opps, strict=False))
        if not by_seat:
            return
        deal = obs.deal_number
        top = None
        for h in obs.history or ():
            if h.deal != deal:
                continue
            kind = h.kind
            if kind == "play":
                top = h.cards
            elif kind == "trick":
                top = None
            elif kind == "pass" and top:
                seat = h.seat
                o = by_seat.get(seat) if seat is not None else None
                got = self.slot_of(top) if o is not None else None
                if o is not None and got is not None:
                    slot, key = got
                    if key < o.passed.get(slot, key + 1):
                        o.passed[slot] = key

    def slot_of(self, cards: Sequence[str]) -> SlotKey | None:
        """(kind of play, comparison key) of a play, as :meth:`_passed` reads them."""
        return None

    @staticmethod
    def _after_pass(o: _Opp, slot: Info, key: int, p: float) -> float:
        """``p`` (the chance that ``o`` cannot beat a play) given what ``o`` passed on."""
        low = o.passed.get(slot)
        if low is not None and key >= low:
            return 1.0 - (1.0 - p) * AFTER_PASS
        return p

    # ----- cards ---------------------------------------------------------------------------
    enc: dict[str, int] = {}
    dec: tuple[str, ...] | list[str] = ()

    def deck_mask(self) -> int:
        return (1 << 52) - 1

    def unseen_rank(self, r: int) -> int:
        return _POP[(self.unseen >> (4 * r)) & 15]

    def mask_of(self, cards: Sequence[str]) -> int:
        enc = self.enc
        m = 0
        for c in cards:
            m |= 1 << enc[c]
        return m

    def sig_of(self, cards: Sequence[str]) -> int:
        """What identifies a play among the legal actions: its rank counts (3 bits a
        rank); Big Two, where suits make different plays, overrides it."""
        enc = self.enc
        sig = 0
        for c in cards:
            sig += 1 << (3 * (enc[c] >> 2))
        return sig

    def key(self, cards: Sequence[str]) -> int:
        """The highest card of ``cards`` in the variant's order."""
        enc = self.enc
        return max(enc[c] for c in cards)

    def rest_cards(self, cards: Sequence[str]) -> int:
        """The hand's cards (a card mask) left after playing ``cards``."""
        return self.hand & ~self.mask_of(cards)

    def codes(self, mask: int) -> tuple[str, ...]:
        dec = self.dec
        return tuple(dec[i] for i in bits(mask))

    # ----- strength ------------------------------------------------------------------------
    def _finish(self, c: Combo, s_plain: float, bomb: bool = False) -> Combo:
        """Set the strength, control flag and cost of ``c`` (``s_plain``: the chance that
        no opponent beats it without a bomb)."""
        c.ctrl = s_plain >= CONTROL
        s = s_plain if bomb else s_plain * (1.0 - BOMB_WEIGHT * self.bomb_threat())
        c.s = s
        c.cost = 1.0 + EPS - ALPHA * s
        return c

    def bomb_threat(self) -> float:
        """P(some opponent holds a bomb) (0 in Big Two, which has none)."""
        return 0.0

    def strength(self, c: Combo, opps: list[_Opp] | None = None) -> float:
        """P(no opponent in ``opps`` (default: all) beats ``c``), bombs counted."""
        if opps is None:
            return c.s
        return self._strength(c, opps, True)

    def is_control(self, c: Combo, opps: list[_Opp] | None = None) -> bool:
        if opps is None:
            return c.ctrl
        return self._strength(c, opps, False) >= CONTROL

    def _strength(self, c: Combo, opps: list[_Opp], with_bombs: bool) -> float:
        raise NotImplementedError

    # ----- planning ------------------------------------------------------------------------
    def cost(self, mask: int) -> float:
        raise NotImplementedError

    def plan(self, mask: int | None = None, cards: int | None = None) -> list[Combo]:
        """The best split of ``mask`` (default: the hand), weakest first. ``cards``: the
        card mask that ``mask`` stands for (only Chinese Poker, whose masks are rank
        counts, needs it to name the cards)."""
        raise NotImplementedError

    def combo_of(self, cards: Sequence[str]) -> Combo | None:
        """The combination a legal play makes (strength and cost set)."""
        raise NotImplementedError

    def remove(self, mask: int, c: Combo) -> int:
        return mask & ~c.mask


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
        hs = opts.get("hand_size") or default_hand_size(self.players)
        order = bomb_order(hs, opts.get("bomb_order", "rarity"))
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

    def _threat_of(self, opps: list[_Opp]) -> float:
        none = 1.0
        for o in opps:
            none *= 1.0 - self._opp_bomb(o)
        return 1.0 - none

    def bomb_threat(self) -> float:
        if self._bomb_threat is None:
            self._bomb_threat = self._threat_of(self.opps)
        return self._bomb_threat

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


# =========================================================================================
# Big Two (both editions)

_FIVE_CAT = {
    "straight": 1,
    "flush": 2,
    "full-house": 3,
    "four-of-a-kind": 4,
    "straight-flush": 5,
}


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

    def _fives(self, o: _Opp) -> dict[str, Any]:
        got: dict[str, Any] | None = o.cache.get("fives")
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
        got = o.cache["fives"] = {
            "windows": wins,
            "any": [0.0, p_straight, p_flush, p_trip * p_pair, p_quad, 0.0],
            "pair": p_pair,
        }
        return got

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
                s *= 1.0 - 0.5 * self._opp_quad(o)
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

    def _opp_quad(self, o: _Opp) -> float:
        got = o.cache.get("quad")
        if got is None:
            none = 1.0
            if o.n >= 5:
                for v in o.q[4]:
                    none *= 1.0 - v
            got = o.cache["quad"] = 1.0 - none
        return got

    def _threat_of(self, opps: list[_Opp]) -> float:
        none = 1.0
        for o in opps:
            none *= 1.0 - self._opp_quad(o)
        return 1.0 - none

    def bomb_threat(self) -> float:
        if self._bomb_threat is None:
            self._bomb_threat = self._threat_of(self.opps)
        return self._bomb_threat

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


PLANNERS: dict[str, type[Planner]] = {
    "twos": TwosPlanner,
    "big-two": BigTwoPlanner,
    "big-two-5r": BigTwoFiveRoundPlanner,
    "chinese-poker": ChinesePokerPlanner,
}


def planner_for(
    obs: ObsIn,
    hand: list[str] | None = None,
    opponents: list[int] | None = None,
    known_out: list[str] | None = None,
) -> Planner:
    """The planner of ``obs.variant`` for the seat of ``obs`` (or for ``hand``, with
    ``opponents`` holding that many cards each and ``known_out`` known to be out of
    play)."""
    view = as_climbing(obs)
    return PLANNERS[view.variant](view, hand, opponents, known_out)
