"""The lobby server's door: a player's message checked and typed
(:func:`decode_request`), as a table's are (:mod:`..net.protocol`): an unknown type, a
missing or extra field, a field of the wrong kind or size, broken text, an oversize
frame: :class:`~.wire.WireError` with the sentence the player reads (the server sends
it back as a ``refused``; the connection stays). And :func:`is_lobby_hello`: a
connection's first message asks for the lobby, not a table."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from ...engine import VARIANT_IDS
from ...textdoor import TextRefused, checked_text
from .model import CancelQuickMatch, CreateTable, QuickMatch, SitDown, Watch
from .wire import (
    LEVELS,
    LOBBY_VERSION,
    MAX_CLOCK_S,
    MAX_ID,
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    MAX_RULES,
    MAX_SEATS,
    MAX_WAIT_S,
    ClientWire,
    Hello,
    Login,
    WireError,
    load,
    no_constants,
)


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
    redirected = d.get("redirected", False)
    if type(redirected) is not bool:
        raise WireError("redirected is true or false.")
    return QuickMatch(
        game=_game(d),
        players=_int(d, "players", 2, MAX_SEATS) or 2,
        wait_s=_seconds(wait, "wait", MAX_WAIT_S),
        redirected=redirected,
    )


_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"v", "type", "lobby", "client"}),
    "login": frozenset({"v", "type", "name", "key", "sig"}),
    "create": frozenset(
        {"v", "type", "game", "players", "rules", "public", "ai_seats", "rated", "clock"}
    ),
    "sit": frozenset({"v", "type", "table", "seat", "code"}),
    "watch": frozenset({"v", "type", "table"}),
    "quick": frozenset({"v", "type", "game", "players", "wait_s", "redirected"}),
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
    d = load(raw, MAX_MESSAGE_BYTES)
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
        d = json.loads(raw, parse_constant=no_constants)
    except (ValueError, RecursionError):
        return False
    return type(d) is dict and d.get("type") == "hello" and "lobby" in d
