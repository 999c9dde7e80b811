"""The ``hard`` opponent of the climbing games: determinized search with a fast rollout
policy (Twos, Big Two, Big Two five-round, Chinese Poker).

Algorithm
---------
A decision is taken from the seat's observation, its legal actions and its own seeded
generator only:

1. **Shortcuts.** One legal action: play it. A play that empties the hand wins the
   deal: play it.
2. **Candidates.** The legal actions become sim moves (:mod:`twos_tui.engine.sim`). Where
   there are many (a Big Two lead lists every suit choice of every poker hand), a cheap
   prior keeps two dozen: the rollout policy's own choice, the lowest plays of every
   pattern, plays that shed the most cards, the highest single and the pass.
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
   A rollout scores 1 when the seat wins the deal, plus a small bonus for the cards it
   shed (a tie-break that also plays for the penalty games' score).
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
its passes do tell). Without the belief weights
the search measured the same against ``normal`` (within noise); they stay because they
are what a player reads.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.bitmask import bits
from ..engine.observer import ObsIn, as_climbing
from ..engine.protocol import Action, Decision
from ..engine.sim import Move, Rules, Sampler, SimState, played_this_deal, rules_for
from ..engine.views import ClimbingView

#: rank index of a card int (every sim encoding is 4 * rank + suit, 3 lowest, 2 highest)
ACE, TWO = 11, 12
_M1 = 0x5555555555555
_M2 = 0x3333333333333
#: the search's clock (seconds)
clock = time.perf_counter
#: the rollout policy looks for a winning last two plays with this many cards or fewer
ENDGAME_CARDS = 10
#: keep at most this many candidates for the search
MAX_CANDIDATES = 24
#: bonus a rollout gives per share of the hand shed (the win itself is worth 1)
SHED_BONUS = 0.05
#: worlds before a candidate may be dropped, and the margins (in standard errors of
#: the paired difference) to drop a candidate and to prefer one to the incumbent
MIN_WORLDS = 8
DROP_Z = 2.0
PICK_Z = 1.0
#: deal the unseen cards with the weights read from the play (else uniformly)
BELIEFS = True
#: the hand choice plays each pairing of hands many times: a share of random moves
HAND_CHOICE_EPS = 0.1
#: give opponents who follow oddly random moves in the rollouts (see :func:`erratic`)
ERRATIC = True
#: reading how erratic an opponent is (:func:`erratic`): the prior odds that it plays at
#: random, the likelihood ratios of an odd follow and of a plain one, and the share of
#: random moves the rollouts give a player known to play at random
ODD_PRIOR = 1.0
ODD_LR = 6.0
PLAIN_LR = 0.85
ODD_EPS_MAX = 0.8


# ---------------------------------------------------------------------------------------
# The rollout policy


def policy(s: SimState, moves: Sequence[Move | None]) -> Move | None:
    """The move the cheap rollout policy makes for the seat to act (``None``: pass)."""
    h = s.hands[s.cur]
    if h.bit_count() <= ENDGAME_CARDS:
        # two combinations left, one nobody else can beat: play that one first (in a
        # simulated world the seats know where the cards are: good players count)
        r = s.rules
        move_of = r.move_of
        cur = s.cur
        for m in moves:
            if m is None:
                continue
            rest = h & ~m[0]
            if not rest:
                return m
            if move_of(rest) is not None and _unbeatable(s, m, cur):
                return m
    return _policy(s, moves)


def _unbeatable(s: SimState, m: Move, cur: int) -> bool:
    """Can no other seat beat the move ``m`` (in this world)?"""
    follows = s.rules.follows
    return not any(j != cur and x and follows(x, m) for j, x in enumerate(s.hands))


def _policy(s: SimState, moves: Sequence[Move | None]) -> Move | None:
    """:func:`policy` before its end-of-deal rule."""
    cur = s.cur
    hands = s.hands
    h = hands[cur]
    mn = 99  # the fewest cards an opponent holds
    for j, x in enumerate(hands):
        if j != cur:
            c = x.bit_count()
            if c < mn:
                mn = c
    top = s.top
    if top is None:
        low = h & -h
        best = None
        best_n = 0
        best_k = 0
        bomb = None
        alt = None  # danger: the best lead that is not a single
        alt_n = 0
        alt_k = 0
        hi_single = None
        danger = mn == 1
        for m in moves:
            if m is None:
                continue
            mm = m[0]
            if mm == h:
                return m
            if m[3]:
                if bomb is None or m[2] < bomb[2]:
                    bomb = m
                continue
            if mm & low:
                k = mm.bit_count()
                if k > best_n or (k == best_n and m[2] < best_k):
                    best = m
                    best_n = k
                    best_k = m[2]
            if danger:
                k = mm.bit_count()
                if k == 1:
                    if hi_single is None or m[2] > hi_single[2]:
                        hi_single = m
                elif alt is None or k > alt_n or m[2] < alt_k:
                    alt = m
                    alt_n = k
                    alt_k = m[2]
        if danger:
            if alt is not None:
                return alt
            if hi_single is not None:
                return hi_single
        if best is not None and (best[0].bit_length() - 1) >> 2 >= ACE and best_n > 1:
            # the biggest lead with the lowest card would spend an ace or a two: a
            # smaller one with the lowest card that keeps them, if there is one
            keep = None
            for m in moves:
                if m is not None and not m[3] and m[0] & low:
                    mm = m[0]
                    if (mm.bit_length() - 1) >> 2 < ACE and (
                        keep is None
                        or mm.bit_count() > keep[0].bit_count()
                        or (mm.bit_count() == keep[0].bit_count() and m[2] < keep[2])
                    ):
                        keep = m
            if keep is not None:
                return keep
        if best is not None:
            return best
        if bomb is not None:
            return bomb
        return moves[0]
    best = None
    bomb = None
    hi = None
    tm = top[0]
    tk = tm.bit_count()
    # following a single (a pair, a triple): prefer a card (cards) of a rank held
    # exactly that often, so as not to break a pair, triple or four
    same = 0
    if tk <= 3 and (tk == 1 or (tm.bit_length() - 1) >> 2 == ((tm & -tm).bit_length() - 1) >> 2):
        x = (h & _M1) + ((h >> 1) & _M1)
        cnt = (x & _M2) + ((x >> 2) & _M2)  # cards a rank, a nibble a rank
        same = tk
    bk = 0
    hk = -1
    for m in moves:
        if m is None:
            continue
        mm = m[0]
        if mm == h:
            return m
        if m[3]:
            if bomb is None or (m[3], m[2]) < (bomb[3], bomb[2]):
                bomb = m
            continue
        k = m[2]
        if same:
            key = k if (cnt >> (((mm.bit_length() - 1) >> 2) << 2)) & 15 == same else k + 100000
            if best is None or key < bk:
                best = m
                bk = key
        elif best is None or k < bk:
            best = m
            bk = k
        if k > hk:
            hi = m
            hk = k
    if best is None:
        if bomb is not None and (mn <= 3 or top[3] or h.bit_count() <= 5):
            return bomb
        return None
    if mn == 1 and tk == 1:
        return hi
    if mn > 4 and len(hands) > 2:  # (with two players a pass hands over the lead)
        n = h.bit_count()
        if n > 6:
            r = (best[0].bit_length() - 1) >> 2
            if r == TWO or (r == ACE and n > 9):
                return None
    return best


def rollout_erratic(s: SimState, rng: random.Random, eps: Sequence[float]) -> int:
    """Play ``s`` out with :func:`policy`, except that seat ``j`` makes a uniformly
    random legal move with probability ``eps[j]``; the winner."""
    legal = s.rules.legal
    play = s.play
    rnd = rng.random
    while s.winner < 0:
        moves = legal(s)
        if len(moves) == 1:
            play(moves[0])
        else:
            e = eps[s.cur]
            if e and rnd() < e:
                play(moves[int(rnd() * len(moves))])
            else:
                play(policy(s, moves))
    return s.winner


def rollout(s: SimState, rng: random.Random | None = None, eps: float = 0.0) -> int:
    """Play ``s`` out with :func:`policy` for every seat; the winner. With ``rng``, a
    move is a uniformly random legal one with probability ``eps``."""
    legal = s.rules.legal
    play = s.play
    if rng is None or eps <= 0.0:
        while s.winner < 0:
            moves = legal(s)
            play(moves[0] if len(moves) == 1 else policy(s, moves))
        return s.winner
    rnd = rng.random
    while s.winner < 0:
        moves = legal(s)
        if len(moves) == 1:
            play(moves[0])
        elif rnd() < eps:
            play(moves[int(rnd() * len(moves))])
        else:
            play(policy(s, moves))
    return s.winner


# ---------------------------------------------------------------------------------------
# Beliefs: what passes and plays suggest about the unseen cards


def clearly_better(
    count: Sequence[int], diff: Sequence[float], diff2: Sequence[float], z: float
) -> int:
    """The candidate (index > 0) whose mean paired gain over the incumbent (index 0) is
    the largest of those more than ``z`` standard errors above nothing; else 0, the
    incumbent. ``count``, ``diff``, ``diff2``: per candidate, the worlds played, the sum
    of its score minus the incumbent's and the sum of those differences squared."""
    best_i, best_m = 0, 0.0
    for i in range(1, len(count)):
        n = count[i]
        if not n:
            continue
        m = diff[i] / n
        se = math.sqrt(max(diff2[i] / n - m * m, 1e-4) / n)
        if m > z * se and m > best_m:
            best_i, best_m = i, m
    return best_i


