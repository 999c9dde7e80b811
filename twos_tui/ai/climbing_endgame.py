"""Exact endgames for the ``hard`` climbing search (:mod:`.climbing_search`).

In one sampled world every hand is known, so a deal near its end can be solved exactly
instead of played out by the cheap rollout policy:

* with three or four players, **max-n**: the seat to act picks the move that is best
  for *its own* value of the deal's end (:func:`.climbing_search.deal_value` of that
  seat: its change in match standing in the penalty games, the win in Twos);
* with two, **alpha-beta** on the searcher's value (minimax: the opponent is taken to
  do what is worst for the searcher, which in the penalty games is what is best for it);
* a **memo** (transposition table) keyed on the state's hand masks, the seat to act,
  the play to beat and who made it, shared by every candidate move and every world of
  one decision (the key is the whole position, so an entry holds whatever the world);
* a move that empties the hand ends the search of that node: going out at once is the
  best a seat can do (its own penalty is 0, and the others' cards can only go down);
* **move ordering** for the cuts: longer plays first, the pass last;
* a **node cap** per world: a solve that would run past it (or, on the clock, past the
  search's deadline) gives up, and the search rolls that world (and the rest of the
  decision) out as before, so a big position never costs more than the cap and a
  decision keeps its time budget.

When the search starts exact solving: the cards left in all hands together are at most
:data:`EXACT_CARDS` for the game (chosen by measurement, see :mod:`.climbing_search`).
The solver reads only the world it is given (a deal the :class:`Sampler` dealt from the
seat's observation), never the game's true hands.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TypeAlias

from ..engine.climbing.core import Move, Rules, SimState

#: the value of a deal's end to one seat: a function of the hands left and the winner
Value: TypeAlias = Callable[[list[int], int], float]

#: per (variant, players): exact solving starts when all hands together hold at most
#: this many cards (measured with ``benchmarks/endgame_sizes.py``: about the largest
#: whose solve of a world costs a few hundredths of a second at the 95th percentile, so
#: that a 0.4 s decision still sees a dozen worlds or more)
EXACT_CARDS: dict[tuple[str, int], int] = {
    ("twos", 2): 12,
    ("twos", 3): 11,
    ("big-two", 4): 12,
    ("big-two-5r", 4): 12,
    ("chinese-poker", 4): 12,
    ("chinese-poker", 2): 12,
}
#: positions a solve may expand in one world before it gives up (about 0.05 s of one
#: core)
NODE_CAP = 10_000
#: a solve with a deadline looks at the clock every this many positions (a power of 2)
CLOCK_EVERY = 256


class NodeCap(Exception):
    """A solve ran past its node cap (or its deadline)."""


def _order(m: Move | None) -> tuple[int, int]:
    """Sort key of the move ordering: longer plays first, then lower ones, the pass
    last."""
    if m is None:
        return (1, 0)
    return (-m[0].bit_count(), m[2])


class Endgame:
    """Exact values of candidate moves in sampled worlds, for one decision of ``seat``
    (``values[s]``: what the deal's end is worth to seat ``s``)."""

    def __init__(
        self, rules: Rules, seat: int, values: Sequence[Value], node_cap: int | None = None
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.values = list(values)
        self.node_cap = NODE_CAP if node_cap is None else node_cap
        self.players = rules.players
        self.locked = rules.locked
        #: max-n: position -> the value of its end to every seat
        self.memo_n: dict[tuple[object, ...], tuple[float, ...]] = {}
        #: alpha-beta: position -> (value to the searcher, bound: 0 exact, 1 lower, -1 upper)
        self.memo_ab: dict[tuple[object, ...], tuple[float, int]] = {}
        self.nodes = 0  # positions expanded in the current world
        #: the search's deadline (its clock, ``time.perf_counter``): a solve still
        #: running then gives up like one past the node cap (none under an iteration cap)
        self.deadline = math.inf
        #: worlds solved, worlds given up (node cap), positions expanded in all
        self.solved = 0
        self.gave_up = 0
        self.expanded = 0

    # ----- the search's entry point ---------------------------------------------------
    def solve(
        self, world: SimState, moves: Sequence[Move | None], active: Sequence[int]
    ) -> dict[int, float] | None:
        """The exact value to the searcher of each ``moves[i]`` (``i`` in ``active``)
        played in ``world``; None when the world is too big for the node cap."""
        self.nodes = 0
        out: dict[int, float] = {}
        try:
            for i in active:
                s = world.copy()
                s.play(moves[i])
                out[i] = self.value(s)
        except NodeCap:
            self.gave_up += 1
            self.expanded += self.nodes
            return None
        self.solved += 1
        self.expanded += self.nodes
        return out

    def value(self, s: SimState) -> float:
        """The exact value of ``s`` to the searcher (raises :class:`NodeCap`)."""
        if s.winner >= 0:
            return self.values[self.seat](s.hands, s.winner)
        if self.players == 2:
            return self._ab(s, -1e9, 1e9)
        return self._maxn(s)[self.seat]

    # ----- the solvers ----------------------------------------------------------------
    def _key(self, s: SimState) -> tuple[object, ...]:
        # without the locked rule, who passed this trick changes nothing ahead
        passed = s.passed if self.locked else 0
        return (*s.hands, s.cur, s.top, s.top_seat, passed, s.req, s.opening, s.open_passes)

    def _expand(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_cap:
            raise NodeCap
        if not self.nodes & (CLOCK_EVERY - 1) and time.perf_counter() >= self.deadline:
            raise NodeCap

    def _children(self, s: SimState) -> list[Move | None]:
        legal = s.legal()
        h = s.hands[s.cur]
        for m in legal:
            if m is not None and m[0] == h:
                return [m]  # going out now is the best there is
        return sorted(legal, key=_order)

    def _end(self, s: SimState) -> tuple[float, ...]:
        hands, winner = s.hands, s.winner
        return tuple(v(hands, winner) for v in self.values)

    def _maxn(self, s: SimState) -> tuple[float, ...]:
        key = self._key(s)
        got = self.memo_n.get(key)
        if got is not None:
            return got
        self._expand()
        cur = s.cur
        best: tuple[float, ...] | None = None
        for m in self._children(s):
            c = s.copy()
            c.play(m)
            vec = self._end(c) if c.winner >= 0 else self._maxn(c)
            if best is None or vec[cur] > best[cur]:
                best = vec
        assert best is not None  # a state in play always has a legal move
        self.memo_n[key] = best
        return best

    def _ab(self, s: SimState, alpha: float, beta: float) -> float:
        key = self._key(s)
        got = self.memo_ab.get(key)
        if got is not None:
            v, bound = got
            if bound == 0 or (bound > 0 and v >= beta) or (bound < 0 and v <= alpha):
                return v
            if bound > 0:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        self._expand()
        a0, b0 = alpha, beta
        me = s.cur == self.seat
        value = self.values[self.seat]
        best = -1e9 if me else 1e9
        for m in self._children(s):
            c = s.copy()
            c.play(m)
            v = value(c.hands, c.winner) if c.winner >= 0 else self._ab(c, alpha, beta)
            if me:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        bound = -1 if best <= a0 else 1 if best >= b0 else 0
        self.memo_ab[key] = (best, bound)
        return best


def endgame_for(
    world: SimState,
    seat: int,
    values: Callable[[Rules, int], Value],
    deadline: float = math.inf,
) -> Endgame | None:
    """The exact solver for a decision of ``seat`` whose sampled ``world`` is small
    enough (every world of a decision holds the same counts), else None. ``values``:
    the search's :func:`deal_value`; ``deadline``: the search's (see
    :attr:`Endgame.deadline`)."""
    rules = world.rules
    variant = rules.variant_id or "twos"  # the Twos rules leave the id unset
    limit = EXACT_CARDS.get((variant, rules.players), 0)
    if sum(h.bit_count() for h in world.hands) > limit:
        return None
    solver = Endgame(rules, seat, [values(rules, s) for s in range(rules.players)])
    solver.deadline = deadline
    return solver
