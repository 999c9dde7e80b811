"""The lobby server's durable store: accounts, ratings, results and the open tables, in
one SQLite file (``lobby.db`` in the data directory unless the server names another).

Durability: the file is in WAL mode with ``synchronous=FULL``, and every write is one
transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): when a method returns, what it wrote is
on disk, and a ``kill -9`` (or a power cut) at any moment loses nothing that was
acknowledged and leaves no half-written match (tests/test_lobby_store.py kills a writer
twenty times). A finished match, its results and every rating it moves are one
transaction, and reporting the same match twice (a table reporting again after a
restart) counts it once.

Threads: a :class:`SqliteStore` belongs to the thread that opened it (SQLite's own
check refuses another). The lobby server calls it from its one asyncio thread, directly:
each call is short (a write waits for its fsync: a rated four-player ``finish_match``
took about 1 ms on the build machine's disk), so it is not worth a worker thread; a
server that wants one moves *every* call to the same single worker thread. Other
processes may open the same file at once (``twos-tui server ban NAME`` while the server
runs): a write waits up to :data:`BUSY_TIMEOUT_S` for another's to finish.

Names follow :mod:`.identity_names`; ratings follow :mod:`.ratings`.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from ..paths import data_dir
from .identity_names import NameRefused, check_name, skeleton
from .model import (
    Account,
    LeaderRow,
    MatchOutcome,
    Rating,
    RatingInfo,
    ResultInfo,
    TableRecord,
)
from .ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    SeatRating,
    ai_rating,
    display,
    effective_places,
    rate,
)

__all__ = [
    "DB_FILE",
    "NameRefused",
    "SqliteStore",
    "Store",
    "StoreError",
    "default_path",
    "open_store",
]

DB_FILE = "lobby.db"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 5.0
MAX_KEY_LEN = 200

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY,
    skeleton TEXT NOT NULL UNIQUE,
    key TEXT UNIQUE,
    guest INTEGER NOT NULL,
    banned INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (name, game)
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    game TEXT NOT NULL,
    rated INTEGER NOT NULL,
    ended REAL NOT NULL,
    outcome TEXT NOT NULL,
    UNIQUE (table_id, ended)
);
CREATE TABLE IF NOT EXISTS results (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    place INTEGER NOT NULL,
    players INTEGER NOT NULL,
    mu_before REAL,
    sigma_before REAL,
    mu_after REAL,
    sigma_after REAL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS results_by_name ON results (name, match_id);
CREATE TABLE IF NOT EXISTS lobby_tables (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    save_id TEXT NOT NULL,
    public INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    code TEXT NOT NULL,
    process TEXT NOT NULL,
    updated REAL NOT NULL
);
"""

#: a rating row's order on the leaderboard, best first (SQL; the displayed rating is
#: ``1000 + 40 * (mu - 3 * sigma)``, so ``mu - 3 * sigma`` orders it)
_ORDER = "(r.mu - 3.0 * r.sigma) DESC, r.matches DESC, r.name"
_ON_BOARD = "r.matches > 0 AND a.guest = 0 AND a.banned = 0"


class StoreError(Exception):
    """The store's file cannot be used (not a lobby database, or a newer one)."""


def default_path() -> Path:
    """``lobby.db`` in the data directory."""
    return data_dir() / DB_FILE


def _account(row: Any) -> Account | None:
    if row is None:
        return None
    return Account(
        name=row["name"],
        key=row["key"],
        guest=bool(row["guest"]),
        banned=bool(row["banned"]),
        created=row["created"],
    )


def _outcome_json(outcome: MatchOutcome) -> str:
    return json.dumps(
        {
            "places": [[n, p] for n, p in outcome.places],
            "left": list(outcome.left),
            "ai_levels": list(outcome.ai_levels),
        },
        ensure_ascii=False,
    )


def outcome_from_row(row: Any) -> MatchOutcome:
    """The :class:`MatchOutcome` a ``matches`` row recorded (for replays and checks)."""
    data = json.loads(row["outcome"])
    return MatchOutcome(
        table_id=row["table_id"],
        game=row["game"],
        rated=bool(row["rated"]),
        ended=row["ended"],
        places=tuple((n, int(p)) for n, p in data["places"]),
        left=tuple(data["left"]),
        ai_levels=tuple(data["ai_levels"]),
    )


