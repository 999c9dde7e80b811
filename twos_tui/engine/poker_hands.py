"""Shared machinery of the poker-hand climbing games (Big Two, Big Two five-round,
Chinese Poker): integer card tables, the cut for the deal, penalty scoring and a fast,
cached list of the combinations in each hand.

Cards are integers internally: ``idx = rank * 4 + suit`` where ``rank`` is the climbing
order ``0`` (three) ... ``11`` (ace), ``12`` (two) and ``suit`` is ``0`` diamonds,
``1`` clubs, ``2`` hearts, ``3`` spades (the Big Two suit order). So for Big Two the
integer order *is* the single-card order, and a hand sorted by rank is sorted by ``idx``.
The protocol still speaks card codes (``"3D"``); the tables below translate.

Entries. A combination is an *entry* ``[key, cards, mask, kind, slot, power, action,
combo, need, text]``: its integer ``key`` (``Combination.key == (key,)``), its card
codes in ``idx`` order, their bit mask, kind, slot and power; the ``Action`` and
``Combination`` objects and the play-log text (built when first needed, then reused);
and, for a canonical variant, ``need``: ``((rank, count), ...)``. An entry depends only
on its cards, the variant and the options, so entries live in a table shared by every
game of that variant and those options (by mask and by card tuple), built as hands
meet them: dealing again meets the same plays and builds nothing.

Hand cache. The entries in a seat's hand are enumerated family by family (the first
element of a slot), when first needed, grouped by ``slot`` and sorted by ``(key,
mask)``. A hand only ever shrinks during a deal, so after a play each slot's list is
filtered, lazily when that slot is next asked for, by a bit mask of the cards that
left; what beats the table is found with a bisection on ``key``. A variant whose
enumeration is a *canonical* suit choice (Chinese Poker: the lowest-suited cards of
each rank) sets ``incremental_cache = False``: a listed play that lost a card is listed
again with the cards left, when the hand still holds enough of its ranks. Following a
single never lists the five-card hands.

Checking. An action whose cards are an entry of the shared table (every action that
``legal_actions`` lists) is checked with a few mask operations and played without
parsing or classifying again; any other selection takes the general path of
:class:`~.climbing.ClimbingGame` with the same reasons.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar

from .bitmask import bits
from .cards import CLIMB_RANKS, RANK_TEXT, display
from .climbing import ClimbingGame, Combination, Slot, _show, describe_kind, shown_order
from .protocol import PASS, Action, DealResult, OptionSpec
from .words import is_you, says

mask_ints = bits  #: the cards of a mask, lowest first (the name the engine uses)

#: an entry (see above): ``[key, cards, mask, kind, slot, power, action, combo, need,
#: text]``. A list of mixed fields, some filled in when first needed, indexed in the
#: hottest loops of the engine: a list is the fastest record Python has for that, and
#: its one honest element type is ``Any`` (each reader names the field it takes).
Entry = list[Any]
#: a shared table of entries, by card mask and by card codes; a variant may also keep
#: whole lists of entries there (an Entry is a list too) under tuple keys of its own
EntryTable = dict[int | tuple[str | int, ...], Entry]
#: a family of combinations: the first element of a slot
Family = str | int
#: a hand cache group: ``(hand mask, entries, union of their masks)``
Group = tuple[int, list[Entry], int]

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
RANK_SORT: dict[str, tuple[int, int]] = {c: (i >> 2, i & 3) for c, i in CODE_IDX.items()}
SUIT_SORT: dict[str, tuple[int, int]] = {c: (i & 3, i >> 2) for c, i in CODE_IDX.items()}


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    """A uniformly random order of ``cards`` drawn from ``rng`` (one float a card,
    quicker than ``rng.shuffle``)."""
    return [cards[j] for j in shuffled_positions(cards, rng)]


def shuffled_positions(cards: Sequence[str], rng: random.Random) -> list[int]:
    """The positions of ``cards`` in the order :func:`shuffled` puts them: one
    ``rng.random()`` a card, in order, sorted by that number (a tie, which practically
    never happens, is broken by the card code)."""
    rnd = rng.random
    n = len(cards)
    keys = [rnd() for _ in range(n)]
    if len(set(keys)) == n:
        return sorted(range(n), key=keys.__getitem__)
    return sorted(range(n), key=lambda j: (keys[j], cards[j]))


def has_four_of_a_rank(mask: int) -> bool:
    """Does a card mask hold all four suits of some rank?"""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & 0x1111111111111)


#: climbing rank index (0 = three ... 12 = two) -> text
RANK_LABEL = tuple(RANK_TEXT[r] for r in CLIMB_RANKS)

_KEY = itemgetter(0)
_ORDER = itemgetter(0, 2)  # entries sort by key, then card mask: a total order

# entry fields
(E_KEY, E_CARDS, E_MASK, E_KIND, E_SLOT, E_POWER, E_ACTION, E_COMBO, E_NEED, E_TEXT) = range(10)

_IDX_BIT = tuple(1 << i for i in range(52))
_BIT_OF = _IDX_BIT.__getitem__
_CODE_OF = IDX_CODE.__getitem__

_NO_ENTRIES: EntryTable = {}
#: RANK_CARDS[r][suit mask]: the card integers of those suits of rank r, ascending
RANK_CARDS = tuple(
    tuple([4 * r + s for s in range(4) if sm >> s & 1] for sm in range(16)) for r in range(13)
)


#: LOW_CARDS[r][suit mask][k]: the mask of the lowest k of those cards (0: fewer than k)
LOW_CARDS = tuple(
    tuple(
        tuple(
            (sum(1 << i for i in RANK_CARDS[r][sm][:k]) if len(RANK_CARDS[r][sm]) >= k else 0)
            for k in range(5)
        )
        for sm in range(16)
    )
    for r in range(13)
)


def by_rank_of(mask: int) -> list[list[int]]:
    """The cards of a mask rank by rank (shared lists: do not modify)."""
    return [RANK_CARDS[r][(mask >> (4 * r)) & 15] for r in range(13)]


#: (class, options) -> {mask: entry, cards: entry}, shared by the games of a variant
_TABLES: dict[tuple[type, tuple[tuple[str, Any], ...]], EntryTable] = {}
_TABLE_LIMIT = 150_000  # keys (about 300 bytes each); a full table starts again


def make_entry(
    tab: EntryTable | None,
    mask: int,
    key: int,
    idxs: Iterable[int],
    kind: str,
    slot: Slot,
    power: int = 0,
    need: tuple[tuple[int, int], ...] | None = None,
) -> Entry:
    """A new entry for the ascending card integers ``idxs`` (bit mask ``mask``),
    remembered in the shared table ``tab`` unless it is ``None``."""
    cards = tuple(map(_CODE_OF, idxs))
    e = [key, cards, mask, kind, slot, power, None, None, need, None]
    if tab is not None:
        if len(tab) > _TABLE_LIMIT:
            tab.clear()
        tab[mask] = e
        tab[cards] = e
    return e


def new_entry(key: int, idxs: Sequence[int], kind: str, slot: Slot, power: int = 0) -> Entry:
    """An entry for the (ascending) card integers ``idxs``, not shared."""
    return make_entry(None, sum(map(_BIT_OF, idxs)), key, idxs, kind, slot, power)


def action_of(e: Entry) -> Action:
    a: Action | None = e[6]
    if a is None:
        a = e[6] = Action("play", e[1])
    return a


def combo_of(e: Entry) -> Combination:
    combo: Combination | None = e[7]
    if combo is None:
        combo = e[7] = Combination(e[3], e[1], e[4], (e[0],), e[5])
    return combo


def play_text(e: Entry) -> str:
    """What the play log says after the player's name."""
    t: str | None = e[9]
    if t is None:
        t = e[9] = f" plays {describe_kind(e[3])} {_show(shown_order(e[3], e[1]))}" + (
            " — BOMB!" if e[5] > 0 else ""
        )
    return t


