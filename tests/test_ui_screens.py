"""Pilot tests of the screens: home, picker, help, command palette, and a storm of
random keys and clicks on every screen that must raise nothing."""

from __future__ import annotations

import random

import pytest
from textual.widgets import Markdown, Select
from ui_helpers import settled_picker, wait_for, wait_for_screen

from twos_tui.engine import new_game
from twos_tui.ui.app import make_app, run_app
from twos_tui.ui.helptext import MARKER, help_markdown
from twos_tui.ui.home_menu import HomeMenu
from twos_tui.ui.screens.dialogs import DealEndScreen, PassScreen
from twos_tui.ui.screens.help import HelpScreen
from twos_tui.ui.screens.home import HomeScreen, RulesListScreen
from twos_tui.ui.screens.picker import PickerScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.variants import available_variants


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def test_home_shows_name_version_and_menu():
    from twos_tui import __version__

    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        text = str(home.query_one("#version").render())
        assert __version__ in text
        ids = home.query_one(HomeMenu).shown()
        assert ids == ["new", "join", "learn", "puzzles", "rules", "odds", "stats", "quit"]
        await pilot.press("r")
        await wait_for_screen(pilot, RulesListScreen)
        await pilot.press("enter")
        await wait_for_screen(pilot, HelpScreen)
        await pilot.press("escape", "escape")
        await wait_for_screen(pilot, HomeScreen, "home again")
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_value is not None, "the app to quit")
    assert app.return_value == 0


def test_run_app_rejects_unknown_variant_and_player_count(capsys):
    assert run_app("no-such-game") == 2
    assert "unknown variant" in capsys.readouterr().err
    assert run_app("big-two", players=7) == 2
    assert "not 7" in capsys.readouterr().err


async def test_picker_lists_every_variant_and_starts_the_chosen_rules():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("n")
        picker = await settled_picker(pilot)
        assert not PickerScreen("twos").settled  # not built until it is mounted
        ol = picker.query_one("#variant-list")
        assert ol.option_count == len(available_variants())
        # move to Big Two and check its options are the engine's
        await pilot.press("down")
        assert await settled_picker(pilot, "big-two") is picker
        cls = picker.cls
        specs = cls.option_specs(picker.players)
        assert [s.id for s, _ in picker.option_selects] == [s.id for s in specs]
        assert picker.chosen_options() == {s.id: s.default for s in specs}
        # three players, the target 50, a seed; seat 2 human (hot seat)
        picker.query_one("#players", Select).value = 3
        await settled_picker(pilot, "big-two", players=3)
        assert len(picker.seat_inputs) == 3
        target = next(sel for s, sel in picker.option_selects if s.id == "target")
        spec = next(s for s in specs if s.id == "target")
        target.value = [v for v, _ in spec.choices].index(50)
        picker.seat_inputs[1][1].value = "human"
        picker.seat_inputs[1][0].value = "Bea"
        picker.query_one("#seed").value = "42"
        await wait_for(pilot, lambda: picker.chosen_options()["target"] == 50, "target 50")
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, PassScreen, "the pass screen (two humans: hot seat)")
        await pilot.press("enter")
        table = await wait_for_screen(pilot, TableScreen)
        g = table.session.game
        assert (g.variant_id, g.players, g.seed, g.options["target"]) == ("big-two", 3, 42, 50)
        assert g.names[1] == "Bea" and table.table.hot_seat


async def test_picker_refuses_two_seats_with_one_name():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("n")
        picker = await settled_picker(pilot)
        picker.seat_inputs[1][0].value = "Player 1"
        await pilot.click("#start")
        error = picker.query_one("#picker-error")
        await wait_for(pilot, lambda: "different name" in str(error.render()), "the refusal")
        assert app.screen is picker


@pytest.mark.parametrize("cls", available_variants(), ids=lambda c: c.variant_id)
def test_help_text_inserts_the_chosen_house_rules(cls):
    specs = cls.option_specs(cls.default_players)
    options = {}
    for s in specs:  # choose a non-default value where there is one
        other = [v for v, _ in s.choices if v != s.default]
        if other:
            options[s.id] = other[0]
    game = new_game(cls.variant_id, None, options, 0)
    text = help_markdown(game)
    assert MARKER not in text
    for line in game.rules_summary():
        assert line in text
    for s in specs:
        assert s.description in text
    assert "## Keys" in text and "## Worked example" in text


