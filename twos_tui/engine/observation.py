"""The observation as typed structures: what ``game.observation(seat)`` returns.

Every observation is a plain JSON-able dict; these ``TypedDict`` classes name its keys and
their types, so a reader (the UI, the AI, a tool) reads it by name and a type checker
catches a misspelt key. :class:`Observation` holds the keys every game has; each family
or variant adds its own in a subclass: :class:`ClimbingObservation` (Twos, Big Two, Big
Two five-round, Chinese Poker) with :class:`TwosObservation` and
:class:`ChinesePokerObservation`, :class:`TwoVOneObservation` and
:class:`TwosTricksObservation`.

A pair written as ``[seat, card]`` is a JSON array, a ``list[int | str]`` here.
"""

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict


def seat_card(pair: Sequence[int | str]) -> tuple[int, str]:
    """A ``[seat, card]`` pair of an observation as a typed ``(seat, card)``."""
    seat, card = pair
    assert type(seat) is int and type(card) is str, pair
    return seat, card


class TableEntry(TypedDict):
    """Cards on the table beside a seat (hidden cards are ``"??"``)."""

    seat: int
    cards: list[str]
    #: a few words for the UI ("led", "face down", "duo 7", ...); trick games
    label: NotRequired[str]
    #: the combination's kind ("pair", "straight", ...); climbing games
    kind: NotRequired[str]


class LogExtras(TypedDict, total=False):
    """The keys a log entry may carry besides its seat, text and deal number (the
    keyword arguments of :meth:`~.protocol.Game.log`)."""

    kind: str  #: what happened: "deal", "play", "pass", "bid", "trick", "deal-end", ...
    cards: list[str]  #: the cards played (climbing)
    combo: str  #: their combination's kind (climbing)
    bomb: bool  #: whether it was a bomb (climbing)
    card: str  #: the card played or returned (trick games)
    winner: int | str  #: a trick's winner seat (Twos tricks), "lone" or "duo" (2v1)
    bid: int  #: a bid, 0 for a pass (2v1)
    hand: int  #: the hand's number (2v1)
    lone_value: int  #: value of the lone player's pair (2v1)
    duo_value: int  #: value of the duo's pair (2v1)
    lone_cards: list[str]  #: the lone player's two cards (2v1)
    duo_cards: list[list[int | str]]  #: ``[seat, card]`` of each duo member (2v1)


class LogEntry(LogExtras):
    """One line of the public log."""

    seat: int | None  #: who it is about (``None``: nobody in particular)
    text: str  #: the line as a player reads it
    deal: int  #: the deal (round) it belongs to


class DealScore(TypedDict):
    """One finished deal on the match's score sheet."""

    deal: int  #: the deal's (round's) number
    changes: list[int]  #: each seat's change in that deal
    totals: list[int]  #: each seat's total after it


class Observation(TypedDict):
    """The keys every game's observation has."""

    variant: str
    family: str  #: "climbing" or "trick"
    seat: int  #: whose view this is
    players: int
    names: list[str]
    hand: list[str]  #: this seat's cards (codes)
    hand_counts: list[int]  #: cards in each seat's hand
    to_act: list[int]  #: the seats asked to act now
    dealer: int
    deal_number: int
    totals: list[int]  #: the match score of each seat
    table: list[TableEntry]
    seat_tags: list[list[str]]  #: per seat, short words: "dealer", "passed", "lone", ...
    history: list[LogEntry]  #: the public log (trick games: this deal's and the results)
    status: str  #: one line about the state of play
    deal_over: bool
    match_over: bool
    #: the house rules in force, by option id (each option has its own value type)
    options: dict[str, Any]
    deal_scores: list[DealScore]  #: every finished deal of the match, oldest first


# ----- climbing games ----------------------------------------------------------------------
#: one move of the current trick: ``{"seat", "cards", "kind"}`` or ``{"seat", "pass": True}``
TrickMove = TypedDict(
    "TrickMove",
    {
        "seat": int,
        "cards": NotRequired[list[str]],
        "kind": NotRequired[str],
        "pass": NotRequired[bool],
    },
)


