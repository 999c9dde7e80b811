"""What the climbing games' ``hard`` search (:mod:`.climbing_search`) reads from the
public play of a deal: the weights with which the unseen cards are dealt again
(:func:`belief_weights`), how erratic each opponent looks (:func:`erratic`), and the test
that a candidate is clearly better than the incumbent (:func:`clearly_better`).

Inference about the other hands (:func:`inferred_weights`, on with :data:`INFERENCE`)
--------------------------------------------------------------------------------------
It places the unseen cards better than the rules of thumb, but ``hard`` did not play
better with it (figures below), so it is **off** by default and the search deals with
:func:`rule_weights`. Once per decision, from the seat's observation only:

1. **What the start of the deal shows** (:func:`opening_facts`). Where the holder of
   the lowest dealt card plays first (Big Two, Twos), a seat that started knows every
   unseen card below its own lowest was not dealt; where the first play must hold that
   card (Big Two), every unseen card below the lowest card of the first play was not
   dealt. Those cards go out of play in every world (weight 0 for every opponent).
2. **A pool of worlds** (:data:`POOL`, 192): the unseen cards dealt evenly, keeping
   every count, the required card with its holder and the facts above.
3. **Each world weighed by how likely the opponents' plays were** in it
   (:func:`log_likelihood`): the deal is replayed from its start (each hand then is its
   hand in the world and the cards it played since); a world in which the deal could
   not have started as it did (another seat held a lower card than the starter) gets
   no weight. The seat's own moves are played, not weighed. An opponent's follow or
   pass is scored by a softened model of a sound player (:func:`follow_log_p`): every
   option costs the rank of its top card, 3 more for a single, pair or triple that
   breaks a bigger set, 16 for a bomb, and a pass costs 10 (about a queen); the player
   takes each with probability proportional to ``exp(-cost / 2)``. So a player who
   passed on a low single probably holds no cheap single above it, and one who beat a
   single with a high card or broke a pair probably had nothing cheaper. A lead that
   is not the rollout policy's own lead (:mod:`.climbing_rollout`) counts 0.3 against
   the world. When fewer than a tenth of the worlds would count, every world's likelihood
   is raised to the one power below 1 that keeps a tenth (:func:`_temper`).
4. **Per-card weights**: each card's weighed share in each hand (and out of play), over
   its share in an even deal, pulled towards 1 by 4 worlds' worth of an even deal. The
   search's :class:`~twos_tui.engine.climbing.determinize.Sampler` deals every world
   with them, as it did with the older rules of thumb (:func:`rule_weights`: fixed
   factors for singles above a passed single, ranks above a passed pair or triple, and
   the cards between a single and the one that beat it).

Measured (``benchmarks/bench_beliefs.py --positions 1000``, 1,000 decision positions a
game from seeded deals of ``normal`` in every seat and of ``normal`` beside ``greedy2``,
50 worlds dealt at each, scored against the true hidden hands; paired 95% intervals)::

=============  ===============  ===============  ===============  ===============  ======
game           cards placed     inferred minus   log score,       inferred minus   CPU ms
               right: even /    rules of thumb   even / rules /   rules of thumb   a deci-
               rules / inferred                  inferred                          sion
=============  ===============  ===============  ===============  ===============  ======
Big Two        37.2 / 37.9 /    +1.67 ± 0.25     -1.062 / -1.047  +0.023 ± 0.007   36 (60)
               39.6%                             / -1.025
five-round     37.4 / 38.2 /    +1.97 ± 0.25     -1.059 / -1.043  +0.031 ± 0.007   39 (55)
               40.2%                             / -1.012
Chinese Poker  35.9 / 36.2 /    +1.37 ± 0.22     -1.080 / -1.088  +0.031 ± 0.007   34 (63)
               37.6%                             / -1.057
Twos for 3     38.5 / 39.0 /    +0.67 ± 0.17     -1.042 / -1.044  +0.009 ± 0.006   24 (45)
               39.6%                             / -1.036
=============  ===============  ===============  ===============  ===============  ======

(Points of the share of unseen cards put in the right hand or out of play; the log
score is the mean log of the smoothed share of the 50 worlds that put a card where it
really is. CPU ms: the inference once per decision, mean (p95), on one core of this
2-core machine at load 9-11; dealing a world afterwards takes 62-94 us of wall clock
against 29-50 us for an even deal. The search deals hundreds of worlds a decision and
builds the pool once: the inference takes about a tenth of ``hard``'s 0.4 s on average,
a sixth at the p95.)

The search with it and without (``INFERENCE``), the same seeded deals, ``twos-tui
arena --seats hard,normal,... --jobs 1 --hard-iterations 400 --seed 1``, deals won by
``hard`` and its paired difference with ``normal`` on the same hands (95%):

* Big Two, 400 deals: with 34.5% [30.0, 39.3], +12.7 points [+8.4, +16.9], penalty a
  deal -0.38 [-0.83, +0.08] against normal's; without 35.0% [30.5, 39.8], +13.3 [+9.0,
  +17.6], -0.58 [-1.01, -0.16]: the same within the noise.
* Twos for three (``hard`` is the guided search there, which deals with the same
  weights), 402 deals: with 39.1% [34.4, 43.9], +8.6 points [+4.5, +12.7]; without
  43.8% [39.0, 48.7], +15.7 [+11.3, +20.1]: worse with it.

Why sharper beliefs did not help is not settled: the search scores moves by rollouts in
which every seat plays the cheap policy, and worlds that fit the model of a sound player
may favour moves that only that policy's mistakes punish; the inference also takes 24-39
ms of a decision. It is kept, measured and tested, for a search whose opponents in the
playouts play like the opponents (issue 31's next step).

Tried and left out (150 positions a game): a Markov chain that swaps two unseen cards
between hands with the Metropolis rule on the follow model alone (no leads, no
softening), which placed a little fewer cards right than the pool in every game (within
the noise in Big Two and five-round) and scored worse on the log score everywhere; and
scoring follows only by whether they match the rollout policy's own move (Big Two: +1.0
to +1.2 points of cards placed right over the rules of thumb with pools of 96 to 256
worlds, against +1.7 with the costed follows and 192; a pass on a low single early in
a deal then tells nothing, as the policy would have played in every world).

The search itself is described in the docstring of :mod:`.climbing_search` (steps 3 to
6).
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from typing import Any

from ..engine.bitmask import bits
from ..engine.climbing.core import Move, Rules
from ..engine.climbing.determinize import OUT, Sampler, played_this_deal
from ..engine.climbing.view import ClimbingView
from ..engine.observer import ObsIn, as_climbing
from .climbing_rollout import ACE, policy

#: reading how erratic an opponent is (:func:`erratic`): the prior odds that it plays at
#: random, the likelihood ratios of an odd follow and of a plain one, and the share of
#: random moves the rollouts give a player known to play at random
ODD_PRIOR = 1.0
ODD_LR = 6.0
PLAIN_LR = 0.85
ODD_EPS_MAX = 0.8


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


def rule_weights(observed: ObsIn, rules: Rules) -> dict[Any, dict[str, float]]:
    """Per-card weights for the opponents from rules of thumb (see the module
    docstring): the beliefs the search used before :func:`inferred_weights`."""
    obs = as_climbing(observed)
    seat = obs.me
    deal = obs.deal_number
    codes = rules.codes
    single_key = [0] * len(codes)
    for c in range(len(codes)):
        mv = rules.move_of(1 << c) if (rules.deck_mask >> c) & 1 else None
        single_key[c] = mv[2] if mv is not None else -1
    seen = rules.mask_of(obs.hand)
    for _, cards in played_this_deal(obs):
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
# Inference: how likely each opponent's plays were, world by world

#: deal the unseen cards with the weights of :func:`inferred_weights` (else with the
#: rules of thumb of :func:`rule_weights`): off, as ``hard`` played no better with it
#: (see the module docstring)
INFERENCE = False
#: candidate worlds dealt and weighed per decision
POOL = 192
#: a lead: how likely it is when it is not the rollout policy's own lead, relative to one
#: that is (the policy leads far less like a real player than it follows)
LEAD_RHO = 0.3
#: a follow or a pass: the options are scored by what they cost (the rank of the play's
#: top card, plus :data:`BREAK_COST` for a single, pair or triple that breaks a bigger
#: set; :data:`BOMB_COST` for a bomb; :data:`PASS_COST` for a pass), and the player takes
#: each with probability proportional to ``exp(-cost / FOLLOW_T)``: the cheapest most
#: often, a pass more often the dearer the plays that would do
FOLLOW_T = 2.0
PASS_COST = 10.0
BREAK_COST = 3.0
BOMB_COST = 16.0
#: the weighing is softened until the pool keeps at least this share of its worlds in
#: effect (so that a few lucky worlds do not decide every card)
MIN_ESS_SHARE = 0.1
#: the pool's card shares are pulled towards an even deal by this many worlds
PRIOR_WORLDS = 4.0

Events = list[tuple[int, int]]  # (seat, the cards played as a mask; 0 for a pass)

_OPENING: dict[Rules, tuple[bool, bool]] = {}


def belief_weights(
    observed: ObsIn, rules: Rules, rng: random.Random | None = None
) -> dict[Any, dict[str, float]]:
    """The per-card weights the search deals the unseen cards with: the inference of
    :func:`inferred_weights` (with :data:`INFERENCE`), else :func:`rule_weights`."""
    if INFERENCE:
        return inferred_weights(observed, rules, rng)
    return rule_weights(observed, rules)


def opening_rule(rules: Rules) -> tuple[bool, bool]:
    """(whether the holder of the lowest dealt card plays first, whether the first play
    must hold that card), read from the rules' own start of a deal."""
    got = _OPENING.get(rules)
    if got is None:
        deck = rules.deck_mask
        hands = [0] * rules.players
        hands[0] = 1 << (deck.bit_length() - 1)
        hands[1] = deck & -deck
        st = rules.start(hands, 0)
        got = _OPENING[rules] = (st.cur == 1, st.req == hands[1])
    return got


