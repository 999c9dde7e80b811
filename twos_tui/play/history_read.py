"""Reading the history: matches, deals, the recent deals and the export, each row
checked (a damaged row is skipped and counted, never a crash)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import TypeAlias, TypedDict, TypeVar

from ..jsontypes import JsonObject, JsonValue
from .history_db import MAX_PENDING_BYTES, HistoryError, _int, _skip, _too_deep, seed_from_sql
from .names import clean_name, clean_strings, clean_text

R = TypeVar("R")

#: a column as SQLite gives it, where the reader does not check it (a flag, a count)
SqlValue: TypeAlias = int | float | str | bytes | None


# ----- the rows, as read ------------------------------------------------------------------
# (the checked columns have their types; the JSON ones not checked further are JSON)
class MatchRow(TypedDict):
    """A game (match) of the history: its table, its rules and its seed."""

    id: int
    match_key: SqlValue  #: the save id (:data:`.history_records.JOINED_PREFIX`...)
    variant: str
    variant_name: str
    players: int
    options: JsonObject
    seed: int
    names: list[str]
    seats: list[JsonObject]  #: {name, kind, level} per seat (a damaged one: {})
    score_label: str
    low_score_wins: SqlValue
    watched: SqlValue
    prefix_actions: list[JsonValue]
    started: float
    updated: SqlValue
    deals: SqlValue
    finished: SqlValue
    totals: JsonValue
    winners: JsonValue
    duration: SqlValue


class DealRow(TypedDict):
    """A recorded deal of a game."""

    id: int
    match_id: int
    variant: SqlValue
    deal_number: int
    first_action: int
    actions: list[JsonValue]  #: ``[seat, action]`` of this deal
    changes: list[JsonValue]
    totals: list[JsonValue]
    winners: list[int]
    summary: str
    details: list[str]
    started: float
    ended: float
    duration: float
    undos: int
    match_over: SqlValue


class RecentRow(TypedDict):
    """A deal in the list of recent deals, with its game's names and seats."""

    id: int
    match_id: int
    deal_number: int
    ended: float
    duration: float
    summary: str
    undos: int
    changes: list[JsonValue]
    winners: list[JsonValue]
    match_over: SqlValue
    variant: str
    variant_name: str
    names: list[str]
    seats: list[JsonValue]
    score_label: str
    watched: SqlValue


class ExportRow(TypedDict):
    """A deal for the CSV export, with its game's table (``action_count``: how many
    actions, which are not read)."""

    id: int
    match_id: int
    deal_number: int
    started: float
    ended: float
    duration: float
    summary: str
    undos: int
    changes: list[JsonValue]
    totals: list[JsonValue]
    winners: list[JsonValue]
    match_over: SqlValue
    action_count: int
    variant: str
    variant_name: str
    players: int
    options: JsonObject
    seed: int
    names: list[str]
    seats: list[JsonObject]
    score_label: str
    low_score_wins: SqlValue
    watched: SqlValue
    match_winners: list[JsonValue] | None
    match_finished: SqlValue


# ----- reading ----------------------------------------------------------------------------
# Every reader survives a damaged row: a row whose JSON or numbers cannot be read is
# skipped and counted on the connection (:func:`skipped`); the caller says how many.
# Every string read is cleaned of control characters (a name with escape codes stored in
# the history must not reach a terminal raw).


def _loads(text: object, default: JsonValue = None) -> JsonValue:
    if text is None:
        return default
    if not isinstance(text, str | bytes):
        raise ValueError("not JSON text")
    if len(text) > MAX_PENDING_BYTES:
        raise ValueError("too large")
    if _too_deep(text.encode("utf-8", "replace") if isinstance(text, str) else text):
        raise ValueError("nested too deeply")
    loaded: JsonValue = clean_strings(json.loads(text))
    return loaded


