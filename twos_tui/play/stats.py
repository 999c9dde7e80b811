"""Statistics from the history, per game (variant) and per human player.

Whose figures: the human seats, by name (in a hot-seat game each human has their own).
AI seats have no figures, and a watched game (every seat AI) is recorded but counts in
nobody's figures; the number of watched deals is shown apart.

Per player and game:

* matches and deals played and won (a deal is won by the seats the engine names as its
  winners, a match by :meth:`Game.match_winners`; a shared win counts as a win);
* win rates by opponents: the AI levels at the table (``normal``, ``easy+hard`` for a
  mixed table, ``humans`` when only people were at it);
* the average *change per deal* of the game's score, per score kind (``Penalty``,
  ``Deals won``, ``Coins``, ``Points``...), with whether lower is better;
* the best and current streaks of deals won (and of matches won); the current streak
  is the run of equal results at the end: ``+3`` three wins, ``-2`` two losses;
* the recent results (oldest first) for the chart;
* how many deals and matches had an undo (they count like the others, and are marked).
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass, field
from typing import TypedDict

from ..engine import variant_class
from .names import clean_name, clean_text

RECENT = 30  #: deals in the chart


# ----- the figures as JSON (``twos-tui stats --json``) -------------------------------------
class RecordJson(TypedDict):
    played: int
    won: int
    win_rate: float | None  #: rounded to 4 places; None when none played


class AverageJson(TypedDict):
    label: str
    lower_is_better: bool
    deals: int
    mean_change_per_deal: float | None  #: rounded to 3 places; None with no deals


class StreaksJson(TypedDict):
    best: int  #: longest run of wins
    current: int  #: +n: the last n won; -n: the last n lost


class RecentDeal(TypedDict):
    """One of a player's recent deals, for the chart."""

    deal_id: int
    game_id: int  #: the match's id
    won: bool
    change: int  #: the player's change of score in it
    undone: bool  #: the deal had an undo


class PlayerStatsJson(TypedDict):
    player: str
    matches: RecordJson
    deals: RecordJson
    deals_by_opponents: dict[str, RecordJson]
    matches_by_opponents: dict[str, RecordJson]
    average_change_per_deal: list[AverageJson]
    deal_streaks: StreaksJson
    match_streaks: StreaksJson
    deals_with_undo: int
    matches_with_undo: int
    recent: list[RecentDeal]


class Totals(TypedDict):
    """The players' figures added up."""

    matches: RecordJson
    deals: RecordJson


class VariantStatsJson(TypedDict):
    variant: str
    name: str
    deals_recorded: int
    matches_recorded: int
    watched_deals: int
    matches: RecordJson
    deals: RecordJson
    players: list[PlayerStatsJson]


class StatsJson(TypedDict):
    history: str  #: the history file's path
    schema: int
    note: str
    damaged_rows_skipped: int
    variants: list[VariantStatsJson]


#: the chart's glyphs: shape, not colour, tells a win from a loss
WIN_GLYPH = "█"
LOSS_GLYPH = "▁"
SPARK = "▁▂▃▄▅▆▇█"


@dataclass
class Record:
    played: int = 0
    won: int = 0

    @property
    def rate(self) -> float | None:
        return self.won / self.played if self.played else None

    def add(self, won: bool) -> None:
        self.played += 1
        self.won += int(won)

    def to_json(self) -> RecordJson:
        rate = self.rate
        return {
            "played": self.played,
            "won": self.won,
            "win_rate": None if rate is None else round(rate, 4),
        }


@dataclass
class Average:
    label: str
    lower_is_better: bool
    deals: int = 0
    total: int = 0

    @property
    def mean(self) -> float | None:
        return self.total / self.deals if self.deals else None

    def to_json(self) -> AverageJson:
        m = self.mean
        return {
            "label": self.label,
            "lower_is_better": self.lower_is_better,
            "deals": self.deals,
            "mean_change_per_deal": None if m is None else round(m, 3),
        }


@dataclass
class Streaks:
    best: int = 0  #: longest run of wins
    current: int = 0  #: +n: the last n won; -n: the last n lost

    def to_json(self) -> StreaksJson:
        return {"best": self.best, "current": self.current}


