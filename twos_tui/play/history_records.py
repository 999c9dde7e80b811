"""Writing the history: one record (a finished deal, an undo) in one transaction, and
the pending folder, where a record that could not be written waits to be written
later (:func:`drain_pending`)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal, NotRequired, TypeAlias, TypedDict, TypeGuard

from ..jsontypes import JsonObject, JsonValue
from .history_db import (
    DRAIN_BUDGET_S,
    MAX_PENDING_BYTES,
    _too_deep,
    is_damage,
    seed_to_sql,
    transaction,
)
from .save_data import SeatJson


# ----- the records' shapes ----------------------------------------------------------------
class DealRecord(TypedDict):
    """A finished deal, as the table hands it to the recorder (and as a pending file
    keeps it)."""

    type: Literal["deal"]
    match_key: str  #: the save id (a joined table's: :data:`JOINED_PREFIX`...)
    variant: str
    variant_name: str
    players: int
    options: JsonObject  #: the house rules, by option id
    seed: int
    names: list[str]
    seats: list[SeatJson]  #: kind "human", "ai" or "remote"
    score_label: str
    low_score_wins: bool
    deal_number: int
    first_action: int  #: index of the deal's first action in the match's list
    actions: list[JsonValue]  #: the engine's ``[seat, action]`` of this deal
    prefix: list[JsonValue]  #: the actions before it (a match resumed mid-way)
    changes: list[int]
    totals: list[int]
    winners: list[int]
    summary: str
    details: list[str]
    started: float
    ended: float
    duration: float
    match_over: bool
    match_winners: NotRequired[list[int] | None]  #: when the match is over
    match_started: float
    match_duration: float


class UndoRecord(TypedDict):
    """Actions taken back in a deal."""

    type: Literal["undo"]
    match_key: str
    deal_number: int
    seat: int
    taken_back: int  #: actions rewound (the player's and the AI's after it)
    at: float


HistoryRecord: TypeAlias = DealRecord | UndoRecord


def _int(v: JsonValue) -> bool:
    return type(v) is int


def _num(v: JsonValue) -> bool:
    return type(v) in (int, float)


def _str(v: JsonValue) -> bool:
    return isinstance(v, str)


def _bool(v: JsonValue) -> bool:
    return isinstance(v, bool)


def _list_of(check: Callable[[JsonValue], bool]) -> Callable[[JsonValue], bool]:
    return lambda v: isinstance(v, list) and all(check(x) for x in v)


def _seat(v: JsonValue) -> bool:
    return isinstance(v, dict) and all(_str(v.get(k)) for k in ("name", "kind", "level"))


#: each field of a record and its check (a pending file is read as unknown JSON)
_UNDO_FIELDS: dict[str, Callable[[JsonValue], bool]] = {
    "match_key": _str,
    "deal_number": _int,
    "seat": _int,
    "taken_back": _int,
    "at": _num,
}
_DEAL_FIELDS: dict[str, Callable[[JsonValue], bool]] = {
    "match_key": _str,
    "variant": _str,
    "variant_name": _str,
    "players": _int,
    "options": lambda v: isinstance(v, dict),
    "seed": _int,
    "names": _list_of(_str),
    "seats": _list_of(_seat),
    "score_label": _str,
    "low_score_wins": _bool,
    "deal_number": _int,
    "first_action": _int,
    "actions": lambda v: isinstance(v, list),
    "prefix": lambda v: isinstance(v, list),
    "changes": _list_of(_int),
    "totals": _list_of(_int),
    "winners": _list_of(_int),
    "summary": _str,
    "details": _list_of(_str),
    "started": _num,
    "ended": _num,
    "duration": _num,
    "match_over": _bool,
    "match_started": _num,
    "match_duration": _num,
}


def _is_undo(rec: JsonObject) -> TypeGuard[UndoRecord]:
    return rec.get("type") == "undo" and all(
        k in rec and ok(rec[k]) for k, ok in _UNDO_FIELDS.items()
    )


def _is_deal(rec: JsonObject) -> TypeGuard[DealRecord]:
    winners = rec.get("match_winners")
    return (
        rec.get("type") == "deal"
        and all(k in rec and ok(rec[k]) for k, ok in _DEAL_FIELDS.items())
        and (winners is None or _list_of(_int)(winners))
    )


def history_record(rec: JsonObject) -> HistoryRecord:
    """A pending file's record, checked field by field; ``ValueError`` if it is not one
    (a record of the wrong shape is never written: it is kept apart)."""
    if _is_deal(rec) or _is_undo(rec):
        return rec
    raise ValueError("not a record")


# ----- records ----------------------------------------------------------------------------
def opponents_key(seats: list[SeatJson], seat: int) -> str:
    """The AI levels a seat played against: ``"normal"``, ``"easy+hard"`` (several
    levels at the table), or ``"humans"`` when every other seat was a person."""
    from ..ai import BASELINES, LEVELS

    order = {lv: i for i, lv in enumerate(LEVELS + BASELINES)}
    levels = {s.get("level", "normal") for i, s in enumerate(seats) if i != seat and _is_ai(s)}
    if not levels:
        return "humans"
    return "+".join(sorted(levels, key=lambda lv: (order.get(lv, 99), lv)))


def _is_ai(seat: SeatJson) -> bool:
    return seat.get("kind") == "ai"


#: the match key of a deal recorded by a client that joined a table hosted elsewhere:
#: only that seat's view was known (no seed, no other hand), so only its results are kept
JOINED_PREFIX = "joined-"


def is_joined(match: Mapping[str, object]) -> bool:
    """A match played at a table hosted on another computer (results only, no replay)."""
    return str(match.get("match_key", "")).startswith(JOINED_PREFIX)


def write_record(conn: sqlite3.Connection, rec: HistoryRecord) -> None:
    """Write one record (``{"type": "deal" | "undo", ...}``) in one transaction.
    Recording a deal that is already there changes nothing."""
    with transaction(conn):
        if rec["type"] == "undo":
            _write_undo(conn, rec)
        elif rec["type"] == "deal":
            _write_deal(conn, rec)
        else:
            raise ValueError(f"unknown history record {rec['type']!r}")


def _write_undo(conn: sqlite3.Connection, rec: UndoRecord) -> None:
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


def _write_deal(conn: sqlite3.Connection, rec: DealRecord) -> None:
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
def spool(rec: HistoryRecord, folder: Path) -> Path:
    """Keep a record that could not be written, to be written later (atomically)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time():.6f}-{uuid.uuid4().hex[:8]}"
    tmp = folder / f"{name}.tmp"
    tmp.write_text(json.dumps(rec), encoding="utf-8")
    path = folder / f"{name}.json"
    os.replace(tmp, path)
    return path


def read_pending(path: Path) -> JsonObject:
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
            raw: JsonObject | None = read_pending(claimed)
        except (OSError, ValueError):
            raw = None
        try:
            if raw is None:
                raise ValueError("not a record")
            write_record(conn, history_record(raw))
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
