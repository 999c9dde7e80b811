"""The history: every finished deal and match, in one SQLite file (``history.sqlite3`` in
the data directory).

What is stored is enough to watch any deal again with the engine alone: the match's
variant, options, seed, names and seats (with the AI levels), and the exact list of
actions, kept per deal (``deals.actions``, starting at ``deals.first_action`` in the
match's list; actions before the first recorded deal, if any, are in
``matches.prefix_actions``). Replaying deal N is ``new_game(...)`` plus applying the
match's actions up to the end of deal N (:mod:`twos_tui.play.replay`).

Also kept: scores (each seat's change and the totals), the winners, when it was played
and for how long, and the undos. ``results`` has one row per *human* seat and deal, the
figures the statistics are made of (:mod:`twos_tui.play.stats`); games with no human
seat (watched, all-AI) are recorded but have no result rows, so they never count in a
player's figures.

Concurrency: the file is in WAL mode (readers never wait for a writer), every write is
one short ``BEGIN IMMEDIATE`` transaction (one writer at a time, across processes) with
a busy timeout, and a write that still finds the file locked is retried and, failing
that, kept in ``history-pending/`` and written later: two app instances recording at
once lose nothing and never crash. Rows are unique per (match, deal): recording the same
deal twice keeps one row.

The app records on a background thread (:data:`RECORDER`), so the table never waits for
the disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sqlite3
import stat
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .names import clean_name, clean_strings, clean_text
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


# ----- schema -----------------------------------------------------------------------------
#: MIGRATIONS[n] takes a database from schema version n to n + 1 (``PRAGMA user_version``
#: holds the version; 0 is a new, empty file).
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            match_key TEXT NOT NULL UNIQUE,     -- the save id of the match
            variant TEXT NOT NULL,
            variant_name TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,              -- JSON
            seed INTEGER NOT NULL,
            names TEXT NOT NULL,                -- JSON list, one per seat
            seats TEXT NOT NULL,                -- JSON list of {name, kind, level}
            score_label TEXT NOT NULL,
            low_score_wins INTEGER NOT NULL,
            watched INTEGER NOT NULL,           -- 1: no human seat (all AI)
            prefix_actions TEXT NOT NULL,       -- JSON actions before the first recorded deal
            started REAL NOT NULL,
            updated REAL NOT NULL,
            deals INTEGER NOT NULL DEFAULT 0,   -- deals recorded
            finished INTEGER NOT NULL DEFAULT 0,
            totals TEXT,                        -- JSON, after the last recorded deal
            winners TEXT,                       -- JSON seats, when finished
            duration REAL NOT NULL DEFAULT 0    -- seconds at the table
        )""",
        """CREATE TABLE deals (
            id INTEGER PRIMARY KEY,
            match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
            variant TEXT NOT NULL,
            deal_number INTEGER NOT NULL,
            first_action INTEGER NOT NULL,      -- index in the match's action list
            actions TEXT NOT NULL,              -- JSON [[seat, action], ...] of this deal
            changes TEXT NOT NULL,              -- JSON, per seat
            totals TEXT NOT NULL,               -- JSON, per seat, after the deal
            winners TEXT NOT NULL,              -- JSON seats
            summary TEXT NOT NULL,
            details TEXT NOT NULL,              -- JSON list of lines
            started REAL NOT NULL,
            ended REAL NOT NULL,
            duration REAL NOT NULL,
            undos INTEGER NOT NULL DEFAULT 0,
            match_over INTEGER NOT NULL,
            UNIQUE (match_id, deal_number)
        )""",
        """CREATE TABLE results (
            deal_id INTEGER NOT NULL REFERENCES deals(id) ON DELETE CASCADE,
            match_id INTEGER NOT NULL,
            variant TEXT NOT NULL,
            player TEXT NOT NULL,               -- the human's name
            seat INTEGER NOT NULL,
            opponents TEXT NOT NULL,            -- the AI levels at the table, or 'humans'
            won INTEGER NOT NULL,
            change INTEGER NOT NULL,
            score_label TEXT NOT NULL,
            low_score_wins INTEGER NOT NULL,
            match_over INTEGER NOT NULL,
            match_won INTEGER,                  -- when match_over
            undone INTEGER NOT NULL,            -- the deal had an undo
            match_undone INTEGER,               -- when match_over: the match had an undo
            ended REAL NOT NULL,
            PRIMARY KEY (deal_id, seat)
        )""",
        # the statistics are read from these two indexes alone: the sums per player and
        # opponents, and a player's results in the order played (streaks, recent deals)
        "CREATE INDEX results_sums ON results (variant, player, opponents, score_label, "
        "low_score_wins, won, change, match_over, match_won, undone, match_undone)",
        "CREATE INDEX results_in_order ON results "
        "(variant, player, ended, deal_id, won, match_over, match_won)",
        "CREATE INDEX deals_by_variant ON deals (variant, ended, id)",
        "CREATE INDEX deals_by_end ON deals (ended, id)",
        "CREATE INDEX matches_by_variant ON matches (variant, updated)",
        """CREATE TABLE undos (
            id INTEGER PRIMARY KEY,
            match_key TEXT NOT NULL,
            deal_number INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            taken_back INTEGER NOT NULL,        -- actions rewound (yours and the AI's)
            at REAL NOT NULL
        )""",
        "CREATE INDEX undos_by_deal ON undos (match_key, deal_number)",
    ],
]


