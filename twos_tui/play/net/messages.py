"""The network messages as types: one frozen dataclass per message type.

:func:`~.protocol.decode_client` checks a message's text at the door and makes it one
of these (or refuses it with a reason); the host's dispatcher
(:mod:`~.dispatch`) picks a handler by the message's class. Nothing here checks
anything: a message of one of these types has passed the door. The host's own
answers, refusals, goodbyes and welcomes are types too (:class:`ServerMessage`),
encoded from them.

Frozen dataclasses (not msgspec Structs): eleven small types of one to four fields,
made once per message after our own checks (which word every refusal in our own
words), so a decoder library would add a dependency and no speed worth having.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Literal

from ...engine import Action

#: a request id: a whole number or a short text the client chose (or none)
RequestId = int | str | None

Role = Literal["player", "watch"]


@dataclass(frozen=True, kw_only=True)
class ClientMessage:
    """What every client message has: the protocol version ``v`` of the sender and its
    request ``id`` (the answer or refusal carries it back)."""

    TYPE: ClassVar[str] = ""

    v: int
    id: RequestId = None

    def to_json(self) -> dict[str, Any]:
        """The message as the wire carries it (a field left at ``None`` left out):
        ``decode_client(encode(m.to_json())) == m``."""
        out: dict[str, Any] = {"v": self.v, "type": self.TYPE}
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


# ----- the host's messages (the ones it makes itself; ``state`` and ``chat`` are made
# from the game's observation and the chat log) ------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ServerMessage:
    """A message of the host, made as a type and encoded from it
    (:func:`~.protocol.encode` takes one)."""

    TYPE: ClassVar[str] = ""
    #: fields left out of the wire when they are ``None``
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self.OPTIONAL:
                continue
            out[f.name] = asdict(value) if isinstance(value, TableInfo) else value
        return out


@dataclass(frozen=True, kw_only=True)
class Answer(ServerMessage):
    """The answer to request ``id`` of type ``kind`` (its ``result``, or null)."""

    TYPE: ClassVar[str] = "answer"

    id: RequestId
    kind: str
    result: str | None = None


@dataclass(frozen=True, kw_only=True)
class Error(ServerMessage):
    """A refused message: the error ``code`` and the ``reason`` in words (and the
    request's ``id``, if it had one)."""

    TYPE: ClassVar[str] = "error"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"id"})

    code: str
    reason: str
    id: RequestId = None


@dataclass(frozen=True, kw_only=True)
class Bye(ServerMessage):
    """The host closes this connection, saying why."""

    TYPE: ClassVar[str] = "bye"

    reason: str


@dataclass(frozen=True, kw_only=True)
class TableInfo:
    """What a welcome says of the table."""

    variant: str
    players: int
    options: dict[str, Any]
    names: list[str]
    hold_s: float
    can_sit: bool


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
