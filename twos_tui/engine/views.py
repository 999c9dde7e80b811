"""The observation as typed, frozen objects: what every reader of a game reads.

``game.observation(seat)`` stays the JSON form (a plain dict: what the frozen corpus
records, what a save's check makes and what the network sends); the classes here are the
same facts typed, made in one place (:mod:`.observer`) and read by attribute everywhere
else — the table screen, the AI, the hints, the tips, the puzzles, the lessons::

    view = game.observe(seat)            # a ClimbingView, a TricksView or a TwoVOneView
    view.hand, view.top, view.trick      # typed, immutable (tuples, frozen dataclasses)
    view.to_json() == game.observation(seat)

``from_json(d)`` reads the JSON form back (``view_from_json`` picks the family), checking
every key's type: a malformed observation is refused with a :class:`ViewError` that says
which key is wrong and why. ``from_json(d, public=True)`` reads a *public* view (a
spectator's: ``seat`` null, no hand, the keys the seats' views differ in blank or left out)
and fills what is missing with the blank of its kind. ``to_json`` gives back exactly the
dict it was read from (the same keys, the same values, the top-level keys in the same
order); the round trip is tested over seeded games of every variant.

A pair written ``[seat, card]`` in JSON is a ``(seat, card)`` tuple here.
"""

from __future__ import annotations

from typing import Any

from ._view_common import DealScore, GameView, LogLine, TableEntry
from ._view_json import ViewError
from .climbing.view import ClimbingLastTrick, ClimbingView, HandChoice, TopPlay, TrickMove
from .tricks.view import TrickLastView, TricksView
from .two_v_one.view import HandsWon, LastHandView, TwoVOneView

__all__ = [
    "AnyView",
    "ClimbingLastTrick",
    "ClimbingView",
    "DealScore",
    "GameView",
    "HandChoice",
    "HandsWon",
    "LastHandView",
    "LogLine",
    "TableEntry",
    "TopPlay",
    "TrickLastView",
    "TrickMove",
    "TricksView",
    "TwoVOneView",
    "ViewError",
    "view_class",
    "view_from_json",
]

#: a view of any family
AnyView = ClimbingView | TricksView | TwoVOneView


def view_class(variant: str) -> type[ClimbingView] | type[TricksView] | type[TwoVOneView]:
    """The view class of a variant's observation."""
    if variant == "2v1":
        return TwoVOneView
    if variant == "twos-tricks":
        return TricksView
    return ClimbingView


def view_from_json(d: Any, public: bool = False) -> AnyView:
    """The typed view of an observation dict (of any family); :class:`ViewError` with the
    reason when it is not one."""
    if type(d) is not dict:
        raise ViewError("the observation should be a JSON object")
    variant = d.get("variant")
    if type(variant) is not str:
        raise ViewError("observation.variant should be a variant's id")
    return view_class(variant).from_json(d, public)
