"""2v1 opponents: ``easy``, ``normal`` and ``hard`` (docs/rules.md §5).

Every agent decides from the seat's observation, its legal actions, its decision and its
own generator only. Duo partners share nothing: each reads the table for itself.

* ``easy`` (:class:`EasyTwoVOneAgent`) — rules of thumb: bid on a count of strong pairs,
  as the lone player win while it needs every remaining hand and throw otherwise, in the
  duo play high while the lone player needs hands and low once it has them.
* ``normal`` (:class:`NormalTwoVOneAgent`) — reads the unseen cards from a dozen deals
  consistent with what it knows (:class:`~twos_tui.engine.sim_two_v_one.Sampler`: voids,
  the rainbow's holder, the cards it passed, the lone player's secret keeps). From them
  it knows, for every lead, how often a pair holds against a duo that fights and against
  one that feeds — for this hand and, with the duo's cards thinning out, for the later
  ones. :class:`LonePlan` plans the lone round to land *exactly* on the bid (a small
  dynamic programme over its own cards: which hands to win, which to throw, which card
  to keep, against a duo that always does what hurts most); bids are judged by the same
  plan. In the duo it fights while the lone player needs at least as many of the
  remaining hands as it must lose, feeds it once it needs fewer, and answers the
  partner's card on the table.
* ``hard`` (:class:`HardTwoVOneAgent`) — as the lone player and in the bidding it plans
  like ``normal`` over twice the samples, with the duo modelled by the fight/feed rule
  rather than the worst case. Every other decision (duo follows, discards, returns,
  the exchange) is a determinised search: each iteration deals the unseen cards again
  (re-weighted by what the bids said about each hand and by how a lone player usually
  keeps), lets the seats whose secret choice it cannot see choose again, then plays
  every candidate to the end of the round on the lean simulation — the lone player
  planning with :class:`LoneModel`, the duo by quick rules — all candidates on the same
  deal and random stream. Weak candidates are dropped as evidence builds up; the best
  average coin count when the time budget ends is played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from ..engine import sim_two_v_one as S
from ..engine.observation import TwoVOneObservation
from ..engine.observer import ObsIn, as_two_v_one
from ..engine.protocol import Action, Decision
from ..engine.sim_two_v_one import (
    BID,
    CODES,
    DISCARD,
    EXCHANGE,
    FOLLOW,
    HIDE,
    INDEX,
    KEEP,
    LEAD,
    PV,
    RAISE,
    RB,
    RB_BIT,
    SUIT,
    SUIT_MASK,
    VALUE,
    RoundSim,
    bits,
    follow_mask,
    mask_of,
)
from ..engine.two_v_one import HANDS_PER_ROUND, label, labels, pair_reason
from ..engine.views import TwoVOneView
from .base import SuggestingAgent

if TYPE_CHECKING:
    from . import Suggestion

N = 3
#: how useful a card is on its own: its value; the rainbow counts as the best card
STRENGTH: tuple[int, ...] = tuple(7 if c == RB else VALUE[c] for c in range(len(CODES)))
BLIND: tuple[bool, ...] = tuple(VALUE[c] == 2 for c in range(len(CODES)))
NSUITS = len(SUIT_MASK)
MAXV = 13  # pair values are 0..12


def odds_key(up: int) -> int:
    """Which odds table a lead uses: its suit, plus 5 after a blindfold lead."""
    return SUIT[up] + (NSUITS if BLIND[up] else 0)


#: :func:`odds_key` of every card (the rainbow is never led: -1)
KEY: tuple[int, ...] = tuple(
    -1 if c == RB else SUIT[c] + (NSUITS if VALUE[c] == 2 else 0) for c in range(len(CODES))
)


def duo_extremes(hand_a: int, hand_b: int, led: int, blind: bool) -> tuple[int, int]:
    """The best and the worst pair value two duo hands can show to a lead of suit
    ``led``. After a blindfold lead neither sees the other's card: each plays its
    strongest card (fighting) or its weakest (feeding)."""
    fa = bits(follow_mask(hand_a, led))
    fb = bits(follow_mask(hand_b, led))
    if not fa or not fb:
        return 0, 0
    if blind:
        ka = STRENGTH.__getitem__
        return (
            PV[max(fa, key=ka)][max(fb, key=ka)],
            PV[min(fa, key=ka)][min(fb, key=ka)],
        )
    mx, mn = 0, 99
    for x in fa:
        row = PV[x]
        for y in fb:
            v = row[y]
            if v > mx:
                mx = v
            if v < mn:
                mn = v
    return mx, mn


def duo_discard(hand: int) -> int:
    """The card a duo member lays away: its weakest, sooner from a short suit (a void
    frees its play), never the rainbow."""
    best, cost = -1, 99.0
    for c in bits(hand):
        if c == RB:
            continue
        same = bin(hand & SUIT_MASK[SUIT[c]]).count("1")
        k = STRENGTH[c] - (1.5 if same == 1 else 0.0)
        if k < cost:
            best, cost = c, k
    return best if best >= 0 else bits(hand)[0]


class DuoOdds:
    """How a lone pair of value ``v`` fares, from sampled duo hands: ``fight[key][v]``
    is the share of samples where it holds against the duo's best answer (the lone
    player wins ties), ``feed[key][v]`` where it holds against their worst (a duo
    trying to hand the lone player the hand). Only the ``keys`` asked for are filled
    (the others say a pair always holds)."""

    __slots__ = ("fight", "feed")

    def __init__(self, duo_hands: list[tuple[int, int]], keys: Iterable[int] | None = None) -> None:
        k = max(1, len(duo_hands))
        one = [1.0] * MAXV
        fight = [one] * (2 * NSUITS)
        feed = [one] * (2 * NSUITS)
        keys = range(2 * NSUITS) if keys is None else keys
        cf = {key: [0] * MAXV for key in keys}
        cd = {key: [0] * MAXV for key in keys}
        ka = STRENGTH.__getitem__
        for a, b in duo_hands:
            fa_all: dict[int, list[int]] = {}
            fb_all: dict[int, list[int]] = {}
            for key in keys:
                led = key % NSUITS
                fa = fa_all.get(led)
                if fa is None:
                    fa = fa_all[led] = bits(follow_mask(a, led))
                    fb_all[led] = bits(follow_mask(b, led))
                fb = fb_all[led]
                if not fa or not fb:
                    mx = mn = 0
                elif key >= NSUITS:  # blindfold: no answering each other
                    mx = PV[max(fa, key=ka)][max(fb, key=ka)]
                    mn = PV[min(fa, key=ka)][min(fb, key=ka)]
                else:
                    mx, mn = 0, 99
                    for x in fa:
                        row = PV[x]
                        for y in fb:
                            v = row[y]
                            if v > mx:
                                mx = v
                            if v < mn:
                                mn = v
                cf[key][mx if mx < MAXV else MAXV - 1] += 1
                cd[key][mn if mn < MAXV else MAXV - 1] += 1
        for key in keys:
            run_f = run_d = 0
            f = [0.0] * MAXV
            d = [0.0] * MAXV
            cfk, cdk = cf[key], cd[key]
            for v in range(MAXV):
                run_f += cfk[v]
                run_d += cdk[v]
                f[v] = run_f / k
                d[v] = run_d / k
            fight[key] = f
            feed[key] = d
        self.fight = fight
        self.feed = feed


def depleted(duo_hands: list[tuple[int, int]], k: int, rng: random.Random) -> list[tuple[int, int]]:
    """The duo hands ``k`` hands later: each has lost ``k`` cards (at random; at least
    one card stays)."""
    if k <= 0:
        return duo_hands
    out = []
    for a, b in duo_hands:
        pair = []
        for h in (a, b):
            cards = bits(h)
            drop = min(k, len(cards) - 1)
            for c in rng.sample(cards, drop) if drop > 0 else ():
                h &= ~(1 << c)
            pair.append(h)
        out.append((pair[0], pair[1]))
    return out


def plan_for(
    duo_hands: list[tuple[int, int]],
    keys: list[int],
    top_left: int,
    rng: random.Random,
    rule: bool = False,
) -> LonePlan:
    """A :class:`LonePlan` whose odds for each later hand come from the duo hands with
    as many cards gone as hands played by then (a suit the duo hold now may be gone)."""
    levels = [DuoOdds(duo_hands, keys)]
    for k in range(1, max(1, top_left)):
        levels.append(DuoOdds(depleted(duo_hands, k, rng), keys))
    return LonePlan(levels, top_left, rule)


def keys_for(hand: int) -> list[int]:
    """The odds tables a lone hand can need: the suits it can lead (and blindfolds)."""
    out = set()
    for c in bits(hand):
        if c != RB:
            out.add(odds_key(c))
    return sorted(out)


class LonePlan:
    """The lone player's plan for the rest of the round, as a small dynamic programme
    over its own cards: the chance of landing exactly on the bid when each hand is
    played with the odds of :class:`DuoOdds` against a duo that always does what hurts
    most (fight when a win helps the lone player, feed when it hurts). Winning keeps the
    better card for later; after a loss the duo send back the card that hurts most.

    :meth:`chances` gives, for a hand of ``left + 1`` cards, the chance for every number
    of hands still needed (index 0 .. ``left``)."""

    def __init__(
        self, odds: DuoOdds | list[DuoOdds], top_left: int = 5, rule: bool = False
    ) -> None:
        levels = odds if isinstance(odds, list) else [odds]
        self.fights = [o.fight for o in levels]
        self.feeds = [o.feed for o in levels]
        self.fight = self.fights[0]  #: the odds of the next hand
        self.feed = self.feeds[0]
        self.top_left = top_left
        self.memo: dict[int, list[float]] = {}
        #: model the duo by :func:`duo_fights` instead of the worst case
        self.rule = rule

    def value(self, hand: int, need: int, left: int) -> float:
        if need < 0 or need > left:
            return 0.0
        if left == 0:
            return 1.0 if need == 0 else 0.0
        return self.chances(hand)[need]

    def chances(self, hand: int) -> list[float]:
        got = self.memo.get(hand)
        if got is not None:
            return got
        cards = bits(hand)
        left = len(cards) - 1
        level = min(max(0, self.top_left - left), len(self.fights) - 1)
        fight, feed = self.fights[level], self.feeds[level]
        if left == 1:
            a, b = cards
            v = PV[a][b]
            lose_best = win_best = 0.0
            for u in (a, b):
                if u != RB:
                    key = KEY[u]
                    x = 1.0 - feed[key][v]
                    if x > lose_best:
                        lose_best = x
                    x = fight[key][v]
                    if x > win_best:
                        win_best = x
            got = self.memo[hand] = [lose_best, win_best]
            return got
        best = [0.0] * (left + 1)
        rng_need = range(left + 1)
        chances = self.chances
        rule = self.rule
        fights = FIGHTS[left]
        for i, x in enumerate(cards):
            for y in cards[i + 1 :]:
                rest = hand & ~((1 << x) | (1 << y))
                if x == RB or y == RB:
                    c = chances(rest | (1 << (y if x == RB else x)))
                    win = [0.0, *c]
                    lose = [*c, 0.0]
                else:
                    cu = chances(rest | (1 << x))
                    cd = chances(rest | (1 << y))
                    win = [0.0] + [a if a > b else b for a, b in zip(cu, cd, strict=True)]
                    if self.rule:
                        cs, cw = (cu, cd) if STRENGTH[x] >= STRENGTH[y] else (cd, cu)
                        lose = [cw[k] if FIGHTS[left - 1][k] else cs[k] for k in range(left)] + [
                            0.0
                        ]
                    else:
                        lose = [a if a < b else b for a, b in zip(cu, cd, strict=True)] + [0.0]
                v = PV[x][y]
                seen_key = -1
                for u in (x, y):
                    if u == RB:
                        continue
                    key = KEY[u]
                    if key == seen_key:
                        continue
                    seen_key = key
                    pf = fight[key][v]
                    pd = feed[key][v]
                    for need in rng_need:
                        vw = win[need]
                        vl = lose[need]
                        if rule:
                            val = vl + (pf if fights[need] else pd) * (vw - vl)
                        else:
                            val = vl + (pf if vw >= vl else pd) * (vw - vl)
                        if val > best[need]:
                            best[need] = val
        self.memo[hand] = best
        return best

    def _pair(self, hand: int, u: int, d: int, left: int) -> list[float]:
        """Chance per need after leading ``u`` and hiding ``d`` from ``hand``."""
        v = PV[u][d]
        key = KEY[u]
        level = min(max(0, self.top_left - left), len(self.fights) - 1)
        pf = self.fights[level][key][v]
        pd = self.feeds[level][key][v]
        if left <= 1:
            return [1.0 - pd, pf]
        rest = hand & ~((1 << u) | (1 << d))
        if u == RB or d == RB:
            c = self.chances(rest | (1 << (u if d == RB else d)))
            win = [0.0, *c]
            lose = [*c, 0.0]
        else:
            cu = self.chances(rest | (1 << u))
            cd = self.chances(rest | (1 << d))
            win = [0.0] + [a if a > b else b for a, b in zip(cu, cd, strict=True)]
            if self.rule:
                cs, cw = (cu, cd) if STRENGTH[u] >= STRENGTH[d] else (cd, cu)
                lose = [cw[k] if FIGHTS[left - 1][k] else cs[k] for k in range(left)] + [0.0]
            else:
                lose = [a if a < b else b for a, b in zip(cu, cd, strict=True)] + [0.0]
        if self.rule:
            f = FIGHTS[left]
            return [
                vl + (pf if f[k] else pd) * (vw - vl)
                for k, (vw, vl) in enumerate(zip(win, lose, strict=True))
            ]
        return [vl + (pf if vw >= vl else pd) * (vw - vl) for vw, vl in zip(win, lose, strict=True)]

    def outcome(self, hand: int, u: int, d: int, need: int, left: int) -> float:
        """Chance of landing on the bid after leading ``u`` face up and hiding ``d``
        (``hand`` holds both)."""
        if need < 0 or need > left:
            return 0.0
        return self._pair(hand, u, d, left)[need]

    def best(self, hand: int, need: int, left: int, up: int = -1) -> tuple[float, int, int]:
        """``(chance, up, down)`` of the best pair from ``hand`` (``up`` fixed if given,
        already out of ``hand``). At equal odds it spends less."""
        full = hand | (1 << up) if up >= 0 else hand
        cards = bits(hand)
        best = (-1.0, -1, -1)
        ups = [up] if up >= 0 else [c for c in cards if c != RB]
        for u in ups:
            for d in cards:
                if d == u:
                    continue
                val = self.outcome(full, u, d, need, left)
                val -= 0.0005 * (STRENGTH[u] + STRENGTH[d])
                if val > best[0]:
                    best = (val, u, d)
        return best


def duo_fights(need: int, left: int) -> bool:
    """Whether the duo try to win this hand: while the lone player needs more of the
    remaining hands than it must lose (a win then is what it needs least). Once it
    needs fewer, they feed it hands so that it overshoots."""
    if need <= 0 or need > left:
        return need > left  # a lost cause either way: take the hands
    return need >= left - need


#: ``FIGHTS[left][need]``: :func:`duo_fights` as a table
FIGHTS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(duo_fights(need, left) for need in range(left + 1)) for left in range(HANDS_PER_ROUND + 1)
)


# ===== the seat's view ========================================================================
class View:
    """What a seat knows, as integers, with a few sampled deals of the unseen cards."""

    def __init__(self, obs: TwoVOneView, rng: random.Random, samples: int) -> None:
        self.obs = obs
        self.me = obs.me
        self.phase = obs.phase
        self.hand = mask_of(obs.hand)
        self.lone = obs.lone if obs.lone is not None else -1
        self.bid = obs.bid or 0
        self.hand_no = obs.hand_no
        self.won = obs.hands_won.lone
        self.lost = obs.hands_won.duo
        self.rng = rng
        self.samples = samples
        self._worlds: list[RoundSim] | None = None

    @property
    def worlds(self) -> list[RoundSim]:
        """Sampled deals of the unseen cards (drawn on first use)."""
        if self._worlds is None:
            sampler = S.Sampler(_raw(self.obs), keep_prior=_keep_prior(self.obs))
            self._worlds = []
            for _ in range(self.samples):
                try:
                    self._worlds.append(sampler.sample(self.rng))
                except ValueError:
                    break
        return self._worlds

    def need_left(self, after: bool = False) -> tuple[int, int]:
        """(hands the lone player still needs, hands left counting the current one);
        ``after``: once the current hand is over (for the keep)."""
        left = HANDS_PER_ROUND - self.hand_no + (0 if after else 1)
        return self.bid - self.won, left


def _keep_prior(obs: TwoVOneView) -> S.KeepPrior:
    """A lone player who still needed hands keeps the stronger card; one that had its
    bid, the weaker. Without the score per hand, lean towards the stronger."""

    def prior(a: int, b: int) -> float:
        if STRENGTH[a] == STRENGTH[b]:
            return 0.5
        return 0.8 if STRENGTH[a] > STRENGTH[b] else 0.2

    return prior


# ===== easy ===================================================================================
def easy_strength(hand: list[str]) -> float:
    """Rough number of hands a lone player with ``hand`` can take: strong disjoint pairs
    (a spare one counts half), a few high cards and the rainbow."""
    idx = [INDEX[c] for c in hand]
    pairs = sorted(
        ((PV[a][b], a, b) for i, a in enumerate(idx) for b in idx[i + 1 :]), reverse=True
    )
    used = 0
    wins = 0.0
    for v, a, b in pairs:
        if used >> a & 1 or used >> b & 1:
            continue
        if v >= 8:
            wins += 1
        elif v >= 6:
            wins += 0.5
        else:
            continue
        used |= (1 << a) | (1 << b)
    high = sum(1 for c in idx if c != RB and VALUE[c] >= 5)
    return wins + 0.5 * min(high, 2) + (0.5 if RB in idx else 0)


class _Base(SuggestingAgent):
    name = "2v1"


def _two_v_one(obs: ObsIn) -> TwoVOneView:
    """The observation as what it is: a 2v1 seat's (the registry gives these agents no
    other variant)."""
    return as_two_v_one(obs)


def _raw(obs: TwoVOneView) -> TwoVOneObservation:
    """The observation's JSON form, for the integer core's sampler (it reads that)."""
    return cast(TwoVOneObservation, obs.to_json())


def _led(obs: TwoVOneView) -> str:
    """The face-up led card (there is one: the hand has been led)."""
    lead = obs.lead
    assert lead is not None
    return lead


class EasyTwoVOneAgent(_Base):
    """Rules of thumb a beginner can beat (see the module text)."""

    name = "easy"

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        o = _two_v_one(obs)
        phase = o.phase
        hand = o.hand
        need = (o.bid or 0) - o.hands_won.lone
        left = HANDS_PER_ROUND - o.hand_no + 1
        if phase in (BID, RAISE):
            s = easy_strength(list(hand))
            values = [a.value for a in legal]
            want = 4 if s >= 4.5 else (3 if s >= 3 else 0)
            if phase == RAISE:
                v = 4 if s >= 5 else 3
                return Suggestion(Action("raise", value=v), f"Keep the bid at {v}.")
            if want == 3 and 3 not in values:
                want = 0
            if want not in values:
                want = 0 if 0 in values else (3 if 3 in values else 4)
            if want:
                return Suggestion(Action("bid", value=want), f"Bid {want}: you hold strong pairs.")
            return Suggestion(Action("bid", value=0), "Pass: your hand is not strong enough.")
        if phase == EXCHANGE:
            idx = sorted((INDEX[c] for c in hand), key=lambda c: (c != RB, STRENGTH[c]))
            pick = tuple(CODES[c] for c in idx[:2])
            act = next(a for a in legal if set(a.cards) == set(pick))
            return Suggestion(act, f"Pass your weakest cards, {labels(pick)}.")
        if phase == DISCARD:
            c = CODES[duo_discard(mask_of(hand))]
            return Suggestion(Action("discard", (c,)), f"Discard {label(c)}, your weakest card.")
        if phase in (LEAD, HIDE):
            win = need >= left
            idx = [INDEX[c] for c in hand]
            if phase == LEAD:
                pairs = [(u, d) for u in idx for d in idx if u != d and u != RB]
            else:
                up = INDEX[_led(o)]
                pairs = [(up, d) for d in idx]

            def key(p: tuple[int, int]) -> int:
                v = PV[p[0]][p[1]]
                return v if win else -v

            u, d = max(pairs, key=key)
            c = CODES[u] if phase == LEAD else CODES[d]
            why = "you need every hand left" if win else "throw this one"
            return Suggestion(Action(phase, (c,)), f"{phase.capitalize()} {label(c)}: {why}.")
        if phase == FOLLOW:
            options = [INDEX[a.cards[0]] for a in legal]
            fight = need > 0
            i = (
                max(options, key=STRENGTH.__getitem__)
                if fight
                else min(options, key=STRENGTH.__getitem__)
            )
            why = "beat the lone player" if fight else "the lone player has its bid: play low"
            return Suggestion(Action("follow", (CODES[i],)), f"Play {label(CODES[i])}: {why}.")
        if phase == KEEP:
            two = [str(a.value) for a in legal]  # the lone player's two cards
            strong = max(two, key=lambda c: STRENGTH[INDEX[c]])
            weak = min(two, key=lambda c: STRENGTH[INDEX[c]])
            if o.seat == o.lone:
                c = strong if need > 0 else weak
                why = "you still need hands" if need > 0 else "you have your hands: keep it weak"
                return Suggestion(Action("keep", value=c), f"Keep {label(c)}: {why}.")
            c = weak if need > 0 else strong
            why = "keep the lone player weak" if need > 0 else "make it win one hand too many"
            return Suggestion(Action("keep", value=c), f"Send back {label(c)}: {why}.")
        return Suggestion(legal[0], "The only sensible move.")


# ===== normal =================================================================================
class NormalTwoVOneAgent(_Base):
    """Plans from sampled deals (see the module text)."""

    name = "normal"
    samples = 12
    pass_value = 0.95  #: coins a pass is worth (a bid must promise more)
    overcall_value = 1.05

    def __init__(self, samples: int | None = None, **kw: Any) -> None:
        if samples is not None:
            self.samples = samples

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        phase = _two_v_one(obs).phase
        if len(legal) == 1:
            return Suggestion(legal[0], "It is the only move you have.")
        view = View(_two_v_one(obs), rng, self.samples)
        handler: Callable[[View, list[Action]], tuple[Action, str]]
        handler = getattr(self, f"_{phase}")
        act, why = handler(view, legal)
        if act not in legal:  # never happens; a safe fallback all the same
            act = legal[0]
        return Suggestion(act, why)

    # ----- bidding -----------------------------------------------------------------------
    rule = False  #: model the duo by the fight/feed rule (else the worst case)

    def lone_odds(
        self, view: View, me: int, extra: int = 0, top_left: int | None = None
    ) -> LonePlan:
        """The plan of ``me`` as the lone player, from the sampled other hands (before
        the bidding ends the duo still hold six: they lay away their weakest)."""
        duo = []
        for w in view.worlds:
            a, b = (me + 1) % N, (me + 2) % N
            ha, hb = w.hands[a], w.hands[b]
            if w.discards[a] < 0 and bin(ha).count("1") > 5:
                ha &= ~(1 << duo_discard(ha))
            if w.discards[b] < 0 and bin(hb).count("1") > 5:
                hb &= ~(1 << duo_discard(hb))
            duo.append((ha, hb))
        keys = keys_for(view.hand | extra)
        if top_left is None:
            top_left = bin(view.hand | extra).count("1") - 1
        return plan_for(duo, keys, top_left, view.rng, self.rule)

    def bid_odds(self, view: View) -> tuple[float, float]:
        plan = self.lone_odds(view, view.me)
        return plan.value(view.hand, 3, HANDS_PER_ROUND), plan.value(view.hand, 4, HANDS_PER_ROUND)

    def _bid(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        p3, p4 = self.bid_odds(view)
        values = {a.value for a in legal}
        obs = view.obs
        options = []
        if 3 in values:
            options.append((2 * p3, 3))
        if 4 in values:
            options.append((2 * p4, 4))
        best_val, best = max(options) if options else (0.0, 0)
        floor = self.pass_value if obs.high_bid is None else self.overcall_value
        strong = _strong_words(view.hand)
        if 0 in values and best_val < floor:
            if obs.high_bid is None:
                return Action("bid", value=0), (
                    f"Pass: {strong} should not land exactly on 3 or 4 (about {max(p3, p4):.0%})."
                )
            return Action("bid", value=0), (
                f"Pass: leave the 3 to them and try to make it miss (a 4 lands about "
                f"{p4:.0%} of the time)."
            )
        forced = "" if 0 in values else " (somebody has to)"
        return Action("bid", value=best), (
            f"Bid {best}{forced}: {strong} should take {best} hands "
            f"(about {max(p3, p4) if not forced else (p3 if best == 3 else p4):.0%})."
        )

    def _raise(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        p3, p4 = self.bid_odds(view)
        if p4 > p3 + 0.05:
            return Action("raise", value=4), f"Raise to 4: four hands look likelier ({p4:.0%})."
        return Action("raise", value=3), f"Keep 3: three hands are the safer target ({p3:.0%})."

    def _exchange(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        cards = bits(view.hand)
        order = sorted(cards, key=lambda c: (c != RB, STRENGTH[c], c))
        pick = mask_of(CODES[c] for c in order[:2])
        act = next(a for a in legal if mask_of(a.cards) == pick)
        names = labels(CODES[c] for c in order[:2])
        if RB in order[:2]:
            return act, f"Pass {names}: the rainbow must go, and with it your weakest card."
        return act, f"Pass {names}, your weakest: keep the cards that make strong pairs."

    # ----- the duo ------------------------------------------------------------------------
    def _discard(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        c = duo_discard(view.hand)
        short = bin(view.hand & SUIT_MASK[SUIT[c]]).count("1") == 1 if c != RB else False
        why = "it leaves you free to play anything on that suit" if short else "your weakest card"
        return Action("discard", (CODES[c],)), f"Discard {label(CODES[c])}: {why}."

    def _follow(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        obs = view.obs
        me, lone = view.me, view.lone
        partner = next(s for s in range(N) if s not in (me, lone))
        up = INDEX[_led(obs)]
        led = SUIT[up]
        need, left = view.need_left()
        fight = duo_fights(need, left)
        blind = bool(obs.blindfold)
        pcard = -1
        for t in obs.table:
            if t.seat == partner and t.cards and t.cards[0] != "??":
                pcard = INDEX[t.cards[0]]
        cards = [INDEX[a.cards[0]] for a in legal]
        worlds: list[RoundSim | None] = list(view.worlds) or [None]
        score = {c: 0.0 for c in cards}
        for w in worlds:
            if w is None:
                lone_vals = [PV[up][x] for x in range(len(CODES)) if x != up]
                lone_hand = 0
            else:
                lone_hand = w.hands[lone] | ((1 << w.down) if w.down >= 0 else 0)
                lone_vals = [PV[up][x] for x in bits(lone_hand)]
            if not lone_vals:
                lone_vals = [VALUE[up]]
            # the lone player's pair: its best when it needs a win, its worst to throw
            lone_v_win = max(lone_vals)
            lone_v_lose = min(lone_vals)
            lone_v = lone_v_win if need >= left - need else lone_v_lose
            if pcard >= 0:
                replies = None
            elif w is not None:
                ph = w.hands[partner]
                replies = bits(follow_mask(ph, led)) if ph else []
            else:
                replies = []
            for c in cards:
                if pcard >= 0:
                    dv = PV[c][pcard]
                elif replies:
                    if blind:
                        pc = (max if fight else min)(replies, key=STRENGTH.__getitem__)
                        dv = PV[c][pc]
                    elif fight:
                        dv = max(PV[c][x] for x in replies)
                    else:
                        dv = min(PV[c][x] for x in replies)
                else:
                    dv = STRENGTH[c]
                duo_wins = dv > lone_v
                score[c] += 1.0 if duo_wins == fight else 0.0
        k = len(worlds)
        # at equal odds: fighting, spend the weakest card; feeding, shed the strongest
        best = max(
            cards,
            key=lambda c: (round(score[c] / k, 3), -STRENGTH[c] if fight else STRENGTH[c]),
        )
        p = score[best] / k
        code = CODES[best]
        if need > left:
            why = "the lone player can no longer make its bid, so nothing is at stake"
        elif fight:
            if pcard >= 0:
                v = PV[best][pcard]
                why = (
                    f"with your partner's {label(CODES[pcard])} that makes {v} "
                    f"({pair_reason(code, CODES[pcard])}), likely enough to beat the lone pair"
                    if p >= 0.5
                    else "the hand looks lost, so keep your good cards"
                )
            else:
                why = (
                    f"the lone player still needs {need} of {left} hands: fight for this one"
                    if p >= 0.3
                    else "this hand looks lost, so save your strong cards"
                )
        else:
            if need <= 0:
                why = "the lone player has its bid: hand it this one so it overshoots"
            else:
                why = f"the lone player needs only {need} of {left}: let it win so it overshoots"
        return Action("follow", (code,)), f"Play {label(code)}: {why}."

    def _keep(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        obs = view.obs
        a, b = (INDEX[str(x.value)] for x in legal)
        need, left = view.need_left(after=True)
        if view.me == view.lone:
            plan = self.lone_odds(view, view.me, (1 << a) | (1 << b), bin(view.hand).count("1"))
            va = plan.value(view.hand | (1 << a), need, left)
            vb = plan.value(view.hand | (1 << b), need, left)
            if abs(va - vb) < 1e-9:
                c = a if (STRENGTH[a] >= STRENGTH[b]) == (need > 0) else b
            else:
                c = a if va > vb else b
            why = f"keep {label(CODES[c])}: it gives the best chance to finish on {view.bid}"
            return Action("keep", value=CODES[c]), why[0].upper() + why[1:] + "."
        # the duo: send back what hurts the lone player most
        fight = duo_fights(need, left) if left > 0 else True
        strong, weak = (a, b) if STRENGTH[a] >= STRENGTH[b] else (b, a)
        c = weak if fight else strong
        if fight:
            why = f"Send back {label(CODES[c])}: the weaker card makes the next hands harder."
        else:
            why = (
                f"Send back {label(CODES[c])}: the lone player has to lose hands now, and a "
                "strong card makes that hard."
            )
        del obs
        return Action("keep", value=CODES[c]), why

    # ----- the lone player -------------------------------------------------------------------
    def _lead(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        plan = self.lone_odds(view, view.me)
        need, left = view.need_left()
        val, u, d = plan.best(view.hand, need, left)
        if u < 0:
            u = INDEX[legal[0].cards[0]]
        return Action("lead", (CODES[u],)), self._lead_words(plan, view, u, d, need, left, val)

    def _hide(self, view: View, legal: list[Action]) -> tuple[Action, str]:
        up = INDEX[_led(view.obs)]
        plan = self.lone_odds(view, view.me, 1 << up)
        need, left = view.need_left()
        val, u, d = plan.best(view.hand, need, left, up=up)
        if d < 0:
            d = INDEX[legal[0].cards[0]]
        v = PV[up][d]
        win = plan.fight[odds_key(up)][v]
        if need >= left or (need > 0 and win >= 0.5):
            why = f"{label(CODES[up])} with {label(CODES[d])} makes {v}: it should take the hand"
        else:
            why = f"{label(CODES[up])} with {label(CODES[d])} makes only {v}: throw this hand"
        return Action("hide", (CODES[d],)), f"Lay {label(CODES[d])} face down: {why}."

    def _lead_words(
        self, plan: LonePlan, view: View, u: int, d: int, need: int, left: int, val: float
    ) -> str:
        v = PV[u][d] if d >= 0 else VALUE[u]
        key = odds_key(u)
        win = plan.fight[key][v]
        lose = 1 - plan.feed[key][v]
        cu = label(CODES[u])
        cd = label(CODES[d]) if d >= 0 else "?"
        if need > left:
            return (
                f"Lead {cu} and hide {cd}: {view.bid} hands are out of reach now, so spend "
                "your cards as you like."
            )
        if need <= 0:
            return (
                f"Lead {cu} and hide {cd} ({v}): you have your {view.bid}, so throw this "
                f"hand ({lose:.0%} it loses)."
            )
        if win >= lose:
            hands = "hand" if need == 1 else "hands"
            return (
                f"Lead {cu} and hide {cd} for {v}: it should win ({win:.0%}); you need "
                f"{need} more {hands} of {left}."
            )
        return (
            f"Lead {cu} and hide {cd} for only {v}: throw this hand now and win the "
            f"{need} you need later."
        )


def _strong_words(hand: int) -> str:
    """The cards a bid rests on, in words: the rainbow and the strongest cards."""
    cards = sorted(bits(hand), key=lambda c: (-STRENGTH[c], c))
    top = [c for c in cards if c != RB][:2]
    names = " and ".join(label(CODES[c]) for c in top)
    if RB in cards:
        return f"your rainbow, {names}"
    return f"your {names}" if names else "your hand"


# ===== fast policies for the simulation (hard's playouts) =====================================
_BID_SCORES: dict[int, int] = {}


def _quick_bid_score(hand: int) -> int:
    """A cheap stand-in for the normal bid: the value of the best three disjoint pairs,
    and 4 more with the rainbow (remembered per hand)."""
    got = _BID_SCORES.get(hand)
    if got is None:
        if len(_BID_SCORES) > 50_000:
            _BID_SCORES.clear()
        got = _BID_SCORES[hand] = _bid_score(hand)
    return got


def _bid_score(hand: int) -> int:
    cards = bits(hand)
    pairs = sorted(
        ((PV[a][b], a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]), reverse=True
    )
    used = 0
    total = 0
    taken = 0
    for v, a, b in pairs:
        if used >> a & 1 or used >> b & 1:
            continue
        used |= (1 << a) | (1 << b)
        total += v
        taken += 1
        if taken == 3:
            break
    return total + (4 if hand & RB_BIT else 0)


QUICK_BID3 = 20
QUICK_BID4 = 22


class LoneModel:
    """How the lone player plays in a playout: with a :class:`LonePlan` over odds it
    could know — the duo's cards (hands and discards) dealt again at random between the
    two duo hands, since it cannot see who holds what. Plans are shared between the
    playouts of one iteration (same duo cards, same plan). ``rule_seat`` plans with the
    fight/feed rule (the searching seat itself), the others with the worst case."""

    def __init__(self, rng: random.Random, rule_seat: int = -1, splits: int = 4) -> None:
        self.rng = rng
        self.rule_seat = rule_seat
        self.splits = splits
        self.plans: dict[tuple[int, int, int, int], LonePlan] = {}
        self.downs: dict[tuple[int, int], int] = {}

    def plan(self, s: RoundSim) -> LonePlan:
        lone = s.lone
        a, b = (lone + 1) % N, (lone + 2) % N
        ha, hb = s.hands[a], s.hands[b]
        union = ha | hb
        for c in s.discards:
            if c >= 0:
                union |= 1 << c
        na, nb = bin(ha).count("1"), bin(hb).count("1")
        key = (union, na, nb, s.hands[lone])
        plan = self.plans.get(key)
        if plan is None:
            cards = bits(union)
            splits = []
            for _ in range(self.splits):
                self.rng.shuffle(cards)
                splits.append((_mask(cards[:na]), _mask(cards[na : na + nb])))
            lone_cards = s.hands[lone]
            for c in (s.up, s.down):
                if c >= 0:
                    lone_cards |= 1 << c
            if s.phase == KEEP:
                top_left = bin(s.hands[lone]).count("1")
            else:
                top_left = bin(lone_cards).count("1") - 1
            plan = plan_for(
                splits, keys_for(lone_cards), top_left, self.rng, lone == self.rule_seat
            )
            self.plans[key] = plan
        return plan

    def move(self, s: RoundSim, seat: int) -> int:
        p = s.phase
        need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
        hand = s.hands[seat]
        if p == LEAD:
            _, u, d = self.plan(s).best(hand, need, left)
            if u < 0:  # a hand of one card (only in positions built by hand)
                return s.legal(seat)[0]
            self.downs[(s.hand_no, hand & ~(1 << u))] = d
            return u
        if p == HIDE:
            d = self.downs.get((s.hand_no, hand), -1)
            if d >= 0 and hand >> d & 1:
                return d
            d = self.plan(s).best(hand, need, left, up=s.up)[2]
            return d if d >= 0 else s.legal(seat)[0]
        # KEEP, lone: the card that leaves the better plan
        plan = self.plan(s)
        a, b = s.up, s.down
        left -= 1
        va = plan.value(hand | (1 << a), need, left)
        vb = plan.value(hand | (1 << b), need, left)
        if va == vb:
            return a if (STRENGTH[a] >= STRENGTH[b]) == (need > 0) else b
        return a if va > vb else b


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def rollout_move(
    s: RoundSim, seat: int, rng: random.Random, lone_model: LoneModel | None = None
) -> int:
    """A quick, sensible move for ``seat`` in a simulated round. It may look at the other
    hands of the sampled deal (they are a guess anyway) but never at a face-down card.
    With ``lone_model`` the lone player plans its hands (:class:`LoneModel`)."""
    p = s.phase
    if p == FOLLOW:
        return _rollout_follow(s, seat)
    if lone_model is not None and seat == s.lone and p in (LEAD, HIDE, KEEP):
        return lone_model.move(s, seat)
    if p == LEAD:
        u, _ = _rollout_pair(s, -1)
        return u
    if p == HIDE:
        _, d = _rollout_pair(s, s.up)
        return d
    if p == KEEP:
        need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no
        a, b = s.up, s.down
        strong, weak = (a, b) if STRENGTH[a] >= STRENGTH[b] else (b, a)
        if seat == s.lone:
            return strong if need > 0 else weak
        return weak if duo_fights(need, left) else strong
    if p == DISCARD:
        return duo_discard(s.hands[seat])
    if p == BID:
        legal = s.legal(seat)
        score = _quick_bid_score(s.hands[seat])
        if 4 in legal and score >= QUICK_BID4:
            return 4
        if 3 in legal and score >= QUICK_BID3:
            return 3
        if 0 in legal:
            return 0
        return 3 if 3 in legal else 4
    if p == RAISE:
        return 4 if _quick_bid_score(s.hands[seat]) >= QUICK_BID4 + 3 else 3
    if p == EXCHANGE:
        cards = sorted(bits(s.hands[seat]), key=lambda c: (c != RB, STRENGTH[c]))
        return (1 << cards[0]) | (1 << cards[1])
    legal = s.legal(seat)
    return legal[rng.randrange(len(legal))]


def _rollout_pair(s: RoundSim, up: int) -> tuple[int, int]:
    lone = s.lone
    a, b = (lone + 1) % N, (lone + 2) % N
    ha, hb = s.hands[a], s.hands[b]
    hand = s.hands[lone]
    need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
    cards = bits(hand)
    ext: dict[int, tuple[int, int]] = {}
    if need >= left:
        want = 1
    elif need <= 0:
        want = 0
    else:
        want = -1  # either: take whichever is sure, throwing first while the duo fight
    best = None
    best_key = None
    ups = [up] if up >= 0 else [c for c in cards if c != RB]
    for u in ups:
        key = odds_key(u)
        e = ext.get(key)
        if e is None:
            e = ext[key] = duo_extremes(ha, hb, SUIT[u], BLIND[u])
        mx, mn = e
        for d in cards:
            if d == u:
                continue
            v = PV[u][d]
            spend = STRENGTH[u] + STRENGTH[d]
            lo = STRENGTH[u] if STRENGTH[u] < STRENGTH[d] else STRENGTH[d]
            if want == 1:
                k = (v >= mx, -lo if v >= mx else v - mx, -spend)
            elif want == 0:
                k = (v < mn, -spend if v < mn else mn - v, 0)
            else:
                sure_win = v >= mx
                sure_loss = v < mn
                if need > left - need:
                    k = (sure_win, sure_loss, -lo)
                else:
                    k = (sure_loss, sure_win, -spend)
            if best_key is None or k > best_key:
                best_key, best = k, (u, d)
    if best is None:  # a hand of one card (only in positions built by hand)
        c = bits(hand)[0] if hand else -1
        return (c, c) if up < 0 else (up, c)
    return best


def _rollout_follow(s: RoundSim, seat: int) -> int:
    lone = s.lone
    hand = s.hands[seat]
    up = s.up
    legal = bits(follow_mask(hand, SUIT[up]))
    if len(legal) == 1:
        return legal[0]
    need, left = s.bid - s.won[0], HANDS_PER_ROUND - s.hand_no + 1
    fight = duo_fights(need, left)
    partner = 3 - lone - seat
    pcard = s.follows[partner]
    if s.blind:
        pcard = -1
    # the lone pair is unseen: judge by what it could be
    lone_hand = s.hands[lone] | ((1 << s.down) if s.down >= 0 else 0)
    vals = [PV[up][x] for x in bits(lone_hand)] or [VALUE[up]]
    lone_v = max(vals) if need >= left - need else min(vals)
    if pcard >= 0:
        scored = [((PV[c][pcard] > lone_v) == fight, c) for c in legal]
    elif not s.blind:
        replies = bits(follow_mask(s.hands[partner], SUIT[up]))
        scored = []
        for c in legal:
            if replies:
                dv = max(PV[c][x] for x in replies) if fight else min(PV[c][x] for x in replies)
            else:
                dv = STRENGTH[c]
            scored.append(((dv > lone_v) == fight, c))
    else:
        c = max(legal, key=STRENGTH.__getitem__) if fight else min(legal, key=STRENGTH.__getitem__)
        return c
    good = [c for ok, c in scored if ok]
    pool = good or legal
    if fight == bool(good):
        return min(pool, key=STRENGTH.__getitem__)
    return max(pool, key=STRENGTH.__getitem__)


def playout(s: RoundSim, rng: random.Random, lone_model: LoneModel | None = None) -> None:
    """Play ``s`` to the end of the round with :func:`rollout_move`."""
    moves = 0
    while s.phase != S.OVER:
        acting = s.to_act()
        seat = acting[0]
        s.apply(seat, rollout_move(s, seat, rng, lone_model))
        moves += 1
        if moves > 400:  # exchanges forever cannot happen (the rainbow forces a bid)
            raise RuntimeError("a simulated round did not end")


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
        sampler = S.Sampler(_raw(obs), keep_prior=_keep_prior(obs))
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
    sampler: S.Sampler, rng: random.Random, weigh: Callable[[RoundSim], float] | None
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
