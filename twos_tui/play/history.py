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

This module is the one callers import (``history.X``): the schema, opening the file (and
recovering a damaged one) and the recorder are here; the ground floor (file names,
errors, notices, one transaction) is :mod:`.history_db`, writing a record and the
pending folder :mod:`.history_records`, reading :mod:`.history_read`, each re-exported
here.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

# (the history's parts, imported from here: callers use ``history.X``)
from .history_db import (
    BUSY_TIMEOUT_S,
    DAMAGED_DIR,
    DRAIN_BUDGET_S,
    HISTORY_FILE,
    MAX_PENDING_BYTES,
    NOTICES,
    PENDING_DIR,
    QUIET_S,
    SCHEMA_VERSION,
    WRITE_ATTEMPTS,
    HistoryConnection,
    HistoryDamaged,
    HistoryError,
    _decode,
    _not_a_file,
    _skip,
    history_path,
    is_damage,
    notice,
    pending_dir,
    seed_from_sql,
    seed_to_sql,
    set_aside,
    skipped,
    take_notices,
    transaction,
)
from .history_read import (
    all_deals_for_export,
    count_deals,
    deal_row,
    last_deal_id,
    latest_variant,
    match_actions,
    match_deals,
    match_row,
    recent_deals,
)
from .history_records import (
    JOINED_PREFIX,
    DealRecord,
    HistoryRecord,
    UndoRecord,
    _write_deal,
    _write_undo,
    drain_pending,
    history_record,
    is_joined,
    opponents_key,
    read_pending,
    spool,
    write_record,
)
from .save_data import SeatJson

__all__ = [  # (and the private helpers a benchmark and the replay use)
    "_skip",
    "_write_deal",
    "_write_undo",
    "BUSY_TIMEOUT_S",
    "DAMAGED_DIR",
    "DRAIN_BUDGET_S",
    "HISTORY_FILE",
    "JOINED_PREFIX",
    "MAX_PENDING_BYTES",
    "MIGRATIONS",
    "NOTICES",
    "PENDING_DIR",
    "QUIET_S",
    "RECORDER",
    "SCHEMA_VERSION",
    "WRITE_ATTEMPTS",
    "DealRecord",
    "HistoryConnection",
    "HistoryDamaged",
    "HistoryError",
    "HistoryRecord",
    "Recorder",
    "SeatJson",
    "UndoRecord",
    "all_deals_for_export",
    "connect_or_recover",
    "count_deals",
    "deal_row",
    "drain_pending",
    "history_path",
    "history_record",
    "is_damage",
    "is_joined",
    "last_deal_id",
    "latest_variant",
    "match_actions",
    "match_deals",
    "match_row",
    "notice",
    "open_history",
    "opponents_key",
    "pending_dir",
    "read_pending",
    "recent_deals",
    "recover_damaged",
    "schema_version",
    "seed_from_sql",
    "seed_to_sql",
    "set_aside",
    "skipped",
    "spool",
    "take_notices",
    "transaction",
    "write_record",
]

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
        self._queue: queue.Queue[tuple[Path, HistoryRecord] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._conns: dict[Path, sqlite3.Connection] = {}
        self._inodes: dict[Path, tuple[int, int] | None] = {}
        self.error: str | None = None
        self.on_error: Callable[[str], None] | None = None
        self.notices: list[str] = []  #: what was said once (a damaged history set aside)
        self.written = 0  #: records written by this recorder (for tests and benchmarks)
        self._last_done = 0.0

    def submit(self, rec: HistoryRecord, path: Path | None = None) -> None:
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

    def _write(self, path: Path, rec: HistoryRecord) -> None:
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