@dataclass
class PlayerStats:
    player: str
    matches: Record = field(default_factory=Record)
    deals: Record = field(default_factory=Record)
    deals_by_opponents: dict[str, Record] = field(default_factory=dict)
    matches_by_opponents: dict[str, Record] = field(default_factory=dict)
    averages: dict[str, Average] = field(default_factory=dict)
    deal_streaks: Streaks = field(default_factory=Streaks)
    match_streaks: Streaks = field(default_factory=Streaks)
    deals_with_undo: int = 0
    matches_with_undo: int = 0
    recent: list[RecentDeal] = field(default_factory=list)  #: oldest first

    def to_json(self) -> PlayerStatsJson:
        return {
            "player": self.player,
            "matches": self.matches.to_json(),
            "deals": self.deals.to_json(),
            "deals_by_opponents": {k: r.to_json() for k, r in self.deals_by_opponents.items()},
            "matches_by_opponents": {k: r.to_json() for k, r in self.matches_by_opponents.items()},
            "average_change_per_deal": [a.to_json() for a in self.averages.values()],
            "deal_streaks": self.deal_streaks.to_json(),
            "match_streaks": self.match_streaks.to_json(),
            "deals_with_undo": self.deals_with_undo,
            "matches_with_undo": self.matches_with_undo,
            "recent": list(self.recent),
        }


@dataclass
class VariantStats:
    variant: str
    name: str
    deals_recorded: int = 0  #: every recorded deal, watched ones included
    matches_recorded: int = 0
    watched_deals: int = 0  #: all-AI deals: in nobody's figures
    players: list[PlayerStats] = field(default_factory=list)  #: most deals first

    def totals(self) -> Totals:
        """The players' figures added up (one player: that player's)."""
        m, d = Record(), Record()
        for p in self.players:
            m.played += p.matches.played
            m.won += p.matches.won
            d.played += p.deals.played
            d.won += p.deals.won
        return {"matches": m.to_json(), "deals": d.to_json()}

    def to_json(self) -> VariantStatsJson:
        t = self.totals()
        return {
            "variant": self.variant,
            "name": self.name,
            "deals_recorded": self.deals_recorded,
            "matches_recorded": self.matches_recorded,
            "watched_deals": self.watched_deals,
            "matches": t["matches"],
            "deals": t["deals"],
            "players": [p.to_json() for p in self.players],
        }


def variant_names() -> dict[str, str]:
    """Every game's id and name, in the engine's order."""
    from ..engine import VARIANT_IDS, variant_class

    return {v: variant_class(v).name for v in VARIANT_IDS}


def streaks_of(results: list[int]) -> Streaks:
    """Best and current win streaks of a list of 0/1 results, oldest first."""
    s = Streaks()
    for won, run in itertools.groupby(results):
        n = sum(1 for _ in run)
        if won:
            s.best = max(s.best, n)
            s.current = n
        else:
            s.current = -n
    return s


#: a results row whose every figure is a number in range (the others are damaged rows:
#: skipped, and counted by :func:`damaged_results`)
RESULT_OK = (
    "typeof(variant) = 'text' AND typeof(player) = 'text' AND typeof(opponents) = 'text' "
    "AND typeof(score_label) = 'text' AND won IN (0, 1) AND typeof(change) = 'integer' "
    "AND abs(change) < 1000000000 AND match_over IN (0, 1) AND undone IN (0, 1) "
    "AND (match_won IS NULL OR match_won IN (0, 1)) "
    "AND (match_undone IS NULL OR match_undone IN (0, 1)) "
    "AND typeof(ended) IN ('real', 'integer') AND typeof(deal_id) = 'integer'"
)
MATCH_OK = (
    "typeof(variant) = 'text' AND typeof(deals) = 'integer' AND deals BETWEEN 0 AND 1000000000 "
    "AND watched IN (0, 1)"
)


def damaged_results(conn: sqlite3.Connection, variant: str | None = None) -> int:
    """How many result and game rows the figures skip because they are damaged."""
    where, args = (" AND variant = ?", (variant,)) if variant else ("", ())
    n = conn.execute(f"SELECT count(*) FROM results WHERE NOT ({RESULT_OK}){where}", args)
    m = conn.execute(f"SELECT count(*) FROM matches WHERE NOT ({MATCH_OK}){where}", args)
    return int(n.fetchone()[0]) + int(m.fetchone()[0])


