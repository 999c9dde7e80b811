"""The hand planner's common part (:mod:`.hand_plan`): combinations, the opponents as the
planner sees them, and :class:`Planner` — the decomposition of a hand into plays, their
costs and strengths, and the lead and follow choices built on them. Each variant's
planner (:mod:`.plan_twos`, :mod:`.plan_big_two`, :mod:`.plan_chinese_poker`) says which
combinations a hand holds and how they compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb
from typing import Any

from ..engine.bitmask import bits
from ..engine.views import ClimbingView
from ..jsontypes import JsonObject

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
        #: the house rules (checked by the engine; read here with their types narrowed)
        self.options: JsonObject = dict(obs.options or {})
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

    def _opp_bomb(self, o: _Opp) -> float:
        """P(opponent ``o`` holds a bomb) (0 here: Big Two has none)."""
        return 0.0

    def _threat_of(self, opps: list[_Opp]) -> float:
        """P(some opponent in ``opps`` holds a bomb)."""
        none = 1.0
        for o in opps:
            none *= 1.0 - self._opp_bomb(o)
        return 1.0 - none

    def bomb_threat(self) -> float:
        """P(some opponent holds a bomb), worked out once per planner."""
        if self._bomb_threat is None:
            self._bomb_threat = self._threat_of(self.opps)
        return self._bomb_threat

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
