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
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .paths import data_dir

SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 5.0  #: how long a write waits for another writer before retrying
WRITE_ATTEMPTS = 4  #: then the record goes to the pending folder
#: the recorder waits this long before a write when it has been idle: the keypress that
#: ended the deal is still being drawn, and the write must not compete with it
QUIET_S = 0.25
HISTORY_FILE = "history.sqlite3"
PENDING_DIR = "history-pending"


class HistoryError(Exception):
    """The history cannot be used (damaged, or written by a newer version)."""


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
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.row_factory = sqlite3.Row
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
    except sqlite3.OperationalError:
        conn.close()
        raise
    except sqlite3.DatabaseError as e:
        conn.close()
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


def open_history(path: Path | None = None) -> sqlite3.Connection:
    """A connection to the history, created (empty, current schema) if missing; pending
    records from earlier failed writes are written first. Raises HistoryError with the
    reason when the file cannot be used (damaged, newer, locked too long, not writable)."""
    path = history_path() if path is None else path
    try:
        conn = _connect(path)
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
                rec["seed"],
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


def drain_pending(conn: sqlite3.Connection, folder: Path) -> int:
    """Write the pending records in the order they were kept; the number written. Each
    file is claimed first (renamed), so two processes draining at once never write the
    same record twice."""
    if not folder.is_dir():
        return 0
    done = 0
    for path in sorted(folder.glob("*.json")):
        claimed = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.work")
        try:
            os.replace(path, claimed)
        except FileNotFoundError:
            continue  # another process took it
        try:
            rec = json.loads(claimed.read_text(encoding="utf-8"))
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
        except (KeyError, TypeError, ValueError, IndexError, sqlite3.Error):
            with contextlib.suppress(OSError):  # never written: kept apart, not retried
                os.replace(claimed, path.with_suffix(".damaged"))
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
        self.error: str | None = None
        self.on_error: Callable[[str], None] | None = None
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
        if conn is None:
            for other in self._conns.values():  # one file open at a time (tests move it)
                with contextlib.suppress(sqlite3.Error):
                    other.close()
            self._conns.clear()
            conn = _connect(path)
            self._conns[path] = conn
        return conn

    def _write(self, path: Path, rec: dict[str, Any]) -> None:
        last: Exception | None = None
        for attempt in range(WRITE_ATTEMPTS):
            try:
                conn = self._conn(path)
                write_record(conn, rec)
                self.written += 1
                with contextlib.suppress(sqlite3.Error, OSError):
                    drain_pending(conn, path.parent / PENDING_DIR)
                self.error = None
                return
            except HistoryError as e:
                last = e
                break  # a newer or damaged file: do not retry, do not touch it
            except (sqlite3.Error, OSError) as e:
                last = e
                bad = self._conns.pop(path, None)
                if bad is not None:
                    with contextlib.suppress(sqlite3.Error):
                        bad.close()
                time.sleep(0.05 * (attempt + 1))
        kept = ""
        try:
            spool(rec, path.parent / PENDING_DIR)
            kept = " (kept to be written later)"
        except OSError:
            pass
        self._fail(f"Could not record the game in the history: {last}{kept}")

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


#: the app's one recorder
RECORDER = Recorder()


# ----- reading ----------------------------------------------------------------------------
def _loads(text: str | None, default: Any = None) -> Any:
    return default if text is None else json.loads(text)


def match_row(conn: sqlite3.Connection, match_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    d = dict(row)
    for k in ("options", "names", "seats", "prefix_actions"):
        d[k] = json.loads(d[k])
    d["totals"] = _loads(d["totals"])
    d["winners"] = _loads(d["winners"])
    return d


def _deal_dict(row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for k in ("actions", "changes", "totals", "winners", "details"):
        d[k] = json.loads(d[k])
    return d


def deal_row(conn: sqlite3.Connection, deal_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM deals WHERE id = ?", (deal_id,)).fetchone()
    return None if row is None else _deal_dict(row)


def match_deals(conn: sqlite3.Connection, match_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT * FROM deals WHERE match_id = ? ORDER BY deal_number", (match_id,)
    ).fetchall()
    return [_deal_dict(r) for r in rows]


def latest_variant(conn: sqlite3.Connection) -> str | None:
    """The game of the latest recorded deal."""
    row = conn.execute("SELECT variant FROM deals ORDER BY ended DESC, id DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def last_deal_id(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT max(id) FROM deals").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def match_actions(match: dict[str, Any], deals: list[dict[str, Any]], upto: int) -> list:
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


def recent_deals(
    conn: sqlite3.Connection,
    variant: str | None = None,
    limit: int = 100,
    before: tuple[float, int] | None = None,
) -> list[dict[str, Any]]:
    """The latest recorded deals (newest first; with ``before``, those older than that
    deal's ``(ended, id)``), with their match's names and seats."""
    sql = (
        "SELECT d.id, d.match_id, d.deal_number, d.ended, d.duration, d.summary, d.undos, "
        "d.changes, d.winners, d.match_over, m.variant, m.variant_name, m.names, m.seats, "
        "m.score_label, m.watched FROM deals d JOIN matches m ON m.id = d.match_id"
    )
    where: list[str] = []
    args: tuple = ()
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
        d = dict(row)
        for k in ("changes", "winners", "names", "seats"):
            d[k] = json.loads(d[k])
        out.append(d)
    return out


def all_deals_for_export(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    sql = (
        "SELECT d.id, d.match_id, d.deal_number, d.started, d.ended, d.duration, d.summary, "
        "d.undos, d.changes, d.totals, d.winners, d.match_over, d.actions, m.variant, "
        "m.variant_name, m.players, m.options, m.seed, m.names, m.seats, m.score_label, "
        "m.low_score_wins, m.watched, m.winners AS match_winners "
        "FROM deals d JOIN matches m ON m.id = d.match_id ORDER BY d.id"
    )
    for row in conn.execute(sql):
        d = dict(row)
        for k in ("changes", "totals", "winners", "names", "seats", "options", "actions"):
            d[k] = json.loads(d[k])
        d["match_winners"] = _loads(d["match_winners"])
        yield d
