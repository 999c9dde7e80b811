"""What a save holds, whatever the file: its format (an older one migrated step by
step, :data:`MIGRATIONS`; a newer one refused), and the validation of the whole save
(:func:`load_save_data`): its own fields, then the engine's ``load_game``, and the game
being its own replay. The files themselves (reading, writing, listing) are
:mod:`twos_tui.play.saves`, which re-exports all of this."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, TypeGuard

from ..jsontypes import JsonObject, JsonValue
from .names import clean_name, clean_strings, needs_cleaning

if TYPE_CHECKING:
    from ..engine import Game

SAVE_FORMAT = 2  #: the format this version writes (see MIGRATIONS for older ones)


class SaveError(Exception):
    """A save that cannot be offered; ``str(err)`` is the reason, for the player."""


class NewerSaveError(SaveError):
    """A save written by a newer version of twos-tui (never overwritten)."""


# ----- what a save holds ---------------------------------------------------------------


class SeatJson(TypedDict):
    """Who sits in a seat of a save (and of a history record)."""

    name: str
    kind: str  #: "human" or "ai" ("remote" in the history: a hosted table's guest)
    level: str  #: the AI's level (kept for people too)


class ClockJson(TypedDict):
    """Seconds at the table: in the whole match, in the current deal."""

    match: float
    deal: float


class SaveJson(TypedDict):
    """A save as this version writes it (format :data:`SAVE_FORMAT`). A file is read as
    unknown JSON (:func:`load_save_data` checks it); the game's own data is the
    engine's (``to_json``/``load_game``), passed through as it is."""

    format: int
    app: str  #: the program that wrote it ("twos-tui 0.4")
    created: float
    updated: float
    variant_name: str
    seats: list[SeatJson]
    ai_rngs: dict[str, list[object]]  #: seat (as text) -> its AI generator's state
    clock: ClockJson
    hints: list[list[int]]  #: [deal, seat, hints asked]
    game: JsonObject  #: the engine's ``to_json()``


# ----- formats ------------------------------------------------------------------------


def _from_format_1(data: JsonObject) -> JsonObject:
    """Format 1 (twos-tui 0.1): no ``created`` time, no writer version, and AI levels
    could carry the old alias ``basic``. Format 2 adds ``created`` and ``app`` and keeps
    levels by their current names."""
    from ..ai import LEVEL_ALIASES

    out = dict(data)
    out["format"] = 2
    out.setdefault("created", data.get("updated"))
    out.setdefault("app", "twos-tui 0.1")
    seats = data.get("seats")
    if isinstance(seats, list):
        new: list[JsonValue] = []
        for s in seats:
            level = s.get("level") if isinstance(s, dict) else None
            if isinstance(s, dict) and isinstance(level, str):
                s = {**s, "level": LEVEL_ALIASES.get(level, level)}
            new.append(s)
        out["seats"] = new
    return out


#: format N -> the function that turns a format-N save into format N + 1
MIGRATIONS = {1: _from_format_1}


def migrate(data: JsonObject) -> JsonObject:
    """``data`` in the current :data:`SAVE_FORMAT`; :class:`NewerSaveError` for a save
    from a newer version, :class:`SaveError` for one with no usable format."""
    fmt = data.get("format")
    if type(fmt) is not int or fmt < 1:
        raise SaveError(f"it has no save format version (found {fmt!r:.20})")
    if fmt > SAVE_FORMAT:
        app = data.get("app")
        # (the program's name is shown: escape codes in it never reach the terminal)
        by = f" by {clean_name(app, '')}" if isinstance(app, str) and len(app) < 40 else ""
        by = "" if by == " by " else by
        raise NewerSaveError(
            f"it was saved{by} in format {fmt}, newer than this version reads "
            f"(format {SAVE_FORMAT}): update twos-tui to continue it"
        )
    while fmt < SAVE_FORMAT:
        data = MIGRATIONS[fmt](data)
        fmt = data["format"]
        assert type(fmt) is int  # (each migration writes its format)
    return data


# ----- validation --------------------------------------------------------------------


@dataclass
class LoadedSave:
    """A validated save: the rebuilt game and what the session needs around it."""

    data: JsonObject  #: migrated and cleaned (its fields checked; read them as JSON)
    game: Game  #: the engine game
    seats: list[SeatJson]  #: name, kind, level per seat (cleaned, checked)
    ai_rngs: dict[int, random.Random]  #: seat -> its AI's generator
    updated: float
    created: float
    clock: ClockJson | None = None  #: the time at the table, when the save keeps it


