"""The network messages as types: one frozen dataclass per message type.

:func:`~.protocol.decode_client` checks a message's text at the door and makes it one
of these (or refuses it with a reason); the host's dispatcher
(:mod:`~.dispatch`) picks a handler by the message's class. A client message of one of
these types has passed the door (the checks are in :mod:`~.protocol`). The host's own
messages are types too (:class:`ServerMessage`: a state, a chat line, a welcome, an
answer, a refusal, a goodbye), made on the host and encoded from them.

The host's messages are read the same way on the client (:func:`~.protocol.decode_server`
makes each one of :data:`HostMessage` with its ``from_json``, or refuses it with the
reason): a ``state`` carries the engine's typed view (:mod:`twos_tui.engine.views`), its
log as typed lines, the seats as :class:`SeatEntry`; a ``chat`` line is a
:class:`ChatLine`. The client trusts its host for what a message means, not for its
shape: a field of the wrong kind is refused at the door, a field it does not know is
ignored, a field left out takes its blank.

Frozen dataclasses (not msgspec Structs): small types of a few fields each, made once
per message after our own checks (which word every refusal in our own
words), so a decoder library would add a dependency and no speed worth having.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import ClassVar, Literal, TypeVar

from ...engine import Action, Decision
from ...engine.protocol import DealResult
from ...engine.views import AnyView, LogLine, ViewError, view_from_json
from ...jsontypes import JsonObject, JsonValue
from ..seat_view import REMOTE, SeatInfo
from ..turn_clock import ClockState, SeatClock

PROTOCOL_VERSION = 1  #: the version this code speaks

#: a request id: a whole number or a short text the client chose (or none)
RequestId = int | str | None

Role = Literal["player", "watch"]


@dataclass(frozen=True, kw_only=True)
class ClientMessage:
    """What every client message has: the protocol version ``v`` of the sender and its
    request ``id`` (the answer or refusal carries it back)."""

    TYPE: ClassVar[str] = ""

    v: int = PROTOCOL_VERSION
    id: RequestId = None

    def to_json(self) -> JsonObject:
        """The message as the wire carries it (a field left at ``None`` left out):
        ``decode_client(encode(m.to_json())) == m``."""
        out: JsonObject = {"v": self.v, "type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "v" and value is not None:
                out[f.name] = value.to_json() if isinstance(value, Action) else value
        return out


@dataclass(frozen=True, kw_only=True)
class Hello(ClientMessage):
    """The first message: the client's protocol version (and its name, if it gives one)."""

    TYPE: ClassVar[str] = "hello"

    client: str = ""


@dataclass(frozen=True, kw_only=True)
class Join(ClientMessage):
    """Join the table with ``code``: a new player (``name``), a player back (``token``),
    or a spectator (``role`` "watch")."""

    TYPE: ClassVar[str] = "join"

    code: str
    name: str | None = None
    token: str | None = None
    role: Role = "player"


@dataclass(frozen=True, kw_only=True)
class Act(ClientMessage):
    """Play ``action``; ``n``: the move counter it was chosen at (a move meant for an
    earlier position is refused as stale)."""

    TYPE: ClassVar[str] = "act"

    action: Action
    n: int | None = None


@dataclass(frozen=True, kw_only=True)
class Check(ClientMessage):
    """Would ``action`` be legal? (The answer is the reason it is not, or null.)"""

    TYPE: ClassVar[str] = "check"

    action: Action


@dataclass(frozen=True, kw_only=True)
class Describe(ClientMessage):
    """``action`` in words (null if it is not legal)."""

    TYPE: ClassVar[str] = "describe"

    action: Action


@dataclass(frozen=True, kw_only=True)
class Ready(ClientMessage):
    """Ready for the next deal; ``deal``: the number of the deal that ended."""

    TYPE: ClassVar[str] = "ready"

    deal: int | None = None


@dataclass(frozen=True, kw_only=True)
class Ping(ClientMessage):
    """Is the host there? (The answer is "pong".)"""

    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class Leave(ClientMessage):
    """The client goes (the host says goodbye and closes)."""

    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, kw_only=True)