def deal_events(obs: ClimbingView, rules: Rules) -> tuple[Events, list[int]]:
    """The plays and passes of the current deal, in order, and the cards each seat has
    played in it (masks)."""
    deal = obs.deal_number
    events: Events = []
    played = [0] * obs.players
    for e in obs.history:
        if e.deal != deal or e.kind not in ("play", "pass"):
            continue
        m = rules.mask_of(e.played) if e.kind == "play" else 0
        events.append((e.by, m))
        played[e.by] |= m
    return events, played


def opening_facts(
    obs: ClimbingView, rules: Rules, events: Events, played: list[int]
) -> dict[Any, dict[str, float]]:
    """Cards the start of the deal shows to be out of play, as weights (0 for every
    opponent). Where the holder of the lowest dealt card plays first, a seat that
    started knows that every unseen card below its own lowest was not dealt; where the
    first play must hold that card, the lowest card of that play is the lowest dealt."""
    lowest_starts, must_hold = opening_rule(rules)
    if not events or not lowest_starts:
        return {}
    me = obs.me
    first, m0 = events[0]
    if first == me:
        own = rules.mask_of(obs.hand) | played[me]
        low = own & -own
    elif must_hold and m0:
        low = m0 & -m0
    else:
        return {}
    seen = rules.mask_of(obs.hand)
    for m in played:
        seen |= m
    below = rules.deck_mask & ~seen & (low - 1)
    if not below:
        return {}
    zero = {rules.codes[c]: 0.0 for c in bits(below)}
    return {s: dict(zero) for s in range(obs.players) if s != me}


