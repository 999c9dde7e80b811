"""Quick match: one queue of waiting people per (game, players).

A player asks "seat me at the next table of Big Two for four" and chooses how long they
will wait for other people (``wait_s``, 0: at once). The queue seats its people together
as soon as there are enough for a table; otherwise, once any waiting player's own wait
is up (so the longest waiter never waits longer than they chose), everybody waiting in
that queue sits at one table and the AI (at "normal") takes the empty seats.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .model import QueueInfo

P = TypeVar("P")


@dataclass
class Waiter(Generic[P]):
    who: P
    name: str
    since: float
    wait_s: float

    @property
    def due(self) -> float:
        return self.since + self.wait_s


@dataclass
class Queues(Generic[P]):
    """The quick-match queues (``P``: whatever stands for a player, a connection)."""

    clock: Callable[[], float] = time.monotonic
    queues: dict[tuple[str, int], list[Waiter[P]]] = field(default_factory=dict)

    def join(self, who: P, name: str, game: str, players: int, wait_s: float) -> None:
        """``who`` waits in the queue of (``game``, ``players``) (only there: a player
        waits in one queue at a time)."""
        self.leave(who)
        self.queues.setdefault((game, players), []).append(Waiter(who, name, self.clock(), wait_s))

    def leave(self, who: P) -> bool:
        found = False
        for key, waiting in list(self.queues.items()):
            kept = [w for w in waiting if w.who is not who]
            found = found or len(kept) != len(waiting)
            if kept:
                self.queues[key] = kept
            else:
                del self.queues[key]
        return found

    def waiting(self) -> list[Waiter[P]]:
        """Everybody waiting, in every queue."""
        return [w for waiting in self.queues.values() for w in waiting]

    def info(self, who: P) -> QueueInfo | None:
        now = self.clock()
        for (game, players), waiting in self.queues.items():
            for w in waiting:
                if w.who is who:
                    return QueueInfo(game, players, len(waiting), w.wait_s, round(now - w.since, 1))
        return None

    def ready(self) -> list[tuple[str, int, list[Waiter[P]]]]:
        """The groups to seat now, taken out of their queues: (game, players, waiters
        in the order they came); a group smaller than ``players`` gets AI seats."""
        now = self.clock()
        out: list[tuple[str, int, list[Waiter[P]]]] = []
        for key, waiting in list(self.queues.items()):
            game, players = key
            while len(waiting) >= players:
                out.append((game, players, waiting[:players]))
                waiting = waiting[players:]
            if waiting and min(w.due for w in waiting) <= now:
                out.append((game, players, waiting))
                waiting = []
            if waiting:
                self.queues[key] = waiting
            else:
                del self.queues[key]
        return out

    def next_due(self) -> float | None:
        """Clock time of the next wait that runs out (None: nobody waits)."""
        dues = [w.due for waiting in self.queues.values() for w in waiting]
        return min(dues) if dues else None
