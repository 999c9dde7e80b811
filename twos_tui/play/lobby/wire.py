"""The lobby's messages on the wire (see ``docs/protocol.md``, "The lobby").

Every message is one JSON object in one WebSocket text frame, ``{"v": 1, "type": ...}``,
on the same port as the tables. A connection whose first message is a ``hello`` with
``"lobby": true`` talks to the lobby; any other first message is a table's (``join``).

The player's side sends :class:`Hello`, then :class:`Login` (the answer to the server's
:class:`Challenge`), then the requests of :mod:`.model` (``create``, ``sit``, ``watch``,
``quick``, ``cancel``). The server sends :class:`Challenge`, then the events of
:mod:`.model` (``lobby``, ``seated``, ``refused``, ``redirect``).

A request is checked at the door as a table's messages are (:mod:`..net.protocol`):
an unknown type, a missing or extra field, a field of the wrong kind or size, broken
text, an oversize frame: :class:`WireError` with a sentence, which the server sends back
as a ``refused`` (the connection stays). Nothing here knows a card: a lobby message
never holds one (it says who sits where and how they are rated).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...engine import VARIANT_IDS
from ...jsontypes import JsonObject, JsonValue
from ...textdoor import TextRefused, checked_text, first_broken, may_hold_broken, sendable
from .model import (
    CancelQuickMatch,
    CreateTable,
    LeaderRow,
    LobbyEvent,
    LobbyRequest,
    LobbyState,
    PlayerInfo,
    QueueInfo,
    QuickMatch,
    RatingInfo,
    Redirect,
    Refused,
    ResultInfo,
    Seated,
    SeatInfo,
    SitDown,
    TableInfo,
    Watch,
)

LOBBY_VERSION = 1
MAX_MESSAGE_BYTES = 16 * 1024  #: a larger request is refused (a listing may be larger)
MAX_FROM_SERVER = 4 * 1024 * 1024  #: the client reads a lobby listing up to this size
MAX_SEATS = 8
MAX_RULES = 16
MAX_NAME = 24
MAX_ID = 64
MAX_WAIT_S = 600.0
MAX_CLOCK_S = 3600.0
LEVELS = ("easy", "normal", "hard")


class WireError(ValueError):
    """A message refused at the door; ``str()`` is the sentence the player reads."""


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of a lobby connection."""

    client: str = ""
    v: int = LOBBY_VERSION


@dataclass(frozen=True, slots=True)
class Login:
    """Who the player is: ``name`` asked for (a first login claims it), and the install's
    Ed25519 ``key`` (raw public key, base64) with ``sig``, its signature of the
    challenge's nonce (:func:`.identity.signed_bytes`). No key: a guest."""

    name: str | None = None
    key: str | None = None
    sig: str | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    """The server's answer to a hello: a fresh nonce to sign (base64)."""

    nonce: str


ClientWire = Hello | Login | LobbyRequest
ServerWire = Challenge | LobbyEvent


# ----- encoding ------------------------------------------------------------------------
def _dump(obj: JsonObject) -> str:
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    if not sendable(text):
        raise WireError(f"a {obj.get('type')} message holds text that is not valid")
    return text


def encode_request(msg: ClientWire) -> str:
    """A player's message as JSON text."""
    d: JsonObject
    if isinstance(msg, Hello):
        d = {"type": "hello", "lobby": True, "client": msg.client}
        return _dump({"v": msg.v, **d})
    if isinstance(msg, Login):
        d = {"type": "login", "name": msg.name, "key": msg.key, "sig": msg.sig}
    elif isinstance(msg, CreateTable):
        d = {
            "type": "create",
            "game": msg.game,
            "players": msg.players,
            "rules": {k: v for k, v in msg.rules},
            "public": msg.public,
            "ai_seats": list(msg.ai_seats),
            "rated": msg.rated,
            "clock": list(msg.clock) if msg.clock is not None else None,
        }
    elif isinstance(msg, SitDown):
        d = {"type": "sit", "table": msg.table_id, "seat": msg.seat, "code": msg.code}
    elif isinstance(msg, Watch):
        d = {"type": "watch", "table": msg.table_id}
    elif isinstance(msg, QuickMatch):
        d = {"type": "quick", "game": msg.game, "players": msg.players, "wait_s": msg.wait_s}
    else:
        d = {"type": "cancel"}
    return _dump({"v": LOBBY_VERSION, **d})