class Chat(ClientMessage):
    """One chat line, already cleaned at the door (never empty)."""

    TYPE: ClassVar[str] = "chat"

    text: str


@dataclass(frozen=True, kw_only=True)
class Watch(ClientMessage):
    """A player leaves their seat to watch (the seat is held for them)."""

    TYPE: ClassVar[str] = "watch"


@dataclass(frozen=True, kw_only=True)
class Sit(ClientMessage):
    """A spectator takes the first free seat (as ``name``)."""

    TYPE: ClassVar[str] = "sit"

    name: str | None = None


#: every client message type, by its ``type`` on the wire
CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    cls.TYPE: cls
    for cls in (Hello, Join, Act, Ready, Check, Describe, Ping, Leave, Chat, Watch, Sit)
}


# ----- the host's messages: made as types on the host, encoded from them, and read back
# into the same types on the client ------------------------------------------------------------
class Unreadable(ValueError):
    """A host's message whose shape this version cannot read: the reason says which field
    and why (the client sets the message aside, :func:`~.protocol.decode_server`)."""


_T = TypeVar("_T")


def _field(d: Mapping[str, JsonValue], key: str, default: _T, ok: Callable[[object], bool]) -> _T:
    """``d[key]`` if ``ok`` says it is of its kind, ``default`` when it is missing (or
    null); :class:`Unreadable` when it is of another kind."""
    v = d.get(key)
    if v is None:
        return default
    if not ok(v):
        raise Unreadable(f"its {key} is not what this version reads")
    return v  # type: ignore[return-value]  # ``ok`` checked its kind


def _is_int(v: object) -> bool:
    return type(v) is int


def _is_str(v: object) -> bool:
    return type(v) is str


def _is_bool(v: object) -> bool:
    return type(v) is bool


def _is_num(v: object) -> bool:
    return type(v) in (int, float)


def _is_ints(v: object) -> bool:
    return type(v) is list and all(type(x) is int for x in v)


def _ints(d: Mapping[str, JsonValue], key: str) -> tuple[int, ...]:
    return tuple(_field(d, key, [], _is_ints))


def _int_or_none(d: Mapping[str, JsonValue], key: str) -> int | None:
    v = d.get(key)
    if v is not None and type(v) is not int:
        raise Unreadable(f"its {key} is not a whole number")
    return v


def _objects(d: Mapping[str, JsonValue], key: str) -> list[JsonObject]:
    """A list of objects (each still to be read by its own type)."""
    v = d.get(key)
    if v is None:
        return []
    if type(v) is not list or any(type(x) is not dict for x in v):
        raise Unreadable(f"its {key} is not a list of objects")
    return [x for x in v if isinstance(x, dict)]


def _made(what: str, make: Callable[[], _T]) -> _T:
    """``make()``, an engine type read from its JSON (those readers trust their input): a
    key missing or of the wrong kind is :class:`Unreadable`."""
    try:
        return make()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise Unreadable(f"its {what} is not what this version reads") from None


@dataclass(frozen=True, kw_only=True)
class ServerMessage:
    """A message of the host, made as a type and encoded from it
    (:func:`~.protocol.encode` takes one), read back on the client by ``from_json``."""

    TYPE: ClassVar[str] = ""
    #: fields left out of the wire when they are ``None``
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def to_json(self) -> JsonObject:
        out: JsonObject = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self.OPTIONAL:
                continue
            out[f.name] = value.to_json() if isinstance(value, TableInfo) else value
        return out


def _rid(d: Mapping[str, JsonValue]) -> RequestId:
    v = d.get("id")
    if v is None or type(v) in (int, str):
        return v  # type: ignore[return-value]  # checked just above
    raise Unreadable("its id is not a number or a text")


@dataclass(frozen=True, kw_only=True)
class Answer(ServerMessage):
    """The answer to request ``id`` of type ``kind`` (its ``result``, or null)."""

    TYPE: ClassVar[str] = "answer"

    id: RequestId
    kind: str
    result: str | None = None

    @classmethod
    def from_json(cls, d: JsonObject) -> Answer:
        return cls(
            id=_rid(d),
            kind=_field(d, "kind", "", _is_str),
            result=_field(d, "result", None, _is_str),
        )


