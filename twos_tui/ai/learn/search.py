"""``hard`` in the climbing games: a short search guided by the learned move scorer.

A decision is taken from the seat's observation, its legal actions and its own seeded
generator only:

1. **Shortcuts.** One legal action, or a play that empties the hand: play it.
2. **Candidates.** The ``normal`` AI's move is the incumbent (the move the others must
   clearly beat); the network's policy scores every legal move from the seat's view and
   its most likely moves join it, up to ``CANDIDATES`` in all (a move less than
   ``PRUNE`` times as likely as the policy's favourite is left out).
3. **Worlds.** The unseen cards are dealt again, weighted by what the others' passes and
   plays have shown (the beliefs of :mod:`..climbing_search`), keeping every count.
4. **Lines.** In each world every candidate is played, then the others answer with the
   network's policy from *their* view of that world (their hand, the public play; a
   share of random moves for an opponent that has played erratically this deal, as
   :func:`..climbing_search.erratic` reads it) until the seat is to move again; from
   there the fast rollout policy of :mod:`..climbing_search` plays the deal out
   (``FINISH``), scored 1 for a win plus a small bonus for the cards shed. (With
   ``FINISH`` off, the seat and the others play on with the network for ``DEPTH`` more
   of the seat's turns and the network's value ends the line: weaker as trained —
   paired seeds, Big Two 26.7% against 35.0% of 60 deals won against three ``normal``.)
   Every candidate meets the same worlds and the same random draws.
5. **Choice.** Candidates clearly worse than the incumbent (two standard errors of the
   paired difference) are dropped as worlds come in; when the time is up the move
   played is the one whose mean paired gain over the incumbent is largest and above one
   standard error, else the incumbent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import numpy as np

from ...engine.climbing.core import SimState
from ...engine.climbing.determinize import Sampler
from ...engine.climbing.rules import rules_for
from ...engine.observer import ObsIn, as_climbing
from ...engine.protocol import Action, Decision
from ...engine.views import ClimbingView
from .. import Suggestion
from ..climbing_ai import NormalClimbingAgent
from ..climbing_search import (
    BELIEFS,
    SHED_BONUS,
    HardClimbingAgent,
    belief_weights,
    clearly_better,
    clock,
    deal_value,
    erratic,
    rollout,
    rollout_erratic,
)
from . import net as netmod
from .agents import _net, sim_moves
from .features import View, move_features, view_of_observation

#: moves searched at most, and the share of the best move's policy probability a move
#: needs to be searched
CANDIDATES = 6
PRUNE = 0.05
#: the move the others must clearly beat: the normal AI's ("normal") or the policy's
INCUMBENT = "normal"
#: after the others' first answers, play the deal out with the fast rollout policy
#: (instead of the network's value a round later)
FINISH = True
#: how many more of the seat's own turns a line is played through before the value
DEPTH = 1
MIN_WORLDS = 8
DROP_Z = 2.0
PICK_Z = 1.0
#: the share of the time budget the search uses (the rest is margin for the p95)
BUDGET_SHARE = 0.8


def line_value(
    net: netmod.Net,
    s: SimState,
    seat: int,
    played: int,
    passes: int,
    rng: random.Random,
    eps: Sequence[float] | None,
    depth: int,
    finish: bool = False,
    worth: Callable[[list[int], int], float] | None = None,
) -> float:
    """Play ``s`` on with the network for every seat (after the seat's candidate) until
    the seat has been to move ``depth`` more times, then the network's value for it.
    ``worth`` (Twos under penalty scoring): what a played-out deal is worth to the seat
    (:func:`~..climbing_search.deal_value`) instead of the win."""
    r = s.rules
    n = r.players
    deck = r.deck_mask
    legal = r.legal
    turns = 0
    while s.winner < 0:
        cur = s.cur
        moves = legal(s)
        if cur == seat and finish:
            # the others have answered: the fast rollout policy plays the deal out
            size = max(1, r.hand_size)
            w = rollout_erratic(s, rng, eps) if eps is not None else rollout(s)
            if worth is not None:
                return worth(s.hands, w)
            return (1.0 if w == seat else 0.0) + SHED_BONUS * (
                1.0 - s.hands[seat].bit_count() / size
            )
        if cur == seat:
            v = View(
                cur, n, s.hands[cur], played, tuple(s.counts()), s.top, s.top_seat, passes, deck
            )
            o = net.outputs(move_features(v, moves))
            j = int(np.argmax(o[:, 0]))
            if turns >= depth:
                return float(1.0 / (1.0 + math.exp(-float(o[j, 1]))))
            turns += 1
            m = moves[j]
        elif len(moves) == 1:
            m = moves[0]
        elif eps is not None and eps[cur] and rng.random() < eps[cur]:
            m = moves[int(rng.random() * len(moves))]
        else:
            v = View(
                cur, n, s.hands[cur], played, tuple(s.counts()), s.top, s.top_seat, passes, deck
            )
            m = moves[int(np.argmax(net.logits(move_features(v, moves))))]
        s.play(m)
        if m is None:
            passes = 0 if s.top is None else passes | 1 << cur
        else:
            played |= m[0]
            passes = 0
    if worth is not None:
        return worth(s.hands, s.winner)
    return 1.0 if s.winner == seat else 0.0


class GuidedHardAgent(HardClimbingAgent):
    """``hard``: the network's candidates, compared by a short guided look-ahead."""

    name = "hard"

    def __init__(
        self,
        budget_s: float = 0.4,
        iterations: int | None = None,
        depth: int = DEPTH,
        candidates: int = CANDIDATES,
        incumbent: str = INCUMBENT,
        finish: bool = FINISH,
        play_for_penalty: bool = True,
    ) -> None:
        self.finish = finish
        super().__init__(budget_s, iterations, play_for_penalty)
        self.depth = depth
        self.candidates = candidates
        if incumbent not in ("normal", "policy"):
            raise ValueError("incumbent must be 'normal' or 'policy'")
        self.incumbent = incumbent
        self._said: set[str] = set()
        self.fallback = NormalClimbingAgent()
        #: (estimate, index in legal) of the candidates of the last decision, best first
        self.ranked: list[tuple[float, int]] = []

    def choose(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        obs = as_climbing(seen)
        self.last = {"worlds": 0, "rollouts": 0}
        self.ranked = []
        if len(legal) == 1:
            return legal[0]
        if decision.kind == "choose-hand":
            return self._choose_hand(obs, legal, rng)
        net = _net(obs.variant, self._said)
        if net is None or decision.kind != "play":
            return self.fallback.choose(obs, legal, decision, rng)
        return self._guided(obs, legal, rng, net)

    def suggest(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from .explain import explain

        obs = as_climbing(seen)

        act = self.choose(obs, legal, decision, rng)
        return explain(obs, legal, decision, rng, act, "hard", self.ranked, self.last)

    def _guided(
        self, obs: ClimbingView, legal: list[Action], rng: random.Random, net: netmod.Net
    ) -> Action:
        start = clock()
        rules = rules_for(obs.variant, obs.players, obs.options)
        seat = obs.me
        hand = rules.mask_of(obs.hand)
        moves, index = sim_moves(rules, legal)
        if not moves:
            return self.fallback.choose(obs, legal, Decision(seat, "play", ""), rng)
        for j, mv in enumerate(moves):
            if mv is not None and mv[0] == hand:
                return legal[index[j]]  # out of cards: the deal is won
        view = view_of_observation(obs, rules)
        prior = net.score(move_features(view, moves))
        order = sorted(range(len(moves)), key=lambda j: -prior[j])
        best = float(prior[order[0]])
        cand = [j for j in order[: self.candidates] if prior[j] >= best * PRUNE]
        if self.incumbent == "normal":
            # the normal AI's move is the incumbent the others must clearly beat
            pick = self.fallback.choose(obs, legal, Decision(seat, "play", ""), rng)
            inc = next((j for j in range(len(moves)) if legal[index[j]] == pick), None)
            if inc is not None:
                cand = [inc] + [x for x in cand if x != inc][: self.candidates - 1]
        self.ranked = [(float(prior[j]), index[j]) for j in cand]
        if len(cand) == 1:
            return legal[index[cand[0]]]
        sampler = Sampler(obs, belief_weights(obs, rules) if BELIEFS else None)
        eps = erratic(obs, rules)
        use_eps = eps if any(eps) else None
        k = len(cand)
        diff = [0.0] * k
        diff2 = [0.0] * k
        total = [0.0] * k
        count = [0] * k
        active = list(range(k))
        deadline = start + self.budget_s * BUDGET_SHARE
        cap = self.iterations
        lines = worlds = 0
        value = [0.0] * k
        # Twos under penalty scoring plays for the points (the usual scoring: the win)
        worth = (
            deal_value(rules, seat, self.play_for_penalty)
            if rules.penalty(rules.hand_size) is not None
            else None
        )
        while True:
            world = sampler.sample(rng)
            wseed = rng.getrandbits(32)
            for i in active:
                s = world.copy()
                mv = moves[cand[i]]
                s.play(mv)
                played = sampler.played
                passes = view.passes
                if mv is None:
                    passes = 0 if s.top is None else passes | 1 << seat
                else:
                    played |= mv[0]
                    passes = 0
                if s.winner >= 0:
                    if worth is not None:
                        value[i] = worth(s.hands, s.winner)
                    else:
                        value[i] = 1.0 if s.winner == seat else 0.0
                else:
                    value[i] = line_value(
                        net,
                        s,
                        seat,
                        played,
                        passes,
                        random.Random(wseed),
                        use_eps,
                        self.depth,
                        self.finish,
                        worth,
                    )
                lines += 1
            v0 = value[0]
            for i in active:
                d = value[i] - v0
                diff[i] += d
                diff2[i] += d * d
                total[i] += value[i]
                count[i] += 1
            worlds += 1
            if cap is not None:
                if lines >= cap:
                    break
            elif clock() >= deadline:
                break
            if worlds >= MIN_WORLDS and len(active) > 1:
                lead = max(active, key=lambda i: diff[i] / count[i])
                ml = diff[lead] / count[lead]
                keep = [0]
                for i in active[1:]:
                    n = count[i]
                    m = diff[i] / n
                    se = math.sqrt(max(diff2[i] / n - m * m, 1e-4) / n)
                    if m + DROP_Z * se >= 0.0 and m + DROP_Z * se >= ml - DROP_Z * se:
                        keep.append(i)
                active = keep
                if len(active) == 1:
                    break
        best_i = clearly_better(count, diff, diff2, PICK_Z)
        means = [total[i] / count[i] if count[i] else 0.0 for i in range(k)]
        self.ranked = sorted(
            ((means[i], index[cand[i]]) for i in range(k)),
            key=lambda t: (t[1] != index[cand[best_i]], -t[0]),
        )
        self.last = {
            "worlds": worlds,
            "rollouts": lines,
            "candidates": k,
            "seconds": clock() - start,
            "means": [round(x, 3) for x in means],
            "picked": best_i,
        }
        return legal[index[cand[best_i]]]