def _group(mask: int, entries: list[Entry]) -> Group:
    """A hand cache group: the hand's mask, the entries, the union of their masks."""
    union = 0
    for e in entries:
        union |= e[2]
    return (mask, entries, union)


def hand_mask(codes: Iterable[str]) -> int:
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


@cache
def passing_spec() -> OptionSpec:
    return OptionSpec(
        "passing",
        "Passing",
        "Whether a player who passes may play again later in the same trick.",
        (
            ("reentry", "A pass is for this turn only"),
            ("locked", "A pass keeps you out until the next trick"),
        ),
        "reentry",
    )


@cache
def target_spec(default: int = 100) -> OptionSpec:
    return OptionSpec(
        "target",
        "Match ends at",
        "The match ends after the deal in which someone's penalty total reaches this "
        "many points; the lowest total then wins.",
        ((50, "50 points"), (100, "100 points"), (150, "150 points"), (200, "200 points")),
        default,
    )


class _SeatCache:
    """The combinations of one seat's hand, generated family by family on demand.

    ``groups`` maps a slot to ``(mask, entries, union)``: the entries as they were when
    the hand was ``mask`` and the union of their masks; a list made for a larger hand is
    filtered when next asked for (unless none of its cards left)."""

    __slots__ = ("hand", "n", "mask", "dup", "tab", "idxs", "by_rank", "groups", "done", "order")

    def __init__(
        self, hand: list[str], mask: int, tab: EntryTable, idxs: list[int] | None = None
    ) -> None:
        self.hand = hand  # the hand list object itself
        self.n = n = len(hand)  # ... and its length when ``mask`` was taken
        self.mask = mask
        #: a hand holding some card twice (only ever made by hand, in tests): its
        #: entries stay out of the shared table
        self.dup = mask.bit_count() != n
        self.tab = None if self.dup else tab
        self.idxs = idxs  # ascending card integers of the hand (or None)
        self.by_rank: list[list[int]] | None = None
        self.groups: dict[Slot, Group] = {}
        self.done: set[Family] = set()  # families generated
        self.order: list[Slot] | None = None  # the slots in listing order (or None)


