"""Helpers of the lobby server's tests: a live lobby server on 127.0.0.1 (an ephemeral
port) over TLS, and players who log in with a key of their own (or as guests)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from lobby_fakes import MemoryStore
from net_helpers import until

from twos_tui.play.lobby.client import LobbyClient
from twos_tui.play.lobby.identity import Identity
from twos_tui.play.lobby.model import LobbyEvent, LobbyState, Refused, Seated
from twos_tui.play.lobby.server import LobbyServer
from twos_tui.play.lobby.store import SqliteStore
from twos_tui.play.net import messages as M
from twos_tui.play.net.client import TableClient
from twos_tui.play.net.tls import KnownHosts, host_cert


@contextlib.asynccontextmanager
async def lobby_server(tmp: Path, store: Any = None, tls: bool = True, **kw: Any):
    """A lobby server on 127.0.0.1, its store the SQLite one in ``tmp`` unless given."""
    kw.setdefault("table_kw", {"ai_pause": 0.0, "level": "easy", "seed": 1})
    server = LobbyServer(
        store if store is not None else SqliteStore(tmp / "lobby.db"),
        process=kw.pop("process", "test"),
        rate=1000,
        burst=1000,
        **{"cert": host_cert() if tls else None, **kw},
    )
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.close()
        if store is None:
            server.store.close()


class Player:
    """A player at the lobby: their client, and the events it got (kept in order)."""

    def __init__(self, server: LobbyServer, tmp: Any, name: str | None, key: bool = True):
        ident = Identity.load(tmp / f"{name or 'guest'}.pem") if key else None
        self.lobby = LobbyClient(
            "127.0.0.1",
            server.port,
            ident,
            name,
            known_hosts=KnownHosts(tmp / f"{name or 'guest'}-known-hosts"),
        )
        self.events: list[LobbyEvent] = []
        self.tables: list[TableClient] = []

    async def open(self) -> LobbyState:
        state = await self.lobby.open()
        self.events.append(state)
        return state

    async def next(self, kind: type, timeout: float = 30.0, pred: Any = None) -> Any:
        """The next event of ``kind`` (that ``pred`` holds of)."""
        while True:
            ev = await self.lobby.next_event(timeout)
            assert ev is not None, "the lobby's connection ended"
            self.events.append(ev)
            if isinstance(ev, kind) and (pred is None or pred(ev)):
                return ev
            if isinstance(ev, Refused) and kind is not Refused:
                raise AssertionError(f"refused: {ev.reason}")

    async def ask(self, request: Any, kind: type = Seated) -> Any:
        await self.lobby.send(request)
        return await self.next(kind)

    async def join(self, seated: Seated) -> TableClient:
        c = self.lobby.table_client(seated, retry_delays=(0.05, 0.1, 0.2))
        await c.open()
        self.tables.append(c)
        return c

    async def close(self) -> None:
        for c in self.tables:
            await c.close()
        await self.lobby.close()


async def one_deal(client) -> None:
    """Play ``client``'s seat (its first legal move that is not a pass) until the first
    deal is over."""
    while True:
        client.changed.clear()
        st = client.state
        if st is not None and (st.deal_over or st.deal > 1):
            return
        if st is not None and st.decision and client.seat in st.to_act and st.legal:
            legal = list(st.legal)
            action = ([a for a in legal if a.kind != "pass"] or legal)[0]
            await client.request(M.Act(action=action, n=st.n))
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.changed.wait(), 5.0)


async def listing(player: Player, pred: Any, what: str = "the listing") -> LobbyState:
    """Wait for a lobby state of ``player`` that ``pred`` holds of."""
    return await player.next(LobbyState, pred=pred)


__all__ = ["MemoryStore", "Player", "SqliteStore", "listing", "lobby_server", "one_deal", "until"]
