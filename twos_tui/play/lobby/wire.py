"""The lobby's messages on the wire (see ``docs/protocol.md``, "The lobby").

Every message is one JSON object in one WebSocket text frame, ``{"v": 1, "type": ...}``,
on the same port as the tables. A connection whose first message is a ``hello`` with
``"lobby": true`` talks to the lobby; any other first message is a table's (``join``).

A player sends :class:`Hello`, then :class:`Login` (the answer to the server's
:class:`Challenge`), then the requests of :mod:`.model` (``create``, ``sit``, ``watch``,
``quick``, ``cancel``). The server sends :class:`Challenge`, then the events of
:mod:`.model` (``lobby``, ``seated``, ``refused``, ``redirect``).

A request is checked at the server's door (:mod:`.door`) as a table's messages are:
:class:`WireError` with a sentence, which the server sends back as a ``refused`` (the
connection stays). Nothing here knows a card: a lobby message
never holds one (it says who sits where and how they are rated).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...jsontypes import JsonObject, JsonValue
from ...textdoor import first_broken, may_hold_broken, sendable
from .model import (
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
        if msg.redirected:
            d["redirected"] = True
    else:
        d = {"type": "cancel"}
    return _dump({"v": LOBBY_VERSION, **d})


def table_json(t: TableInfo) -> JsonObject:
    """One listed table as JSON (in a ``lobby`` message, and as the server processes
    sharing a database list their tables to each other)."""
    return {
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


def table_of(t: Mapping[str, Any]) -> TableInfo:
    """:func:`table_json` read back (``KeyError``, ``TypeError``, ``ValueError`` when
    it is not one)."""
    return TableInfo(
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
        "tables": [table_json(t) for t in s.tables],
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


def no_constants(name: str) -> JsonValue:
    raise ValueError(f"{name} is not a number")


def load(raw: str | bytes, limit: int) -> JsonObject:
    if isinstance(raw, bytes):
        raise WireError("Messages are JSON text, not binary frames.")
    if len(raw) > limit:
        raise WireError(f"A message is at most {limit} bytes.")
    try:
        d = json.loads(raw, parse_constant=no_constants)
    except (ValueError, RecursionError):
        raise WireError("That is not JSON.") from None
    if type(d) is not dict:
        raise WireError("A message is a JSON object.")
    if may_hold_broken(raw) and first_broken(d) is not None:
        raise WireError("The message holds a broken character (a lone surrogate).")
    return d


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
        tables=tuple(table_of(t) for t in d["tables"]),
        leaderboards=tuple(
            (str(game), tuple(LeaderRow(int(a), str(b), float(c), int(e)) for a, b, c, e in rows))
            for game, rows in d["leaderboards"]
        ),
        queue=None if q is None else QueueInfo(str(q[0]), int(q[1]), int(q[2]), q[3], q[4]),
    )


def decode_event(raw: str | bytes) -> ServerWire:
    """A server's message, typed; :class:`WireError` when it cannot be read."""
    d = load(raw, MAX_FROM_SERVER)
    kind = d.get("type")
    try:
        if kind == "challenge":
            return Challenge(nonce=str(d["nonce"]))
        if kind == "lobby":
            return _state(d)
        if kind == "seated":
            seat = d.get("seat")
            if seat is not None and type(seat) is not int:
                raise ValueError(f"seat {seat!r} is not a seat number")
            return Seated(
                table_id=str(d["table"]),
                code=str(d["code"]),
                seat=seat,
                token=str(d.get("token") or ""),
            )
        if kind == "refused":
            return Refused(reason=str(d["reason"]))
        if kind == "redirect":
            return Redirect(address=str(d["address"]), table_id=str(d["table"]))
    except (KeyError, TypeError, ValueError) as e:
        raise WireError(f"The lobby sent a {kind} this version cannot read ({e}).") from None
    raise WireError("The lobby sent a message this version does not know.")