def _connect(path: Path) -> sqlite3.Connection:
    """Open (creating or migrating) the history. A damaged or newer file raises
    HistoryError; a file that stays locked raises ``sqlite3.OperationalError`` (worth
    trying again)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    why = _not_a_file(path)
    if why is not None:
        raise HistoryDamaged(f"cannot use the history in {path}: {why}")
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, factory=HistoryConnection
    )
    conn.row_factory = sqlite3.Row
    conn.text_factory = _decode
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise HistoryError(
                f"the history in {path} was written by a newer twos-tui (schema {version}; "
                f"this version reads up to {len(MIGRATIONS)})"
            )
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if version < len(MIGRATIONS):
            _migrate(conn)
        # the tables are there and readable (a file cut short or with a damaged
        # catalogue fails here, not in the middle of a game)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if not {"matches", "deals", "results", "undos"} <= tables:
            raise HistoryDamaged(f"cannot use the history in {path}: tables are missing")
    except HistoryError:
        conn.close()
        raise
    except sqlite3.DatabaseError as e:
        conn.close()
        if is_damage(e):
            raise HistoryDamaged(f"cannot use the history in {path}: {e}") from e
        if isinstance(e, sqlite3.OperationalError):
            raise
        raise HistoryError(f"cannot use the history in {path}: {e}") from e
    except BaseException:
        conn.close()
        raise
    return conn


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to date, in one write transaction (another process doing the
    same waits, then finds it done)."""
    with transaction(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise HistoryError(f"the history was written by a newer twos-tui (schema {version})")
        for step in MIGRATIONS[version:]:
            for sql in step:
                conn.execute(sql)
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")


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


def connect_or_recover(path: Path) -> sqlite3.Connection:
    """:func:`_connect`, and when the file is damaged: set it aside (bytes kept), start a
    new history, write the pending records into it and say so once (:func:`notice`)."""
    try:
        return _connect(path)
    except HistoryDamaged as e:
        reason = str(e)
    return _recover(path, reason)


def _recover(path: Path, reason: str) -> sqlite3.Connection:
    try:
        dest = set_aside(path)
    except OSError as e:
        raise HistoryError(f"{reason}; it could not be moved aside ({e})") from e
    conn = _connect(path)
    written = 0
    with contextlib.suppress(sqlite3.Error, OSError):
        written = drain_pending(conn, path.parent / PENDING_DIR)
    kept = f"; {written} finished deal(s) kept waiting were written into it" if written else ""
    why = reason.split(": ", 1)[-1]
    notice(
        f"The history was damaged ({why}). It was moved to {dest} (nothing deleted) "
        f"and a new history started{kept}."
    )
    return conn


def recover_damaged(
    conn: sqlite3.Connection, path: Path | None, error: BaseException
) -> sqlite3.Connection:
    """A reader or writer met a damaged page: close ``conn``, set the file aside and
    return a connection to a new history."""
    path = history_path() if path is None else path
    with contextlib.suppress(sqlite3.Error):
        conn.close()
    return _recover(path, f"cannot use the history in {path}: {error}")


def open_history(path: Path | None = None) -> sqlite3.Connection:
    """A connection to the history, created (empty, current schema) if missing; pending
    records from earlier failed writes are written first. A damaged file is set aside
    and a new history started (:func:`connect_or_recover`). Raises HistoryError with the
    reason when the file cannot be used (newer, locked too long, not writable)."""
    path = history_path() if path is None else path
    try:
        conn = connect_or_recover(path)
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise HistoryError(
                f"the history in {path} is busy (another program holds it); try again"
            ) from e
        raise HistoryError(f"cannot open the history in {path}: {e}") from e
    except sqlite3.Error as e:
        raise HistoryError(f"cannot open the history in {path}: {e}") from e
    except OSError as e:
        raise HistoryError(f"cannot open the history in {path}: {e}") from e
    with contextlib.suppress(sqlite3.Error, OSError):
        drain_pending(conn, path.parent / PENDING_DIR)
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


# ----- records ----------------------------------------------------------------------------
def opponents_key(seats: list[dict[str, Any]], seat: int) -> str:
    """The AI levels a seat played against: ``"normal"``, ``"easy+hard"`` (several
    levels at the table), or ``"humans"`` when every other seat was a person."""
    from ..ai import BASELINES, LEVELS

    order = {lv: i for i, lv in enumerate(LEVELS + BASELINES)}
    levels = {s.get("level", "normal") for i, s in enumerate(seats) if i != seat and _is_ai(s)}
    if not levels:
        return "humans"
    return "+".join(sorted(levels, key=lambda lv: (order.get(lv, 99), lv)))


def _is_ai(seat: dict[str, Any]) -> bool:
    return seat.get("kind") == "ai"


#: the match key of a deal recorded by a client that joined a table hosted elsewhere:
#: only that seat's view was known (no seed, no other hand), so only its results are kept
JOINED_PREFIX = "joined-"


def is_joined(match: dict[str, Any]) -> bool:
    """A match played at a table hosted on another computer (results only, no replay)."""
    return str(match.get("match_key", "")).startswith(JOINED_PREFIX)


def write_record(conn: sqlite3.Connection, rec: dict[str, Any]) -> None:
    """Write one record (``{"type": "deal" | "undo", ...}``) in one transaction.
    Recording a deal that is already there changes nothing."""
    with transaction(conn):
        if rec["type"] == "undo":
            _write_undo(conn, rec)
        elif rec["type"] == "deal":
            _write_deal(conn, rec)
        else:
            raise ValueError(f"unknown history record {rec['type']!r}")


def _write_undo(conn: sqlite3.Connection, rec: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO undos (match_key, deal_number, seat, taken_back, at) VALUES (?,?,?,?,?)",
        (rec["match_key"], rec["deal_number"], rec["seat"], rec["taken_back"], rec["at"]),
    )
    # normally the deal is recorded after its undos; a late undo (from the pending
    # folder) still marks the deal
    row = conn.execute(
        "SELECT d.id FROM deals d JOIN matches m ON m.id = d.match_id "
        "WHERE m.match_key = ? AND d.deal_number = ?",
        (rec["match_key"], rec["deal_number"]),
    ).fetchone()
    if row is not None:
        conn.execute("UPDATE deals SET undos = undos + 1 WHERE id = ?", (row[0],))
        conn.execute("UPDATE results SET undone = 1 WHERE deal_id = ?", (row[0],))


def _write_deal(conn: sqlite3.Connection, rec: dict[str, Any]) -> None:
    key = rec["match_key"]
    seats = rec["seats"]
    row = conn.execute("SELECT id FROM matches WHERE match_key = ?", (key,)).fetchone()
    if row is None:
        cur = conn.execute(
            "INSERT INTO matches (match_key, variant, variant_name, players, options, seed, "
            "names, seats, score_label, low_score_wins, watched, prefix_actions, started, "
            "updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                key,
                rec["variant"],
                rec["variant_name"],
                rec["players"],
                json.dumps(rec["options"], sort_keys=True),
                seed_to_sql(rec["seed"]),
                json.dumps(rec["names"]),
                json.dumps(seats),
                rec["score_label"],
                int(rec["low_score_wins"]),
                int(not any(not _is_ai(s) for s in seats)),
                json.dumps(rec["prefix"]),
                rec["match_started"],
                rec["ended"],
            ),
        )
        match_id = cur.lastrowid
    else:
        match_id = row[0]
    deal_no = rec["deal_number"]
    if conn.execute(
        "SELECT 1 FROM deals WHERE match_id = ? AND deal_number = ?", (match_id, deal_no)
    ).fetchone():
        return  # already recorded (a resumed save at its deal end, a pending copy...)
    undos = conn.execute(
        "SELECT count(*) FROM undos WHERE match_key = ? AND deal_number = ?", (key, deal_no)
    ).fetchone()[0]
    over = bool(rec["match_over"])
    cur = conn.execute(
        "INSERT INTO deals (match_id, variant, deal_number, first_action, actions, changes, "
        "totals, winners, summary, details, started, ended, duration, undos, match_over) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            match_id,
            rec["variant"],
            deal_no,
            rec["first_action"],
            json.dumps(rec["actions"]),
            json.dumps(rec["changes"]),
            json.dumps(rec["totals"]),
            json.dumps(rec["winners"]),
            rec["summary"],
            json.dumps(rec["details"]),
            rec["started"],
            rec["ended"],
            rec["duration"],
            undos,
            int(over),
        ),
    )
    deal_id = cur.lastrowid
    match_undos = 0
    if over:
        match_undos = conn.execute(
            "SELECT count(*) FROM undos WHERE match_key = ?", (key,)
        ).fetchone()[0]
    match_winners = set(rec.get("match_winners") or [])
    winners = set(rec["winners"])
    rows = []
    for seat, s in enumerate(seats):
        if _is_ai(s) or s.get("kind") == "remote":
            continue  # the AI; or (a joined table) a person whose own computer records them
        rows.append(
            (
                deal_id,
                match_id,
                rec["variant"],
                rec["names"][seat],
                seat,
                opponents_key(seats, seat),
                int(seat in winners),
                int(rec["changes"][seat]) if seat < len(rec["changes"]) else 0,
                rec["score_label"],
                int(rec["low_score_wins"]),
                int(over),
                int(seat in match_winners) if over else None,
                int(undos > 0),
                int(match_undos > 0) if over else None,
                rec["ended"],
            )
        )
    conn.executemany(
        "INSERT INTO results (deal_id, match_id, variant, player, seat, opponents, won, "
        "change, score_label, low_score_wins, match_over, match_won, undone, match_undone, "
        "ended) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    conn.execute(
        "UPDATE matches SET updated = ?, deals = deals + 1, totals = ?, finished = ?, "
        "winners = ?, duration = ? WHERE id = ?",
        (
            rec["ended"],
            json.dumps(rec["totals"]),
            int(over),
            json.dumps(sorted(match_winners)) if over else None,
            rec["match_duration"],
            match_id,
        ),
    )


