"""The ``hard`` opponent of the climbing games: determinized search with a fast rollout
policy (Twos, Big Two, Big Two five-round, Chinese Poker).

Algorithm
---------
A decision is taken from the seat's observation, its legal actions and its own seeded
generator only:

1. **Shortcuts.** One legal action: play it. A play that empties the hand wins the
   deal: play it.
2. **Candidates.** The legal actions become the core's moves
   (:mod:`twos_tui.engine.climbing.core`). Where there are many (a Big Two lead lists
   every suit choice of every poker hand), a cheap prior keeps two dozen: the rollout
   policy's own choice, the lowest plays of every pattern, plays that shed the most
   cards, the highest single and the pass.
3. **Beliefs.** The unseen cards are dealt again for every *world*, not uniformly but
   with per-card weights read from the public play of this deal: an opponent who passed
   on a single is less likely to hold singles above it (more so the lower that single
   was), one who passed on a pair or triple less likely to hold two or three cards of a
   higher rank, and one who beat a single with a card well above it less likely to hold
   the cards in between (players usually beat as cheaply as they can). These are
   weights, never certainties: passing is voluntary. The card the first play must hold
   goes to the seat that holds it; every count is kept exactly.
4. **Paired rollouts.** Each world is played out once from every remaining candidate,
   by all seats with the same cheap rollout policy (below), so candidates are compared
   on the same hidden cards and the same random draws (common random numbers). Each
   opponent plays a share of uniformly random moves in the rollouts: how erratic it
   looks in this deal (:func:`erratic`). A follow on a single is *odd* when a later
   play of the same player shows it passed holding a beater below an ace, or beat with
   a card above one it held that was enough; sound players do that on 0-6% of the
   singles they follow, random players on 22-25%. From even odds at the start, each
   odd follow multiplies the odds that the player moves at random by 6 and each plain
   one by 0.85; the share of random moves is 0.8 times that probability. (Measured
   paired, 600 rollouts a decision, the same seeded deals with and without it: against
   all-random, Big Two 78.8% -> 87.5% of 80 deals won (10 deals won only with it, 3
   only without), Chinese Poker 82.5% -> 90.0% (9 / 3); against all-``normal``, Big
   Two 41.2% both ways, Chinese Poker 32.5% -> 40.0% (11 / 5), Twos for three 38.9%
   -> 41.1% of 90 (12 / 10), Twos for two 53.7% -> 61.3% (15 / 9); against
   all-``greedy``, Big Two 55.0% -> 61.3%, Twos for three 71.1% -> 74.4%.)
   A rollout is scored by what the match is decided by (:func:`deal_value`). In the
   penalty games (Big Two, its five-round edition, Chinese Poker, Twos under penalty
   scoring) that is the seat's change in standing, from the game's own penalty table:
   the others' mean penalty less its own (so 11 cards left in Big Two cost 30, not 11,
   and going out earns what the others pay). In Chinese Poker the winner of a deal
   deals the next one and plays first, so a win also earns what that lead is worth
   (:data:`NEXT_LEAD`: 5.8 points with four players, measured with ``normal`` in every
   seat by ``benchmarks/lead_value.py``); on the same 400 deals (1,000 playouts a
   decision, against three ``normal``) it won 32.5% of deals against 31.3% without
   (+10.0 points paired against +8.3) and still paid 2.7 points a deal less than
   ``normal``. In Twos' usual scoring it is 1 for the win,
   plus a small bonus for the cards shed (a tie-break). Before issue 33 every game was
   scored the Twos way, and hard won many deals but paid more penalty than ``normal``:
   on the same 240 Big Two deals (hard at 500 playouts a decision against three
   ``normal`` as it was before this issue's fixes, ``python benchmarks/penalty_search.py
   --deals 240 --iterations 500``), playing for the deal it won 45.4% of deals, 27.2
   points more than ``normal`` with the same hands, but paid 0.68 points a deal more
   [-0.30, +1.66] and ended 7.1% of its hands with 11 cards or more (normal 2.6%);
   playing for the penalty, 35.4% (+13.9 [+8.3, +19.4]), 0.84 points a deal less
   [-1.40, -0.27] and 2.1% (normal 3.2%). Adding a bonus for the win itself
   (:data:`WIN_BONUS`; against today's ``normal``, the same deals: 0, 0.15, 0.3, 0.5)
   wins more deals (+13.3, +16.7, +18.9, +21.1 points) but gives the penalty back
   (-0.86 [-1.42, -0.30], then -0.22, +0.33, +0.25 a deal, those intervals across 0),
   so there is none.
5. **Elimination.** The policy's own move is the incumbent. After a few worlds, a
   candidate whose paired difference to the incumbent (or to the leader) is clearly
   negative — by two standard errors of that difference — stops being rolled out, so
   the budget goes to the close calls; when only the incumbent is left, the search
   stops early.
6. **Stop.** When the time budget (default 0.4 s) or the iteration cap (rollouts, for
   reproducible runs) is spent, the move played is the candidate whose mean paired
   gain over the incumbent is largest and above one standard error; otherwise the
   incumbent. Moves that merely look better on a few noisy worlds do not replace the
   policy's sound default.

Rollout policy (every seat, on integer masks, no lists built beyond the legal moves):
go out when possible; with two plays left, one that nobody else can beat, play that one
first (in a simulated world the seats see where the cards are: good players count);
lead the biggest combination that holds the lowest card (a single only when nothing
longer holds it; never a bomb while something else is possible; a smaller one that
keeps the aces and twos if the biggest would spend them), but when an opponent holds
one card, lead anything but a single, or the highest single; follow with the cheapest
play that beats the table — for a single (pair, triple) preferring a rank held exactly
once (twice, three times), so as not to break a bigger set — or the highest single when
an opponent holds one card; a bomb only when someone is close to going out; with three
or four players, hold a 2 (or an ace) back early in the deal while nobody is close to
going out (with two, a pass hands the lead straight over, so never).

Exact endgames (:mod:`.climbing_endgame`): when all hands together hold at most 12 cards
(11 in Twos for three), each world is solved exactly instead of rolled out, and a
candidate's reward in that world is its solved value: max-n with three or four players
(every seat plays for its own :func:`deal_value`), alpha-beta with two, a memo on the
core's masks shared by the decision's candidates and worlds, and a cap of 10,000
positions a world (or the deadline) past which the world and the rest of the decision
are rolled out. The counts are the largest whose solve costs a few hundredths of a
second a world at the 95th percentile (``benchmarks/endgame_sizes.py``: Big Two at 12
cards 0.065 s, at 13 about 0.1 s, at 14 0.36 s; Twos for three at 11 cards 0.052 s, at
12 0.18 s; Twos for two at 12 cards 0.054 s, at 13 0.22 s). Positions that small are
rare before someone goes out: on 20 seeded deals a game against ``normal``
(``benchmarks/hard_times.py --deals 20 --level rollouts``, load about 8.6 on 2 cores)
2.4-3.0% of the decisions in Big Two, five-round and Chinese Poker solved exactly, 5.7%
in Twos for three and 24.8% in Twos for two; those decisions took 0.400-0.412 s at the
95th percentile and at most 0.414 s on the wall clock (all decisions: 0.404-0.410 s and
at most 0.55 s). Paired, the same 200 arena deals with and without it, 400 rollouts a
decision (``benchmarks/endgame_paired.py``): Twos for two (this search against
``normal``) 53.5% -> 55.0% of deals won (+1.5 points [-1.1, +4.1], 7 deals changed); Big
Two 36.5% -> 36.0% (-0.5 [-1.5, +0.5], penalty 3.580 -> 3.585 a deal, 1 deal changed);
Chinese Poker 29.5% and 5.575 penalty points a deal both ways, Twos for three (this
search) 38.3% both ways: no deal changed. (Twos' own ``hard`` is the network-guided
search, which does not use the solver.)

Chinese Poker for two starts with a hand choice: each hand on offer is tried in
rollouts against the hands the opponent could end up with (the dealer assumes the
opponent takes the one that is best for it; the second chooser knows the dealer's hand
exactly: it is the rest of the deck), and the best is taken.

Measured and left out (no gain in the arena at the sample sizes tried): the ``normal``
AI's move as the incumbent, the same share of random moves for every seat in the
rollouts, re-dealing short opponent hands so that they more often form one play, an
earlier reading of erratic opponents that started from no randomness at all and only
counted from two odd follows on (random players show it too late in a deal: 78.8% ->
83.8% against three random, against 87.5% as it is now), weakening the belief weights
of opponents that look erratic (worse: 87.5% -> 76.3% against three random, 1 deal won
only with it, 10 only without: a random player passes less the more plays it has, so
its passes do tell). An inference of the other hands
(``climbing_beliefs.inferred_weights``: worlds weighed by how likely each opponent's
follows, passes and leads were under a softened model of a sound player) places 0.7-2.0
points more unseen cards right than the belief weights (1,000 positions a game,
``benchmarks/bench_beliefs.py``), but with it hard won 34.5% against 35.0% of 400 Big Two
deals and 39.1% against 43.8% of 402 Twos deals (paired against normal +8.6 [+4.5,
+12.7] against +15.7 [+11.3, +20.1]), so it is off (``INFERENCE``). Without the belief weights
the search measured the same against ``normal`` (within noise); they stay because they
are what a player reads.

Measured on 2026-11-28 and left out (1,000 playouts a decision against three ``normal``,
seed 1's deals, paired deals-won margin against today's +14.5 on 700 Big Two deals and
+10.0 on 400 Chinese Poker deals): opponents in the playouts that pass rather than break
a pair or triple to follow while nobody holds two cards or fewer. It made the rollout
policy a much closer model of ``normal`` (its move is ``normal``'s own in 85% of
``normal``'s follows at five cards or fewer, against 60%; 68% against 60% at six to nine)
but not a better search: Big Two +12.9 (penalty 3.50 against 3.51 a deal), Chinese Poker
+8.7 (every seat so, the searcher's own included: +7.0). In Chinese Poker also: ``normal``'s
move as the incumbent +10.0 (penalty 5.47 against 5.62), 48 candidates in place of 24
+10.0, a stricter bar for leaving the incumbent (``PICK_Z`` 2) +11.0 (penalty 2.41 below
``normal``'s against 2.69). On 1,600 other Chinese Poker deals (16 arena runs of 100,
seeds 1000-1003, 1100-1103, 1200-1203, 1300-1303): as it is +13.8 (+-2.2), penalty 2.98
a deal below ``normal``'s; ``ODD_PRIOR`` 4 +12.6, ``PICK_Z`` 2 +12.4, both +13.2.

Where the code lives: the search (:class:`HardClimbingAgent`) here, the rollout policy
in :mod:`.climbing_rollout`, the beliefs, the erratic reading and the paired test in
:mod:`.climbing_beliefs`; their names are still exported from here.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict

from ..engine.climbing.core import Move, Rules, SimState
from ..engine.climbing.determinize import Sampler
from ..engine.climbing.rules import rules_for
from ..engine.observer import ObsIn, as_climbing
from ..engine.protocol import Action, Decision
from ..engine.views import ClimbingView
from .climbing_beliefs import (
    ODD_EPS_MAX,
    ODD_LR,
    ODD_PRIOR,
    PLAIN_LR,
    belief_weights,
    clearly_better,
    erratic,
)
from .climbing_endgame import endgame_for
from .climbing_rollout import ACE, ENDGAME_CARDS, TWO, policy, rollout, rollout_erratic

if TYPE_CHECKING:
    from . import Suggestion


class SearchFigures(TypedDict):
    """What the last search did (for its hint, the tests and the benchmarks): the deals
    dealt and the playouts, and once it weighed moves, how many, how long, each one's
    mean and the one picked (its index among them)."""

    worlds: int
    rollouts: int
    candidates: NotRequired[int]
    seconds: NotRequired[float]
    means: NotRequired[list[float | None]]
    won: NotRequired[list[float | None]]  #: each move's share of playouts the seat won
    picked: NotRequired[int]
    moves: NotRequired[list[int]]  #: each weighed move's index among the legal actions
    exact: NotRequired[int]


#: the module's names, with those that now live in its sibling modules
__all__ = [
    "ACE",
    "BELIEFS",
    "DROP_Z",
    "ENDGAME_CARDS",
    "ERRATIC",
    "HAND_CHOICE_EPS",
    "HardClimbingAgent",
    "MAX_CANDIDATES",
    "MIN_WORLDS",
    "ODD_EPS_MAX",
    "ODD_LR",
    "ODD_PRIOR",
    "PICK_Z",
    "PLAIN_LR",
    "SHED_BONUS",
    "TWO",
    "belief_weights",
    "clearly_better",
    "clock",
    "erratic",
    "policy",
    "rollout",
    "rollout_erratic",
]

#: the search's clock (seconds)
clock = time.perf_counter
#: keep at most this many candidates for the search
MAX_CANDIDATES = 24
#: bonus a rollout gives per share of the hand shed (the win itself is worth 1)
SHED_BONUS = 0.05
#: worlds before a candidate may be dropped, and the margins (in standard errors of
#: the paired difference) to drop a candidate and to prefer one to the incumbent
MIN_WORLDS = 8
DROP_Z = 2.0
PICK_Z = 1.0
#: seconds before the budget's end that the search leaves for picking its move and
#: answering (so that a decision ends inside its budget, not a millisecond after)
END_MARGIN = 0.002
#: deal the unseen cards with the weights read from the play (else uniformly)
BELIEFS = True
#: the hand choice plays each pairing of hands many times: a share of random moves
HAND_CHOICE_EPS = 0.1
#: solve small endgames exactly in each world (see :mod:`.climbing_endgame`)
EXACT = True
#: give opponents who follow oddly random moves in the rollouts (see :func:`erratic`)
ERRATIC = True


#: in the penalty games, how much the others' penalties count against this seat's own
#: (the match is won by the lowest total: what matters is the gap to the others; 1 =
#: the mean of the others' penalties counts as much as this seat's own)
OTHERS_WEIGHT = 1.0
#: in the penalty games, what winning the deal is worth besides the penalties it
#: saves, in units of the most a seat can lose (see :func:`deal_value`)
WIN_BONUS = 0.0
#: where the winner of a deal leads the next (Chinese Poker), what leading a deal is
#: worth against not leading it, in penalty points, by the number of players: measured
#: with ``normal`` in every seat (``python benchmarks/lead_value.py --players N``; 20,000
#: deals for four players, 10,000 for three and two): the first to act ends a deal
#: 4.34, 4.60 and 9.32 points better placed than the others' mean, so leading is worth
#: 5.8, 6.9 and 18.6 points more than not leading
NEXT_LEAD = {2: 18.6, 3: 6.9, 4: 5.8}


def deal_value(rules: Rules, seat: int, penalty: bool = True) -> Callable[[list[int], int], float]:
    """What the end of a played-out deal is worth to ``seat``: a function of the hands
    left (card masks) and the winner. Where the match is decided by penalty points, the
    change in the seat's standing: the others' mean penalty (weighted by
    :data:`OTHERS_WEIGHT`) less its own, from the game's own table (Big Two's 50/40/30
    for 13/12/11 cards, the five-round edition's doubling and tripling, Chinese Poker's,
    Twos' point a card), in units of the most a seat can lose. Where deals won decide
    it (Twos' usual scoring), or with ``penalty=False`` (how hard played before it
    played for the penalty: kept for ``benchmarks/penalty_search.py``): 1 for the win,
    plus a small bonus for the cards shed."""
    size = max(1, rules.hand_size)
    worst = rules.penalty(size)
    if worst is None or not penalty:

        def won(hands: list[int], winner: int) -> float:
            return (1.0 if winner == seat else 0.0) + SHED_BONUS * (
                1.0 - hands[seat].bit_count() / size
            )

        return won
    table = [rules.penalty(n) or 0 for n in range(size + 1)]
    scale = 1.0 / max(1, table[size])
    others = OTHERS_WEIGHT / max(1, rules.players - 1)
    # the win also earns the next deal's lead, where the game hands it to the winner
    lead = NEXT_LEAD.get(rules.players, 0.0) if rules.winner_leads_next else 0.0
    bonus = WIN_BONUS + lead * scale

    def standing(hands: list[int], winner: int) -> float:
        if winner == seat:
            rest = sum(table[h.bit_count()] for i, h in enumerate(hands) if i != seat)
            return others * rest * scale + bonus
        own = table[hands[seat].bit_count()]
        rest = sum(table[h.bit_count()] for i, h in enumerate(hands) if i != seat and i != winner)
        return (others * rest - own) * scale

    return standing


# ---------------------------------------------------------------------------------------
# The agent


class HardClimbingAgent:
    """Determinized search with paired rollouts (see the module docstring)."""

    name = "hard"

    def __init__(
        self, budget_s: float = 0.4, iterations: int | None = None, play_for_penalty: bool = True
    ) -> None:
        if budget_s <= 0:
            raise ValueError("budget_s must be positive")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.budget_s = budget_s
        self.iterations = iterations
        #: score playouts by the match's penalty points where the game has them (else
        #: by the deal won and the cards shed)
        self.play_for_penalty = play_for_penalty
        #: figures of the last search: worlds, rollouts, candidates, seconds
        self.last: SearchFigures = {"worlds": 0, "rollouts": 0}

    # ----- the protocol --------------------------------------------------------------
    def choose(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        obs = as_climbing(seen)
        self.last = {"worlds": 0, "rollouts": 0}
        if len(legal) == 1:
            return legal[0]
        if decision.kind == "choose-hand":
            return self._choose_hand(obs, legal, rng)
        if decision.kind != "play":
            return legal[rng.randrange(len(legal))]
        return self._choose_play(obs, legal, rng)

    def suggest(
        self, seen: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        """The hint of this search: its own move; ``normal``'s reason when ``normal``
        would make the same move, else what the search did."""
        from . import Suggestion
        from .climbing_ai import NormalClimbingAgent, show

        obs = as_climbing(seen)
        act = self.choose(obs, legal, decision, rng)
        base = NormalClimbingAgent().suggest(obs, legal, decision, random.Random(0))
        if base.action == act:
            return Suggestion(act, base.reason)
        if act.kind == "play" and len(act.cards) == len(obs.hand):
            return Suggestion(act, f"Play {show(act.cards)}: it empties your hand.")
        head = "Pass" if act.kind == "pass" else f"Play {show(act.cards)}"
        worlds = self.last.get("worlds", 0)
        if worlds:
            means = [m for m in self.last.get("means", []) if m is not None]
            picked = self.last.get("picked")
            mine = self.last.get("means", [None])[picked] if picked is not None else None
            rules = rules_for(obs.variant, obs.players, obs.options)
            if (
                self.play_for_penalty
                and rules.penalty(rules.hand_size) is not None
                and mine is not None
                and mine >= max(means)
            ):  # (the means are of the seat's standing on penalty points)
                return Suggestion(
                    act,
                    f"{head}: it keeps your penalty low (no move tried did better on "
                    f"points in {worlds} deals dealt from what you can see).",
                )
            return Suggestion(
                act,
                f"{head}: the search's choice after playing out {worlds} deals dealt from "
                "what you can see.",
            )
        return Suggestion(act, f"{head}: the search's choice.")

    # ----- playing -------------------------------------------------------------------
    def _choose_play(self, obs: ClimbingView, legal: list[Action], rng: random.Random) -> Action:
        start = clock()
        rules = rules_for(obs.variant, obs.players, obs.options)
        seat = obs.me
        hand = rules.mask_of(obs.hand)
        moves = []
        index = []  # legal[index[j]] is moves[j]
        for i, a in enumerate(legal):
            if a.kind == "pass":
                mv = None
            else:
                mv = rules.move_of_codes(a.cards)
                if mv is None:  # not a play the sim knows (never for a listed action)
                    continue
                if mv[0] == hand:
                    return a  # out of cards: the deal is won
            moves.append(mv)
            index.append(i)
        if not moves:
            return legal[0]
        sampler = Sampler(obs, belief_weights(obs, rules) if BELIEFS else None)
        cand = self._candidates(sampler, moves, rng)
        if len(cand) == 1:
            return legal[index[cand[0]]]
        eps = erratic(obs, rules) if ERRATIC else None
        pick = self._search(sampler, seat, [moves[i] for i in cand], cand, rng, start, eps)
        if "moves" in self.last:  # (indices among the moves, then among the legal actions)
            self.last["moves"] = [index[j] for j in self.last["moves"]]
        return legal[index[pick]]

    def _candidates(
        self, sampler: Sampler, moves: list[Move | None], rng: random.Random
    ) -> list[int]:
        """Indices of the moves worth searching, the rollout policy's own choice first
        (the incumbent the others must beat)."""
        s = sampler.sample(rng)
        pick = policy(s, moves)  # reads only public counts and the seat's own hand
        chosen: list[int] = []

        def add(i: int | None) -> None:
            if i is not None and i not in chosen:
                chosen.append(i)

        add(next(i for i, m in enumerate(moves) if m is pick))
        if len(moves) <= MAX_CANDIDATES:
            for i in range(len(moves)):
                add(i)
            return chosen
        add(next((i for i, m in enumerate(moves) if m is None), None))
        plays = [(i, m) for i, m in enumerate(moves) if m is not None]
        # the lowest play of each pattern, then the longest plays, then the highest
        by_slot: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        for i, m in plays:
            by_slot.setdefault((m[1], m[3]), []).append((m[2], m[0], i))
        lowest = sorted(min(v) for v in by_slot.values())
        for _, _, i in lowest:
            add(i)
        longest = sorted(plays, key=lambda im: (-im[1][0].bit_count(), im[1][2], im[1][0]))
        for i, _ in longest[:4]:
            add(i)
        singles = [im for im in plays if im[1][0].bit_count() == 1]
        if singles:
            add(max(singles, key=lambda im: im[1][2])[0])
        for v in sorted(by_slot.values(), key=lambda v: min(v)):
            for _, _, i in sorted(v)[1:3]:
                add(i)
        return chosen[:MAX_CANDIDATES]

    def _search(
        self,
        sampler: Sampler,
        seat: int,
        moves: list[Move | None],
        index: list[int],
        rng: random.Random,
        start: float,
        eps: list[float] | None = None,
    ) -> int:
        """Paired rollouts of ``moves`` (``moves[0]`` is the incumbent); the index in
        ``index`` of the move played. ``eps``: per seat, the share of random moves in
        the rollouts (the same random draws for every candidate of a world)."""
        if eps is not None and not any(eps):
            eps = None
        k = len(moves)
        diff = [0.0] * k  # sums of (reward - the incumbent's reward) on shared worlds
        diff2 = [0.0] * k
        count = [0] * k
        total = [0.0] * k
        wins = [0] * k  # playouts won (rolled-out worlds only: a solved one has no winner)
        played = [0] * k
        active = list(range(k))
        value = deal_value(sampler.rules, seat, self.play_for_penalty)
        deadline = start + self.budget_s
        cap = self.iterations
        rollouts = worlds = 0
        reward = [0.0] * k
        ending = None  # the exact solver of small endgames (climbing_endgame)
        solved = 0
        last_world = start  # when the last world ended (the first: when the search began)
        while True:
            world = sampler.sample(rng)
            if EXACT and not worlds:
                ending = endgame_for(
                    world,
                    seat,
                    lambda r, s: deal_value(r, s, self.play_for_penalty),
                    math.inf if cap else deadline,
                )
            wseed = rng.getrandbits(32) if eps is not None else 0
            exact = ending.solve(world, moves, active) if ending is not None else None
            if exact is None:
                ending = None  # none, or too big for the node cap: roll the rest out
            else:
                solved += 1
            for i in active:
                if exact is not None:  # the world's value after the move, solved
                    reward[i] = exact[i]
                    rollouts += 1
                    continue
                s = world.copy()
                s.play(moves[i])
                win = rollout(s) if eps is None else rollout_erratic(s, random.Random(wseed), eps)
                reward[i] = value(s.hands, win)
                wins[i] += win == seat
                played[i] += 1
                rollouts += 1
            r0 = reward[0]
            for i in active:
                d = reward[i] - r0
                diff[i] += d
                diff2[i] += d * d
                count[i] += 1
                total[i] += reward[i]
            worlds += 1
            if cap is not None:
                if rollouts >= cap:
                    break
            else:
                # stop when the next world, as long as this one, would end past the
                # budget (a decision then keeps its 0.4 s, not only starts its last world
                # inside it)
                now = clock()
                if now + (now - last_world) >= deadline - END_MARGIN:
                    break
                last_world = now
            if worlds >= MIN_WORLDS and len(active) > 1:
                # drop a move clearly worse than the incumbent or than the leader
                lead = max(active, key=lambda i: diff[i] / count[i])
                keep = [0]
                for i in active[1:]:
                    n = count[i]
                    m = diff[i] / n
                    se = math.sqrt(max(diff2[i] / n - m * m, 1e-4) / n)
                    ml = diff[lead] / count[lead]
                    if m + DROP_Z * se >= 0.0 and m + DROP_Z * se >= ml - DROP_Z * se:
                        keep.append(i)
                active = keep
                if len(active) == 1:
                    break  # every other move is clearly worse than the incumbent
        best_i = clearly_better(count, diff, diff2, PICK_Z)
        self.last = {
            "worlds": worlds,
            "rollouts": rollouts,
            "candidates": k,
            "seconds": clock() - start,
            "means": [round(total[i] / count[i], 3) if count[i] else None for i in range(k)],
            "won": [round(wins[i] / played[i], 3) if played[i] else None for i in range(k)],
            "picked": best_i,
            "moves": list(index),
            "exact": solved,
        }
        return index[best_i]

    # ----- Chinese Poker's hand choice -------------------------------------------------
    def _choose_hand(self, obs: ClimbingView, legal: list[Action], rng: random.Random) -> Action:
        start = clock()
        offered: Mapping[str, tuple[str, ...]] = obs.offered_hands or {}
        letters = [str(a.value) for a in legal]
        if not offered or any(L not in offered for L in letters):
            return legal[rng.randrange(len(legal))]
        rules = rules_for(obs.variant, obs.players, obs.options)
        seat = obs.me
        other = 1 - seat
        dealer = obs.dealer
        masks = {L: rules.mask_of(offered[L]) for L in offered}
        if len(offered) == 2:  # the dealer holds the rest of the deck
            rest = rules.deck_mask
            for m in masks.values():
                rest &= ~m
            pairs = {L: [rest] for L in letters}
        else:
            pairs = {L: [masks[M] for M in letters if M != L] for L in letters}
        worth = deal_value(rules, seat, self.play_for_penalty)
        wins = {(L, j): [0.0, 0] for L in letters for j in range(len(pairs[L]))}
        keys = list(wins)
        deadline = start + self.budget_s
        cap = self.iterations
        done = 0
        while True:
            for L, j in keys:
                hands = [0, 0]
                hands[seat] = masks[L]
                hands[other] = pairs[L][j]
                s = SimState(rules, hands, dealer, dealer=dealer)
                w = wins[(L, j)]
                win = rollout(s, rng, HAND_CHOICE_EPS)
                w[0] += worth(s.hands, win)
                w[1] += 1
                done += 1
            if cap is not None:
                if done >= cap:
                    break
            elif clock() >= deadline:
                break

        def value(L: str) -> float:
            rates = [wins[(L, j)][0] / wins[(L, j)][1] for j in range(len(pairs[L]))]
            return min(rates)  # the opponent takes what is best for it

        best = max(letters, key=lambda L: (value(L), -letters.index(L)))
        return next(a for a in legal if a.value == best)
