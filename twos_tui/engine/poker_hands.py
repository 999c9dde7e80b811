"""Shared machinery of the poker-hand climbing games (Big Two, Big Two five-round,
Chinese Poker): integer card tables, the cut for the deal, penalty scoring and a fast,
cached list of the combinations in each hand.

Cards are integers internally: ``idx = rank * 4 + suit`` where ``rank`` is the climbing
order ``0`` (three) ... ``11`` (ace), ``12`` (two) and ``suit`` is ``0`` diamonds,
``1`` clubs, ``2`` hearts, ``3`` spades (the Big Two suit order). So for Big Two the
integer order *is* the single-card order, and a hand sorted by rank is sorted by ``idx``.
The protocol still speaks card codes (``"3D"``); the tables below translate.

Hand cache. Every combination in a seat's hand is enumerated once per deal into
*entries* ``[key, cards, mask, kind, slot, power, action, combo]`` grouped by ``slot``
and sorted by the integer ``key`` (``Combination.key == (key,)``). A hand only ever
shrinks during a deal, so after a play the entries are filtered by a bit mask of the
cards that left; what beats the table is found with a bisection on ``key``. ``Action``
and ``Combination`` objects are built only when first needed and then reused.
A variant whose enumeration is a *canonical* suit choice (Chinese Poker) sets
``incremental_cache = False``: its entries are rebuilt whenever the hand changes.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import Any, ClassVar

from .cards import CLIMB_RANKS, RANK_TEXT, display, display_cards
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

#: climbing rank index (0 = three ... 12 = two) -> text
RANK_LABEL = tuple(RANK_TEXT[r] for r in CLIMB_RANKS)

_KEY = itemgetter(0)

# entry fields
E_KEY, E_CARDS, E_MASK, E_KIND, E_SLOT, E_POWER, E_ACTION, E_COMBO = range(8)


def new_entry(key: int, idxs, kind: str, slot: tuple, power: int = 0) -> list:
    """An entry of the hand cache for the (ascending) card integers ``idxs``."""
    mask = 0
    for i in idxs:
        mask |= 1 << i
    return [key, tuple(IDX_CODE[i] for i in idxs), mask, kind, slot, power, None, None]


def hand_mask(codes) -> int:
    m = 0
    for c in codes:
        m |= CODE_BIT[c]
    return m


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
    __slots__ = ("hand", "mask", "groups", "by_cards")

    def __init__(self, hand: tuple, mask: int, groups: dict, by_cards: dict) -> None:
        self.hand = hand
        self.mask = mask
        self.groups = groups
        self.by_cards = by_cards


class PokerClimbingGame(ClimbingGame):
    """A climbing game whose combinations are enumerated per hand into a fast cache.

    Subclasses implement ``_enumerate(idxs)`` (entries of every combination in a hand
    of ascending card integers), ``classify_cards`` (returning ``Combination`` objects
    whose ``key`` is a one-int tuple and whose cards are sorted by ``idx``) and set
    ``bomb_slot`` if some play beats every non-bomb.
    """

    incremental_cache: ClassVar[bool] = True
    bomb_slot: ClassVar[tuple | None] = None
    _hc: list | None = None        # per-seat _SeatCache (rebuilt lazily, never saved)

    # ----- the hand cache ------------------------------------------------------------
    def _enumerate(self, idxs: list[int]) -> list[list]:
        raise NotImplementedError

    def _build_cache(self, hand: tuple) -> _SeatCache:
        entries = self._enumerate(sorted(CODE_IDX[c] for c in hand))
        groups: dict[tuple, list] = {}
        by_cards: dict[tuple, list] = {}
        for e in entries:
            groups.setdefault(e[E_SLOT], []).append(e)
            by_cards[e[E_CARDS]] = e
        for lst in groups.values():
            lst.sort(key=_KEY)
        return _SeatCache(hand, hand_mask(hand), groups, by_cards)

    def _cache(self, seat: int) -> _SeatCache:
        hc = self._hc
        if hc is None or len(hc) != self.players:
            hc = self._hc = [None] * self.players
        hand = tuple(self.hands[seat])
        c = hc[seat]
        if c is not None and c.hand == hand:
            return c
        if c is not None and self.incremental_cache:
            mask = hand_mask(hand)
            if mask & ~c.mask == 0:
                gone = c.mask & ~mask
                groups = {}
                for slot, lst in c.groups.items():
                    kept = [e for e in lst if not e[E_MASK] & gone]
                    if kept:
                        groups[slot] = kept
                c = _SeatCache(hand, mask, groups, c.by_cards)
                hc[seat] = c
                return c
        c = hc[seat] = self._build_cache(hand)
        return c

    @staticmethod
    def _combo_of(e: list) -> Combination:
        combo = e[E_COMBO]
        if combo is None:
            combo = e[E_COMBO] = Combination(e[E_KIND], e[E_CARDS], e[E_SLOT], (e[E_KEY],),
                                             e[E_POWER])
        return combo

    def _entries_beating(self, seat: int, top: Combination | None) -> list[list]:
        groups = self._cache(seat).groups
        out: list[list] = []
        if top is None:
            req = self.required_card
            if req is not None:
                bit = CODE_BIT.get(req, 0)
                for lst in groups.values():
                    out.extend([e for e in lst if e[E_MASK] & bit])
            else:
                for lst in groups.values():
                    out.extend(lst)
            return out
        lst = groups.get(top.slot)
        if lst:
            out.extend(lst[bisect_right(lst, top.key[0], key=_KEY):])
        if self.bomb_slot is not None and top.power == 0:
            bombs = groups.get(self.bomb_slot)
            if bombs and self.bomb_slot != top.slot:
                out.extend(bombs)
        return out

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        return [self._combo_of(e) for e in self._entries_beating(seat, top)]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat != self.current:
            return []
        acts = []
        for e in self._entries_beating(seat, self.top):
            a = e[E_ACTION]
            if a is None:
                a = e[E_ACTION] = Action("play", e[E_CARDS])
            acts.append(a)
        if self.can_pass(seat):
            acts.append(PASS)
        return acts

    def lookup_play(self, seat: int, cards) -> Combination | None:
        if type(cards) is not tuple:
            return None
        c = self._cache(seat)
        e = c.by_cards.get(cards)
        if e is None or e[E_MASK] & ~c.mask:
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


def shown(codes) -> str:
    return display_cards(codes)


__all__ = ["CODE_IDX", "IDX_CODE", "CODE_BIT", "PokerClimbingGame", "new_entry",
           "penalty_50_40_30", "passing_spec", "target_spec", "SUIT_ORDER", "hand_mask",
           "Any"]
