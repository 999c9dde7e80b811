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