def _same(a: Move | None, b: Move | None) -> bool:
    """Do two moves say the same about a hand: both passes, or plays of the same
    pattern, size and top rank (the suits aside)?"""
    if a is None or b is None:
        return a is b
    return (
        a[1] == b[1]
        and a[3] == b[3]
        and a[0].bit_count() == b[0].bit_count()
        and (a[0].bit_length() - 1) >> 2 == (b[0].bit_length() - 1) >> 2
    )


def log_likelihood(
    rules: Rules, hands0: list[int], dealer: int, events: Events, me: int
) -> float | None:
    """The log-likelihood of the opponents' plays and passes of ``events`` in the world
    whose hands at the start of the deal were ``hands0`` (masks), under the rollout
    model of :data:`LEAD_RHO` and :func:`follow_log_p`; ``None`` when that world
    cannot have started the deal as it did. The seat ``me``'s own moves are played, not
    weighed."""
    lowest_starts, must_hold = opening_rule(rules)
    st = rules.start(hands0[:], dealer)
    first, m0 = events[0]
    if st.cur != first:
        if lowest_starts:
            return None
        st.cur = first
    if must_hold and st.req and m0 and not m0 & st.req:
        return None
    log_lead = math.log(LEAD_RHO)
    legal = rules.legal
    move_of = rules.move_of
    ll = 0.0
    for seat, m in events:
        if st.winner >= 0 or st.cur != seat:
            break  # (never for a world that fits the history)
        mv = move_of(m) if m else None
        if m and mv is None:
            break
        if seat != me:
            if st.top is not None:
                ll += follow_log_p(st.hands[seat], legal(st), mv)
            elif LEAD_RHO < 1.0:
                moves = legal(st)
                if len(moves) > 1 and not _same(policy(st, moves), mv):
                    ll += log_lead
        st.play(mv)
    return ll


def _cost(hand: int, m: Move | None) -> float:
    """What a follow costs the hand (see :data:`FOLLOW_T`)."""
    if m is None:
        return PASS_COST
    if m[3]:
        return BOMB_COST
    mm = m[0]
    r = (mm.bit_length() - 1) >> 2
    k = mm.bit_count()
    if k <= 3 and ((mm & -mm).bit_length() - 1) >> 2 == r:
        held = ((hand >> (4 * r)) & 15).bit_count()
        if held > k:
            return r + BREAK_COST
    return float(r)