# ----- pending records (a write that could not be made) ----------------------------------
def spool(rec: dict[str, Any], folder: Path) -> Path:
    """Keep a record that could not be written, to be written later (atomically)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time():.6f}-{uuid.uuid4().hex[:8]}"
    tmp = folder / f"{name}.tmp"
    tmp.write_text(json.dumps(rec), encoding="utf-8")
    path = folder / f"{name}.json"
    os.replace(tmp, path)
    return path


def read_pending(path: Path) -> dict[str, Any]:
    """One pending record: a regular file (links, folders, pipes and devices are never
    opened for reading), at most :data:`MAX_PENDING_BYTES`, JSON nested no deeper than
    a record is; raises ``ValueError`` with the reason otherwise."""
    from .saves import SaveError, parse_save_bytes, read_save_bytes

    try:
        raw = read_save_bytes(path, MAX_PENDING_BYTES)
        if _too_deep(raw):
            raise ValueError("JSON nested too deeply")
        return parse_save_bytes(raw)
    except SaveError as e:
        raise ValueError(str(e)) from None


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


def _put_aside(path: Path, target: Path) -> None:
    """Rename a pending entry to ``target`` (``.damaged``) without replacing a file."""
    for n in range(1000):
        dest = target if n == 0 else target.with_name(f"{target.stem}.{n}{target.suffix}")
        if not os.path.lexists(dest):
            with contextlib.suppress(OSError):
                os.rename(path, dest)
            return


def drain_pending(conn: sqlite3.Connection, folder: Path, budget: float = DRAIN_BUDGET_S) -> int:
    """Write the pending records in the order they were kept; the number written. Each
    file is claimed first (renamed), so two processes draining at once never write the
    same record twice. A record that cannot be read or written (not a regular file,
    too large, not JSON, too deep, not a record) is renamed ``.damaged`` and kept.
    Stops after ``budget`` seconds (the rest is written next time)."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return 0
        names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".json"))
    except OSError:
        return 0
    end = time.monotonic() + budget
    done = 0
    for name in names:
        if time.monotonic() > end:
            break
        path = folder / name
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                _put_aside(path, path.with_suffix(".damaged"))
                continue
        except OSError:
            continue
        claimed = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.work")
        try:
            os.replace(path, claimed)
        except OSError:
            continue  # another process took it
        try:
            rec: Any = read_pending(claimed)
        except (OSError, ValueError):
            rec = None
        try:
            if not isinstance(rec, dict):
                raise ValueError("not a record")
            write_record(conn, rec)
        except sqlite3.OperationalError:
            with contextlib.suppress(OSError):  # locked or not writable: next time
                os.replace(claimed, path)
            raise
        except sqlite3.DatabaseError as e:
            if is_damage(e):
                with contextlib.suppress(OSError):
                    os.replace(claimed, path)
                raise
            _put_aside(claimed, path.with_suffix(".damaged"))
            continue
        except Exception:  # a record of the wrong shape: never written, kept apart
            _put_aside(claimed, path.with_suffix(".damaged"))
            continue
        with contextlib.suppress(FileNotFoundError):
            claimed.unlink()
        done += 1
    return done


