"""Odds screen: a bar chart of the bomb shapes for a hand size and deck.

Self-contained: ``OddsScreen(hand_size=13, deck="standard")``.  Keys: ``+``/``-``
or ``→``/``←`` change the hand size, ``d`` cycles the deck (``D`` backwards),
``a`` shows every run shape instead of only the bombs, ``escape``/``q`` go back.
The numbers come from :mod:`twos_tui.engine.odds` (exact, not sampled).
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..engine.odds import (
    Row,
    bomb_rule,
    bomb_shapes,
    describe_deck,
    format_per_10m,
    format_probability,
    odds_table,
    parse_deck,
)
from .chrome import KeyBar
from .screen_css import SCREENS_CSS

#: Decks the ``d`` key cycles through.
DECK_CYCLE: tuple[str, ...] = ("standard", "chinese", "decks:2", "infinite")

#: Largest hand size offered for the endless deck (any size is possible,
#: but beyond a few decks' worth the chart stops being interesting).
INFINITE_MAX_HAND = 52

_EIGHTHS = " ▏▎▍▌▋▊▉"


def _bar(fraction: float, width: int) -> str:
    """A bar of ``fraction`` (0..1) of ``width`` cells, in eighths of a cell."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


def shape_label(row: Row) -> str:
    return f"{row.width}×{row.length}"


def log_floor(rows: list[Row]) -> int:
    """Power of ten at the left edge of the log scale (an empty bar)."""
    smallest = min((float(r.probability) for r in rows), default=0.1)
    if smallest <= 0:
        return -1
    return min(-1, math.floor(math.log10(smallest)))


def bar_fraction(p: float, floor_exp: int) -> float:
    """Position of ``p`` on a log scale from ``10**floor_exp`` (0) to 1 (1)."""
    if p <= 0:
        return 0.0
    return (math.log10(p) - floor_exp) / (-floor_exp)


