"""The start: only what the home screen needs is imported and parsed (issue 29). The
home screen is the bottom of the screen stack from the first frame; the
other screens' CSS (``screens.tcss``) is read when the first of them opens, and their modules, the
engine, the AI and the history are imported on first use."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys

import pytest
from textual.screen import Screen
from ui_helpers import wait_for, wait_for_screen

import twos_tui.ui
from twos_tui.ui.app import make_app
from twos_tui.ui.screen_css import SCREENS_CSS
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.picker import PickerScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def test_the_start_parses_only_the_home_screens_css_and_the_rest_on_first_use():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: home.query_one("#home-buttons").has_focus, "home drawn")
        assert app.screen_stack == [home]  # home is the bottom: no empty screen under it
        assert not app.stylesheet.has_source(SCREENS_CSS, "")
        assert home.query_one("#home-buttons").size.width == 30  # (app.tcss's rule)
        await pilot.press("n")
        picker = await wait_for_screen(pilot, PickerScreen)
        assert app.stylesheet.has_source(SCREENS_CSS, "")
        # the picker is styled by screens.tcss (``#variant-list { width: 24; }``)
        assert str(picker.query_one("#variant-list").styles.width) == "24"
        await pilot.press("escape")
        await wait_for_screen(pilot, HomeScreen, "home again")
        assert app.screen_stack == [home]


async def test_the_theme_chosen_last_time_is_on_the_first_frame():
    from textual.color import Color

    from twos_tui.play import settings as settings_file

    settings = settings_file.load()
    settings.theme = "nord"
    assert settings_file.save(settings) is None
    app = make_app(ai_pause=0)
    assert app.theme == "nord"  # set as the app is made, before anything is drawn
    async with app.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: home.query_one("#home-buttons").has_focus, "home drawn")
        nord = app.get_theme("nord")
        assert nord is not None and nord.background is not None
        assert home.styles.background == Color.parse(nord.background)
    assert settings_file.load().theme == "nord"


def _screen_classes() -> list[type[Screen[object]]]:
    for info in pkgutil.walk_packages(twos_tui.ui.__path__, "twos_tui.ui."):
        importlib.import_module(info.name)
    found: list[type[Screen[object]]] = []
    todo: list[type[Screen[object]]] = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("twos_tui.ui."):
                found.append(sub)
    return found


def test_every_screen_but_home_reads_the_screens_css():
    classes = _screen_classes()
    assert len(classes) > 20
    from textual.command import CommandPalette

    # Textual's own command palette (the app's guarded subclass of it, made once the
    # palette is first opened) keeps Textual's CSS: it is not one of our screens.
    ours = [c for c in classes if not issubclass(c, CommandPalette)]
    missing = [c.__qualname__ for c in ours if c is not HomeScreen and c.CSS_PATH != SCREENS_CSS]
    assert missing == []
    assert HomeScreen.CSS_PATH is None  # (its rules are the app's: app.tcss)


HOME_RUN = """
import json, sys
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen

async def pilot(p):
    while not (isinstance(p.app.screen, HomeScreen) and p.app.screen.query("#home-buttons:focus")):
        await p.pause()
    p.app.exit(0)

make_app(ai_pause=0).run(headless=True, size=(80, 24), auto_pilot=pilot)
print(json.dumps(sorted(sys.modules)))
"""

#: what the home screen must start without (each is imported where it is first used)
NOT_AT_START = (
    "twos_tui.engine",
    "twos_tui.ai",
    "twos_tui.play.session",
    "twos_tui.play.seat_view",
    "twos_tui.play.history",
    "twos_tui.play.net",
    "twos_tui.ui.widgets",
    "twos_tui.ui.boards",
    "twos_tui.ui.helptext",
    "twos_tui.ui.screens.table",
    "twos_tui.ui.screens.picker",
    "twos_tui.ui.screens.dialogs",
    "twos_tui.ui.screens.help",
    "twos_tui.ui.screens.stats",
    "sqlite3",
    "numpy",
    "websockets",
    "asyncssh",
    "tomlkit",  # (the settings file is read with tomllib; tomlkit only writes it)
    "shtab",
)


def test_the_home_screen_starts_without_the_other_screens_modules(data_home):
    out = subprocess.run(
        [sys.executable, "-c", HOME_RUN],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "TWOS_TUI_HOME": str(data_home)},
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    early = [
        m
        for m in loaded
        if m.split(".")[0] in ("sqlite3", "numpy", "websockets", "asyncssh", "tomlkit", "shtab")
    ]
    early += [m for m in loaded if any(m == n or m.startswith(n + ".") for n in NOT_AT_START)]
    assert sorted(set(early)) == []
    assert "twos_tui.ui.screens.home" in loaded
