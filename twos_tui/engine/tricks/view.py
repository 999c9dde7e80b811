"""Twos trick-taking's view: see :mod:`..views`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._view_common import GameView, common_fields, need
from .._view_json import (
    JsonObj,
    ViewError,
    Where,
    as_int,
    as_obj,
    as_seat_card,
    as_str,
    as_str_or_none,
    as_strs,
    items,
    opt,
    seat_card_json,
)


def _int(v: Any, where: Where) -> int:
    if type(v) is not int:
        raise ViewError(f"{where} should be a whole number")
    return v


def _catch(v: Any, where: Where) -> tuple[int, int, int]:
    if type(v) is not list or len(v) != 3 or any(type(x) is not int for x in v):
        raise ViewError(f"{where} should be [catcher, victim, points]")
    return v[0], v[1], v[2]


def _card_or_none(v: Any, where: Where) -> str | None:
    if v is not None and type(v) is not str:
        raise ViewError(f"{where} should be a card code or null")
    return v


@dataclass(frozen=True, slots=True)
class TrickLastView:
    """The trick finished last."""

    number: int
    plays: tuple[tuple[int, str], ...]  #: ``(seat, card)`` in play order
    winner: int
    winning_card: str
    honours: int
    catches: tuple[tuple[int, int, int], ...]  #: ``(catcher, victim, points)``

    @classmethod
    def from_json(cls, d: Any, where: Where) -> TrickLastView:
        o = as_obj(d, where)
        return cls(
            as_int(o, "number", where),
            items(o, "plays", where, as_seat_card),
            as_int(o, "winner", where),
            as_str(o, "winning_card", where),
            as_int(o, "honours", where),
            items(o, "catches", where, _catch),
        )

    def to_json(self) -> JsonObj:
        return {
            "number": self.number,
            "plays": [seat_card_json(p) for p in self.plays],
            "winner": self.winner,
            "winning_card": self.winning_card,
            "honours": self.honours,
            "catches": [list(c) for c in self.catches],
        }


_KEYS = (
    "leader",
    "led_suit",
    "led_suit_glyph",
    "trick",
    "trick_by_seat",
    "trick_number",
    "tricks_taken",
    "points",
    "honours",
    "catch_points",
    "last_trick",
    "played",
)


@dataclass(frozen=True, slots=True)
class TricksView(GameView):
    """Twos trick-taking's view (the keys of :class:`~..observation.TwosTricksObservation`)."""

    leader: int
    led_suit: str | None
    led_suit_glyph: str | None
    trick: tuple[tuple[int, str], ...]  #: ``(seat, card)`` in play order
    trick_by_seat: tuple[str | None, ...]  #: each seat's card in the current trick
    trick_number: int
    tricks_taken: tuple[int, ...]
    points: tuple[int, ...]  #: this deal
    honours: tuple[int, ...]
    catch_points: tuple[int, ...]
    last_trick: TrickLastView | None
    played: tuple[str, ...]  #: every card taken in a trick this deal

    @classmethod
    def from_json(cls, d: Any, public: bool = False) -> TricksView:
        o = as_obj(d, "observation")
        w = "observation"
        need(o, _KEYS, public)

        def ints(key: str) -> tuple[int, ...]:
            return opt(o, key, public, lambda: items(o, key, w, _int), ())

        return cls(
            **common_fields(o, public),
            leader=opt(o, "leader", public, lambda: as_int(o, "leader", w), 0),
            led_suit=opt(o, "led_suit", public, lambda: as_str_or_none(o, "led_suit", w), None),
            led_suit_glyph=opt(
                o, "led_suit_glyph", public, lambda: as_str_or_none(o, "led_suit_glyph", w), None
            ),
            trick=opt(o, "trick", public, lambda: items(o, "trick", w, as_seat_card), ()),
            trick_by_seat=opt(
                o, "trick_by_seat", public, lambda: items(o, "trick_by_seat", w, _card_or_none), ()
            ),
            trick_number=opt(o, "trick_number", public, lambda: as_int(o, "trick_number", w), 0),
            tricks_taken=ints("tricks_taken"),
            points=ints("points"),
            honours=ints("honours"),
            catch_points=ints("catch_points"),
            last_trick=(
                TrickLastView.from_json(o["last_trick"], f"{w}.last_trick")
                if o.get("last_trick") is not None
                else None
            ),
            played=opt(o, "played", public, lambda: as_strs(o, "played", w), ()),
        )

    def to_json(self) -> JsonObj:
        d = self._head_json()
        d["table"] = [t.to_json() for t in self.table]
        d.update(self._tail_json())
        d.update(
            {
                "leader": self.leader,
                "led_suit": self.led_suit,
                "led_suit_glyph": self.led_suit_glyph,
                "trick": [seat_card_json(p) for p in self.trick],
                "trick_by_seat": list(self.trick_by_seat),
                "trick_number": self.trick_number,
                "tricks_taken": list(self.tricks_taken),
                "points": list(self.points),
                "honours": list(self.honours),
                "catch_points": list(self.catch_points),
                "last_trick": None if self.last_trick is None else self.last_trick.to_json(),
                "played": list(self.played),
            }
        )
        return d