def belief_weights(observed: ObsIn, rules: Rules) -> dict[Any, dict[str, float]]:
    """Per-card weights for the opponents (see the module docstring, step 3)."""
    obs = as_climbing(observed)
    seat = obs.me
    deal = obs.deal_number
    codes = rules.codes
    single_key = [0] * len(codes)
    for c in range(len(codes)):
        mv = rules.move_of(1 << c) if (rules.deck_mask >> c) & 1 else None
        single_key[c] = mv[2] if mv is not None else -1
    seen = rules.mask_of(obs.hand)
    for _, cards in played_this_deal(obs.to_json()):
        seen |= rules.mask_of(cards)
    unseen = [c for c in range(len(codes)) if (rules.deck_mask >> c) & 1 and not seen >> c & 1]
    w: dict[int, dict[int, float]] = {}

    def scale(s: int, c: int, f: float) -> None:
        row = w.setdefault(s, {})
        row[c] = row.get(c, 1.0) * f

    top = None
    for e in obs.history:
        if e.deal != deal:
            continue
        kind = e.kind
        s = e.seat if e.seat is not None else -1  # a play or a pass: a seat
        if kind == "play":
            mv = rules.move_of_codes(e.played)
            if (
                mv is not None
                and s != seat
                and top is not None
                and not mv[3]
                and mv[0].bit_count() == 1
                and top[0].bit_count() == 1
                and top[1] == mv[1]
            ):
                # beat a single with a card well above it: the cards between are less
                # likely in that hand
                for c in unseen:
                    if top[2] < single_key[c] < mv[2]:
                        scale(s, c, 0.7)
            top = mv
        elif kind == "trick":
            top = None
        elif kind == "pass" and top is not None and s != seat and not top[3]:
            tk = top[0].bit_count()
            single = rules.move_of(top[0]) if tk == 1 else None  # (a played mask: a move)
            if single is not None and top[1] == single[1]:
                r = (top[0].bit_length() - 1) >> 2
                f = 0.35 if r < 8 else (0.55 if r < ACE else 0.8)
                for c in unseen:
                    if single_key[c] > top[2]:
                        scale(s, c, f)
            elif tk in (2, 3) and len({c >> 2 for c in bits(top[0])}) == 1:
                r = (top[0].bit_length() - 1) >> 2
                for c in unseen:
                    if c >> 2 > r:
                        scale(s, c, 0.85 if tk == 2 else 0.9)
    out: dict[Any, dict[str, float]] = {}
    for s, row in w.items():
        out[s] = {codes[c]: max(0.05, x) for c, x in row.items()}
    return out


