"""The one place a typed view of a game is made: an observer per family.

Each family's :class:`Observer` turns a game's observation (its JSON form,
``game.observation(seat)``, which the frozen corpus records and the network sends) into
that family's frozen view (:mod:`.views`), and reads the same view back from the JSON a
host sends or a spectator gets (``public=True``). ``game.observe(seat)`` is the typed
observation of any game; the ``as_*`` helpers narrow a view (or an observation dict, at a
JSON edge such as a tool or a test driving an AI) to one family::

    view = game.observe(seat)                  # ClimbingView | TricksView | TwoVOneView
    view = CLIMBING.observe(game, seat)        # ClimbingView (TypeError for another family)
    view = as_climbing(obs)                    # a view or an observation dict
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .views import AnyView, ClimbingView, TricksView, TwoVOneView, view_class

if TYPE_CHECKING:
    from .protocol import Game

V = TypeVar("V", ClimbingView, TricksView, TwoVOneView)
#: what an AI or a hint is handed: a view, or (at a JSON edge: a tool, a test) the dict
ObsIn = AnyView | Mapping[str, object]


class Observer(Generic[V]):
    """Makes one family's view (OpenSpiel's observer: the game's state as one seat, or
    nobody in particular, may see it)."""

    def __init__(self, view: type[V], family: str) -> None:
        self.view: type[V] = view
        self.family = family  #: "climbing", "tricks" or "2v1"

    def observe(self, game: Game, seat: int) -> V:
        """``seat``'s view of ``game``."""
        self._mine(game.variant_id)
        return cast(V, game._view(seat))

    def from_json(self, d: Any, public: bool = False) -> V:
        """The view of an observation's JSON (a host's message, a saved position); a
        :class:`~.views.ViewError` says why it is not one."""
        return self.view.from_json(d, public)

    def narrow(self, obs: ObsIn) -> V:
        """``obs`` as this family's view: a view of it as it is, an observation dict
        read (the JSON edge: tools and tests hand the AI ``game.observation(seat)``)."""
        if isinstance(obs, self.view):
            return obs
        if isinstance(obs, Mapping):
            return self.view.from_json(dict(obs))
        raise TypeError(f"a {type(obs).__name__} is not a {self.family} view")

    def _mine(self, variant: str) -> None:
        if view_class(variant) is not self.view:
            raise TypeError(f"{variant} is not a game of the {self.family} family")


CLIMBING: Observer[ClimbingView] = Observer(ClimbingView, "climbing")
TRICKS: Observer[TricksView] = Observer(TricksView, "tricks")
TWO_V_ONE: Observer[TwoVOneView] = Observer(TwoVOneView, "2v1")


class Observable:
    """What :class:`~.protocol.Game` gets from here: ``game.observe(seat)``."""

    def observe(self, seat: int) -> AnyView:
        """``observation(seat)`` typed: the frozen view of the game's family (made by its
        observer). Every reader (the screen, the AI, the hints) reads this;
        ``view.to_json()`` is the JSON form."""
        return observe(cast("Game", self), seat)


def observe(game: Game, seat: int) -> AnyView:
    """``seat``'s typed view of ``game`` (built by its family's shell from its state)."""
    return game._view(seat)


def as_view(obs: ObsIn) -> AnyView:
    """A view as it is; an observation dict read into its family's view."""
    if isinstance(obs, ClimbingView | TricksView | TwoVOneView):
        return obs
    return view_class(str(obs.get("variant"))).from_json(dict(obs))


def as_climbing(obs: ObsIn) -> ClimbingView:
    return CLIMBING.narrow(obs)


def as_tricks(obs: ObsIn) -> TricksView:
    return TRICKS.narrow(obs)


def as_two_v_one(obs: ObsIn) -> TwoVOneView:
    return TWO_V_ONE.narrow(obs)


__all__ = [
    "CLIMBING",
    "TRICKS",
    "TWO_V_ONE",
    "ObsIn",
    "Observable",
    "Observer",
    "as_climbing",
    "as_tricks",
    "as_two_v_one",
    "as_view",
    "observe",
]
