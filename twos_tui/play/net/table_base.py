"""What every part of a hosted table shares (:class:`TableBase`): its fields, the game,
the sidecar file of its code and tokens, and the scheduling of what follows a change.

:class:`~.table.HostedTable` is made of small roles, each a module: the seats and their
tokens (:mod:`~.seats`), the holds and the AI's takeovers (:mod:`~.holds`), the
spectators and the public view (:mod:`~.spectators`), the chat (:mod:`~.chat`); the
messages of its players are dispatched by type in :mod:`~.dispatch`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from ...engine.views import AnyView, LogLine
from ..paths import data_dir

if TYPE_CHECKING:
    from ...engine.protocol import Game
    from ..session import Session
    from .conn import Conn
    from .host_view import HostSeatView
    from .messages import ChatLine
    from .seats import RemoteSeat

log = logging.getLogger("twos_tui.net")

SIDECAR_DIR = "hosted"


class SidecarSeat(TypedDict):
    """A remote seat in the sidecar file: its token and who holds it."""

    seat: int
    token: str
    claimed: bool
    name: str
    taken_over: bool
    ever_taken: bool


class Sidecar(TypedDict):
    """The sidecar file beside a hosted table's save (``hosted/SAVE_ID.json``)."""

    format: int
    code: str
    save_id: str
    hold_s: float
    listen: list[str | int] | None  #: [host, port] where its server listened
    seats: list[SidecarSeat]


def sidecar_path(save_id: str) -> Path:
    return data_dir() / SIDECAR_DIR / f"{save_id}.json"


class TableBase:
    """The fields of a hosted table (set by :class:`~.table.HostedTable`'s constructor)
    and what every role uses: the game, the sidecar, :meth:`_schedule`."""

    session: Session
    remote_seats: tuple[int, ...]
    code: str
    seats: dict[int, RemoteSeat]
    hold_s: float
    ai_pause: float
    drive_ai: bool
    clock: Callable[[], float]
    use_sidecar: bool
    loop: asyncio.AbstractEventLoop | None
    views: list[HostSeatView]
    ready_seats: set[int]
    host_ready: bool
    conns: set[Conn]  #: every connection at the table, spectators too
    watchers: list[Callable[[], None]]  #: called on the loop after changes
    allow_sit: bool
    chat_log: deque[tuple[int, ChatLine]]
    closed: bool
    listen: tuple[str, int] | None
    reopened: bool
    _scheduled: bool
    _origin_remote: bool
    _public: tuple[tuple[object, ...], AnyView] | None
    _public_log: tuple[tuple[object, ...], tuple[LogLine, ...]] | None
    _ai_task: asyncio.Task[None] | None
    _hold_timer: asyncio.TimerHandle | None

    @property
    def game(self) -> Game:
        """The session's game."""
        return self.session.game

    def write_sidecar(self) -> None:
        """The code and tokens beside the save (mode 0600): a restarted host reopens
        the table with the same ones."""
        if not self.use_sidecar:
            return
        path = sidecar_path(self.session.save_id)
        data: Sidecar = {
            "format": 1,
            "code": self.code,
            "save_id": self.session.save_id,
            "hold_s": self.hold_s,
            "listen": list(self.listen) if self.listen else None,
            "seats": [rs.to_json() for rs in self.seats.values()],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            log.warning("could not write %s: %s", path, e)

    def _schedule(self, remote: bool = False) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if remote:
            for v in self.views:
                loop.call_soon_threadsafe(v.changed_elsewhere)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon_threadsafe(self._changed)

    def _changed(self) -> None:
        """After any change, on the loop (:class:`~.table.HostedTable`'s)."""
        raise NotImplementedError
