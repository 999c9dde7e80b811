"""Puzzles through the app (Pilot): home → Puzzles → a game → a puzzle at the table; a
wrong move is refused with why it fails and the position stays; the answer solves it,
the star is kept in the data directory, the next puzzle follows; the hint costs the
star. One puzzle of each game."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList
from ui_helpers import flat, screen_lines, screen_text, wait_for, wait_for_human

from twos_tui.engine import VARIANT_IDS
from twos_tui.play.puzzle_play import Progress
from twos_tui.puzzles.model import load_puzzles
from twos_tui.ui.app import make_app
from twos_tui.ui.home_menu import HomeMenu
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
    menu = app.screen.query_one(HomeMenu)
    await _until(pilot, lambda: menu.size.width, "the menu laid out")
    entry = menu.entry_regions()["puzzles"]
    await pilot.click(HomeMenu, offset=(entry.x + 2, entry.y + 1))  # the Puzzles entry
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


# ----- the title at the table: whole at 80 columns ----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANT_IDS)
async def test_every_puzzle_title_is_whole_at_80_columns(variant: str) -> None:
    # Twos puzzles read "Twos — Deal 1 · puzzle 13 of 34 · pass and wait · house rules…":
    # the header cut them. A puzzle's title has no deal number (one position), and the
    # house rules are named in full only where they fit (else "see ?": the help has them)
    from twos_tui.play.puzzle_play import PuzzleSeatView
    from twos_tui.puzzles.model import THEMES
    from twos_tui.ui.chrome import TitleText
    from twos_tui.ui.screens.table_panels import house_rules_note

    puzzles = load_puzzles(variant)
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for i, p in enumerate(puzzles):
            screen = PuzzleTableScreen(PuzzleSeatView(p), puzzles, i)
            app.push_screen(screen)
            want = f"puzzle {i + 1} of {len(puzzles)} · {THEMES[p.theme]}"

            def shown(screen=screen) -> str:
                if app.screen is not screen or not screen.query(TitleText):
                    return ""
                r = screen.query_one(TitleText).region
                return screen_lines(app)[r.y][r.x : r.right].strip()

            await _until(pilot, lambda want=want, shown=shown: want in shown())
            line = shown()
            assert line == f"{screen.title} — {screen.sub_title}", line
            assert "…" not in line and "Deal" not in line
            assert screen.sub_title.startswith(want)
            if house_rules_note(screen.game):  # said in full or in a word, not left out
                assert "house rules: " in screen.sub_title
            app.pop_screen()
            await _until(pilot, lambda screen=screen: app.screen is not screen)


def test_the_sub_title_names_the_house_rules_only_as_far_as_they_fit() -> None:
    from twos_tui.ui.screens.table_panels import RULES_IN_A_WORD, fit_sub_title

    parts = ["puzzle 13 of 34", "pass and wait"]
    rules = "house rules: Hand size"
    assert fit_sub_title("Twos", parts, rules, 100) == " · ".join([*parts, rules])
    assert fit_sub_title("Twos", parts, rules, 80) == " · ".join([*parts, RULES_IN_A_WORD])
    assert fit_sub_title("Twos", parts, rules, 60) == " · ".join(parts)
    assert fit_sub_title("Twos", parts, "", 80) == " · ".join(parts)
    # too long whatever is left out: the parts all the same (the header cuts them)
    assert fit_sub_title("Twos", parts, rules, 30) == " · ".join(parts)


async def test_the_bomb_pop_up_and_the_log_say_you_play() -> None:
    # the pop-up of Twos puzzle 1's answer read "You plays bomb 2×3"
    from twos_tui.play.puzzle_play import PuzzleSeatView
    from twos_tui.ui.widgets import PlayLog

    puzzles = load_puzzles("twos")
    p = puzzles[0]
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = PuzzleTableScreen(PuzzleSeatView(p), puzzles, 0)
        app.push_screen(screen)
        await _until(pilot, lambda: app.screen is screen and screen._decision is not None)
        for a in p.answer:
            screen.act(a)
        await _until(pilot, lambda: "You play bomb 2×3" in flat(screen_text(app)))
        shown = flat(screen_text(app))
        assert "Bomb!" in shown  # the pop-up, over the solved dialog
        assert "You plays" not in shown
        log = [line.plain for line in screen.query_one(PlayLog).entries]
        assert "You play bomb 2×3 4♠ 4♥ 5♦ 5♥ 6♦ 6♥ — BOMB!" in log, log
