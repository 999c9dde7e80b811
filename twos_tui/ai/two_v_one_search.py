"""The ``hard`` 2v1 opponent (described in the docstring of :mod:`.two_v_one_ai`): plans
like ``normal`` with more samples for the bids and the lone play, and a determinised
search with playouts (:mod:`.two_v_one_playout`) for every other decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.observer import ObsIn
from ..engine.protocol import Action, Decision
from ..engine.two_v_one import core as S
from ..engine.two_v_one.core import (
    BID,
    HIDE,
    INDEX,
    KEEP,
    LEAD,
    RAISE,
    RoundSim,
    mask_of,
)
from ..engine.two_v_one.sampler import Sampler
from ..engine.views import TwoVOneView

if TYPE_CHECKING:
    from . import Suggestion

from .two_v_one_playout import QUICK_BID3, LoneModel, _quick_bid_score, playout, rollout_move
from .two_v_one_rules import NormalTwoVOneAgent, _Base, _keep_prior, _raw, _two_v_one


# ===== hard ===================================================================================
class _RuleNormal(NormalTwoVOneAgent):
    """The normal planner with more samples and the duo modelled by the fight/feed
    rule: the hard player's bids and lone play."""

    rule = True
    samples = 24
    pass_value = 0.8
    overcall_value = 0.9


class HardTwoVOneAgent(_Base):
    """Search (see the module text). As the lone player and in the bidding it plans with
    :class:`LonePlan` over more sampled deals, the duo modelled by the fight/feed rule;
    every other decision (duo follows, discards, returns, the exchange) is a
    determinised search with playouts to the end of the round."""

    name = "hard"
    PLANNED = (BID, RAISE, LEAD, HIDE)

    def __init__(self, budget_s: float = 0.4, iterations: int | None = None, **kw: Any) -> None:
        self.budget_s = budget_s
        self.iterations = iterations
        self.helper = NormalTwoVOneAgent()
        self.planner = _RuleNormal()

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        o = _two_v_one(obs)
        phase = o.phase
        if phase in self.PLANNED or (phase == KEEP and o.seat == o.lone):
            return self.planner.suggest(obs, legal, decision, rng)
        act = self.choose(obs, legal, decision, rng)
        base = self.helper.suggest(obs, legal, decision, random.Random(0))
        if base.action == act:
            return Suggestion(act, base.reason)
        return Suggestion(act, "Over many possible deals this does best for you.")

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        o = _two_v_one(obs)
        phase = o.phase
        if phase in self.PLANNED or (phase == KEEP and o.seat == o.lone):
            return self.planner.suggest(obs, legal, decision, rng).action
        return self.search(o, legal, rng)

    def search(self, obs: TwoVOneView, legal: list[Action], rng: random.Random) -> Action:
        start = time.perf_counter()
        me = obs.me
        phase = obs.phase
        sampler = Sampler(_raw(obs), keep_prior=_keep_prior(obs))
        options = [S.move_of(phase, a) for a in legal]
        k = len(options)
        total = [0.0] * k
        count = [0] * k
        alive = list(range(k))
        deadline = start + self.budget_s
        cap = self.iterations
        it = 0
        weigh = _bid_weigher(obs)
        while True:
            if cap is not None:
                if it >= cap:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            world = _weighted_sample(sampler, rng, weigh)
            if world is None:
                break
            seed = rng.getrandbits(32)
            model = LoneModel(random.Random(seed), rule_seat=me)
            # seats whose secret choice this seat cannot see choose again, first
            guard = 0
            while me not in world.to_act() and world.phase != S.OVER and guard < 50:
                seat = world.to_act()[0]
                world.apply(seat, rollout_move(world, seat, rng, model))
                guard += 1
            if me not in world.to_act():
                continue
            for i in alive:
                w = world.copy()
                w.apply(me, options[i])
                playout(w, random.Random(seed), model)
                total[i] += w.changes[me] if w.changes else 0
                count[i] += 1
            if len(alive) > 2 and it % 8 == 0:
                alive = _cull(alive, total, count)
        if not any(count):
            # the normal agent decides from the observation and the legal moves only
            return self.helper.choose(obs, legal, None, rng)  # type: ignore[arg-type]
        best = max(alive, key=lambda i: (total[i] / count[i] if count[i] else -1.0, -i))
        return S.action_of(phase, options[best])


def _cull(alive: list[int], total: list[float], count: list[int]) -> list[int]:
    """Drop candidates whose mean is clearly below the best one's (about three standard
    errors with coin outcomes in 0..2)."""
    means = {i: total[i] / count[i] for i in alive if count[i]}
    if not means:
        return alive
    top = max(means.values())
    n = min(count[i] for i in alive)
    margin = 3.0 * 1.0 / max(1.0, n**0.5)
    kept = [i for i in alive if means.get(i, top) >= top - margin]
    return kept if len(kept) >= 2 else sorted(alive, key=lambda i: -means.get(i, 0))[:2]


def _bid_weigher(obs: TwoVOneView) -> Callable[[RoundSim], float] | None:
    """How well a sampled deal fits the bids heard this round (a pass says a hand is
    weak, a bid that it is strong), as a weight in (0, 1]; ``None`` if nothing to read."""
    bids = [(s, v) for s, v in obs.bids if s != obs.me]
    if not bids:
        return None
    lone = obs.lone
    played_by: dict[int, int] = {}
    deal = obs.deal_number
    for h in obs.history:
        if h.deal == deal and h.kind == "hand" and h.lone_cards is not None:
            assert lone is not None  # a hand was played: there is a lone player
            played_by[lone] = played_by.get(lone, 0) | mask_of(h.lone_cards)
            for pair in h.duo_cards or ():
                s, c = pair
                played_by[s] = played_by.get(s, 0) | (1 << INDEX[c])

    def weight(w: RoundSim) -> float:
        x = 1.0
        for s, v in bids:
            hand = w.hands[s] | played_by.get(s, 0)
            if w.discards[s] >= 0:
                hand |= 1 << w.discards[s]
            if s == lone:
                for c in (w.up, w.down):
                    if c >= 0:
                        hand |= 1 << c
            score = _quick_bid_score(hand)
            p = 1.0 / (1.0 + pow(2.718, -(score - QUICK_BID3) / 3.0))
            x *= p if v else (1.0 - p) * 0.9 + 0.1
        return x

    return weight


def _weighted_sample(
    sampler: Sampler, rng: random.Random, weigh: Callable[[RoundSim], float] | None
) -> RoundSim | None:
    """A sample accepted with probability ``weigh(world)`` (a few tries, then the last)."""
    world = None
    for _ in range(6):
        try:
            world = sampler.sample(rng)
        except ValueError:
            return None
        if weigh is None or rng.random() < weigh(world):
            return world
    return world