def variant_counts(conn: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    """Per game: (deals recorded, matches recorded, watched deals); damaged rows are
    left out."""
    return {
        str(row[0]): (int(row[1] or 0), int(row[2] or 0), int(row[3] or 0))
        for row in conn.execute(
            "SELECT variant, sum(deals), count(*), sum(watched * deals) FROM matches "
            f"WHERE {MATCH_OK} GROUP BY variant"
        )
    }


def compute(conn: sqlite3.Connection, variant: str | None = None) -> list[VariantStats]:
    """Figures per game (every known variant, or just ``variant``), zeros included.

    The sums are made by SQLite (GROUP BY); only the streaks walk a player's results in
    order, from a covering index."""
    names = variant_names()
    if variant is not None and variant not in names:
        raise ValueError(f"unknown variant {variant!r}; choose one of: " + ", ".join(names))
    wanted = [variant] if variant else list(names)
    out = {v: VariantStats(v, names[v]) for v in wanted}
    for v, (deals, matches, watched) in variant_counts(conn).items():
        if v in out:
            out[v].deals_recorded, out[v].matches_recorded, out[v].watched_deals = (
                deals,
                matches,
                watched,
            )
    where, args = (
        (f"WHERE {RESULT_OK} AND variant = ?", (variant,))
        if variant
        else (
            f"WHERE {RESULT_OK}",
            (),
        )
    )
    players: dict[tuple[str, str], PlayerStats] = {}

    def player(v: str, name: str) -> PlayerStats:
        ps = players.get((v, name))
        if ps is None:
            ps = players[(v, name)] = PlayerStats(clean_name(name, "?"))
        return ps

    for row in conn.execute(
        "SELECT variant, player, opponents, score_label, low_score_wins, count(*), sum(won), "
        "sum(change), sum(match_over), sum(coalesce(match_won, 0)), sum(undone), "
        "sum(coalesce(match_undone, 0)) "
        f"FROM results {where} GROUP BY variant, player, opponents, score_label",
        args,
    ):
        v, name, opp, label, low, n, won, change, m_n, m_won, undone, m_undone = row
        if v not in out:
            continue
        ps = player(v, name)
        ps.deals_by_opponents.setdefault(opp, Record()).played += n
        ps.deals_by_opponents[opp].won += won
        ps.deals.played += n
        ps.deals.won += won
        if m_n:
            ps.matches_by_opponents.setdefault(opp, Record()).played += m_n
            ps.matches_by_opponents[opp].won += m_won
            ps.matches.played += m_n
            ps.matches.won += m_won
        avg = ps.averages.setdefault(label, Average(label, bool(low)))
        avg.deals += n
        avg.total += change
        ps.deals_with_undo += undone
        ps.matches_with_undo += m_undone
    for ps in players.values():  # the score most played first
        ps.averages = dict(sorted(ps.averages.items(), key=lambda kv: -kv[1].deals))
    for (v, name), ps in players.items():
        key = (v, name)
        ps.deal_streaks = streaks_of(
            [
                r[0]
                for r in conn.execute(
                    "SELECT won FROM results WHERE variant = ? AND player = ? "
                    "AND won IN (0, 1) ORDER BY ended, deal_id",
                    key,
                )
            ]
        )
        ps.match_streaks = streaks_of(
            [
                r[0]
                for r in conn.execute(
                    "SELECT match_won FROM results WHERE variant = ? AND player = ? "
                    "AND match_over = 1 AND match_won IN (0, 1) ORDER BY ended, deal_id",
                    key,
                )
            ]
        )
        recent = conn.execute(
            "SELECT deal_id, match_id, won, change, undone FROM results "
            f"WHERE variant = ? AND player = ? AND {RESULT_OK} "
            "ORDER BY ended DESC, deal_id DESC LIMIT ?",
            key + (RECENT,),
        ).fetchall()
        ps.recent = [
            {
                "deal_id": d,
                "game_id": m,
                "won": bool(w),
                "change": c,
                "undone": bool(u),
            }
            for d, m, w, c, u in reversed(recent)
        ]
        out[v].players.append(ps)
    for vs in out.values():
        vs.players.sort(key=lambda p: (-p.deals.played, p.player))
    return list(out.values())


def compute_empty() -> list[VariantStats]:
    """Every game with no figures (when the history cannot be read)."""
    return [VariantStats(v, n) for v, n in variant_names().items()]


def stats_json(conn: sqlite3.Connection, variant: str | None = None) -> StatsJson:
    from .history import history_path, schema_version

    return {
        "history": str(history_path()),
        "schema": schema_version(conn),
        "note": "human seats only; watched (all-AI) games are counted apart",
        "damaged_rows_skipped": damaged_results(conn, variant),
        "variants": [vs.to_json() for vs in compute(conn, variant)],
    }


# ----- text -------------------------------------------------------------------------------
def deal_word(variant_id: str) -> str:
    """What the game calls a deal ("round" in 2v1); "deal" for a game this build lacks."""
    try:
        return variant_class(variant_id).deal_word
    except (ValueError, ImportError, AttributeError):
        return "deal"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 deal"``, ``"3 deals"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def percent(r: Record) -> str:
    rate = r.rate
    return "—" if rate is None else f"{100 * rate:.0f}%"


def streak_text(n: int) -> str:
    if n == 0:
        return "none"
    return f"{n} won" if n > 0 else f"{-n} lost"


def result_strip(recent: list[RecentDeal]) -> str:
    """One glyph per recent deal, oldest first: █ won, ▁ lost."""
    return "".join(WIN_GLYPH if r["won"] else LOSS_GLYPH for r in recent)


def change_sparkline(recent: list[RecentDeal]) -> str:
    """One bar per recent deal, its height the deal's change of score (lowest to highest
    of those shown)."""
    if not recent:
        return ""
    vals = [r["change"] for r in recent]
    lo, hi = min(vals), max(vals)
    if hi == lo:
        return SPARK[3] * len(vals)
    top = len(SPARK) - 1
    return "".join(SPARK[round((v - lo) * top / (hi - lo))] for v in vals)


def _rate_text(r: Record) -> str:
    return f"{r.won} of {r.played} ({percent(r)})"


def player_lines(p: PlayerStats, word: str = "deal") -> list[str]:
    """The player's figures as plain lines of at most ~55 columns (the CLI; the Stats
    screen shows the same lines). ``word``: what the game calls a deal (2v1: round)."""
    words = word + "s"
    lines = [
        f"Matches  {p.matches.played} played · {p.matches.won} won · {percent(p.matches)}",
        f"{words.capitalize():<8} {p.deals.played} played · {p.deals.won} won · {percent(p.deals)}",
    ]
    if p.deals_by_opponents:
        lines.append(f"Won against ({words} · matches):")
        width = max(len(k) for k in p.deals_by_opponents)
        for opp, r in sorted(p.deals_by_opponents.items()):
            m = p.matches_by_opponents.get(opp, Record())
            lines.append(f"  {opp:<{width}}  {_rate_text(r)} · {_rate_text(m)}")
    for a in p.averages.values():
        if a.label.lower().endswith(" won"):
            # a score that counts deals won: the line above already gives how often
            continue
        better = "lower is better" if a.lower_is_better else "higher is better"
        mean = "—" if a.mean is None else f"{a.mean:+.2f}"
        lines.append(f"Average {a.label.lower()} per {word}: {mean} ({better})")
    ds, ms = p.deal_streaks, p.match_streaks
    lines.append(f"Streaks  {words}: best {ds.best}, now {streak_text(ds.current)}")
    lines.append(f"         matches: best {ms.best}, now {streak_text(ms.current)}")
    if p.deals_with_undo or p.matches_with_undo:
        lines.append(
            f"Undo (↶) used in {plural(p.deals_with_undo, word)}, "
            f"{plural(p.matches_with_undo, 'match', 'matches')}"
        )
    if p.recent:
        label = next(iter(p.averages.values())).label.lower() if p.averages else "score"
        lines.append(
            f"Last {plural(len(p.recent), word)}, oldest first "
            f"({WIN_GLYPH} won, {LOSS_GLYPH} lost):"
        )
        lines.append(f"  won/lost  {result_strip(p.recent)}")
        lines.append(f"  change    {change_sparkline(p.recent)}  (taller: more {label})")
    return lines


def stats_text(conn: sqlite3.Connection, variant: str | None = None) -> str:
    from .history import history_path

    out = [f"History: {history_path()}", "Figures count human seats only."]
    bad = damaged_results(conn, variant)
    if bad:
        out.append(f"{plural(bad, 'damaged row')} in the history skipped.")
    for vs in compute(conn, variant):
        t = vs.totals()
        word = deal_word(vs.variant)
        out.append("")
        head = (
            f"{vs.name}: {plural(t['matches']['played'], 'match', 'matches')} played, "
            f"{t['matches']['won']} won; {plural(t['deals']['played'], word)} played, "
            f"{t['deals']['won']} won"
        )
        if vs.watched_deals:
            head += f" ({plural(vs.watched_deals, f'watched all-AI {word}')} not counted)"
        out.append(head)
        for p in vs.players:
            out.append(f"  {p.player}:")
            out.extend("    " + line for line in player_lines(p, word))
    return "\n".join(clean_text(line, 100_000) for line in out) + "\n"
