"""The 2v1 game: the protocol shell around the rules core (docs/rules.md §5).

The state of the round *is* a :class:`~.core.RoundSim` (``game.core``): who acts, the
legal moves and what a move changes all come from it. The game translates card codes to
the core's indices and masks and back, words the refusals, writes the log, keeps what
only the record needs (the bids heard, the cards each seat has seen, the order of the
pile and of an exchange choice, the last hand's summary) and the match (totals, the
play-off). The phase objects (:mod:`.bidding`, :mod:`.exchange`, :mod:`.hand_play`,
:mod:`.scoring`, their base :mod:`.phase`) do the wording of each part of a round.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypedDict

from ..cards import HIDDEN, CardFace, standard_face
from ..observation import TwoVOneObservation
from ..protocol import Action, Decision, Game, OptionSpec
from ..words import says
from . import codec, observer
from .bidding import BidPhase, RaisePhase
from .core import ACTIONS, ALL, CODES, INDEX, KNOWN, NCARDS, RoundSim, bits, mask_of
from .deck import (
    CARDS,
    DEAL_SIZE,
    DECK,
    DECK_TABLE,
    RAINBOW,
    SUIT_COLOURS,
    SUIT_GLYPHS,
    SUIT_NAMES,
    parse,
    sort_key,
)
from .exchange import DiscardPhase, ExchangePhase
from .hand_play import FollowPhase, HidePhase, KeepPhase, LeadPhase
from .phase import Phase
from .scoring import OverPhase
from .view import TwoVOneView


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


def _code(i: int) -> str | None:
    return CODES[i] if i >= 0 else None


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
    #: what the views keep between calls (:func:`.observer.typed_view`)
    _vc: observer.ViewCopies | None = None
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
    #: the phase objects, by the value of ``phase`` they word, in the order of a round
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
        self.eligible = [True] * self.players  # who may bid (all, except in a play-off)
        self.playoff = False
        self.winners: list[int] = []
        self.start_deal()

    def _reset_round_state(self) -> None:
        n = self.players
        #: the round, as the rules core plays it
        self.core = RoundSim()
        self.dealer = 0
        self.rainbow_origin: int | None = 0
        self.bids: list[list[int]] = []  # [seat, 0|3|4] this bidding round
        self.pending: list[list[str] | None] = [None] * n  # exchange choices (hidden)
        self.received: list[list[str]] = [[] for _ in range(n)]
        self.raised = False
        self.pile: list[str] = []  # cards collected after each hand, in order
        self.last_hand: LastHand | None = None
        self.seen: list[int] = [0] * n  # the cards each seat has seen, as masks

    # ----- the core's state, as codes ---------------------------------------------------
    @property
    def phase(self) -> str:
        return self.core.phase

    def set_hand(self, seat: int, cards: list[str]) -> None:
        """(The puzzle solver's worlds) ``seat`` holds ``cards``."""
        self.core.hands[seat] = mask_of(cards)

    def set_duo_discard(self, seat: int, card: str) -> None:
        """(The puzzle solver's worlds) ``seat``'s face-down discard is ``card``."""
        self.core.discards[seat] = INDEX[card]

    @property
    def hands(self) -> list[list[str]]:
        """Each seat's hand, in the order a hand is kept."""
        return [[CODES[i] for i in bits(m)] for m in self.core.hands]

    @property
    def bid_queue(self) -> list[int]:
        return list(self.core.bid_queue)

    @property
    def high_bid(self) -> int | None:
        return self.core.high_bid or None

    @property
    def high_seat(self) -> int | None:
        s = self.core.high_seat
        return s if s >= 0 else None

    @property
    def lone(self) -> int | None:
        s = self.core.lone
        return s if s >= 0 else None

    @property
    def bid(self) -> int | None:
        return self.core.bid or None

    @property
    def rainbow_passes(self) -> int:
        return self.core.rainbow_passes

    @property
    def duo_discards(self) -> list[str | None]:
        return [_code(i) for i in self.core.discards]

    @property
    def hand_no(self) -> int:
        return self.core.hand_no

    @property
    def lead_up(self) -> str | None:
        return _code(self.core.up)

    @property
    def lead_down(self) -> str | None:
        return _code(self.core.down)

    @property
    def follows(self) -> list[str | None]:
        return [_code(i) for i in self.core.follows]

    @property
    def blind(self) -> bool:
        return self.core.blind

    @property
    def keep_seat(self) -> int | None:
        s = self.core.keep_seat
        return s if s >= 0 else None

    @property
    def hands_won(self) -> list[int]:
        return list(self.core.won)

    # ----- rounds ------------------------------------------------------------------------
    def start_deal(self) -> None:
        n = self.players
        self.deal_number += 1
        self.deal_over = False
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % n
        deck = list(range(NCARDS))  # the deck's cards, by index
        self.rng.shuffle(deck)
        hands = [0] * n
        for i in range(n):
            for c in deck[i * DEAL_SIZE : (i + 1) * DEAL_SIZE]:
                hands[(self.dealer + 1 + i) % n] |= 1 << c
        self._deal(hands)
        title = "Play-off round" if self.playoff else f"Round {self.deal_number}"
        self.log(
            f"{title}: {says(self.names[self.dealer], 'deals six cards each')}.",
            self.dealer,
            kind="deal",
        )
        self.begin_bidding()

    def _deal(self, hands: list[int]) -> None:
        """Give each seat its cards (masks: it has seen them) and let the core know who
        may bid."""
        core = self.core
        core.hands = hands
        core.eligible = tuple(self.eligible)
        for s in range(self.players):
            self.seen[s] |= core.hands[s]
        self.rainbow_origin = self.rainbow_holder()

    def begin_bidding(self) -> None:
        """A new bidding (after the deal or an exchange): the core starts it, the game
        tells the table."""
        self.core.start_bidding()
        self.RULES["bid"].entered(self)

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the round is not over" if not self.deal_over else "the match is over")
        self.reseed_for_next_deal()
        self.start_deal()

    def rainbow_holder(self) -> int | None:
        s = self.core.holder()
        return s if s >= 0 else None

    @property
    def forced(self) -> bool:
        """The rainbow has gone round: the bidding may not end without a bid."""
        return self.core.forced()

    def duo(self) -> tuple[int, ...]:
        return self.core.duo() if self.core.lone >= 0 else ()

    def reveal(self, *cards: str) -> None:
        """Every seat has now seen ``cards``."""
        self.reveal_mask(mask_of(cards))

    def reveal_mask(self, cards: int) -> None:
        """Every seat has now seen ``cards`` (a mask)."""
        seen = self.seen
        for s in range(len(seen)):
            seen[s] |= cards

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
        return self.core.to_act()

    def has_chosen(self, seat: int) -> bool:
        return not (self.deal_over or self.match_over) and self.RULES[self.core.phase].has_chosen(
            self, seat
        )

    def check(self, seat: int, action: Action) -> str | None:
        # an action this game handed out (from legal_actions or a decision) is known by
        # its identity: legal when the core lists its move for this seat now
        known = KNOWN.get(id(action))
        core = self.core
        if (
            known is not None
            and known[0] == core.phase
            and type(seat) is int
            and not (self.deal_over or self.match_over)
            and seat in core.to_act()
            and known[1] in core.legal(seat)
        ):
            return None
        reason = self.malformed(seat, action)
        if reason:
            return reason
        if self.deal_over or self.match_over or seat not in self.core.to_act():
            reason = self.turn_reason(seat)
            if reason:
                return reason
        rules = self.RULES[self.core.phase]
        if action.kind != self.core.phase:
            return f"Now is the time to {rules.verb}, not to {action.kind}."
        return rules.check(self, seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        self.RULES[self.core.phase].apply(self, seat, action)

    def legal_actions(self, seat: int) -> list[Action]:
        core = self.core
        if self.deal_over or self.match_over or seat not in core.to_act():
            return []
        return [*map(ACTIONS[core.phase].__getitem__, core.legal(seat))]

    def decision(self, seat: int) -> Decision | None:
        if self.deal_over or self.match_over or seat not in self.core.to_act():
            return None
        return self.RULES[self.core.phase].decision(self, seat)

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
        return {CODES[i] for i in bits(ALL & ~self.seen[seat])}

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
        return observer.status_line(self)

    def observation(self, seat: int) -> TwoVOneObservation:
        return observer.observation(self, seat)

    def _view(self, seat: int) -> TwoVOneView:
        return observer.typed_view(self, seat)

    # ----- tests and tutorials ---------------------------------------------------------------
    def set_deal(self, hands: list[list[str]]) -> None:
        """Replace the current round's deal with ``hands`` (six cards each, the whole
        deck) and start the bidding again."""
        codes = [[parse(c) for c in h] for h in hands]
        if sorted(c for h in codes for c in h) != sorted(DECK):
            raise ValueError("the hands must hold the whole deck exactly once")
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % self.players
        self._deal([mask_of(h) for h in codes])
        self.begin_bidding()

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
        self._deal([mask_of(h) for h in codes])
        self.rainbow_origin = 0  # (as a position set by hand always had)
        core = self.core
        core.lone, core.bid, core.high_bid, core.high_seat = lone, bid, bid, lone
        self.pile = list(out if out is not None else rest)
        core.pile = mask_of(self.pile)
        core.hand_no = hand_no - 1
        core.won = list(hands_won)
        self.reveal(*self.pile)
        core.start_hand()

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
