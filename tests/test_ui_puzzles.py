"""Puzzles through the app (Pilot): home → Puzzles → a game → a puzzle at the table; a
wrong move is refused with why it fails and the position stays; the answer solves it,
the star is kept in the data directory, the next puzzle follows; the hint costs the
star. One puzzle of each game."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList
from ui_helpers import flat, screen_text, wait_for, wait_for_human

from twos_tui.engine import VARIANT_IDS
from twos_tui.play.puzzle_play import Progress
from twos_tui.puzzles.model import load_puzzles
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.puzzles import (
    PuzzleListScreen,
    PuzzlesScreen,
    PuzzleTableScreen,
    SolvedDialog,
)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


async def _until(pilot, cond, what: str = "the state waited for") -> None:
    await wait_for(pilot, cond, what)


async def _open_game(pilot, variant: str) -> PuzzleTableScreen:
    app = pilot.app
    await _until(pilot, lambda: isinstance(app.screen, HomeScreen))
    await pilot.click("#puzzles")
    await _until(pilot, lambda: isinstance(app.screen, PuzzlesScreen))
    games = app.screen.query_one(OptionList)
    games.highlighted = VARIANT_IDS.index(variant)
    await pilot.press("enter")
    await _until(pilot, lambda: isinstance(app.screen, PuzzleListScreen))
    assert "puzzles" in screen_text(app)
    await pilot.press("enter")  # the first puzzle
    screen = await wait_for_human(pilot)
    assert isinstance(screen, PuzzleTableScreen)
    return screen


@pytest.mark.parametrize(
    "variant",
    # one game in the quick loop, the others in the full suite (a few seconds each)
    [v if v == "big-two" else pytest.param(v, marks=pytest.mark.slow) for v in VARIANT_IDS],
)
async def test_solve_a_puzzle_of_each_game(variant: str) -> None:
    puzzles = load_puzzles(variant)
    p = puzzles[0]
    app = make_app(ai_pause=0)
    async with app.run_test(size=(110, 34)) as pilot:
        screen = await _open_game(pilot, variant)
        assert screen.puzzle.id == p.id
        # the goal is on the table, in the log
        assert "Puzzle:" in flat(screen_text(app))
        before = screen.view.game.to_json()
        wrong = next(a for a in screen.game.legal_actions(p.seat) if a != p.answer[0])
        screen.act(wrong)
        await _until(pilot, lambda: "Try again" in flat(screen_text(app)), "Try again")
        assert screen.view.game.to_json() == before
        assert isinstance(app.screen, PuzzleTableScreen)
        for a in p.answer:
            screen.act(a)
            await pilot.pause()
        await _until(pilot, lambda: isinstance(app.screen, SolvedDialog))
        assert "Solved! ★" in screen_text(app)
        rec = Progress().get(p.id)
        assert rec.solved and rec.star and rec.tries == 1
        await pilot.press("enter")  # the next puzzle
        nxt = await wait_for_human(pilot)
        assert isinstance(nxt, PuzzleTableScreen) and nxt.puzzle.id == puzzles[1].id
        await pilot.press("q")  # back to the list, which shows the star
        await _until(pilot, lambda: isinstance(app.screen, PuzzleListScreen))
        assert "1 of" in screen_text(app) and "★ 1" in screen_text(app)


async def test_hint_costs_the_star() -> None:
    p = load_puzzles("big-two")[0]
    app = make_app(ai_pause=0)
    async with app.run_test(size=(110, 34)) as pilot:
        screen = await _open_game(pilot, "big-two")
        await pilot.press("h")
        await _until(pilot, lambda: p.hint.split(".")[0] in flat(screen_text(app)), "the hint")
        for a in p.answer:
            screen.act(a)
            await pilot.pause()
        await _until(pilot, lambda: isinstance(app.screen, SolvedDialog))
        assert "no star" in screen_text(app)
        rec = Progress().get(p.id)
        assert rec.solved and not rec.star and rec.hint


async def test_cli_opens_one_games_list(monkeypatch) -> None:
    from twos_tui.ui.screens.puzzles import PuzzlesScreen as Screen

    app = make_app(ai_pause=0)
    app.on_start = lambda: app.push_screen(Screen("twos-tricks"))
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, PuzzleListScreen))
        assert "Twos, trick-taking puzzles" in screen_text(app) or "puzzles" in screen_text(app)
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, PuzzlesScreen))
        text = screen_text(app)
        for v in VARIANT_IDS:
            assert f"{len(load_puzzles(v))} puzzles" in text
