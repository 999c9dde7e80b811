"""The turn clock as people see it (issue 30): on a joined player's screen the box of the
seat to act counts down each second (``0:14 +1:52``: the move's time, then the bank),
the other seats show their bank, and the player's own clock is on the line above the
hand; the host's own screen shows the same, and counts down between changes. A snapshot
at 80×24 shows a seeded hosted table with a clock (the time held still by hand)."""

from __future__ import annotations

import asyncio
import re

from net_helpers import SHORT, join, live_server
from textual.widgets import Static
from ui_helpers import flat, wait_for

from twos_tui.play.net import messages as M
from twos_tui.play.net.client import RemoteSeatView
from twos_tui.play.net.host_view import HostSeatView
from twos_tui.play.net.server import HostedTable, TableServer
from twos_tui.ui.app import make_app
from twos_tui.ui.hosting import joined_view
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import SeatPanel

CLOCK = re.compile(r"(\d+:\d\d) \+(\d+:\d\d)")


def box_of(app, name: str) -> str:
    """The text of the seat box titled ``name`` (the opponents' row), as drawn."""
    for panel in app.screen.query(SeatPanel):
        if panel.display and name in str(panel.border_title):
            return flat(str(panel.render()))
    return ""


def prompt_of(app) -> str:
    return flat(str(app.screen.query_one("#prompt", Static).render()))


def clocked_table(now=None, **kw) -> HostedTable:
    extra = {"now": now} if now is not None else {}
    return HostedTable.create(
        "twos",
        kw.pop("kinds", ["remote", "remote", "ai"]),
        kw.pop("names", None),
        options=SHORT["twos"],
        seed=3,
        level="easy",
        autosave=False,
        ai_pause=0,
        clock=(30.0, 60.0),
        **extra,
        **kw,
    )


async def test_a_joined_screen_counts_down_the_seat_to_act_and_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    async with live_server() as server:
        table = server.add(clocked_table())
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False
        )
        bo = await join(server, table, "Bo")  # seat 1, who leads (seed 3)
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
                # Bo is to act: his box counts down from 0:30, his bank after the +
                first = await wait_for(
                    pilot, lambda: CLOCK.search(box_of(app, "Bo")), "Bo's clock running"
                )
                assert first.group(2) == "1:00"
                titles = [str(p.border_title) for p in app.screen.query(SeatPanel)]
                assert "▶ Bo" in titles  # (his turn)
                assert "Eve · dealer · bank 1:00" in prompt_of(app)  # Eve waits: her bank
                await wait_for(
                    pilot,
                    lambda: (m := CLOCK.search(box_of(app, "Bo"))) and m.group(1) < first.group(1),
                    "Bo's clock ticking down (no new state needed)",
                    timeout=30,
                )
                # Bo plays; the AI answers; Eve's own time runs, above her hand
                st = bo.state
                assert st is not None and st.legal
                await bo.request(M.Act(action=st.legal[0]))
                await wait_for(
                    pilot,
                    lambda: re.search(r"Eve · dealer · 0:\d\d \+1:00", prompt_of(app)),
                    "Eve's turn",
                )
                assert "bank 1:00" in box_of(app, "Bo")
                assert box_of(app, "Cleo") and "bank" not in box_of(app, "Cleo")  # the AI's
                mine = CLOCK.search(prompt_of(app))
                assert mine is not None
                await wait_for(
                    pilot,
                    lambda: (m := CLOCK.search(prompt_of(app))) and m.group(1) < mine.group(1),
                    "Eve's own clock ticking down",
                    timeout=30,
                )
        finally:
            await bo.close()
            await asyncio.to_thread(view.close)


async def test_a_spectator_sees_every_persons_clock(tmp_path, monkeypatch):
    """Watching: every seat is in the row of boxes; the person to act counts down, the
    other person shows a bank, the AI's box none."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    async with live_server() as server:
        table = server.add(clocked_table())
        ana = await join(server, table, "Ana")
        bo = await join(server, table, "Bo")  # seat 1 leads
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")

                def boxes() -> list[str]:
                    return [flat(str(p.render())) for p in app.screen.query(SeatPanel) if p.display]

                first = await wait_for(pilot, lambda: CLOCK.search(boxes()[1]), "Bo's clock")
                assert boxes()[0].endswith("bank 1:00")  # Ana's bank
                assert "bank" not in boxes()[2] and not CLOCK.search(boxes()[2])  # the AI's
                await wait_for(
                    pilot,
                    lambda: (m := CLOCK.search(boxes()[1])) and m.group(1) < first.group(1),
                    "Bo's clock ticking down on the spectator's screen",
                    timeout=30,
                )
        finally:
            await ana.close()
            await bo.close()
            await asyncio.to_thread(view.close)


class Hand:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t


async def test_the_hosts_screen_shows_the_clocks_and_counts_down_between_changes(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    now = Hand()
    table = clocked_table(now, kinds=["human", "remote", "ai"], names=["Hana"], drive_ai=False)
    server = TableServer()
    server.add(table)
    view = HostSeatView(table)
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.start_session(view)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        await server.start("127.0.0.1", 0)
        try:
            jo = await join(server, table, "Jo")  # seat 1: Jo leads
            await wait_for(pilot, lambda: "0:30 +1:00" in box_of(app, "Jo"), "Jo's clock")
            assert "Hana · dealer · bank 1:00" in prompt_of(app)
            now.t += 41  # nothing moves: the screen counts down by itself
            await wait_for(pilot, lambda: "0:00 +0:49" in box_of(app, "Jo"), "Jo in his bank")
            st = jo.state
            assert st is not None and st.legal
            await jo.request(
                M.Act(action=st.legal[0])
            )  # Jo moves with 49 s of bank left; the AI answers
            await wait_for(
                pilot, lambda: "Hana · dealer · 0:30 +1:00" in prompt_of(app), "Hana's turn"
            )
            assert "bank 0:49" in box_of(app, "Jo")
            now.t += 12
            await wait_for(pilot, lambda: "Hana · dealer · 0:18 +1:00" in prompt_of(app), "tick")
            await jo.close()
        finally:
            await server.close()
            view.close()


class Present:
    """A seat's connection, as far as the host's screen asks: that there is one."""


def test_snapshot_a_hosted_table_with_a_clock(snap_compare, tmp_path, monkeypatch):
    """The host's screen at a seeded table, Jo (joined) to lead with 27 s gone: his box
    reads 0:03 +1:00, the host's line its bank. The time is held still by hand."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    now = Hand()
    table = clocked_table(
        now, kinds=["human", "remote", "ai"], names=["Hana"], drive_ai=False, code="CLCK-TEST"
    )
    view = HostSeatView(table)
    view.banner = "code CLCK-TEST"
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.start_session(view)

    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        table.attach(asyncio.get_running_loop())
        # Jo takes seat 1 and is at the table (a stand-in for his connection: the
        # picture needs no socket)
        table.claim("Jo").conn = Present()  # type: ignore[assignment]
        table._schedule(remote=True)
        await wait_for(pilot, lambda: "0:30 +1:00" in box_of(app, "Jo"), "Jo's clock")
        now.t += 27
        await wait_for(pilot, lambda: "0:03 +1:00" in box_of(app, "Jo"), "27 s gone")

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
    finally:
        view.close()
        table.close()
