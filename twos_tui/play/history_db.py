"""The history's ground floor: its file names and limits, its errors and notices, a
damaged file set aside, one write transaction, and how a seed is stored. Everything of
the history builds on this; the module callers import is :mod:`twos_tui.play.history`."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .paths import data_dir

SCHEMA_VERSION = 1
#: how long one statement waits for another process holding the file; a write that
#: still finds it locked is tried once more, then kept in the pending folder (every wait
#: is bounded: a locked history never holds a finished deal or ``stats`` for long)
BUSY_TIMEOUT_S = 1.0
WRITE_ATTEMPTS = 2  #: then the record goes to the pending folder
MAX_PENDING_BYTES = 8 << 20  #: a pending record larger than this is set aside unread
DRAIN_BUDGET_S = 3.0  #: writing pending records stops after this long (the rest: next time)
#: the recorder waits this long before a write when it has been idle: the keypress that
#: ended the deal is still being drawn, and the write must not compete with it
QUIET_S = 0.25
HISTORY_FILE = "history.sqlite3"
PENDING_DIR = "history-pending"
DAMAGED_DIR = "history-damaged"  #: damaged history files are moved here, bytes kept


class HistoryError(Exception):
    """The history cannot be used (damaged, or written by a newer version)."""


class HistoryDamaged(HistoryError):
    """The history file is damaged (not a database, cut short, not a file): it is set
    aside (:func:`set_aside`) and a new one started."""


class HistoryConnection(sqlite3.Connection):
    """A connection to the history that counts the damaged rows its readers skipped."""

    skipped: int = 0


#: what the user must be told once (a damaged history set aside...): the command line
#: prints these, the app shows them; :func:`take_notices` empties the list
NOTICES: list[str] = []
_NOTICES_LOCK = threading.Lock()


def notice(message: str) -> None:
    with _NOTICES_LOCK:
        NOTICES.append(message)


def take_notices() -> list[str]:
    with _NOTICES_LOCK:
        out = list(NOTICES)
        NOTICES.clear()
    return out


def skipped(conn: sqlite3.Connection) -> int:
    """How many damaged rows this connection's readers have skipped."""
    return int(getattr(conn, "skipped", 0))


def _skip(conn: sqlite3.Connection) -> None:
    with contextlib.suppress(AttributeError, TypeError):
        conn.skipped = skipped(conn) + 1  # type: ignore[attr-defined]


def _decode(raw: bytes) -> str:
    """Text from the file, whatever bytes a damaged page holds."""
    return raw.decode("utf-8", "replace")


def is_damage(e: BaseException) -> bool:
    """Whether an SQLite error means the file itself is damaged (not locked, not a bad
    record)."""
    if not isinstance(e, sqlite3.DatabaseError):
        return False
    name = str(getattr(e, "sqlite_errorname", ""))
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    text = str(e).lower()
    return "malformed" in text or "not a database" in text


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be the history file (a folder, a link, a pipe...), or None
    (a regular file, or nothing there yet)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"it cannot be read ({e.strerror or e})"
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link, not a file"
    if stat.S_ISDIR(st.st_mode):
        return "it is a folder, not a file"
    return "it is not a regular file (a pipe or a device)"


def set_aside(path: Path) -> Path:
    """Move a damaged history file (with its ``-wal``/``-shm`` companions) into
    ``history-damaged/``, bytes untouched, never replacing anything there. Returns the
    new path of the file; raises ``OSError`` if it cannot be moved."""
    dest_dir = path.parent / DAMAGED_DIR
    dest_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        dest = dest_dir / f"{path.stem}-{stamp}{'' if n == 0 else f'.{n}'}{path.suffix}"
        if os.path.lexists(dest):
            continue
        os.rename(path, dest)
        for extra in ("-wal", "-shm", "-journal"):
            side = path.with_name(path.name + extra)
            if os.path.lexists(side):
                with contextlib.suppress(OSError):
                    os.rename(side, dest.with_name(dest.name + extra))
        return dest
    raise OSError("too many damaged history files")


def history_path() -> Path:
    return data_dir() / HISTORY_FILE


def pending_dir() -> Path:
    return data_dir() / PENDING_DIR


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, holding the write lock from the start."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _too_deep(raw: bytes, limit: int = 32) -> bool:
    """Whether JSON text nests lists/objects deeper than ``limit`` (brackets inside
    strings do not count), without parsing it."""
    depth = 0
    in_str = esc = False
    for b in raw:
        if in_str:
            if esc:
                esc = False
            elif b == 0x5C:  # backslash
                esc = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif b in (0x5D, 0x7D):
            depth -= 1
    return False


#: SQLite keeps whole numbers of 64 bits: a larger seed (every seed the app draws) is
#: kept as text in hex, ``"0x..."`` (text SQLite leaves as it is in an INTEGER column)
_SQL_INT_MAX = 2**63 - 1


def seed_to_sql(seed: int) -> int | str:
    """How a seed is stored in the history."""
    return (
        seed
        if -_SQL_INT_MAX <= seed <= _SQL_INT_MAX
        else ("-" if seed < 0 else "") + hex(abs(seed))
    )


def seed_from_sql(value: Any) -> int:
    """A seed as stored by :func:`seed_to_sql`; ``ValueError`` if it is not one."""
    if isinstance(value, str) and 2 < len(value) <= 400 and value.lstrip("-").startswith("0x"):
        return int(value, 16)
    return _int(value)


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("not a whole number")
    return value
