"""The player's settings, kept between runs: the theme, the AI pace, how long a finished
trick stays, how each game's hand is sorted, the rules picker's last choices for each
game (seats, AI levels, house rules), which first-game tips have been shown (and whether
tips are on at all) and the progress through the lessons.

One small JSON file, ``settings.json`` in :func:`twos_tui.play.paths.data_dir`, written
atomically (a temporary file, then ``os.replace``): a crash never leaves half a file. A
missing, unreadable or damaged file gives the defaults; unknown values are dropped one by
one, so one bad entry never costs the rest.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from ..jsontypes import JsonObject
from .paths import data_dir

if TYPE_CHECKING:
    from ..engine.protocol import OptionSpec

SETTINGS_FORMAT = 1
FILE_NAME = "settings.json"

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
TRICK_PAUSES = ("pace", "key")
DEFAULT_TRICK_PAUSE = "pace"
#: seconds a finished trick stays, per AI pace, with the "pace" trick pause
TRICK_PAUSE_SECONDS = {"instant": 1.5, "normal": 2.0, "slow": 3.0}
TRICK_PAUSE_LABELS = {
    "pace": "A moment to read it (any key goes on)",
    "key": "Until you press a key",
}
SORTS = ("rank", "suit")
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


class SettingsJson(TypedDict):
    """``settings.json`` as this version writes it (each key optional when read: a
    missing or bad one is its default)."""

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
    return data_dir() / FILE_NAME


def load() -> Settings:
    """The saved settings, or the defaults when there are none (or they cannot be read)."""
    try:
        text = settings_path().read_text(encoding="utf-8")
        return Settings.from_json(json.loads(text))
    except (OSError, ValueError):
        return Settings()


def save(settings: Settings) -> str | None:
    """Write ``settings`` atomically; ``None``, or why it could not be written (the app
    goes on with the settings in memory)."""
    path = settings_path()
    tmp = path.with_name(FILE_NAME + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(settings.to_json(), indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"Settings not saved: {e.strerror or e}"
    return None