def erratic(observed: ObsIn, rules: Rules) -> list[float]:
    """Per seat, the share of random moves the rollouts give that opponent (0 for the
    seat itself): read from the odd follows of this deal that later plays reveal.

    A follow on a single is *odd* when the player passed while holding a single that
    beat it (not an ace or a two, which sound players keep back) or beat it with a card
    above one it held that was enough: both shown by that player playing the card alone
    later in the deal. Sound players almost never do either (measured: 0 to 6% of the
    singles they follow; random players 22 to 25%)."""
    obs = as_climbing(observed)
    seat = obs.me
    deal = obs.deal_number
    n = obs.players
    events = [e for e in obs.history if e.deal == deal and e.kind in ("play", "pass", "trick")]
    # for each event, the singles its seat plays later (keys), walking backwards
    later: list[list[int]] = [[] for _ in range(n)]
    after: list[tuple[int, ...]] = [()] * len(events)
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "trick":
            continue
        after[i] = tuple(later[e.by])
        if e.kind == "play" and len(e.played) == 1:
            mv = rules.move_of_codes(e.played)
            if mv is not None and (mv[0].bit_length() - 1) >> 2 < ACE:
                later[e.by].append(mv[2])
            elif mv is not None:
                later[e.by].append(-mv[2] - 1)  # an ace or two: marked
    follows = [0] * n
    odd = [0] * n
    top = None
    for i, e in enumerate(events):
        kind = e.kind
        if kind == "trick":
            top = None
            continue
        s = e.by
        if top is not None and s != seat and not top[3] and top[0].bit_count() == 1:
            follows[s] += 1
            if kind == "pass":
                if any(k > top[2] for k in after[i]):
                    odd[s] += 1
            else:
                mv = rules.move_of_codes(e.played)
                if (
                    mv is not None
                    and mv[0].bit_count() == 1
                    and any(top[2] < (k if k >= 0 else -k - 1) < mv[2] for k in after[i])
                ):
                    odd[s] += 1
        if kind == "play":
            top = rules.move_of_codes(e.played)
    out = [0.0] * n
    for s in range(n):
        if s != seat:
            odds = ODD_PRIOR * ODD_LR ** odd[s] * PLAIN_LR ** (follows[s] - odd[s])
            out[s] = ODD_EPS_MAX * odds / (1.0 + odds)
    return out


