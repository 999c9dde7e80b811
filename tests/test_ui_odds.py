"""Odds screen: open it, change hand size and deck with keys, bars follow."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Static
from ui_helpers import wait_for, wait_for_screen

from twos_tui.engine.odds import bomb_shapes, odds_table
from twos_tui.ui.odds_screen import (
    DECK_CYCLE,
    INFINITE_MAX_HAND,
    OddsScreen,
    _bar,
    bar_fraction,
    log_floor,
)


class OddsApp(App[None]):
    def __init__(self, hand_size: int = 13, deck: str = "standard") -> None:
        super().__init__()
        self.start = (hand_size, deck)

    def on_mount(self) -> None:
        self.push_screen(OddsScreen(*self.start))


def _shapes(chart: str) -> list[str]:
    out = []
    for line in chart.splitlines()[1:]:
        parts = line.split()
        label = parts[1] if parts[0].endswith(".") else parts[0]
        out.append(label)
    return out


def _bar_len(chart: str, label: str) -> int:
    line = next(ln for ln in chart.splitlines() if f" {label} " in ln)
    return sum(1 for ch in line if ch in "█▏▎▍▌▋▊▉")


async def test_open_shows_13_card_bombs_strongest_first():
    app = OddsApp()
    async with app.run_test(size=(90, 30)) as pilot:
        screen = await wait_for_screen(pilot, OddsScreen)
        chart = screen.chart_plain()
        assert _shapes(chart) == ["4×3", "3×4", "2×6", "3×3", "2×5", "2×4", "4×1", "2×3"]
        first = chart.splitlines()[1]
        assert first.lstrip().startswith("1. 4×3") and "strongest" in first
        assert "weakest" in chart.splitlines()[-1]
        line23 = next(ln for ln in chart.splitlines() if " 2×3 " in ln)
        assert "0.091851" in line23 and "918,512 /10M" in line23
        # Rarer shapes get shorter bars (log scale).
        assert _bar_len(chart, "4×3") < _bar_len(chart, "2×6") < _bar_len(chart, "2×3")
        title = str(screen.query_one("#odds-title", Static).content)
        assert "13-card" in title and "standard" in title
        # The widget shows exactly what chart() draws.
        shown = screen.query_one("#odds-chart", Static).content
        assert shown.plain == chart


async def test_keys_change_hand_size_and_bars():
    app = OddsApp()
    async with app.run_test(size=(90, 30)) as pilot:
        screen = await wait_for_screen(pilot, OddsScreen)
        before = screen.chart_plain()
        bar_13 = _bar_len(before, "2×3")
        await pilot.press("right")
        assert screen.hand_size == 14
        await pilot.press(*["plus"] * 6)
        assert screen.hand_size == 20
        after = screen.chart_plain()
        assert after != before
        assert _shapes(after) == [f"{r.width}×{r.length}" for r in bomb_shapes(20)]
        assert "2×10" in _shapes(after) and "2×4" in _shapes(after)
        # The last three at 20 cards: four of a kind now sits above 2×4.
        assert _shapes(after)[-3:] == ["4×1", "2×4", "2×3"]
        assert "20-card" in str(screen.query_one("#odds-title", Static).content)
        # 2×3 is commoner at 20 cards: its bar can only grow.
        assert "0.648" in next(ln for ln in after.splitlines() if " 2×3 " in ln)
        assert _bar_len(after, "2×3") >= bar_13
        await pilot.press("left", "minus")
        assert screen.hand_size == 18


@pytest.mark.slow
async def test_deck_cycle_and_clamping():
    app = OddsApp(hand_size=52)
    async with app.run_test(size=(90, 30)) as pilot:
        screen = await wait_for_screen(pilot, OddsScreen)
        await pilot.press("plus")
        assert screen.hand_size == 52  # a standard deck has 52 cards
        await pilot.press("d")
        assert screen.deck == "chinese" and screen.hand_size == 48
        assert "Chinese" in str(screen.query_one("#odds-title", Static).content)
        await pilot.press("d")
        assert screen.deck == "decks:2"
        await pilot.press(*["minus"] * 32)  # down to 16 cards
        await pilot.press("d")
        assert screen.deck == "infinite" and screen.hand_size == 16
        chart = screen.chart_plain()
        assert "5×3" in _shapes(chart)  # five of each of three ranks, only with replacement
        assert "endless" in str(screen.query_one("#odds-title", Static).content)
        await pilot.press("D")
        assert screen.deck == "decks:2"
        await pilot.press("d", "d")
        assert screen.deck == "standard"
        assert "5×3" not in _shapes(screen.chart_plain())


async def test_all_shapes_toggle_and_tiny_hand():
    app = OddsApp(hand_size=3)
    async with app.run_test(size=(90, 30)) as pilot:
        screen = await wait_for_screen(pilot, OddsScreen)
        assert "No bomb can be dealt" in screen.chart_plain()
        await pilot.press("a")
        chart = screen.chart_plain()
        assert sorted(_shapes(chart)) == sorted(f"{r.width}×{r.length}" for r in odds_table(3))
        assert "no bomb" in chart
        await pilot.press("a")
        assert "No bomb can be dealt" in screen.chart_plain()
        await pilot.press("minus", "minus", "minus")
        assert screen.hand_size == 1


async def test_escape_and_q_go_back():
    app = OddsApp()
    async with app.run_test() as pilot:
        await wait_for_screen(pilot, OddsScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, OddsScreen)
        app.push_screen(OddsScreen(20, "chinese"))
        odds = await wait_for_screen(pilot, OddsScreen)
        assert odds.deck == "chinese"
        await pilot.press("q")
        assert not isinstance(app.screen, OddsScreen)


def test_bar_helpers():
    assert _bar(0, 8) == " " * 8
    assert _bar(1, 8) == "█" * 8
    assert _bar(0.5, 4) == "██  "
    assert _bar(1 / 32, 4) == "▏   "
    rows = bomb_shapes(13)
    assert log_floor(rows) == -10
    assert bar_fraction(1.0, -10) == 1.0 and bar_fraction(1e-10, -10) == 0.0
    assert OddsScreen(500, "infinite").hand_size == INFINITE_MAX_HAND
    assert OddsScreen(0).hand_size == 1


def test_odds_screen_snapshot(snap_compare):
    async def run_before(pilot):
        screen = await wait_for_screen(pilot, OddsScreen)
        names = list(DECK_CYCLE)
        deck = names[(names.index(screen.deck) + 3) % len(names)]
        await pilot.press("d", "d", "d")
        await wait_for(pilot, lambda: screen.deck == deck, f"the {deck} deck")
        size = screen.hand_size
        await pilot.press("minus")
        await wait_for(pilot, lambda: screen.hand_size == size - 1, "a card fewer")

    assert snap_compare(OddsApp(20), terminal_size=(80, 24), run_before=run_before)
