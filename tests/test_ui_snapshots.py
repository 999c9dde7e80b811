"""Snapshot tests (pytest-textual-snapshot): home, the picker, a climbing table, a trick
table, 2v1 in the middle of a hand and help, at 80x24 and at 120x40 (where cards are
drawn framed), from seeded games with the AI pause at zero."""

from __future__ import annotations

import random

import pytest
from ui_helpers import (
    play_until,
    settled_picker,
    wait_for,
    wait_for_human,
    wait_for_screen,
    wait_for_text,
)

from twos_tui.play import saves
from twos_tui.play.session import Session
from twos_tui.ui.app import make_app

#: two to six seconds each: the full suite compares them, the quick loop leaves them out
pytestmark = pytest.mark.slow

SIZES = [(80, 24), (120, 40)]
IDS = ["80x24", "120x40"]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    # the save writer is shared by the process: a failed write in an earlier test (the
    # full-disk tests) would show its notice here
    saves.WRITER.flush()
    saves.WRITER.error = None


async def human_turn(pilot) -> None:
    await wait_for_human(pilot)


async def home(pilot) -> None:
    from twos_tui.ui.screens.home import HomeScreen

    await wait_for_screen(pilot, HomeScreen)
    await wait_for_text(pilot, "Quit")  # the menu drawn


async def help_shown(pilot) -> None:
    """The help screen up, its pages rendered (Markdown builds its blocks as it mounts)."""
    from textual.widgets import Markdown

    from twos_tui.ui.screens.help import HelpScreen

    screen = await wait_for_screen(pilot, HelpScreen)
    await wait_for(
        pilot,
        lambda: all(md.children for md in screen.query(Markdown) if md.display),
        "the help's pages rendered",
    )


def test_snapshot_home(snap_compare):
    assert snap_compare(make_app(ai_pause=0), terminal_size=(80, 24), run_before=home)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_picker(snap_compare, size):
    async def run_before(pilot):
        await home(pilot)
        await pilot.press("n")
        await settled_picker(pilot)

    assert snap_compare(make_app(ai_pause=0), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_climbing_table(snap_compare, size):
    assert snap_compare(
        make_app("big-two", seed=12, ai_pause=0), terminal_size=size, run_before=human_turn
    )


def test_snapshot_twos_table_selection(snap_compare):
    async def run_before(pilot):
        screen = await wait_for_human(pilot)
        await pilot.press("right", "space", "right", "right", "space")
        await wait_for(pilot, lambda: len(screen.selected) == 2, "two cards picked up")

    assert snap_compare(
        make_app("twos", seed=3, ai_pause=0), terminal_size=(80, 24), run_before=run_before
    )


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_trick_table(snap_compare, size):
    assert snap_compare(
        make_app("twos-tricks", seed=12, ai_pause=0), terminal_size=size, run_before=human_turn
    )


def mid_hand_2v1() -> Session:
    """A 2v1 round in the middle of a hand: the lone player has led, the human (duo)
    is to follow."""
    session = Session.start("2v1", None, 3, {}, 5)
    play_until(
        session.game,
        lambda g: g.phase == "follow" and 0 in g.to_act() and g.hand_no >= 2,
        random.Random(5),
    )
    return session


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_2v1_mid_hand(snap_compare, size):
    assert snap_compare(
        make_app(session=mid_hand_2v1(), ai_pause=0), terminal_size=size, run_before=human_turn
    )


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_help(snap_compare, size):
    async def run_before(pilot):
        await wait_for_human(pilot)
        await pilot.press("question_mark")
        await help_shown(pilot)

    assert snap_compare(
        make_app("big-two", seed=12, ai_pause=0), terminal_size=size, run_before=run_before
    )


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_four_colour_table(snap_compare, size):
    """issue 20: the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green), the same table as
    test_snapshot_climbing_table."""
    app = make_app("big-two", seed=12, ai_pause=0)
    app.settings.four_colour = True
    assert snap_compare(app, terminal_size=size, run_before=human_turn)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_keys_help_from_home(snap_compare, size):
    """issue 20: F1 on the home screen opens the keys."""

    async def run_before(pilot):
        await home(pilot)
        await pilot.press("f1")
        await help_shown(pilot)

    assert snap_compare(make_app(ai_pause=0), terminal_size=size, run_before=run_before)


#: issue 16: every game at the advertised minimum, 60x20 (sizing.MIN_WIDTH/MIN_HEIGHT)
MINIMUM = [
    ("twos", None, 3),
    ("big-two", None, 12),
    ("big-two-5r", None, 12),
    ("chinese-poker", 4, 12),
    ("2v1", None, 5),
    ("twos-tricks", None, 12),
]


@pytest.mark.parametrize(("variant", "players", "seed"), MINIMUM, ids=[m[0] for m in MINIMUM])
def test_snapshot_minimum_size(snap_compare, variant, players, seed):
    from twos_tui.ui.screens.sizing import MIN_HEIGHT, MIN_WIDTH

    session = Session.start(variant, None, players, {}, seed)
    assert snap_compare(
        make_app(session=session, ai_pause=0),
        terminal_size=(MIN_WIDTH, MIN_HEIGHT),
        run_before=human_turn,
    )
