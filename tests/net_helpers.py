"""Helpers of the network tests: a live server on 127.0.0.1 (an ephemeral port) and bot
clients on the same loop."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from twos_tui.play.net.client import TableClient, play_bot
from twos_tui.play.net.server import HostedTable, TableServer

#: short matches: the options that make each game's match short
SHORT: dict[str, dict[str, Any]] = {
    "twos": {"deals_to_win": 1},
    "big-two": {"target": 50},
    "big-two-5r": {},
    "chinese-poker": {"target": 50},
    "2v1": {"coins_to_win": 5},
    "twos-tricks": {"game_length": 1},
}
PLAYERS = {"twos": 3, "big-two": 4, "big-two-5r": 4, "chinese-poker": 4, "2v1": 3, "twos-tricks": 4}


@contextlib.asynccontextmanager
async def live_server(**kw: Any):
    server = TableServer(**kw)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.close()


def remote_table(
    variant: str, seed: int = 1, kinds: list[str] | None = None, **kw: Any
) -> HostedTable:
    kinds = kinds or ["remote"] * PLAYERS[variant]
    kw.setdefault("ai_pause", 0.0)
    return HostedTable.create(variant, kinds, options=SHORT[variant], seed=seed, level="easy", **kw)


async def join(server: TableServer, table: HostedTable, name: str, **kw: Any) -> TableClient:
    c = TableClient("127.0.0.1", server.port, table.code, name, retry_delays=(0.05, 0.1, 0.2), **kw)
    await c.open()
    return c


async def play_match(
    server: TableServer, table: HostedTable, level: str = "easy", timeout: float = 60.0, hook=None
) -> list[dict[str, Any]]:
    """Bots in every remote seat play the match to its end; their last states."""
    clients = []
    for i in range(len(table.remote_seats)):
        c = await join(server, table, f"Bot{i}")
        if hook is not None:
            c.raw_hook = hook(c)
        clients.append(c)
    try:
        return await asyncio.wait_for(
            asyncio.gather(*(play_bot(c, level) for c in clients)), timeout
        )
    finally:
        for c in clients:
            await c.close()
