"""The settings file, ``config.toml`` (issue 32): missing, broken, unknown keys, wrong
types, each setting applied (on screen where it shows), written back by the app with the
player's comments kept, ``--config PATH``, and the one-time move of ``settings.json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.style import Style
from ui_helpers import (
    screen_text,
    settled_picker,
    wait_for,
    wait_for_human,
    wait_for_screen,
    wait_for_text,
)

from twos_tui.play import config
from twos_tui.play import settings as st
from twos_tui.ui import cardart
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    cardart.set_four_colour(False)


def write_config(home: Path, text: str) -> Path:
    path = home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ----- reading ---------------------------------------------------------------------------


def test_no_file_gives_the_usual_settings_and_no_problem(home):
    loaded = st.load_all()
    assert loaded.settings == st.Settings()
    assert loaded.problems == [] and loaded.notices == []
    assert not (home / "config.toml").exists()  # (reading makes nothing)


def test_the_file_lives_in_the_user_config_folder(monkeypatch):
    from platformdirs import user_config_path

    from twos_tui.play.paths import config_path

    monkeypatch.delenv("TWOS_TUI_HOME")
    assert config_path() == user_config_path("twos-tui", appauthor=False) / "config.toml"


EVERY_KEY = """\
name = "Ann"
game = "big-two"
players = 3
ai_level = "easy"
ai_pace = "slow"
trick_pause = "key"
hint_level = "normal"
theme = "nord"
four_colour = true
tips = false

[sort]
twos = "suit"
big-two = "suit"
"""


def test_every_key_is_read(home):
    write_config(home, EVERY_KEY)
    loaded = st.load_all()
    assert loaded.problems == []
    s = loaded.settings
    assert (s.name, s.game, s.players, s.ai_level) == ("Ann", "big-two", 3, "easy")
    assert (s.ai_pace, s.trick_pause, s.hint_level) == ("slow", "key", "normal")
    assert (s.theme, s.four_colour, s.tips) == ("nord", True, False)
    assert s.sort == {"twos": "suit", "big-two": "suit"}
    assert s.trick_hold() is None and s.pace() == st.PACES["slow"]
    assert not s.tip_due("first-lead")


def test_a_broken_file_is_one_line_naming_it_and_its_line_then_the_usual_settings(home):
    path = write_config(home, 'ai_pace = "slow"\ntheme = \n')
    loaded = st.load_all()
    assert loaded.settings == st.Settings()
    (line,) = loaded.problems
    assert str(path) in line and "line 2" in line and "\n" not in line
    assert line.endswith("using the usual settings")


def test_unknown_keys_are_named_in_one_line_and_the_rest_applies(home):
    path = write_config(home, 'ai_pace = "slow"\ncolour = "red"\nspeed = 3\n')
    loaded = st.load_all()
    assert loaded.problems == [f"{path}: unknown settings ignored: colour, speed"]
    assert loaded.settings.ai_pace == "slow"


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('players = "three"', "players"),
        ("players = 0", "players"),
        ("players = true", "players"),
        ('four_colour = "yes"', "four_colour"),
        ("tips = 1", "tips"),
        ('ai_pace = "warp"', "ai_pace"),
        ('ai_level = "expert"', "ai_level"),
        ('trick_pause = "never"', "trick_pause"),
        ("theme = 3", "theme"),
        ('name = ""', "name"),
        ('name = "a name far too long for a seat"', "name"),
        ("game = 2", "game"),
        ('game = "poker"', "game"),
        ('sort = "suit"', "sort"),
    ],
)
def test_a_wrong_type_is_one_line_and_that_key_takes_its_usual_value(home, line, key):
    path = write_config(home, f'hint_level = "normal"\n{line}\n')
    loaded = st.load_all()
    (problem,) = loaded.problems
    assert problem.startswith(f"{path}: {key} must be ") and problem.endswith("the usual one")
    usual = st.Settings()
    assert getattr(loaded.settings, key) == getattr(usual, key)
    assert loaded.settings.hint_level == "normal"  # (the good key beside it applies)


def test_a_bad_sort_entry_costs_only_that_game(home):
    path = write_config(home, '[sort]\ntwos = "colour"\nbig-two = "suit"\npoker = "rank"\n')
    loaded = st.load_all()
    assert loaded.problems == [
        f'{path}: sort.twos must be "rank" or "suit", not \'colour\'; using the usual one',
        f"{path}: sort.poker: there is no such game, ignored",
    ]
    assert loaded.settings.sort == {"big-two": "suit"}


def test_the_files_words_agree_with_the_games():
    from twos_tui import ai
    from twos_tui.engine import VARIANT_IDS

    assert config.GAMES == VARIANT_IDS
    assert config.AI_LEVELS == ai.LEVELS
    assert config.HINT_LEVELS == ai.HINT_LEVELS
    assert tuple(st.PACES) == config.PACES
    assert config.TRICK_PAUSES == st.TRICK_PAUSES
    assert config.SORTS == st.SORTS
    assert set(config.KEYS) == {*st.CONFIG_KEYS, "sort"}
    assert 'name = "Ann"' in config.TEMPLATE  # (the template names every key)
    assert all(f"# {key} = " in config.TEMPLATE or key == "sort" for key in config.KEYS)


def test_config_path_reads_another_file(home, tmp_path, monkeypatch):
    other = tmp_path / "elsewhere.toml"
    other.write_text('ai_pace = "instant"\n', encoding="utf-8")
    write_config(home, 'ai_pace = "slow"\n')
    monkeypatch.setenv("TWOS_TUI_CONFIG", str(other))
    assert st.load().ai_pace == "instant"
    s = st.load()
    s.theme = "nord"
    assert st.save(s) is None
    assert 'theme = "nord"' in other.read_text(encoding="utf-8")
    assert "theme" not in (home / "config.toml").read_text(encoding="utf-8")


# ----- writing back ----------------------------------------------------------------------

COMMENTED = """\
# my twos-tui settings
ai_pace = "slow"  # slow, so I can follow

