"""Saved games: one JSON file per match, rewritten after every action.

The data directory is ``$TWOS_TUI_HOME`` when set (the tests point it at a temporary
directory), else the platform's user data directory (see :mod:`twos_tui.play.paths`).
A save holds the engine's own ``to_json()`` data plus what the app needs to resume (who
sits where, AI levels and the AI generators' state); games are rebuilt with the engine's
``load_game`` only.

Nothing in the saves folder is trusted:

* a file is read only if it is a regular file (links are not followed; a FIFO or a
  device never blocks: it is opened non-blocking and refused), at most
  :data:`MAX_SAVE_BYTES`, as UTF-8 JSON without ``NaN``/``Infinity``;
* the format version is checked: an older format is migrated step by step
  (:data:`MIGRATIONS`), a newer one is refused with a message and never written over;
* the whole save is validated (:func:`load_save_data`): its own fields, then the
  engine's ``load_game`` (card census, seats, whose turn, the engine's consistency
  check), and every string in it is cleaned of control characters before it can reach
  the screen;
* a save that fails is listed as *damaged* with the reason; :func:`move_to_damaged`
  moves it into ``damaged/`` without ever overwriting a file there.

Writes go to a temporary file made with exclusive creation in the saves folder (a planted
link is never followed), are flushed to disk (``fsync``), then renamed over the save.

The files are here (reading, writing, listing); what a save holds, its formats and its
validation are :mod:`.save_data`, re-exported here (callers import ``saves``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..jsontypes import JsonObject
from .names import clean_text
from .paths import data_dir

# (what a save holds: its format and validation, imported from here as ``saves.X``)
from .save_data import (
    MAX_CLOCK_S,
    MAX_HINT_ENTRIES,
    MIGRATIONS,
    SAVE_FIELDS,
    SAVE_FORMAT,
    ClockJson,
    LoadedSave,
    NewerSaveError,
    SaveError,
    SaveJson,
    SeatJson,
    check_replays,
    load_save_data,
    migrate,
    replayed_exactly,
)

__all__ = [
    "APP_TAG",
    "KEEP_SAVES",
    "MAX_BLANK_BYTES",
    "MAX_CLOCK_S",
    "MAX_HINT_ENTRIES",
    "MAX_SAVE_BYTES",
    "MIGRATIONS",
    "SAVE_FIELDS",
    "SAVE_FORMAT",
    "SAVE_ID_RE",
    "TEMP_MAX_AGE",
    "WRITER",
    "ClockJson",
    "LoadedSave",
    "NewerSaveError",
    "SaveError",
    "SaveInfo",
    "SaveJson",
    "SaveWriter",
    "SeatJson",
    "check_replays",
    "check_save_id",
    "damaged_dir",
    "delete_save",
    "describe_when",
    "describe_write_error",
    "forget",
    "inspect_save",
    "list_saves",
    "load_save_data",
    "migrate",
    "move_to_damaged",
    "now",
    "parse_save_bytes",
    "prune_saves",
    "read_save",
    "read_save_bytes",
    "remove_stray_temp_files",
    "replayed_exactly",
    "save_path",
    "saves_dir",
    "scan_saves",
    "write_save",
]

KEEP_SAVES = 30  #: older finished saves beyond this many are deleted
MAX_SAVE_BYTES = 16 * 2**20  #: a save file larger than this is refused unread
MAX_BLANK_BYTES = 64 * 1024  #: more blank space than this (and a quarter of the file): refused
SAVE_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,119}")
TEMP_MAX_AGE = 3600.0  #: a temporary file older than this (seconds) is a leftover


def saves_dir() -> Path:
    return data_dir() / "saves"


def damaged_dir() -> Path:
    return saves_dir() / "damaged"


def check_save_id(save_id: str) -> str:
    if not isinstance(save_id, str) or not SAVE_ID_RE.fullmatch(save_id):
        raise ValueError(f"not a save id: {save_id!r:.60}")
    return save_id


def save_path(save_id: str) -> Path:
    return saves_dir() / f"{check_save_id(save_id)}.json"


# ----- reading -----------------------------------------------------------------------


def _describe_os_error(e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return "it is a symbolic link (links are not followed)"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "it cannot be read (permission denied)"
    if e.errno == errno.ENOENT:
        return "it has gone (or is a broken link)"
    return f"it cannot be read ({e.strerror or e})"


def read_save_bytes(path: Path, limit: int = MAX_SAVE_BYTES) -> bytes:
    """The bytes of a save file, or :class:`SaveError`: regular files only (links are
    not followed, FIFOs and devices are refused without blocking), at most ``limit``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        if os.path.islink(path):  # O_NOFOLLOW's error is not the same everywhere
            raise SaveError("it is a symbolic link (links are not followed)")
        fd = os.open(path, flags)
    except SaveError:
        raise
    except OSError as e:
        raise SaveError(_describe_os_error(e)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise SaveError("it is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise SaveError("it is not a regular file (a pipe or a device)")
        if st.st_size > limit:
            raise SaveError(f"it is too large ({st.st_size:,} bytes; a save is under {limit:,})")
        chunks = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError as e:
                raise SaveError(_describe_os_error(e)) from None
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise SaveError(f"it is too large (over {limit:,} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_save_bytes(raw: bytes) -> JsonObject:
    """The JSON object of a save file's bytes, or :class:`SaveError`."""
    if not raw.strip():
        raise SaveError("the file is empty")
    blank = len(raw) - len(raw.translate(None, b" \t\r\n"))
    if blank > MAX_BLANK_BYTES and blank * 4 > len(raw):
        # twos-tui writes compact JSON: a file that is mostly blank space is not its own
        raise SaveError(f"it is padded with {blank:,} bytes of blank space (not a save's)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError("it is not text (binary data)") from None
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise SaveError("it is not a save (JSON nested too deeply)") from None
    except ValueError as e:
        msg = str(e).split(":")[0] if "line" in str(e) else str(e)
        raise SaveError(f"it is not valid JSON ({msg[:80]}); the file may be cut short") from None
    if type(data) is not dict:
        kind = {list: "a list", str: "a string", type(None): "null", bool: "true or false"}
        what = kind.get(type(data), "a number")
        raise SaveError(f"it is not a save (JSON {what}, not an object)")
    if not data:
        raise SaveError("it is not a save (an empty object)")
    return data


def read_save(path: Path) -> JsonObject:
    """A save file's data as it was written (not migrated, not validated)."""
    return parse_save_bytes(read_save_bytes(Path(path)))


# ----- writing -----------------------------------------------------------------------


def _fsync_dir(d: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(d, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_save(save_id: str, data: SaveJson | str) -> Path:
    """Write a save atomically (a crash mid-write never leaves a half file): a new
    temporary file (exclusive creation, links never followed) in the saves folder,
    written, ``fsync``-ed, then renamed over the save. ``data`` is the save or its
    JSON text. Raises ``OSError`` (with a reason a player can read) if it cannot."""
    path = save_path(save_id)
    d = path.parent
    d.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, allow_nan=False)
    raw = text.encode("utf-8")
    if len(raw) > MAX_SAVE_BYTES:
        raise OSError(errno.EFBIG, "the game is too long to save")
    with contextlib.suppress(FileNotFoundError):
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EEXIST, f"{path.name} is not a regular file: not replaced")
    fd, tmp = tempfile.mkstemp(prefix=f".{save_id}.{os.getpid()}.", suffix=".tmp", dir=d)
    try:
        try:
            view = memoryview(raw)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(d)
    forget(path)
    return path


def _pid_alive(pid: int) -> bool:
    from .procs import pid_alive  # (portable: never os.kill on Windows)

    return pid_alive(pid)


_TEMP_RE = re.compile(r"\.(?P<id>.+)\.(?P<pid>\d+)\.[^.]+\.tmp")


def remove_stray_temp_files(max_age: float = TEMP_MAX_AGE) -> int:
    """Delete temporary files a killed writer left in the saves folder: those whose
    writing process is gone, and any older than ``max_age`` seconds. Returns how many."""
    d = saves_dir()
    removed = 0
    try:
        entries = list(os.scandir(d))
    except OSError:
        return 0
    now = time.time()
    for e in entries:
        if not e.name.endswith(".tmp"):
            continue
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
            continue
        m = _TEMP_RE.fullmatch(e.name)
        stale = now - st.st_mtime > max_age
        if m is not None and m["pid"].isdigit() and int(m["pid"]) != os.getpid():
            stale = stale or not _pid_alive(int(m["pid"]))
        elif m is None:  # the old writer's "<id>.tmp" (or a planted link): never ours now
            stale = True
        if stale:
            with contextlib.suppress(OSError):
                os.unlink(e.path)  # a link is removed itself, never its target
                removed += 1
    return removed


class SaveWriter:
    """Writes saves on one background thread, so the disk is never waited for between
    a keypress and the redrawn table.

    The caller turns the game into JSON text at once (a snapshot: later moves cannot
    change it) and hands it over; ``submit`` first waits for the previous write, so a
    save is always on disk before the next action's save starts, and ``flush`` waits for
    the last one (the app flushes when it closes). Each write is atomic (``write_save``).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.error: str | None = None  #: the last write's failure, if it failed

    def submit(self, save_id: str, text: str, prune: bool = False) -> None:
        self.flush()
        t = threading.Thread(
            target=self._write, args=(save_id, text, prune), name="twos-tui-save", daemon=True
        )
        with self._lock:  # started before another thread's flush can see it
            self._thread = t
            t.start()

    def _write(self, save_id: str, text: str, prune: bool) -> None:
        try:
            write_save(save_id, text)
            if prune:
                prune_saves()
            self.error = None
        except OSError as e:  # a read-only or full disk must not stop the game
            self.error = f"Could not save the game: {describe_write_error(e)}"
        except Exception as e:  # never let the save thread die silently
            self.error = f"Could not save the game: {type(e).__name__}: {e}"

    def flush(self) -> None:
        with self._lock:
            t = self._thread
        if t is not None:
            t.join()


def describe_write_error(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "the disk is full. Play on: the game is saved again once there is room."
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (
            f"the data folder cannot be written ({e.strerror}). "
            "Play on: the game is saved again once it can be."
        )
    if e.errno == errno.EDQUOT:
        return "the disk quota is used up. Play on: the game is saved again once there is room."
    return f"{e.strerror or e}. Play on: the game is saved again after the next move."


#: the app's one writer (one thread at a time, saves in order)
WRITER = SaveWriter()


# ----- listing -----------------------------------------------------------------------


@dataclass(frozen=True)
class SaveInfo:
    """One file in the saves folder, as Continue lists it.

    ``status`` is ``"ok"`` (it can be resumed), ``"damaged"`` (``problem`` says why) or
    ``"newer"`` (written by a newer version: refused, never overwritten)."""

    path: Path
    save_id: str
    status: str = "ok"
    problem: str | None = None
    variant: str = ""
    variant_name: str = ""
    names: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    score_label: str = ""
    deal_number: int = 0
    match_over: bool = False
    updated: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def display_name(self) -> str:
        """The file's name fit to show (a name may hold escape codes: they are taken
        out, so a file name never retitles or clears the terminal)."""
        return clean_text(self.path.name, 120) or "(a file with no printable name)"

    def opponents(self) -> str:
        """The other players as a person sees them: the humans by name, then the
        computer players with their level."""
        humans = [n for n, k in zip(self.names, self.kinds, strict=False) if k == "human"]
        ais = [
            f"{n} ({lv})"
            for n, k, lv in zip(self.names, self.kinds, self.levels, strict=False)
            if k == "ai"
        ]
        if len(humans) <= 1:
            return "vs " + ", ".join(ais) if ais else "solo"
        return " & ".join(humans) + (" vs " + ", ".join(ais) if ais else " (hot-seat)")

    def score(self) -> str:
        parts = [f"{n} {t}" for n, t in zip(self.names, self.totals, strict=False)]
        label = f"{self.score_label}: " if self.score_label else ""
        return label + ", ".join(parts)

    def when(self, now: float | None = None) -> str:
        return describe_when(self.updated, now)

    def describe(self) -> str:
        if self.status != "ok":
            return f"{self.display_name} · {self.problem}"
        deal = "match over" if self.match_over else f"deal {self.deal_number}"
        return f"{self.variant_name} · {self.opponents()} · {deal} · {self.score()} · {self.when()}"


def describe_when(t: float, now: float | None = None) -> str:
    now = time.time() if now is None else now
    lt = time.localtime(t)
    day = time.strftime("%Y-%m-%d", lt)
    today = time.strftime("%Y-%m-%d", time.localtime(now))
    yesterday = time.strftime("%Y-%m-%d", time.localtime(now - 86400))
    hm = time.strftime("%H:%M", lt)
    if now - 60 <= t <= now + 60:
        return "just now"
    if day == today:
        return f"today {hm}"
    if day == yesterday:
        return f"yesterday {hm}"
    if abs(now - t) < 180 * 86400:
        return time.strftime("%a %d %b %H:%M", lt)
    return time.strftime("%d %b %Y", lt)


def _info_of(path: Path, loaded: LoadedSave) -> SaveInfo:
    g = loaded.game
    return SaveInfo(
        path,
        path.stem,
        "ok",
        None,
        g.variant_id,
        g.name,
        [s["name"] for s in loaded.seats],
        [s["kind"] for s in loaded.seats],
        [s["level"] for s in loaded.seats],
        list(g.totals),
        g.score_label,
        g.deal_number,
        g.match_over,
        loaded.updated,
    )


def inspect_save(path: Path) -> SaveInfo:
    """Read and validate one file of the saves folder as a whole, finished matches too
    (never raises): a save marked as finished that a replay of its moves does not
    finish is listed as damaged, not hidden among the finished ones."""
    path = Path(path)
    try:
        data = read_save(path)
        loaded = load_save_data(data)
    except NewerSaveError as e:
        return SaveInfo(path, path.stem, "newer", clean_text(str(e), 400))
    except SaveError as e:
        return SaveInfo(path, path.stem, "damaged", clean_text(str(e), 400))
    except Exception as e:  # whatever else a file can do, it is a damaged save
        return SaveInfo(path, path.stem, "damaged", f"it cannot be read ({type(e).__name__})")
    return _info_of(path, loaded)


_CACHE: dict[str, tuple[tuple[Any, ...], SaveInfo]] = {}
_CACHE_LOCK = threading.Lock()


def forget(path: Path) -> None:
    with _CACHE_LOCK:
        _CACHE.pop(str(path), None)


def _cached_inspect(entry: os.DirEntry[str]) -> SaveInfo:
    try:
        st = entry.stat(follow_symlinks=False)
        key = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode)
    except OSError:
        key = None
    path = Path(entry.path)
    if key is not None:
        with _CACHE_LOCK:
            hit = _CACHE.get(entry.path)
        if hit is not None and hit[0] == key:
            return hit[1]
    info = inspect_save(path)
    if key is not None and stat.S_ISREG(key[3]):
        with _CACHE_LOCK:
            _CACHE[entry.path] = (key, info)
    return info


def scan_saves() -> list[SaveInfo]:
    """Every ``*.json`` entry of the saves folder, validated: resumable ones first,
    most recently played first; then the others, by name."""
    d = saves_dir()
    try:
        entries = [e for e in os.scandir(d) if e.name.endswith(".json")]
    except OSError:
        return []
    infos = []
    for e in entries:
        if not SAVE_ID_RE.fullmatch(e.name[:-5]):
            infos.append(SaveInfo(Path(e.path), e.name[:-5], "damaged", "its name is not a save's"))
            continue
        infos.append(_cached_inspect(e))
    ok = sorted((i for i in infos if i.ok), key=lambda s: (s.updated, s.save_id), reverse=True)
    rest = sorted((i for i in infos if not i.ok), key=lambda s: s.path.name)
    return ok + rest


def list_saves(unfinished_only: bool = True) -> list[SaveInfo]:
    """Saved games that can be resumed, most recently played first."""
    return [s for s in scan_saves() if s.ok and not (unfinished_only and s.match_over)]


def prune_saves(keep: int = KEEP_SAVES) -> None:
    """Delete the oldest finished saves beyond ``keep`` (never a damaged or newer one)."""
    finished = [s for s in list_saves(unfinished_only=False) if s.match_over]
    for s in finished[keep:]:
        with contextlib.suppress(OSError):
            s.path.unlink()
        forget(s.path)


def delete_save(save_id: str) -> None:
    """Delete a save (the player confirmed it). Only the entry itself goes: a link is
    removed, never its target; a folder is left alone."""
    path = saves_dir() / f"{save_id}.json"
    with contextlib.suppress(OSError):
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            path.unlink()
    forget(path)


def move_to_damaged(path: Path) -> Path:
    """Move a save that cannot be read into ``damaged/``, bytes untouched; a file
    already there is never overwritten (the new one gets a numbered name). Returns the
    new path; raises ``OSError`` if it cannot be moved."""
    path = Path(path)
    dest_dir = damaged_dir()
    dest_dir.mkdir(parents=True, exist_ok=True)
    stem, suffix = path.stem, path.suffix
    for n in range(1000):
        dest = dest_dir / (f"{stem}{suffix}" if n == 0 else f"{stem}.{n}{suffix}")
        try:
            # a hard link fails if ``dest`` exists: nothing there is ever replaced
            os.link(path, dest, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            # folders (and file systems without hard links): rename if nothing is there
            if os.path.lexists(dest):
                continue
            os.rename(path, dest)
            forget(path)
            return dest
        os.unlink(path)
        forget(path)
        return dest
    raise OSError(errno.EEXIST, "too many damaged saves of that name")


def now() -> float:
    return time.time()


APP_TAG = f"twos-tui {__version__}"
