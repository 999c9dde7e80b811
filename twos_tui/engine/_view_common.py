"""The parts every family's view shares (see :mod:`.views`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from ._view_json import (
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
    seat_card_json,
)

Cards = tuple[str, ...]
SeatCard = tuple[int, str]
T = TypeVar("T")


# ----- the parts every family shares ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableEntry:
    """Cards on the table beside a seat (hidden cards are ``"??"``)."""

    seat: int
    cards: Cards
    label: str | None = None  #: a few words ("led", "face down", ...); trick games
    kind: str | None = None  #: the combination's kind ("pair", ...); climbing games

    @classmethod
    def from_json(cls, d: Any, where: Where) -> TableEntry:
        o = as_obj(d, where)
        return cls(
            as_int(o, "seat", where),
            as_strs(o, "cards", where),
            as_str_or_none(o, "label", where) if "label" in o else None,
            as_str_or_none(o, "kind", where) if "kind" in o else None,
        )

    def to_json(self) -> JsonObj:
        d: JsonObj = {"seat": self.seat, "cards": list(self.cards)}
        if self.label is not None:
            d["label"] = self.label
        if self.kind is not None:
            d["kind"] = self.kind
        return d


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the public log (a chat line at a table is one too: ``kind`` "chat").
    Only ``seat``, ``text`` and ``deal`` are always there; the rest is ``None`` where the
    line does not carry it."""

    seat: int | None  #: who it is about (``None``: nobody in particular)
    text: str  #: the line as a player reads it
    deal: int | None  #: the deal it belongs to (a chat line may have none)
    kind: str | None = None  #: "deal", "play", "pass", "bid", "trick", "chat", ...
    cards: Cards | None = None  #: the cards played (climbing)
    combo: str | None = None  #: their combination's kind (climbing)
    bomb: bool | None = None  #: whether it was a bomb (climbing)
    card: str | None = None  #: the card played or returned (trick games)
    winner: int | str | None = None  #: a trick's winner seat; "lone" or "duo" (2v1)
    bid: int | None = None  #: a bid, 0 for a pass (2v1)
    hand: int | None = None  #: the hand's number (2v1)
    lone_value: int | None = None
    duo_value: int | None = None
    lone_cards: Cards | None = None
    duo_cards: tuple[SeatCard, ...] | None = None
    anchor: int | None = None  #: a chat line: how long the log was when it was said

    @property
    def by(self) -> int:
        """The seat of a line about a seat (a play, a pass, a bid...)."""
        if self.seat is None:
            raise ViewError(f"the log line {self.text!r} is about no seat")
        return self.seat

    @property
    def played(self) -> Cards:
        """The cards of a play (none for another line)."""
        return self.cards or ()

    @classmethod
    def from_json(cls, d: Any, where: Where) -> LogLine:
        o = as_obj(d, where)
        if "seat" in o and o["seat"] is not None and type(o["seat"]) is not int:
            raise ViewError(f"{where}.seat should be a seat number or null")
        winner = o.get("winner")
        if winner is not None and type(winner) not in (int, str):
            raise ViewError(f"{where}.winner should be a seat number or a side")
        bomb = o.get("bomb")
        if bomb is not None and type(bomb) is not bool:
            raise ViewError(f"{where}.bomb should be true or false")
        return cls(
            o.get("seat"),
            as_str(o, "text", where),
            as_int_or_none(o, "deal", where) if "deal" in o else None,
            as_str_or_none(o, "kind", where) if "kind" in o else None,
            as_strs(o, "cards", where) if o.get("cards") is not None else None,
            as_str_or_none(o, "combo", where) if "combo" in o else None,
            bomb,
            as_str_or_none(o, "card", where) if "card" in o else None,
            winner,
            as_int_or_none(o, "bid", where) if "bid" in o else None,
            as_int_or_none(o, "hand", where) if "hand" in o else None,
            as_int_or_none(o, "lone_value", where) if "lone_value" in o else None,
            as_int_or_none(o, "duo_value", where) if "duo_value" in o else None,
            as_strs(o, "lone_cards", where) if o.get("lone_cards") is not None else None,
            (
                items(o, "duo_cards", where, as_seat_card)
                if o.get("duo_cards") is not None
                else None
            ),
            as_int_or_none(o, "anchor", where) if "anchor" in o else None,
        )

    def to_json(self) -> JsonObj:
        d: JsonObj = {"seat": self.seat, "text": self.text, "deal": self.deal}
        if self.kind is not None:
            d["kind"] = self.kind
        if self.cards is not None:
            d["cards"] = list(self.cards)
        if self.combo is not None:
            d["combo"] = self.combo
        if self.bomb is not None:
            d["bomb"] = self.bomb
        if self.card is not None:
            d["card"] = self.card
        if self.winner is not None:
            d["winner"] = self.winner
        if self.bid is not None:
            d["bid"] = self.bid
        if self.hand is not None:
            d["hand"] = self.hand
        if self.lone_value is not None:
            d["lone_value"] = self.lone_value
        if self.duo_value is not None:
            d["duo_value"] = self.duo_value
        if self.lone_cards is not None:
            d["lone_cards"] = list(self.lone_cards)
        if self.duo_cards is not None:
            d["duo_cards"] = [seat_card_json(p) for p in self.duo_cards]
        if self.anchor is not None:
            d["anchor"] = self.anchor
        return d


