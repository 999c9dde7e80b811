"""``twos-tui host`` / ``join``: their arguments, one-line refusals with exit status 2."""

from __future__ import annotations

import logging

import pytest

from twos_tui.cli import main
from twos_tui.net_cli import parse_address, result_line, seat_kinds
from twos_tui.play.logs import STDERR_HANDLER


def test_addresses() -> None:
    assert parse_address("example.org") == ("example.org", 7417)
    assert parse_address("10.0.0.5:9000") == ("10.0.0.5", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("[::1]") == ("::1", 7417)
    for bad in ("host:port", ":80", "h:70000", "[::1]x"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_seat_kinds() -> None:
    assert seat_kinds(None, None, False, 4) == ["human", "remote", "remote", "remote"]
    assert seat_kinds(3, None, True, 4) == ["remote"] * 3
    assert seat_kinds(None, "human,remote,ai", False, 4) == ["human", "remote", "ai"]
    for args in ((2, "remote,ai,ai", False), (None, "human,ai", False), (None, "me,ai", False),
                 (None, "human,remote", True)):  # fmt: skip
        with pytest.raises(ValueError):
            seat_kinds(*args, 4)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["join", "127.0.0.1:1", "ABCD-EFGH"], "Could not reach 127.0.0.1:1"),
        (["join", "127.0.0.1:1", "ABCD-EFGH", "--bot", "easy"], "Could not reach"),
        (["join", "127.0.0.1:x", "ABCD-EFGH"], "is not a port number"),
        (["join", "127.0.0.1:1", "C", "--bot", "wizard"], "unknown AI level"),
        (["host", "twos", "--headless", "--seats", "human,remote"], "has no screen"),
        (["host", "twos", "--seats", "ai,ai"], "at least one remote seat"),
        (["host", "big-two-5r", "--headless", "--players", "3"], "is for 4 players"),
        (["host", "twos", "--headless", "--option", "x"], "KEY=VALUE"),
        (["host", "twos", "--headless", "--bind", "256.1.1.1", "--new"], "cannot listen on"),
    ],
)
def test_bad_arguments_say_one_line_and_exit_2(argv, words, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and words in err[-1] and "Traceback" not in "\n".join(err)
    # the headless host's commentary on stderr stops with it (it once stayed: a later
    # command in the same process printed the log's lines before its own first line)
    assert not [h for h in logging.getLogger().handlers if h.get_name() == STDERR_HANDLER]


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ("20+x", "a turn clock is SECONDS+BANK, e.g. 20+120, or off (got '20+x')"),
        ("0+120", "a move's time is from 1 to 86400 seconds (got 0)"),
        ("20+-1", "the bank is from 0 to 86400 seconds (got -1)"),
    ],
)
def test_a_bad_clock_says_one_line_and_exits_2(clock, words, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as e:
        main(["host", "twos", "--clock", clock])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--clock" in err[0] and words in err[0], err


def test_the_clock_reaches_the_table_and_a_reopened_table_keeps_it(tmp_path, monkeypatch):
    """``--clock 5+10`` makes the table's turn clock; off by default; the rule is kept
    in the table's file, so the host restarted with the same command has it again."""
    from twos_tui.cli import build_parser
    from twos_tui.net_cli import build_hosted
    from twos_tui.play.net.server import HostedTable

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    parser = build_parser("host")
    table, _server, _seat = build_hosted(
        parser.parse_args(["host", "twos", "--headless", "--clock", "5+10", "--new"])
    )
    assert table.turn_clock == (5.0, 10.0)
    save_id = table.session.save_id
    table.close()
    table.session.close()
    again = HostedTable.reopen(save_id)
    assert again.turn_clock == (5.0, 10.0)
    again.close()
    again.session.close()
    plain, _server, _seat = build_hosted(parser.parse_args(["host", "twos", "--headless", "--new"]))
    assert plain.turn_clock is None and plain.clock_state() is None
    plain.close()
    plain.session.close()


def test_the_bot_says_one_line_at_the_end() -> None:
    st = {
        "match_over": True,
        "seat": 1,
        "totals": [1, 0, 3],
        "seats": [{"name": "Ana"}, {"name": "Bot"}, {"name": "Cy"}],
        "observation": {"variant": "twos", "players": 3, "options": {}},
    }
    line = result_line(st)
    assert line.startswith("Match over (Bot played seat 2): Ana 1, Bot 0, Cy 3 · won by ")
    assert line.endswith("won by Cy")  # the most points wins


def test_the_bots_line_reads_an_odd_state_without_failing() -> None:
    """The last state is JSON from the host: each field is narrowed before use, so a
    missing or odd one leaves that part out of the line instead of ending the bot."""
    assert result_line({}) == "Left the table: "
    st = {
        "match_over": True,
        "seat": "1",  # not a seat number: seat 1 is assumed
        "totals": [4, "x", 2],
        "seats": [{"name": "Ana"}, "Bot"],
        "observation": {"variant": "no-such-game", "players": 2},
    }
    assert result_line(st) == "Match over (Ana played seat 1): Ana 4, Seat 2 2"