@dataclass(frozen=True, kw_only=True)
class Error(ServerMessage):
    """A refused message: the error ``code`` and the ``reason`` in words (and the
    request's ``id``, if it had one)."""

    TYPE: ClassVar[str] = "error"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"id"})

    code: str
    reason: str
    id: RequestId = None

    @classmethod
    def from_json(cls, d: JsonObject) -> Error:
        return cls(
            code=_field(d, "code", "", _is_str),
            reason=_field(d, "reason", "", _is_str),
            id=_rid(d),
        )


@dataclass(frozen=True, kw_only=True)
class Bye(ServerMessage):
    """The host closes this connection, saying why."""

    TYPE: ClassVar[str] = "bye"

    reason: str

    @classmethod
    def from_json(cls, d: JsonObject) -> Bye:
        return cls(reason=_field(d, "reason", "", _is_str))


@dataclass(frozen=True, kw_only=True)
class TableInfo:
    """What a welcome says of the table."""

    variant: str
    players: int
    options: JsonObject
    names: list[str]
    hold_s: float
    can_sit: bool

    def to_json(self) -> JsonObject:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "names": list[JsonValue](self.names),
            "hold_s": self.hold_s,
            "can_sit": self.can_sit,
        }

    @classmethod
    def from_json(cls, v: JsonValue) -> TableInfo:
        if not isinstance(v, dict):
            raise Unreadable("its table is not an object")
        variant, players = v.get("variant"), v.get("players")
        if type(variant) is not str or type(players) is not int:
            raise Unreadable("its table does not say the game and the players")
        names: list[JsonValue] = _field(
            v, "names", [], lambda x: type(x) is list and all(map(_is_str, x))
        )
        return cls(
            variant=variant,
            players=players,
            options=_field(v, "options", {}, lambda x: type(x) is dict),
            names=[n for n in names if isinstance(n, str)],
            hold_s=float(_field(v, "hold_s", 0.0, _is_num)),
            can_sit=_field(v, "can_sit", False, _is_bool),
        )


@dataclass(frozen=True, kw_only=True)
class Welcome(ServerMessage):
    """The answer to a join (and to a spectator's ``sit``): the table, the seat and its
    reconnect ``token`` (a spectator: ``role`` "watch", no seat, no token; ``note``
    when a player was made a spectator because the table is full)."""

    TYPE: ClassVar[str] = "welcome"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"token", "note"})

    id: RequestId
    role: Role
    seat: int | None
    code: str
    table: TableInfo
    token: str | None = None
    note: str | None = None

    @classmethod
    def from_json(cls, d: JsonObject) -> Welcome:
        seat = _int_or_none(d, "seat")
        token = _field(d, "token", None, _is_str)
        watch = d.get("role") == "watch" or seat is None
        if not watch and token is None:
            raise Unreadable("it gives a seat without its token")
        return cls(
            id=_rid(d),
            role="watch" if watch else "player",
            seat=None if watch else seat,
            code=_field(d, "code", "", _is_str),
            table=TableInfo.from_json(d.get("table")),
            token=None if watch else token,
            note=_field(d, "note", None, _is_str),
        )


@dataclass(frozen=True, kw_only=True)
class ChatLine(ServerMessage):
    """One chat line at a table, from ``seat`` (``None``: a spectator or the host's
    screen) as ``name``; ``at``: when (Unix time), ``deal``: the deal it was said in."""

    TYPE: ClassVar[str] = "chat"

    seat: int | None
    name: str
    watching: bool
    text: str
    at: float
    deal: int | None

    @classmethod
    def from_json(cls, d: JsonObject) -> ChatLine:
        seat = d.get("seat")
        return cls(
            seat=seat if type(seat) is int else None,
            name=_field(d, "name", "", _is_str),
            watching=bool(d.get("watching")),
            text=_field(d, "text", "", _is_str),
            at=float(_field(d, "at", 0.0, _is_num)),
            deal=_int_or_none(d, "deal"),
        )

    def log_line(self, anchor: int, name: str | None = None, text: str | None = None) -> LogLine:
        """The line as a table's log shows it (``kind`` "chat"), ``anchor``: how long the
        log was when it came. ``name``, ``text``: as cleaned for the screen."""
        who = name if name is not None else self.name
        if self.watching:
            who = f"{who} (watching)"
        said = text if text is not None else self.text
        return LogLine(self.seat, f"Chat · {who}: {said}", self.deal, kind="chat", anchor=anchor)