def state_json(s: LobbyState) -> JsonObject:
    me = s.me
    q = s.queue
    return {
        "me": {
            "name": me.name,
            "guest": me.guest,
            "ratings": [[r.game, r.rating, r.matches, r.rank] for r in me.ratings],
            "recent": [[r.game, r.when, r.place, r.players, r.rating_change] for r in me.recent],
        },
        "tables": [
            {
                "id": t.table_id,
                "game": t.game,
                "players": t.players,
                "rules": t.rules,
                "seats": [[x.name, x.rating, x.ai_level, x.connected] for x in t.seats],
                "spectators": t.spectators,
                "public": t.public,
                "rated": t.rated,
                "clock": t.clock,
                "started": t.started,
            }
            for t in s.tables
        ],
        "leaderboards": [
            [game, [[r.rank, r.name, r.rating, r.matches] for r in rows]]
            for game, rows in s.leaderboards
        ],
        "queue": None if q is None else [q.game, q.players, q.waiting, q.wait_s, q.waited_s],
    }


def encode_event(msg: ServerWire) -> str:
    """A server's message as JSON text."""
    d: JsonObject
    if isinstance(msg, Challenge):
        d = {"type": "challenge", "nonce": msg.nonce}
    elif isinstance(msg, LobbyState):
        d = {"type": "lobby", **state_json(msg)}
    elif isinstance(msg, Seated):
        d = {
            "type": "seated",
            "table": msg.table_id,
            "code": msg.code,
            "seat": msg.seat,
            "token": msg.token,
        }
    elif isinstance(msg, Refused):
        d = {"type": "refused", "reason": msg.reason}
    else:
        d = {"type": "redirect", "address": msg.address, "table": msg.table_id}
    return _dump({"v": LOBBY_VERSION, **d})


# ----- decoding a player's message (the server's door) ---------------------------------
def _no_constants(name: str) -> JsonValue:
    raise ValueError(f"{name} is not a number")


def _load(raw: str | bytes, limit: int) -> dict[str, Any]:
    if isinstance(raw, bytes):
        raise WireError("Messages are JSON text, not binary frames.")
    if len(raw) > limit:
        raise WireError(f"A message is at most {limit} bytes.")
    try:
        d = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise WireError("That is not JSON.") from None
    if type(d) is not dict:
        raise WireError("A message is a JSON object.")
    if may_hold_broken(raw) and first_broken(d) is not None:
        raise WireError("The message holds a broken character (a lone surrogate).")
    return d


def _text(d: Mapping[str, Any], key: str, limit: int, required: bool = True) -> str | None:
    v = d.get(key)
    if v is None:
        if required:
            raise WireError(f"The {key} is missing.")
        return None
    if type(v) is not str or len(v) > limit:
        raise WireError(f"The {key} is a text of up to {limit} characters.")
    try:
        return checked_text(v, f"the {key}", identifier=True)
    except TextRefused as e:
        raise WireError(str(e)) from None


def _int(d: Mapping[str, Any], key: str, lo: int, hi: int, required: bool = True) -> int | None:
    v = d.get(key)
    if v is None and not required:
        return None
    if type(v) is not int or not lo <= v <= hi:
        raise WireError(f"The {key} is a whole number from {lo} to {hi}.")
    return v


def _bool(d: Mapping[str, Any], key: str, default: bool) -> bool:
    v = d.get(key, default)
    if type(v) is not bool:
        raise WireError(f"The {key} is true or false.")
    return v


