"""The lean state of one climbing deal and its trick flow (see the package docstring).

A *move* is a plain tuple ``(mask, slot, key, power, strict)``:

* ``mask``: the cards as a bit mask in the variant's card encoding (``Rules.codes``);
* ``slot``: a small int naming the pattern (same count, same run length, ...);
* ``key``: an int, higher beats lower within a slot;
* ``power``: 0 for an ordinary play, the bomb strength for a bomb;
* ``strict``: ``None``, or a mark the beating play must share (Twos' same-suit runs).

``None`` is a pass. A move beats another exactly when the engine's
:meth:`~twos_tui.engine.climbing.combination.Combination.beats` says so for the same cards.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, TypeAlias

#: the house rules as the core reads them, by option id (the game checked each value;
#: the core only compares them with the values it knows)
HouseRules: TypeAlias = Mapping[str, object]

MASK, SLOT, KEY, POWER, STRICT = range(5)

#: (mask, slot, key, power, strict)
Move: TypeAlias = tuple[int, int, int, int, str | None]
#: one slot of a hand: (keys, moves), both sorted by key then cards
SlotMoves: TypeAlias = tuple[list[int], list[Move]]
#: a seat's lead list remembered in ``SimState.memo``: (the hand, its moves)
LeadMemo: TypeAlias = tuple[int, list[Move]]

_ORDER = itemgetter(KEY, MASK)  # slot lists: by key, then cards (a total order)
_POWER_KEY = itemgetter(POWER, KEY, MASK)
#: entries of a rules object's per-hand cache before it starts again
HAND_CACHE_LIMIT = 40_000


def beats(m: Move, top: Move) -> bool:
    """Does ``m`` beat ``top`` (the engine's ``Combination.beats``)?"""
    if m[3] != top[3]:
        return m[3] > top[3]
    if m[1] != top[1]:
        return False
    if top[4] is not None and m[4] != top[4]:
        return False
    return m[2] > top[2]


def next_to_act(n: int, seat: int, leader: int, passed: int, locked: bool) -> int:
    """The trick flow: who acts after ``seat`` (who just played or passed) while
    ``leader``'s play is the one to beat. The next seat round the table of ``n``; under
    the locked rule (``locked``) the seats in ``passed`` (a bit mask) are skipped.
    ``leader`` itself when everyone else has passed: the trick is over and ``leader``
    leads the next."""
    nxt = seat + 1 if seat + 1 < n else 0
    if locked:
        while nxt != leader and passed >> nxt & 1:
            nxt = nxt + 1 if nxt + 1 < n else 0
    return nxt


def after_opening_pass(n: int, seat: int, open_passes: int, dealer: int) -> int:
    """Who acts after ``seat`` passed on the empty opening table (Chinese Poker), with
    ``open_passes`` such passes made so far: the next seat, or the dealer, who must lead,
    once all ``n`` have passed."""
    return dealer if open_passes >= n else (seat + 1) % n


def popcount(x: int) -> int:
    return x.bit_count()


class HandMoves:
    """The moves of one hand (a card mask), listed lazily and shared by every state that
    meets the same hand: ``leads`` (every move, in listing order), ``slot(s)`` (the
    moves of one pattern, sorted by key) and ``bombs`` (sorted by power, then key)."""

    __slots__ = ("mask", "_leads", "_slots", "_bombs", "_bomb_keys")

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self._leads: list[Move] | None = None
        self._slots: dict[int, SlotMoves] = {}
        self._bombs: list[Move] | None = None
        self._bomb_keys: list[tuple[int, int]] | None = None


class Rules:
    """What the sim needs of one variant under one set of options and player count.

    Subclasses fill the card tables and implement :meth:`_gen_leads`,
    :meth:`_gen_slot` (the non-bomb moves of one slot, any order), :meth:`_gen_bombs`
    and :meth:`move_of` (the move a card mask makes, or ``None``).
    """

    variant_id: str = ""
    #: the card code of each card int (the variant's own order: higher int, higher card)
    codes: tuple[str, ...] = ()
    #: card code -> card int
    index: dict[str, int] = {}
    #: the variant has bombs (plays that beat any ordinary play)
    has_bombs: bool = False
    #: the winner of a deal deals the next and plays first in it (Chinese Poker): so a
    #: deal won is worth more than the penalties it spares
    winner_leads_next: bool = False

    def __init__(self, players: int, options: HouseRules) -> None:
        self.players = players
        self.options = dict(options)
        self.locked = options.get("passing") == "locked"
        #: may the first player(s) of a deal pass before anyone has played?
        self.open_pass = False
        self.hand_size = 13
        self.deck_mask = 0
        self._hands: dict[int, HandMoves] = {}

    # ----- scoring ---------------------------------------------------------------------
    def penalty(self, left: int) -> int | None:
        """The penalty points of a player who ends a deal holding ``left`` cards, where
        the deal is scored in penalty points (lowest total wins the match); None where
        it is scored in deals won. The games score with it and the searches play for it."""
        return None

    # ----- card conversions ----------------------------------------------------------
    def mask_of(self, codes: Iterable[str]) -> int:
        idx = self.index
        m = 0
        for c in codes:
            m |= 1 << idx[c]
        return m

    def codes_of(self, mask: int) -> tuple[str, ...]:
        codes = self.codes
        out: list[str] = []
        while mask:
            low = mask & -mask
            out.append(codes[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    def move_of(self, mask: int) -> Move | None:
        raise NotImplementedError

    def move_of_codes(self, codes: Iterable[str]) -> Move | None:
        return self.move_of(self.mask_of(codes))

    # ----- listing -------------------------------------------------------------------
    def hand(self, mask: int) -> HandMoves:
        hm = self._hands.get(mask)
        if hm is None:
            if len(self._hands) > HAND_CACHE_LIMIT:
                self._hands.clear()
            hm = self._hands[mask] = HandMoves(mask)
        return hm

    def leads(self, mask: int) -> list[Move]:
        """Every move of the hand ``mask`` (the lead list; do not modify)."""
        hm = self._hands.get(mask)
        if hm is None:
            hm = self.hand(mask)
        lst = hm._leads
        if lst is None:
            lst = hm._leads = self._gen_leads_into(hm)
        return lst

    def _gen_leads_into(self, hm: HandMoves) -> list[Move]:
        """The lead list of a hand listed from scratch (a variant may fill the slot
        lists of ``hm`` at the same time)."""
        return self._gen_leads(hm.mask)

    def slot_moves(self, hm: HandMoves, slot: int) -> SlotMoves:
        """(keys, moves) of one slot of a hand, sorted by key then cards."""
        got = hm._slots.get(slot)
        if got is None:
            moves = self._gen_slot(hm.mask, slot)
            moves.sort(key=_ORDER)
            got = hm._slots[slot] = ([m[2] for m in moves], moves)
        return got

    def bombs(self, hm: HandMoves) -> list[Move]:
        b = hm._bombs
        if b is None:
            b = self._gen_bombs(hm.mask)
            b.sort(key=_POWER_KEY)
            hm._bombs = b
            hm._bomb_keys = [(m[3], m[2]) for m in b]
        return b

    def follows(self, mask: int, top: Move) -> list[Move]:
        """The moves of hand ``mask`` that beat ``top`` (a new list)."""
        hm = self._hands.get(mask)
        if hm is None:
            hm = self.hand(mask)
        if top[3]:
            b = self.bombs(hm)
            if not b:
                return []
            # bombs() has set the keys with the list
            return b[bisect_right(hm._bomb_keys, (top[3], top[2])) :]  # type: ignore[arg-type]
        keys, moves = self.slot_moves(hm, top[1])
        out = moves[bisect_right(keys, top[2]) :] if keys and keys[-1] > top[2] else []
        strict = top[4]
        if strict is not None and out:
            out = [m for m in out if m[4] == strict]
        if self.has_bombs:
            b = self.bombs(hm)
            if b:
                out = out + b
        return out

    def legal(self, s: SimState) -> Sequence[Move | None]:
        """:meth:`SimState.legal` (a variant may list faster with ``s.memo``)."""
        if s.winner >= 0:
            return []
        h = s.hands[s.cur]
        top = s.top
        if top is not None:
            out = self.follows(h, top)
            out.append(None)  # type: ignore[arg-type]  # a new list: the pass joins it
            return out
        leads = self.leads(h)
        req = s.req
        if req:
            leads = [m for m in leads if m[0] & req]
        if self.open_pass and s.opening and s.open_passes < self.players:
            return leads + [None]
        return leads

    def _gen_leads(self, mask: int) -> list[Move]:
        raise NotImplementedError

    def _gen_slot(self, mask: int, slot: int) -> list[Move]:
        raise NotImplementedError

    def _gen_bombs(self, mask: int) -> list[Move]:
        return []

    # ----- dealing -------------------------------------------------------------------
    def start(self, hands: list[int], dealer: int) -> SimState:
        """The state at the start of a deal of ``hands`` (card masks) dealt by
        ``dealer``: the variant's rule for who plays first and the card (if any) the
        first play must hold."""
        raise NotImplementedError

    def deal(self, rng: random.Random) -> SimState:
        """A fresh random deal (the variant's dealing rules, drawn from ``rng``)."""
        raise NotImplementedError


def lowest_holder(hands: Sequence[int]) -> tuple[int, int]:
    """(the seat holding the lowest dealt card, that card's bit)."""
    low = min(h & -h for h in hands if h)
    return next(s for s, h in enumerate(hands) if h & low), low


class SimState:
    """One climbing deal in play, as integers: cheap to copy, quick to play out.

    ``hands[s]``: seat ``s``'s cards (a mask); ``cur``: the seat to act; ``top`` /
    ``top_seat``: the move to beat and who made it (``None`` on a free lead);
    ``passed``: seats (bit mask) that passed this trick (it matters when a pass locks a
    player out); ``req``: a card (mask) the next play must hold, or 0; ``opening``:
    nobody has played yet; ``open_passes``: passes made on the empty opening table
    (Chinese Poker); ``dealer``; ``winner``: the seat that went out, or -1.
    """

    __slots__ = (
        "rules",
        "hands",
        "cur",
        "top",
        "top_seat",
        "passed",
        "req",
        "opening",
        "open_passes",
        "dealer",
        "winner",
        "memo",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        cur: int,
        top: Move | None = None,
        top_seat: int = -1,
        passed: int = 0,
        req: int = 0,
        opening: bool = True,
        open_passes: int = 0,
        dealer: int = 0,
        winner: int = -1,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.cur = cur
        self.top = top
        self.top_seat = top_seat
        self.passed = passed
        self.req = req
        self.opening = opening
        self.open_passes = open_passes
        self.dealer = dealer
        self.winner = winner
        #: per seat, what the rules remember of the seat's listing (or None)
        self.memo: list[Any] = [None] * len(hands)

    def copy(self) -> SimState:
        s = SimState.__new__(SimState)
        s.rules = self.rules
        s.hands = self.hands[:]
        s.cur = self.cur
        s.top = self.top
        s.top_seat = self.top_seat
        s.passed = self.passed
        s.req = self.req
        s.opening = self.opening
        s.open_passes = self.open_passes
        s.dealer = self.dealer
        s.winner = self.winner
        s.memo = self.memo[:]
        return s

    @property
    def over(self) -> bool:
        return self.winner >= 0

    def can_pass(self) -> bool:
        if self.top is not None:
            return True
        r = self.rules
        return r.open_pass and self.opening and self.open_passes < r.players

    def legal(self) -> Sequence[Move | None]:
        """The legal moves of the seat to act (``None`` = pass); empty when over.
        The list may be shared with a cache: do not modify it."""
        return self.rules.legal(self)

    def play(self, m: Move | None) -> None:
        """Carry out a legal move of the seat to act (not checked)."""
        seat = self.cur
        r = self.rules
        n = r.players
        if m is None:
            self.passed |= 1 << seat
            ts = self.top_seat
            if ts < 0:  # a pass on the empty opening table
                self.passed = 0
                self.open_passes += 1
                self.cur = after_opening_pass(n, seat, self.open_passes, self.dealer)
                return
            if r.locked:
                nxt = next_to_act(n, seat, ts, self.passed, True)
            else:  # next_to_act's unlocked case, inlined (the hottest line of a playout)
                nxt = seat + 1 if seat + 1 < n else 0
            if nxt == ts:  # everyone else passed: a new trick
                self.top = None
                self.top_seat = -1
                self.passed = 0
            self.cur = nxt
            return
        h = self.hands[seat] & ~m[0]
        self.hands[seat] = h
        self.top = m
        self.top_seat = seat
        self.req = 0
        self.opening = False
        if not h:
            self.winner = seat
            if not r.locked:
                self.passed = 0
            return
        if r.locked:
            nxt = next_to_act(n, seat, seat, self.passed, True)
            if nxt == seat:  # everyone else is locked out: a new trick
                self.top = None
                self.top_seat = -1
                self.passed = 0
        else:  # next_to_act's unlocked case, inlined
            self.passed = 0
            nxt = seat + 1 if seat + 1 < n else 0
        self.cur = nxt

    def counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]