def _clock(raw: JsonValue) -> ClockJson | None:
    """A save's clock (already checked: each time a number in range, a missing one 0)."""
    if not isinstance(raw, dict):
        return None
    match, deal = raw.get("match", 0), raw.get("deal", 0)
    return {
        "match": float(match) if _number(match) else 0.0,
        "deal": float(deal) if _number(deal) else 0.0,
    }


#: the fields of a save (format 2); any other is damage, not something to ignore
SAVE_FIELDS = frozenset(
    ("format", "app", "created", "updated", "variant_name", "seats", "ai_rngs", "clock")
    + ("hints", "game")
)
MAX_CLOCK_S = 10 * 365 * 24 * 3600  #: ten years at one table: more is a damaged clock
MAX_HINT_ENTRIES = 100_000


def _number(v: object) -> TypeGuard[int | float]:
    """A JSON number (not ``true``/``false``, which Python counts as numbers)."""
    return type(v) in (int, float)


def is_hint_entry(entry: object) -> TypeGuard[list[int]]:
    """``[deal, seat, count]``: three whole numbers (their ranges are checked apart)."""
    return type(entry) is list and len(entry) == 3 and all(type(x) is int for x in entry)


def _check_extras(data: JsonObject, players: int, deal_number: int) -> None:
    """The save's own fields around the game, as strictly as the game's: unknown
    fields, a clock that is not two sensible durations, hint counts that are not
    ``[deal, seat, count]`` of this game are refused, with the reason."""
    unknown = sorted(k for k in data if k not in SAVE_FIELDS)
    if unknown:
        raise SaveError(f"it holds a field no save has ({unknown[0]!r:.30})")
    app = data.get("app")
    if app is not None and (not isinstance(app, str) or len(app) > 100):
        raise SaveError("the name of the program that wrote it is damaged")
    name = data.get("variant_name")
    if name is not None and (not isinstance(name, str) or len(name) > 100):
        raise SaveError("the name of its game is damaged")
    clock = data.get("clock")
    if clock is not None:
        if type(clock) is not dict or set(clock) - {"match", "deal"}:
            raise SaveError("its clock is damaged (not the time at the table and in the deal)")
        for key, what in (("match", "the match"), ("deal", "the deal")):
            v = clock.get(key, 0)
            if not _number(v) or not 0 <= v <= MAX_CLOCK_S:
                raise SaveError(f"its clock is damaged (the time in {what} is {v!r:.30})")
    hints = data.get("hints")
    if hints is not None:
        if type(hints) is not list or len(hints) > MAX_HINT_ENTRIES:
            raise SaveError("its hint counts are damaged (not a list of counts)")
        for i, entry in enumerate(hints):
            ok = (
                is_hint_entry(entry)
                and 0 <= entry[0] <= deal_number
                and 0 <= entry[1] < players
                and 0 < entry[2] <= 1_000_000
            )
            if not ok:
                raise SaveError(
                    f"its hint counts are damaged (entry {i + 1} is {entry!r:.40}, "
                    "not [deal, seat, count])"
                )


def _finite_time(v: object, where: str) -> float:
    if not _number(v) or not (0 <= v < 1e11):  # NaN fails both comparisons
        raise SaveError(f"{where} is not a time ({v!r:.30})")
    return float(v)


def _first_difference(a: object, b: object, where: str = "") -> str:
    """Where two JSON values first differ, as a short path (``hands[2]``)."""
    if type(a) is dict and type(b) is dict:
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
    elif type(a) is list and type(b) is list and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
    return where or "the game"


def replayed_exactly(data: JsonObject) -> Game | None:
    """The game a save's data describes, made by the engine from its seed and its moves,
    when that gives exactly the data (every key, every value); else ``None`` (then
    :func:`check_replays` and the engine's own checks say what is wrong). A genuine save
    is its own replay: this is the whole check for it, and cheaper than the engine's
    checks of a state it is given (a finished match of 500 moves: about 15 ms)."""
    from ..engine import Action, new_game

    variant, players, options = data.get("variant"), data.get("players"), data.get("options")
    seed, names, actions = data.get("seed"), data.get("names"), data.get("actions")
    if not (
        isinstance(variant, str)
        and type(players) is int
        and isinstance(options, dict)
        and type(seed) is int
        and isinstance(names, list)
        and all(isinstance(n, str) for n in names)
        and isinstance(actions, list)
    ):
        return None  # not what the engine wrote: its own checks say what is wrong
    try:
        g = new_game(variant, players, dict(options), seed, [str(n) for n in names])
        for pair in actions:
            if not (isinstance(pair, list) and len(pair) == 2):
                return None
            seat, act = pair
            if type(seat) is not int or not isinstance(act, dict):
                return None
            if g.deal_over and not g.match_over and not g.to_act():
                g.next_deal()
            g.apply(seat, Action.from_json(act))
        target = data["deal_number"]
        while type(target) is int and g.deal_number < target and g.deal_over:
            if g.match_over:
                break
            g.next_deal()
        same = json.loads(json.dumps(g.to_json(), allow_nan=False)) == data
    except Exception:  # whatever the data breaks: not its own replay
        return None
    return g if same else None


