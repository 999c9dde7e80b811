"""The turn clock of a hosted table (issue 30): the ``--clock`` setting, a seat's time
counting down (the move's own seconds, then the bank), and what happens when it runs
out — a pass where passing is legal, else the AI's move — each said in the log and
charged to the bank, which does not refill. Time is moved by hand (the table's ``now``),
never slept; the table's loop timers are only woken."""

from __future__ import annotations

import asyncio

import pytest
from net_helpers import PLAYERS, SHORT, LeakWatch, join, live_server, until

from twos_tui.engine.protocol import PASS
from twos_tui.play.net import messages as M
from twos_tui.play.net import protocol as P
from twos_tui.play.net.client import TableClient
from twos_tui.play.net.server import HostedTable
from twos_tui.play.turn_clock import ClockState, SeatClock, mmss, parse_clock


# ----- the rule and the countdown ---------------------------------------------------------
def test_the_clock_setting_reads_seconds_plus_bank_or_off() -> None:
    assert parse_clock("20+120") == (20.0, 120.0)
    assert parse_clock(" 5+10 ") == (5.0, 10.0)
    assert parse_clock("30") == (30.0, 0.0)
    assert parse_clock("off") is None
    for bad, words in (
        ("soon", "SECONDS.BANK"),
        ("20+", "SECONDS.BANK"),
        ("0+120", "a move's time is from 1"),
        ("20+-5", "the bank is from 0"),
        ("20+999999", "the bank is from 0"),
        ("nan+1", "numbers"),
    ):
        with pytest.raises(ValueError, match=words) as e:
            parse_clock(bad)
        assert "\n" not in str(e.value)


def test_a_running_seat_uses_its_move_time_then_its_bank() -> None:
    c = SeatClock(running=True, move_left=20.0, bank_left=120.0)
    assert c.text() == "0:20 +2:00"
    assert c.after(6.5).text() == "0:14 +2:00"  # (rounded up: 13.5 s left shows 0:14)
    assert c.after(28).text() == "0:00 +1:52"
    assert c.after(500) == SeatClock(running=True, move_left=0.0, bank_left=0.0)
    waiting = SeatClock(move_left=20.0, bank_left=75.0)
    assert waiting.after(30) == waiting and waiting.text() == "bank 1:15"
    assert SeatClock(timed=False).text() == ""
    assert mmss(0.2) == "0:01" and mmss(0) == "0:00" and mmss(61) == "1:01"
    table = ClockState(per_move=20, bank=120, seats=(c, waiting))
    assert table.after(10).seats == (c.after(10), waiting)
    assert table.rule == "20+120" and table.text(1) == "bank 1:15" and table.text(5) == ""


def test_a_states_clock_goes_over_the_wire_and_is_checked_at_the_door() -> None:
    table = HostedTable.create(
        "twos", ["human", "remote", "ai"], seed=3, autosave=False, clock=(20, 120)
    )
    state, _ = table.state_for(1)
    assert state.clock is not None and len(state.clock.seats) == 3
    wire = state.to_json()
    assert wire["clock"] == {
        "per_move": 20.0,
        "bank": 120.0,
        "seats": [
            {"timed": True, "running": False, "move_left": 20.0, "bank_left": 120.0},
            {"timed": False, "running": False, "move_left": 0.0, "bank_left": 0.0},
            {"timed": False, "running": False, "move_left": 0.0, "bank_left": 0.0},
        ],
    }  # (seat 1 is nobody's yet; seat 2 is the AI's: no clock)
    back = P.decode_server(P.encode(state))
    assert isinstance(back, M.State) and back.clock == state.clock
    for bad in (
        "soon",
        {"per_move": "20", "bank": 120, "seats": wire["clock"]["seats"]},  # type: ignore[index]
        {"per_move": 20, "bank": -1, "seats": wire["clock"]["seats"]},  # type: ignore[index]
        {"per_move": 20, "bank": 120, "seats": []},  # not one per seat
        {"per_move": 20, "bank": 120, "seats": [{"bank_left": True}] * 3},
    ):
        with pytest.raises(M.Unreadable):
            M.State.from_json({**wire, "clock": bad})
    no_clock = HostedTable.create("twos", ["human", "remote", "ai"], seed=3, autosave=False)
    state, _ = no_clock.state_for(1)
    assert state.clock is None and "clock" not in state.to_json()
    no_clock.close()
    table.close()


# ----- time running out, moved by hand ----------------------------------------------------
class Hand:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def settle(table: HostedTable, cond, what: str) -> None:
    """Wake the table (as its loop timer would) and wait for ``cond``."""
    table._schedule()
    await until(cond, what, timeout=30)


def clocked(now: Hand, kinds: list[str], clock=(20.0, 30.0), **kw) -> HostedTable:
    """A seeded Twos table whose people are the host's (no network): seat 1 leads."""
    table = HostedTable.create(
        "twos",
        kinds,
        options=SHORT["twos"],
        seed=3,
        level="easy",
        autosave=False,
        ai_pause=0,
        now=now,
        clock=clock,
        **kw,
    )
    table.attach(asyncio.get_running_loop())
    return table


