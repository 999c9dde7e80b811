"""Watching a recorded deal again, and exporting games, with the engine alone.

A deal is rebuilt from its match's record: ``new_game(variant, players, options, seed,
names)``, then the match's actions (from :mod:`.history`) are applied, ``next_deal``
between deals, exactly as the match was played. Every step of the chosen deal becomes a
:class:`Frame`: each seat's hand (from that seat's own ``observation``), the table, the
status line and how much of the log had been written. Nothing here knows a rule.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..engine import Action, Game, new_game
from ..engine.observation import TableEntry, TrickMove
from ..engine.words import says
from ..jsontypes import JsonObject, JsonValue
from . import history
from .history import HistoryError
from .history_read import DealRow, ExportRow, MatchRow
from .names import clean_name, clean_text
from .stats import deal_word

#: observation keys holding one seat's own cards besides the hand, shown in a replay
SEAT_NOTES = ("my_face_down", "my_choice", "my_discard", "received")
#: one seat's notes: key -> a card or cards
SeatNotes = dict[str, str | list[str]]


@dataclass
class Frame:
    """The deal after ``step`` of its actions (0: as dealt)."""

    step: int
    actor: int | None  #: who acted to reach this frame
    action: JsonObject | None  #: the action as recorded
    hands: list[list[str]]  #: every seat's hand, in the variant's order
    notes: list[SeatNotes]  #: per seat: SEAT_NOTES found in its observation
    table: list[TableEntry | TrickMove]  #: the table entries, face-down cards shown
    status: str
    to_act: list[int]
    totals: list[int]
    log_len: int  #: entries of :attr:`DealReplay.log` written by now
    tags: list[list[str]] = field(default_factory=list)


def _is_entry(e: object) -> bool:
    return isinstance(e, dict)


def _merged_table(observations: Sequence[Mapping[str, Any]]) -> list[TableEntry | TrickMove]:
    """The table as the seats see it, each hidden card (``"??"``) filled in from the
    seat that can see it: the deal is over, nothing is secret any more. (Observations
    are read by key as plain mappings: this knows no variant.)"""

    def entries(obs: Mapping[str, Any]) -> list[TableEntry | TrickMove]:
        # the climbing games' current trick (passes included), else the table
        t = obs.get("trick")
        if not (isinstance(t, list) and all(isinstance(e, dict) for e in t)) or (
            obs.get("family") == "trick"
        ):
            t = obs.get("table")
        # (the engine's entries: TableEntry, or TrickMove in a climbing trick)
        return [e for e in (t or []) if _is_entry(e)]

    base = [e.copy() for e in entries(observations[0])]
    for obs in observations[1:]:
        other = entries(obs)
        if len(other) != len(base):
            continue
        for i, e in enumerate(other):
            cards = base[i].get("cards")
            if cards and "??" in cards and e.get("cards") and "??" not in e["cards"]:
                base[i] = e.copy()
    return base


def _pair(entry: JsonValue) -> tuple[int, JsonObject]:
    """A recorded ``[seat, action]``; ``ValueError`` when it is not one (damage)."""
    if not (isinstance(entry, list) and len(entry) == 2):
        raise ValueError(f"not a [seat, action] pair: {entry!r:.40}")
    seat, action = entry
    if type(seat) is not int or not isinstance(action, dict):
        raise ValueError(f"not a [seat, action] pair: {entry!r:.40}")
    return seat, action


def _advance_to_deal(game: Game, actions: list[JsonValue], deal_number: int) -> tuple[int, int]:
    """Apply ``actions`` until deal ``deal_number`` begins; (actions used, log length
    before its first log line)."""
    i = 0
    log_start = 0
    while game.deal_number < deal_number:
        if game.deal_over and not game.match_over and not game.to_act():
            log_start = len(game.history)
            game.next_deal()
            continue
        if i >= len(actions):
            raise HistoryError(f"the recorded actions end before deal {deal_number}")
        seat, a = _pair(actions[i])
        game.apply(seat, Action.from_json(a))
        i += 1
    return i, log_start


class DealReplay:
    """Every step of one recorded deal (raises HistoryError when it cannot be rebuilt:
    an earlier deal of the game is missing, or the rules no longer give the same deal)."""

    def __init__(self, match: MatchRow, deals: list[DealRow], deal_id: int) -> None:
        deal = next((d for d in deals if d["id"] == deal_id), None)
        if deal is None:
            raise HistoryError(f"no deal {deal_id} in game {match['id']}")
        if history.is_joined(match):
            raise HistoryError(
                f"deal {deal_id} was played at a table hosted on another computer: only its "
                "result was kept here, not the cards"
            )
        self.match = match
        self.deal = deal
        self.deal_id = deal_id
        self.deal_number = deal["deal_number"]
        actions = history.match_actions(match, deals, self.deal_number)
        try:
            g = new_game(
                match["variant"],
                match["players"],
                dict(match["options"]),
                match["seed"],
                list(match["names"]),
            )
            used, log_start = _advance_to_deal(g, actions, self.deal_number)
            self.game = g
            self._log_start = log_start
            self.frames = [self._frame(0, None, None)]
            for entry in actions[used:]:
                if g.deal_over:
                    break
                seat, a = _pair(entry)
                g.apply(seat, Action.from_json(a))
                self.frames.append(self._frame(len(self.frames), seat, a))
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
            # IllegalAction: the engine no longer agrees; the others: a damaged record
            raise HistoryError(
                f"deal {deal_id} cannot be replayed with this version's rules: {e}"
            ) from e
        r = g.last_result
        if not g.deal_over or r is None or list(r.changes) != list(deal["changes"]):
            raise HistoryError(
                f"deal {deal_id} does not replay to its recorded result with this version"
            )
        self.result = r
        self.log = g.history[self._log_start :]

    @property
    def seats(self) -> list[JsonObject]:
        return list(self.match["seats"])

    @property
    def names(self) -> list[str]:
        return list(self.match["names"])

    def _frame(self, step: int, seat: int | None, action: JsonObject | None) -> Frame:
        g = self.game
        # read by key as plain mappings: a replay knows no variant's keys
        obs: list[Mapping[str, Any]] = [g.observation(s) for s in range(g.players)]
        first = obs[0]
        return Frame(
            step=step,
            actor=seat,
            action=action,
            hands=[g.sort_cards(list(o.get("hand", []))) for o in obs],
            notes=[{k: o[k] for k in SEAT_NOTES if o.get(k)} for o in obs],
            table=_merged_table(obs),
            status=str(first.get("status", "")),
            to_act=list(first.get("to_act", [])),
            totals=list(first.get("totals", g.totals)),
            log_len=len(g.history) - self._log_start,
            tags=[list(t) for t in (first.get("seat_tags") or [[] for _ in range(g.players)])],
        )


def load_replay(conn: sqlite3.Connection, deal_id: int) -> DealReplay:
    deal = history.deal_row(conn, deal_id)
    if deal is None:
        raise HistoryError(f"there is no deal {deal_id} in the history")
    match = history.match_row(conn, deal["match_id"])
    if match is None:
        raise HistoryError(f"the game of deal {deal_id} is missing from the history")
    return DealReplay(match, history.match_deals(conn, match["id"]), deal_id)


# ----- export -----------------------------------------------------------------------------
def _when(t: float) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return "?"


def seat_label(seat: Mapping[str, object]) -> str:
    name = clean_name(seat.get("name"), "?")
    if seat.get("kind") == "ai":
        return f"{name} (AI, {clean_name(seat.get('level'), 'normal')})"
    if seat.get("kind") == "remote":
        return f"{name} (on another computer)"
    return f"{name} (human)"


def game_log(conn: sqlite3.Connection, match_id: int) -> str:
    """One game (match) as a text log: the table, then each recorded deal with every
    hand as dealt, the play as the log wrote it, and the result."""
    match = history.match_row(conn, match_id)
    if match is None:
        raise HistoryError(f"there is no game {match_id} in the history")
    deals = history.match_deals(conn, match_id)
    out: list[str] = []
    out.append(f"{match['variant_name']} — game {match_id}, started {_when(match['started'])}")
    out.append("Seats: " + ", ".join(seat_label(s) for s in match["seats"]))
    opts = (
        ", ".join(f"{clean_text(k)}={clean_text(v)}" for k, v in sorted(match["options"].items()))
        or "defaults"
    )
    if history.is_joined(match):
        out.append(f"Joined at a table hosted elsewhere; rules: {opts}")
    elif match["finished"]:
        out.append(f"Seed {match['seed']}; rules: {opts}")
    else:  # the seed would tell every hand still to come
        out.append(f"Seed: kept secret until the match is over; rules: {opts}")
    if not deals:
        out.append(f"No finished {deal_word(match['variant'])} recorded.")
        return "\n".join(out) + "\n"
    word = deal_word(match["variant"])
    for d in deals:
        out.append("")
        undo = f" · {d['undos']} undo{'s' if d['undos'] != 1 else ''}" if d["undos"] else ""
        minutes = d["duration"] / 60
        out.append(
            f"== {word.capitalize()} {d['deal_number']} ({word} id {d['id']}) · "
            f"{minutes:.1f} min{undo}"
        )
        try:
            rep = DealReplay(match, deals, d["id"])
        except HistoryError as e:
            out.append(f"(cannot be replayed: {e})")
            out.append(d["summary"])
            continue
        face = rep.game.card_face
        for seat, hand in enumerate(rep.frames[0].hands):
            cards = " ".join(face(c).label for c in hand)
            name = match["names"][seat] if seat < len(match["names"]) else f"Seat {seat + 1}"
            out.append(f"  {says(name, 'is dealt')}: {cards}")
        for entry in rep.log:
            out.append(f"  {clean_text(entry.get('text', ''))}")
        out.append(d["summary"])
        out.extend(f"  {line}" for line in d["details"])
        totals = ", ".join(
            f"{n} {clean_text(t)}" for n, t in zip(match["names"], d["totals"], strict=False)
        )
        out.append(f"{match['score_label']} after {word} {d['deal_number']}: {totals}")
    if match["finished"]:
        winners = match["winners"] if isinstance(match["winners"], list) else []
        names = match["names"]
        won = ", ".join(names[i] for i in winners if isinstance(i, int) and 0 <= i < len(names))
        out.append("")
        out.append(f"Match over: {won} won.")
    return "\n".join(out) + "\n"


CSV_FIELDS = [
    "deal_id",
    "game_id",
    "variant",
    "game",
    "deal_number",
    "started",
    "ended",
    "duration_s",
    "players",
    "seed",
    "options",
    "seats",
    "score_label",
    "lower_score_wins",
    "changes",
    "totals",
    "deal_winners",
    "summary",
    "undos",
    "watched",
    "match_over",
    "match_winners",
    "action_count",
    "deal_word",  #: what the game calls a deal ("round" in 2v1): deal_number counts those
]


def _iso(t: float) -> str:
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return ""


_WORDS: dict[str, str] = {}


def _word(variant: str) -> str:
    w = _WORDS.get(variant)
    if w is None:
        w = _WORDS[variant] = deal_word(variant)
    return w


def _csv_row(d: ExportRow) -> list[object]:
    names = d["names"]

    def who(seats: JsonValue) -> str:
        if not isinstance(seats, list):
            return ""
        return "; ".join(names[i] for i in seats if isinstance(i, int) and 0 <= i < len(names))

    return [
        d["id"],
        d["match_id"],
        d["variant"],
        d["variant_name"],
        d["deal_number"],
        _iso(d["started"]),
        _iso(d["ended"]),
        round(d["duration"], 1),
        d["players"],
        d["seed"] if d.get("match_finished") else "",  # secret while the match goes on
        json.dumps(d["options"], sort_keys=True),
        "; ".join(seat_label(s) for s in d["seats"]),
        d["score_label"],
        int(bool(d["low_score_wins"])),
        "; ".join(clean_text(c) for c in d["changes"]),
        "; ".join(clean_text(t) for t in d["totals"]),
        who(d["winners"]),
        d["summary"],
        d["undos"],
        d["watched"],
        d["match_over"],
        who(d["match_winners"]) if d["match_over"] else "",
        d["action_count"],
        _word(d["variant"]),
    ]


def write_csv(
    conn: sqlite3.Connection,
    out: IO[str],
    progress: Callable[[int, int], None] | None = None,
    every: int = 2000,
) -> int:
    """Every recorded deal, one row each (a header row first), written to ``out`` as
    it is read (nothing is held in memory); ``progress(done, total)`` is called every
    ``every`` rows and at the end. Damaged rows are skipped (counted on ``conn``).
    Returns the number of rows written."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    total = history.count_deals(conn) if progress is not None else 0
    done = 0
    for d in history.all_deals_for_export(conn):
        try:
            row = _csv_row(d)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            history._skip(conn)
            continue
        w.writerow([clean_text(v, 100_000) if isinstance(v, str) else v for v in row])
        done += 1
        if progress is not None and done % every == 0:
            progress(done, total)
    if progress is not None:
        progress(done, total)
    return done


def export_csv(conn: sqlite3.Connection) -> str:
    """Every recorded deal as CSV text (a header row first)."""
    buf = io.StringIO()
    write_csv(conn, buf)
    return buf.getvalue()
