"""The command line: ``python -m twos_tui`` runs it, and ``play`` knows its games."""

from __future__ import annotations

import runpy
import sys

import pytest

from twos_tui import __version__
from twos_tui.cli import build_parser
from twos_tui.engine import VARIANT_IDS


def test_python_m_twos_tui_runs_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["twos_tui", "--version"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("twos_tui", run_name="__main__")
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"twos-tui {__version__}"


def test_play_usage_lists_every_game(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    usage = capsys.readouterr().out
    assert "{" + ",".join(VARIANT_IDS) + "}" in usage


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_play_accepts_every_game(variant):
    args = build_parser().parse_args(["play", variant, "--players", "3", "--seed", "7"])
    assert (args.variant, args.players, args.seed) == (variant, 3, 7)


def test_play_refuses_an_unknown_game_and_names_the_valid_ones(capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["play", "poker"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'poker'" in err
    assert all(v in err for v in VARIANT_IDS)


# ----- play --help: each game's player counts; --seats ---------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from twos_tui import cli  # noqa: E402
from twos_tui.engine import variant_class  # noqa: E402


def test_count_words():
    assert cli.count_words((4,)) == "4"
    assert cli.count_words((2, 3)) == "2 or 3"
    assert cli.count_words((2, 3, 4)) == "2 to 4"
    assert cli.count_words((2, 4, 6)) == "2, 4 or 6"


def _play_help(capsys) -> str:
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


def test_play_help_gives_each_games_own_player_counts(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = _play_help(capsys)
    assert "1 to 8" not in out
    lines = out.splitlines()
    for v in VARIANT_IDS:
        cls = variant_class(v)
        (line,) = [ln for ln in lines if ln.split()[:1] == [v]]
        assert line.split(None, 1)[1].startswith(cli.count_words(cls.player_counts)), line
        if len(cls.player_counts) > 1:
            assert f"(usually {cls.default_players})" in line
    # in words, as the engine says: Twos 2 or 3, Big Two 2 to 4, 2v1 only 3
    assert any(ln.split() == ["twos", "2", "or", "3", "(usually", "3)"] for ln in lines)
    assert any(ln.split() == ["big-two", "2", "to", "4", "(usually", "4)"] for ln in lines)
    assert any(ln.split() == ["2v1", "3"] for ln in lines)
    assert "--seats SEATS" in out and 'Ann=human,Bob=human,ai:hard"' in out


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        ("human,ai,ai", [(None, "human", None), (None, "ai", None), (None, "ai", None)]),
        ("Ann=human,Bob=human,ai",
         [("Ann", "human", None), ("Bob", "human", None), (None, "ai", None)]),
        (" Ann = Human , ai:HARD ", [("Ann", "human", None), (None, "ai", "hard")]),
        ("Mary  Lou=ai:easy,human", [("Mary Lou", "ai", "easy"), (None, "human", None)]),
        ("ai,ai,ai", [(None, "ai", None)] * 3),
    ],
)  # fmt: skip
def test_seats_good_values(text, seats):
    assert cli.parse_seats(text) == seats
    args = cli.build_parser("play").parse_args(["play", "twos", "--seats", text])
    assert args.seats == seats


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--seats", "human,robot,ai"], "seat 2 must be human, ai or ai:LEVEL, not 'robot'"),
        (["--seats", "ai:genius,human,ai"], "seat 1: an AI's level is easy, normal or hard"),
        (["--seats", "human,,ai"], "seat 2 is empty"),
        (["--seats", ","], "seat 1 is empty"),
        (["--seats", "  "], "give one seat or more"),
        (["--seats", "=human,ai"], "seat 1: a name goes before the ="),
        (["--seats", "Ann=human,ann=ai,ai"], "two seats are named 'ann'"),
        (["--seats", "Ann=Bob=human,ai"], "seat 1 must be"),
        (["--seats", "human:hard,ai"], "seat 1 must be"),
        (["--seats", "A" * 17 + "=human,ai"], "is too long (at most 16 characters)"),
        (["--seats", "An\x1bn=human,ai"], "has characters a name cannot have"),
        (
            ["--seats", "human,ai", "--players", "3"],
            "argument --seats: it gives 2 seats but --players is 3",
        ),
        (["--seats", "human,ai,ai,ai"], "argument --seats: Twos is for 2 or 3 players, not 4"),
        (["--seats", "human"], "Twos is for 2 or 3 players, not 1"),
        (["--players", "4"], "Twos is for 2 or 3 players, not 4"),
        (["--players", "9"], "argument --players: Twos is for 2 or 3 players, not 9"),
        (["--players", "0"], "argument --players: must be at least 1 (got 0)"),
        (["--seats", "Ada=human,ai,ai"], None),  # an AI takes the next free name: fine
    ],
)
def test_seats_bad_values_are_one_clear_line(argv, said, capsys, monkeypatch):
    started = []
    monkeypatch.setattr("twos_tui.ui.app.run_app", lambda **kw: started.append(kw) or 0)
    if said is None:
        assert cli.main(["play", "twos", *argv]) == 0
        names = [s.name for s in started[0]["seats"]]
        assert names == ["Ada", "Bram", "Cleo"]
        return
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "twos", *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("twos-tui play: error:")
    assert said in err, err
    assert "\x1b" not in err
    assert not started


def test_seats_reach_the_app_with_names_kinds_and_levels(monkeypatch):
    started = []
    monkeypatch.setattr("twos_tui.ui.app.run_app", lambda **kw: started.append(kw) or 0)
    argv = ["play", "big-two", "--seats", "Ann=human,ai:easy,Bob=human,Cy=ai:hard", "--seed", "3"]
    assert cli.main(argv) == 0
    (kw,) = started
    assert (kw["variant"], kw["players"], kw["seed"]) == ("big-two", None, 3)
    got = [(s.name, s.kind, s.level if s.kind == "ai" else "") for s in kw["seats"]]
    assert got == [
        ("Ann", "human", ""),
        ("Ada", "ai", "easy"),
        ("Bob", "human", ""),
        ("Cy", "ai", "hard"),
    ]


@given(st.text(max_size=60))
def test_any_seats_text_is_seats_or_a_clear_refusal(text):
    try:
        seats = cli.parse_seats(text)
    except ValueError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 200
        return
    assert 1 <= len(seats) == len(text.split(","))
    for name, kind, level in seats:
        assert kind in ("human", "ai")
        assert level is None or (kind == "ai" and level in ("easy", "normal", "hard"))
        assert name is None or (name.strip() == name and 0 < len(name) <= 16)
    named = [n.casefold() for n, _, _ in seats if n]
    assert len(set(named)) == len(named)


NAME = st.text(
    st.characters(whitelist_categories=("L", "N"), max_codepoint=0x2FF), min_size=1, max_size=8
)
SEAT = st.tuples(
    st.one_of(st.none(), NAME),
    st.sampled_from(["human", "ai", "ai:easy", "ai:normal", "ai:hard"]),
)


@given(st.lists(SEAT, min_size=1, max_size=8, unique_by=lambda s: (s[0] or "").casefold() or id(s)))
def test_seats_written_out_read_back(seats):
    text = ",".join(f"{n}={k}" if n else k for n, k in seats)
    got = cli.parse_seats(text)
    want = [(n, k.partition(":")[0], k.partition(":")[2] or None) for n, k in seats]
    assert got == want


async def test_a_hot_seat_table_starts_from_seats_with_those_names_and_kinds(monkeypatch, tmp_path):
    from ui_helpers import flat, region_text, screen_text, wait_for

    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.dialogs import PassScreen
    from twos_tui.ui.screens.table import TableScreen

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    args = cli.build_parser("play").parse_args(
        ["play", "twos", "--seats", "Ann=human,Bob=human,ai:hard", "--seed", "5"]
    )
    seats = cli.play_seats(args.variant, args.players, args.seats)
    app = make_app(args.variant, args.players, args.seed, ai_pause=0, seats=seats)
    async with app.run_test(size=(80, 24)) as pilot:
        # hot-seat: the screen is handed to Ann or Bob first
        await wait_for(pilot, lambda: isinstance(app.screen, PassScreen), "the pass screen")
        who = app.screen.player_name
        assert who in ("Ann", "Bob")
        assert f"Pass to {who}" in screen_text(app)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, TableScreen) and app.screen._decision is not None,
            "the person's turn at the table",
        )
        table = app.screen
        assert isinstance(table, TableScreen) and table.table.hot_seat
        session = table.session
        assert [(s.name, s.kind) for s in session.seats] == [
            ("Ann", "human"),
            ("Bob", "human"),
            ("Ada", "ai"),
        ]
        assert session.seats[2].level == "hard"
        assert session.game.names == ["Ann", "Bob", "Ada"]
        assert session.game.seed == 5
        score = flat(region_text(app, table.query_one("#score")))
        assert "Ann" in score and "Bob" in score and "Ada" in score
        assert table.game.names[table.viewer] == who  # the hand shown is the one handed to
