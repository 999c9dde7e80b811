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
from ...jsontypes import JsonValue
from ..paths import data_dir

if TYPE_CHECKING:
    from ...engine.protocol import Game
    from ..session import Session
    from ..turn_clock import ClockState
    from .conn import Conn
    from .host_view import HostSeatView
    from .messages import ChatLine
    from .seats import RemoteSeat

log = logging.getLogger("twos_tui.net")

SIDECAR_DIR = "hosted"
DEFAULT_HOLD_S = 120.0  #: how long a dropped player's seat is held, by default


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
    clock: list[float] | None  #: the turn clock: [seconds a move, bank seconds], or none
    seats: list[SidecarSeat]


def sidecar_path(save_id: str) -> Path:
    return data_dir() / SIDECAR_DIR / f"{save_id}.json"


class DamagedTableFile(ValueError):
    """A hosted table's file (its sidecar) that is not one: the reason says what is wrong."""


def read_sidecar(save_id: str) -> Sidecar:
    """The sidecar of ``save_id`` read at the door: its seats, code and tokens checked
    (:class:`DamagedTableFile` with the reason), the code and the tokens text that can be
    sent to players (:class:`~twos_tui.textdoor.TextRefused` otherwise: they go on the
    wire). A flag or a name of another kind reads as its blank, as before."""
    from ...textdoor import checked_text

    data: JsonValue = json.loads(sidecar_path(save_id).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DamagedTableFile("The table's file is damaged: it is not an object.")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not all(isinstance(d, dict) for d in raw_seats):
        raise DamagedTableFile("The table's file is damaged: its seats are not a list.")
    seat_objects = [d for d in raw_seats if isinstance(d, dict)]
    for d in seat_objects:
        if type(d.get("seat")) is not int:
            raise DamagedTableFile("The table's file is damaged: a seat has no number.")
    code = checked_text(data.get("code"), "the code in the table's file", 64, identifier=True)
    seats: list[SidecarSeat] = []
    for d in seat_objects:
        seat = d.get("seat")
        assert isinstance(seat, int)  # (checked above)
        token = d.get("token")
        checked_text(token, "a seat's token in the table's file", 128, identifier=True)
        name = d.get("name")
        seats.append(
            {
                "seat": seat,
                "token": str(token),
                "claimed": bool(d.get("claimed")),
                "name": name if isinstance(name, str) else "",
                "taken_over": bool(d.get("taken_over")),
                "ever_taken": bool(d.get("ever_taken")),
            }
        )
    hold_s = data.get("hold_s")
    listen = data.get("listen")
    clock = data.get("clock")
    fmt = data.get("format")
    return {
        "format": fmt if type(fmt) is int else 1,
        "code": code,
        "save_id": save_id,
        "hold_s": float(hold_s) if isinstance(hold_s, int | float) else DEFAULT_HOLD_S,
        "listen": (
            [listen[0], listen[1]]
            if isinstance(listen, list)
            and len(listen) == 2
            and isinstance(listen[0], str)
            and type(listen[1]) is int
            and 0 <= listen[1] <= 65535
            else None
        ),
        "seats": seats,
        "clock": _clock_rule(clock),
    }


def _clock_rule(v: JsonValue) -> list[float] | None:
    """A sidecar's turn clock: [seconds a move (1 at least), bank seconds], each a day
    at most; anything else reads as no clock."""
    if not isinstance(v, list) or len(v) != 2:
        return None
    out = [float(x) for x in v if type(x) in (int, float) and isinstance(x, int | float)]
    if len(out) != 2 or not (1 <= out[0] <= 86400 and 0 <= out[1] <= 86400):
        return None
    return out


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
    now: Callable[[], float]  #: the time (seconds; injectable: tests move it by hand)
    turn_clock: tuple[float, float] | None  #: (seconds a move, bank seconds) or none
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
            "clock": list(self.turn_clock) if self.turn_clock else None,
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

    def clock_state(self) -> ClockState | None:
        """Every seat's turn clock now (:class:`~.clock.ClockRole`'s)."""
        raise NotImplementedError
