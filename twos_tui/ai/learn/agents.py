"""The agents that use the learned move scorer.

* :class:`ExpertClimbingAgent` (``expert``): the network alone — it scores every legal
  move from the seat's view and plays the best, in a millisecond or so;
* :class:`.search.GuidedHardAgent` (``guided``, ``hard`` in Twos): see :mod:`.search`.

Both load the game's shipped weights on first use. When the file cannot be used (missing,
damaged, of another version) they say so once (a :class:`RuntimeWarning` with the
reason) and play as ``normal`` instead, so a game never stops over it.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np

from ...engine.climbing.core import Move
from ...engine.climbing.rules import rules_for
from ...engine.observer import ObsIn, as_climbing
from ...engine.protocol import Action, Decision
from ...engine.views import ClimbingView
from .. import Suggestion
from ..climbing_ai import NormalClimbingAgent
from . import net as netmod
from .features import move_features, view_of_observation


class NetUnavailable(Exception):
    """The network of a game cannot be used (the message says why)."""


def _net(variant: str, said: set[str]) -> netmod.Net | None:
    """The game's network, or ``None`` (warned once per agent) when it cannot be used."""
    try:
        return netmod.net_for(variant)
    except netmod.WeightsError as e:
        if variant not in said:
            said.add(variant)
            warnings.warn(f"{e}; the AI plays as normal instead", RuntimeWarning, stacklevel=3)
        return None


def sim_moves(rules: Any, legal: list[Action]) -> tuple[list[Move | None], list[int]]:
    """The sim moves of the legal actions that have one (a pass is ``None``) and, for
    each, its index in ``legal``."""
    moves: list[Move | None] = []
    index: list[int] = []
    for i, a in enumerate(legal):
        if a.kind == "pass":
            moves.append(None)
            index.append(i)
        elif a.kind == "play":
            mv = rules.move_of_codes(a.cards)
            if mv is not None:
                moves.append(mv)
                index.append(i)
    return moves, index


def net_scores(
    obs: ClimbingView, legal: list[Action], net: netmod.Net, rerank: float = 0.0
) -> list[tuple[float, int]]:
    """(the value's win chance after it, index in ``legal``) for each legal move, in the
    policy's order (its choice first; with ``rerank``, see :class:`ExpertClimbingAgent`)."""
    rules = rules_for(obs.variant, obs.players, obs.options)
    moves, index = sim_moves(rules, legal)
    if not moves:
        return []
    v = view_of_observation(obs, rules)
    o = net.outputs(move_features(v, moves))
    win = 1.0 / (1.0 + np.exp(-o[:, 1]))
    order = sorted(range(len(moves)), key=lambda j: -o[j, 0])
    if rerank > 0:
        top = o[order[0], 0]
        near = [j for j in order if o[j, 0] >= top + np.log(rerank)]
        best = max(near, key=lambda j: win[j])
        order.remove(best)
        order.insert(0, best)
    return [(float(win[j]), index[j]) for j in order]


class ExpertClimbingAgent:
    """``expert``: the learned move scorer alone (no search)."""

    name = "expert"

    def __init__(self, rerank: float = 0.0, **kw: Any) -> None:
        #: with ``rerank`` > 0, the move with the best value among those at least that
        #: share as likely as the policy's choice (0: the policy's choice)
        self.rerank = rerank
        self.fallback = NormalClimbingAgent()
        self._said: set[str] = set()
        #: the win chances of the last decision, best first: (chance, index in legal)
        self.last: list[tuple[float, int]] = []

    def choose(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        obs = as_climbing(seen)
        self.last = []
        if len(legal) == 1:
            return legal[0]
        net = _net(obs.variant, self._said)
        if net is None or decision.kind != "play":
            return self.fallback.choose(obs, legal, decision, rng)
        hand_n = len(obs.hand)
        for a in legal:
            if a.kind == "play" and len(a.cards) == hand_n:
                return a  # it empties the hand: the deal is won
        self.last = net_scores(obs, legal, net, self.rerank)
        if not self.last:
            return self.fallback.choose(obs, legal, decision, rng)
        return legal[self.last[0][1]]

    def suggest(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from .explain import explain

        obs = as_climbing(seen)

        act = self.choose(obs, legal, decision, rng)
        return explain(obs, legal, decision, rng, act, "expert", self.last, None)
