"""Make the README's pictures of a networked table: the same moment of one seeded Twos
game from the host's screen (hosted.svg) and from the screen of the friend who joined
(joined.svg).

    .venv/bin/python screenshots/make_net_screenshots.py [--size 100x30]

The table is served on 127.0.0.1 (an ephemeral port); saves and the join token go to a
temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def settle(pilot, cond, tries: int = 500) -> None:
    for _ in range(tries):
        if cond():
            break
        await pilot.pause(0.02)
    await pilot.pause(0.2)


async def main(size: tuple[int, int]) -> None:
    from twos_tui.play.net.client import RemoteSeatView
    from twos_tui.play.net.host_view import HostSeatView
    from twos_tui.play.net.server import HostedTable, TableServer
    from twos_tui.ui.app import make_app
    from twos_tui.ui.hosting import join_lines, joined_view
    from twos_tui.ui.screens.table import TableScreen

    table = HostedTable.create(
        "twos",
        ["human", "remote", "ai"],
        names=["Ana", "", "Cleo"],
        seed=21,
        level="normal",
        autosave=False,
        drive_ai=False,
    )
    server = TableServer()
    server.add(table)
    await server.start("127.0.0.1", 0)
    joined = await asyncio.to_thread(
        RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Bo", False
    )
    try:
        # the host's screen: a HostSeatView made here (not by host_table), so the server
        # outlives the host's app and the friend's screen can be shot next
        host = HostSeatView(table)
        host.banner = f"code {table.code}"
        lines = join_lines(table.code, "127.0.0.1", server.port)
        host.table_info = lambda: lines  # type: ignore[method-assign]
        app = make_app(autosave=False, ai_pause=0)
        app.on_start = lambda: app.start_session(host)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            assert isinstance(screen, TableScreen)
            g = table.game
            for _ in range(3):  # a few moves: the host's, the friend's (played here), the AI's
                await settle(pilot, lambda: bool(g.to_act()) and g.to_act()[0] != 2)
                seat = g.to_act()[0]
                if seat == 0:
                    screen.act(g.legal_actions(0)[0])
                else:
                    await asyncio.to_thread(joined.act, seat, joined.legal_actions(seat)[0])
                await settle(pilot, lambda: not g.to_act() or g.to_act()[0] != 2)
            await settle(pilot, lambda: 0 in g.to_act())
            app.save_screenshot("hosted.svg", path=str(HERE))
        client = make_app(autosave=False, ai_pause=0)
        client.on_start = lambda: client.start_session(joined_view(joined))
        async with client.run_test(size=size) as pilot:
            await settle(pilot, lambda: isinstance(client.screen, TableScreen))
            client.save_screenshot("joined.svg", path=str(HERE))
    finally:
        joined.close()
        await server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100x30", help="COLSxROWS (default 100x30)")
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as home:
        os.environ["TWOS_TUI_HOME"] = home
        asyncio.run(main((cols, rows)))
    print(f"wrote {HERE / 'hosted.svg'} and {HERE / 'joined.svg'}")
