"""A hosted table's turn clock as every screen shows it: per person's seat, the time left
for the move it is asked now and its bank (:class:`SeatClock`), for the whole table
(:class:`ClockState`), and the ``--clock`` setting (:func:`parse_clock`).

The rule: each move of a person gets ``per_move`` seconds; when they are used, the seat's
bank runs down; when the bank is empty too, the host makes the move for the seat (see
:mod:`twos_tui.play.net.clock`). The bank does not refill: it is the seat's spare time for
the whole match (a move's own seconds come back every move). AI seats have no clock.

Nothing here knows of cards: a clock is only seconds, so every seat and spectator may
see every seat's clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

#: the longest move time or bank ``--clock`` accepts (a day)
MAX_CLOCK_S = 86400.0
#: the turn clock lobby tables use unless told otherwise (20 s a move, 2 min of bank)
LOBBY_CLOCK = (20.0, 120.0)


def mmss(seconds: float) -> str:
    """``seconds`` as M:SS, rounded up (the last second shows 0:01, not 0:00)."""
    s = max(0, math.ceil(seconds - 1e-6))
    return f"{s // 60}:{s % 60:02d}"


@dataclass(frozen=True, kw_only=True)
class SeatClock:
    """One seat's clock: ``timed`` (a person's seat: an AI seat has none), ``running``
    (its time runs now: it is asked to move), ``move_left`` (seconds of this move's own
    time left; a seat not asked: the whole move time) and ``bank_left``."""

    timed: bool = True
    running: bool = False
    move_left: float = 0.0
    bank_left: float = 0.0

    def after(self, seconds: float) -> SeatClock:
        """The clock ``seconds`` later, if nothing else happens (a running seat uses its
        move's time first, then its bank)."""
        if not self.running or seconds <= 0:
            return self
        move = self.move_left - seconds
        bank = self.bank_left + min(0.0, move)
        return replace(self, move_left=max(0.0, move), bank_left=max(0.0, bank))

    def text(self) -> str:
        """What a seat box shows: ``0:14 +1:52`` while its time runs (this move's time,
        then the bank after the +), ``bank 1:52`` otherwise; nothing for an AI seat."""
        if not self.timed:
            return ""
        if self.running:
            return f"{mmss(self.move_left)} +{mmss(self.bank_left)}"
        return f"bank {mmss(self.bank_left)}"


@dataclass(frozen=True, kw_only=True)
class ClockState:
    """The table's clock: its rule (``per_move`` seconds a move, ``bank`` seconds of
    bank at the start) and every seat's clock, in seat order."""

    per_move: float
    bank: float
    seats: tuple[SeatClock, ...] = ()

    def after(self, seconds: float) -> ClockState:
        """The clocks ``seconds`` later (a screen counts down between the host's states)."""
        if seconds <= 0:
            return self
        return replace(self, seats=tuple(s.after(seconds) for s in self.seats))

    def text(self, seat: int) -> str:
        """What ``seat``'s box shows of its clock ("" for no such seat or an AI seat)."""
        return self.seats[seat].text() if 0 <= seat < len(self.seats) else ""

    @property
    def rule(self) -> str:
        """The rule in words, as ``--clock`` takes it: ``20+120``."""
        return f"{_num(self.per_move)}+{_num(self.bank)}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_clock(text: str) -> tuple[float, float] | None:
    """``--clock``: ``SECONDS+BANK`` (``20+120``: 20 s a move and 2 min of bank;
    ``20``: no bank) or ``off`` (``None``). ValueError with a one-line reason."""
    raw = text.strip().lower()
    if raw in ("off", "none", "no", "0"):
        return None
    move, plus, bank = raw.partition("+")
    try:
        per_move = float(move)
        spare = float(bank) if plus else 0.0
    except ValueError:
        raise ValueError(
            f"a turn clock is SECONDS+BANK, e.g. 20+120, or off (got {text[:40]!r})"
        ) from None
    if not (math.isfinite(per_move) and math.isfinite(spare)):
        raise ValueError(f"a turn clock's seconds are numbers (got {text[:40]!r})")
    if not 1 <= per_move <= MAX_CLOCK_S:
        raise ValueError(f"a move's time is from 1 to {MAX_CLOCK_S:.0f} seconds (got {move})")
    if not 0 <= spare <= MAX_CLOCK_S:
        raise ValueError(f"the bank is from 0 to {MAX_CLOCK_S:.0f} seconds (got {bank})")
    return (per_move, spare)


__all__ = ["LOBBY_CLOCK", "MAX_CLOCK_S", "ClockState", "SeatClock", "mmss", "parse_clock"]