@dataclass(frozen=True, slots=True)
class DealScore:
    """One finished deal on the match's score sheet."""

    deal: int
    changes: tuple[int, ...]  #: each seat's change in that deal
    totals: tuple[int, ...]  #: each seat's total after it

    @classmethod
    def from_json(cls, d: Any, where: Where) -> DealScore:
        o = as_obj(d, where)
        return cls(
            as_int(o, "deal", where),
            items(o, "changes", where, _int_item),
            items(o, "totals", where, _int_item),
        )

    def to_json(self) -> JsonObj:
        return {"deal": self.deal, "changes": list(self.changes), "totals": list(self.totals)}


def _int_item(v: Any, where: Where) -> int:
    if type(v) is not int:
        raise ViewError(f"{where} should be a whole number")
    return v


def _str_item(v: Any, where: Where) -> str:
    if type(v) is not str:
        raise ViewError(f"{where} should be text")
    return v


def _tags_item(v: Any, where: Where) -> tuple[str, ...]:
    if type(v) is not list:
        raise ViewError(f"{where} should be a list of words")
    return tuple(_str_item(x, f"{where}[{i}]") for i, x in enumerate(v))


@dataclass(frozen=True, slots=True)
class GameView:
    """What every family's view holds: whose view it is and the state every seat sees
    (the keys of :class:`~.observation.Observation`). ``seat`` is ``None`` in a public
    view (a spectator's, with no hand)."""

    variant: str
    family: str  #: "climbing" or "trick"
    seat: int | None  #: whose view this is (``None``: the public view)
    players: int
    names: tuple[str, ...]
    hand: Cards  #: this seat's cards (codes); empty in a public view
    hand_counts: tuple[int, ...]  #: cards in each seat's hand
    to_act: tuple[int, ...]  #: the seats asked to act now
    dealer: int
    deal_number: int
    totals: tuple[int, ...]  #: the match score of each seat
    table: tuple[TableEntry, ...]
    seat_tags: tuple[tuple[str, ...], ...]  #: per seat: "dealer", "passed", "lone", ...
    history: tuple[LogLine, ...]  #: the public log
    status: str  #: one line about the state of play
    deal_over: bool
    match_over: bool
    #: the house rules in force, by option id (each option has its own value type)
    options: JsonObj
    deal_scores: tuple[DealScore, ...]  #: every finished deal, oldest first

    @property
    def me(self) -> int:
        """The seat of a seat's own view (a public view has none: an error to ask)."""
        if self.seat is None:
            raise ViewError("a public view belongs to no seat")
        return self.seat

    @property
    def public(self) -> bool:
        """Whether this is the public view (a spectator's)."""
        return self.seat is None

    def to_json(self) -> JsonObj:  # pragma: no cover - each family writes its own
        raise NotImplementedError

    def _head_json(self) -> JsonObj:
        return {
            "variant": self.variant,
            "family": self.family,
            "seat": self.seat,
            "players": self.players,
            "names": list(self.names),
            "hand": list(self.hand),
            "hand_counts": list(self.hand_counts),
            "to_act": list(self.to_act),
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "totals": list(self.totals),
        }

    def _tail_json(self) -> JsonObj:
        return {
            "seat_tags": [list(t) for t in self.seat_tags],
            "history": [h.to_json() for h in self.history],
            "status": self.status,
            "deal_over": self.deal_over,
            "match_over": self.match_over,
            "options": dict(self.options),
            "deal_scores": [s.to_json() for s in self.deal_scores],
        }


