"""A lobby link for the lobby screen's tests and tools (``tools/lobby_demo.py``): a
:class:`~twos_tui.play.lobby.model.LobbyLink` whose events are scripted (``push``) and
whose requests are recorded (``requests``), with an optional answer per request
(``answer``), and a scripted lobby (:func:`sample_state`) with names that look like
markup."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace

from twos_tui.play.lobby.model import (
    LeaderRow,
    LobbyEvent,
    LobbyRequest,
    LobbyState,
    PlayerInfo,
    QueueInfo,
    RatingInfo,
    ResultInfo,
    SeatInfo,
    TableInfo,
)


class FakeLobbyLink:
    """Implements ``LobbyLink``. ``push(event)`` makes ``events()`` yield it (on the
    test's loop, the app's); ``end()`` ends the stream; ``fail(error)`` makes it raise."""

    def __init__(
        self,
        *first: LobbyEvent,
        answer: Callable[[LobbyRequest], list[LobbyEvent]] | None = None,
    ) -> None:
        self.requests: list[LobbyRequest] = []
        self.closed = False
        self.answer = answer
        self.queue: asyncio.Queue[LobbyEvent | BaseException | None] = asyncio.Queue()
        for event in first:
            self.queue.put_nowait(event)

    def push(self, event: LobbyEvent) -> None:
        self.queue.put_nowait(event)

    def end(self) -> None:
        self.queue.put_nowait(None)

    def fail(self, error: BaseException) -> None:
        self.queue.put_nowait(error)

    async def send(self, request: LobbyRequest) -> None:
        if self.closed:
            raise ConnectionError("the link is closed")
        self.requests.append(request)
        if self.answer is not None:
            for event in self.answer(request):
                self.push(event)

    async def events(self) -> AsyncIterator[LobbyEvent]:
        while True:
            event = await self.queue.get()
            if event is None:
                return
            if isinstance(event, BaseException):
                raise event
            yield event

    async def close(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)


def seat(name: str | None, rating: float | None = None, **kw: object) -> SeatInfo:
    return SeatInfo(name, rating, **kw)  # type: ignore[arg-type]


def sample_state(queue: QueueInfo | None = None, guest: bool = False) -> LobbyState:
    """A lobby with tables in three games (Big Two's first two open, one started and
    full, one private), a player with ratings and results, and leaderboards."""
    me = PlayerInfo(
        name="Ann [admin]",
        guest=guest,
        ratings=()
        if guest
        else (
            RatingInfo("big-two", 1532.4, 14, 3),
            RatingInfo("twos", 1480.0, 3, None),
        ),
        recent=(
            ResultInfo("big-two", 1_700_000_300.0, 1, 4, 12.4),
            ResultInfo("big-two", 1_700_000_200.0, 3, 4, -7.6),
            ResultInfo("twos", 1_700_000_100.0, 2, 3, None),
        ),
    )
    tables = (
        TableInfo(
            "bt-101",
            "big-two",
            4,
            "",
            (seat("Bo[b]", 1611.0), seat(None), seat(None, ai_level="hard"), seat(None)),
            2,
            True,
            True,
            "20 s + 2 min",
            False,
        ),
        TableInfo(
            "bt-102",
            "big-two",
            4,
            "2s high off",
            (
                seat("Cy", 1402.0),
                seat("Dee", None, connected=False),
                seat(None),
                seat(None, ai_level="easy"),
            ),
            0,
            True,
            False,
            "",
            False,
        ),
        TableInfo(
            "bt-103",
            "big-two",
            4,
            "",
            (seat("Eve", 1700.0), seat("Fay", 1650.0), seat("Gus", 1500.0), seat("Hal")),
            5,
            True,
            True,
            "20 s + 2 min",
            True,
        ),
        TableInfo(
            "bt-104",
            "big-two",
            4,
            "",
            (seat("Ivy", 1550.0), seat(None), seat(None), seat(None)),
            0,
            False,
            True,
            "40 s + 5 min",
            False,
        ),
        TableInfo(
            "tw-201",
            "twos",
            3,
            "13 cards",
            (seat("Jo", 1490.0), seat(None), seat(None, ai_level="normal")),
            1,
            True,
            True,
            "20 s + 2 min",
            False,
        ),
        TableInfo(
            "cp-301",
            "chinese-poker",
            4,
            "",
            (seat("Kit"), seat(None), seat(None), seat(None)),
            0,
            True,
            False,
            "",
            False,
        ),
    )
    boards = (
        (
            "big-two",
            (
                LeaderRow(1, "Eve", 1700.2, 40),
                LeaderRow(2, "Fay", 1650.0, 31),
                LeaderRow(3, "Ann [admin]", 1532.4, 14),
                LeaderRow(4, "[red]Mallory", 1401.0, 9),
            ),
        ),
        ("twos", (LeaderRow(1, "Jo", 1490.0, 8),)),
    )
    return LobbyState(me, tables, boards, queue)


def with_table(state: LobbyState, table: TableInfo) -> LobbyState:
    return replace(state, tables=(table, *state.tables))


def without_table(state: LobbyState, table_id: str) -> LobbyState:
    return replace(state, tables=tuple(t for t in state.tables if t.table_id != table_id))