class TopPlay(TypedDict):
    """The combination to beat."""

    seat: int | None
    cards: list[str]
    kind: str


class ClimbingLastTrick(TypedDict):
    """The trick finished last this deal."""

    plays: list[TrickMove]  #: its plays and passes, in order
    winner: int  #: the seat that won it (and leads next)


class ClimbingObservation(Observation):
    trick: list[TrickMove]  #: the current trick's plays and passes, in order
    top: TopPlay | None  #: the combination to beat (``None``: a lead)
    required_card: str | None  #: the card the first play of the deal must include
    last_trick: ClimbingLastTrick | None  #: ``None`` until a trick of this deal is over
    #: once the deal is over (never before): the cards each seat still held, per seat
    hands_left: NotRequired[list[list[str]]]


class TwosObservation(ClimbingObservation):
    bomb_order: list[str]  #: the bomb shapes this hand size can hold, weakest first
    score_label: str


class HandChoice(TypedDict):
    chooser: int | None
    letters: list[str]


class ChinesePokerObservation(ClimbingObservation):
    phase: str  #: "choose" (the dealer's pick of a hand) or "play"
    hand_choice: NotRequired[HandChoice]  #: while the hands are chosen
    offered_hands: NotRequired[dict[str, list[str]]]  #: to the chooser only


# ----- 2v1 -------------------------------------------------------------------------------------
class HandsWon(TypedDict):
    lone: int
    duo: int


class LastHandView(TypedDict):
    """The last hand decided this round."""

    hand: int
    lone: list[str]  #: the lone player's face-up and face-down cards
    duo: list[list[int | str]]  #: ``[seat, card]`` of each duo member
    lone_value: int
    duo_value: int
    lone_reason: str  #: "same suit", "rainbow doubles", ...
    duo_reason: str
    winner: str  #: "lone" or "duo"
    returned: str | None  #: the card back in the lone hand (``None``: not yet, or secret)
    returned_public: bool


class TwoVOneObservation(Observation):
    coins: list[int]
    coins_to_win: int
    phase: str  #: bid, raise, exchange, discard, lead, hide, follow, keep, over
    bids: list[list[int]]  #: ``[seat, bid]`` this bidding round (0 is a pass)
    high_bid: int | None
    high_seat: int | None
    rainbow_holder: int | None  #: during the bidding and the exchange
    rainbow_passes: int
    forced: bool  #: the rainbow has gone round: somebody must bid
    eligible: list[bool]  #: who may bid (all but in a play-off)
    playoff: bool
    lone: int | None
    bid: int | None
    duo: list[int]
    hand_no: int
    hands_per_round: int
    hands_won: HandsWon
    lead: str | None  #: the face-up led card
    led_suit: str | None
    blindfold: bool
    my_choice: list[str] | None  #: the two cards this seat chose to pass (hidden)
    my_discard: str | None
    my_face_down: str | None
    received: list[str]  #: cards received in the exchange still in hand
    passed: list[str]  #: what this seat passed left in the last exchange
    last_hand: LastHandView | None
    keep_seat: int | None  #: who chooses the card that returns
    winners: list[int]


# ----- Twos tricks ---------------------------------------------------------------------------
class LastTrickView(TypedDict):
    number: int
    plays: list[list[int | str]]  #: ``[seat, card]`` in play order
    winner: int
    winning_card: str
    honours: int
    catches: list[list[int]]  #: ``[catcher, victim, points]``


class TwosTricksObservation(Observation):
    leader: int
    led_suit: str | None
    led_suit_glyph: str | None
    trick: list[list[int | str]]  #: ``[seat, card]`` in play order
    trick_by_seat: list[str | None]  #: each seat's card in the current trick
    trick_number: int
    tricks_taken: list[int]
    points: list[int]  #: this deal
    honours: list[int]
    catch_points: list[int]
    last_trick: LastTrickView | None
    played: list[str]  #: every card taken in a trick this deal
