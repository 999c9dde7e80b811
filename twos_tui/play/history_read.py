"""Reading the history: matches, deals, the recent deals and the export, each row
checked (a damaged row is skipped and counted, never a crash)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from .history_db import MAX_PENDING_BYTES, HistoryError, _int, _skip, _too_deep, seed_from_sql
from .names import clean_name, clean_strings, clean_text

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
