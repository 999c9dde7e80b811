"""Big Two (docs/rules.md §2, after Blume's page).

Actions: ``Action("play", cards)`` with the concrete card codes played (suits matter
in Big Two, so every suit choice is a different play and ``legal_actions`` lists each
one, cards in rank order), or ``Action("pass")`` when there is a play to beat.

Rules as implemented:

* 52 cards, 13 to each of 2, 3 or 4 players; undealt cards are out of play (hidden).
* Single-card order 3 < 4 < ... < K < A < 2, then suit spades > hearts > clubs > diamonds
  (so 3♦ is the lowest card and 2♠ the highest).
* First dealer by a cut (highest card, aces high, suit breaking ties); the deal then
  passes to the left. The holder of 3♦ (or of the lowest dealt card when 3♦ is out of
  play) starts every deal and that first play must include the card.
* Plays: single, pair, triple (beaten only by the same count) and five-card hands,
  weakest kind first: straight, flush, full house, four of a kind with any fifth card,
  straight flush. A five-card hand beats any weaker kind.
* Straights run 2-3-4-5-6 up to 10-J-Q-K-A (the 2 sits below the 3, no wrapping, so
  J-Q-K-A-2 is no straight) and compare by their top card, rank then suit. House rule:
  2-3-4-5-6 is the highest straight (its 2 is then its top card).
* Flushes compare by the highest card, rank then suit; house rule: suit first.
  Full houses by the triple, four of a kind by the quad's rank.
* Penalties when someone goes out: 13 cards left 50, 12 cards 40, 11 cards 30, otherwise
  one point a card. The match ends after the deal in which someone reaches the target
  (default 100); the lowest total wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations, product
from typing import Any, ClassVar

from .cards import display, display_cards
from .climbing import Combination, Slot, describe_kind, show_combo
from .poker_hands import (
    _IDX_BIT,
    CODE_IDX,
    IDX_CODE,
    RANK_CARDS,
    RANK_SORT,
    SUIT_SORT,
    Entry,
    EntryTable,
    Family,
    PokerClimbingGame,
    _SeatCache,
    by_rank_of,
    has_four_of_a_rank,
    make_entry,
    mask_ints,
    passing_spec,
    penalty_50_40_30,
    shuffled_positions,
    target_spec,
)
from .protocol import DealResult, OptionSpec
from .words import says

# five-card categories, weakest first
STRAIGHT, FLUSH, FULL_HOUSE, FOUR_KIND, STRAIGHT_FLUSH = 1, 2, 3, 4, 5
FIVE_KIND = {
    STRAIGHT: "straight",
    FLUSH: "flush",
    FULL_HOUSE: "full-house",
    FOUR_KIND: "four-of-a-kind",
    STRAIGHT_FLUSH: "straight-flush",
}
FIVE_ORDER = "straight < flush < full house < four of a kind < straight flush"

S1: Slot = (1,)
S2: Slot = (2,)
S3: Slot = (3,)
S5: Slot = (5,)
_SLOT_NAME: dict[Slot, str] = {S1: "single card", S2: "pair", S3: "triple", S5: "five-card hand"}


def _windows(rank_lists: list[list[int]]) -> tuple[dict[int, int], list[list[int]]]:
    """Straight windows (lists of climbing rank indices, lowest first) ->
    ({13-bit rank mask: window number}, windows)."""
    masks: dict[int, int] = {}
    for w, ranks in enumerate(rank_lists):
        m = 0
        for r in ranks:
            m |= 1 << r
        masks[m] = w
    return masks, rank_lists


# Blume: straight order 2, 3, ..., A (climbing index of the two is 12)
_BLUME_WINDOWS = [[(s + k - 1) % 13 for k in range(5)] for s in range(9)]


_BITS = _IDX_BIT
_NO_ENTRIES: EntryTable = {}
#: what collects entries (a list's ``append``)
Collect = Callable[[Entry], object]
_NIB = 0x1111111111111  # the lowest bit of each rank's four
_POP = tuple(bin(m).count("1") for m in range(16))
_RANK_CARDS = RANK_CARDS
_SINGLES = ("singles",)  # table key of the 52 single-card entries


@cache
def _option_specs() -> tuple[OptionSpec, ...]:
    return (
        passing_spec(),
        target_spec(100),
        OptionSpec(
            "straight_23456",
            "2-3-4-5-6",
            "Where the straight 2-3-4-5-6 stands among straights.",
            (("low", "Lowest straight"), ("high", "Highest straight (the 2 is its top card)")),
            "low",
        ),
        OptionSpec(
            "flush_order",
            "Flushes compare by",
            "How two flushes are compared.",
            (
                ("rank", "Highest card, then its suit"),
                ("suit", "Suit first, then the highest card"),
            ),
            "rank",
        ),
    )


def rank_mask(idxs: Iterable[int]) -> int:
    m = 0
    for i in idxs:
        m |= 1 << (i >> 2)
    return m


class BigTwoGame(PokerClimbingGame):
    variant_id: ClassVar[str] = "big-two"
    name: ClassVar[str] = "Big Two"
    summary: ClassVar[str] = (
        "Shed your 13 cards with singles, pairs, triples and poker "
        "hands; 2 is high and suits break ties."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_players: ClassVar[int] = 4
    low_score_wins: bool = True
    score_label: str = "Penalty"
    hand_size: ClassVar[int] = 13

    #: straight windows of this variant (climbing rank indices, lowest card first)
    WINDOW_MASKS, WINDOWS = _windows(_BLUME_WINDOWS)
    WINDOW_BITS = tuple(WINDOW_MASKS)

    # ----- options -------------------------------------------------------------------
    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return _option_specs()

    def target_text(self) -> str:
        return (
            f"Penalty points for cards left; the match ends when someone reaches "
            f"{self.options['target']}. Lowest total wins."
        )

    # ----- card order ------------------------------------------------------------------
    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        return SUIT_SORT[code] if by == "suit" else RANK_SORT[code]

    # ----- classification ----------------------------------------------------------------
    @classmethod
    def _flush_suit_first(cls, options: dict[str, Any]) -> bool:
        return options.get("flush_order") == "suit"

    @classmethod
    def _straight_key(cls, window: int, idxs: Sequence[int], options: dict[str, Any]) -> int:
        """Key of a straight in ``window`` (0..51 for the top card, 52+ above all)."""
        ranks = cls.WINDOWS[window]
        if window == 0 and ranks[0] == 12 and options.get("straight_23456") == "high":
            two = next(i for i in idxs if i >> 2 == 12)
            return 52 + (two & 3)
        top = ranks[-1]
        return next(i for i in idxs if i >> 2 == top)

    @classmethod
    def _flush_key(cls, idxs: Sequence[int], options: dict[str, Any]) -> int:
        top = max(idxs)
        if cls._flush_suit_first(options):
            return (top & 3) * 13 + (top >> 2)
        return top

    @classmethod
    def classify_idx(cls, idxs: list[int], options: dict[str, Any]) -> tuple[str, Slot, int] | None:
        """(kind, slot, key) of ascending card integers, or ``None``."""
        n = len(idxs)
        if n == 1:
            return "single", S1, idxs[0]
        if n == 2:
            if idxs[0] >> 2 == idxs[1] >> 2:
                return "pair", S2, idxs[1]
            return None
        if n == 3:
            r = idxs[0] >> 2
            if idxs[1] >> 2 == r and idxs[2] >> 2 == r:
                return "triple", S3, r
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
                return "four-of-a-kind", S5, FOUR_KIND * 64 + r1
            return "full-house", S5, FULL_HOUSE * 64 + r1
        if len(counts) != 5:
            return None
        flush = len({i & 3 for i in idxs}) == 1
        w = cls.WINDOW_MASKS.get(rank_mask(idxs))
        if w is not None:
            cat = STRAIGHT_FLUSH if flush else STRAIGHT
            return FIVE_KIND[cat], S5, cat * 64 + cls._straight_key(w, idxs, options)
        if flush:
            return "flush", S5, FLUSH * 64 + cls._flush_key(idxs, options)
        return None

    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        try:
            idxs = sorted(CODE_IDX[c] for c in cards)
        except KeyError:
            return None
        if len(set(idxs)) != len(idxs):
            return None
        got = cls.classify_idx(idxs, options)
        if got is None:
            return None
        kind, slot, key = got
        return Combination(kind, tuple(IDX_CODE[i] for i in idxs), slot, (key,))

    # ----- enumeration of a hand ------------------------------------------------------
    FAMILIES: ClassVar[tuple[Family, ...]] = (1, 2, 3, 5)

    def _gen_family(
        self, fam: Family, idxs: list[int], by_rank: list[list[int]], tab: EntryTable | None
    ) -> list[Entry]:
        """Every play of family ``fam`` (the generic enumeration; see :meth:`_gen_cached`
        for the usual, table-driven one)."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        out: list[Entry] = []
        app = out.append
        if fam == 1:
            for i in idxs:
                m = 1 << i
                e = get(m)
                app(e if e is not None else make_entry(tab, m, i, (i,), "single", S1))
            return out
        if fam == 2 or fam == 3:
            for r, cards in enumerate(by_rank):
                if len(cards) >= fam:
                    self._set_entries(fam, r, cards, tab, app)
            return out
        if fam != 5:
            return out
        cls = type(self)
        rm = 0
        for r, cards in enumerate(by_rank):
            if cards:
                rm |= 1 << r
        for w, wmask in enumerate(cls.WINDOW_BITS):
            if rm & wmask == wmask:
                self._straight_entries(w, by_rank, tab, app)
        by_suit: list[list[int]] = [[], [], [], []]
        for i in idxs:
            by_suit[i & 3].append(i)
        for cards in by_suit:
            if len(cards) >= 5:
                self._flush_entries(cards, tab, app)
        for r, cards in enumerate(by_rank):
            if len(cards) < 3:
                continue
            for r2, cards2 in enumerate(by_rank):
                if r2 != r and len(cards2) >= 2:
                    self._full_house_entries(r, cards, cards2, tab, app)
            if len(cards) == 4:
                self._four_entries(r, cards, idxs, tab, app)
        return out

    # the pieces of the enumeration, each for the cards that matter to it
    @staticmethod
    def _set_entries(
        n: int, r: int, cards: Sequence[int], tab: EntryTable | None, app: Collect
    ) -> None:
        """Pairs (n = 2) or triples (n = 3) of rank ``r`` from ``cards``."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        if n == 2:
            for p in combinations(cards, 2):
                m = _BITS[p[0]] + _BITS[p[1]]
                e = get(m)
                app(e if e is not None else make_entry(tab, m, p[1], p, "pair", S2))
        else:
            for t in combinations(cards, 3):
                m = _BITS[t[0]] + _BITS[t[1]] + _BITS[t[2]]
                e = get(m)
                app(e if e is not None else make_entry(tab, m, r, t, "triple", S3))

    def _straight_entries(
        self, w: int, by_rank: list[list[int]], tab: EntryTable | None, app: Collect
    ) -> None:
        """Straights and straight flushes of window ``w`` (every rank held)."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        bit = _BITS.__getitem__
        ranks = self.WINDOWS[w]
        two_low = ranks[0] == 12  # 2-3-4-5-6 with the 2 below the 3
        two_top = two_low and self.options.get("straight_23456") == "high"
        for pick in product(*[by_rank[r] for r in ranks]):
            m = sum(map(bit, pick))
            e = get(m)
            if e is not None:
                app(e)
                continue
            # ``pick`` runs up the window; its last card is the top card
            # (the 2 of 2-3-4-5-6 is the top card under the house rule)
            key = 52 + (pick[0] & 3) if two_top else pick[4]
            s0 = pick[0] & 3
            if (
                (pick[1] & 3) == s0
                and (pick[2] & 3) == s0
                and (pick[3] & 3) == s0
                and (pick[4] & 3) == s0
            ):
                cat, kind = STRAIGHT_FLUSH, "straight-flush"
            else:
                cat, kind = STRAIGHT, "straight"
            app(make_entry(tab, m, cat * 64 + key, sorted(pick) if two_low else pick, kind, S5))

    def _flush_entries(self, cards: list[int], tab: EntryTable | None, app: Collect) -> None:
        """Flushes (not straight flushes) from ``cards``, 5+ ascending cards of a suit."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        bit = _BITS.__getitem__
        cls = type(self)
        wm = cls.WINDOW_MASKS
        suit_first = cls._flush_suit_first(self.options)
        smask = rank_mask(cards)
        may_straight = any(smask & b == b for b in cls.WINDOW_BITS)
        for f in combinations(cards, 5):
            m = sum(map(bit, f))
            e = get(m)
            if e is not None:
                if e[3] == "flush":
                    app(e)
                continue
            if may_straight and rank_mask(f) in wm:
                continue
            top = f[4]
            key = (top & 3) * 13 + (top >> 2) if suit_first else top
            app(make_entry(tab, m, FLUSH * 64 + key, f, "flush", S5))

    @staticmethod
    def _full_house_entries(
        r: int, cards: Sequence[int], cards2: Sequence[int], tab: EntryTable | None, app: Collect
    ) -> None:
        """Full houses: three of ``cards`` (rank ``r``) and two of ``cards2``."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        trips = [(t, _BITS[t[0]] + _BITS[t[1]] + _BITS[t[2]]) for t in combinations(cards, 3)]
        for p in combinations(cards2, 2):
            pm = _BITS[p[0]] + _BITS[p[1]]
            for t, tm in trips:
                m = tm + pm
                e = get(m)
                app(
                    e
                    if e is not None
                    else make_entry(tab, m, FULL_HOUSE * 64 + r, sorted(t + p), "full-house", S5)
                )

    @staticmethod
    def _four_entries(
        r: int, cards: Sequence[int], idxs: Iterable[int], tab: EntryTable | None, app: Collect
    ) -> None:
        """Four of a kind of rank ``r`` with each other card of ``idxs``."""
        get = tab.get if tab is not None else _NO_ENTRIES.get
        quad = tuple(cards)
        qm = sum(map(_BITS.__getitem__, quad))
        for i in idxs:
            if i >> 2 != r:
                m = qm + _BITS[i]
                e = get(m)
                app(
                    e
                    if e is not None
                    else make_entry(
                        tab, m, FOUR_KIND * 64 + r, sorted(quad + (i,)), "four-of-a-kind", S5
                    )
                )

    def _gen_cached(self, fam: Family, c: _SeatCache) -> list[Entry]:
        """The enumeration from whole lists kept in the shared table, each keyed by the
        cards that matter to it: a rank's suits (sets), a straight window's cards, a
        suit's cards (flushes), two ranks' suits (full houses)."""
        tab = c.tab
        if tab is None:
            return super()._gen_cached(fam, c)
        mask = c.mask
        get = tab.get
        out: list[Entry] = []
        k: tuple[int, ...]
        if fam == 1:
            lst = get(_SINGLES)
            if lst is None:
                lst = tab[_SINGLES] = [
                    get(1 << i) or make_entry(tab, 1 << i, i, (i,), "single", S1) for i in range(52)
                ]
            idxs = c.idxs
            if idxs is not None:
                return list(map(lst.__getitem__, idxs))
            while mask:
                low = mask & -mask
                out.append(lst[low.bit_length() - 1])
                mask ^= low
            return out
        if fam == 2 or fam == 3:
            pop = _POP
            for r in range(13):
                sm = (mask >> (r << 2)) & 15
                if pop[sm] >= fam:
                    k = (fam, r, sm)
                    lst = get(k)
                    if lst is None:
                        lst = tab[k] = []
                        self._set_entries(fam, r, _RANK_CARDS[r][sm], tab, lst.append)
                    out += lst
            return out
        if fam != 5:
            return out
        x = (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIB  # ranks held
        for w, need, cm in self._fast_windows():
            if x & need == need:
                k = (5, w, mask & cm)
                lst = get(k)
                if lst is None:
                    lst = tab[k] = []
                    self._straight_entries(w, by_rank_of(mask & cm), tab, lst.append)
                out += lst
        for sm in (mask & _NIB, mask & _NIB << 1, mask & _NIB << 2, mask & _NIB << 3):
            if sm.bit_count() >= 5:
                k = (6, sm)
                lst = get(k)
                if lst is None:
                    lst = tab[k] = []
                    self._flush_entries(mask_ints(sm), tab, lst.append)
                out += lst
        pairs = []
        pop = _POP
        for r in range(13):
            sm = (mask >> (r << 2)) & 15
            if pop[sm] >= 2:
                pairs.append((r, sm))
        if len(pairs) >= 2:
            for r, sm in pairs:
                if pop[sm] < 3:
                    continue
                for r2, sm2 in pairs:
                    if r2 != r:
                        k = (7, r, sm, r2, sm2)
                        lst = get(k)
                        if lst is None:
                            lst = tab[k] = []
                            self._full_house_entries(
                                r, _RANK_CARDS[r][sm], _RANK_CARDS[r2][sm2], tab, lst.append
                            )
                        out += lst
        if has_four_of_a_rank(mask):
            idxs = mask_ints(mask)
            for r, sm in pairs:
                if sm == 15:
                    self._four_entries(r, _RANK_CARDS[r][15], idxs, tab, out.append)
        return out

    #: per class: see :meth:`_fast_windows`
    _FAST_WINDOWS: ClassVar[tuple[tuple[int, int, int], ...]]

    @classmethod
    def _fast_windows(cls) -> tuple[tuple[int, int, int], ...]:
        """Per straight window: (its ranks as the low bit of each rank's nibble, the mask
        of all its cards)."""
        got: tuple[tuple[int, int, int], ...] | None = cls.__dict__.get("_FAST_WINDOWS")
        if got is None:
            windows = []
            for w, ranks in enumerate(cls.WINDOWS):
                need = cm = 0
                for r in ranks:
                    need |= 1 << (4 * r)
                    cm |= 15 << (4 * r)
                windows.append((w, need, cm))
            got = cls._FAST_WINDOWS = tuple(windows)
        return got

    # ----- dealing -------------------------------------------------------------------
    @staticmethod
    def _cut_value(code: str) -> int:
        # aces high for the cut (2 lowest), suit breaks ties
        i = CODE_IDX[code]
        r = i >> 2
        natural = 0 if r == 12 else r + 1  # 2 -> 0, 3 -> 1, ..., A -> 12
        return natural * 4 + (i & 3)

    def deal_cards(self) -> None:
        if self.deal_number == 1:
            self.dealer = self.cut_for_deal(IDX_CODE, self._cut_value)
        else:
            self.dealer = (self.dealer + 1) % self.players
        # the deck in idx order, so a card's position in it is its idx
        order = shuffled_positions(IDX_CODE, self.rng)
        n, k = self.players, self.hand_size
        ints: list[list[int]] = [[] for _ in range(n)]
        hands = self.hands
        for j in range(n):
            seat = (self.dealer + 1 + j) % n
            ints[seat] = h = sorted(order[j * k : (j + 1) * k])
            hands[seat] = list(map(IDX_CODE.__getitem__, h))
        self.out_of_play = list(map(IDX_CODE.__getitem__, order[n * k :]))
        start = min(h[0] for h in ints)
        self.required_card = IDX_CODE[start]
        self.current = next(s for s in range(n) if ints[s][0] == start)
        self._fresh_caches(ints)

    def start_deal(self) -> None:
        super().start_deal()
        assert self.required_card is not None
        self.log(
            f"{says(self.names[self.current], 'holds')} {display(self.required_card)} and must "
            f"play it in the first play.",
            self.current,
            kind="starter",
        )

    # ----- scoring ---------------------------------------------------------------------
    def penalty_for(self, left: int) -> int:
        return penalty_50_40_30(left, self.hand_size)

    def score_deal(self, winner: int) -> DealResult:
        changes = [0 if i == winner else self.penalty_for(len(h)) for i, h in enumerate(self.hands)]
        result = self.penalty_result(winner, changes, self.hand_size)
        if self.match_ends(result.totals):
            self.match_over = True
        return result

    def match_ends(self, totals: list[int]) -> bool:
        target: int = self.options["target"]
        return max(totals) >= target

    # ----- reasons -------------------------------------------------------------------
    def why_not_combination(self, codes: tuple[str, ...]) -> str:
        idxs = sorted(CODE_IDX[c] for c in codes)
        n = len(idxs)
        ranks = {i >> 2 for i in idxs}
        shown = display_cards(codes)
        if n == 2:
            return f"{shown}: a pair must be two cards of the same rank."
        if n == 3:
            return f"{shown}: a triple must be three cards of the same rank."
        if n == 4:
            if len(ranks) == 1:
                return "Four of a kind must be played with a fifth card."
            return f"{self.name} has no four-card play: play 1, 2, 3 or 5 cards."
        if n == 5:
            if len(ranks) == 5 and self._near_straight(idxs):
                return self._straight_reason(idxs)
            return (
                f"{shown} is not a poker hand: five cards must make a straight, flush, "
                f"full house, four of a kind with one more card, or straight flush."
            )
        if n > 5 and len(ranks) == n:
            return f"{self.name} straights are five cards long."
        return f"{self.name} plays are 1, 2, 3 or 5 cards; {shown} is not one of them."

    @staticmethod
    def _near_straight(idxs: Iterable[int]) -> bool:
        """Five different ranks that would be consecutive if the order wrapped around."""
        ranks = sorted({i >> 2 for i in idxs})
        for shift in range(13):
            rs = sorted((r + shift) % 13 for r in ranks)
            if rs[-1] - rs[0] == 4:
                return True
        return False

    def _straight_reason(self, idxs: Iterable[int]) -> str:
        ranks = {i >> 2 for i in idxs}
        if ranks == {8, 9, 10, 11, 12}:
            return (
                "J-Q-K-A-2 is not a straight in Big Two: in straights the 2 sits below "
                "the 3, and straights do not wrap around."
            )
        return "Straights do not wrap around: in Big Two they run from 2-3-4-5-6 up to 10-J-Q-K-A."

    def why_not_beating(self, combo: Combination, top: Combination) -> str:
        if top.slot != combo.slot:
            if top.slot == S5:
                return "Only a five-card hand beats a five-card hand."
            need = _SLOT_NAME.get(top.slot, "play")
            return (
                f"The table holds a {need}: only a higher {need} beats it "
                f"(plays are beaten only by the same number of cards)."
            )
        a, b = combo.key[0], top.key[0]
        if top.slot == S5 and a // 64 != b // 64:
            return (
                f"A {describe_kind(combo.kind)} does not beat a {describe_kind(top.kind)} "
                f"(five-card hands rank {FIVE_ORDER})."
            )
        return f"{show_combo(combo)} does not beat {show_combo(top)}: {self._compare_text(top)}"

    def _compare_text(self, top: Combination) -> str:
        kind = top.kind
        if kind == "single":
            return "singles compare by rank (3 low, 2 high), then suit (♠ > ♥ > ♣ > ♦)."
        if kind == "pair":
            return "pairs compare by rank, then by the higher suit in each pair."
        if kind == "triple":
            return "triples compare by rank."
        if kind in ("straight", "straight-flush"):
            return "it must rank higher by its top card (rank, then suit)."
        if kind == "flush":
            if self._flush_suit_first(self.options):
                return "flushes compare by suit first, then by their highest card."
            return "flushes compare by their highest card (rank, then suit)."
        if kind == "full-house":
            return "full houses compare by their three of a kind."
        return "four of a kind compares by the rank of the four."
