"""The 2v1 game: the state of a match and the protocol, answered by the object of the
current phase (docs/rules.md §5; the phases are in :mod:`.bidding`, :mod:`.exchange`,
:mod:`.hand_play` and :mod:`.scoring`)."""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypedDict

from ..cards import HIDDEN, CardFace, standard_face
from ..observation import TwoVOneObservation
from ..protocol import Action, Decision, Game, OptionSpec
from ..words import says
from . import codec, view
from .bidding import BidPhase, RaisePhase
from .deck import (
    CARDS,
    DEAL_SIZE,
    DECK,
    DECK_TABLE,
    RAINBOW,
    SUIT_COLOURS,
    SUIT_GLYPHS,
    SUIT_NAMES,
    hand_order,
    parse,
    sort_key,
)
from .exchange import DiscardPhase, ExchangePhase
from .hand_play import FollowPhase, HidePhase, KeepPhase, LeadPhase
from .phase import Phase
from .scoring import OverPhase


class LastHand(TypedDict):
    """The last hand decided this round (the observation shows it as
    :class:`~twos_tui.engine.observation.LastHandView`)."""

    hand: int
    lone: list[str]  #: the lone player's face-up and face-down cards
    duo: list[tuple[int, str]]  #: (seat, card) of each duo member
    lone_value: int
    duo_value: int
    lone_reason: str
    duo_reason: str
    winner: str  #: "lone" or "duo"
    returned: str | None  #: the card that went back to the lone hand
    returned_public: bool  #: False when the lone player chose it in secret


