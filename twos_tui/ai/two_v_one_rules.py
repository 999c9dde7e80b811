"""The rule-based 2v1 opponents, ``easy`` and ``normal`` (described in the docstring of
:mod:`.two_v_one_ai`), and the seat's view as integers (:class:`View`) that ``normal``
and ``hard`` decide from.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..engine.observation import TwoVOneObservation
from ..engine.observer import ObsIn, as_two_v_one
from ..engine.protocol import Action, Decision
from ..engine.two_v_one.core import (
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
    SUIT,
    SUIT_MASK,
    VALUE,
    RoundSim,
    bits,
    follow_mask,
    mask_of,
)
from ..engine.two_v_one.deck import HANDS_PER_ROUND, label, labels, pair_reason
from ..engine.two_v_one.sampler import KeepPrior, Sampler
from ..engine.views import TwoVOneView
from .base import SuggestingAgent

if TYPE_CHECKING:
    from . import Suggestion

from .two_v_one_odds import (
    STRENGTH,
    LonePlan,
    N,
    duo_discard,
    duo_fights,
    keys_for,
    odds_key,
    plan_for,
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
            sampler = Sampler(_raw(self.obs), keep_prior=_keep_prior(self.obs))
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


def _keep_prior(obs: TwoVOneView) -> KeepPrior:
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