def _seconds(v: object, what: str, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise WireError(f"The {what} is a number of seconds from 0 to {hi:.0f}.")
    if isinstance(v, int) and not 0 <= v <= hi:
        raise WireError(f"The {what} is a number of seconds from 0 to {hi:.0f}.")
    f = float(v)
    if not (math.isfinite(f) and 0 <= f <= hi):
        raise WireError(f"The {what} is a number of seconds from 0 to {hi:.0f}.")
    return f


def _game(d: Mapping[str, Any]) -> str:
    game = _text(d, "game", 32) or ""
    if game not in VARIANT_IDS:
        raise WireError(f"There is no game {game[:20]!r}: choose one of {', '.join(VARIANT_IDS)}.")
    return game


def _hello(d: Mapping[str, Any]) -> Hello:
    if d.get("lobby") is not True:
        raise WireError('A lobby hello says "lobby": true.')
    return Hello(client=_text(d, "client", 80, required=False) or "", v=d["v"])


def _login(d: Mapping[str, Any]) -> Login:
    name = d.get("name")
    if name is not None and (type(name) is not str or len(name) > MAX_NAME * 4):
        raise WireError(f"The name is a text of up to {MAX_NAME} characters.")
    if name is not None:
        try:
            checked_text(name, "the name")
        except TextRefused as e:
            raise WireError(str(e)) from None
    key = _text(d, "key", 64, required=False)
    sig = _text(d, "sig", 128, required=False)
    if (key is None) != (sig is None):
        raise WireError("A key comes with its signature of the challenge.")
    return Login(name=name, key=key, sig=sig)


def _create(d: Mapping[str, Any]) -> CreateTable:
    game = _game(d)
    players = _int(d, "players", 2, MAX_SEATS) or 2
    rules_raw = d.get("rules", {})
    if type(rules_raw) is not dict or len(rules_raw) > MAX_RULES:
        raise WireError(f"The rules are an object of up to {MAX_RULES} house rules.")
    rules: list[tuple[str, str | int | bool]] = []
    for k, v in rules_raw.items():
        _text({"rule": k}, "rule", 40)
        if type(v) is str:
            _text({"rule value": v}, "rule value", 40)
        elif type(v) is int:
            if not -(10**9) <= v <= 10**9:
                raise WireError("A rule's value is a short word, a number or true/false.")
        elif type(v) is not bool:
            raise WireError("A rule's value is a short word, a number or true/false.")
        rules.append((k, v))
    ai_raw = d.get("ai_seats", [])
    if type(ai_raw) is not list or len(ai_raw) > players:
        raise WireError("The AI seats are a list with one entry per seat at most.")
    for a in ai_raw:
        if a is not None and a not in LEVELS:
            raise WireError(f"An AI seat's level is one of {', '.join(LEVELS)} (or null).")
    clock_raw = d.get("clock")
    clock: tuple[float, float] | None = None
    if clock_raw is not None:
        if type(clock_raw) is not list or len(clock_raw) != 2:
            raise WireError("The clock is [seconds per move, seconds in the bank] or null.")
        clock = (
            _seconds(clock_raw[0], "time per move", MAX_CLOCK_S),
            _seconds(clock_raw[1], "bank", MAX_CLOCK_S),
        )
    return CreateTable(
        game=game,
        players=players,
        rules=tuple(rules),
        public=_bool(d, "public", True),
        ai_seats=tuple(ai_raw),
        rated=_bool(d, "rated", True),
        clock=clock,
    )


def _sit(d: Mapping[str, Any]) -> SitDown:
    return SitDown(
        table_id=_text(d, "table", MAX_ID) or "",
        seat=_int(d, "seat", 0, MAX_SEATS - 1, required=False),
        code=_text(d, "code", 32, required=False),
    )


def _watch(d: Mapping[str, Any]) -> Watch:
    return Watch(table_id=_text(d, "table", MAX_ID) or "")


def _quick(d: Mapping[str, Any]) -> QuickMatch:
    wait = d.get("wait_s", 30.0)
    return QuickMatch(
        game=_game(d),
        players=_int(d, "players", 2, MAX_SEATS) or 2,
        wait_s=_seconds(wait, "wait", MAX_WAIT_S),
    )


_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"v", "type", "lobby", "client"}),
    "login": frozenset({"v", "type", "name", "key", "sig"}),
    "create": frozenset(
        {"v", "type", "game", "players", "rules", "public", "ai_seats", "rated", "clock"}
    ),
    "sit": frozenset({"v", "type", "table", "seat", "code"}),
    "watch": frozenset({"v", "type", "table"}),
    "quick": frozenset({"v", "type", "game", "players", "wait_s"}),
    "cancel": frozenset({"v", "type"}),
}
_DECODERS: dict[str, Callable[[Mapping[str, Any]], ClientWire]] = {
    "hello": _hello,
    "login": _login,
    "create": _create,
    "sit": _sit,
    "watch": _watch,
    "quick": _quick,
    "cancel": lambda d: CancelQuickMatch(),
}


