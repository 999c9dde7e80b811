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

from collections.abc import Iterable
from functools import cache
from typing import Any, ClassVar

from ..cards import display, display_cards
from ..protocol import DealResult, OptionSpec
from ..words import says
from .combination import Combination, Slot, describe_kind, show_combo
from .core import Move
from .game_poker import (
    RANK_SORT,
    SUIT_SORT,
    PokerClimbingGame,
    passing_spec,
    shuffled_positions,
    target_spec,
)
from .poker_cards import CODE_IDX, IDX_CODE
from .rules_big_two import BLUME_WINDOWS, Order, classify, kind_of, order_of

FIVE_ORDER = "straight < flush < full house < four of a kind < straight flush"

S1: Slot = (1,)
S2: Slot = (2,)
S3: Slot = (3,)
S5: Slot = (5,)
_SLOT_NAME: dict[Slot, str] = {S1: "single card", S2: "pair", S3: "triple", S5: "five-card hand"}
_SLOTS: dict[int, Slot] = {1: S1, 2: S2, 3: S3, 5: S5}

__all__ = ["BigTwoGame", "FIVE_ORDER", "rank_mask"]


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
    follows_in_order: ClassVar[bool] = True  # singles, pairs, triples, five-card hands

    #: straight windows of this variant (climbing rank indices, lowest card first)
    WINDOWS: ClassVar[tuple[tuple[int, ...], ...]] = BLUME_WINDOWS

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

    # ----- classification (the rules core: :mod:`.rules_big_two`) ----------------------
    @classmethod
    def _order(cls, options: dict[str, Any]) -> Order:
        return order_of(cls.variant_id, options)

    @classmethod
    def _flush_suit_first(cls, options: dict[str, Any]) -> bool:
        return cls._order(options).suit_first

    @classmethod
    def classify_idx(cls, idxs: list[int], options: dict[str, Any]) -> tuple[str, Slot, int] | None:
        """(kind, slot, key) of ascending card integers, or ``None``."""
        got = classify(idxs, cls._order(options))
        if got is None:
            return None
        return kind_of(*got), _SLOTS[got[0]], got[1]

    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        try:
            idxs = sorted(CODE_IDX[c] for c in cards)
        except KeyError:
            return None
        if len(set(idxs)) != len(idxs):
            return None
        got = classify(idxs, cls._order(options))
        if got is None:
            return None
        slot, key = got
        return Combination(
            kind_of(slot, key), tuple(IDX_CODE[i] for i in idxs), _SLOTS[slot], (key,)
        )

    def move_kind_slot(self, mv: Move) -> tuple[str, Slot]:
        return kind_of(mv[1], mv[2]), _SLOTS[mv[1]]

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
        masks = [0] * n
        for j in range(n):
            m = 0
            for i in order[j * k : (j + 1) * k]:
                m |= 1 << i
            masks[(self.dealer + 1 + j) % n] = m
        self.out_of_play = list(map(IDX_CODE.__getitem__, order[n * k :]))
        self.start_core(masks)

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
        points = self.rules_core.penalty(left)
        assert points is not None  # (the core's table: penalty games always have one)
        return points

    def score_deal(self, winner: int) -> DealResult:
        changes = [
            0 if i == winner else self.penalty_for(left) for i, left in enumerate(self.cards_left())
        ]
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
