"""Statistics: per game, each human player's figures from the history, a chart of the
recent deals, and the list of recorded deals (Enter replays one, ``e`` exports its game
as a text log, ``x`` exports every deal as CSV)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from rich.text import Text
from textual import on
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
from ..typed_app import twos_app
from ..widgets import SafeOptionList

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


class StatsScreen(Screen[None]):
    """Figures per game; the recent deals to replay or export."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("e", "export_log", "Export game log"),
        Binding("x", "export_csv", "Export all (CSV)"),
    ]

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.start_variant = variant
        self.figures: dict[str, VariantStats] = {}
        self.deals: list[dict] = []
        self.variant: str | None = None
        self.error: str | None = None
        self.conn: sqlite3.Connection | None = None
        self._more = False

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
        counts: dict[str, tuple[int, int, int]] = {}
        latest = None
        try:
            self.conn = history.open_history()
            try:
                counts = stats.variant_counts(self.conn)
            except sqlite3.DatabaseError as e:
                if not history.is_damage(e):
                    raise
                # a damaged page: the file is set aside and a new history started
                self.conn = history.recover_damaged(self.conn, None, e)
                counts = stats.variant_counts(self.conn)
            latest = history.latest_variant(self.conn)
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            self.error = str(e)
        for message in history.take_notices():
            self.notify(message, title="History", severity="warning", timeout=12)
        ids = []
        for vid, name in stats.variant_names().items():
            ids.append(vid)
            deals = counts.get(vid, (0, 0, 0))[0]
            word = stats.deal_word(vid)
            label = Text.assemble((name, "bold"), "\n", (stats.plural(deals, word), "dim"))
            games.add_option(Option(label, id=vid))
        first = self.start_variant or latest or ids[0]
        games.highlighted = ids.index(first) if first in ids else 0
        self.show_variant(ids[games.highlighted or 0])

    def on_unmount(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    @on(OptionList.OptionHighlighted, "#stats-games")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.variant:
            self.show_variant(event.option.id)

    @on(OptionList.OptionSelected, "#stats-games")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        table = self.query_one("#stats-deals", DataTable)
        if table.row_count:
            table.focus()

    def figures_of(self, variant: str) -> VariantStats:
        """The game's figures, read once per visit of the screen."""
        vs = self.figures.get(variant)
        if vs is None:
            vs = VariantStats(variant, stats.variant_names()[variant])
            if self.conn is not None:
                vs = stats.compute(self.conn, variant)[0]
            self.figures[variant] = vs
        return vs

    def show_variant(self, variant: str) -> None:
        self.variant = variant
        fig = self.query_one("#stats-figures", Static)
        self.deals = []
        vs = VariantStats(variant, stats.variant_names()[variant])
        bad = 0
        try:
            vs = self.figures_of(variant)
            if self.conn is not None:
                self.deals = history.recent_deals(self.conn, variant, PAGE_ROWS)
            bad = stats.damaged_results(self.conn, variant) if self.conn is not None else 0
            bad += history.skipped(self.conn) if self.conn is not None else 0
        except (sqlite3.Error, history.HistoryError) as e:
            self.error = str(e)
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

    def _add_rows(self, deals: list[dict]) -> None:
        table = self.query_one("#stats-deals", DataTable)
        for d in deals:
            table.add_row(
                str(d["id"]),
                f"{d['match_id']}·{d['deal_number']}",
                time.strftime("%m-%d %H:%M", time.localtime(d["ended"])),
                "↶" if d["undos"] else "",
                Text(("(watched) " if d["watched"] else "") + d["summary"], no_wrap=True),
                key=str(d["id"]),
            )

    @on(DataTable.RowHighlighted, "#stats-deals")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """At the end of the list, the next page of older deals."""
        if not self._more or self.conn is None or self.variant is None:
            return
        if event.cursor_row >= len(self.deals) - 1:
            last = self.deals[-1]
            try:
                more = history.recent_deals(
                    self.conn, self.variant, PAGE_ROWS, (last["ended"], last["id"])
                )
            except sqlite3.Error as e:
                self._more = False
                self.notify(f"The history cannot be read: {e}", severity="error")
                return
            self._more = len(more) == PAGE_ROWS
            self.deals.extend(more)
            self._add_rows(more)

    def selected_deal(self) -> dict | None:
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
            twos_app(self).open_replay(deal["id"])

    def action_export_log(self) -> None:
        deal = self.selected_deal()
        if deal is None:
            self.notify("Pick a deal in the list first: its game is exported.", severity="warning")
            return
        try:
            conn = history.open_history()
            try:
                text = _game_log(conn, deal["match_id"])
            finally:
                conn.close()
            path = exports_dir() / f"game-{deal['match_id']}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            self.notify(f"Could not export: {e}", severity="error")
            return
        self.notify(f"Game {deal['match_id']} written to {path}", title="Exported")

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


def _game_log(conn, match_id: int) -> str:
    from ...play.replay import game_log

    return game_log(conn, match_id)
