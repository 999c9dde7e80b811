"""The home screen's menu (one widget, ``ui/home_menu.py``, in place of nine buttons):
every key and click on it, the pointer's light, the Continue entry, the themes. What is
checked is what the screen shows: the rendered menu's cells and the screen that opens."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.color import Color
from ui_helpers import wait_for, wait_for_screen

from twos_tui.ui.app import make_app
from twos_tui.ui.home_menu import HomeMenu
from twos_tui.ui.screens.home import ContinueScreen, HomeScreen, RulesListScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def home_menu(pilot) -> HomeMenu:
    home = await wait_for_screen(pilot, HomeScreen)
    menu = home.query_one(HomeMenu)
    await wait_for(pilot, lambda: menu.has_focus and menu.size.width == 30, "the menu drawn")
    return menu


def cells(menu: HomeMenu, entry: str) -> list[tuple[str, Style]]:
    """The cells of the middle line (the label's) of ``entry`` as the screen shows them
    (Textual's compositor: what was redrawn, not what the widget would draw now)."""
    region = menu.entry_regions()[entry].translate(menu.region.offset)
    strip = menu.screen._compositor.render_strips()[region.y + 1]
    segments = strip.crop(region.x, region.right)
    return [(ch, seg.style or Style()) for seg in segments for ch in seg.text]


def menu_lines(menu: HomeMenu) -> list[str]:
    r = menu.region
    return [s.text[r.x : r.right] for s in menu.screen._compositor.render_strips()[r.y : r.bottom]]


def label_style(menu: HomeMenu, entry: str) -> Style:
    return next(style for ch, style in cells(menu, entry) if ch.isalpha())


def background(menu: HomeMenu, entry: str) -> str:
    style = cells(menu, entry)[0][1]
    assert style.bgcolor is not None and style.bgcolor.triplet is not None
    return style.bgcolor.triplet.hex


def theme_colour(app, name: str) -> str:
    return Color.parse(app.theme_variables[name]).hex.lower()


def focused(menu: HomeMenu) -> list[str]:
    """The entries drawn as focused (their label reversed)."""
    return [e for e in menu.shown() if label_style(menu, e).reverse]


async def test_the_menu_shows_every_entry_with_new_game_focused():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        shown = menu.shown()
        assert shown == ["new", "join", "learn", "puzzles", "rules", "odds", "stats", "quit"]
        lines = menu_lines(menu)
        assert len(lines) == 15  # five rows of three lines (Join alone in its row)
        assert "New game (n)" in lines[1] and "Join (j)" in lines[4]
        assert "Learn (l)" in lines[7] and "Puzzles (p)" in lines[7]
        assert "Rules (r)" in lines[10] and "Odds (o)" in lines[10]
        assert "Stats (s)" in lines[13] and "Quit (q)" in lines[13]
        assert lines[0] == "▔" * 30 and lines[2] == "▁" * 30
        assert focused(menu) == ["new"]
        # New game in the theme's primary colour (tinted: it has the focus), Quit in red
        assert background(menu, "quit") == theme_colour(app, "error")
        assert background(menu, "learn") == theme_colour(app, "surface")


async def test_tab_and_the_arrows_move_and_enter_or_space_opens():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        await pilot.press("tab")
        await wait_for(pilot, lambda: focused(menu) == ["join"], "Join focused")
        await pilot.press("tab", "tab")
        await wait_for(pilot, lambda: focused(menu) == ["puzzles"], "Puzzles focused")
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: focused(menu) == ["learn"], "back to Learn")
        await pilot.press("down")
        await wait_for(pilot, lambda: focused(menu) == ["rules"], "Rules, below")
        await pilot.press("right")
        await wait_for(pilot, lambda: focused(menu) == ["odds"], "Odds, beside it")
        await pilot.press("down", "down")  # past the last row: round to the first
        await wait_for(pilot, lambda: focused(menu) == ["new"], "round to New game")
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: focused(menu) == ["quit"], "round to Quit")
        await pilot.press("up", "left")
        await wait_for(pilot, lambda: focused(menu) == ["rules"], "Rules")
        await pilot.press("enter")
        rules = await wait_for_screen(pilot, RulesListScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not rules, "home again")
        menu = await home_menu(pilot)
        assert focused(menu) == ["rules"]  # the entry opened stays the highlighted one
        await pilot.press("up", "space")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "LearnScreen", "Learn")


@pytest.mark.parametrize(
    ("entry", "screen"),
    [("rules", "RulesListScreen"), ("odds", "OddsScreen"), ("new", "PickerScreen")],
)
async def test_a_click_opens_the_entry_under_the_pointer(entry, screen):
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        region = menu.entry_regions()[entry]
        await pilot.click(HomeMenu, offset=(region.x + 1, region.y))  # its top border
        await wait_for(pilot, lambda: type(app.screen).__name__ == screen, screen)


async def test_a_click_between_two_entries_opens_nothing_and_quit_quits():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        learn = menu.entry_regions()["learn"]
        await pilot.click(HomeMenu, offset=(learn.right, learn.y + 1))  # the gap
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and focused(menu) == ["new"]
        quit_at = menu.entry_regions()["quit"]
        await pilot.click(HomeMenu, offset=(quit_at.x + 3, quit_at.y + 1))
        await wait_for(pilot, lambda: not app.is_running, "the app ended")
    assert app.return_code == 0


async def test_the_pointer_lights_the_entry_it_is_over():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        darker = theme_colour(app, "surface-darken-1")
        assert background(menu, "puzzles") != darker
        puzzles = menu.entry_regions()["puzzles"]
        await pilot.hover(HomeMenu, offset=(puzzles.x + 2, puzzles.y + 1))
        await wait_for(pilot, lambda: background(menu, "puzzles") == darker, "Puzzles lit")
        assert background(menu, "learn") == theme_colour(app, "surface")
        await pilot.hover(offset=(0, 0))  # off the menu
        await wait_for(pilot, lambda: background(menu, "puzzles") != darker, "back to plain")


async def test_a_new_theme_redraws_the_menu_in_its_colours():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        before = background(menu, "quit")
        app.theme = "nord"
        await wait_for(pilot, lambda: background(menu, "quit") != before, "nord's colours")
        assert background(menu, "quit") == theme_colour(app, "error")
        assert not label_style(menu, "new").bold  # nord's focused buttons: reverse only


async def test_continue_comes_and_goes_with_the_saves(data_home):
    from twos_tui.play.session import Session

    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        assert "continue" not in menu.shown()
        session = Session.start("twos", seed=3)
        session.save()
        session.close()
        app.screen.refresh_saves()
        await wait_for(pilot, lambda: "Continue (c)" in menu_lines(menu)[4], "Continue")
        assert menu.shown()[:3] == ["new", "continue", "join"]
        # Continue and Join share their row as two of the pairs below do
        assert menu.entry_regions()["continue"].width == 14
        assert menu.entry_regions()["join"].width == 15
        await pilot.press("tab", "enter")
        await wait_for_screen(pilot, ContinueScreen)


async def test_the_pointer_is_a_hand_over_the_menu():
    """As over Textual's buttons: a terminal that can change the mouse pointer's shape
    shows a hand over the menu."""
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await home_menu(pilot)
        assert menu.styles.pointer == "pointer"