class TwoVOneGame(Game):
    variant_id: ClassVar[str] = "2v1"
    name: ClassVar[str] = "2v1"
    summary: ClassVar[str] = (
        "Three players, 18 cards: one bids to take exactly 3 or 4 of 5 hands against the other two."
    )
    family: ClassVar[str] = "trick"
    player_counts: ClassVar[tuple[int, ...]] = (3,)
    default_players: ClassVar[int] = 3
    low_score_wins: bool = False
    score_label: str = "Coins"
    deal_word: ClassVar[str] = "round"
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {
        "bid": (False, "int"),
        "raise": (False, "int"),
        "exchange": (True, None),
        "discard": (True, None),
        "lead": (True, None),
        "hide": (True, None),
        "follow": (True, None),
        "keep": (False, "card"),
    }
    #: the phase objects, by the value of ``phase`` they play, in the order of a round
    RULES: ClassVar[dict[str, Phase]] = {
        p.name: p
        for p in (
            BidPhase(),
            RaisePhase(),
            ExchangePhase(),
            DiscardPhase(),
            LeadPhase(),
            HidePhase(),
            FollowPhase(),
            KeepPhase(),
            OverPhase(),
        )
    }
    PHASES: ClassVar[tuple[str, ...]] = tuple(RULES)

    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "coins_to_win",
                "Coins to win",
                "The match ends when a player has this many coins (two players "
                "reaching it in the same round play one more round to decide).",
                ((7, "7 coins"), (5, "5 coins (short)"), (10, "10 coins (long)")),
                7,
            ),
        )

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(players, options, seed, names)
        self._reset_round_state()
        self.eligible = [True] * self.players  # who may bid (all, except in a play-off)
        self.playoff = False
        self.winners: list[int] = []
        self.start_deal()

    def _reset_round_state(self) -> None:
        n = self.players
        self.phase = "bid"
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.dealer = 0
        self.rainbow_origin: int | None = 0
        self.rainbow_passes = 0
        self.bid_queue: list[int] = []
        self.bids: list[list[int]] = []  # [seat, 0|3|4] this bidding round
        self.high_bid: int | None = None
        self.high_seat: int | None = None
        self.pending: list[list[str] | None] = [None] * n  # exchange choices (hidden)
        self.received: list[list[str]] = [[] for _ in range(n)]
        self.lone: int | None = None
        self.bid: int | None = None
        self.raised = False
        self.duo_discards: list[str | None] = [None] * n
        self.hand_no = 0
        self.lead_up: str | None = None
        self.lead_down: str | None = None
        self.follows: list[str | None] = [None] * n
        self.blind = False
        self.keep_seat: int | None = None
        self.hands_won = [0, 0]  # lone, duo
        self.pile: list[str] = []  # cards collected after each hand
        self.last_hand: LastHand | None = None
        self.seen: list[set[str]] = [set() for _ in range(n)]

    # ----- rounds ------------------------------------------------------------------------
    def start_deal(self) -> None:
        n = self.players
        self.deal_number += 1
        self.deal_over = False
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % n
        deck = list(DECK)
        self.rng.shuffle(deck)
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat] = hand_order(deck[i * DEAL_SIZE : (i + 1) * DEAL_SIZE])
            self.seen[seat].update(self.hands[seat])
        self.rainbow_origin = self.rainbow_holder()
        title = "Play-off round" if self.playoff else f"Round {self.deal_number}"
        self.log(
            f"{title}: {says(self.names[self.dealer], 'deals six cards each')}.",
            self.dealer,
            kind="deal",
        )
        self.enter("bid")

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the round is not over" if not self.deal_over else "the match is over")
        self.reseed_for_next_deal()
        self.start_deal()

    def enter(self, phase: str) -> None:
        """Move to ``phase`` (its object starts it: a new bidding, a new hand, ...)."""
        self.RULES[phase].enter(self)

    def rainbow_holder(self) -> int | None:
        for i, h in enumerate(self.hands):
            if RAINBOW in h:
                return i
        return None

    @property
    def forced(self) -> bool:
        """The rainbow has gone round: the bidding may not end without a bid."""
        return self.rainbow_passes >= self.players

    def duo(self) -> tuple[int, ...]:
        if self.lone is None:
            return ()
        n = self.players
        return ((self.lone + 1) % n, (self.lone + 2) % n)

    def reveal(self, *cards: str) -> None:
        """Every seat has now seen ``cards``."""
        for s in self.seen:
            s.update(cards)

    def match_winners(self) -> list[int]:
        if self.winners:
            return list(self.winners)
        return super().match_winners()

    def target_text(self) -> str:
        return f"First to {self.options['coins_to_win']} coins wins."

    # ----- protocol ---------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        return self.RULES[self.phase].to_act(self)

    def has_chosen(self, seat: int) -> bool:
        return not (self.deal_over or self.match_over) and self.RULES[self.phase].has_chosen(
            self, seat
        )

    def check(self, seat: int, action: Action) -> str | None:
        reason = self.malformed(seat, action) or self.turn_reason(seat)
        if reason:
            return reason
        rules = self.RULES[self.phase]
        if action.kind != self.phase:
            return f"Now is the time to {rules.verb}, not to {action.kind}."
        return rules.check(self, seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        self.RULES[self.phase].apply(self, seat, action)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat not in self.to_act():
            return []
        return self.RULES[self.phase].legal_actions(self, seat)

    def decision(self, seat: int) -> Decision | None:
        if self.deal_over or self.match_over or seat not in self.to_act():
            return None
        return self.RULES[self.phase].decision(self, seat)

    # ----- card accounting -----------------------------------------------------------------
    def deck_cards(self) -> list[str]:
        return list(DECK)

    def card_census(self) -> list[str]:
        out = [c for h in self.hands for c in h]
        out += [c for c in self.duo_discards if c is not None]
        out += [c for c in (self.lead_up, self.lead_down) if c is not None]
        out += [c for c in self.follows if c is not None]
        out += self.pile
        return out

    def hidden_from(self, seat: int) -> set[str]:
        """Every card ``seat`` has not seen this round (never in its hand, never shown
        face up): other hands, face-down cards, the others' choices, the duo discards."""
        return set(DECK) - self.seen[seat]

    # ----- display helpers -------------------------------------------------------------------
    def card_face(self, code: str) -> CardFace:
        if code == HIDDEN:
            return standard_face(code)
        code = parse(code)
        if code == RAINBOW:
            _, name, rank, glyph, colour = DECK_TABLE["rainbow"]
            return CardFace(code, rank, glyph, name.lower(), colour)
        v, s = CARDS[code]
        return CardFace(code, str(v), SUIT_GLYPHS[s], SUIT_NAMES[s].lower(), SUIT_COLOURS[s])

    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, int]:
        return sort_key(code, by)

    def status_line(self) -> str:
        return view.status_line(self)

    def observation(self, seat: int) -> TwoVOneObservation:
        return view.observation(self, seat)

    # ----- tests and tutorials ---------------------------------------------------------------
    def set_deal(self, hands: list[list[str]]) -> None:
        """Replace the current round's deal with ``hands`` (six cards each, the whole
        deck) and start the bidding again."""
        codes = [[parse(c) for c in h] for h in hands]
        if sorted(c for h in codes for c in h) != sorted(DECK):
            raise ValueError("the hands must hold the whole deck exactly once")
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % self.players
        self.hands = [hand_order(h) for h in codes]
        for s in range(self.players):
            self.seen[s].update(self.hands[s])
        self.rainbow_origin = self.rainbow_holder()
        self.enter("bid")

    def set_position(
        self,
        hands: list[list[str]],
        lone: int,
        bid: int,
        *,
        hand_no: int = 1,
        hands_won: tuple[int, int] = (0, 0),
        out: list[str] | None = None,
    ) -> None:
        """Put the current round straight into play: ``hands`` per seat, the lone seat
        and bid, the hand about to be led. Cards not in a hand go to ``out`` (the duo
        discards and earlier hands; default: all the rest into the pile)."""
        codes = [[parse(c) for c in h] for h in hands]
        used = [c for h in codes for c in h]
        rest = [c for c in DECK if c not in used]
        if len(set(used)) != len(used):
            raise ValueError("a card is in two hands")
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % self.players
        self.hands = [hand_order(h) for h in codes]
        for s in range(self.players):
            self.seen[s].update(self.hands[s])
        self.lone, self.bid, self.high_bid, self.high_seat = lone, bid, bid, lone
        self.pile = list(out if out is not None else rest)
        self.hand_no = hand_no - 1
        self.hands_won = list(hands_won)
        self.reveal(*self.pile)
        self.enter("lead")

    # ----- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(codec.state_json(self))
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls._blank(data)
        g._reset_round_state()
        codec.load_state(g, data)
        return g

    @classmethod
    def validate_json(cls, data: Any) -> None:
        codec.validate(cls, data)