# the look
four_colour = false  # not yet

[sort]  # per game
big-two = "rank"  # as always
"""


def test_a_change_keeps_the_players_comments(home):
    path = write_config(home, COMMENTED)
    s = st.load()
    s.four_colour = True
    s.sort["twos"] = "suit"
    s.theme = "nord"
    assert st.save(s) is None
    text = path.read_text(encoding="utf-8")
    assert text == COMMENTED.replace(
        "four_colour = false  # not yet", 'four_colour = true  # not yet\ntheme = "nord"'
    ).replace('big-two = "rank"  # as always\n', 'big-two = "rank"  # as always\ntwos = "suit"\n')
    assert st.load() == s


def test_nothing_is_written_when_no_setting_changed(home):
    path = write_config(home, COMMENTED)
    before = path.stat().st_mtime_ns, path.read_text(encoding="utf-8")
    s = st.load()
    s.tips_seen.append("first-lead")  # (a record of the app's: state.json)
    s.last_variant = "twos"
    assert st.save(s) is None
    assert (path.stat().st_mtime_ns, path.read_text(encoding="utf-8")) == before
    assert json.loads((home / "state.json").read_text())["tips_seen"] == ["first-lead"]


def test_a_first_change_makes_the_file_from_the_commented_template(home):
    s = st.load()
    s.ai_pace = "instant"
    assert st.save(s) is None
    text = (home / "config.toml").read_text(encoding="utf-8")
    assert text.startswith(config.TEMPLATE)
    assert text[len(config.TEMPLATE) :] == '\nai_pace = "instant"\n'


def test_a_broken_file_is_never_written_over(home):
    path = write_config(home, "ai_pace = = 1\n")
    s = st.load()
    s.theme = "nord"
    problem = st.save(s)
    assert problem == f"Settings not saved to {path}: fix the error in it first"
    assert path.read_text(encoding="utf-8") == "ai_pace = = 1\n"


def test_a_wrong_key_stays_until_that_setting_changes(home):
    path = write_config(home, 'tips = "yes"\n')
    s = st.load()
    s.theme = "nord"
    assert st.save(s) is None
    assert 'tips = "yes"' in path.read_text(encoding="utf-8")


# ----- the move from settings.json -----------------------------------------------------

OLD = {
    "format": 1,
    "theme": "nord",
    "four_colour": True,
    "ai_pace": "slow",
    "trick_pause": "pace",
    "hint_level": "hard",
    "sort": {"twos": "suit"},
    "picker": {"twos": {"players": 3, "seats": [], "options": {}, "by_players": {}}},
    "last_variant": "twos",
    "tips": True,
    "tips_seen": ["first-lead"],
    "lessons": {"twos": {"done": [0, 1], "stars": 2}},
}


def test_settings_json_is_moved_once(home):
    (home / "settings.json").write_text(json.dumps(OLD), encoding="utf-8")
    loaded = st.load_all()
    s = loaded.settings
    assert (s.theme, s.four_colour, s.ai_pace, s.sort) == ("nord", True, "slow", {"twos": "suit"})
    assert s.last_variant == "twos" and s.tips_seen == ["first-lead"]
    assert s.lessons == {"twos": {"done": [0, 1], "stars": 2}}
    assert s.choice_for("twos").players == 3
    assert not (home / "settings.json").exists()
    assert json.loads((home / "settings.json.migrated").read_text()) == OLD  # (bytes kept)
    text = (home / "config.toml").read_text(encoding="utf-8")
    assert 'theme = "nord"' in text and "four_colour = true" in text and "twos" in text
    assert "trick_pause" not in text.split("\n\n", 1)[1]  # (only what differs from usual)
    (notice,) = loaded.notices
    assert str(home / "config.toml") in notice and "settings.json.migrated" in notice
    again = st.load_all()
    assert again.settings == s and again.notices == []


def test_a_settings_file_already_there_wins_over_settings_json(home):
    write_config(home, 'theme = "gruvbox"\n')
    (home / "settings.json").write_text(json.dumps(OLD), encoding="utf-8")
    s = st.load()
    assert s.theme == "gruvbox" and s.ai_pace == "normal"  # (the file's, and its usual)
    assert s.tips_seen == ["first-lead"]  # (the records still move)
    assert (home / "config.toml").read_text(encoding="utf-8") == 'theme = "gruvbox"\n'


def test_a_damaged_settings_json_is_moved_aside_too(home):
    (home / "settings.json").write_text("{not json", encoding="utf-8")
    assert st.load() == st.Settings()
    assert (home / "settings.json.migrated").read_text() == "{not json"


# ----- on screen -------------------------------------------------------------------------


def toast_text(app) -> str:
    """The screen's text less the toasts' left edge (a long toast wraps over lines)."""
    return screen_text(app).replace("▌", " ")


async def test_the_app_shows_the_files_problem_in_one_line(home):
    path = write_config(home, "theme = \n")
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: app.notices, "the warning")
        ((message, _, severity, _),) = app.notices
        assert severity == "warning" and str(path) in message and "line 1" in message
        await wait_for_text(pilot, "not valid TOML", where=lambda: toast_text(app))


async def test_an_unknown_theme_is_named_and_the_usual_one_used(home):
    write_config(home, 'theme = "no-such-theme"\n')
    app = make_app(ai_pause=0)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await wait_for_text(
            pilot,
            "there is no theme 'no-such-theme'; using the usual one",
            where=lambda: toast_text(app),
        )
        assert app.theme == "textual-dark"


async def test_theme_and_four_colour_from_the_file_show(home):
    from textual.color import Color

    from twos_tui.engine.cards import standard_face

    write_config(home, 'theme = "nord"\nfour_colour = true\n')
    app = make_app("big-two", seed=12, ai_pause=0)
    assert app.theme == "nord"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        nord = app.get_theme("nord")
        assert screen.styles.background == Color.parse(nord.background)
        hand = screen.query_one("HandView")
        rendered = hand.render()
        inks = {
            rendered.plain[span.start : span.end].strip(): Style.parse(str(span.style)).color
            for span in rendered.spans
            if "♦" in rendered.plain[span.start : span.end]
        }
        blue = Style.parse(cardart.ink(standard_face("9D"))).color
        assert inks and all(c == blue for c in inks.values())  # the diamonds drawn blue
        assert blue != Style.parse(cardart.INK["red"]).color


async def test_sort_from_the_file_shows_and_a_change_is_written_back(home):
    path = write_config(home, '# mine\n[sort]\ntwos = "suit"  # by suit, please\n')
    app = make_app("twos", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        assert screen.sort_by == "suit"
        await wait_for_text(pilot, "Sort: suit")
        await pilot.press("s")
        await wait_for_text(pilot, "Sort: rank")
    assert path.read_text(encoding="utf-8") == '# mine\n[sort]\ntwos = "rank"  # by suit, please\n'


async def test_name_game_players_and_ai_level_set_the_picker(home):
    write_config(home, 'name = "Ann"\ngame = "big-two"\nplayers = 3\nai_level = "easy"\n')
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("n")
        picker = await settled_picker(pilot, "big-two", 3)
        names = [i.value for i, _ in picker.seat_inputs]
        kinds = [k.value for _, k in picker.seat_inputs]
        assert names[0] == "Ann" and kinds == ["human", "ai:easy", "ai:easy"]
        await wait_for_text(pilot, "Big Two")


async def test_name_players_and_ai_level_set_a_table_from_the_command_line(home):
    write_config(home, 'name = "Ann"\nplayers = 3\nai_level = "hard"\n')
    app = make_app("big-two", seed=12, ai_pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_human(pilot)
        seats = app.session.seats
        assert [s.name for s in seats][0] == "Ann" and len(seats) == 3
        assert [s.level for s in seats if s.is_ai] == ["hard", "hard"]
        await wait_for_text(pilot, "Ann")


async def test_the_name_is_offered_when_joining(home):
    from textual.widgets import Input

    from twos_tui.ui.screens.join import JoinScreen

    write_config(home, 'name = "Ann"\n')
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("j")
        join = await wait_for_screen(pilot, JoinScreen)
        assert join.query_one("#join-name", Input).value == "Ann"


def test_join_on_the_command_line_takes_the_name_from_the_file(home, monkeypatch, capsys):
    from twos_tui import cli
    from twos_tui.play.net import client

    write_config(home, 'name = "Ann"\n')
    asked = []

    def connect(host, port, code, name=None, watch=False):
        asked.append(name)
        raise client.JoinError("no table here")

    monkeypatch.setattr(client.RemoteSeatView, "connect", staticmethod(connect))
    assert cli.main(["join", "127.0.0.1:7", "ABCD"]) == 2
    assert cli.main(["join", "127.0.0.1:7", "ABCD", "--name", "Bo"]) == 2
    assert asked == ["Ann", "Bo"]
    assert "no table here" in capsys.readouterr().err


async def test_pace_trick_pause_hints_and_tips_from_the_file_reach_the_app(home):
    write_config(
        home, 'ai_pace = "slow"\ntrick_pause = "key"\nhint_level = "normal"\ntips = false\n'
    )
    app = make_app(ai_pause=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        assert app.pace() == st.PACES["slow"]
        assert app.trick_hold() is None
        assert app.settings.hint_level == "normal"
        assert not app.settings.tip_due("first-lead")


def test_the_home_screen_and_help_start_without_tomlkit(home):
    """tomlkit is loaded only to write the file (tomllib reads it)."""
    code = (
        "import sys\nfrom twos_tui.play import settings\nsettings.load()\n"
        "print('tomlkit' in sys.modules, 'tomllib' in sys.modules)"
    )
    write_config(home, EVERY_KEY)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "TWOS_TUI_HOME": str(home)},
    ).stdout
    assert out.split() == ["False", "True"]
