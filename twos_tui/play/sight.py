"""What a screen sees of the table, in one of three explicit cases (``SeatView.sight``):

* :class:`OwnView` — a seat's own view: its hand, its secret choices, everything it may
  know (a player's screen; the seat whose turn it is at a hot-seat table);
* :class:`PublicView` — the public view: what every seat sees and no hand (a spectator
  of a hosted table, a demo watched with no seat; the pass screen's "since the last turn"
  recap is public too: public log lines only);
* :class:`Hidden` — nothing: a hot-seat table hidden between its players' turns.

Each case holds the typed view of the game (:mod:`twos_tui.engine.views`), or none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.views import AnyView


@dataclass(frozen=True, slots=True)
class OwnView:
    """A seat's own view."""

    view: AnyView

    @property
    def seat(self) -> int:
        return self.view.me


@dataclass(frozen=True, slots=True)
class PublicView:
    """The public view (``view.seat`` is ``None`` and ``view.hand`` empty)."""

    view: AnyView


@dataclass(frozen=True, slots=True)
class Hidden:
    """Nothing to show: the table is hidden between hot-seat players."""

    @property
    def view(self) -> None:
        return None


Sight = OwnView | PublicView | Hidden

__all__ = ["Hidden", "OwnView", "PublicView", "Sight"]