class PokerClimbingGame(ClimbingGame):
    """A climbing game whose combinations are enumerated per hand into a fast cache.

    Subclasses implement ``_gen_family(fam, idxs, by_rank, tab)`` (the entries of every
    combination of one *family* — the first element of a slot — in a hand of ascending
    card integers, made with :func:`make_entry` and looked up first in ``tab`` by mask
    when ``tab`` is not ``None``), list their families in ``FAMILIES``, implement
    ``classify_cards`` (returning ``Combination`` objects whose ``key`` is a one-int
    tuple and whose cards are sorted by ``idx``, agreeing with the entries) and set
    ``bomb_slot`` if some play beats every non-bomb.

    A seat's cache is fresh while the seat's hand is the same list object with the same
    length (hands only lose cards during a deal; replacing a hand list, as a new deal
    or a loaded game does, starts a new cache).
    """

    FAMILIES: ClassVar[tuple[Family, ...]] = ()
    #: hands come sorted by ``idx`` from :meth:`deal_cards`
    hands_sorted_by_deal: ClassVar[bool] = True

    #: family -> its place in FAMILIES (set for each subclass)
    _family_index: ClassVar[dict[Family, int]] = {}
    #: whether the subclass has an ``on_play`` hook (set for each subclass)
    _hooks_on_play: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._family_index = {f: i for i, f in enumerate(cls.FAMILIES)}
        cls._hooks_on_play = cls.on_play is not ClimbingGame.on_play

    incremental_cache: ClassVar[bool] = True
    #: the families whose plays fall in several slots (all others: one slot each)
    multi_slot_families: ClassVar[frozenset[Family]] = frozenset()
    #: a family whose every play holds four cards of one rank (skipped without one)
    quad_family: ClassVar[Family | None] = None
    bomb_slot: ClassVar[Slot | None] = None
    _hc: list[_SeatCache | None] | None = None  # per-seat caches (rebuilt lazily, never saved)
    _tab: EntryTable | None = None  # the shared entry table of this variant and options
    _ck: tuple[int, tuple[str, ...], Entry] | None = (
        None  # (seat, cards, entry) of the last fast check
    )

    # ----- the hand cache ------------------------------------------------------------
    def _gen_family(
        self, fam: Family, idxs: list[int], by_rank: list[list[int]], tab: EntryTable | None
    ) -> list[Entry]:
        """Entries of family ``fam`` for ascending card integers ``idxs``, which
        ``by_rank`` lists rank by rank (do not modify either). A *canonical* variant
        (``incremental_cache = False``) lists the lowest-suited cards of each rank."""
        raise NotImplementedError

    def _gen_cached(self, fam: Family, c: _SeatCache) -> list[Entry]:
        """Entries of family ``fam`` in the hand of cache ``c`` (a variant may look up
        whole lists in ``c.tab`` by the cards that matter, ``c.mask``)."""
        idxs, by_rank = c.idxs, c.by_rank
        if by_rank is None or idxs is None:
            idxs, by_rank = self._load_idxs(c)
        return self._gen_family(fam, idxs, by_rank, c.tab)

    def _table(self) -> EntryTable:
        tab = self._tab
        if tab is None:
            tab = self._tab = _TABLES.setdefault(
                (type(self), tuple(sorted(self.options.items()))), {}
            )
        return tab

    def _cache(self, seat: int) -> _SeatCache:
        hc = self._hc
        if hc is None or len(hc) != self.players:
            hc = self._hc = [None] * self.players
        hand = self.hands[seat]
        c = hc[seat]
        if c is not None and c.hand is hand:
            n = len(hand)
            if c.n == n:
                return c
            mask = hand_mask(hand)
            if not mask & ~c.mask:  # the same hand, fewer cards
                c.mask = mask
                c.n = n
                c.dup = mask.bit_count() != n
                c.idxs = c.by_rank = None
                return c
        c = hc[seat] = _SeatCache(hand, hand_mask(hand), self._tab or self._table())
        return c

    def _fresh_caches(self, int_hands: list[list[int]]) -> None:
        """Seat caches for hands just dealt as ascending card integers."""
        tab = self._tab or self._table()
        self._hc = [
            _SeatCache(h, sum(map(_BIT_OF, idxs)), tab, idxs)
            for h, idxs in zip(self.hands, int_hands, strict=False)
        ]

    @staticmethod
    def _load_idxs(c: _SeatCache) -> tuple[list[int], list[list[int]]]:
        idxs = c.idxs
        if idxs is None:
            idxs = c.idxs = sorted(map(CODE_IDX.__getitem__, c.hand))
        by_rank: list[list[int]] = [[] for _ in range(13)]
        c.by_rank = by_rank
        for i in idxs:
            by_rank[i >> 2].append(i)
        return idxs, by_rank

    def _ensure(self, c: _SeatCache, fam: Family) -> None:
        """Generate family ``fam`` of the cached hand if not done yet."""
        if fam in c.done:
            return
        c.done.add(fam)
        if self.quad_family == fam and not has_four_of_a_rank(c.mask):
            return
        entries = self._gen_cached(fam, c)
        if not entries:
            return
        groups = c.groups
        mask = c.mask
        c.order = None
        if fam not in self.multi_slot_families:
            entries.sort(key=_ORDER)  # one slot: no regrouping
            groups[entries[0][4]] = _group(mask, entries)
            return
        lists: dict[Slot, list[Entry]] = {}
        for e in entries:
            lst = lists.get(e[4])
            if lst is None:
                lst = lists[e[4]] = []
            lst.append(e)
        for slot, lst in lists.items():
            lst.sort(key=_ORDER)
            groups[slot] = _group(mask, lst)

    def _refresh(self, c: _SeatCache, lst: list[Entry], at: int) -> list[Entry]:
        """``lst`` (made when the hand was ``at``) for the hand now."""
        gone = at & ~c.mask
        if self.incremental_cache:
            return [e for e in lst if not e[2] & gone]
        # canonical suit choice (the lowest-suited cards of each rank; entries carry
        # ``need``, ((rank, count), ...), what the play needs): a play that lost a card
        # is listed again with the lowest cards left of its ranks, if the hand still
        # has enough of them. Plays that lost nothing are still the lowest cards of
        # their ranks (a lower card of a rank they use would have been in them), so the
        # result is what a fresh listing gives.
        tab = c.tab
        mask = c.mask
        kept = []
        changed = False
        if tab is not None:  # ranks from the mask
            get = tab.get
            low = LOW_CARDS
            for e in lst:
                if not e[2] & gone:
                    kept.append(e)
                    continue
                changed = True
                m = 0
                for r, k in e[8]:
                    lm = low[r][(mask >> (r << 2)) & 15][k]
                    if not lm:
                        break
                    m += lm
                else:
                    ne = get(m)
                    if ne is None:
                        ne = make_entry(tab, m, e[0], mask_ints(m), e[3], e[4], e[5], e[8])
                    kept.append(ne)
        else:  # a hand holding a card twice: ranks from the hand list
            by_rank = c.by_rank
            if by_rank is None:
                by_rank = self._load_idxs(c)[1]
            for e in lst:
                if not e[2] & gone:
                    kept.append(e)
                    continue
                changed = True
                need = e[8]
                idxs: list[int] = []
                for r, k in need:
                    cs = by_rank[r]
                    if len(cs) < k:
                        break
                    idxs += cs[:k]
                else:
                    idxs.sort()
                    kept.append(
                        make_entry(
                            None, sum(map(_BIT_OF, idxs)), e[0], idxs, e[3], e[4], e[5], need
                        )
                    )
        if changed:
            kept.sort(key=_ORDER)
        return kept

    def _slot_list(self, c: _SeatCache, slot: Slot) -> list[Entry]:
        """The entries of ``slot`` in the hand now (generating and filtering)."""
        if slot[0] not in c.done:
            self._ensure(c, slot[0])
        g = c.groups.get(slot)
        if g is None:
            c.groups[slot] = (c.mask, [], 0)
            c.order = None
            return []
        at, lst, union = g
        mask = c.mask
        if at != mask:
            if union & at & ~mask:
                lst = self._refresh(c, lst, at)
                c.groups[slot] = _group(mask, lst)
            else:
                c.groups[slot] = (mask, lst, union)
        return lst

    def _lead_entries(self, c: _SeatCache) -> list[Entry]:
        """Every entry of the hand, in the listing order: family, then slot, then key
        (whatever was generated first); only those with the required card, if any."""
        done = c.done
        for fam in self.FAMILIES:
            if fam not in done:
                self._ensure(c, fam)
        order = c.order
        if order is None:
            index = self._family_index
            order = c.order = sorted(c.groups, key=lambda sl: (index[sl[0]], sl))
        groups = c.groups
        mask = c.mask
        out: list[Entry] = []
        for sl in order:
            at, lst, union = groups[sl]
            if at != mask:
                if union & at & ~mask:
                    lst = self._refresh(c, lst, at)
                    groups[sl] = _group(mask, lst)
                else:
                    groups[sl] = (mask, lst, union)
            out += lst
        req = self.required_card
        if req is not None:
            bit = CODE_BIT.get(req, 0)
            out = [e for e in out if e[2] & bit]
        return out

    def _entries_beating(self, seat: int, top: Combination | None) -> list[Entry]:
        c = self._cache(seat)
        if top is None:
            return self._lead_entries(c)
        lst = self._slot_list(c, top.slot)
        out = lst[bisect_right(lst, top.key[0], key=_KEY) :] if lst else []
        bomb = self.bomb_slot
        if bomb is not None and top.power == 0:
            bombs = self._slot_list(c, bomb)
            if bombs and bomb != top.slot:
                out.extend(bombs)
        return out

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        return [e[7] or combo_of(e) for e in self._entries_beating(seat, top)]

    # ----- a variant's own phases (Chinese Poker's hand choice) -------------------------
    #: True while the variant runs a phase of its own: the methods below then hand over
    #: to the ``_other_*`` hooks (a flag, so the play phase pays no extra call)
    _choosing: bool = False

    def start_deal(self) -> None:
        self._choosing = False  # an instance attribute reads faster than the class's
        super().start_deal()

    def _to_act_other(self) -> tuple[int, ...]:
        return (self.current,)

    def _legal_other(self, seat: int) -> list[Action]:
        """``legal_actions`` when it is not ``seat``'s turn to play (or in a phase of
        the variant's own)."""
        return []

    def _check_other(self, seat: int, action: Action) -> str | None:
        """``check`` for what the fast path does not settle."""
        return ClimbingGame.check(self, seat, action)

    def _apply_other(self, seat: int, action: Action) -> None:
        """``_apply`` for what the fast path does not settle."""
        ClimbingGame._apply(self, seat, action)

    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        if self._choosing:
            return self._to_act_other()
        return (self.current,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current or self.deal_over or self.match_over or self._choosing:
            return self._legal_other(seat)
        hc = self._hc
        c = hc[seat] if hc is not None else None
        if c is None or c.hand is not self.hands[seat] or c.n != len(c.hand):
            c = self._cache(seat)
        top = self.top
        if top is None:
            acts = [e[6] or action_of(e) for e in self._lead_entries(c)]
            if self.can_pass(seat):
                acts.append(PASS)
            return acts
        slot = top.slot
        groups = c.groups
        g = groups.get(slot)
        # (a group with no entries stays empty while the hand shrinks)
        lst = self._slot_list(c, slot) if g is None or g[0] != c.mask and g[2] else g[1]
        k = top.key[0]
        if lst and lst[-1][0] > k:
            acts = [e[6] or action_of(e) for e in lst[bisect_right(lst, k, key=_KEY) :]]
        else:
            acts = []
        bomb = self.bomb_slot
        if bomb is not None and not top.power and bomb != slot:
            g = groups.get(bomb)
            lst = self._slot_list(c, bomb) if g is None or g[0] != c.mask and g[2] else g[1]
            if lst:
                acts += [e[6] or action_of(e) for e in lst]
        acts.append(PASS)
        return acts

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        if type(cards) is not tuple:
            return None
        e = (self._tab or self._table()).get(cards)
        if e is None or e[2] & ~self._cache(seat).mask:
            return None
        return e[7] or combo_of(e)

    # ----- checking and playing --------------------------------------------------------
    def check(self, seat: int, action: Action) -> str | None:
        bad = self.malformed(seat, action)
        if bad is not None:
            self._ck = None
            return bad
        # fast path: a pass on a play, or a play whose cards are a known entry
        if (
            seat == self.current
            and not self.deal_over
            and not self.match_over
            and not self._choosing
        ):
            kind = action.kind
            if kind == "play":
                cards = action.cards
                tab = self._tab
                e = tab.get(cards) if tab is not None and type(cards) is tuple else None
                if e is not None:
                    hc = self._hc
                    c = hc[seat] if hc is not None else None
                    if c is None or c.hand is not self.hands[seat] or c.n != len(c.hand):
                        c = self._cache(seat)
                    m = e[2]
                    req = self.required_card
                    if not m & ~c.mask and not c.dup and (req is None or CODE_BIT.get(req, 0) & m):
                        top = self.top
                        if top is None or (
                            e[5] > top.power
                            if e[5] != top.power
                            else (e[4] == top.slot and e[0] > top.key[0])
                        ):
                            self._ck = (seat, cards, e)
                            return None
            elif kind == "pass" and self.top is not None:
                return None
        self._ck = None
        return self._check_other(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        memo = self._ck
        if memo is not None:
            self._ck = None
            if memo[0] == seat and memo[1] is action.cards and action.kind == "play":
                self._play_entry(seat, memo[2])
                return
        if action.kind == "pass":  # ClimbingGame._apply's pass, inlined
            self.passed[seat] = True
            self.trick.append({"seat": seat, "pass": True})
            self.history.append(
                {
                    "seat": seat,
                    "text": says(self.names[seat], "passes") + ".",
                    "deal": self.deal_number,
                    "kind": "pass",
                }
            )
            self._advance(seat)
            return
        self._apply_other(seat, action)

    def _play_entry(self, seat: int, e: Entry) -> None:
        """Play a checked entry (what ``ClimbingGame._apply`` does, from the entry)."""
        codes = e[1]
        hand = self.hands[seat]
        n0 = len(hand)
        for x in codes:
            hand.remove(x)
        hc = self._hc
        if hc is not None:
            c = hc[seat]
            if c is not None and c.hand is hand and c.n == n0 and not c.dup:
                c.mask &= ~e[2]
                c.n = len(hand)
                c.idxs = c.by_rank = None
        self.discards.extend(codes)
        combo = e[7] or combo_of(e)
        if self._hooks_on_play:
            self.on_play(seat, combo)
        self.top = combo
        self.top_seat = seat
        self.required_card = None
        self.opening = False
        locked = self.options.get("passing") == "locked"
        if not locked:
            self.passed = [False] * self.players
        kind = e[3]
        shown = list(shown_order(kind, codes))
        self.trick.append({"seat": seat, "cards": shown, "kind": kind})
        self.history.append(
            {
                "seat": seat,
                "text": (
                    says(self.names[seat], (e[9] or play_text(e))[1:])
                    if is_you(self.names[seat])
                    else self.names[seat] + (e[9] or play_text(e))
                ),
                "deal": self.deal_number,
                "kind": "play",
                "cards": list(shown),
                "combo": kind,
                "bomb": e[5] > 0,
            }
        )
        if not hand:
            self._end_deal(seat)
        elif locked:
            self._advance(seat)
        else:  # _advance: with nobody locked out the next seat is to beat this
            self.current = (seat + 1) % self.players

    # ----- deal helpers ----------------------------------------------------------------
    def cut_for_deal(self, deck: Sequence[str], value: Callable[[str], int]) -> int:
        """Each seat cuts one card; the highest ``value(code)`` deals (ties cut again)."""
        contenders = list(range(self.players))
        while True:
            cards = self.rng.sample(deck, len(contenders))
            shown = ", ".join(
                f"{self.names[s]} {display(c)}" for s, c in zip(contenders, cards, strict=False)
            )
            vals = [value(c) for c in cards]
            best = max(vals)
            winners = [s for s, v in zip(contenders, vals, strict=False) if v == best]
            if len(winners) == 1:
                self.log(
                    f"Cut for the deal: {shown}. {says(self.names[winners[0]], 'deals first')}.",
                    None,
                    kind="cut",
                )
                return winners[0]
            self.log(
                f"Cut for the deal: {shown}. A tie: those players cut again.", None, kind="cut"
            )
            contenders = winners

    def penalty_result(self, winner: int, changes: list[int], hand_size: int) -> DealResult:
        totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
        details = []
        for i, h in enumerate(self.hands):
            if i == winner:
                details.append(f"{self.names[i]} went out.")
            else:
                details.append(
                    f"{self.names[i]}: {len(h)} card{'s' if len(h) != 1 else ''} "
                    f"left, +{changes[i]} (now {totals[i]})."
                )
        summary = (
            f"{says(self.names[winner], 'wins')} deal {self.deal_number}; penalties: "
            + ", ".join(
                f"{self.names[i]} +{changes[i]}" for i in range(self.players) if i != winner
            )
            + "."
        )
        return DealResult(self.deal_number, [winner], changes, totals, summary, details)

    def rank_text(self, idx: int) -> str:
        return RANK_LABEL[idx >> 2]


__all__ = [
    "CODE_IDX",
    "IDX_CODE",
    "CODE_BIT",
    "PokerClimbingGame",
    "new_entry",
    "make_entry",
    "penalty_50_40_30",
    "passing_spec",
    "target_spec",
    "SUIT_ORDER",
    "hand_mask",
    "shuffled",
    "shuffled_positions",
]
