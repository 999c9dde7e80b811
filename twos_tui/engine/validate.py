"""Checks of saved game data, shared by every variant's ``validate_json``.

Each helper takes a value and ``where`` (a readable path such as ``"hands[2]"``) and
returns the value when it has the expected shape, or raises
:class:`~twos_tui.engine.protocol.GameDataError` naming the path and the problem. Nothing
here trusts a type: JSON from a file may hold anything (floats where ints belong,
``Infinity``, strings for numbers, deep nesting, huge lists).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from .protocol import DealResult, GameDataError

MAX_LIST = 200_000  #: no list in a saved game is longer (history, actions)
MAX_TEXT = 2_000  #: no string in a saved game is longer
MAX_TOTAL = 10**9  #: scores and counters stay far below this
MAX_DEALS = 100_000


def fail(where: str, problem: str) -> GameDataError:
    return GameDataError(f"{where}: {problem}" if where else problem)


def _show(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def obj(v: Any, where: str) -> dict[str, Any]:
    if type(v) is not dict:
        raise fail(where, f"expected an object, found {_show(v)}")
    return v


def field(d: dict[str, Any], key: str, where: str = "") -> Any:
    if key not in d:
        raise fail(where + key if not where else f"{where}.{key}", "missing")
    return d[key]


def integer(v: Any, where: str, lo: int = -MAX_TOTAL, hi: int = MAX_TOTAL) -> int:
    if type(v) is not int:
        raise fail(where, f"expected a whole number, found {_show(v)}")
    if not lo <= v <= hi:
        if len(str(v)) > 40:
            raise fail(
                where,
                f"a number of {len(str(abs(v)))} digits is out of range "
                f"({_bound(lo)} to {_bound(hi)})",
            )
        raise fail(where, f"{_show(v)} is out of range ({_bound(lo)} to {_bound(hi)})")
    return v


def _bound(n: int) -> str:
    """A range's end, readable: ``10**400`` rather than its 401 digits."""
    if abs(n) < 10**12:
        return str(n)
    digits = len(str(abs(n))) - 1
    sign = "-" if n < 0 else ""
    return f"{sign}10^{digits}" if abs(n) == 10**digits else f"{sign}about 10^{digits}"


def opt_integer(v: Any, where: str, lo: int = -MAX_TOTAL, hi: int = MAX_TOTAL) -> int | None:
    return None if v is None else integer(v, where, lo, hi)


def boolean(v: Any, where: str) -> bool:
    if type(v) is not bool:
        raise fail(where, f"expected true or false, found {_show(v)}")
    return v


def text(v: Any, where: str, max_len: int = MAX_TEXT) -> str:
    if type(v) is not str:
        raise fail(where, f"expected text, found {_show(v)}")
    if len(v) > max_len:
        raise fail(where, f"text longer than {max_len} characters")
    return v


def array(v: Any, where: str, length: int | None = None, max_len: int = MAX_LIST) -> list[Any]:
    if type(v) is not list:
        raise fail(where, f"expected a list, found {_show(v)}")
    if length is not None and len(v) != length:
        raise fail(where, f"expected {length} entries, found {len(v)}")
    if len(v) > max_len:
        raise fail(where, f"more than {max_len} entries")
    return v


def seat(v: Any, where: str, players: int) -> int:
    if type(v) is not int or not 0 <= v < players:
        raise fail(where, f"{_show(v)} is no seat (seats 0 to {players - 1})")
    return v


def opt_seat(v: Any, where: str, players: int) -> int | None:
    return None if v is None else seat(v, where, players)


def seats(v: Any, where: str, players: int, max_len: int = 16) -> list[int]:
    return [seat(x, f"{where}[{i}]", players) for i, x in enumerate(array(v, where, None, max_len))]


def card(v: Any, where: str, deck: frozenset[str] | set[str]) -> str:
    if type(v) is not str or v not in deck:
        raise fail(where, f"{_show(v)} is not a card of this deck")
    return v


def opt_card(v: Any, where: str, deck: frozenset[str] | set[str]) -> str | None:
    return None if v is None else card(v, where, deck)


def cards(
    v: Any, where: str, deck: frozenset[str] | set[str], length: int | None = None
) -> list[str]:
    lst = array(v, where, length, max_len=len(deck))
    return [card(c, f"{where}[{i}]", deck) for i, c in enumerate(lst)]


def hands(v: Any, where: str, players: int, deck: frozenset[str] | set[str]) -> list[list[str]]:
    return [cards(h, f"{where}[{i}]", deck) for i, h in enumerate(array(v, where, players))]


def one_of(v: Any, where: str, allowed: tuple[object, ...]) -> Any:
    for a in allowed:
        if type(v) is type(a) and v == a:
            return v
    shown = ", ".join(_show(a) for a in allowed)
    raise fail(where, f"{_show(v)} is not one of {shown}")


