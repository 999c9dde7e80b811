"""Shared machinery of the poker-hand climbing games (Big Two, Big Two five-round,
Chinese Poker): integer card tables, the cut for the deal, penalty scoring and a fast,
cached list of the combinations in each hand.

Cards are integers internally: ``idx = rank * 4 + suit`` where ``rank`` is the climbing
order ``0`` (three) ... ``11`` (ace), ``12`` (two) and ``suit`` is ``0`` diamonds,
``1`` clubs, ``2`` hearts, ``3`` spades (the Big Two suit order). So for Big Two the
integer order *is* the single-card order, and a hand sorted by rank is sorted by ``idx``.
The protocol still speaks card codes (``"3D"``); the tables below translate.

Hand cache. The combinations in a seat's hand are enumerated (family by family, when
first needed) into *entries* ``[key, cards, mask, kind, slot, power, action, combo]``
grouped by ``slot``
and sorted by the integer ``key`` (``Combination.key == (key,)``). A hand only ever
shrinks during a deal, so after a play the entries are filtered by a bit mask of the
cards that left; what beats the table is found with a bisection on ``key``. ``Action``
and ``Combination`` objects are built only when first needed and then reused.
A variant whose enumeration is a *canonical* suit choice (Chinese Poker: the
lowest-suited cards of each rank) sets ``incremental_cache = False``: after a play,
each listed play that lost a card is listed again with the cards left, when the hand
still holds enough of its ranks. Families (first element of a slot) are generated
only when first needed: following a single never lists the five-card hands.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import Any, ClassVar

from .cards import CLIMB_RANKS, RANK_TEXT, display
from .climbing import ClimbingGame, Combination
from .protocol import PASS, Action, DealResult, OptionSpec

#: suit letters in increasing order (diamonds lowest, spades highest)
SUIT_ORDER = ("D", "C", "H", "S")

#: code -> idx and idx -> code, for all 52 cards
CODE_IDX: dict[str, int] = {}
IDX_CODE: list[str] = [""] * 52
for _r, _nat in enumerate(CLIMB_RANKS):
    for _s, _suit in enumerate(SUIT_ORDER):
        _code = RANK_TEXT[_nat] + _suit
        CODE_IDX[_code] = _r * 4 + _s
        IDX_CODE[_r * 4 + _s] = _code
CODE_BIT: dict[str, int] = {c: 1 << i for c, i in CODE_IDX.items()}
#: sort keys of the cards: by rank (then suit) and by suit (then rank)
RANK_SORT: dict[str, tuple] = {c: (i >> 2, i & 3) for c, i in CODE_IDX.items()}
SUIT_SORT: dict[str, tuple] = {c: (i & 3, i >> 2) for c, i in CODE_IDX.items()}


def shuffled(cards: list[str], rng) -> list[str]:
    """A uniformly random order of ``cards`` drawn from ``rng`` (one float a card,
    quicker than ``rng.shuffle``)."""
    rnd = rng.random
    return [c for _, c in sorted([(rnd(), c) for c in cards])]


def has_four_of_a_rank(mask: int) -> bool:
    """Does a card mask hold all four suits of some rank?"""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & 0x1111111111111)


#: climbing rank index (0 = three ... 12 = two) -> text
RANK_LABEL = tuple(RANK_TEXT[r] for r in CLIMB_RANKS)

_KEY = itemgetter(0)
_ORDER = itemgetter(0, 2)   # entries sort by key, then card mask: a total order
_CARDS = itemgetter(1)

# entry fields
E_KEY, E_CARDS, E_MASK, E_KIND, E_SLOT, E_POWER, E_ACTION, E_COMBO = range(8)


_IDX_BIT = tuple(1 << i for i in range(52))


def new_entry(key: int, idxs, kind: str, slot: tuple, power: int = 0) -> list:
    """An entry of the hand cache for the (ascending) card integers ``idxs``."""
    return [key, tuple(map(IDX_CODE.__getitem__, idxs)), sum(map(_IDX_BIT.__getitem__, idxs)),
            kind, slot, power, None, None]


def hand_mask(codes) -> int:
    """Bit mask of distinct card codes."""
    return sum(map(CODE_BIT.__getitem__, set(codes)))


def penalty_50_40_30(left: int, full: int) -> int:
    """Blume's table: every card still held 50, all but one 40, all but two 30,
    otherwise one point a card."""
    if left == 0:
        return 0
    if left == full:
        return 50
    if left == full - 1:
        return 40
    if left == full - 2:
        return 30
    return left


def passing_spec() -> OptionSpec:
    return OptionSpec(
        "passing", "Passing",
        "Whether a player who passes may play again later in the same trick.",
        (("reentry", "A pass is for this turn only"),
         ("locked", "A pass keeps you out until the next trick")),
        "reentry")


def target_spec(default: int = 100) -> OptionSpec:
    return OptionSpec(
        "target", "Match ends at",
        "The match ends after the deal in which someone's penalty total reaches this "
        "many points; the lowest total then wins.",
        ((50, "50 points"), (100, "100 points"), (150, "150 points"), (200, "200 points")),
        default)


class _SeatCache:
    """The combinations of one seat's hand, generated family by family on demand."""

    __slots__ = ("hand", "n", "mask", "idxs", "by_rank", "groups", "by_cards", "done")

    def __init__(self, hand: list, mask: int, groups: dict, by_cards: dict,
                 done: set) -> None:
        self.hand = hand            # the hand list object itself
        self.n = len(hand)          # ... and its length when this cache was made
        self.mask = mask
        self.idxs: list[int] | None = None
        self.by_rank: list[list[int]] | None = None
        self.groups = groups
        self.by_cards = by_cards
        self.done = done