def common_fields(o: JsonObj, public: bool) -> dict[str, Any]:
    """The keyword arguments of :class:`GameView`'s fields read from ``o`` (a public
    view: what is missing is blank)."""
    w = "observation"

    def get(key: str, read: Callable[[], Any], blank: Any) -> Any:
        return blank if public and key not in o else read()

    seat = o.get("seat")
    if seat is not None and type(seat) is not int:
        raise ViewError("observation.seat should be a seat number")
    if seat is None and not public and "seat" not in o:
        raise ViewError("observation.seat is missing")
    options: JsonObj = get("options", lambda: as_obj(o.get("options"), f"{w}.options"), {})
    return {
        "variant": as_str(o, "variant", w),
        "family": get("family", lambda: as_str(o, "family", w), ""),
        "seat": seat,
        "players": as_int(o, "players", w),
        "names": get("names", lambda: as_strs(o, "names", w), ()),
        "hand": get("hand", lambda: as_strs(o, "hand", w), ()),
        "hand_counts": get("hand_counts", lambda: items(o, "hand_counts", w, _int_item), ()),
        "to_act": get("to_act", lambda: items(o, "to_act", w, _int_item), ()),
        "dealer": get("dealer", lambda: as_int(o, "dealer", w), 0),
        "deal_number": get("deal_number", lambda: as_int(o, "deal_number", w), 0),
        "totals": get("totals", lambda: items(o, "totals", w, _int_item), ()),
        "table": get("table", lambda: items(o, "table", w, TableEntry.from_json), ()),
        "seat_tags": get("seat_tags", lambda: items(o, "seat_tags", w, _tags_item), ()),
        "history": get("history", lambda: items(o, "history", w, LogLine.from_json), ()),
        "status": get("status", lambda: as_str(o, "status", w), ""),
        "deal_over": get("deal_over", lambda: as_bool(o, "deal_over", w), False),
        "match_over": get("match_over", lambda: as_bool(o, "match_over", w), False),
        "options": dict(options),
        "deal_scores": get(
            "deal_scores", lambda: items(o, "deal_scores", w, DealScore.from_json), ()
        ),
    }


def need(o: JsonObj, keys: tuple[str, ...], public: bool) -> None:
    """A seat's view has every key of its family (a public view may lack some)."""
    if not public:
        for k in keys:
            if k not in o:
                raise ViewError(f"observation.{k} is missing")


# ----- the views a game builds from its own state (trusted: no field checks) -------------
def log_line(d: Mapping[str, Any]) -> LogLine:
    """The typed line of one of a game's own log entries (:meth:`LogLine.from_json`
    without the checks: the engine wrote it)."""
    g = d.get
    cards = g("cards")
    lone = g("lone_cards")
    duo = g("duo_cards")
    return LogLine(
        g("seat"),
        d["text"],
        g("deal"),
        g("kind"),
        None if cards is None else tuple(cards),
        g("combo"),
        g("bomb"),
        g("card"),
        g("winner"),
        g("bid"),
        g("hand"),
        g("lone_value"),
        g("duo_value"),
        None if lone is None else tuple(lone),
        None if duo is None else tuple((p[0], p[1]) for p in duo),
        g("anchor"),
    )


V = TypeVar("V")


def slot_maker(view: type[V]) -> Callable[..., V]:
    """``view(**fields)`` for a frozen slotted dataclass, setting its slots straight: a
    view is made every move, and the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` call a field) is most of its cost. Every field by keyword, no
    defaults and no checks: for the views a game builds from its own state."""
    names = [f.name for f in fields(view)]  # type: ignore[arg-type]
    env: dict[str, object] = {f"set_{n}": getattr(view, n).__set__ for n in names}
    env.update(new=object.__new__, View=view)
    src = (
        f"def make(*, {', '.join(names)}):\n    v = new(View)\n"
        + "".join(f"    set_{n}(v, {n})\n" for n in names)
        + "    return v\n"
    )
    exec(src, env)  # noqa: S102 - code made from the dataclass's own field names
    made = env["make"]
    assert callable(made)
    return made


class Mirror(Generic[T]):
    """The typed copy of a list a game only appends to (its log, the trick, the score
    sheet), kept up as the list grows: each entry is made once, not once per view.

    The list may be replaced or cleared (a new trick, a loaded game): the copy starts
    again when the list is shorter than what was copied or its first or last copied
    entry is no longer the same object (entries are never edited in place). ``make``
    may return ``None`` to leave an entry out (the table shows the plays of a trick, not
    its passes)."""

    __slots__ = ("_make", "_out", "_seen", "_tuple")

    def __init__(self, make: Callable[[Any], T | None]) -> None:
        self._make = make
        self._seen: list[object] = []  #: the entries copied so far (the list's, as they are)
        self._out: list[T] = []
        self._tuple: tuple[T, ...] = ()

    def of(self, src: Sequence[Any]) -> tuple[T, ...]:
        seen = self._seen
        n = len(seen)
        if n > len(src) or (n and (src[n - 1] is not seen[n - 1] or src[0] is not seen[0])):
            seen.clear()
            self._out.clear()
            self._tuple = ()
            n = 0
        if n == len(src):
            return self._tuple
        make = self._make
        out = self._out
        for d in src[n:]:
            seen.append(d)
            t = make(d)
            if t is not None:
                out.append(t)
        self._tuple = tuple(out)
        return self._tuple


def deal_score_of(r: Any) -> DealScore:
    """The score sheet's line of a :class:`~.protocol.DealResult`."""
    return DealScore(r.deal_number, tuple(r.changes), tuple(r.totals))


class ViewCache:
    """What a game keeps between views: the typed copies of its log and score sheet
    (each family adds its own mirrors)."""

    __slots__ = ("history", "scores")

    def __init__(self) -> None:
        self.history: Mirror[LogLine] = Mirror(log_line)
        self.scores: Mirror[DealScore] = Mirror(deal_score_of)