def json_value(v: Any, where: str, depth: int = 4) -> Any:
    """A plain JSON value (no floats that are not finite), nested at most ``depth``."""
    t = type(v)
    if v is None or t in (bool, str, int):
        if t is str and len(v) > MAX_TEXT:
            raise fail(where, f"text longer than {MAX_TEXT} characters")
        if t is int and abs(v) > 10**18:
            raise fail(where, "a number out of range")
        return v
    if t is float:
        if not math.isfinite(v):
            raise fail(where, f"{v!r} is not a number")
        return v
    if depth <= 0:
        raise fail(where, "nested too deeply")
    if t is list:
        for i, x in enumerate(array(v, where, None, 1_000)):
            json_value(x, f"{where}[{i}]", depth - 1)
        return v
    if t is dict:
        if len(v) > 100:
            raise fail(where, "too many keys")
        for k, x in v.items():
            json_value(x, f"{where}.{k}", depth - 1)
        return v
    raise fail(where, f"{_show(v)} is not JSON data")


def census(where: str, found: list[str], deck: list[str] | tuple[str, ...]) -> None:
    """Every card of the deck exactly once."""
    have, want = Counter(found), Counter(deck)
    if have == want:
        return
    twice = sorted(c for c, k in have.items() if k > 1)
    missing = sorted(c for c in want if c not in have)
    extra = sorted(c for c in have if c not in want)
    parts = []
    if twice:
        parts.append("held twice: " + " ".join(twice[:6]))
    if missing:
        parts.append("missing: " + " ".join(missing[:6]) + (" ..." if len(missing) > 6 else ""))
    if extra:
        parts.append("not in the deck: " + " ".join(extra[:6]))
    raise fail(where, "the cards do not add up to the deck (" + "; ".join(parts) + ")")


def rng_state(v: Any, where: str) -> random.Random:
    """A ``random.Random`` in the state ``[version, [625 ints], gauss]``."""
    state = array(v, where, 3)
    version, internal, gauss = state
    integer(version, f"{where}[0]", 3, 3)  # what this engine writes: kept as loaded
    internal = array(internal, f"{where}[1]", 625)
    for i, x in enumerate(internal):
        integer(x, f"{where}[1][{i}]", 0, 2**32 - 1)
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise fail(f"{where}[2]", f"{_show(gauss)} is not a number")
    rng = random.Random()
    try:
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError, OverflowError) as e:
        raise fail(where, f"not a generator state ({e})") from None
    return rng


def validate_base(cls: Any, d: Any) -> None:
    """The fields every game saves (``Game._base_json``)."""
    d = obj(d, "game")
    variant = field(d, "variant")
    if variant != cls.variant_id:
        raise fail("variant", f"{_show(variant)} is not {cls.variant_id!r}")
    players = field(d, "players")
    if type(players) is not int or players not in cls.player_counts:
        counts = ", ".join(map(str, cls.player_counts))
        raise fail("players", f"{cls.name} is for {counts} players, not {_show(players)}")
    options = obj(field(d, "options"), "options")
    try:
        cls.resolve_options(players, options)
    except ValueError as e:
        raise fail("options", str(e)) from None
    integer(field(d, "seed"), "seed", -(10**400), 10**400)
    rng_state(field(d, "rng"), "rng")
    names = array(field(d, "names"), "names", players)
    for i, n in enumerate(names):
        text(n, f"names[{i}]", 200)
    for i, h in enumerate(array(field(d, "history"), "history")):
        # (the other values of an entry are plain JSON: check_loaded dumps them all)
        if type(h) is not dict or type(h.get("text")) is not str or len(h) > 20:
            raise fail(f"history[{i}]", "expected an entry of the play log (an object with a text)")
        if len(h["text"]) > MAX_TEXT:
            raise fail(f"history[{i}].text", f"text longer than {MAX_TEXT} characters")
        s = h.get("seat")
        if s is not None and (type(s) is not int or not 0 <= s < players):
            raise fail(f"history[{i}].seat", f"{_show(s)} is no seat")
    for i, a in enumerate(array(field(d, "actions"), "actions")):
        pair = array(a, f"actions[{i}]", 2)
        seat(pair[0], f"actions[{i}][0]", players)
        act = obj(pair[1], f"actions[{i}][1]")
        kind = text(field(act, "kind", f"actions[{i}][1]"), f"actions[{i}][1].kind", 40)
        if kind not in cls.ACTION_SHAPES:
            raise fail(f"actions[{i}]", f"{_show(kind)} is not a move in {cls.name}")
        for c in array(act.get("cards", []), f"actions[{i}][1].cards", None, 60):
            text(c, f"actions[{i}][1].cards", 8)
        v = act.get("value")
        if v is not None and type(v) not in (int, str):
            raise fail(f"actions[{i}][1].value", f"{_show(v)} is not a move's value")
        if set(act) - {"kind", "cards", "value"}:
            raise fail(f"actions[{i}][1]", "unknown keys")
    totals = [
        integer(t, f"totals[{i}]")
        for i, t in enumerate(array(field(d, "totals"), "totals", players))
    ]
    deal_number = integer(field(d, "deal_number"), "deal_number", 1, MAX_DEALS)
    deal_over = boolean(field(d, "deal_over"), "deal_over")
    match_over = boolean(field(d, "match_over"), "match_over")
    if match_over and not deal_over:
        raise fail("match_over", "the match is over but its last deal is not")
    results = array(field(d, "results"), "results", None, MAX_DEALS)
    for i, r in enumerate(results):
        w = f"results[{i}]"
        r = obj(r, w)
        integer(field(r, "deal_number", w), f"{w}.deal_number", 1, MAX_DEALS)
        seats(field(r, "winners", w), f"{w}.winners", players)
        for key in ("changes", "totals"):
            for j, x in enumerate(array(field(r, key, w), f"{w}.{key}", players)):
                integer(x, f"{w}.{key}[{j}]")
        text(field(r, "summary", w), f"{w}.summary")
        for j, x in enumerate(array(r.get("details", []), f"{w}.details", None, 100)):
            text(x, f"{w}.details[{j}]")
        DealResult.from_json(r)
    done = deal_number if deal_over else deal_number - 1
    if len(results) != done:
        raise fail("results", f"{len(results)} deal results for {done} finished deals")
    last = results[-1]["totals"] if results else [0] * players
    if totals != last:
        raise fail("totals", f"{totals} do not match the last deal's result {last}")