@dataclass(frozen=True, kw_only=True)
class SeatEntry:
    """One seat as a ``state`` tells it: who sits there (:class:`SeatInfo`'s facts) and
    what the host holds for it (``ai_plays``: the AI took it over; ``hold_left``: seconds
    its hold has left; ``free``: nobody has claimed it)."""

    name: str
    kind: str = REMOTE
    level: str = ""
    connected: bool = True
    note: str = ""
    ai_plays: bool = False
    hold_left: float = 0.0
    free: bool = False

    @classmethod
    def of(cls, info: SeatInfo, ai_plays: bool, hold_left: float, free: bool) -> SeatEntry:
        return cls(
            name=info.name,
            kind=info.kind,
            level=info.level,
            connected=info.connected,
            note=info.note,
            ai_plays=ai_plays,
            hold_left=hold_left,
            free=free,
        )

    def to_json(self) -> JsonObject:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "connected": self.connected,
            "note": self.note,
            "ai_plays": self.ai_plays,
            "hold_left": self.hold_left,
            "free": self.free,
        }

    @classmethod
    def from_json(cls, d: JsonObject) -> SeatEntry:
        return cls(
            name=_field(d, "name", "", _is_str),
            kind=_field(d, "kind", REMOTE, _is_str),
            level=_field(d, "level", "", _is_str),
            connected=_field(d, "connected", True, _is_bool),
            note=_field(d, "note", "", _is_str),
            ai_plays=_field(d, "ai_plays", False, _is_bool),
            hold_left=float(_field(d, "hold_left", 0.0, _is_num)),
            free=_field(d, "free", False, _is_bool),
        )


def clock_to_json(clock: ClockState) -> JsonObject:
    """A ``state``'s ``clock``: the rule and, per seat, its clock (seconds rounded to
    a tenth)."""
    return {
        "per_move": clock.per_move,
        "bank": clock.bank,
        "seats": [
            {
                "timed": s.timed,
                "running": s.running,
                "move_left": round(s.move_left, 1),
                "bank_left": round(s.bank_left, 1),
            }
            for s in clock.seats
        ],
    }


def _seconds_of(d: Mapping[str, JsonValue], key: str) -> float:
    """A number of seconds: finite, not below 0 (a day at most)."""
    v = float(_field(d, key, 0.0, _is_num))
    if not 0 <= v <= 86400:
        raise Unreadable(f"its clock's {key} is not a number of seconds")
    return v


def clock_from_json(v: JsonValue, seats: int) -> ClockState | None:
    """A ``state``'s ``clock`` read at the door: null or missing is no clock; an
    object with a rule and one clock per seat of the state (``seats``), each of seconds
    from 0 to a day; anything else is :class:`Unreadable`."""
    if v is None:
        return None
    if type(v) is not dict:
        raise Unreadable("its clock is not an object")
    per_move, bank = _seconds_of(v, "per_move"), _seconds_of(v, "bank")
    rows = _objects(v, "seats")
    if len(rows) != seats:
        raise Unreadable("its clock does not have one clock per seat")
    out = []
    for row in rows:
        out.append(
            SeatClock(
                timed=_field(row, "timed", True, _is_bool),
                running=_field(row, "running", False, _is_bool),
                move_left=_seconds_of(row, "move_left"),
                bank_left=_seconds_of(row, "bank_left"),
            )
        )
    return ClockState(per_move=per_move, bank=bank, seats=tuple(out))


