"""What the lobby screens say, as Rich ``Text`` built piece by piece (never parsed as
markup: a player's name may hold ``[``): a listed table, the player's own panel, a
result, the quick-match queue. Every state is said in words, colour only adds."""

from __future__ import annotations

from rich.text import Text

from ..engine import VARIANT_IDS, variant_class
from ..play.lobby.model import (
    PlayerInfo,
    QueueInfo,
    RatingInfo,
    ResultInfo,
    SeatInfo,
    TableInfo,
)


def game_name(game: str) -> str:
    """A variant id's name as the app shows it ("big-two" -> "Big Two")."""
    if game in VARIANT_IDS:
        try:
            return variant_class(game).name
        except (ImportError, AttributeError):
            pass
    return game


def rating_text(rating: float) -> str:
    return f"{rating:.0f}"


def change_text(change: float | None) -> str:
    """A rating change as a player reads it: "+12", "-8", "±0", "unrated"."""
    if change is None:
        return "unrated"
    rounded = round(change)
    if rounded == 0:
        return "±0"
    return f"{rounded:+d}"


def place_text(place: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    teen = 10 <= place % 100 <= 20
    suffix = "th" if teen else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def clock_words(seconds: float) -> str:
    """30 -> "30 s", 120 -> "2 min", 90 -> "1 min 30 s"; 0 -> "at once"."""
    s = round(seconds)
    if s <= 0:
        return "at once"
    minutes, rest = divmod(s, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")


def mm_ss(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


def seat_text(number: int, seat: SeatInfo) -> Text:
    """One seat of a listed table: "2 free", "1 Ann 1520", "3 AI hard", "4 Bo (away)"."""
    t = Text(f"{number} ", style="dim")
    if seat.ai_level is not None:
        t.append(f"AI {seat.ai_level}", style="italic")
    elif seat.name is None:
        t.append("free", style="bold green")
    else:
        t.append(seat.name, style="bold")
        if seat.rating is not None:
            t.append(f" {rating_text(seat.rating)}")
        if not seat.connected:
            t.append(" (away)", style="dim")
    return t


def free_seats(table: TableInfo) -> int:
    return sum(1 for s in table.seats if s.name is None and s.ai_level is None)


def table_text(table: TableInfo, chosen: bool = False) -> Text:
    """A table as the lobby lists it: who may sit and how it is played, its seats, its
    house rules and spectators (four lines, wrapped by the list where narrow). The
    table ``chosen`` is marked with "▸" (not by colour alone)."""
    t = Text("▸ " if chosen else "  ", style="bold")
    t.append(f"Table {table.table_id}", style="bold")
    free = free_seats(table)
    if table.started:
        t.append(" · playing")
    else:
        t.append(" · not started")
    if free:
        t.append(f" · {free} seat{'s' if free != 1 else ''} free", style="bold")
    t.append("\n")
    t.append("public" if table.public else "private (needs its code)")
    t.append(" · rated" if table.rated else " · not rated")
    t.append(f" · clock {table.clock}" if table.clock else " · no clock")
    t.append("\n")
    for i, seat in enumerate(table.seats):
        if i:
            t.append(" · ", style="dim")
        t.append_text(seat_text(i + 1, seat))
    t.append("\n")
    rules = table.rules or "the usual rules"
    t.append(f"{table.players} players, {rules}", style="dim")
    t.append(f" · {table.spectators} watching" if table.spectators else " · nobody watching")
    return t


def rating_for(me: PlayerInfo, game: str) -> RatingInfo | None:
    return next((r for r in me.ratings if r.game == game), None)


def result_text(result: ResultInfo) -> Text:
    """One recent result: "1st of 4 · Big Two · +12"."""
    t = Text()
    t.append(f"{place_text(result.place)} of {result.players}", style="bold")
    t.append(f" · {game_name(result.game)} · ")
    t.append(change_text(result.rating_change))
    return t


def me_text(me: PlayerInfo, game: str, recent: int = 5) -> Text:
    """The player's own panel: their name (a guest said so), their rating in ``game``
    with matches and rank, and their last results."""
    t = Text()
    t.append(me.name, style="bold")
    if me.guest:
        t.append(" (guest)")
    t.append("\n")
    if me.guest:
        t.append("Guests play unrated games.\n", style="dim")
    else:
        r = rating_for(me, game)
        t.append(f"{game_name(game)}: ", style="dim")
        if r is None or not r.matches:
            t.append("no rated match yet\n")
        else:
            t.append(f"rating {rating_text(r.rating)}")
            t.append(f", {r.matches} match{'es' if r.matches != 1 else ''}")
            t.append(f", rank #{r.rank}" if r.rank is not None else ", not ranked yet")
            t.append("\n")
    t.append("Recent results\n", style="bold underline")
    if not me.recent:
        t.append("none yet", style="dim")
    for i, result in enumerate(me.recent[:recent]):
        if i:
            t.append("\n")
        t.append_text(result_text(result))
    return t


def queue_text(queue: QueueInfo, waited: float) -> Text:
    """The quick-match queue, live: what is asked, who is here, the time waited and when
    AI seats fill the table."""
    t = Text()
    t.append("Quick match: ", style="bold")
    t.append(f"{game_name(queue.game)} for {queue.players}")
    t.append(f" · {queue.waiting} of {queue.players} players here")
    t.append(f" · waited {mm_ss(waited)}")
    if queue.wait_s <= 0 or waited >= queue.wait_s:
        t.append(" · filling the empty seats with AI")
    else:
        t.append(f" · AI fills the empty seats at {mm_ss(queue.wait_s)}")
    t.append(" · Esc cancels", style="dim")
    return t