def deck_of(cls: Any) -> tuple[str, ...]:
    """The deck of a variant class (``deck_cards`` depends on no state in any variant)."""
    return tuple(cls.deck_cards(cls.__new__(cls)))


def validate_climbing(cls: Any, d: dict[str, Any], extra: list[str], choosing: bool) -> None:
    """The fields of :class:`~twos_tui.engine.climbing.game.ClimbingGame` (``extra``: cards
    the variant keeps elsewhere, for the census; ``choosing``: hands are not dealt yet)."""
    players = d["players"]
    deck_list = deck_of(cls)
    deck = frozenset(deck_list)
    hs = hands(field(d, "hands"), "hands", players, deck)
    seat(field(d, "dealer"), "dealer", players)
    current = seat(field(d, "current"), "current", players)
    options = cls.resolve_options(players, d["options"])
    discards = cards(field(d, "discards"), "discards", deck)
    out = cards(field(d, "out_of_play"), "out_of_play", deck)
    census("cards", [c for h in hs for c in h] + discards + out + extra, deck_list)
    top = field(d, "top")
    top_seat = None
    if top is not None:
        pair = array(top, "top", 2)
        top_seat = seat(pair[0], "top[0]", players)
        top_cards = cards(pair[1], "top[1]", deck)
        if not top_cards:
            raise fail("top", "a play of no cards")
        combo = cls.classify_cards(tuple(top_cards), dict(options))
        if combo is None:
            raise fail("top", f"{' '.join(top_cards)} is not a combination of {cls.name}")
        if not set(top_cards) <= set(discards):
            raise fail("top", "the play on the table is not among the cards played")
    for i, p in enumerate(array(field(d, "passed"), "passed", players)):
        boolean(p, f"passed[{i}]")
    for i, t in enumerate(array(field(d, "trick"), "trick", None, 4 * len(deck_list))):
        t = obj(t, f"trick[{i}]")
        seat(field(t, "seat", f"trick[{i}]"), f"trick[{i}].seat", players)
        if "cards" in t:
            cards(t["cards"], f"trick[{i}].cards", deck)
            text(field(t, "kind", f"trick[{i}]"), f"trick[{i}].kind", 40)
        elif t.get("pass") is not True:
            raise fail(f"trick[{i}]", "neither a play nor a pass")
    last = d.get("last_trick")  # the trick finished last (saves before it have none)
    if last is not None:
        last = obj(last, "last_trick")
        seat(field(last, "winner", "last_trick"), "last_trick.winner", players)
        plays = array(
            field(last, "plays", "last_trick"), "last_trick.plays", None, 4 * len(deck_list)
        )
        for i, t in enumerate(plays):
            where = f"last_trick.plays[{i}]"
            t = obj(t, where)
            seat(field(t, "seat", where), f"{where}.seat", players)
            if "cards" in t:
                cards(t["cards"], f"{where}.cards", deck)
                text(field(t, "kind", where), f"{where}.kind", 40)
            elif t.get("pass") is not True:
                raise fail(where, "neither a play nor a pass")
    req = opt_card(field(d, "required_card"), "required_card", deck)
    boolean(field(d, "opening"), "opening")
    if d["deal_over"]:
        if not any(not h for h in hs):
            raise fail("deal_over", "the deal is over but nobody has played out")
        return
    if choosing:
        return
    if not all(hs):
        empty = next(i for i, h in enumerate(hs) if not h)
        raise fail("hands", f"seat {empty} has no cards but the deal goes on")
    if top is not None and current == top_seat:
        raise fail("current", "the seat on top of the trick is asked to beat its own play")
    if req is not None:
        if top is not None:
            raise fail("required_card", "the opening card is still required after a play")
        if req not in hs[current]:
            raise fail("required_card", f"{req} must open the deal but seat {current} lacks it")