# ---------------------------------------------------------------------------------------
# The agent


class HardClimbingAgent:
    """Determinized search with paired rollouts (see the module docstring)."""

    name = "hard"

    def __init__(self, budget_s: float = 0.4, iterations: int | None = None) -> None:
        if budget_s <= 0:
            raise ValueError("budget_s must be positive")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.budget_s = budget_s
        self.iterations = iterations
        #: figures of the last search: worlds, rollouts, candidates, seconds
        self.last: dict[str, Any] = {}

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
    ) -> Any:
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
        sampler = Sampler(obs.to_json(), belief_weights(obs, rules) if BELIEFS else None)
        cand = self._candidates(sampler, moves, rng)
        if len(cand) == 1:
            return legal[index[cand[0]]]
        eps = erratic(obs, rules) if ERRATIC else None
        pick = self._search(sampler, seat, [moves[i] for i in cand], cand, rng, start, eps)
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
        active = list(range(k))
        size = max(1, sampler.rules.hand_size)
        deadline = start + self.budget_s
        cap = self.iterations
        rollouts = worlds = 0
        reward = [0.0] * k
        while True:
            world = sampler.sample(rng)
            wseed = rng.getrandbits(32) if eps is not None else 0
            for i in active:
                s = world.copy()
                s.play(moves[i])
                win = rollout(s) if eps is None else rollout_erratic(s, random.Random(wseed), eps)
                reward[i] = (1.0 if win == seat else 0.0) + SHED_BONUS * (
                    1.0 - s.hands[seat].bit_count() / size
                )
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
            elif clock() >= deadline:
                break
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
            "picked": best_i,
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
        wins = {(L, j): [0, 0] for L in letters for j in range(len(pairs[L]))}
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
                w[0] += rollout(s, rng, HAND_CHOICE_EPS) == seat
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