def follow_log_p(hand: int, moves: Sequence[Move | None], mv: Move | None) -> float:
    """The log-probability that a player holding ``hand`` makes the follow (or pass)
    ``mv`` out of ``moves`` (see :data:`FOLLOW_T`)."""
    if len(moves) <= 1:
        return 0.0
    t = FOLLOW_T
    z = 0.0
    for m in moves:
        z += math.exp(-_cost(hand, m) / t)
    return -_cost(hand, mv) / t - math.log(z)


def _temper(lls: list[float]) -> list[float]:
    """Importance weights ``exp(beta * ll)``, with the largest ``beta`` <= 1 that keeps
    the effective number of worlds at :data:`MIN_ESS_SHARE` of the pool or more."""
    mx = max(lls)
    d = [x - mx for x in lls]
    target = MIN_ESS_SHARE * len(d)

    def weights(beta: float) -> tuple[list[float], float]:
        w = [math.exp(beta * x) for x in d]
        return w, sum(w) ** 2 / sum(x * x for x in w)

    w, ess = weights(1.0)
    if ess >= target:
        return w
    lo, hi = 0.0, 1.0
    for _ in range(12):
        mid = (lo + hi) / 2
        if weights(mid)[1] >= target:
            lo = mid
        else:
            hi = mid
    return weights(lo)[0]


def observation_seed(obs: ClimbingView) -> int:
    """A seed read from the observation only (for callers that pass no generator)."""
    key = f"{obs.variant}|{obs.players}|{obs.me}|{obs.deal_number}|{len(obs.history)}"
    return zlib.crc32((key + "|" + ",".join(obs.hand)).encode())


def inferred_weights(
    observed: ObsIn, rules: Rules, rng: random.Random | None = None, pool: int | None = None
) -> dict[Any, dict[str, float]]:
    """Per-card weights inferred from how likely the opponents' plays and passes of this
    deal were, world by world: ``pool`` worlds are dealt evenly (keeping what the start
    of the deal shows, :func:`opening_facts`), each is weighed by
    :func:`log_likelihood` (softened by :func:`_temper`), and each card's weight for a
    destination is its weighed share there over its share in an even deal, pulled
    towards 1 by :data:`PRIOR_WORLDS`; ``pool`` defaults to :data:`POOL`. Reads the
    observation only."""
    obs = as_climbing(observed)
    me = obs.me
    events, played = deal_events(obs, rules)
    facts = opening_facts(obs, rules, events, played)
    if not any(s != me for s, _ in events):
        return facts  # nothing an opponent did yet
    sampler = Sampler(obs, facts or None)
    dests = sampler.dests
    if len(dests) < 2:
        return facts
    if rng is None:
        rng = random.Random(observation_seed(obs))
    n = obs.players
    dealer = obs.dealer
    worlds: list[list[int]] = []
    lls: list[float] = []
    for _ in range(POOL if pool is None else pool):
        hands = sampler.sample(rng).hands
        ll = log_likelihood(rules, [h | played[s] for s, h in enumerate(hands)], dealer, events, me)
        if ll is not None:
            worlds.append(hands)
            lls.append(ll)
    if not worlds:
        return facts
    ws = _temper(lls)
    tot = sum(ws)
    ess = tot * tot / sum(x * x for x in ws)
    unknown = sampler.unknown
    # the weighed share of each unseen card in each seat's hand
    share: dict[int, dict[int, float]] = {d: {} for d in dests if d < n}
    for hands, w in zip(worlds, ws, strict=True):
        for d, row in share.items():
            for c in bits(hands[d] & unknown):
                row[c] = row.get(c, 0.0) + w
    room = dict(zip(dests, sampler.room, strict=True))
    total = sum(sampler.room)
    codes = rules.codes
    out: dict[Any, dict[str, float]] = {}
    k = PRIOR_WORLDS
    for d in dests:
        even = room[d] / total
        got = share.get(d)
        col: dict[str, float] = {}
        for c in sampler.cards:
            if got is not None:
                p = got.get(c, 0.0) / tot
            else:  # the out-of-play pile: what no seat got
                p = 1.0 - sum(share[s].get(c, 0.0) for s in share) / tot
            col[codes[c]] = (ess * p + k * even) / ((ess + k) * even)
        fact = facts.get(d)
        if fact:
            for code in fact:
                col[code] = 0.0
        out[OUT if d == n else d] = col
    return out
