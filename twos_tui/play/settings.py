"""The player's settings, kept between runs, in two files:

* what a person sets (the theme, the four-colour deck, the AI pace, how long a finished
  trick stays, the hint level, how each game's hand is sorted, whether tips are on, and
  the defaults of a new table: name, game, player count, AI level): ``config.toml``, the
  file a person may edit (:mod:`twos_tui.play.config`: read with tomllib, written back
  with the player's comments kept when a setting changes in the app);
* what the app records for itself (the rules picker's last choices for each game: seats,
  AI levels, house rules; the game started last; the first-game tips already shown; the
  lessons' progress): ``state.json`` in :func:`twos_tui.play.paths.data_dir`, a small JSON
  file written atomically (a temporary file, then ``os.replace``). A missing, unreadable
  or damaged state gives the defaults; unknown values are dropped one by one.

Kept apart so that the file a person edits holds only what they would set, and changes
only when they change a setting, never at each game started or tip shown.

The ``settings.json`` of earlier versions (everything in one file in the data folder) is
moved once, at the first start that finds it: its settings into ``config.toml`` (when
there is none yet), its records into ``state.json``; it is then renamed
``settings.json.migrated``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from ..jsontypes import JsonObject
from . import config
from .paths import config_path, data_dir

if TYPE_CHECKING:
    from ..engine.protocol import OptionSpec

SETTINGS_FORMAT = 1
#: the app's own records (the picker's choices, tips shown, lessons)
FILE_NAME = "state.json"
#: everything in one file, as versions before issue 32 kept it: moved once
OLD_FILE_NAME = "settings.json"
MIGRATED_SUFFIX = ".migrated"

log = logging.getLogger("twos_tui.settings")

#: AI pace: seconds an AI waits before its move, and how long a finished trick (or a 2v1
#: hand) stays on the table before the next lead
PACES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "normal": (0.6, 1.2),
    "slow": (1.2, 2.5),
}
DEFAULT_PACE = "normal"
PACE_LABELS = {
    "instant": "Instant: AI moves at once",
    "normal": "Normal: a short pause",
    "slow": "Slow: time to follow every card",
}
#: how long a finished trick (or a 2v1 hand) stays on the table before an AI plays on,
#: at a table with a person: "pace", a time to read it that grows with the AI pace (a key
#: goes on at once); "key", until a key is pressed. (A demo follows the pace alone.)
TRICK_PAUSES = config.TRICK_PAUSES  # ("pace", "key")
DEFAULT_TRICK_PAUSE = "pace"
#: seconds a finished trick stays, per AI pace, with the "pace" trick pause
TRICK_PAUSE_SECONDS = {"instant": 1.5, "normal": 2.0, "slow": 3.0}
TRICK_PAUSE_LABELS = {
    "pace": "A moment to read it (any key goes on)",
    "key": "Until you press a key",
}
SORTS = config.SORTS  # ("rank", "suit")
#: games whose hand reads best sorted by suit (you follow suit in them)
SUIT_SORTED = ("twos-tricks",)


def default_sort(variant_id: str) -> str:
    return "suit" if variant_id in SUIT_SORTED else "rank"


# ----- the file's shape ---------------------------------------------------------------
# (house rules are kept as JSON values by option id: the engine checks them when a game
# starts with them, so they stay unknown JSON here)


class PickerChoiceJson(TypedDict):
    """A :class:`PickerChoice` in the file."""

    players: int | None
    seats: list[dict[str, str]]  #: name, kind, level
    options: JsonObject
    by_players: dict[str, JsonObject]  #: player count (as text) -> house rules


class LessonProgress(TypedDict):
    """How far a lesson has got: the steps passed (their indexes) and the stars (0-3)."""

    done: list[int]
    stars: int


class StateJson(TypedDict):
    """``state.json``, the app's own records, as this version writes it (each key
    optional when read: a missing or bad one is its default)."""

    format: int
    picker: dict[str, PickerChoiceJson]
    last_variant: str | None
    tips_seen: list[str]
    lessons: dict[str, LessonProgress]


class SettingsJson(TypedDict):
    """``settings.json`` as the versions before issue 32 wrote it (read once, to move it:
    :func:`migrate`)."""

    format: int
    theme: str | None
    four_colour: bool
    ai_pace: str
    trick_pause: str
    hint_level: str
    sort: dict[str, str]
    picker: dict[str, PickerChoiceJson]
    last_variant: str | None
    tips: bool
    tips_seen: list[str]
    lessons: dict[str, LessonProgress]


@dataclass
class PickerChoice:
    """What the rules picker last started for one game. The house rules are also kept
    for each player count (``by_players``): some of them (Twos' hand size) have a usual
    value that depends on the count."""

    players: int | None = None
    seats: list[dict[str, str]] = field(default_factory=list)  #: name, kind, level
    options: JsonObject = field(default_factory=dict)
    #: player count -> the house rules last started with that many players
    by_players: dict[int, JsonObject] = field(default_factory=dict)

    def to_json(self) -> PickerChoiceJson:
        return {
            "players": self.players,
            "seats": self.seats,
            "options": self.options,
            "by_players": {str(n): o for n, o in sorted(self.by_players.items())},
        }

    def options_for(
        self, players: int, specs_of: Callable[[int], Sequence[OptionSpec]]
    ) -> JsonObject:
        """The house rules to offer for ``players``: those last started with that count;
        else the last ones, less those whose usual value depends on the count (a 13-card
        hand for three players is not kept for two, whose usual hand is 20).
        ``specs_of(n)``: the game's option specs for ``n`` players."""
        if players in self.by_players:
            return dict(self.by_players[players])
        if self.players == players or self.players is None:
            return dict(self.options)
        return carry_options(self.options, self.players, players, specs_of)

    @classmethod
    def from_json(cls, d: object) -> PickerChoice:
        if not isinstance(d, dict):
            return cls()
        players = d.get("players")
        listed = d.get("seats")
        seats = [
            {k: _valid(str(v)) for k, v in s.items() if k in ("name", "kind", "level")}
            for s in (listed if isinstance(listed, list) else [])
            if isinstance(s, dict)
        ]
        options = d.get("options")
        by: dict[int, JsonObject] = {}
        listed_by = d.get("by_players")
        for n, o in listed_by.items() if isinstance(listed_by, dict) else ():
            if str(n).isdigit() and isinstance(o, dict):
                by[int(n)] = dict(o)
        return cls(
            players if isinstance(players, int) else None,
            seats,
            dict(options) if isinstance(options, dict) else {},
            by,
        )


def _valid(text: str) -> str:
    """``text`` less any broken character (a lone surrogate, from a hand-edited file):
    a name given to a table must be text that can be sent."""
    from ..textdoor import sendable

    if sendable(text):
        return text
    from .names import clean_text

    return clean_text(text, 200)


def carry_options(
    options: JsonObject, before: int, after: int, specs_of: Callable[[int], Sequence[OptionSpec]]
) -> JsonObject:
    """The house rules of ``options`` (chosen for ``before`` players) that still hold for
    ``after`` players: a rule is dropped (back to its usual value) when its usual value
    differs between the two counts or the value is not offered for ``after``."""
    then = {spec.id: spec for spec in specs_of(before)}
    out: JsonObject = {}
    for spec in specs_of(after):
        old = then.get(spec.id)
        if old is None or spec.id not in options or old.default != spec.default:
            continue
        if any(v == options[spec.id] for v, _ in spec.choices):
            out[spec.id] = options[spec.id]
    return out


@dataclass
class Settings:
    #: what the settings file says of a new table (None: not set there): the name of
    #: its first seat, the game the picker opens on, its player count, its AIs' level
    name: str | None = None
    game: str | None = None
    players: int | None = None
    ai_level: str | None = None
    theme: str | None = None
    #: the four-colour deck: each suit its own colour (kept with the theme)
    four_colour: bool = False
    ai_pace: str = DEFAULT_PACE
    trick_pause: str = DEFAULT_TRICK_PAUSE
    #: the AI level hints come from (``ai.HINT_LEVELS``; the strongest by default)
    hint_level: str = "hard"
    sort: dict[str, str] = field(default_factory=dict)  #: variant id -> "rank" / "suit"
    picker: dict[str, PickerChoice] = field(default_factory=dict)  #: variant id -> choice
    last_variant: str | None = None
    tips: bool = True  #: first-game tips are shown (each once)
    tips_seen: list[str] = field(default_factory=list)  #: tip ids already shown
    #: lesson id -> progress: {"done": steps passed (a list of step indexes), "stars": 0-3}
    lessons: dict[str, LessonProgress] = field(default_factory=dict)

    # ----- tips ---------------------------------------------------------------------
    def tip_due(self, tip_id: str) -> bool:
        return self.tips and tip_id not in self.tips_seen

    def tip_shown(self, tip_id: str) -> None:
        if tip_id not in self.tips_seen:
            self.tips_seen.append(tip_id)

    def tips_back_on(self) -> None:
        """Every tip is shown again (once), from the next moment it matters."""
        self.tips = True
        self.tips_seen = []

    # ----- reading ------------------------------------------------------------------
    def sort_for(self, variant_id: str) -> str:
        return self.sort.get(variant_id) or default_sort(variant_id)

    def pace(self) -> tuple[float, float]:
        """(seconds before an AI move, seconds a finished trick stays shown)."""
        return PACES.get(self.ai_pace, PACES[DEFAULT_PACE])

    def trick_hold(self) -> float | None:
        """Seconds a finished trick stays before an AI plays on (None: until a key)."""
        if self.trick_pause == "key":
            return None
        pace = self.ai_pace if self.ai_pace in PACES else DEFAULT_PACE
        return TRICK_PAUSE_SECONDS[pace]

    def choice_for(self, variant_id: str) -> PickerChoice | None:
        return self.picker.get(variant_id)

    # ----- JSON ---------------------------------------------------------------------
    def to_json(self) -> SettingsJson:
        """Everything as one JSON object, in the shape of the old ``settings.json`` (the
        files are :meth:`state_json` and the settings file)."""
        return {
            "format": SETTINGS_FORMAT,
            "theme": self.theme,
            "four_colour": self.four_colour,
            "ai_pace": self.ai_pace,
            "trick_pause": self.trick_pause,
            "hint_level": self.hint_level,
            "sort": dict(self.sort),
            "picker": {k: v.to_json() for k, v in self.picker.items()},
            "last_variant": self.last_variant,
            "tips": self.tips,
            "tips_seen": list(self.tips_seen),
            "lessons": {k: v.copy() for k, v in self.lessons.items()},
        }

    def state_json(self) -> StateJson:
        return {
            "format": SETTINGS_FORMAT,
            "picker": {k: v.to_json() for k, v in self.picker.items()},
            "last_variant": self.last_variant,
            "tips_seen": list(self.tips_seen),
            "lessons": {k: v.copy() for k, v in self.lessons.items()},
        }

    # ----- the settings file ----------------------------------------------------------
    def apply_config(self, values: dict[str, object]) -> None:
        """What the settings file sets (checked: :func:`config.read`) wins."""
        for key, value in values.items():
            if key == "sort" and isinstance(value, dict):
                self.sort = {**self.sort, **value}
            elif key in CONFIG_KEYS:
                setattr(self, key, value)

    def configured_seat(self, seat: int, name: str, kind: str) -> tuple[str, str]:
        """A new table's seat ``seat`` (its name, and its kind: "human" or "ai:LEVEL", as
        the rules picker has them) as the settings file would have it: the player's name
        on the first seat (a person's), the file's AI level on every AI seat."""
        if seat == 0 and kind == "human" and self.name:
            name = self.name
        if kind.startswith("ai:") and self.ai_level in config.AI_LEVELS:
            kind = f"ai:{self.ai_level}"
        return name, kind

    def config_changes(self, values: dict[str, object]) -> tuple[dict[str, object], dict[str, str]]:
        """What differs from the settings file's ``values`` (a key it does not set counts
        as its usual value): (top-level keys, games' sorts) to write back."""
        usual = Settings()
        changes: dict[str, object] = {}
        for key in CONFIG_KEYS:
            mine = getattr(self, key)
            if mine is not None and mine != values.get(key, getattr(usual, key)):
                changes[key] = mine
        in_file = values.get("sort")
        kept = in_file if isinstance(in_file, dict) else {}
        sort = {g: how for g, how in self.sort.items() if how != kept.get(g, default_sort(g))}
        return changes, sort

    @classmethod
    def from_json(cls, d: object) -> Settings:
        s = cls()
        if not isinstance(d, dict):
            return s
        if isinstance(d.get("theme"), str):
            s.theme = d["theme"]
        if isinstance(d.get("four_colour"), bool):
            s.four_colour = d["four_colour"]
        if d.get("ai_pace") in PACES:
            s.ai_pace = d["ai_pace"]
        if d.get("trick_pause") in TRICK_PAUSES:
            s.trick_pause = d["trick_pause"]
        if d.get("hint_level") in ("normal", "hard"):
            s.hint_level = d["hint_level"]
        sort = d.get("sort")
        if isinstance(sort, dict):
            s.sort = {str(k): v for k, v in sort.items() if v in SORTS}
        picker = d.get("picker")
        if isinstance(picker, dict):
            s.picker = {str(k): PickerChoice.from_json(v) for k, v in picker.items()}
        if isinstance(d.get("last_variant"), str):
            s.last_variant = d["last_variant"]
        if isinstance(d.get("tips"), bool):
            s.tips = d["tips"]
        seen = d.get("tips_seen")
        if isinstance(seen, list):
            s.tips_seen = [t for t in seen if isinstance(t, str)][:500]
        lessons = d.get("lessons")
        if isinstance(lessons, dict):
            for k, v in lessons.items():
                progress = lesson_progress(v)
                if isinstance(k, str) and progress is not None:
                    s.lessons[k] = progress
        return s


#: the settings file's keys kept in :class:`Settings` under the same name (and "sort")
CONFIG_KEYS = tuple(f.name for f in fields(Settings) if f.name in config.KEYS and f.name != "sort")


def lesson_progress(v: object) -> LessonProgress | None:
    """A lesson's kept progress, cleaned: the steps passed (indexes) and the stars."""
    if not isinstance(v, dict):
        return None
    done = v.get("done")
    steps = sorted(
        {i for i in done if type(i) is int and 0 <= i < 100} if isinstance(done, list) else set()
    )
    stars = v.get("stars")
    return {"done": steps, "stars": stars if type(stars) is int and 0 <= stars <= 3 else 0}


def settings_path() -> Path:
    """``state.json``: the app's own records (the settings a person sets are in
    :func:`twos_tui.play.paths.config_path`)."""
    return data_dir() / FILE_NAME


@dataclass
class Loaded:
    """The settings, with a line for each problem of the settings file (warnings) and
    what was done on the way (the old file moved)."""

    settings: Settings
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def load() -> Settings:
    """The settings: the settings file's over the app's records; the defaults for what
    neither has (or cannot be read)."""
    return load_all().settings


def load_all() -> Loaded:
    """:func:`load`, and the problems met in the settings file (one line each, to show
    the player), after moving an old ``settings.json`` (:func:`migrate`)."""
    notices = migrate()
    settings = _read_state()
    found = config.read()
    settings.apply_config(found.values)
    for problem in found.problems:
        log.warning("%s", problem)
    return Loaded(settings, found.problems, notices)


def _read_state(path: Path | None = None) -> Settings:
    try:
        text = (path or settings_path()).read_text(encoding="utf-8")
        return Settings.from_json(json.loads(text))
    except (OSError, ValueError):
        return Settings()


def save(settings: Settings) -> str | None:
    """Write the app's records (atomically) and the settings the player changed (into the
    settings file, comments kept); ``None``, or why something could not be written (the
    app goes on with the settings in memory)."""
    return _write_state(settings) or _write_config(settings)


def _write_state(settings: Settings) -> str | None:
    path = settings_path()
    tmp = path.with_name(FILE_NAME + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(settings.state_json(), indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"Settings not saved: {e.strerror or e}"
    return None


def _write_config(settings: Settings) -> str | None:
    found = config.read()
    changes, sort = settings.config_changes(found.values)
    if not changes and not sort:
        return None
    if found.broken:  # (the player's file is never written over: they fix it)
        return f"Settings not saved to {found.path}: fix the error in it first"
    return config.write(found.path, changes, sort)


def migrate() -> list[str]:
    """Move the ``settings.json`` of earlier versions, once: its settings into the
    settings file (when there is none yet: one already there is the player's and wins),
    its records into ``state.json`` (when there is none yet); then it is renamed
    ``settings.json.migrated``. What was done, as lines for the player (none when there
    was nothing to move)."""
    old = data_dir() / OLD_FILE_NAME
    if not old.is_file():
        return []
    try:
        data: object = json.loads(old.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None  # (a damaged file: nothing to keep, but still moved aside)
    settings = Settings.from_json(data)
    target = config_path()
    problem = None
    if not settings_path().exists():
        problem = _write_state(settings)
    if problem is None and not config.read(target).exists:
        changes, sort = settings.config_changes({})
        if changes or sort:
            problem = config.write(target, changes, sort)
    if problem is None:
        try:
            os.replace(old, old.with_name(OLD_FILE_NAME + MIGRATED_SUFFIX))
        except OSError as e:
            problem = f"{old}: {e.strerror or e}"
    if problem is not None:
        log.warning("settings.json not moved yet: %s", problem)
        return []
    note = f"Your settings moved to {target} (the old file is kept as {old.name}{MIGRATED_SUFFIX})"
    log.info("%s", note)
    return [note]
