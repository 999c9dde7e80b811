"""Chinese Poker, the shedding game on Blume's page (docs/rules.md §4) — not the gambling game.

Actions:

* ``Action("play", cards)`` with concrete card codes. Suits never matter in this game,
  so ``legal_actions`` lists one *canonical* suit choice per play (the lowest-suited
  cards of each rank in hand, cards in rank order); ``check``/``apply`` accept any
  concrete selection that makes the same play.
* ``Action("pass")``: when there is a play to beat, and also on the deal's opening
  play (see below).
* Two players only: ``Action("choose-hand", value="A" | "B" | "C")`` during the hand
  choice at the start of each deal.

Rules as implemented:

* The deck is 48 cards: the 2♥, 2♦, 2♣ and A♣ are removed (so the only two is the
  2♠ and there are three aces). Since suits never matter, which three twos and which
  ace leave makes no difference to play.
* 4 players get 12 cards each, 3 players 16 each. With 2 players the dealer deals three
  hands of 16 (A, B, C), chooses one, the other player chooses one of the remaining two,
  and the third is out of play for the deal (hidden from both). Only the player
  choosing sees the hands on offer.
* First dealer by a cut (highest rank, aces high; tied players cut again); afterwards
  the winner of a deal deals the next. The dealer plays first.
* Opening play: nobody has played yet, so each player in turn, starting with the
  dealer, may pass instead of leading. If everyone passes, the dealer must lead (so a
  deal always gets going). Later tricks: whoever leads must play.
* Passing is for that turn only: a player who passed may play later in the trick. The
  trick ends when every other player has passed since the last play; the last player
  to play leads.
* Plays, compared by rank only (3 < 4 < ... < K < A < 2; equal ranks never beat):
  a single; a pair or two or more pairs of consecutive ranks (``pairs-sequence``,
  e.g. 44-55-66); a triple or two or more consecutive triples (``triples-sequence``);
  a full house (by its triple); a straight of 5 to 13 cards in which the 2 is *low*
  (2-3-4-5-6 is the lowest), beaten only by a higher straight of the same length.
  Pair and triple sequences use the single-card order with no wrapping, and are
  beaten only by the same kind and length with a higher top rank.
* Four of a kind plus one more card (``four-of-a-kind``) is a bomb: it beats any other
  play. Two bombs compare by their fifth card (default) or, house rule, by the rank of
  the four.
* Penalties for the others when someone goes out: every card still held 50, all but one
  40, all but two 30, otherwise one point a card. The match ends after the deal in
  which someone reaches the target (default 100); lowest total wins.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Self, cast

from ..cards import display_cards
from ..observation import ChinesePokerObservation
from ..protocol import Action, Choice, DealResult, Decision, OptionSpec
from ..words import says
from .combination import Combination, Slot, describe_kind, show_combo
from .core import Move
from .game_poker import (
    RANK_SORT,
    SUIT_SORT,
    PokerClimbingGame,
    shuffled_positions,
    target_spec,
)
from .poker_cards import CODE_BIT, CODE_IDX, IDX_CODE
from .rules_chinese_poker import BOMB as BOMB_ID
from .rules_chinese_poker import CP_DECK, classify
from .rules_chinese_poker import SINGLE as SINGLE_ID
from .view import HandChoice, ViewKeys

__all__ = ["ChinesePokerGame"]

_CP_SET = frozenset(CP_DECK)

SINGLE: Slot = ("single",)
FULL: Slot = ("full-house",)
BOMB: Slot = ("four",)

LETTERS = ("A", "B", "C")


def _kind_slot(sid: int) -> tuple[str, Slot]:
    """The kind and the protocol slot of a core slot id (:mod:`.rules_chinese_poker`)."""
    if sid == SINGLE_ID:
        return "single", SINGLE
    if sid == BOMB_ID:
        return "four-of-a-kind", BOMB
    if sid == 60:
        return "full-house", FULL
    if sid > 70:
        return "straight", ("straight", sid - 70)
    if sid > 40:
        k = sid - 40
        return ("triple" if k == 1 else "triples-sequence"), ("triples", k)
    k = sid - 20
    return ("pair" if k == 1 else "pairs-sequence"), ("pairs", k)


#: core slot id -> (kind, protocol slot)
_KIND_SLOT = {
    sid: _kind_slot(sid) for sid in (1, 60, 90, *range(21, 34), *range(41, 54), *range(75, 84))
}


@cache
def _option_specs() -> tuple[OptionSpec, ...]:
    return (
        target_spec(100),
        OptionSpec(
            "bomb_compare",
            "Four of a kind against four of a kind",
            "How one four-of-a-kind bomb beats another.",
            (("fifth", "By the extra fifth card"), ("quad", "By the rank of the four")),
            "fifth",
        ),
    )


#: CP_DECK position -> card integer (the deck is in integer order)
_CP_IDX = tuple(CODE_IDX[c] for c in CP_DECK)


class ChinesePokerGame(PokerClimbingGame):
    variant_id: ClassVar[str] = "chinese-poker"
    name: ClassVar[str] = "Chinese Poker"
    summary: ClassVar[str] = (
        "Suits never matter: shed runs, pair and triple chains and "
        "full houses; four of a kind plus one bombs anything."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_players: ClassVar[int] = 4
    low_score_wins: bool = True
    score_label: str = "Penalty"
    bomb_slot: ClassVar[Slot | None] = BOMB
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {
        "play": (True, None),
        "pass": (False, None),
        "choose-hand": (False, "word"),
    }

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        self.phase = "play"
        self.offered: dict[str, list[str]] = {}
        self.chooser: int | None = None
        self.next_dealer: int | None = None
        super().__init__(players, options, seed, names)

    # ----- options -------------------------------------------------------------------
    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return _option_specs()

    def target_text(self) -> str:
        return (
            f"Penalty points for cards left; the match ends when someone reaches "
            f"{self.options['target']}. Lowest total wins."
        )

    @property
    def hand_size(self) -> int:
        return 12 if self.players == 4 else 16

    # ----- cards -------------------------------------------------------------------------
    def deck_cards(self) -> list[str]:
        return list(CP_DECK)

    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        return SUIT_SORT[code] if by == "suit" else RANK_SORT[code]

    # ----- classification (the rules core: :mod:`.rules_chinese_poker`) --------------------
    @classmethod
    def classify_idx(
        cls, idxs: list[int], options: dict[str, Any]
    ) -> tuple[str, Slot, int, int] | None:
        """(kind, slot, key, power) of ascending card integers, or ``None``."""
        got = classify(idxs, options.get("bomb_compare") == "quad")
        if got is None:
            return None
        kind, slot = _KIND_SLOT[got[0]]
        return kind, slot, got[1], got[2]

    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        if not all(c in _CP_SET for c in cards):
            return None
        idxs = sorted(CODE_IDX[c] for c in cards)
        if len(set(idxs)) != len(idxs):
            return None
        got = cls.classify_idx(idxs, options)
        if got is None:
            return None
        kind, slot, key, power = got
        return Combination(kind, tuple(IDX_CODE[i] for i in idxs), slot, (key,), power)

    def move_kind_slot(self, mv: Move) -> tuple[str, Slot]:
        return _KIND_SLOT[mv[1]]

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        """Fast check: a listed play, else known card codes, all in hand, no repeats
        -> classify on ints."""
        if type(cards) is not tuple:
            return None
        combo = super().lookup_play(seat, cards)
        if combo is not None:
            return combo
        hm = self.core.hands[seat]
        m = 0
        try:
            for c in cards:
                b = CODE_BIT[c]
                if m & b or not hm & b:
                    return None
                m |= b
        except KeyError:
            return None
        return self.classify_cards(cards, self.options)

    # ----- dealing -------------------------------------------------------------------
    @staticmethod
    def _cut_value(code: str) -> int:
        r = CODE_IDX[code] >> 2
        return 0 if r == 12 else r + 1  # aces high, 2 low; suits do not count

    def deal_cards(self) -> None:
        if self.deal_number == 1 or self.next_dealer is None:
            self.dealer = self.cut_for_deal(CP_DECK, self._cut_value)
        else:
            self.dealer = self.next_dealer
        order = shuffled_positions(CP_DECK, self.rng)
        n = self.players
        self.out_of_play = []
        if n == 2:
            # the deck is in card order, so sorting positions sorts the cards
            self.offered = {
                L: [CP_DECK[i] for i in sorted(order[16 * j : 16 * (j + 1)])]
                for j, L in enumerate(LETTERS)
            }
            self.start_core([0] * n)
            self.phase = "choose"
            self.chooser = self.dealer
            return
        k = self.hand_size
        masks = [0] * n
        for j in range(n):
            m = 0
            for i in order[j * k : (j + 1) * k]:
                m |= 1 << _CP_IDX[i]
            masks[(self.dealer + 1 + j) % n] = m
        self.start_core(masks)
        self.offered = {}
        self.phase = "play"
        self.chooser = None

    # ----- the hand choice (2 players) ----------------------------------------------------
    @property
    def phase(self) -> str:
        """``"choose"`` during the hand choice (2 players), else ``"play"``."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = value
        self._choosing = value == "choose"

    def _to_act_other(self) -> tuple[int, ...]:
        assert self.chooser is not None
        return (self.chooser,)

    def _legal_other(self, seat: int) -> list[Action]:
        if self.phase == "choose":
            if seat != self.chooser or self.deal_over or self.match_over:
                return []
            return [Action("choose-hand", value=L) for L in sorted(self.offered)]
        return []

    def _check_other(self, seat: int, action: Action) -> str | None:
        if self.phase == "choose" and not (self.match_over or self.deal_over):
            reason = self.turn_reason(seat)
            if reason is not None:
                return reason
            if action.kind != "choose-hand":
                return "First choose one of the hands on offer."
            if action.value not in self.offered:
                letters = " or ".join(sorted(self.offered))
                return f"Hand {action.value} is not on offer: choose {letters}."
            return None
        if action.kind == "choose-hand":
            return "The hands have already been chosen for this deal."
        return super()._check_other(seat, action)

    def _apply_other(self, seat: int, action: Action) -> None:
        if action.kind != "choose-hand":
            super()._apply_other(seat, action)
            return
        letter = action.value
        assert type(letter) is str  # checked: one of the letters on offer
        self.set_hand(seat, self.offered.pop(letter))
        self.log(f"{says(self.names[seat], 'takes')} hand {letter}.", seat, kind="choose-hand")
        if seat == self.dealer:
            self.chooser = (self.dealer + 1) % self.players
        else:
            (rest,) = self.offered.values()
            self.out_of_play = rest
            self.offered = {}
            self.chooser = None
            self.phase = "play"
            self.current = self.dealer
            self.log(
                "The third hand is out of play for this deal. "
                f"{says(self.names[self.dealer], 'plays first')}.",
                None,
                kind="choose-hand",
            )

    def clone_for_search(self) -> Self:
        g = super().clone_for_search()
        g.offered = {L: list(cs) for L, cs in self.offered.items()}
        return g

    # ----- passing on the opening play ---------------------------------------------------
    def can_pass(self, seat: int) -> bool:
        return not self._choosing and self.core.can_pass()

    @property
    def open_passes(self) -> int:
        """Passes made on the empty opening table this deal."""
        return self.core.open_passes

    @open_passes.setter
    def open_passes(self, value: int) -> None:
        self.core.open_passes = value

    def decision(self, seat: int) -> Decision | None:
        if seat not in self.to_act():
            return None
        if self.phase == "choose":
            letters = sorted(self.offered)
            who = "You deal: choose" if seat == self.dealer else "Choose"
            prompt = f"{who} one of the hands {', '.join(letters)} to play this deal."
            return Decision(
                seat,
                "choose-hand",
                prompt,
                None,
                None,
                tuple(
                    Choice(f"Hand {L}", Action("choose-hand", value=L), L.lower()) for L in letters
                ),
            )
        d = super().decision(seat)
        assert d is not None  # the seat is asked to act
        if self.top is None and self.can_pass(seat):
            d = Decision(
                seat,
                d.kind,
                "Open the deal with any combination, or pass.",
                d.select,
                d.submit,
                d.choices,
            )
        return d

    def status_line(self) -> str:
        if self.phase == "choose" and not (self.deal_over or self.match_over):
            assert self.chooser is not None
            return f"{says(self.names[self.chooser], 'is choosing a hand')}."
        return super().status_line()

    # ----- accounting ------------------------------------------------------------------------
    def card_census(self) -> list[str]:
        offered = [c for L in sorted(self.offered) for c in self.offered[L]]
        return super().card_census() + offered

    def hidden_from(self, seat: int) -> set[str]:
        hidden = super().hidden_from(seat)
        if seat != self.chooser:
            for cards in self.offered.values():
                hidden.update(cards)
        return hidden

    def observation(self, seat: int) -> ChinesePokerObservation:
        return cast(ChinesePokerObservation, self._view(seat).to_json())

    def _view_keys(self, seat: int) -> ViewKeys:
        if self.phase != "choose":
            return (None, None, self.phase, None, None)
        offered = (
            {L: tuple(cs) for L, cs in sorted(self.offered.items())}
            if seat == self.chooser
            else None
        )
        return (
            None,
            None,
            self.phase,
            HandChoice(self.chooser, tuple(sorted(self.offered))),
            offered,
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
        self.next_dealer = winner
        if max(result.totals) >= self.options["target"]:
            self.match_over = True
        return result

    # ----- JSON ------------------------------------------------------------------------
    def extra_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "offered": {L: list(cs) for L, cs in self.offered.items()},
            "chooser": self.chooser,
            "open_passes": self.open_passes,
            "next_dealer": self.next_dealer,
        }

    def load_extra_json(self, d: dict[str, Any]) -> None:
        self.phase = d["phase"]
        self.offered = {L: list(cs) for L, cs in d["offered"].items()}
        self.chooser = d["chooser"]
        self.open_passes = d["open_passes"]
        self.next_dealer = d["next_dealer"]

    # ----- reasons -------------------------------------------------------------------
    def why_not_combination(self, codes: tuple[str, ...]) -> str:
        idxs = sorted(CODE_IDX[c] for c in codes)
        n = len(idxs)
        counts: dict[int, int] = {}
        for i in idxs:
            counts[i >> 2] = counts.get(i >> 2, 0) + 1
        shown = display_cards(codes)
        vals = set(counts.values())
        if n == 2:
            return f"{shown}: a pair must be two cards of the same rank."
        if n == 4 and len(counts) == 1:
            return "Four of a kind must be played with one more card."
        if vals == {2}:
            return (
                f"{shown}: pairs played together must be of consecutive ranks (like 4-4-5-5-6-6)."
            )
        if vals == {3}:
            return (
                f"{shown}: triples played together must be of consecutive ranks (like 3-3-3-4-4-4)."
            )
        if vals == {1}:
            if n < 5:
                return f"{shown}: straights are at least five cards long."
            return (
                f"{shown} is not a straight: it needs consecutive ranks, with the 2 "
                f"below the 3 and no wrapping past the ace."
            )
        if n == 3:
            return (
                f"{shown}: three cards must be a triple, all of one rank "
                f"(a straight needs at least five cards)."
            )
        if n == 5:
            return (
                f"{shown} is not a play: five cards must be a straight, a full house "
                f"(a triple and a pair) or four of a kind with one more card."
            )
        return (
            f"{shown} is not a play in Chinese Poker: play a single, pairs or triples "
            f"(alone or in a consecutive chain), a full house, a straight of 5 or more, "
            f"or four of a kind with one more card."
        )

    def why_not_beating(self, combo: Combination, top: Combination) -> str:
        if top.power > combo.power:
            return "Only a higher four of a kind (with its fifth card) beats four of a kind."
        if top.slot != combo.slot:
            if top.kind == "straight":
                return (
                    f"Only a higher straight of exactly {len(top.cards)} cards (or four of "
                    f"a kind plus one) beats that straight."
                )
            if top.slot[0] in ("pairs", "triples"):
                chain = top.slot[1]
                if type(chain) is int and chain > 1:
                    return (
                        f"The table holds {chain} {top.slot[0]} of consecutive ranks: only "
                        f"a higher chain of exactly {chain} {top.slot[0]} (or four of a kind "
                        f"plus one) beats it."
                    )
            return (
                f"Only a higher {describe_kind(top.kind)} (or four of a kind plus one) "
                f"beats a {describe_kind(top.kind)}."
            )
        if combo.power:
            if self.options.get("bomb_compare") == "quad":
                return "Four of a kind against four of a kind: the higher four wins."
            return (
                "Four of a kind against four of a kind: the higher fifth card wins "
                "(equal ranks do not beat)."
            )
        return (
            f"{show_combo(combo)} does not beat {show_combo(top)}: "
            f"suits do not count, so it needs a higher rank."
        )

    @classmethod
    def validate_json(cls, data: Any) -> None:
        from .. import validate as v

        v.validate_base(cls, data)
        players = data["players"]
        phase = v.one_of(v.field(data, "phase"), "phase", ("play", "choose"))
        deck = frozenset(CP_DECK)
        offered = v.obj(v.field(data, "offered"), "offered")
        extra: list[str] = []
        for letter, cs in offered.items():
            v.one_of(letter, "offered", LETTERS)
            extra += v.cards(cs, f"offered.{letter}", deck, 16)
        chooser = v.opt_seat(v.field(data, "chooser"), "chooser", players)
        v.integer(v.field(data, "open_passes"), "open_passes", 0, players)
        v.opt_seat(v.field(data, "next_dealer"), "next_dealer", players)
        choosing = phase == "choose" and not data["deal_over"]
        if choosing:
            if players != 2 or chooser is None or not offered:
                raise v.fail("phase", "a hand choice needs two players, a chooser and hands")
        elif offered or (phase == "choose" and players != 2):
            raise v.fail("offered", "hands are on offer outside the hand choice")
        v.validate_climbing(cls, data, extra, choosing)
