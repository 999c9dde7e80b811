"""The AI playing a seat at a table hosted elsewhere (``twos-tui join ... --bot LEVEL``,
the benchmarks and the tests' bots)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace

from . import messages as M
from . import protocol as P
from .connection import JoinError, TableClient, TokenStore

log = logging.getLogger("twos_tui.net.client")


# ----- the bot ----------------------------------------------------------------------------
async def play_bot(
    client: TableClient,
    level: str = "normal",
    on_move: Callable[[float], None] | None = None,
    think_in_thread: bool = False,
    pause: float = 0.0,
) -> M.State:
    """Play ``client``'s seat with the AI until the match is over (or the connection
    is lost for good); the last state. ``on_move(seconds)``: each move's round trip.
    ``pause``: seconds to wait before each move (a person's pace, for benchmarks)."""
    from ...ai import agent_for

    agent = agent_for(client.table.variant, level)
    rng = random.Random(f"twos-tui-bot:{client.code}:{client.seat}")
    acted_at: tuple[int, int] | None = None
    ready_for: int | None = None
    while True:
        client.changed.clear()
        st = client.state
        if client.lost:
            raise JoinError(client.lost)
        if st is not None:
            if st.match_over:
                return st
            me = client.seat
            position = (st.deal, st.n)
            decision = st.decision
            if decision is not None and me in st.to_act and acted_at != position:
                obs = replace(st.observation, history=tuple(client.log))
                legal = list(st.legal)
                if think_in_thread:
                    action = await asyncio.to_thread(agent.choose, obs, legal, decision, rng)
                else:
                    action = agent.choose(obs, legal, decision, rng)
                acted_at = position
                if pause > 0:
                    await asyncio.sleep(pause * (0.5 + rng.random()))
                t0 = time.perf_counter()
                try:
                    reply = await client.request(M.Act(action=action))
                except (ConnectionError, TimeoutError):
                    # the connection is down (it is being made again): wait for news,
                    # never spin (the reconnecting runs on this same loop)
                    acted_at = None
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(client.changed.wait(), 1.0)
                    continue
                if isinstance(reply, M.Error):
                    log.info("move refused: %s", reply.reason)
                    acted_at = None
                    if reply.code == P.E_TOO_FAST:
                        await asyncio.sleep(0.2)
                elif on_move is not None:
                    on_move(time.perf_counter() - t0)
                continue
            deal = st.deal
            if st.deal_over and ready_for != deal:
                ready_for = deal
                try:
                    reply = await client.request(M.Ready(deal=deal))
                except (ConnectionError, TimeoutError):
                    reply = P.error("", "The host did not answer.")
                if isinstance(reply, M.Error) and reply.code != P.E_NOT_NOW:
                    ready_for = None  # say it again
                    await asyncio.sleep(0.2)
                continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.changed.wait(), 5.0)


async def run_bot(
    host: str,
    port: int,
    code: str,
    level: str = "normal",
    name: str | None = None,
    token_store: TokenStore | None = None,
) -> M.State:
    """``twos-tui join ... --bot LEVEL``: join (or rejoin), play to the match's end; the
    last state (its ``seat``: the bot's)."""
    key = TokenStore.key(host, port, code)
    token = token_store.get(key) if token_store else None
    client = TableClient(host, port, code, name, token)
    try:
        await client.open()
    except JoinError:
        if not token:
            raise
        client = TableClient(host, port, code, name)
        await client.open()
    if token_store:
        token_store.put(key, client.token)
    try:
        return await play_bot(client, level, think_in_thread=True)
    finally:
        await client.close()