def _num(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("not a number")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    return value


def _time(value: object) -> float:
    """A time stamp (seconds since 1970) a clock can show."""
    t = _num(value)
    if not 0 <= t < 1e11:
        raise ValueError("not a time")
    return t


def _list(value: object) -> list[JsonValue]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value


def _obj(value: object) -> JsonObject:
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


def _sql(value: object) -> SqlValue:
    """A column not checked further (SQLite gives only these types)."""
    if value is None or isinstance(value, int | float | str | bytes):
        return value
    raise TypeError("not a column")


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("not text")
    return clean_text(value, 4_000)


_ROW_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def _check_match(d: sqlite3.Row) -> MatchRow:
    # (checked in the order of the columns' importance: a row damaged in several places
    # is named by its first damage, as it always was)
    options, names, seats = _loads(d["options"]), _loads(d["names"]), _loads(d["seats"])
    prefix = _loads(d["prefix_actions"])
    totals, winners = _loads(d["totals"]), _loads(d["winners"])
    if not isinstance(options, dict):
        raise ValueError("options")
    clean_names = [clean_name(n) for n in _list(names)]
    seat_objs = [s if isinstance(s, dict) else {} for s in _list(seats)]
    prefix = _list(prefix)
    variant, variant_name, label = (_str(d[k]) for k in ("variant", "variant_name", "score_label"))
    match_id, players = _int(d["id"]), _int(d["players"])
    seed = seed_from_sql(d["seed"])
    return {
        "id": match_id,
        "match_key": _sql(d["match_key"]),
        "variant": variant,
        "variant_name": variant_name,
        "players": players,
        "options": options,
        "seed": seed,
        "names": clean_names,
        "seats": seat_objs,
        "score_label": label,
        "low_score_wins": _sql(d["low_score_wins"]),
        "watched": _sql(d["watched"]),
        "prefix_actions": prefix,
        "started": _time(d["started"]),
        "updated": _sql(d["updated"]),
        "deals": _sql(d["deals"]),
        "finished": _sql(d["finished"]),
        "totals": totals,
        "winners": winners,
        "duration": _sql(d["duration"]),
    }


def _one_row(
    conn: sqlite3.Connection, table: str, row_id: int, read: Callable[[sqlite3.Row], R], what: str
) -> R | None:
    """Row ``row_id`` of ``table`` read by ``read``, or None where there is none; raises
    HistoryError, naming it as ``what``, when it is damaged."""
    row = conn.execute(f"SELECT * FROM {table} WHERE id = ?", (row_id,)).fetchone()
    if row is None:
        return None
    try:
        return read(row)
    except _ROW_ERRORS as e:
        raise HistoryError(f"{what} {row_id} is damaged in the history ({e})") from None


def match_row(conn: sqlite3.Connection, match_id: int) -> MatchRow | None:
    """One game's row; raises HistoryError when it is damaged."""
    return _one_row(conn, "matches", match_id, _check_match, "game")


def _deal_dict(d: sqlite3.Row) -> DealRow:
    actions, changes, totals, winners, details = (
        _list(_loads(d[k])) for k in ("actions", "changes", "totals", "winners", "details")
    )
    deal_id, match_id, number, first, undos = (
        _int(d[k]) for k in ("id", "match_id", "deal_number", "first_action", "undos")
    )
    started, ended = _time(d["started"]), _time(d["ended"])
    duration = _num(d["duration"])
    return {
        "id": deal_id,
        "match_id": match_id,
        "variant": _sql(d["variant"]),
        "deal_number": number,
        "first_action": first,
        "actions": actions,
        "changes": changes,
        "totals": totals,
        "winners": [w for w in winners if isinstance(w, int)],
        "summary": _str(d["summary"]),
        "details": [clean_text(x) for x in details],
        "started": started,
        "ended": ended,
        "duration": duration,
        "undos": undos,
        "match_over": _sql(d["match_over"]),
    }


def deal_row(conn: sqlite3.Connection, deal_id: int) -> DealRow | None:
    """One deal's row; raises HistoryError when it is damaged."""
    return _one_row(conn, "deals", deal_id, _deal_dict, "deal")


def match_deals(conn: sqlite3.Connection, match_id: int) -> list[DealRow]:
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


def match_actions(match: MatchRow, deals: list[DealRow], upto: int) -> list[JsonValue]:
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


def _recent_dict(d: sqlite3.Row) -> RecentRow:
    changes, winners, names, seats = (
        _list(_loads(d[k])) for k in ("changes", "winners", "names", "seats")
    )
    clean_names = [clean_name(n) for n in names]
    deal_id, match_id, number, undos = (
        _int(d[k]) for k in ("id", "match_id", "deal_number", "undos")
    )
    ended, duration = _time(d["ended"]), _num(d["duration"])
    summary, variant, variant_name, label = (
        _str(d[k]) for k in ("summary", "variant", "variant_name", "score_label")
    )
    return {
        "id": deal_id,
        "match_id": match_id,
        "deal_number": number,
        "ended": ended,
        "duration": duration,
        "summary": summary,
        "undos": undos,
        "changes": changes,
        "winners": winners,
        "match_over": _sql(d["match_over"]),
        "variant": variant,
        "variant_name": variant_name,
        "names": clean_names,
        "seats": seats,
        "score_label": label,
        "watched": _sql(d["watched"]),
    }


def recent_deals(
    conn: sqlite3.Connection,
    variant: str | None = None,
    limit: int = 100,
    before: tuple[float, int] | None = None,
) -> list[RecentRow]:
    """The latest recorded deals (newest first; with ``before``, those older than that
    deal's ``(ended, id)``), with their match's names and seats. Damaged rows are
    skipped and counted."""
    sql = (
        "SELECT d.id, d.match_id, d.deal_number, d.ended, d.duration, d.summary, d.undos, "
        "d.changes, d.winners, d.match_over, m.variant, m.variant_name, m.names, m.seats, "
        "m.score_label, m.watched FROM deals d JOIN matches m ON m.id = d.match_id"
    )
    where: list[str] = []
    args: tuple[str | float, ...] = ()
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


def _export_dict(d: sqlite3.Row) -> ExportRow:
    changes, totals, winners, names, seats = (
        _list(_loads(d[k])) for k in ("changes", "totals", "winners", "names", "seats")
    )
    options = _loads(d["options"])
    if not isinstance(options, dict):
        raise ValueError("options")
    clean_names = [clean_name(n) for n in names]
    seat_objs = [s if isinstance(s, dict) else {} for s in seats]
    match_winners = _loads(d["match_winners"])
    if match_winners is not None:
        match_winners = _list(match_winners)
    deal_id, match_id, number, undos, players, action_count = (
        _int(d[k]) for k in ("id", "match_id", "deal_number", "undos", "players", "action_count")
    )
    seed = seed_from_sql(d["seed"])
    started, ended = _time(d["started"]), _time(d["ended"])
    duration = _num(d["duration"])
    summary, variant, variant_name, label = (
        _str(d[k]) for k in ("summary", "variant", "variant_name", "score_label")
    )
    return {
        "id": deal_id,
        "match_id": match_id,
        "deal_number": number,
        "started": started,
        "ended": ended,
        "duration": duration,
        "summary": summary,
        "undos": undos,
        "changes": changes,
        "totals": totals,
        "winners": winners,
        "match_over": _sql(d["match_over"]),
        "action_count": action_count,
        "variant": variant,
        "variant_name": variant_name,
        "players": players,
        "options": options,
        "seed": seed,
        "names": clean_names,
        "seats": seat_objs,
        "score_label": label,
        "low_score_wins": _sql(d["low_score_wins"]),
        "watched": _sql(d["watched"]),
        "match_winners": match_winners,
        "match_finished": _sql(d["match_finished"]),
    }


def all_deals_for_export(conn: sqlite3.Connection) -> Iterator[ExportRow]:
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
