"""Try the lobby screens without a lobby server: the app's lobby over the tests' scripted
link (``tests/lobby_fakes_ui.py``), answered by this script, with real tables.

    TWOS_TUI_HOME=$(mktemp -d) python tools/lobby_demo.py [--port 9355]

What it answers: sitting at Big Two's second table is refused (another player was
quicker); any other sit or watch opens a real table of that game, hosted by this script
on 127.0.0.1:PORT (you and AI players; watching: AI players only), joined as the lobby
would; create adds your table to the list and seats you there; quick match waits,
gathering a player every few seconds, and seats you when the wait you chose is over
(Esc cancels). The spectator counts change every few seconds, to show the lobby updating
live. Nothing here ships with the app: the lobby data is the tests' sample.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from lobby_fakes_ui import FakeLobbyLink, sample_state, seat  # noqa: E402

from twos_tui.engine import variant_class  # noqa: E402
from twos_tui.play.lobby.model import (  # noqa: E402
    CancelQuickMatch,
    CreateTable,
    LobbyEvent,
    LobbyRequest,
    QueueInfo,
    QuickMatch,
    Refused,
    Seated,
    SitDown,
    TableInfo,
    Watch,
)
from twos_tui.play.net.server import HostedTable, TableServer  # noqa: E402
from twos_tui.ui.app import make_app, run_built  # noqa: E402
from twos_tui.ui.lobby_text import clock_words  # noqa: E402


class Host:
    """Real tables on a server of its own thread and loop (as a host elsewhere is)."""

    def __init__(self, port: int) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="demo-host", daemon=True).start()
        self.server = TableServer()
        self.run(self.server.start("127.0.0.1", port))
        self.port = self.server.port

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def table(self, game: str, players: int, watch: bool) -> str:
        kinds = ["ai"] * players if watch else ["remote"] + ["ai"] * (players - 1)
        table = HostedTable.create(game, kinds, level="easy", autosave=False)

        async def add() -> None:
            self.server.add(table)

        self.run(add())
        return table.code


class DemoLobby:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.state = sample_state()
        self.link = FakeLobbyLink(self.state, answer=self.answer)
        self.ids = itertools.count(1)
        self.queue_task: asyncio.Task[None] | None = None

    def push(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)
        self.link.push(self.state)

    def seated(self, game: str, players: int, table_id: str, watch: bool = False) -> Seated:
        code = self.host.table(game, players, watch)
        return Seated(table_id, code, None if watch else 0, "")

    def answer(self, request: LobbyRequest) -> list[LobbyEvent]:
        tables = {t.table_id: t for t in self.state.tables}
        if isinstance(request, SitDown | Watch):
            table = tables.get(request.table_id)
            if table is None:
                return [Refused("That table has closed.")]
            if isinstance(request, SitDown) and request.table_id == "bt-102":
                return [Refused("Someone sat in the last free seat just before you.")]
            watch = isinstance(request, Watch)
            return [self.seated(table.game, table.players, table.table_id, watch)]
        if isinstance(request, CreateTable):
            table_id = f"new-{next(self.ids)}"
            seats = [seat(self.state.me.name)] + [
                seat(None, ai_level=level) for level in request.ai_seats[1:]
            ]
            clock = request.clock
            info = TableInfo(
                table_id,
                request.game,
                request.players,
                ", ".join(f"{k} {v}" for k, v in request.rules),
                tuple(seats),
                0,
                request.public,
                request.rated,
                f"{clock_words(clock[0])} + {clock_words(clock[1])}" if clock else "",
                False,
            )
            self.push(tables=(*self.state.tables, info))
            return []
        if isinstance(request, QuickMatch):
            queue = QueueInfo(request.game, request.players, 1, request.wait_s, 0.0)
            self.push(queue=queue)
            self.queue_task = asyncio.get_running_loop().create_task(self.gather(queue))
            return []
        if isinstance(request, CancelQuickMatch):
            if self.queue_task is not None:
                self.queue_task.cancel()
            self.push(queue=None)
        return []

    async def gather(self, queue: QueueInfo) -> None:
        waited = 0.0
        while waited < queue.wait_s and queue.waiting < queue.players:
            await asyncio.sleep(3)
            waited += 3
            queue = replace(queue, waiting=min(queue.players, queue.waiting + 1), waited_s=waited)
            self.push(queue=queue)
        self.push(queue=None)
        self.link.push(self.seated(queue.game, queue.players, f"quick-{next(self.ids)}"))

    async def spectators(self) -> None:
        for n in itertools.count():
            await asyncio.sleep(4)
            tables = tuple(
                replace(t, spectators=(t.spectators + n) % 7) if i % 2 == 0 else t
                for i, t in enumerate(self.state.tables)
            )
            self.push(tables=tables)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=9355, help="where the demo's tables listen")
    parser.add_argument("--still", action="store_true", help="no live spectator changes")
    args = parser.parse_args()
    for game in ("big-two", "twos"):
        variant_class(game)  # (imported before the app starts)
    host = Host(args.port)
    lobby = DemoLobby(host)
    app = make_app(ai_pause=None)

    def start() -> None:
        app.open_lobby(lobby.link, ("127.0.0.1", host.port))
        if not args.still:
            app.run_worker(lobby.spectators(), group="demo")

    app.on_start = start
    return run_built(app)


if __name__ == "__main__":
    sys.exit(main())