def decode_request(raw: str | bytes) -> ClientWire:
    """A player's message, checked and typed; :class:`WireError` with the reason."""
    d = _load(raw, MAX_MESSAGE_BYTES)
    v = d.get("v")
    if type(v) is not int:
        raise WireError('A message says its protocol version: "v": 1.')
    if v > LOBBY_VERSION:
        raise WireError("This lobby runs an older twos-tui: ask its operator to update.")
    kind = d.get("type")
    if type(kind) is not str:
        raise WireError('A message says its "type".')
    allowed = _FIELDS.get(kind)
    if allowed is None:
        raise WireError(f"There is no lobby message {kind[:20]!r}.")
    extra = set(d) - allowed
    if extra:
        raise WireError(f"A {kind} message has no field {sorted(extra)[0][:20]!r}.")
    return _DECODERS[kind](d)


def is_lobby_hello(raw: str | bytes) -> bool:
    """The first message of a connection asks for the lobby (not a table)."""
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE_BYTES or '"lobby"' not in raw:
        return False
    try:
        d = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return False
    return type(d) is dict and d.get("type") == "hello" and "lobby" in d


# ----- decoding the server's message (the client trusts its server for the rest) --------
def _state(d: Mapping[str, Any]) -> LobbyState:
    me = d["me"]
    q = d.get("queue")
    return LobbyState(
        me=PlayerInfo(
            name=str(me["name"]),
            guest=bool(me["guest"]),
            ratings=tuple(RatingInfo(str(g), float(r), int(m), k) for g, r, m, k in me["ratings"]),
            recent=tuple(
                ResultInfo(str(g), float(w), int(p), int(n), c) for g, w, p, n, c in me["recent"]
            ),
        ),
        tables=tuple(
            TableInfo(
                table_id=str(t["id"]),
                game=str(t["game"]),
                players=int(t["players"]),
                rules=str(t["rules"]),
                seats=tuple(SeatInfo(n, r, a, bool(c)) for n, r, a, c in t["seats"]),
                spectators=int(t["spectators"]),
                public=bool(t["public"]),
                rated=bool(t["rated"]),
                clock=str(t["clock"]),
                started=bool(t["started"]),
            )
            for t in d["tables"]
        ),
        leaderboards=tuple(
            (str(game), tuple(LeaderRow(int(a), str(b), float(c), int(e)) for a, b, c, e in rows))
            for game, rows in d["leaderboards"]
        ),
        queue=None if q is None else QueueInfo(str(q[0]), int(q[1]), int(q[2]), q[3], q[4]),
    )


def decode_event(raw: str | bytes) -> ServerWire:
    """A server's message, typed; :class:`WireError` when it cannot be read."""
    d = _load(raw, MAX_FROM_SERVER)
    kind = d.get("type")
    try:
        if kind == "challenge":
            return Challenge(nonce=str(d["nonce"]))
        if kind == "lobby":
            return _state(d)
        if kind == "seated":
            seat = d.get("seat")
            return Seated(
                table_id=str(d["table"]),
                code=str(d["code"]),
                seat=int(seat) if seat is not None else None,
                token=str(d.get("token") or ""),
            )
        if kind == "refused":
            return Refused(reason=str(d["reason"]))
        if kind == "redirect":
            return Redirect(address=str(d["address"]), table_id=str(d["table"]))
    except (KeyError, TypeError, ValueError) as e:
        raise WireError(f"The lobby sent a {kind} this version cannot read ({e}).") from None
    raise WireError("The lobby sent a message this version does not know.")
