"""2v1's view: see :mod:`..views`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._view_common import GameView, common_fields, need
from .._view_json import (
    JsonObj,
    ViewError,
    Where,
    as_bool,
    as_int,
    as_int_or_none,
    as_obj,
    as_seat_card,
    as_str,
    as_str_or_none,
    as_strs,
    items,
    opt,
    seat_card_json,
)


@dataclass(frozen=True, slots=True)
class HandsWon:
    lone: int
    duo: int

    @classmethod
    def from_json(cls, d: Any, where: Where) -> HandsWon:
        o = as_obj(d, where)
        return cls(as_int(o, "lone", where), as_int(o, "duo", where))

    def to_json(self) -> JsonObj:
        return {"lone": self.lone, "duo": self.duo}


@dataclass(frozen=True, slots=True)
class LastHandView:
    """The last hand decided this round."""

    hand: int
    lone: tuple[str, ...]  #: the lone player's face-up and face-down cards
    duo: tuple[tuple[int, str], ...]  #: ``(seat, card)`` of each duo member
    lone_value: int
    duo_value: int
    lone_reason: str  #: "same suit", "rainbow doubles", ...
    duo_reason: str
    winner: str  #: "lone" or "duo"
    returned: str | None  #: the card back in the lone hand (``None``: not yet, or secret)
    returned_public: bool

    @classmethod
    def from_json(cls, d: Any, where: Where) -> LastHandView:
        o = as_obj(d, where)
        return cls(
            as_int(o, "hand", where),
            as_strs(o, "lone", where),
            items(o, "duo", where, as_seat_card),
            as_int(o, "lone_value", where),
            as_int(o, "duo_value", where),
            as_str(o, "lone_reason", where),
            as_str(o, "duo_reason", where),
            as_str(o, "winner", where),
            as_str_or_none(o, "returned", where),
            as_bool(o, "returned_public", where),
        )

    def to_json(self) -> JsonObj:
        return {
            "hand": self.hand,
            "lone": list(self.lone),
            "duo": [seat_card_json(p) for p in self.duo],
            "lone_value": self.lone_value,
            "duo_value": self.duo_value,
            "lone_reason": self.lone_reason,
            "duo_reason": self.duo_reason,
            "winner": self.winner,
            "returned": self.returned,
            "returned_public": self.returned_public,
        }


def _int(v: Any, where: Where) -> int:
    if type(v) is not int:
        raise ViewError(f"{where} should be a whole number")
    return v


def _bool(v: Any, where: Where) -> bool:
    if type(v) is not bool:
        raise ViewError(f"{where} should be true or false")
    return v


def _bid(v: Any, where: Where) -> tuple[int, int]:
    if type(v) is not list or len(v) != 2 or any(type(x) is not int for x in v):
        raise ViewError(f"{where} should be a [seat, bid] pair")
    return v[0], v[1]


_KEYS = (
    "coins",
    "coins_to_win",
    "phase",
    "bids",
    "high_bid",
    "high_seat",
    "rainbow_holder",
    "rainbow_passes",
    "forced",
    "eligible",
    "playoff",
    "lone",
    "bid",
    "duo",
    "hand_no",
    "hands_per_round",
    "hands_won",
    "lead",
    "led_suit",
    "blindfold",
    "my_choice",
    "my_discard",
    "my_face_down",
    "received",
    "passed",
    "last_hand",
    "keep_seat",
    "winners",
)


@dataclass(frozen=True, slots=True)
class TwoVOneView(GameView):
    """2v1's view (the keys of :class:`~..observation.TwoVOneObservation`)."""

    coins: tuple[int, ...]
    coins_to_win: int
    phase: str  #: bid, raise, exchange, discard, lead, hide, follow, keep, over
    bids: tuple[tuple[int, int], ...]  #: ``(seat, bid)`` this bidding round (0: a pass)
    high_bid: int | None
    high_seat: int | None
    rainbow_holder: int | None  #: during the bidding and the exchange
    rainbow_passes: int
    forced: bool  #: the rainbow has gone round: somebody must bid
    eligible: tuple[bool, ...]  #: who may bid (all but in a play-off)
    playoff: bool
    lone: int | None
    bid: int | None
    duo: tuple[int, ...]
    hand_no: int
    hands_per_round: int
    hands_won: HandsWon
    lead: str | None  #: the face-up led card
    led_suit: str | None
    blindfold: bool
    my_choice: tuple[str, ...] | None  #: the two cards this seat chose to pass (hidden)
    my_discard: str | None
    my_face_down: str | None
    received: tuple[str, ...]  #: cards received in the exchange still in hand
    passed: tuple[str, ...]  #: what this seat passed left in the last exchange
    last_hand: LastHandView | None
    keep_seat: int | None  #: who chooses the card that returns
    winners: tuple[int, ...]

    @classmethod
    def from_json(cls, d: Any, public: bool = False) -> TwoVOneView:
        o = as_obj(d, "observation")
        w = "observation"
        need(o, _KEYS, public)

        def int_or_none(key: str) -> int | None:
            return opt(o, key, public, lambda: as_int_or_none(o, key, w), None)

        def str_or_none(key: str) -> str | None:
            return opt(o, key, public, lambda: as_str_or_none(o, key, w), None)

        def integer(key: str) -> int:
            return opt(o, key, public, lambda: as_int(o, key, w), 0)

        def flag(key: str) -> bool:
            return opt(o, key, public, lambda: as_bool(o, key, w), False)

        def cards(key: str) -> tuple[str, ...]:
            return opt(o, key, public, lambda: as_strs(o, key, w), ())

        def ints(key: str) -> tuple[int, ...]:
            return opt(o, key, public, lambda: items(o, key, w, _int), ())

        hands_won = o.get("hands_won")
        return cls(
            **common_fields(o, public),
            coins=ints("coins"),
            coins_to_win=integer("coins_to_win"),
            phase=opt(o, "phase", public, lambda: as_str(o, "phase", w), ""),
            bids=opt(o, "bids", public, lambda: items(o, "bids", w, _bid), ()),
            high_bid=int_or_none("high_bid"),
            high_seat=int_or_none("high_seat"),
            rainbow_holder=int_or_none("rainbow_holder"),
            rainbow_passes=integer("rainbow_passes"),
            forced=flag("forced"),
            eligible=opt(o, "eligible", public, lambda: items(o, "eligible", w, _bool), ()),
            playoff=flag("playoff"),
            lone=int_or_none("lone"),
            bid=int_or_none("bid"),
            duo=ints("duo"),
            hand_no=integer("hand_no"),
            hands_per_round=integer("hands_per_round"),
            hands_won=(
                HandsWon(0, 0)
                if public and not hands_won
                else HandsWon.from_json(hands_won, f"{w}.hands_won")
            ),
            lead=str_or_none("lead"),
            led_suit=str_or_none("led_suit"),
            blindfold=flag("blindfold"),
            my_choice=as_strs(o, "my_choice", w) if o.get("my_choice") is not None else None,
            my_discard=str_or_none("my_discard"),
            my_face_down=str_or_none("my_face_down"),
            received=cards("received"),
            passed=cards("passed"),
            last_hand=(
                LastHandView.from_json(o["last_hand"], f"{w}.last_hand")
                if o.get("last_hand")
                else None
            ),
            keep_seat=int_or_none("keep_seat"),
            winners=ints("winners"),
        )

    def to_json(self) -> JsonObj:
        d = self._head_json()
        d["coins"] = list(self.coins)
        d["coins_to_win"] = self.coins_to_win
        d["table"] = [t.to_json() for t in self.table]
        d.update(self._tail_json())
        d.update(
            {
                "phase": self.phase,
                "bids": [list(b) for b in self.bids],
                "high_bid": self.high_bid,
                "high_seat": self.high_seat,
                "rainbow_holder": self.rainbow_holder,
                "rainbow_passes": self.rainbow_passes,
                "forced": self.forced,
                "eligible": list(self.eligible),
                "playoff": self.playoff,
                "lone": self.lone,
                "bid": self.bid,
                "duo": list(self.duo),
                "hand_no": self.hand_no,
                "hands_per_round": self.hands_per_round,
                "hands_won": self.hands_won.to_json(),
                "lead": self.lead,
                "led_suit": self.led_suit,
                "blindfold": self.blindfold,
                "my_choice": None if self.my_choice is None else list(self.my_choice),
                "my_discard": self.my_discard,
                "my_face_down": self.my_face_down,
                "received": list(self.received),
                "passed": list(self.passed),
                "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
                "keep_seat": self.keep_seat,
                "winners": list(self.winners),
            }
        )
        return d