# ----- the app's recorder -----------------------------------------------------------------
class Recorder:
    """Writes history records on one background thread, in the order given.

    ``submit`` only puts the record (plain data made on the caller's thread) on a queue;
    the thread turns it into rows, a moment later (``QUIET_S``) when it was idle, so that
    it does not hold Python's lock while the table draws the end of the deal. A write
    that finds the file locked waits (``BUSY_TIMEOUT_S``), is tried again, and is finally
    kept in the pending folder;
    ``error`` then says what went wrong and ``on_error`` (set by the app) is called from
    the recorder's thread. ``flush`` waits until everything submitted so far is done.
    """

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[Path, dict[str, Any]] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._conns: dict[Path, sqlite3.Connection] = {}
        self._inodes: dict[Path, tuple[int, int] | None] = {}
        self.error: str | None = None
        self.on_error: Callable[[str], None] | None = None
        self.notices: list[str] = []  #: what was said once (a damaged history set aside)
        self.written = 0  #: records written by this recorder (for tests and benchmarks)
        self._last_done = 0.0

    def submit(self, rec: dict[str, Any], path: Path | None = None) -> None:
        path = history_path() if path is None else path
        self._ensure_thread()
        self._queue.put((path, rec))

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every submitted record is written or kept pending; False if
        ``timeout`` passed first."""
        if self._thread is None:
            return True
        if timeout is None:
            self._queue.join()
            return True
        end = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > end:
                return False
            time.sleep(0.005)
        return True

    def start(self) -> None:
        """Start the thread now (the app does at start), not at the first record."""
        self._ensure_thread()

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="twos-tui-history", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if time.monotonic() - self._last_done > 1.0:
                    time.sleep(QUIET_S)  # the first of a burst: let the frame be drawn
                self._write(*item)
            finally:
                self._last_done = time.monotonic()
                self._queue.task_done()

    def _conn(self, path: Path) -> sqlite3.Connection:
        conn = self._conns.get(path)
        if conn is not None and self._inodes.get(path) != _inode(path):
            # the file was moved aside (damaged) or replaced by another process
            with contextlib.suppress(sqlite3.Error):
                conn.close()
            conn = None
            self._conns.pop(path, None)
            if not os.path.lexists(path):
                # deleted (or moved) while deals were being recorded: a new history is
                # started and the deals from now on go into it; the player is told once
                notice(
                    f"The history file {path} was deleted or moved while you played: a new "
                    "one was started, and this deal and the next ones are recorded in it."
                )
        if conn is None:
            for other in self._conns.values():  # one file open at a time (tests move it)
                with contextlib.suppress(sqlite3.Error):
                    other.close()
            self._conns.clear()
            conn = connect_or_recover(path)
            self._conns[path] = conn
            self._inodes[path] = _inode(path)
        return conn

    def _write(self, path: Path, rec: dict[str, Any]) -> None:
        last: Exception | None = None
        recovered = False
        for attempt in range(WRITE_ATTEMPTS):
            try:
                conn = self._conn(path)
                try:
                    write_record(conn, rec)
                except sqlite3.DatabaseError as e:
                    if not is_damage(e) or recovered:
                        raise
                    # a damaged page met while writing: set the file aside, start anew
                    recovered = True
                    self._conns.pop(path, None)
                    conn = recover_damaged(conn, path, e)
                    self._conns[path] = conn
                    self._inodes[path] = _inode(path)
                    write_record(conn, rec)
                self.written += 1
                with contextlib.suppress(sqlite3.Error, OSError):
                    drain_pending(conn, path.parent / PENDING_DIR)
                self.error = None
                self._tell_notices()
                return
            except HistoryError as e:
                last = e
                break  # a newer file, or one that cannot be moved aside: do not retry
            except (sqlite3.Error, OSError) as e:
                last = e
                bad = self._conns.pop(path, None)
                if bad is not None:
                    with contextlib.suppress(sqlite3.Error):
                        bad.close()
                if attempt + 1 < WRITE_ATTEMPTS:
                    time.sleep(0.05 * (attempt + 1))
            except Exception as e:  # a record that cannot be written: kept, not lost
                last = e
                break
        kept = ""
        try:
            where = spool(rec, path.parent / PENDING_DIR)
            kept = f" (kept to be written later: {where})"
        except OSError:
            pass
        self._tell_notices()
        self._fail(f"Could not record the game in the history: {last}{kept}")

    def _tell_notices(self) -> None:
        for message in take_notices():
            self.notices.append(message)
            cb = self.on_error
            if cb is not None:
                with contextlib.suppress(Exception):
                    cb(message)

    def _fail(self, message: str) -> None:
        self.error = message
        cb = self.on_error
        if cb is not None:
            with contextlib.suppress(Exception):
                cb(message)

    def close(self) -> None:
        """Stop the thread after the queued records (tests)."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self._thread = None
        for c in self._conns.values():
            with contextlib.suppress(sqlite3.Error):
                c.close()
        self._conns.clear()


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


