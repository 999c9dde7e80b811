"""The settings file a person edits: ``config.toml`` in the user config folder
(:func:`twos_tui.play.paths.config_path`; ``twos-tui --config PATH`` names another).

Every key is optional; what the file sets wins over what the app remembers, what it
leaves out takes the app's remembered or usual value. Read with ``tomllib`` at the start
(cheap); written back with ``tomlkit`` (imported only then) when the player changes a
setting in the app (the theme, the pace, a game's sort, ...): only the keys that changed
are touched, so the player's comments, order and spacing stay as they were.

The app's own records (each game's last picker choices, the tips already shown, the
lessons' progress) are not settings a person edits: they stay in ``state.json`` in the
data folder (:mod:`twos_tui.play.settings`).

Nothing in the file stops the app: a file that is not TOML gives the usual settings and
one line naming the file and where it is broken (tomllib's own "at line N, column M");
unknown keys, one line naming them; a key of the wrong type or value, one line, and that
key takes its usual value.
"""

from __future__ import annotations

import contextlib
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .paths import config_path

#: the AI levels (``twos_tui.ai.LEVELS``; not imported: the home screen starts without
#: the AI, and tests/test_config.py holds the two equal)
AI_LEVELS = ("easy", "normal", "hard")
PACES = ("instant", "normal", "slow")
TRICK_PAUSES = ("pace", "key")
HINT_LEVELS = ("normal", "hard")
SORTS = ("rank", "suit")
#: the games' ids (``twos_tui.engine.VARIANT_IDS``; not imported: the home screen starts
#: without the engine, and tests/test_config.py holds the two equal)
GAMES = ("twos", "big-two", "big-two-5r", "chinese-poker", "2v1", "twos-tricks")
MAX_PLAYERS = 8

#: the file the app makes when it first writes a setting (its comments are the player's
#: to keep or remove)
TEMPLATE = """\
# twos-tui settings. Edit freely: the app keeps your comments when it changes a setting
# (the theme, the AI pace, a game's sort, ...). Every key is optional: remove one to get
# its usual value. What is set here wins over what the app remembers from last time.
#
# name = "Ann"            # your name at the table
# game = "twos"           # the game the rules picker opens on: twos, big-two,
#                         # big-two-5r, chinese-poker, 2v1 or twos-tricks
# players = 3             # seats at a new table (where the game allows that many)
# ai_level = "normal"     # the AI seats of a new table: easy, normal or hard
# ai_pace = "normal"      # instant, normal or slow
# trick_pause = "pace"    # a finished trick stays: "pace" (a moment) or "key" (until a key)
# hint_level = "hard"     # the AI that gives hints: normal or hard
# theme = "textual-dark"  # any theme of the command palette's "Change theme"
# four_colour = false     # each suit its own colour
# tips = true             # first-game tips
#
# [sort]                  # how each game's hand is sorted: "rank" or "suit"
# twos = "rank"
"""


def _choice(options: tuple[str, ...]) -> Callable[[object], bool]:
    return lambda v: isinstance(v, str) and v in options


def _name(v: object) -> bool:
    from .names import clean_name

    return isinstance(v, str) and bool(v.strip()) and clean_name(v, "") == " ".join(v.split())


#: each key: (what it must be, in words; the check)
KEYS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "name": ("a name (text, at most 16 characters)", _name),
    "game": ("one of " + ", ".join(f'"{g}"' for g in GAMES), _choice(GAMES)),
    "players": (
        f"a whole number from 1 to {MAX_PLAYERS}",
        lambda v: type(v) is int and 1 <= v <= MAX_PLAYERS,
    ),
    "ai_level": (" or ".join(f'"{x}"' for x in AI_LEVELS), _choice(AI_LEVELS)),
    "ai_pace": (" or ".join(f'"{x}"' for x in PACES), _choice(PACES)),
    "trick_pause": (" or ".join(f'"{x}"' for x in TRICK_PAUSES), _choice(TRICK_PAUSES)),
    "hint_level": (" or ".join(f'"{x}"' for x in HINT_LEVELS), _choice(HINT_LEVELS)),
    "theme": ("a theme's name in quotes", lambda v: isinstance(v, str) and bool(v.strip())),
    "four_colour": ("true or false", lambda v: isinstance(v, bool)),
    "tips": ("true or false", lambda v: isinstance(v, bool)),
    "sort": (
        'a table of games, each "rank" or "suit" ([sort] then twos = "suit")',
        lambda v: isinstance(v, dict),
    ),
}


@dataclass
class ConfigFile:
    """What the settings file says: the valid values (only the keys it sets) and a line
    for each problem met."""

    path: Path
    values: dict[str, object] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: the file is there but could not be read or is not TOML: it is never written over
    broken: bool = False
    exists: bool = False


def _shown(value: object) -> str:
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 40 else text[:37] + "..."


def read(path: Path | None = None) -> ConfigFile:
    """Read and check the settings file (``path``, else :func:`config_path`)."""
    path = path if path is not None else config_path()
    found = ConfigFile(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return found
    except (OSError, UnicodeDecodeError) as e:
        found.exists = found.broken = True
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        found.problems.append(f"{path}: cannot be read ({reason}); using the usual settings")
        return found
    except tomllib.TOMLDecodeError as e:
        found.exists = found.broken = True
        found.problems.append(f"{path}: not valid TOML, {e}; using the usual settings")
        return found
    found.exists = True
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        found.problems.append(f"{path}: unknown settings ignored: {', '.join(unknown)}")
    for key, (wanted, ok) in KEYS.items():
        if key not in data:
            continue
        value = data[key]
        if not ok(value):
            found.problems.append(
                f"{path}: {key} must be {wanted}, not {_shown(value)}; using the usual one"
            )
            continue
        if key == "sort":
            assert isinstance(value, dict)
            sort = {}
            for game, how in value.items():
                if game not in GAMES:
                    found.problems.append(f"{path}: sort.{game}: there is no such game, ignored")
                elif how in SORTS:
                    sort[game] = how
                else:
                    found.problems.append(
                        f'{path}: sort.{game} must be "rank" or "suit", not {_shown(how)}; '
                        "using the usual one"
                    )
            value = sort
        found.values[key] = value
    return found


def write(path: Path, changes: dict[str, object], sort: dict[str, str]) -> str | None:
    """Set ``changes`` (top-level keys) and ``sort`` (games' sorts) in the file at
    ``path``, keeping everything else of it as it is (comments too); made from
    :data:`TEMPLATE` when it is not there. Written atomically. None, or why not."""
    import tomlkit
    from tomlkit.items import InlineTable, Table

    new = False
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text, new = TEMPLATE, True
    except (OSError, UnicodeDecodeError) as e:
        return f"Settings not saved: {path} cannot be read ({e})"
    try:
        doc = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as e:
        return f"Settings not saved: {path} is not valid TOML ({e})"
    if new:
        doc.add(tomlkit.nl())  # (a blank line between the template and the settings)
    for key, value in changes.items():
        doc[key] = value
    if sort:
        table = doc.get("sort")
        if not isinstance(table, Table | InlineTable):
            table = tomlkit.table()
            doc["sort"] = table
        for game, how in sort.items():
            table[game] = how
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"Settings not saved to {path}: {e.strerror or e}"
    return None