@pytest.mark.slow
async def test_help_screen_from_the_table_and_the_picker():
    app = make_app("twos", seed=1, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await pilot.press("question_mark")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        md = help_screen.query_one("#rules-md", Markdown)
        assert "Hand size: 13" in md.source
        await pilot.press("k")
        tabs = help_screen.query_one("TabbedContent")
        await wait_for(pilot, lambda: tabs.active == "keys", "the keys tab")
        await pilot.press("o")  # Twos: bomb odds
        await wait_for(pilot, lambda: type(app.screen).__name__ == "OddsScreen", "the odds")
        await pilot.press("escape")
        await wait_for_screen(pilot, HelpScreen, "the help again")
        await pilot.press("escape")
        await wait_for_screen(pilot, TableScreen, "the table again")
        # from the picker: the rules as chosen there
        app.open_picker("twos")
        picker = await settled_picker(pilot, "twos")
        hs = next(sel for s, sel in picker.option_selects if s.id == "hand_size")
        hs.value = 9  # option index 9 -> 10 cards
        await wait_for(pilot, lambda: picker.chosen_options()["hand_size"] == 10, "10 cards")
        await pilot.press("f1")
        help_screen = await wait_for_screen(pilot, HelpScreen, "the help from the picker")
        assert "Hand size: 10" in help_screen.query_one("#rules-md", Markdown).source


async def test_command_palette_entries():
    app = make_app("big-two", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for cls in available_variants():
            assert f"New game: {cls.name}" in titles
        assert "Help" in titles and "Sort hand" in titles
        sort = next(c for c in app.get_system_commands(app.screen) if c.title == "Sort hand")
        sort.callback()
        assert app.screen.sort_by == "suit"
        new = next(
            c for c in app.get_system_commands(app.screen) if c.title == "New game: Twos (tricks)"
        )
        new.callback()
        await settled_picker(pilot, "twos-tricks")


KEYS = [
    "left",
    "right",
    "up",
    "down",
    "space",
    "enter",
    "p",
    "s",
    "tab",
    "shift+tab",
    "escape",
    "question_mark",
    "k",
    "r",
    "1",
    "2",
    "3",
    "4",
    "a",
    "x",
    "ctrl+s",
    "n",
    "home",
    "end",
    "pageup",
    "pagedown",
    "backspace",
    "y",
    "d",
    "o",
]


async def storm(app, pilot, rng: random.Random, count: int) -> None:
    w, h = app.size
    for _ in range(count):
        if app._exit:  # "q" on the home screen quits: a clean end of the storm
            return
        if rng.random() < 0.25:
            await pilot.click(offset=(rng.randrange(w), rng.randrange(h)))
        else:
            await pilot.press(rng.choice(KEYS))


@pytest.mark.slow
@pytest.mark.parametrize(
    "start", ["home", "picker", "climbing", "trick", "2v1", "help", "deal-end"]
)
async def test_random_key_and_click_storm_raises_nothing(start):
    rng = random.Random(start)
    variant = {
        "climbing": "big-two",
        "trick": "twos-tricks",
        "2v1": "2v1",
        "help": "twos",
        "deal-end": "twos",
    }.get(start)
    app = make_app(variant, seed=5, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen if variant else HomeScreen)
        if start == "picker":
            await pilot.press("n")
            await settled_picker(pilot)
        elif start == "help":
            await pilot.press("question_mark")
            await wait_for_screen(pilot, HelpScreen)
        elif start == "deal-end":
            screen = app.screen
            g = screen.session.game
            # finish the deal at engine level, then let the UI show the deal end
            while not g.deal_over:
                seat = g.to_act()[0]
                screen.session.apply(seat, g.legal_actions(seat)[0])
            screen.after_change()
            await wait_for_screen(pilot, DealEndScreen)
        await pilot.pause()
        await storm(app, pilot, rng, 40)
        await pilot.pause()