@dataclass(frozen=True, kw_only=True)
class State(ServerMessage):
    """The table as one connection may see it: ``seat``'s own view (``seat`` null: the
    public view a spectator gets), the position (``n`` moves, ``deal``), who acts, this
    seat's decision and legal moves (none for a spectator), the log entries it has not
    been sent yet (``log`` from entry ``log_from`` of its log), the scores, the seats and
    what the table waits for. ``observation`` is the engine's typed view without its log
    (the log travels beside it); ``can_sit``: a spectator's state says whether a seat is
    free."""

    TYPE: ClassVar[str] = "state"

    seat: int | None
    n: int
    deal: int
    deal_over: bool
    match_over: bool
    to_act: tuple[int, ...]
    decision: Decision | None
    legal: tuple[Action, ...]
    observation: AnyView
    log_from: int
    log: tuple[LogLine, ...]
    totals: tuple[int, ...]
    results: tuple[DealResult, ...]
    seats: tuple[SeatEntry, ...]
    ready: tuple[int, ...]
    waiting: str | None
    watching: int
    can_sit: bool | None = None
    #: the turn clock (``None``: the table has none)
    clock: ClockState | None = None

    def to_json(self) -> JsonObject:
        obs = self.observation.to_json()
        obs.pop("history", None)  # the log travels beside it
        out: JsonObject = {
            "type": self.TYPE,
            "seat": self.seat,
            "n": self.n,
            "deal": self.deal,
            "deal_over": self.deal_over,
            "match_over": self.match_over,
            "to_act": list[JsonValue](self.to_act),
            "decision": self.decision.to_json() if self.decision else None,
            "legal": [a.to_json() for a in self.legal],
            "observation": obs,
            "log_from": self.log_from,
            "log": [e.to_json() for e in self.log],
            "totals": list[JsonValue](self.totals),
            "results": [r.to_json() for r in self.results],
            "seats": [s.to_json() for s in self.seats],
            "ready": list[JsonValue](self.ready),
            "waiting": self.waiting,
            "watching": self.watching,
        }
        if self.can_sit is not None:
            out["can_sit"] = self.can_sit
        if self.clock is not None:
            out["clock"] = clock_to_json(self.clock)
        return out

    @classmethod
    def from_json(cls, d: JsonObject) -> State:
        """The state a host sent: the observation read into the typed view of its family
        (a seat's own, or the public one when ``seat`` is null, read with what it lacks
        left blank), which must be the view of the seat the state is for."""
        seat = _int_or_none(d, "seat")
        obs = d.get("observation")
        if not isinstance(obs, dict):
            raise Unreadable("its observation should be an object")
        try:
            view = view_from_json({**obs, "history": []}, public=seat is None)
        except ViewError as e:
            raise Unreadable(str(e)) from None
        if seat is not None and view.seat != seat:
            raise Unreadable("its observation is of another seat")
        decision = d.get("decision")
        waiting = d.get("waiting")
        return cls(
            seat=seat,
            n=_field(d, "n", 0, _is_int),
            deal=_field(d, "deal", 0, _is_int),
            deal_over=_field(d, "deal_over", False, _is_bool),
            match_over=_field(d, "match_over", False, _is_bool),
            to_act=_ints(d, "to_act"),
            decision=(
                _made("decision", lambda: Decision.from_json(decision))
                if isinstance(decision, dict)
                else None
            ),
            legal=tuple(
                _made("legal", lambda: [Action.from_json(a) for a in _objects(d, "legal")])
            ),
            observation=view,
            log_from=_field(d, "log_from", 0, _is_int),
            log=_made(
                "log", lambda: tuple(LogLine.from_json(e, "log") for e in _objects(d, "log"))
            ),
            totals=_ints(d, "totals"),
            results=tuple(
                _made("results", lambda: [DealResult.from_json(r) for r in _objects(d, "results")])
            ),
            seats=tuple(SeatEntry.from_json(s) for s in _objects(d, "seats")),
            ready=_ints(d, "ready"),
            waiting=waiting if type(waiting) is str else None,
            watching=_field(d, "watching", 0, _is_int),
            can_sit=_field(d, "can_sit", None, _is_bool),
            clock=clock_from_json(d.get("clock"), len(_objects(d, "seats"))),
        )


#: every message a host sends, by its ``type`` on the wire
HostMessage = Welcome | State | Answer | Error | Bye | ChatLine
HOST_MESSAGES: dict[str, Callable[[JsonObject], HostMessage]] = {
    cls.TYPE: cls.from_json for cls in (Welcome, State, Answer, Error, Bye, ChatLine)
}
