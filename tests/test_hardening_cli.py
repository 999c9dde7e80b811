"""Issue 9, case 12: command lines out of range get a clear message and exit status 2;
odds stays interactive (sizes bounded); a 300-digit seed works."""

from __future__ import annotations

import json

import pytest

from twos_tui.cli import build_parser, main
from twos_tui.odds_cli import MAX_HAND_LARGE_DECK, check_sizes


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def no_app(monkeypatch):
    """The app must never start for a bad command line: fail loudly if it would."""
    import twos_tui.ui.app as app_mod

    def boom(*a, **kw):
        raise AssertionError("the app was started")

    monkeypatch.setattr(app_mod, "make_app", boom)


def exit_code(argv) -> int:
    try:
        return main(argv)
    except SystemExit as e:  # argparse's own errors
        return e.code


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["play", "twos", "--players", "0"], "--players"),
        (["play", "twos", "--players", "1"], "Twos is for 2 or 3 players, not 1"),
        (["play", "big-two", "--players", "9"], "--players"),
        (["play", "twos", "--players", "-3"], "--players"),
        (["play", "hearts"], "invalid choice: 'hearts'"),
        (["play", "twos", "--seed", "x"], "not a whole number"),
        (["play", "twos", "--seed", "9" * 401], "at most 400 digits"),
        (["bench", "--variant", "twos", "--players", "0"], "--players"),
        (["bench", "--variant", "twos", "--players", "5", "--games", "1"], "not 5"),
        (["bench", "--variant", "twos", "--games", "-5"], "--games"),
        (["bench", "--variant", "twos", "--games", "0"], "--games"),
        (["bench", "--variant", "nosuch", "--games", "1"], "unknown variant"),
        (["odds", "--hand-size", "500", "--deck", "infinite"], "at most 60"),
        (["odds", "--hand-size", "150", "--deck", "infinite"], "at most 60"),
        (["odds", "--hand-size", "13", "--deck", "decks:10000000", "--simulate", "1"], "decks"),
        (["odds", "--hand-size", "61", "--deck", "decks:9"], "at most 60"),
        (["odds", "--hand-size", "13", "--simulate", "100000000"], "--simulate"),
        (["odds", "--hand-size", "-1"], "at least 1"),
    ],
)
def test_bad_command_lines_exit_2_with_a_message(argv, needle, capsys, no_app):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert needle in err, err


def test_the_odds_limits_leave_every_hand_of_a_few_decks():
    check_sizes(416, "decks:8", 0)  # eight decks: any hand that fits
    check_sizes(MAX_HAND_LARGE_DECK, "infinite", 1000)
    with pytest.raises(ValueError):
        check_sizes(MAX_HAND_LARGE_DECK + 1, "infinite", 0)


def test_a_300_digit_seed_is_accepted_and_benches(capsys):
    seed = "7" * 300
    assert build_parser().parse_args(["play", "twos", "--seed", seed]).seed == int(seed)
    assert main(["bench", "--variant", "twos", "--games", "2", "--seed", seed, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