def net_lines(table: HostedTable) -> list[str]:
    return [e["text"] for e in table.game.history if e.get("kind") == "net"]


async def test_a_lead_out_of_time_is_played_by_the_ai_and_the_bank_is_spent() -> None:
    now = Hand()
    table = clocked(now, ["human", "human", "ai"])
    g = table.game
    await settle(table, lambda: 1 in table.turns, "seat 1's turn")
    assert g.to_act() == (1,) and g.check(1, PASS) is not None  # a lead: no pass
    clock = table.clock_state()
    assert clock is not None and clock.text(1) == "0:20 +0:30" and clock.text(0) == "bank 0:30"
    assert clock.text(2) == ""  # the AI's seat has no clock
    now.t += 25  # the move's 20 s and 5 s of the bank
    await settle(table, lambda: True, "a wake")
    clock = table.clock_state()
    assert clock is not None and clock.text(1) == "0:00 +0:25" and not g.actions
    now.t += 25  # and the bank's last 25 s
    await settle(table, lambda: g.actions, "the move made for seat 1")
    assert g.actions[0][0] == 1
    assert net_lines(table) == ["Player 2 ran out of time: the AI played 3♣ 3♦ for them."]
    texts = [e["text"] for e in g.history]
    at = texts.index(net_lines(table)[0])
    assert texts[at + 1] == "Player 2 plays pair 3♣ 3♦"  # the note, then the move itself
    await until(lambda: 1 not in table.turns, "seat 1's turn over")
    assert table.bank_left(1) == 0.0  # spent, and it does not come back
    table.close()


async def test_a_seat_out_of_time_passes_where_it_may_and_a_move_in_time_costs_no_bank() -> None:
    now = Hand()
    table = clocked(now, ["human", "human", "ai"])
    g = table.game
    await settle(table, lambda: 1 in table.turns, "seat 1's turn")
    now.t += 26  # seat 1 plays after 26 s: 6 s of its bank
    table.apply(1, table.session.ai_choose(1), remote=False)
    await settle(table, lambda: 0 in table.turns, "seat 0's turn (after the AI's)")
    assert table.bank_left(1) == pytest.approx(24.0)
    clock = table.clock_state()
    assert clock is not None and clock.text(0) == "0:20 +0:30" and clock.text(1) == "bank 0:24"
    assert g.check(0, PASS) is None  # seat 0 may pass here
    n = len(g.actions)
    now.t += 49.9
    await settle(table, lambda: True, "a wake")
    assert len(g.actions) == n  # a tenth of a second left
    now.t += 0.2
    await settle(table, lambda: len(g.actions) > n, "the pass made for seat 0")
    assert g.actions[n] == (0, PASS.to_json())
    assert net_lines(table) == ["Player 1 ran out of time: passed for them."]
    await until(lambda: table.bank_left(0) == 0.0, "seat 0's bank spent")
    # seat 1's next turn has the whole move time again, and the bank it kept
    await settle(table, lambda: 1 in table.turns, "seat 1's next turn")
    clock = table.clock_state()
    assert clock is not None and clock.text(1) == "0:20 +0:24"
    table.close()


async def test_no_clock_runs_before_every_seat_has_a_player_nor_for_the_ai() -> None:
    now = Hand()
    table = clocked(now, ["human", "remote", "ai"], hold_s=1e6)
    await settle(table, lambda: True, "a wake")
    assert not table.turns
    clock = table.clock_state()
    assert clock is not None and [s.timed for s in clock.seats] == [True, False, False]
    now.t += 10_000
    await settle(table, lambda: True, "a wake")
    assert not table.game.actions  # nobody moves before the remote seat is taken
    table.close()


async def test_a_dropped_seats_clock_runs_on_while_it_is_held() -> None:
    """The host moves for a held seat whose time runs out, and the seat stays held (its
    hold still decides when the AI takes it over)."""
    now = Hand()
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos",
                ["ai", "remote", "ai"],
                options=SHORT["twos"],
                seed=3,
                level="easy",
                autosave=False,
                ai_pause=0,
                now=now,
                clock=(5.0, 10.0),
                hold_s=120.0,
            )
        )
        friend = await join(server, table, "Ana")
        await until(lambda: 1 in table.turns, "Ana's turn")
        await friend.drop()
        rs = table.seats[1]
        await until(lambda: rs.conn is None, "the drop")
        now.t += 15.5
        await settle(table, lambda: table.game.actions, "the move made for the held seat")
        assert net_lines(table) == ["Ana ran out of time: the AI played 3♣ 3♦ for them."]
        assert not rs.taken_over and table.hold_left(rs) > 100  # still held for Ana
        await friend.close()