def check_replays(game: Game, held: set[str] | None = None) -> None:
    """A save is accepted only if replaying its seed and its moves with the engine gives
    exactly the state it holds: a list of moves reversed, emptied or cut, cards moved
    or swapped between hands, scores or flags changed by hand are all refused here with
    a short reason (the engine's own checks see only that the cards add up). ``held``:
    the keys the saved game data holds (an older save lacks what the engine gained
    since, filled in on loading: only what it holds is compared)."""
    from ..engine import EngineError

    try:
        replayed = game.replay()
    except EngineError as e:
        raise SaveError(f"its moves do not replay from its seed ({str(e)[:120]})") from None
    except Exception as e:  # a move the engine cannot even read
        raise SaveError(f"its moves do not replay from its seed ({type(e).__name__})") from None
    mine, again = game.to_json(), replayed.to_json()
    if held is not None:
        mine = {k: v for k, v in mine.items() if k in held}
        again = {k: v for k, v in again.items() if k in held}
    if mine != again:
        where = _first_difference(mine, again)
        raise SaveError(
            f"it does not match a replay of its own seed and moves ({where[:60]} differs)"
        )


def load_save_data(data: object) -> LoadedSave:
    """Migrate, clean and validate a save's data as a whole, rebuilding its game;
    :class:`SaveError` (or :class:`NewerSaveError`) with the reason if it fails."""
    from ..ai import BASELINES, LEVELS
    from ..engine import GameDataError, load_game
    from ..engine.validate import rng_state

    if type(data) is not dict:
        raise SaveError("it is not a save (not a JSON object)")
    save: JsonObject = migrate(data)
    if needs_cleaning(save):
        save = clean_strings(save)
    updated = _finite_time(save.get("updated"), "the time it was saved")
    created = save.get("created", updated)
    created = _finite_time(created, "the time it was started") if created is not None else updated
    game_data = save.get("game")
    if type(game_data) is not dict:
        raise SaveError("it holds no game")
    # the engine's own names are shown too: cleaned the same way as the seats'
    names = game_data.get("names")
    if type(names) is list:
        game_data["names"] = [
            clean_name(n, f"Player {i + 1}") if isinstance(n, str) else n
            for i, n in enumerate(names)
        ]
    game = replayed_exactly(game_data)
    if game is None:  # not a replay of itself: the engine's checks say what is wrong
        try:
            game = load_game(game_data)
        except GameDataError as e:
            raise SaveError(f"the game in it is damaged: {e}") from None
        check_replays(game, set(game_data))
    _check_extras(save, game.players, game.deal_number)
    raw_seats = save.get("seats")
    if type(raw_seats) is not list or len(raw_seats) != game.players:
        have = len(raw_seats) if type(raw_seats) is list else "no"
        raise SaveError(f"it has {have} seats for {game.players} players")
    seats: list[SeatJson] = []
    for i, s in enumerate(raw_seats):
        if type(s) is not dict or not isinstance(s.get("name"), str):
            raise SaveError(f"seat {i + 1} is damaged")
        kind = s.get("kind", "human")
        level = s.get("level", "normal")
        if not isinstance(kind, str) or kind not in ("human", "ai"):
            raise SaveError(f"seat {i + 1} is neither a person nor the computer ({kind!r:.20})")
        if not isinstance(level, str) or level not in LEVELS + BASELINES:
            raise SaveError(f"seat {i + 1} has an unknown AI level ({level!r:.20})")
        seats.append({"name": game.names[i], "kind": kind, "level": level})
    raw_rngs = save.get("ai_rngs", {})
    if type(raw_rngs) is not dict:
        raise SaveError("the AI players' random generators are damaged")
    rngs = {}
    for k, v in raw_rngs.items():
        if not (isinstance(k, str) and k.isdigit() and int(k) < game.players):
            raise SaveError(f"an AI generator belongs to no seat ({k!r:.20})")
        try:
            rngs[int(k)] = rng_state(v, f"the AI generator of seat {int(k) + 1}")
        except GameDataError as e:
            raise SaveError(str(e)) from None
    return LoadedSave(save, game, seats, rngs, updated, created, _clock(save.get("clock")))