def _check_outcome(outcome: MatchOutcome) -> None:
    names = [n for n, _ in outcome.places if n is not None]
    if len(names) != len(set(names)):
        raise ValueError(f"a player sits twice in {outcome.table_id}: {names}")
    if any(p < 1 for _, p in outcome.places):
        raise ValueError(f"places start at 1: {outcome.places}")
    if set(outcome.left) - set(names):
        raise ValueError(f"left {outcome.left} but seated {names}")
    if outcome.ai_levels and len(outcome.ai_levels) != len(outcome.places):
        raise ValueError("ai_levels has one entry per seat, or none")


class Store:
    """Accounts, ratings, results and tables: the logic, written once in SQL that both
    SQLite and PostgreSQL read (``?`` for a parameter; see :mod:`.store_pg` for how the
    PostgreSQL store runs it). A subclass opens the database (``self._conn``: an object
    whose ``execute(sql, args)`` gives rows readable by column name and by position),
    says what a write transaction is (:meth:`_write`) and which error a broken
    uniqueness raises. A context manager; :meth:`close` when done."""

    #: the error a UNIQUE constraint raises in this database
    integrity_error: type[Exception] = sqlite3.IntegrityError
    _conn: Any

    # --- the database -----------------------------------------------------------------

    def close(self) -> None:
        """Close the database (again: nothing)."""
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _write(self) -> contextlib.AbstractContextManager[Any]:
        """One write transaction: all of it is kept when the block ends, or none of it
        (an exception rolls it back and goes on)."""
        raise NotImplementedError

    def _lock_ratings(self, conn: Any) -> None:
        """Inside :meth:`finish_match`'s transaction, before it reads a rating: keep any
        other writer of ratings out until it commits (SQLite's ``BEGIN IMMEDIATE``
        already does)."""

    def _schema(self) -> str:
        return _SCHEMA

    def _lock_schema(self, conn: Any) -> None:
        """Inside the transaction that makes the schema, first: keep another process
        that opens the same database at the same moment out until it is made."""

    def _describe(self) -> str:
        """The database, in words, for messages."""
        raise NotImplementedError

    def _migrate(self) -> None:
        with self._write() as conn:
            self._lock_schema(conn)
            for statement in self._schema().split(";"):
                if statement.strip():
                    conn.execute(statement)
            row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
            version = row[0]
            if version is None:
                conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            elif version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._describe()} was written by a newer twos-tui (lobby schema "
                    f"{version}, this one knows {SCHEMA_VERSION}): upgrade twos-tui to open it"
                )

    def integrity_check(self) -> str:
        """The database's own check: ``"ok"`` when sound."""
        return "ok"

    # --- accounts ---------------------------------------------------------------------

    def account(self, name: str) -> Account | None:
        """The account named ``name`` (exactly, else the one that looks like it)."""
        conn = self._conn
        row = conn.execute("SELECT * FROM accounts WHERE name = ?", (name,)).fetchone()
        if row is None:
            row = conn.execute(
                "SELECT * FROM accounts WHERE skeleton = ?", (skeleton(name),)
            ).fetchone()
        return _account(row)

    def account_for_key(self, key: str) -> Account | None:
        """The account a public key's fingerprint has claimed, if any."""
        row = self._conn.execute("SELECT * FROM accounts WHERE key = ?", (key,)).fetchone()
        return _account(row)

    def claim_name(self, name: str, key: str) -> Account:
        """The account of ``key``: the one it has (when ``name`` is, or looks like, that
        account's name), or a new one named ``name``. Raises :class:`NameRefused` with a
        sentence when the name breaks the rules (:func:`.identity_names.check_name`), is
        another key's, looks too much like another account's, or the key already plays
        under another name."""
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_LEN or not key.isprintable():
            raise NameRefused("A name can only be claimed with a valid key.")
        clean = check_name(name)
        skel = skeleton(clean)
        with self._write() as conn:
            mine = _account(conn.execute("SELECT * FROM accounts WHERE key = ?", (key,)).fetchone())
            if mine is not None:
                if skeleton(mine.name) == skel:
                    return mine
                raise NameRefused(
                    f"Your key already plays as '{mine.name}': log in with that name."
                )
            other = _account(
                conn.execute("SELECT * FROM accounts WHERE skeleton = ?", (skel,)).fetchone()
            )
            if other is not None:
                if other.name.casefold() == clean.casefold():
                    raise NameRefused(f"The name '{other.name}' is taken: please choose another.")
                raise NameRefused(
                    f"That name looks too much like '{other.name}': please choose another."
                )
            created = time.time()
            try:
                conn.execute(
                    "INSERT INTO accounts (name, skeleton, key, guest, banned, created)"
                    " VALUES (?, ?, ?, 0, 0, ?)",
                    (clean, skel, key, created),
                )
            except self.integrity_error:
                # another server process claimed it (or the key) between our reads and
                # this write (PostgreSQL; SQLite's BEGIN IMMEDIATE rules that out)
                raise NameRefused(
                    f"The name '{clean}' was just taken: please choose another."
                ) from None
        return Account(name=clean, key=key, guest=False, banned=False, created=created)

    def guest(self, prefix: str = "guest") -> Account:
        """A new guest account (no key, unrated) with a fresh name such as ``guest-4821``,
        kept until :meth:`drop_guest` so no one else gets it meanwhile."""
        digits = 4
        for attempt in range(1000):
            if attempt and attempt % 20 == 0:
                digits += 1  # the names of this length are getting scarce
            number = 10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))
            name = f"{prefix}-{number}"
            created = time.time()
            try:
                with self._write() as conn:
                    conn.execute(
                        "INSERT INTO accounts (name, skeleton, key, guest, banned, created)"
                        " VALUES (?, ?, NULL, 1, 0, ?)",
                        (name, skeleton(name), created),
                    )
            except self.integrity_error:
                continue
            return Account(name=name, key=None, guest=True, banned=False, created=created)
        raise StoreError("no free guest name")  # pragma: no cover - 1000 collisions

    def drop_guest(self, name: str) -> bool:
        """Forget a guest who has gone (the account and its results): the name may be
        given out again. False when ``name`` is not a guest's."""
        with self._write() as conn:
            row = conn.execute(
                "SELECT name FROM accounts WHERE name = ? AND guest = 1", (name,)
            ).fetchone()
            if row is None:
                return False
            conn.execute("DELETE FROM results WHERE name = ?", (name,))
            conn.execute("DELETE FROM ratings WHERE name = ?", (name,))
            conn.execute("DELETE FROM accounts WHERE name = ?", (name,))
        return True

    def _set_banned(self, name: str, banned: bool) -> bool:
        found = self.account(name)
        if found is None:
            return False
        with self._write() as conn:
            conn.execute("UPDATE accounts SET banned = ? WHERE name = ?", (int(banned), found.name))
        return True

    def ban(self, name: str) -> bool:
        """Ban the account ``name`` (or the one that looks like it): it stays, its name
        stays taken, it leaves the leaderboards. False when there is no such account."""
        return self._set_banned(name, True)

    def unban(self, name: str) -> bool:
        """Lift a ban. False when there is no such account."""
        return self._set_banned(name, False)

    # --- ratings and results ------------------------------------------------------------

    def rating(self, name: str, game: str) -> Rating:
        """``name``'s rating in ``game`` (a newcomer's when they have none)."""
        row = self._conn.execute(
            "SELECT mu, sigma, matches FROM ratings WHERE name = ? AND game = ?", (name, game)
        ).fetchone()
        if row is None:
            return Rating(name=name, game=game, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, matches=0)
        return Rating(
            name=name, game=game, mu=row["mu"], sigma=row["sigma"], matches=row["matches"]
        )

    def ratings(self, name: str) -> tuple[RatingInfo, ...]:
        """Each game ``name`` has played rated, with the displayed rating and the place
        on that game's leaderboard (among all its players, not only the top rows)."""
        conn = self._conn
        mine = conn.execute(
            "SELECT r.game, r.mu, r.sigma, r.matches, a.guest, a.banned FROM ratings r"
            " LEFT JOIN accounts a ON a.name = r.name"
            " WHERE r.name = ? AND r.matches > 0 ORDER BY r.game",
            (name,),
        ).fetchall()
        out = []
        for row in mine:
            rank: int | None = None
            if row["guest"] == 0 and row["banned"] == 0:
                ordinal = row["mu"] - 3.0 * row["sigma"]
                better = conn.execute(
                    "SELECT count(*) FROM ratings r JOIN accounts a ON a.name = r.name"
                    f" WHERE r.game = ? AND {_ON_BOARD} AND ("
                    " (r.mu - 3.0 * r.sigma) > ?"
                    " OR ((r.mu - 3.0 * r.sigma) = ? AND (r.matches > ?"
                    " OR (r.matches = ? AND r.name < ?))))",
                    (row["game"], ordinal, ordinal, row["matches"], row["matches"], name),
                ).fetchone()[0]
                rank = int(better) + 1
            out.append(
                RatingInfo(
                    game=row["game"],
                    rating=display(row["mu"], row["sigma"]),
                    matches=row["matches"],
                    rank=rank,
                )
            )
        return tuple(out)

    def finish_match(self, outcome: MatchOutcome) -> dict[str, tuple[float, float]]:
        """Record a finished (or abandoned) match and, when it is rated, move every
        account holder's rating for its game, all in one transaction. Returns each moved
        player's displayed rating (before, after); empty for an unrated match. The same
        match reported again (same ``table_id`` and ``ended``) changes nothing and
        returns what the first report did."""
        _check_outcome(outcome)
        with self._write() as conn:
            self._lock_ratings(conn)
            seen = conn.execute(
                "SELECT id FROM matches WHERE table_id = ? AND ended = ?",
                (outcome.table_id, outcome.ended),
            ).fetchone()
            if seen is not None:
                return self._changes(int(seen["id"]))
            cur = conn.execute(
                "INSERT INTO matches (table_id, game, rated, ended, outcome)"
                " VALUES (?, ?, ?, ?, ?) RETURNING id",
                (
                    outcome.table_id,
                    outcome.game,
                    int(outcome.rated),
                    outcome.ended,
                    _outcome_json(outcome),
                ),
            )
            match_id = int(cur.fetchone()[0])
            places = effective_places(outcome)
            seats: list[SeatRating] = []
            for i, (name, _) in enumerate(outcome.places):
                if name is None:
                    level = outcome.ai_levels[i] if outcome.ai_levels else None
                    mu, sigma = ai_rating(level)
                    seats.append(SeatRating(mu, sigma, fixed=True))
                    continue
                acct = conn.execute("SELECT guest FROM accounts WHERE name = ?", (name,)).fetchone()
                if acct is None or acct["guest"]:
                    seats.append(SeatRating(DEFAULT_MU, DEFAULT_SIGMA, fixed=True))
                    continue
                now = self.rating(name, outcome.game)
                seats.append(SeatRating(now.mu, now.sigma, fixed=False))
            after = rate(seats, places) if outcome.rated else [(s.mu, s.sigma) for s in seats]
            changes: dict[str, tuple[float, float]] = {}
            for i, (name, _) in enumerate(outcome.places):
                if name is None:
                    continue
                seat = seats[i]
                moved = outcome.rated and not seat.fixed and len(seats) >= 2
                before_ms = (seat.mu, seat.sigma) if moved else (None, None)
                after_ms = after[i] if moved else (None, None)
                if moved:
                    conn.execute(
                        "INSERT INTO ratings (name, game, mu, sigma, matches)"
                        " VALUES (?, ?, ?, ?, 1) ON CONFLICT (name, game) DO UPDATE SET"
                        " mu = excluded.mu, sigma = excluded.sigma, matches = ratings.matches + 1",
                        (name, outcome.game, after[i][0], after[i][1]),
                    )
                    changes[name] = (display(seat.mu, seat.sigma), display(*after[i]))
                conn.execute(
                    "INSERT INTO results (match_id, seat, name, place, players, mu_before,"
                    " sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match_id, i, name, places[i], len(outcome.places), *before_ms, *after_ms),
                )
        return changes

    def _changes(self, match_id: int) -> dict[str, tuple[float, float]]:
        rows = self._conn.execute(
            "SELECT name, mu_before, sigma_before, mu_after, sigma_after FROM results"
            " WHERE match_id = ? AND mu_after IS NOT NULL ORDER BY seat",
            (match_id,),
        ).fetchall()
        return {
            r["name"]: (
                display(r["mu_before"], r["sigma_before"]),
                display(r["mu_after"], r["sigma_after"]),
            )
            for r in rows
        }

    def matches(self) -> tuple[MatchOutcome, ...]:
        """Every recorded match, in the order recorded (for replays and checks)."""
        rows = self._conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        return tuple(outcome_from_row(r) for r in rows)

    def recent_results(self, name: str, limit: int = 10) -> tuple[ResultInfo, ...]:
        """``name``'s latest results, newest first (the place counts a leaver last)."""
        rows = self._conn.execute(
            "SELECT m.game, m.ended, r.place, r.players, r.mu_before, r.sigma_before,"
            " r.mu_after, r.sigma_after FROM results r JOIN matches m ON m.id = r.match_id"
            " WHERE r.name = ? ORDER BY m.ended DESC, m.id DESC LIMIT ?",
            (name, max(0, limit)),
        ).fetchall()
        out = []
        for r in rows:
            change: float | None = None
            if r["mu_after"] is not None:
                change = display(r["mu_after"], r["sigma_after"]) - display(
                    r["mu_before"], r["sigma_before"]
                )
            out.append(
                ResultInfo(
                    game=r["game"],
                    when=r["ended"],
                    place=r["place"],
                    players=r["players"],
                    rating_change=change,
                )
            )
        return tuple(out)

    def leaderboard(self, game: str, limit: int = 20) -> tuple[LeaderRow, ...]:
        """The best players of ``game``: account holders with at least one rated match,
        not banned, best displayed rating first (then more matches, then by name)."""
        rows = self._conn.execute(
            "SELECT r.name, r.mu, r.sigma, r.matches FROM ratings r"
            f" JOIN accounts a ON a.name = r.name WHERE r.game = ? AND {_ON_BOARD}"
            f" ORDER BY {_ORDER} LIMIT ?",
            (game, max(0, limit)),
        ).fetchall()
        return tuple(
            LeaderRow(
                rank=i + 1,
                name=r["name"],
                rating=display(r["mu"], r["sigma"]),
                matches=r["matches"],
            )
            for i, r in enumerate(rows)
        )

    # --- tables -------------------------------------------------------------------------

    def save_table(self, rec: TableRecord) -> None:
        """Keep (or update) a lobby table, for a restart to reopen."""
        with self._write() as conn:
            conn.execute(
                "INSERT INTO lobby_tables (table_id, game, save_id, public, rated, code,"
                " process, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET game = excluded.game,"
                " save_id = excluded.save_id, public = excluded.public,"
                " rated = excluded.rated, code = excluded.code,"
                " process = excluded.process, updated = excluded.updated",
                (
                    rec.table_id,
                    rec.game,
                    rec.save_id,
                    int(rec.public),
                    int(rec.rated),
                    rec.code,
                    rec.process,
                    rec.updated,
                ),
            )

    def drop_table(self, table_id: str) -> None:
        """Forget a table (it closed; one not kept: nothing)."""
        with self._write() as conn:
            conn.execute("DELETE FROM lobby_tables WHERE table_id = ?", (table_id,))

    def tables(self, process: str | None = None) -> tuple[TableRecord, ...]:
        """The kept tables (only ``process``'s when given), oldest update first."""
        sql = "SELECT * FROM lobby_tables"
        args: tuple[str, ...] = ()
        if process is not None:
            sql += " WHERE process = ?"
            args = (process,)
        rows = self._conn.execute(sql + " ORDER BY updated, table_id", args).fetchall()
        return tuple(
            TableRecord(
                table_id=r["table_id"],
                game=r["game"],
                save_id=r["save_id"],
                public=bool(r["public"]),
                rated=bool(r["rated"]),
                code=r["code"],
                process=r["process"],
                updated=r["updated"],
            )
            for r in rows
        )


class SqliteStore(Store):
    """The store in one SQLite file (see the module's notes on durability and threads);
    open the same path again at any time."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = default_path() if path is None else Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path} cannot be put in WAL mode (it is {mode})")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._conn = conn
            self._migrate()
        except sqlite3.DatabaseError as e:
            conn.close()
            raise StoreError(f"{self.path} is not a lobby database ({e})") from e
        except BaseException:
            conn.close()
            raise

    def __enter__(self) -> SqliteStore:
        return self

    def _describe(self) -> str:
        return str(self.path)

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def integrity_check(self) -> str:
        """SQLite's own check of the file: ``"ok"`` when sound."""
        rows = self._conn.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)


def open_store(db: str | Path | None = None) -> Store:
    """The store ``twos-tui server --db`` names: a ``postgresql://`` address (shared by
    several server processes; needs the ``pg`` extra), else a SQLite file's path (the
    data directory's ``lobby.db`` when ``None``). :class:`StoreError` says why it cannot
    be opened."""
    if isinstance(db, str) and db.startswith(("postgresql://", "postgres://")):
        from .store_pg import PostgresStore

        return PostgresStore(db)
    return SqliteStore(None if db is None else Path(db))