async def test_a_joined_seats_time_runs_out_and_its_player_is_told() -> None:
    """Over the network: the joined player's states carry its clock counting down; when
    it runs out, the move is made for it, the log it receives says so, and its bank
    reads empty."""
    now = Hand()
    async with live_server() as server:
        table = server.add(
            HostedTable.create(
                "twos",
                ["remote", "ai", "ai"],
                options=SHORT["twos"],
                seed=5,
                level="easy",
                autosave=False,
                ai_pause=0,
                now=now,
                clock=(5.0, 10.0),
            )
        )
        ana = await join(server, table, "Ana")

        def my_clock() -> SeatClock | None:
            st = ana.state
            return st.clock.seats[0] if st is not None and st.clock is not None else None

        await until(lambda: ana.state and ana.state.decision is not None, "Ana's turn")
        c = my_clock()
        assert c is not None and c.running and c.text() == "0:05 +0:10"
        n = ana.state.n
        now.t += 7
        await settle(table, lambda: (c := my_clock()) and c.text() == "0:00 +0:08", "8 s left")
        now.t += 8
        await settle(table, lambda: ana.state.n > n, "the move made for Ana")
        lines = [e.text for e in ana.log]
        said = [t for t in lines if t.startswith("Ana ran out of time: ")]
        assert len(said) == 1, lines
        assert said[0] == "Ana ran out of time: passed for them." or said[0].startswith(
            "Ana ran out of time: the AI played "
        ), lines
        await until(lambda: (c := my_clock()) and c.bank_left == 0.0, "Ana's bank empty")
        await ana.close()


async def test_secret_choices_out_of_time_are_made_one_by_one_and_name_no_card() -> None:
    """2v1: each seat out of time passes its bid (nobody bids); then all three choose,
    at once and in secret, the cards to pass left, and all run out together: the AI
    chooses for each in turn, and the log names none of the cards."""
    now = Hand()
    table = HostedTable.create(
        "2v1",
        ["human"] * 3,
        options=SHORT["2v1"],
        seed=2,
        level="easy",
        autosave=False,
        ai_pause=0,
        now=now,
        clock=(5.0, 0.0),
    )
    table.attach(asyncio.get_running_loop())
    g = table.game
    bidders = []
    for bids in range(1, 4):
        await settle(table, lambda: len(table.turns) == 1, "one seat's turn to bid")
        bidders += list(table.turns)
        now.t += 5.5
        await settle(table, lambda b=bids: len(g.actions) == b, "the pass made for it")
    await settle(table, lambda: len(table.turns) == 3, "the three seats' secret choice")
    hands = {s: set(g.observe(s).hand) for s in range(3)}
    now.t += 5.5
    await settle(table, lambda: len(g.actions) == 6, "the three choices made for them")
    names = g.names
    assert net_lines(table)[:3] == [
        f"{names[s]} ran out of time: passed for them." for s in bidders
    ]
    assert sorted(net_lines(table)[3:]) == sorted(
        f"{name} ran out of time: the AI chose their move for them." for name in names
    )
    labels = {g.card_face(c).label for cards in hands.values() for c in cards}
    assert not [line for line in net_lines(table) if any(label in line for label in labels)]
    table.close()


class Running:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.t, self.step = 1000.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PLAYERS))
async def test_moves_made_out_of_time_show_no_hidden_card(variant, tmp_path, monkeypatch):
    """The leak check over a deal where the joined players never move: every move of
    theirs is made out of time (passes and the AI's moves, each with its log line); no
    message to a player or a spectator shows a card it may not see."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    watch = LeakWatch()
    async with live_server(rate=1000, burst=1000) as server:
        server.send_hook = watch
        kinds = ["remote"] * PLAYERS[variant]
        kinds[-1] = "ai"
        table = server.add(
            HostedTable.create(
                variant,
                kinds,
                options=SHORT[variant],
                seed=1,
                level="easy",
                autosave=False,
                ai_pause=0.0,
                now=Running(2.0),  # each look at the clock: 2 s later
                clock=(1.0, 0.0),
            )
        )
        players = []
        for i in range(len(kinds) - 1):
            c = await join(server, table, f"P{i}")
            c.raw_hook = watch.client_hook(table, c)
            players.append(c)
        rail = TableClient(
            "127.0.0.1", server.port, table.code, "Rail", retry_delays=(), role="watch"
        )
        await rail.open()
        rail.raw_hook = watch.client_hook(table, rail)
        g = table.game

        def moved_on() -> bool:
            table._schedule()  # (as the table's timer would, at once)
            return g.deal_over or len(net_lines(table)) >= 30

        await until(moved_on, "a deal played out of time", timeout=120)
        lines = net_lines(table)
        assert lines and all(" ran out of time: " in line for line in lines)
        await until(lambda: all(c.state and c.state.n == len(g.actions) for c in players), "news")
        for c in [*players, rail]:
            await c.close()
    assert watch.findings == []
    assert watch.check_clients() > 10