class PokerClimbingGame(ClimbingGame):
    """A climbing game whose combinations are enumerated per hand into a fast cache.

    Subclasses implement ``_gen_family(fam, idxs, by_rank)`` (entries of every
    combination of one *family* — the first element of a slot — in a hand of ascending card integers),
    list their families in ``FAMILIES``, implement ``classify_cards`` (returning
    ``Combination`` objects whose ``key`` is a one-int tuple and whose cards are sorted
    by ``idx``) and set ``bomb_slot`` if some play beats every non-bomb.

    A seat's cache is fresh while the seat's hand is the same list object with the same
    length (hands only lose cards during a deal; replacing a hand list, as a new deal
    or a loaded game does, starts a new cache).
    """

    FAMILIES: ClassVar[tuple] = ()

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        cls._family_index = {f: i for i, f in enumerate(cls.FAMILIES)}
    incremental_cache: ClassVar[bool] = True
    #: a family whose every play holds four cards of one rank (skipped without one)
    quad_family: ClassVar[Any] = None
    bomb_slot: ClassVar[tuple | None] = None
    _hc: list | None = None        # per-seat _SeatCache (rebuilt lazily, never saved)

    # ----- the hand cache ------------------------------------------------------------
    def _gen_family(self, fam, idxs: list[int], by_rank: list[list[int]]) -> list[list]:
        """Entries of family ``fam`` for ascending card integers ``idxs``, which
        ``by_rank`` lists rank by rank (do not modify either). A *canonical* variant
        (``incremental_cache = False``) lists the lowest-suited cards of each rank."""
        raise NotImplementedError

    def _cache(self, seat: int) -> _SeatCache:
        hc = self._hc
        if hc is None or len(hc) != self.players:
            hc = self._hc = [None] * self.players
        hand = self.hands[seat]
        c = hc[seat]
        if c is not None and c.hand is hand and c.n == len(hand):
            return c
        mask = hand_mask(hand)
        if c is not None and c.hand is hand and not mask & ~c.mask:
            gone = c.mask & ~mask
            if self.incremental_cache:
                groups = {}
                for slot, lst in c.groups.items():
                    kept = [e for e in lst if not e[2] & gone]
                    if kept:
                        groups[slot] = kept
                c = hc[seat] = _SeatCache(hand, mask, groups, c.by_cards, c.done)
                return c
            # canonical suit choice (the lowest-suited cards of each rank; entries then
            # carry a ninth field, ((rank, count), ...), what the play needs): a play that
            # lost a card is listed again with the lowest cards left of its ranks, if
            # the hand still has enough of them. Plays that lost nothing are still the
            # lowest cards of their ranks (a lower card of a rank they use would have
            # been in them), so the result is what a fresh listing gives.
            by_rank: list[list[int]] = [[] for _ in range(13)]
            for i in sorted(map(CODE_IDX.__getitem__, hand)):
                by_rank[i >> 2].append(i)
            groups = {}
            by_cards = c.by_cards
            for slot, lst in c.groups.items():
                kept = []
                changed = False
                for e in lst:
                    if not e[2] & gone:
                        kept.append(e)
                        continue
                    changed = True
                    need = e[8]            # ((rank, count), ...) of the play
                    for r, k in need:
                        if len(by_rank[r]) < k:
                            break
                    else:
                        idxs = sorted([i for r, k in need for i in by_rank[r][:k]])
                        ne = new_entry(e[0], idxs, e[3], e[4], e[5])
                        ne.append(need)
                        kept.append(ne)
                        by_cards[ne[1]] = ne
                if changed:
                    kept.sort(key=_ORDER)
                if kept:
                    groups[slot] = kept
            c = hc[seat] = _SeatCache(hand, mask, groups, c.by_cards, c.done)
            return c
        c = hc[seat] = _SeatCache(hand, mask, {}, {}, set())
        return c

    def _ensure(self, c: _SeatCache, fam) -> None:
        """Generate family ``fam`` of the cached hand if not done yet."""
        if fam in c.done:
            return
        c.done.add(fam)
        if self.quad_family == fam and not has_four_of_a_rank(c.mask):
            return
        if c.idxs is None:
            c.idxs = idxs = sorted(CODE_IDX[x] for x in c.hand)
            c.by_rank = by_rank = [[] for _ in range(13)]
            for i in idxs:
                by_rank[i >> 2].append(i)
        entries = self._gen_family(fam, c.idxs, c.by_rank)
        if not entries:
            return
        groups = c.groups
        c.by_cards.update(zip(map(_CARDS, entries), entries))
        slot = entries[0][E_SLOT]
        if slot not in groups and all(e[E_SLOT] == slot for e in entries):
            entries.sort(key=_ORDER)       # one slot (the usual case): no regrouping
            groups[slot] = entries
            return
        touched = set()
        for e in entries:
            slot = e[E_SLOT]
            lst = groups.get(slot)
            if lst is None:
                lst = groups[slot] = []
            lst.append(e)
            touched.add(slot)
        for slot in touched:
            groups[slot].sort(key=_ORDER)

    @staticmethod
    def _combo_of(e: list) -> Combination:
        combo = e[E_COMBO]
        if combo is None:
            combo = e[E_COMBO] = Combination(e[E_KIND], e[E_CARDS], e[E_SLOT], (e[E_KEY],),
                                             e[E_POWER])
        return combo

    def _entries_beating(self, seat: int, top: Combination | None) -> list[list]:
        c = self._cache(seat)
        groups = c.groups
        if top is None:
            for fam in self.FAMILIES:
                if fam not in c.done:
                    self._ensure(c, fam)
            out: list[list] = []
            req = self.required_card
            order = self._family_index
            # a fixed order (family, then slot, then key), whatever was generated first
            slots = sorted(groups, key=lambda sl: (order[sl[0]], sl))
            if req is not None:
                bit = CODE_BIT.get(req, 0)
                for sl in slots:
                    out.extend([e for e in groups[sl] if e[2] & bit])
            else:
                for sl in slots:
                    out.extend(groups[sl])
            return out
        slot = top.slot
        if slot[0] not in c.done:
            self._ensure(c, slot[0])
        lst = groups.get(slot)
        out = lst[bisect_right(lst, top.key[0], key=_KEY):] if lst else []
        bomb = self.bomb_slot
        if bomb is not None and top.power == 0:
            if bomb[0] not in c.done:
                self._ensure(c, bomb[0])
            bombs = groups.get(bomb)
            if bombs and bomb != slot:
                out.extend(bombs)
        return out

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        return [self._combo_of(e) for e in self._entries_beating(seat, top)]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat != self.current:
            return []
        top = self.top
        hc = self._hc
        c = hc[seat] if hc is not None and len(hc) == self.players else None
        if (top is not None and c is not None and c.hand is self.hands[seat]
                and c.n == len(c.hand) and top.slot[0] in c.done
                and (top.power or self.bomb_slot is None or self.bomb_slot[0] in c.done)):
            # the common case, inlined: follow from a fresh cache
            lst = c.groups.get(top.slot)
            entries = lst[bisect_right(lst, top.key[0], key=_KEY):] if lst else []
            if not top.power and self.bomb_slot is not None and self.bomb_slot != top.slot:
                entries.extend(c.groups.get(self.bomb_slot, ()))
        else:
            entries = self._entries_beating(seat, top)
        acts = []
        for e in entries:
            a = e[6]
            if a is None:
                a = e[6] = Action("play", e[1])
            acts.append(a)
        if top is not None or self.can_pass(seat):
            acts.append(PASS)
        return acts

    def lookup_play(self, seat: int, cards) -> Combination | None:
        if type(cards) is not tuple:
            return None
        c = self._cache(seat)
        e = c.by_cards.get(cards)
        if e is None or e[2] & ~c.mask:
            return None
        return self._combo_of(e)

    # ----- deal helpers ----------------------------------------------------------------
    def cut_for_deal(self, deck: list[str], value) -> int:
        """Each seat cuts one card; the highest ``value(code)`` deals (ties cut again)."""
        contenders = list(range(self.players))
        while True:
            cards = self.rng.sample(deck, len(contenders))
            shown = ", ".join(f"{self.names[s]} {display(c)}" for s, c in zip(contenders, cards))
            vals = [value(c) for c in cards]
            best = max(vals)
            winners = [s for s, v in zip(contenders, vals) if v == best]
            if len(winners) == 1:
                self.log(f"Cut for the deal: {shown}. {self.names[winners[0]]} deals first.",
                         None, kind="cut")
                return winners[0]
            self.log(f"Cut for the deal: {shown}. A tie: those players cut again.",
                     None, kind="cut")
            contenders = winners

    def penalty_result(self, winner: int, changes: list[int], hand_size: int) -> DealResult:
        totals = [t + c for t, c in zip(self.totals, changes)]
        details = []
        for i, h in enumerate(self.hands):
            if i == winner:
                details.append(f"{self.names[i]} went out.")
            else:
                details.append(f"{self.names[i]}: {len(h)} card{'s' if len(h) != 1 else ''} "
                               f"left, +{changes[i]} (now {totals[i]}).")
        summary = (f"{self.names[winner]} wins deal {self.deal_number}; penalties: "
                   + ", ".join(f"{self.names[i]} +{changes[i]}"
                               for i in range(self.players) if i != winner) + ".")
        return DealResult(self.deal_number, [winner], changes, totals, summary, details)

    def rank_text(self, idx: int) -> str:
        return RANK_LABEL[idx >> 2]


__all__ = ["CODE_IDX", "IDX_CODE", "CODE_BIT", "PokerClimbingGame", "new_entry",
           "penalty_50_40_30", "passing_spec", "target_spec", "SUIT_ORDER", "hand_mask"]
