"""The messages of a hosted table, checked as they are decoded (see ``docs/protocol.md``).

Every message is one JSON object in one WebSocket text frame, ``{"v": 1, "type": ...}``.
``v`` is the protocol version of the sender. Nothing here touches a game: it only turns
text into checked, typed messages (:mod:`~.messages`), or a :class:`BadMessage` with a
reason a person can read, and dicts into text.

Why our own validator and not msgspec: the client sends eleven small message types of
none to four fields each; a table of field rules is a page of code with no dependency,
and every refusal gets a reason in our own words (msgspec's messages name Python types
and JSON paths). The cost of checking is far below the cost of the engine's ``check``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...engine import Action
from ...jsontypes import JsonObject, JsonValue
from ...textdoor import TextRefused, checked_text, first_broken, may_hold_broken, mended, sendable
from . import messages as M
from .messages import PROTOCOL_VERSION as PROTOCOL_VERSION
from .messages import RequestId

MIN_VERSION = 1  #: the oldest client version a host still serves
MAX_MESSAGE_BYTES = 64 * 1024  #: a larger frame closes the connection (code 1009)
MAX_BAD_MESSAGES = 20  #: a connection that sent this many refused messages is closed
RATE_PER_S = 20.0  #: messages a connection may send per second, on average
RATE_BURST = 40.0  #: and at most this many in a burst
MAX_CONNECTIONS = 5000  #: a host refuses more (close code 1013, try again later)
JOIN_TIMEOUT_S = 30.0  #: a connection that has not joined a table by then is closed
MAX_ID = 64  #: request ids are strings up to this long, or integers
MAX_NAME = 24
MAX_CARDS = 20

MAX_CHAT = 280  #: characters of one chat line (after control characters are removed)
MAX_CHAT_RAW = 4096  #: a chat message's text field is refused above this many characters
CHAT_RATE_PER_S = 0.5  #: chat lines a connection may send per second, on average
CHAT_BURST = 4.0  #: and at most this many in a burst
CHAT_KEPT = 50  #: the last chat lines a table keeps for those who join later

#: the client's messages (their types: :data:`~.messages.CLIENT_MESSAGES`)
CLIENT_TYPES = (
    "hello",
    "join",
    "act",
    "ready",
    "check",
    "describe",
    "ping",
    "leave",
    "chat",
    "watch",
    "sit",
)
#: none left reserved (issue 18 built spectators and chat)
RESERVED_TYPES: tuple[str, ...] = ()
SERVER_TYPES = ("welcome", "state", "answer", "error", "bye", "chat")
ROLES = ("player", "watch")

# error codes (the "code" of an "error" message)
E_BAD = "bad-message"  #: not JSON, not an object, an unknown type, a field of the wrong kind
E_TOO_BIG = "too-big"
E_TOO_FAST = "too-fast"
E_UPGRADE = "upgrade"  #: the client's protocol is older than the host serves
E_NEWER = "newer"  #: the client's protocol is newer than the host's
E_HELLO = "hello-first"
E_JOIN = "join-refused"
E_JOIN_FIRST = "join-first"
E_ILLEGAL = "illegal"  #: the engine refused the move (the reason says why)
E_STALE = "stale"  #: the move was meant for an earlier position
E_NOT_NOW = "not-now"
E_UNSUPPORTED = "unsupported"


#: the fields of an action object (``act``, ``check``, ``describe``)
ACTION_FIELDS = ("kind", "cards", "value")


class BadMessage(ValueError):
    """A message that is refused before it reaches the table; ``code`` and ``str()``
    go back in the ``error`` message."""

    def __init__(self, reason: str, code: str = E_BAD, req: RequestId = None) -> None:
        super().__init__(reason)
        self.code = code
        self.req = req


class Unsendable(ValueError):
    """A message that holds text that is not valid (a lone surrogate): it cannot go on
    the wire. Never expected of a checked message; the connection it was for closes,
    and no other is touched."""


def encode(msg: JsonObject | M.ServerMessage | M.ClientMessage) -> str:
    """A message (a typed one, or an object a test made by hand) as compact JSON text
    (``v`` added); :class:`Unsendable` if a string in it is not valid text (it would fail
    to encode on the wire)."""
    if isinstance(msg, M.ServerMessage | M.ClientMessage):
        msg = msg.to_json()
    if "v" not in msg:
        msg = {"v": PROTOCOL_VERSION, **msg}
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    if not sendable(text):
        where = first_broken(msg) or "message"
        raise Unsendable(f"the {where} of a {msg.get('type', '?')!s:.20} message is not valid text")
    return text


def _no_constants(name: str) -> JsonValue:
    raise ValueError(f"{name} is not a number")


def _req_id(d: Mapping[str, object]) -> RequestId:
    rid = d.get("id")
    if rid is None:
        return None
    if type(rid) is int and -(2**53) < rid < 2**53:
        return rid
    if type(rid) is str and len(rid) <= MAX_ID:
        try:
            return checked_text(rid, "the id of a request", identifier=True)
        except TextRefused as e:
            raise BadMessage(str(e)) from None
    raise BadMessage("The id of a request is a number or a short text.")


def _action(raw: object, rid: RequestId) -> Action:
    if not isinstance(raw, dict):
        raise BadMessage('An action is an object {"kind": ..., "cards": [...]}.', req=rid)
    extra = set(raw) - set(ACTION_FIELDS)
    if extra:
        raise BadMessage(f"An action has no field {sorted(extra)[0][:20]!r}.", req=rid)
    kind = raw.get("kind")
    if type(kind) is not str or not 0 < len(kind) <= 40:
        raise BadMessage("The kind of an action is a short word.", req=rid)
    _ident(kind, "the kind of an action", rid)
    cards = raw.get("cards", [])
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise BadMessage(f"The cards of an action are a list of up to {MAX_CARDS}.", req=rid)
    codes: list[str] = []
    for c in cards:
        if not isinstance(c, str) or not 0 < len(c) <= 4:
            raise BadMessage("A card is a short code like 3S or 10H.", req=rid)
        codes.append(_ident(c, "a card", rid))
    value = raw.get("value")
    if value is not None:
        if type(value) is str:
            if len(value) > 40:
                raise BadMessage("The value of an action is a short word or a number.", req=rid)
            _ident(value, "the value of an action", rid)
        elif type(value) is int:
            if not -(10**9) <= value <= 10**9:
                raise BadMessage("The value of an action is a short word or a number.", req=rid)
        else:
            raise BadMessage("The value of an action is a short word or a number.", req=rid)
    return Action(kind, tuple(codes), value)


def _ident(value: str, what: str, rid: RequestId) -> str:
    try:
        return checked_text(value, what, identifier=True)
    except TextRefused as e:
        raise BadMessage(str(e), req=rid) from None


def _text(
    d: Mapping[str, object],
    key: str,
    limit: int,
    rid: RequestId,
    required: bool = False,
    identifier: bool = False,
) -> str | None:
    """A text field through the door (:func:`~twos_tui.textdoor.checked_text`):
    valid text of up to ``limit`` characters (printable only if an ``identifier``)."""
    v = d.get(key)
    if v is None:
        if required:
            raise BadMessage(f"The {key} is missing.", req=rid)
        return None
    if type(v) is not str or len(v) > limit:
        raise BadMessage(f"The {key} is a text of up to {limit} characters.", req=rid)
    try:
        return checked_text(v, f"the {key}", identifier=identifier)
    except TextRefused as e:
        raise BadMessage(str(e), req=rid) from None


_ALLOWED: dict[str, frozenset[str]] = {
    "hello": frozenset({"v", "type", "client", "id"}),
    "join": frozenset({"v", "type", "code", "name", "token", "role", "id"}),
    "act": frozenset({"v", "type", "action", "n", "id"}),
    "ready": frozenset({"v", "type", "deal", "id"}),
    "check": frozenset({"v", "type", "action", "id"}),
    "describe": frozenset({"v", "type", "action", "id"}),
    "ping": frozenset({"v", "type", "id"}),
    "leave": frozenset({"v", "type", "id"}),
    "chat": frozenset({"v", "type", "text", "id"}),
    "watch": frozenset({"v", "type", "id"}),
    "sit": frozenset({"v", "type", "name", "id"}),
}


def decode_client(raw: str | bytes) -> M.ClientMessage:
    """A client's message, checked: one of the types of :mod:`~.messages` (an
    ``action`` field is made an :class:`Action`), or :class:`BadMessage` with the
    reason."""
    if isinstance(raw, bytes):
        raise BadMessage("Messages are JSON text, not binary frames.")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"A message is at most {MAX_MESSAGE_BYTES} bytes.", E_TOO_BIG)
    try:
        d = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise BadMessage("That is not JSON.") from None
    if type(d) is not dict:
        raise BadMessage("A message is a JSON object.")
    rid = _req_id(d)
    # every string of the message, keys too, is valid text, or the message is refused
    # here (a field checked below gets its own rules as well)
    broken = first_broken(d) if may_hold_broken(raw) else None
    if broken is not None:
        raise BadMessage(
            f"The {broken} holds a broken character (a lone surrogate): it is not valid text.",
            req=rid,
        )
    v = d.get("v")
    if type(v) is not int:
        raise BadMessage('A message says its protocol version: "v": 1.', req=rid)
    kind = d.get("type")
    if type(kind) is not str:
        raise BadMessage('A message says its "type".', req=rid)
    if kind in RESERVED_TYPES:
        raise BadMessage(f"This host does not offer {kind!r} yet.", E_UNSUPPORTED, rid)
    allowed = _ALLOWED.get(kind)
    if allowed is None:
        raise BadMessage(f"There is no message {kind[:20]!r}.", req=rid)
    extra = set(d) - allowed
    if extra:
        raise BadMessage(f"A {kind} message has no field {sorted(extra)[0][:20]!r}.", req=rid)
    return _DECODERS[kind](d, v, rid)


#: a client message's object, as JSON gave it (read only: its fields are checked one by
#: one as the message's type is made)
Fields = Mapping[str, object]


def _hello(d: Fields, v: int, rid: RequestId) -> M.Hello:
    return M.Hello(v=v, id=rid, client=_text(d, "client", 80, rid, identifier=True) or "")


def _join(d: Fields, v: int, rid: RequestId) -> M.Join:
    code = _text(d, "code", 32, rid, required=True, identifier=True) or ""
    name = _text(d, "name", MAX_NAME, rid)
    token = _text(d, "token", 128, rid, identifier=True)
    role = d.get("role", "player")
    if role == "player" or role == "watch":
        return M.Join(v=v, id=rid, code=code, name=name, token=token, role=role)
    raise BadMessage("The role is 'player' or 'watch'.", req=rid)


def _chat(d: Fields, v: int, rid: RequestId) -> M.Chat:
    text = _text(d, "text", MAX_CHAT_RAW, rid, required=True) or ""
    clean = clean_chat(text)
    if not clean:
        raise BadMessage("A chat line needs some text.", req=rid)
    return M.Chat(v=v, id=rid, text=clean)


def _sit(d: Fields, v: int, rid: RequestId) -> M.Sit:
    return M.Sit(v=v, id=rid, name=_text(d, "name", MAX_NAME, rid))


def _act(d: Fields, v: int, rid: RequestId) -> M.Act:
    action = _action(d.get("action"), rid)
    n = d.get("n")
    if n is not None and (type(n) is not int or not 0 <= n < 10**9):
        raise BadMessage("The n of a move is the move counter it was made at.", req=rid)
    return M.Act(v=v, id=rid, action=action, n=n)


def _check(d: Fields, v: int, rid: RequestId) -> M.Check:
    return M.Check(v=v, id=rid, action=_action(d.get("action"), rid))


def _describe(d: Fields, v: int, rid: RequestId) -> M.Describe:
    return M.Describe(v=v, id=rid, action=_action(d.get("action"), rid))


def _ready(d: Fields, v: int, rid: RequestId) -> M.Ready:
    deal = d.get("deal")
    if deal is not None and (type(deal) is not int or not 0 <= deal < 10**9):
        raise BadMessage("The deal of a ready is the number of the deal that ended.", req=rid)
    return M.Ready(v=v, id=rid, deal=deal)


_Decoder = Callable[[Fields, int, RequestId], M.ClientMessage]


def _bare(cls: type[M.ClientMessage]) -> _Decoder:
    """A message of ``cls`` with no fields of its own (``ping``, ``leave``, ``watch``)."""

    def make(d: Fields, v: int, rid: RequestId) -> M.ClientMessage:
        return cls(v=v, id=rid)

    return make


#: how each client message type is made from its checked object (its fields' own rules)
_DECODERS: dict[str, _Decoder] = {
    "hello": _hello,
    "join": _join,
    "act": _act,
    "ready": _ready,
    "check": _check,
    "describe": _describe,
    "ping": _bare(M.Ping),
    "leave": _bare(M.Leave),
    "chat": _chat,
    "watch": _bare(M.Watch),
    "sit": _sit,
}


_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]"
)


def clean_chat(text: str) -> str:
    """One chat line as every screen shows it: control characters (escape codes,
    newlines, bidirectional overrides, and any broken character) removed, spaces
    squeezed, at most :data:`MAX_CHAT` characters. Rich markup is not interpreted by
    the screens (they show the text as it is), so brackets stay. (A host refuses a
    chat message with a broken character at the door: it is never cleaned into
    something else; here it only keeps a host's own line and a screen safe.)"""
    text = _CONTROL.sub(" ", text)
    text = " ".join(text.split())
    return text[:MAX_CHAT].strip()


def decode_server(raw: str | bytes) -> M.HostMessage:
    """A host's message, read into its type (:data:`~.messages.HostMessage`): a JSON
    object with a known ``type`` whose fields are of their kinds (the client trusts its
    host for the rest, ignores fields it does not know, and reads a missing one as its
    blank); :class:`BadMessage` with the reason otherwise."""
    if isinstance(raw, bytes):
        raise BadMessage("The host sent a binary frame.")
    try:
        d = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise BadMessage("The host sent something that is not JSON.") from None
    kind = d.get("type") if isinstance(d, dict) else None
    read = M.HOST_MESSAGES.get(kind) if type(kind) is str else None
    if not isinstance(d, dict) or read is None:
        raise BadMessage("The host sent a message this version does not know.")
    if may_hold_broken(raw) and first_broken(d) is not None:
        # a broken character from the host (a lone surrogate) is shown as U+FFFD: the
        # message is still the host's, and what reaches the screen and the history is
        # valid text
        d = mended(d)
    try:
        return read(d)
    except M.Unreadable as e:
        raise BadMessage(f"The host sent a {kind} this version cannot read: {e}.") from None


@dataclass
class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    rate: float = RATE_PER_S
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    last: float = 0.0

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.last:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        else:
            self.tokens = self.burst
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def peek_id(raw: str | bytes) -> RequestId:
    """The request id of a message refused before it is checked (too fast), if it is a
    short, well-formed one: the client's request then gets its answer."""
    if not isinstance(raw, str) or len(raw) > 4096:
        return None
    try:
        d = json.loads(raw, parse_constant=_no_constants)
        return _req_id(d) if type(d) is dict else None
    except (ValueError, RecursionError, BadMessage):
        return None


def error(code: str, reason: str, req: RequestId = None) -> M.Error:
    """An ``error`` message: the ``code``, the ``reason`` in words, the request's id."""
    return M.Error(code=code, reason=reason, id=req)
