"""The command line's help and its weight (issue 20 items 4 and 7): every option says what
it does, ``--help`` and the home screen's start import only what they need, and the light
stand-ins of the commands not being run agree with their real parsers."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from twos_tui import cli
from twos_tui.cli import ALL, COMMAND_HELP, COMMAND_PARSERS, build_parser, command_in


def _walk(parser: argparse.ArgumentParser, path: list[str]):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, [*path, name])
        else:
            yield path, action


#: options hidden from --help on purpose: ``join --guest`` (and ``--no-key``, a guest
#: without a key in the lobby) is what the SSH door starts
#: its clients with (leaving the table ends the program), not something a person types
HIDDEN = {"twos-tui join --guest", "twos-tui join --no-key"}


def test_every_option_and_argument_has_help():
    missing = [
        name
        for path, action in _walk(build_parser(), ["twos-tui"])
        if (name := f"{' '.join(path)} {'/'.join(action.option_strings) or action.dest}")
        not in HIDDEN
        and (not action.help or action.help == argparse.SUPPRESS)
    ]
    assert not missing, "no help text: " + ", ".join(missing)
    n = sum(1 for _ in _walk(build_parser(), ["twos-tui"]))
    assert n > 60  # (the walk reaches every subcommand's options, sub-subcommands too)


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a.help for a in sub._choices_actions}


def test_the_listing_is_the_same_light_or_full():
    full = _subcommands(build_parser(ALL))
    assert full == COMMAND_HELP  # each module's own help is the one listed
    assert set(COMMAND_PARSERS) == set(COMMAND_HELP)
    for command in [None, *COMMAND_HELP]:
        assert _subcommands(build_parser(command)) == full


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "twos", "--players", "3", "--seed", "7"],
        ["bench", "--variant", "twos", "--games", "3", "--json"],
        ["arena", "--variant", "twos", "--seats", "easy,easy,easy", "--deals", "3"],
        ["odds", "--hand-size", "5", "--json"],
        ["stats", "--json"],
        ["replay", "last"],
        ["export", "csv", "-o", "x.csv"],
        ["serve", "--port", "8001"],
        ["host", "twos", "--headless", "--port", "0"],
        ["join", "127.0.0.1:7417", "ABCD"],
    ],
)
def test_a_command_parses_the_same_with_only_its_parser_built(argv):
    assert command_in(argv) == argv[0]
    light = build_parser(command_in(argv)).parse_args(argv)
    assert vars(light) == vars(build_parser().parse_args(argv))


def test_command_in():
    assert command_in([]) is None
    assert command_in(["--help"]) is None
    assert command_in(["--version"]) is None
    assert command_in(["-h", "arena"]) == "arena"
    assert command_in(["--", "play"]) == "play"
    assert command_in(["plya"]) == "plya"


def test_an_unknown_command_is_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["plya"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'plya'" in err and len(err.strip().splitlines()) == 1


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


HEAVY = ("twos_tui.engine", "twos_tui.ai", "twos_tui.play", "textual", "rich", "asyncio",
         "sqlite3", "typing", "shutil")  # fmt: skip


def test_help_imports_nothing_heavy():
    code = (
        "import contextlib, io\nfrom twos_tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])"
    )
    loaded = _modules_after(code)
    assert not [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_a_command_imports_only_its_own_module():
    code = (
        "import contextlib, io\nfrom twos_tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['odds', '--help'])"
    )
    loaded = _modules_after(code)
    assert "twos_tui.arena" not in loaded and "twos_tui.net_cli" not in loaded
    assert "twos_tui.serve" not in loaded and "twos_tui.history_cli" not in loaded
