"""Statistics: per game, each human player's figures from the history, a chart of the
recent deals, and the list of recorded deals (Enter replays one, ``e`` exports its game
as a text log, ``x`` exports every deal as CSV)."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from ...play import history, stats
from ...play.paths import data_dir
from ...play.stats import LOSS_GLYPH, WIN_GLYPH, PlayerStats, VariantStats
from ..chrome import SafeOptionList
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app

PAGE_ROWS = 15  #: deals listed at first; more are read as the cursor reaches the end


class KeyHints(Static):
    """The screen's keys on one line at the bottom, like Textual's Footer (each can be
    clicked) but drawn once: the Footer rebuilds itself as focus moves while a screen
    opens, which cost as much as the rest of this screen (``bench_history.py``)."""

    DEFAULT_CSS = """
    KeyHints {
        dock: bottom; height: 1; padding: 0 1;
        background: $footer-background; color: $footer-foreground;
    }
    """

    def on_mount(self) -> None:
        parts = []
        for b in self.screen.BINDINGS:
            if isinstance(b, Binding) and b.show:
                key = escape(b.key_display or self.app.get_key_display(b))
                action = b.action if "." in b.action else f"screen.{b.action}"
                parts.append(
                    f"[@click='{action}'][bold $footer-key-foreground]{key}[/] "
                    f"{escape(b.description)}[/]"
                )
        parts.append("[@click='app.command_palette'][bold $footer-key-foreground]^p[/] palette[/]")
        self.update(Content.from_markup("  ".join(parts)))


def exports_dir() -> Path:
    return data_dir() / "exports"


def player_text(p: PlayerStats, word: str = "deal") -> Text:
    """One player's figures: the same lines as ``twos-tui stats``, with the chart's
    glyphs set off (the glyph's shape tells a win from a loss, colour only adds)."""
    t = Text()
    t.append(f"{p.player}\n", style="bold underline")
    for line in stats.player_lines(p, word):
        if line.startswith("  won/lost  "):
            t.append("  won/lost  ")
            for r in p.recent:
                if r["won"]:
                    t.append(WIN_GLYPH, style="bold green")
                else:
                    t.append(LOSS_GLYPH, style="red")
            t.append("\n")
        else:
            t.append(line + "\n")
    return t


def variant_text(vs: VariantStats) -> Text:
    t = Text()
    totals = vs.totals()
    word = stats.deal_word(vs.variant)
    t.append(f"{vs.name}", style="bold")
    t.append(
        f" · {stats.plural(vs.deals_recorded, word)} recorded in "
        f"{stats.plural(vs.matches_recorded, 'game')}",
        style="dim",
    )
    if vs.watched_deals:
        t.append(
            f" ({stats.plural(vs.watched_deals, f'watched all-AI {word}')}, not in the figures)",
            style="dim",
        )
    t.append("\n")
    if not vs.players:
        t.append(
            f"Matches: {totals['matches']['played']} played, {totals['matches']['won']} won\n"
            f"{word.capitalize() + 's:':<8} {totals['deals']['played']} played, "
            f"{totals['deals']['won']} won\n"
            f"No finished {word} with a human player yet: play one and it shows here.\n",
        )
        return t
    for i, p in enumerate(vs.players):
        if i:
            t.append("\n")
        t.append_text(player_text(p, word))
    t.rstrip()
    return t


def _int(v: object) -> int:
    return v if isinstance(v, int) else int(str(v))


@dataclass(frozen=True, slots=True)
class DealRow:
    """One recorded deal in the list: what the row shows and what Enter (a replay) and
    ``e`` (its game's log) need."""

    id: int
    match_id: int
    deal_number: int
    ended: float  #: when it ended (seconds since the epoch)
    undos: int  #: moves taken back during it
    watched: bool  #: an all-AI table watched, not played
    summary: str  #: one line: who won, the changes

    @classmethod
    def of(cls, d: Mapping[str, object]) -> DealRow:
        """A deal as :func:`history.recent_deals` gives it (its fields checked there)."""
        ended = d["ended"]
        return cls(
            _int(d["id"]),
            _int(d["match_id"]),
            _int(d["deal_number"]),
            float(ended) if isinstance(ended, int | float) else float(str(ended)),
            _int(d["undos"]),
            bool(d["watched"]),
            str(d["summary"]),
        )


def recent_deals(
    conn: sqlite3.Connection,
    variant: str,
    limit: int,
    before: tuple[float, int] | None = None,
) -> list[DealRow]:
    """The rows of :func:`history.recent_deals` (newest first; older than ``before``)."""
    return [DealRow.of(d) for d in history.recent_deals(conn, variant, limit, before)]


@dataclass
class HistoryRead:
    """What one read of the history gave (made on a worker thread)."""

    variant: str | None
    figures: VariantStats | None = None
    deals: list[DealRow] = field(default_factory=list)
    bad: int = 0  #: damaged rows skipped
    error: str | None = None
    counts: dict[str, tuple[int, int, int]] | None = None  #: the first read: per game
    latest: str | None = None  #: the first read: the game played last
    notices: list[str] = field(default_factory=list)


def read_history(variant: str | None, first: bool) -> HistoryRead:
    """Everything the screen shows of ``variant`` (the first read: also the deal counts
    of every game, and which was played last; ``variant`` ``None``: that one). Runs on a
    worker thread, with a connection of its own: a history another program holds locked
    makes the screen wait, never the app."""
    out = HistoryRead(variant)
    try:
        conn = history.open_history()
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        out.error = str(e)
        out.notices = history.take_notices()
        return out
    try:
        if first:
            try:
                out.counts = stats.variant_counts(conn)
            except sqlite3.DatabaseError as e:
                if not history.is_damage(e):
                    raise
                # a damaged page: the file is set aside and a new history started
                conn = history.recover_damaged(conn, None, e)
                out.counts = stats.variant_counts(conn)
            out.latest = history.latest_variant(conn)
            names = stats.variant_names()
            if out.variant not in names:
                out.variant = out.latest if out.latest in names else next(iter(names))
        if out.variant is not None:
            out.figures = stats.compute(conn, out.variant)[0]
            out.deals = recent_deals(conn, out.variant, PAGE_ROWS)
            out.bad = stats.damaged_results(conn, out.variant) + history.skipped(conn)
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        out.error = str(e)
    finally:
        conn.close()
    out.notices = history.take_notices()
    return out


class StatsScreen(Screen[None]):
    """Figures per game; the recent deals to replay or export. The history is read on a
    worker thread (a locked or large history never freezes the app); the screen shows
    a loading indicator meanwhile."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("e", "export_log", "Export game log"),
        Binding("x", "export_csv", "Export all (CSV)"),
    ]

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.start_variant = variant
        #: per game read this visit: (figures, recent deals, damaged rows skipped)
        self.read: dict[str, tuple[VariantStats, list[DealRow], int]] = {}
        self.figures: dict[str, VariantStats] = {}
        self.deals: list[DealRow] = []
        self.variant: str | None = None
        self.error: str | None = None
        self.reading = False  #: a read of the history is on its way
        self._reads = 0  #: reads started (an answer to an older one only fills the cache)
        self._more = False

    @property
    def ready(self) -> bool:
        """The history has been read for the game shown (or could not be)."""
        return not self.reading and (self.error is not None or self.variant in self.read)

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(("Statistics", "bold"), ("  · human seats only", "dim")), id="stats-title"
        )
        with Horizontal(id="stats-main"):
            yield SafeOptionList(id="stats-games")
            with Vertical(id="stats-right"):
                with VerticalScroll(id="stats-scroll"):
                    yield Static(id="stats-figures")
                yield Static(id="stats-deals-title")
                yield DataTable(id="stats-deals", cursor_type="row", zebra_stripes=True)
        yield KeyHints()

    def on_mount(self) -> None:
        # Tab goes from the games to the deals (the figures scroll with the mouse)
        self.query_one("#stats-scroll").can_focus = False
        table = self.query_one("#stats-deals", DataTable)
        table.add_column("Deal", key="id", width=5)
        table.add_column("Game", key="game", width=7)
        table.add_column("When", key="when", width=11)
        table.add_column("↶", key="undo", width=1)
        table.add_column("Result", key="result")
        games = self.query_one("#stats-games", OptionList)
        for vid, name in stats.variant_names().items():
            games.add_option(Option(Text(name, style="bold"), id=vid))
        self._start_read(self.start_variant, first=True)

    def _start_read(self, variant: str | None, first: bool = False) -> None:
        self.reading = True
        self._reads += 1
        self.query_one("#stats-right").loading = True
        self.query_one("#stats-figures", Static).update(Text("Reading the history…", style="dim"))
        self._read(variant, first, self._reads)

    @work(thread=True, group="stats-read")
    def _read(self, variant: str | None, first: bool, number: int) -> None:
        got = read_history(variant, first)
        with contextlib.suppress(RuntimeError):  # the app is closing
            self.app.call_from_thread(self._have_read, got, first, number)

    def _have_read(self, got: HistoryRead, first: bool, number: int) -> None:
        if not self.is_attached:
            return
        for message in got.notices:
            self.notify(message, title="History", severity="warning", timeout=12)
        if got.variant is not None and got.figures is not None:
            self.read[got.variant] = (got.figures, got.deals, got.bad)
            self.figures[got.variant] = got.figures
        if number != self._reads:
            return  # a later read is on its way: it shows
        self.reading = False
        self.query_one("#stats-right").loading = False
        if got.error:
            self.error = got.error
        if first:
            games = self.query_one("#stats-games", OptionList)
            counts = got.counts or {}
            ids = list(stats.variant_names())
            for vid, name in stats.variant_names().items():
                deals = counts.get(vid, (0, 0, 0))[0]
                word = stats.deal_word(vid)
                label = Text.assemble((name, "bold"), "\n", (stats.plural(deals, word), "dim"))
                games.replace_option_prompt(vid, label)
            shown = got.variant if got.variant in ids else ids[0]
            self.variant = shown  # (highlighting it below reads nothing again)
            games.highlighted = ids.index(shown)
            self._show(shown)
        elif got.variant == self.variant and got.variant is not None:
            self._show(got.variant)

    @on(OptionList.OptionHighlighted, "#stats-games")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.variant is None:
            return  # the first read chooses the game shown
        if event.option.id and event.option.id != self.variant:
            self.show_variant(event.option.id)

    @on(OptionList.OptionSelected, "#stats-games")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        table = self.query_one("#stats-deals", DataTable)
        if table.row_count:
            table.focus()

    def show_variant(self, variant: str) -> None:
        """Show a game's figures: at once when read already this visit, else after a
        read on the worker."""
        self.variant = variant
        if variant in self.read or self.error:
            self._show(variant)
        else:
            self.query_one("#stats-deals", DataTable).clear()
            self.deals = []
            self._start_read(variant)

    def _show(self, variant: str) -> None:
        fig = self.query_one("#stats-figures", Static)
        vs, deals, bad = self.read.get(
            variant, (VariantStats(variant, stats.variant_names()[variant]), [], 0)
        )
        self.deals = list(deals)
        if self.error:
            fig.update(Text(f"The history cannot be read: {self.error}", style="bold"))
        else:
            shown = variant_text(vs)
            if bad:
                shown.append(
                    f"\n{stats.plural(bad, 'damaged row')} of the history skipped.", style="dim"
                )
            fig.update(shown)
        table = self.query_one("#stats-deals", DataTable)
        table.clear()
        self._add_rows(self.deals)
        self._more = len(self.deals) == PAGE_ROWS
        title = self.query_one("#stats-deals-title", Static)
        word = stats.deal_word(variant)
        for key, column in table.columns.items():  # the list's first column: the game's word
            if key.value == "id":
                column.label = Text(word.capitalize())
        table.refresh()
        if self.deals:
            title.update(
                Text.assemble(
                    (f"Recent {word}s", "bold"), (" · Enter: replay · ↶: had an undo", "dim")
                )
            )
        else:
            title.update(Text(f"No {word} of this game recorded yet.", style="dim"))

    def _add_rows(self, deals: list[DealRow]) -> None:
        table = self.query_one("#stats-deals", DataTable)
        for d in deals:
            table.add_row(
                str(d.id),
                f"{d.match_id}·{d.deal_number}",
                time.strftime("%m-%d %H:%M", time.localtime(d.ended)),
                "↶" if d.undos else "",
                Text(("(watched) " if d.watched else "") + d.summary, no_wrap=True),
                key=str(d.id),
            )

    @on(DataTable.RowHighlighted, "#stats-deals")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """At the end of the list, the next page of older deals (read on the worker)."""
        if not self._more or self.variant is None or self.reading:
            return
        if event.cursor_row >= len(self.deals) - 1:
            last = self.deals[-1]
            self._more = False  # until this page is in
            self._read_more(self.variant, (last.ended, last.id))

    @work(thread=True, group="stats-more")
    def _read_more(self, variant: str, after: tuple[float, int]) -> None:
        more: list[DealRow] = []
        error = None
        try:
            conn = history.open_history()
            try:
                more = recent_deals(conn, variant, PAGE_ROWS, after)
            finally:
                conn.close()
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            error = str(e)
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(self._have_more, variant, more, error)

    def _have_more(self, variant: str, more: list[DealRow], error: str | None) -> None:
        if not self.is_attached or variant != self.variant:
            return
        if error is not None:
            self.notify(f"The history cannot be read: {error}", severity="error")
            return
        self._more = len(more) == PAGE_ROWS
        self.deals.extend(more)
        figures, _, bad = self.read[variant]
        self.read[variant] = (figures, list(self.deals), bad)
        self._add_rows(more)

    def selected_deal(self) -> DealRow | None:
        table = self.query_one("#stats-deals", DataTable)
        if not self.deals or table.cursor_row is None:
            return None
        if 0 <= table.cursor_row < len(self.deals):
            return self.deals[table.cursor_row]
        return None

    # ----- actions ----------------------------------------------------------------------
    def action_back(self) -> None:
        self.dismiss(None)

    @on(DataTable.RowSelected, "#stats-deals")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        deal = self.selected_deal()
        if deal is not None:
            twos_app(self).open_replay(deal.id)

    def action_export_log(self) -> None:
        deal = self.selected_deal()
        if deal is None:
            self.notify("Pick a deal in the list first: its game is exported.", severity="warning")
            return
        try:
            conn = history.open_history()
            try:
                text = _game_log(conn, deal.match_id)
            finally:
                conn.close()
            path = exports_dir() / f"game-{deal.match_id}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            self.notify(f"Could not export: {e}", severity="error")
            return
        self.notify(f"Game {deal.match_id} written to {path}", title="Exported")

    def action_export_csv(self) -> None:
        from ...play.replay import export_csv

        try:
            conn = history.open_history()
            try:
                text = export_csv(conn)
            finally:
                conn.close()
            path = exports_dir() / time.strftime("history-%Y%m%d-%H%M%S.csv")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            self.notify(f"Could not export: {e}", severity="error")
            return
        self.notify(f"Every recorded deal written to {path}", title="Exported")


def _game_log(conn: sqlite3.Connection, match_id: int) -> str:
    from ...play.replay import game_log

    return game_log(conn, match_id)
