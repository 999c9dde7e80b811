"""F1 opens the keys help, and the four-colour deck (issue 20 item 7): each suit its own
ink, switched in the command palette, shown at once and kept in the settings with the
theme."""

from __future__ import annotations

import pytest
from ui_helpers import wait_for, wait_for_human, wait_for_screen

from twos_tui.engine.cards import CardFace, standard_face
from twos_tui.play import settings as st
from twos_tui.ui import cardart
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.help import HelpScreen
from twos_tui.ui.screens.home import HomeScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    cardart.set_four_colour(False)


def test_the_setting_round_trips_and_defaults_off():
    assert st.load().four_colour is False
    s = st.Settings(theme="nord", four_colour=True)
    assert st.save(s) is None
    assert st.load().four_colour is True and st.load().theme == "nord"
    assert st.Settings.from_json({"four_colour": "yes"}).four_colour is False  # not a bool


def test_four_inks_for_the_french_suits_only():
    faces = {s: standard_face(f"9{s}") for s in "SHDC"}
    assert {s: cardart.ink(f) for s, f in faces.items()} == {
        "S": cardart.INK["black"],
        "H": cardart.INK["red"],
        "D": cardart.INK["red"],
        "C": cardart.INK["black"],
    }
    cardart.set_four_colour(True)
    inks = {s: cardart.ink(f) for s, f in faces.items()}
    assert len(set(inks.values())) == 4
    assert inks["D"] == cardart.INK["blue"] and inks["C"] == cardart.INK["green"]
    moon = CardFace("5M", "5", "☾", "Moons", "blue")  # a 2v1 suit keeps its own colour
    assert cardart.ink(moon) == cardart.INK["blue"]
    hidden = standard_face("??")
    assert cardart.face_style(hidden) == cardart.BACK


async def test_f1_at_home_opens_the_keys():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("f1")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        assert help_screen.game is None
        assert help_screen.title == "Help: keys"
        assert not help_screen.query("#rules-md")
        assert help_screen.query_one("#keys-md")
        await pilot.press("r")  # no rules tab to go to: nothing happens
        await pilot.press("f1")  # already there
        await pilot.pause()
        assert app.screen is help_screen
        await pilot.press("escape")
        await wait_for_screen(pilot, HomeScreen, "home again")


async def test_f1_at_a_table_opens_its_help_on_the_keys_tab():
    from textual.widgets import TabbedContent

    app = make_app("twos", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.press("f1")
        screen = await wait_for_screen(pilot, HelpScreen)
        assert screen.game is not None
        tabs = screen.query_one(TabbedContent)
        await wait_for(pilot, lambda: tabs.active == "keys", "the keys tab")
        await pilot.press("r")
        await wait_for(pilot, lambda: tabs.active == "rules", "the rules tab")
        await pilot.press("f1")
        await wait_for(pilot, lambda: tabs.active == "keys", "the keys tab again")


def _ink_of(app, glyph: str) -> set[str]:
    found = set()
    for strip in app.screen._compositor.render_strips():
        for seg in strip:
            if glyph in seg.text and seg.style is not None and seg.style.color is not None:
                found.add(seg.style.color.triplet.hex if seg.style.color.triplet else "")
    return found


async def test_four_colour_deck_shows_at_once_and_is_kept():
    app = make_app("big-two", seed=12, ai_pause=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_human(pilot)
        await wait_for(pilot, lambda: cardart.INK["red"] in _ink_of(app, "♦"), "red diamonds")
        assert cardart.INK["black"] in _ink_of(app, "♣")
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Four-colour deck: off → on" in commands
        app.toggle_four_colour()
        # every diamond drawn as a card is blue now, every club green (other text that
        # names a card keeps its own style)
        await wait_for(pilot, lambda: cardart.INK["blue"] in _ink_of(app, "♦"), "blue diamonds")
        assert cardart.INK["red"] not in _ink_of(app, "♦")
        assert cardart.INK["green"] in _ink_of(app, "♣")
        assert cardart.INK["black"] not in _ink_of(app, "♣")
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Four-colour deck: on → off" in commands
    assert st.load().four_colour is True
    assert cardart.four_colour() is False  # reset when the app closed
    app = make_app("big-two", seed=12, ai_pause=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_human(pilot)
        assert cardart.four_colour() is True  # the next run starts with it
        await wait_for(pilot, lambda: cardart.INK["blue"] in _ink_of(app, "♦"), "blue diamonds")
        assert cardart.INK["red"] not in _ink_of(app, "♦")
