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
from pathlib import Path
from typing import Any

from .history_db import (
    DRAIN_BUDGET_S,
    MAX_PENDING_BYTES,
    _too_deep,
    is_damage,
    seed_to_sql,
    transaction,
)


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