#: the app's one recorder
RECORDER = Recorder()


# ----- reading ----------------------------------------------------------------------------
# Every reader survives a damaged row: a row whose JSON or numbers cannot be read is
# skipped and counted on the connection (:func:`skipped`); the caller says how many.
# Every string read is cleaned of control characters (a name with escape codes stored in
# the history must not reach a terminal raw).


def _loads(text: Any, default: Any = None) -> Any:
    if text is None:
        return default
    if not isinstance(text, str | bytes):
        raise ValueError("not JSON text")
    if len(text) > MAX_PENDING_BYTES:
        raise ValueError("too large")
    if _too_deep(text.encode("utf-8", "replace") if isinstance(text, str) else text):
        raise ValueError("nested too deeply")
    return clean_strings(json.loads(text))


def _num(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("not a number")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    return value


def _time(value: Any) -> float:
    """A time stamp (seconds since 1970) a clock can show."""
    t = _num(value)
    if not 0 <= t < 1e11:
        raise ValueError("not a time")
    return t


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


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not text")
    return clean_text(value, 4_000)


_ROW_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def _check_match(d: dict[str, Any]) -> dict[str, Any]:
    for k in ("options", "names", "seats", "prefix_actions"):
        d[k] = _loads(d[k])
    d["totals"] = _loads(d["totals"])
    d["winners"] = _loads(d["winners"])
    if not isinstance(d["options"], dict):
        raise ValueError("options")
    d["names"] = [clean_name(n) for n in _list(d["names"])]
    d["seats"] = [s if isinstance(s, dict) else {} for s in _list(d["seats"])]
    _list(d["prefix_actions"])
    for k in ("variant", "variant_name", "score_label"):
        d[k] = _str(d[k])
    for k in ("id", "players"):
        _int(d[k])
    d["seed"] = seed_from_sql(d["seed"])
    _time(d["started"])
    return d


def match_row(conn: sqlite3.Connection, match_id: int) -> dict[str, Any] | None:
    """One game's row; raises HistoryError when it is damaged."""
    row = conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    try:
        return _check_match(dict(row))
    except _ROW_ERRORS as e:
        raise HistoryError(f"game {match_id} is damaged in the history ({e})") from None


def _deal_dict(row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for k in ("actions", "changes", "totals", "winners", "details"):
        d[k] = _list(_loads(d[k]))
    for k in ("id", "match_id", "deal_number", "first_action", "undos"):
        _int(d[k])
    for k in ("started", "ended"):
        _time(d[k])
    _num(d["duration"])
    d["summary"] = _str(d["summary"])
    d["details"] = [clean_text(x) for x in d["details"]]
    d["winners"] = [w for w in d["winners"] if isinstance(w, int)]
    return d


def deal_row(conn: sqlite3.Connection, deal_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM deals WHERE id = ?", (deal_id,)).fetchone()
    if row is None:
        return None
    try:
        return _deal_dict(row)
    except _ROW_ERRORS as e:
        raise HistoryError(f"deal {deal_id} is damaged in the history ({e})") from None


def match_deals(conn: sqlite3.Connection, match_id: int) -> list[dict[str, Any]]:
    """The game's deals in order; a damaged one is skipped (and counted)."""
    rows = conn.execute(
        "SELECT * FROM deals WHERE match_id = ? ORDER BY deal_number", (match_id,)
    ).fetchall()
    out = []
    for r in rows:
        try:
            out.append(_deal_dict(r))
        except _ROW_ERRORS:
            _skip(conn)
    return out


def latest_variant(conn: sqlite3.Connection) -> str | None:
    """The game of the latest recorded deal."""
    row = conn.execute("SELECT variant FROM deals ORDER BY ended DESC, id DESC LIMIT 1").fetchone()
    return None if row is None or not isinstance(row[0], str) else str(row[0])


def last_deal_id(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT max(id) FROM deals").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def match_actions(match: dict[str, Any], deals: list[dict[str, Any]], upto: int) -> list[Any]:
    """The match's action list up to the end of deal ``upto`` (a deal number), from the
    recorded deals; raises HistoryError where a deal in between is missing."""
    actions = list(match["prefix_actions"])
    for d in deals:
        if d["deal_number"] > upto:
            break
        if d["first_action"] != len(actions):
            raise HistoryError(
                f"deal {d['deal_number']} of game {match['id']} cannot be rebuilt: "
                "an earlier deal of that game is missing from the history"
            )
        actions.extend(d["actions"])
    return actions


def _recent_dict(row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for k in ("changes", "winners", "names", "seats"):
        d[k] = _list(_loads(d[k]))
    d["names"] = [clean_name(n) for n in d["names"]]
    for k in ("id", "match_id", "deal_number", "undos"):
        _int(d[k])
    _time(d["ended"])
    _num(d["duration"])
    for k in ("summary", "variant", "variant_name", "score_label"):
        d[k] = _str(d[k])
    return d


def recent_deals(
    conn: sqlite3.Connection,
    variant: str | None = None,
    limit: int = 100,
    before: tuple[float, int] | None = None,
) -> list[dict[str, Any]]:
    """The latest recorded deals (newest first; with ``before``, those older than that
    deal's ``(ended, id)``), with their match's names and seats. Damaged rows are
    skipped and counted."""
    sql = (
        "SELECT d.id, d.match_id, d.deal_number, d.ended, d.duration, d.summary, d.undos, "
        "d.changes, d.winners, d.match_over, m.variant, m.variant_name, m.names, m.seats, "
        "m.score_label, m.watched FROM deals d JOIN matches m ON m.id = d.match_id"
    )
    where: list[str] = []
    args: tuple[Any, ...] = ()
    if variant:
        where.append("d.variant = ?")
        args += (variant,)
    if before is not None:
        where.append("(d.ended, d.id) < (?, ?)")
        args += tuple(before)
    if where:
        sql += " WHERE " + " AND ".join(where)
    order = "d.variant DESC, d.ended DESC, d.id DESC" if variant else "d.ended DESC, d.id DESC"
    out = []
    for row in conn.execute(f"{sql} ORDER BY {order} LIMIT ?", args + (limit,)):
        try:
            out.append(_recent_dict(row))
        except _ROW_ERRORS:
            _skip(conn)
    return out


def count_deals(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT count(*) FROM deals").fetchone()
    return int(row[0]) if row else 0


def _export_dict(row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for k in ("changes", "totals", "winners", "names", "seats"):
        d[k] = _list(_loads(d[k]))
    d["options"] = _loads(d["options"])
    if not isinstance(d["options"], dict):
        raise ValueError("options")
    d["names"] = [clean_name(n) for n in d["names"]]
    d["seats"] = [s if isinstance(s, dict) else {} for s in d["seats"]]
    d["match_winners"] = _loads(d["match_winners"])
    if d["match_winners"] is not None:
        _list(d["match_winners"])
    for k in ("id", "match_id", "deal_number", "undos", "players", "action_count"):
        _int(d[k])
    d["seed"] = seed_from_sql(d["seed"])
    for k in ("started", "ended"):
        _time(d[k])
    _num(d["duration"])
    for k in ("summary", "variant", "variant_name", "score_label"):
        d[k] = _str(d[k])
    return d


def all_deals_for_export(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    """Every deal for the CSV export, oldest first (streamed); damaged rows skipped and
    counted. ``action_count`` is the number of actions (the actions are not read)."""
    sql = (
        "SELECT d.id, d.match_id, d.deal_number, d.started, d.ended, d.duration, d.summary, "
        "d.undos, d.changes, d.totals, d.winners, d.match_over, "
        "CASE WHEN json_valid(d.actions) THEN json_array_length(d.actions) END "
        "AS action_count, m.variant, "
        "m.variant_name, m.players, m.options, m.seed, m.names, m.seats, m.score_label, "
        "m.low_score_wins, m.watched, m.winners AS match_winners, "
        "m.finished AS match_finished "
        "FROM deals d JOIN matches m ON m.id = d.match_id ORDER BY d.id"
    )
    for row in conn.execute(sql):
        try:
            d = _export_dict(row)
        except _ROW_ERRORS:
            _skip(conn)
            continue
        yield d