class OddsScreen(Screen[None]):
    """Exact chances of each bomb shape in a dealt hand, as a bar chart."""

    CSS_PATH = SCREENS_CSS

    DEFAULT_CSS = """
    OddsScreen { layout: vertical; }
    OddsScreen #odds-title { height: auto; padding: 0 1; text-style: bold; }
    OddsScreen #odds-keys { height: auto; padding: 0 1; color: $text-muted; }
    OddsScreen #odds-scroll { height: 1fr; padding: 0 1; }
    OddsScreen #odds-chart { width: auto; }
    OddsScreen #odds-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("q", "back", "Back", show=False),
        Binding("plus,equals_sign,right", "hand(1)", "Hand +1", priority=True),
        Binding("minus,left", "hand(-1)", "Hand -1", priority=True),
        Binding("d", "deck(1)", "Deck"),
        Binding("D", "deck(-1)", "Deck back", show=False),
        Binding("a", "toggle_all", "All shapes"),
    ]

    def __init__(self, hand_size: int = 13, deck: str = "standard") -> None:
        super().__init__()
        spec = parse_deck(deck)  # ValueError for an unknown deck, as the engine says
        self.deck = spec.name
        self.hand_size = self._clamp(int(hand_size), self.deck)
        self.show_all = False
        self.rows: list[Row] = []

    # ----- state ------------------------------------------------------------------
    @staticmethod
    def max_hand(deck: str) -> int:
        size = parse_deck(deck).size
        return INFINITE_MAX_HAND if size is None else size

    @classmethod
    def _clamp(cls, hand_size: int, deck: str) -> int:
        return min(max(1, hand_size), cls.max_hand(deck))

    # ----- layout -----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="odds-title", markup=False)
        yield Static(
            "+/- or ←/→ hand size · d deck · a all shapes / bombs · esc back",
            id="odds-keys",
            markup=False,
        )
        with VerticalScroll(id="odds-scroll"):
            yield Static("", id="odds-chart", markup=False)
        yield Static("", id="odds-note", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.refresh_chart()

    def on_resize(self) -> None:
        if self.rows:
            self.refresh_chart()

    # ----- actions ----------------------------------------------------------------
    def action_back(self) -> None:
        self.app.pop_screen()

    def action_hand(self, step: int) -> None:
        new = self._clamp(self.hand_size + step, self.deck)
        if new != self.hand_size:
            self.hand_size = new
            self.refresh_chart()
        else:
            self.app.bell()

    def action_deck(self, step: int) -> None:
        names = list(DECK_CYCLE)
        i = names.index(self.deck) if self.deck in names else -1
        self.deck = names[(i + step) % len(names)]
        self.hand_size = self._clamp(self.hand_size, self.deck)
        self.refresh_chart()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.refresh_chart()

    # ----- drawing ----------------------------------------------------------------
    def title_text(self) -> str:
        what = "Run shapes" if self.show_all else "Bomb shapes"
        return f"{what} in a {self.hand_size}-card hand · {describe_deck(self.deck)}"

    def note_text(self) -> str:
        if not self.rows:
            return ""
        floor_exp = log_floor(self.rows)
        bombs = (
            "Chinese Poker's only bomb is four of a kind (played with a fifth card)."
            if bomb_rule(self.deck) == "chinese-poker"
            else "Twos bombs: rarer ones are stronger, #1 beats the rest."
        )
        return (
            f"Exact chances (not sampled). Bars: log scale from 1 in 10^{-floor_exp} "
            f"(empty) to certain (full). {bombs}"
        )

    def chart(self, width: int | None = None) -> Text:
        """The chart as Rich text (labels readable without colour)."""
        if width is None:
            width = self.size.width or 80
        rows = self.rows
        out = Text(no_wrap=True, overflow="ignore")
        if not rows:
            out.append(
                "No bomb can be dealt in a hand this small. "
                "Press + for a bigger hand or a to see every run shape."
            )
            return out
        bar_width = max(10, width - 54)
        floor_exp = log_floor(rows)
        bombs = [r for r in rows if r.bomb]
        strength = {(r.width, r.length): i + 1 for i, r in enumerate(bombs)}
        out.append(
            f"{'#':>3} {'shape':<6}{'chance (log scale)':<{bar_width}}"
            f" {'prob.':>9} {'per 10,000,000':>15}\n",
            style="underline",
        )
        for r in rows:
            p = float(r.probability)
            rank = strength.get((r.width, r.length))
            tag = ""
            if rank is not None and len(bombs) == 1:
                tag = "bomb"  # one kind of bomb (Chinese Poker): no order to tell
            elif rank == 1:
                tag = "strongest"
            elif rank == len(bombs) and rank is not None:
                tag = "weakest"
            elif rank is None:
                tag = "no bomb"
            rank_txt = f"{rank:>2}." if rank is not None else "   "
            style = "bold magenta" if rank == 1 else "magenta" if rank is not None else "dim"
            out.append(f"{rank_txt} ")
            out.append(f"{shape_label(r):<6}", style="bold" if rank is not None else "")
            out.append(_bar(bar_fraction(p, floor_exp), bar_width), style=style)
            out.append(f" {format_probability(r.probability):>9}")
            out.append(f" {format_per_10m(r.per_10m):>10} /10M")
            out.append(f"  {tag}".rstrip(), style="bold" if rank == 1 else "")
            out.append("\n")
        out.rstrip()
        return out

    def chart_plain(self) -> str:
        """The chart as plain text (what a screen reader or a test sees)."""
        return self.chart().plain

    def refresh_chart(self) -> None:
        if self.show_all:
            self.rows = odds_table(self.hand_size, self.deck)
        else:
            self.rows = bomb_shapes(self.hand_size, self.deck)
        self.query_one("#odds-title", Static).update(self.title_text())
        self.query_one("#odds-chart", Static).update(self.chart())
        self.query_one("#odds-note", Static).update(self.note_text())
        self.sub_title = self.title_text()
