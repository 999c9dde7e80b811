"""NO_COLOR (issue 32): with it set, the table is drawn in black, white and grey (Textual's
monochrome filter), and still reads: the suits by their symbols, the chosen cards raised.
The same seeded table as test_ui_snapshots.py::test_snapshot_climbing_table."""

from __future__ import annotations

import re

import pytest
from ui_helpers import wait_for_human

from twos_tui.play import saves
from twos_tui.ui.app import make_app

pytestmark = pytest.mark.slow  # (a snapshot: the full suite compares it)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    saves.WRITER.flush()
    saves.WRITER.error = None


async def two_cards_picked(pilot) -> None:
    screen = await wait_for_human(pilot)
    await pilot.press("space", "right", "space")
    while len(screen.selected) < 2:  # (bounded by the test's own timeout)
        await pilot.pause()


def test_snapshot_table_without_colour(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("big-two", seed=12, ai_pause=0)
    assert app.no_color
    assert snap_compare(app, terminal_size=(80, 24), run_before=two_cards_picked)


def test_the_no_colour_snapshot_has_no_colour():
    """Every fill in the stored picture is a grey (red, green and blue alike), but the
    export's own default text colour (Rich's SVG terminal theme: #c5c8c6)."""
    from pathlib import Path

    folder = Path(__file__).parent / "__snapshots__" / "test_no_color_snapshot"
    (svg,) = folder.glob("test_snapshot_table_without_colour*.svg")
    colours = set(re.findall(r"fill:\s*#([0-9a-fA-F]{6})", svg.read_text(encoding="utf-8")))
    assert colours
    coloured = [c for c in colours - {"c5c8c6"} if len({c[0:2], c[2:4], c[4:6]}) > 1]
    assert coloured == []
