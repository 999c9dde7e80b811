"""Opponents for the climbing games (Twos, Big Two, Big Two five-round, Chinese Poker).

Two levels, both deciding only from the seat's observation, its legal actions, its
decision and its own generator (:mod:`.hand_plan` turns the observation into what the
seat knows). Both offer ``suggest()``: the move and one line in a player's words.

``easy`` (:class:`EasyClimbingAgent`) — the rules of thumb of a beginner:

* if a play empties the hand, make it;
* lead the lowest card, with the other cards of its rank (runs and poker hands only
  when nothing else will do);
* follow with the lowest play that beats the table, without breaking up a bomb (or, in
  Big Two, four of a kind) or taking a single card out of a set of three or four; keep
  a two back (most of the time) while the hand is long and nobody is close to going out;
* bomb only to go out or to stop a player who is down to three cards or fewer;
* Chinese Poker's hand choice: the hand with the most high cards.

``normal`` (:class:`NormalClimbingAgent`) — hand planning with card counting:

* the hand is split into the fewest combinations, keeping the strongest
  (:class:`~.hand_plan.Planner`, which counts the cards already played and reads the
  passes: a player who passed on a play is less likely to beat one of that kind);
* when every combination but one is a *control* (nobody can beat it but with a bomb),
  play the controls and go out — on the lead or when following;
* otherwise lead the combination that is hardest to get rid of: the weakest, the bigger
  the better (in Big Two a five-card hand first: others can seldom follow it); keep
  controls for later;
* follow with the play that scores best: what it saves the plan of the hand, the cards it
  sheds and the lead it may win, less the strength it spends while the hand has no
  controls to spare; pass when nothing scores enough — passing costs more when it hands
  the lead straight to the player on top (always, with two players);
* Big Two (both editions), following: a five-card hand of the plan needs a lead to be
  played, and a hand without controls seldom gets one, so a follow's gain is weighed
  half by what it saves a plan of singles, pairs and triples alone (a card that only
  breaks a planned straight is shed rather than kept for a lead that never comes); each
  pair or triple a follow plays only part of costs it 0.15 (no J♥ out of J♣ J♥ J♠ on a
  low single, no 2♦ out of 2♦ 2♠ with ten cards); and a follow must score 0.3, not
  -0.05, so that a play which gives the plan nothing is passed. Measured (2026-11-27,
  ``twos-tui arena --variant big-two --seats normal,greedy2,greedy2,greedy2 --deals 800``,
  seed 1, the same deals): deals won 35.2% -> 39.2%, penalty a deal 3.74 -> 3.57;
  five-round (400 deals) 33.0% -> 36.5%, 4.07 -> 3.65; greedy2 against three normal
  22.4% -> 22.8% of deals (no change within the interval), its penalty 4.80 -> 4.53.
  Tried and dropped: the same bar in Chinese Poker (more deals won, more penalty),
  more weight on the sets-only plan when an opponent is ahead (fewer deals won);
  (2026-11-28) less weight on blocking a close opponent when leading (``LEAD_BLOCK`` 3),
  no preference for bigger leads (``SIZE_BONUS`` 0), passing more readily when it
  hands the lead on (``PASS_COST`` 0.4) and shedding more when an opponent is close
  (``DUMP`` 1): against three greedy2 it wins more Big Two deals (2,000 deals, seed 1:
  38.9% -> 40.0%, seed 7: 37.8% -> 40.5%, its penalty 3.47 -> 3.43 and 3.48 -> 3.39)
  and greedy2 against three of it fewer (23.8% -> 20.8%, 21.9% -> 19.1%), but against
  today's ``normal`` it pays as much penalty in Big Two (paired +0.07 [-0.04, +0.18] a
  deal, 2,000 deals), more in five-round (today's pays 0.19 [0.05, 0.33] less against
  it) and in Chinese Poker (+1.28 [+0.81, +1.75]): more deals won, no fewer points paid,
  where the points decide the match;
* an opponent close to going out (4 cards or fewer, weighing more the fewer) counts on
  every play: lead what they cannot follow (more cards than they hold) or high enough,
  beat what would let them win the trick, and in penalty games shed cards (the 50/40/30
  steps of Big Two and Chinese Poker included) when they cannot be stopped;
* house rules: a locked-out player is not counted as able to beat a play;
  same-suit runs, bomb order, 2-3-4-5-6 high, flush order and bomb comparison change
  what beats what (the legal plays and the strength of each combination);
* Chinese Poker: choose the hand with the best plan (2 players; the second chooser also
  knows that the hand left over is out of play); never pass the opening lead (measured:
  passing it loses).

Where the code lives: ``normal`` here, ``easy`` in :mod:`.climbing_easy`, what both share
(card orders, words, small facts about a hand) in :mod:`.climbing_common`, the hand
planner in :mod:`.hand_plan`; the names of the last two are still exported from here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine.observer import ObsIn
from ..engine.protocol import Action, Decision
from ..engine.views import ClimbingView
from ..engine.words import says
from . import Suggestion
from .climbing_common import (
    _cards_word,
    _climbing,
    _names,
    _offered,
    _plays,
    _unbeatable,
    is_lowest,
    kind_word,
    penalty,
    show,
    splits_a_set,
)
from .climbing_easy import EasyClimbingAgent
from .hand_plan import BigTwoPlanner, Combo, Planner, planner_for
from .plan_base import _Opp

#: the module's names, with those that now live in its sibling modules
__all__ = [
    "EasyClimbingAgent",
    "NormalClimbingAgent",
    "is_lowest",
    "kind_word",
    "penalty",
    "show",
    "splits_a_set",
]


# =========================================================================================
# normal


class _Cand:
    """A play weighed when following: its combination, the hand left, and its *gain*
    (how much cheaper the plan of the hand gets), worked out only when needed."""

    __slots__ = ("a", "c", "rest", "planned", "_gain", "_P", "_base")

    def __init__(
        self, a: Action, c: Combo, P: Planner, hand: int, base: float, plan: dict[int, Combo]
    ) -> None:
        self.a = a
        self.c = c
        self.rest = P.remove(hand, c)
        same = plan.get(c.mask)
        self.planned = same is not None
        self._gain = same.cost if same is not None else None
        self._P = P
        self._base = base

    @property
    def gain(self) -> float:
        if self._gain is None:
            self._gain = self._base - self._P.cost(self.rest)
        return self._gain


def _split_ranks(hand: int, rest: int) -> int:
    """How many ranks a play (``hand`` less ``rest``, Big Two card masks: 4 bits a rank)
    takes only part of: the pairs and triples it breaks."""
    played = hand & ~rest
    return sum(1 for r in range(13) if (played >> (4 * r)) & 15 and (rest >> (4 * r)) & 15)


class NormalClimbingAgent:
    """Hand planning with card counting (see the module doc)."""

    name = "normal"

    #: a follow is made when its score (see ``_follow_score``) reaches this
    PLAY_AT = -0.05
    #: ... in Big Two (both editions), where a follow must also pay for what it takes
    #: from the plan's sets (``STUCK``, ``SPLIT``): measured, a higher bar wins more deals
    #: there, while in Chinese Poker it costs penalty points
    BIG_TWO_PLAY_AT = 0.3
    #: what passing costs when it hands the lead to the player on top
    PASS_COST = 0.75
    #: score of each card a play sheds
    CARD_BONUS = 0.03
    #: score of winning the lead (times the chance that the play holds)
    LEAD_VALUE = 0.4
    #: what spending a strong combination costs while the hand has no controls to spare
    HOLD_COST = 1.0
    #: a play this strong is kept for later unless it is needed
    HOLD = 0.8
    #: how close to going out an opponent with 1, 2, 3, 4 cards is (a weight)
    THREAT = {1: 1.0, 2: 0.6, 3: 0.25, 4: 0.1}
    #: score of keeping such an opponent from winning the trick when following
    BLOCK = 2.0
    #: how much leading what such an opponent might beat costs
    LEAD_BLOCK = 6.0
    #: worth of each penalty point a play saves, times how close the nearest opponent
    #: is to going out (penalty games)
    DUMP = 0.5
    #: at most this many plays that break the plan are weighed when following
    OFF_PLAN = 10
    #: lead preference for bigger combinations (per card)
    SIZE_BONUS = 0.04
    #: Big Two: how much a follow's gain is weighed by a plan of sets alone (five-card
    #: hands need a lead, which a hand without controls seldom gets)
    STUCK = 0.5
    #: Big Two: what a follow costs for each rank it splits (a pair or triple it plays
    #: only part of)
    SPLIT = 0.15

    def __init__(self, **kw: Any) -> None:
        for k, v in kw.items():
            if k.isupper() and hasattr(type(self), k):
                if k == "THREAT":
                    v = {int(n): w for n, w in v.items()}
                setattr(self, k, v)

    # ----- the agent interface -------------------------------------------------------------
    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        return self._decide(_climbing(obs), legal, decision, False)[0]

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        act, why = self._decide(_climbing(obs), legal, decision, True)
        return Suggestion(act, why)

    # ----- deciding --------------------------------------------------------------------------
    def _decide(
        self, obs: ClimbingView, legal: list[Action], decision: Decision, explain: bool
    ) -> tuple[Action, str]:
        if decision.kind == "choose-hand" or (legal and legal[0].kind == "choose-hand"):
            return self._choose_hand(obs, legal)
        plays, pass_act = _plays(legal)
        top = obs.top
        if not plays:
            act = pass_act or legal[0]
            why = ""
            if explain and top:
                why = f"Pass: nothing you hold beats {show(top.cards)}."
            return act, why or "Pass: you have nothing that can be played here."
        hand_n = len(obs.hand)
        for a in plays:
            if len(a.cards) == hand_n:
                return a, f"Play {show(a.cards)}: it empties your hand."
        if len(legal) == 1:
            only = legal[0]
            if only.kind == "play":
                return only, f"Play {show(only.cards)}: it is your only move."
            return only, "Pass: it is your only move."
        P = planner_for(obs)
        if top is None:
            return self._lead(obs, P, plays, explain)
        return self._follow(obs, P, plays, pass_act, explain)

    # ----- who is close to going out ------------------------------------------------------
    def _opponents(self, obs: ClimbingView, P: Planner) -> list[tuple[int, int, Any]]:
        """(seat, cards, planner's model of it) for each opponent still holding cards."""
        counts = obs.hand_counts
        seats = [s for s in range(obs.players) if s != obs.me and counts[s]]
        return [(s, counts[s], o) for s, o in zip(seats, P.opps, strict=False)]

    # ----- leading ----------------------------------------------------------------------------
    def _lead(
        self, obs: ClimbingView, P: Planner, plays: list[Action], explain: bool
    ) -> tuple[Action, str]:
        by_sig: dict[int, list[Action]] = {}
        for a in plays:
            by_sig.setdefault(P.sig_of(a.cards), []).append(a)
        plan = P.plan()
        legal_plan = [c for c in plan if c.sig in by_sig]
        if not legal_plan:
            # the required card is not where the plan would use it: the play that costs
            # the plan least
            best = self._cheapest(P, plays)
            return best, f"Lead {show(best.cards)}: your first play must include it."
        weak = [c for c in plan if not c.ctrl]
        ctrls = [c for c in plan if c.ctrl]
        opps = self._opponents(obs, P)
        names = _names(obs)
        if len(weak) <= 1:
            order = sorted(ctrls, key=lambda c: -c.n) + weak
            for c in order:
                if c.sig in by_sig:
                    act = self._pick(P, by_sig[c.sig], c, lowest=True)
                    if not explain:
                        return act, ""
                    rest = [x for x in order if x is not c]
                    if not rest:
                        return act, f"Lead {show(act.cards)}: it is all you have left."
                    last = rest[-1]
                    if c.ctrl:
                        return act, (
                            f"Lead {show(act.cards)}: {_unbeatable(P, c)}, and you can go out "
                            f"with {show(last.cards)} after it."
                        )
                    return act, f"Lead {show(act.cards)}, then go out with your sure winners."
        danger = [(s, n, o, self.THREAT.get(n, 0.0)) for s, n, o in opps]
        danger = [d for d in danger if d[3]]

        # in Big Two a five-card hand goes first: others can seldom follow it
        five_first = P.variant.startswith("big-two")

        def score(c: Combo) -> float:
            v = c.s - self.SIZE_BONUS * (c.n - 1)
            if five_first and c.n == 5:
                v -= 1.0
            if c.ctrl:
                v += 2.0
            for _s, n, o, w in danger:
                if c.n <= n:
                    # they might beat it, and go out soon after
                    v += self.LEAD_BLOCK * w * (1.0 - P.strength(c, [o]))
            return v

        pick = min(legal_plan, key=lambda c: (score(c), c.top))
        act = self._pick(P, by_sig[pick.sig], pick, lowest=not danger)
        if not explain:
            return act, ""
        word = kind_word(pick)
        near = [d for d in danger if d[1] <= 2]
        if near:
            s, n, _o, _w = min(near, key=lambda d: d[1])
            if pick.n > n:
                return act, (
                    f"Lead {show(act.cards)}: {says(names[s], 'has')} {_cards_word(n)} left and "
                    f"cannot follow a {word}."
                )
            o = min(near, key=lambda d: d[1])[2]
            if P.is_control(pick, [o]) and (pick.bomb or P.bomb_threat() == 0.0):
                return act, (
                    f"Lead {show(act.cards)}: {says(names[s], 'has')} {_cards_word(n)} left, and "
                    f"nothing they could hold beats it."
                )
            # the lead they are least likely to beat, when it is (else the plain reasons)
            s_pick = P.strength(pick, [o])
            if all(P.strength(c, [o]) <= s_pick + 1e-9 for c in legal_plan if c.n <= n):
                return act, (
                    f"Lead {show(act.cards)}: {says(names[s], 'has')} {_cards_word(n)} left, "
                    f"and of your leads this is the one they are least likely to beat."
                )
        played = set(act.cards)
        keep = [c for c in plan if c is not pick and c.s >= self.HOLD and not played & set(c.cards)]
        keep.sort(key=lambda c: -c.s)
        tail = ""
        if keep:
            tail = f"; keep {show(keep[0].cards)} for the end"
        elif pick.n >= 3:
            tail = f": a {word} gets {pick.n} cards out at once"
        else:
            tail = ": it is the hardest part of your hand to get rid of"
        low = "lowest " if is_lowest(P, act, pick, plays) else ""
        return act, f"Lead your {low}{word}, {show(act.cards)}{tail}."

    # ----- following -------------------------------------------------------------------------
    def _candidates(self, P: Planner, plays: list[Action]) -> list[tuple[Action, Combo]]:
        """The plays worth weighing (Big Two's many five-card choices are trimmed to the
        plan's candidates and the cheapest few)."""
        out = []
        if isinstance(P, BigTwoPlanner) and len(plays) > 12 and len(plays[0].cards) == 5:
            fives = {f.mask for f in P.fives(P.hand)}
            for i, a in enumerate(plays):
                m = P.mask_of(a.cards)
                if i < 6 or m in fives:
                    c = P.combo_of(a.cards)
                    if c is not None:
                        out.append((a, c))
            return out
        for a in plays:
            c = P.combo_of(a.cards)
            if c is not None:
                out.append((a, c))
        return out

    def _follow(
        self,
        obs: ClimbingView,
        P: Planner,
        plays: list[Action],
        pass_act: Action | None,
        explain: bool,
    ) -> tuple[Action, str]:
        top = obs.top
        assert top is not None  # following: there is a play to beat
        names = _names(obs)
        opps = self._opponents(obs, P)
        locked = P.options.get("passing") == "locked"
        tags: Sequence[Sequence[str]] = obs.seat_tags or [() for _ in range(obs.players)]
        active = [o for s, _n, o in opps if not (locked and "passed" in tags[s])]
        hand = P.hand
        base = P.cost(hand)
        in_plan = {c.mask: c for c in P.plan()}
        cands = [_Cand(a, c, P, hand, base, in_plan) for a, c in self._candidates(P, plays)]
        off_plan = [t for t in cands if not t.planned]
        if len(off_plan) > self.OFF_PLAN:
            # a long hand with many ways to break it up (Twos with 20 cards): weigh only
            # the cheapest and the strongest of them
            off_plan.sort(key=lambda t: P.key(t.a.cards))
            keep = off_plan[: self.OFF_PLAN - 2] + off_plan[-2:]
            cands = [t for t in cands if t.planned] + keep
        if not cands:
            return (pass_act or plays[0]), "Pass."
        # 1. a sure winner that leaves at most one combination that is not a control
        finish = []
        for t in cands:
            if P.is_control(t.c, active):
                after = P.plan(t.rest, P.rest_cards(t.a.cards))
                weak = [x for x in after if not x.ctrl]
                if len(weak) <= 1:
                    finish.append((t.gain, t, after, weak))
        if finish:
            _g, t, after, weak = max(finish, key=lambda f: (f[0], -f[1].c.s))
            if not explain:
                return t.a, ""
            last = weak[0] if weak else after[-1]
            return t.a, (
                f"Play {show(t.a.cards)}: {_unbeatable(P, t.c)}, and then you can go out "
                f"with {show(last.cards)}."
            )
        # 2. opponents close to going out: how likely each is to win this trick if we pass
        # (the one on top, unless someone beats it; another, if it can beat the top)
        threats = []
        top_combo = P.combo_of(top.cards)
        for s, n, o in opps:
            w = self.THREAT.get(n, 0.0)
            if not w or (locked and "passed" in tags[s] and s != top.seat):
                continue
            if s == top.seat:
                p_win = 1.0
            else:
                p_win = 1.0 - (P.strength(top_combo, [o]) if top_combo is not None else 1.0)
            threats.append((s, n, o, w, p_win))
        # 3. weigh each play: what it saves the plan, the cards it sheds, the lead it may
        # win (worth having while weak combinations remain), minus the strength it spends
        best = None
        urgency = max((x[3] for x in threats), default=0.0)
        left = len(obs.hand)
        # Big Two: a five-card hand of the plan needs a lead to be played, which a hand
        # without controls seldom gets; so a follow's gain is weighed in part by what it
        # saves a plan of singles, pairs and triples alone
        big_two = isinstance(P, BigTwoPlanner)
        sets_w = self.STUCK if big_two else 0.0
        sets_P = P if isinstance(P, BigTwoPlanner) and sets_w else None
        sets_base = sets_P.sets_cost(hand) if sets_P else 0.0
        split = self.SPLIT if big_two else 0.0
        play_at = self.BIG_TWO_PLAY_AT if big_two else self.PLAY_AT
        for t in cands:
            v = self._follow_score(P, t, active)
            if sets_P:
                v += sets_w * (sets_base - sets_P.sets_cost(t.rest) - t.gain)
            if split:
                v -= split * _split_ranks(hand, t.rest)
            for _s, _n, o, w, p_win in threats:
                v += self.BLOCK * w * (P.strength(t.c, [o]) + p_win - 1.0)
            if urgency:
                saved = penalty(obs, left) - penalty(obs, left - t.c.n)
                v += self.DUMP * urgency * saved
            if best is None or v > best[0] or (v == best[0] and P.key(t.a.cards) < best[2]):
                best = (v, t, P.key(t.a.cards))
        # passing hands the trick to whoever is on top unless a player between us beats
        # it: in a two-player game a pass always gives the opponent the lead
        n_players = obs.players
        me = obs.me
        between = []
        seat = (me + 1) % n_players
        while seat != top.seat:
            if obs.hand_counts[seat] and not (locked and "passed" in tags[seat]):
                between.append(seat)
            seat = (seat + 1) % n_players
        by_seat = {s: o for s, _n, o in opps}
        models = [by_seat[s] for s in between if s in by_seat]
        p_keep = P.strength(top_combo, models) if top_combo is not None else 0.0
        if best is not None and best[0] >= play_at - self.PASS_COST * p_keep:
            t = best[1]
            if not explain:
                return t.a, ""
            near = [x for x in threats if x[1] <= 2 and P.strength(t.c, [x[2]]) > 0.5]
            if near:
                s, n = min(near, key=lambda x: x[1])[:2]
                return t.a, (
                    f"Play {show(t.a.cards)}: {says(names[s], 'has')} {_cards_word(n)} left — "
                    f"take the trick before they go out."
                )
            fives = [c for c in in_plan.values() if c.n == 5 and set(c.cards) & set(t.a.cards)]
            if sets_w and t.gain < -0.1 and t.c.n < 5 and fives:
                return t.a, (
                    f"Play {show(t.a.cards)}: {show(fives[0].cards)} needs a lead you may "
                    f"not get — get cards out while you can."
                )
            if -0.1 < t.gain < 0.1 and t.c.s < 0.5:
                return t.a, (
                    f"Play {show(t.a.cards)}: it costs your hand next to nothing and may win "
                    f"you the lead."
                )
            if t.c.s >= self.HOLD:
                return t.a, (
                    f"Play {show(t.a.cards)}: take the lead now — you have strong cards to spare."
                )
            beat = show(top.cards)
            if is_lowest(P, t.a, t.c, plays):
                why = f"the lowest play that beats {beat}"
            elif t.gain >= max(x.gain for x in cands) - 1e-9:
                why = f"the cheapest way to beat {beat}"
            else:
                why = f"it beats {beat}"
            if t.planned and not splits_a_set(obs.variant, obs.hand, t.a.cards):
                why += " without breaking up your hand"
            return t.a, f"Play {show(t.a.cards)}: {why}."
        if pass_act is None:
            t = max(cands, key=lambda t: t.gain)
            return t.a, f"Play {show(t.a.cards)}: you may not pass."
        if not explain:
            return pass_act, ""
        strong = [t for t in cands if t.c.ctrl or t.c.s >= self.HOLD or t.c.bomb]
        if strong:
            t = max(strong, key=lambda t: t.c.s)
            what = show(t.a.cards) if t.c.n == 1 else f"{kind_word(t.c)} {show(t.a.cards)}"
            return pass_act, f"Pass: your {what} is worth more later."
        t = max(cands, key=lambda t: t.gain)
        if all(splits_a_set(obs.variant, obs.hand, a.cards) for a in plays):
            return pass_act, (
                f"Pass: beating {show(top.cards)} would mean breaking up your hand "
                f"(for instance playing {show(t.a.cards)})."
            )
        return pass_act, (
            f"Pass: beating {show(top.cards)} costs your hand more than it gains "
            f"(for instance playing {show(t.a.cards)})."
        )

    def _follow_score(self, P: Planner, t: _Cand, active: list[_Opp]) -> float:
        c = t.c
        v = t.gain + self.CARD_BONUS * c.n
        strong = c.ctrl or c.s >= self.HOLD or c.bomb
        if strong or c.s >= 0.3:
            spare = self._spare(P, t.rest)
            if strong and not spare:
                v -= self.HOLD_COST * max(c.s, 0.5)
            s_now = P.strength(c, active)
            v += self.LEAD_VALUE * s_now
        return v

    def _spare(self, P: Planner, rest: int) -> bool:
        """Does the hand left have controls to spare (as many as it has weak plays)?"""
        after = P.plan(rest)
        weak = sum(1 for x in after if not x.ctrl)
        ctrls = len(after) - weak
        return ctrls >= weak - 1 and weak <= 3

    # ----- helpers ----------------------------------------------------------------------------
    def _pick(self, P: Planner, acts: list[Action], c: Combo, lowest: bool) -> Action:
        """Among the legal actions making the same play, the one with the lowest (or the
        highest) top card; the plan's own cards when listed."""
        if len(acts) == 1:
            return acts[0]
        if c.cards:
            want = set(c.cards)
            for a in acts:
                if set(a.cards) == want:
                    return a
        key = P.key
        return (
            min(acts, key=lambda a: key(a.cards))
            if lowest
            else max(acts, key=lambda a: key(a.cards))
        )

    def _cheapest(self, P: Planner, plays: list[Action]) -> Action:
        base = P.cost(P.hand)
        best = None
        for a in plays:
            c = P.combo_of(a.cards)
            if c is None:
                continue
            v = base - P.cost(P.remove(P.hand, c))
            if best is None or v > best[0]:
                best = (v, a)
        return best[1] if best else plays[0]

    def _choose_hand(self, obs: ClimbingView, legal: list[Action]) -> tuple[Action, str]:
        offered = _offered(obs)
        choices = [a for a in legal if a.value in offered]
        if not choices:
            return legal[0], "Take the first hand on offer."
        size = len(next(iter(offered.values())))
        scored = []
        for a in choices:
            others = [c for k, cs in offered.items() if k != a.value for c in cs]
            # choosing second: the hand left over leaves the deal, so it is known
            known = others if len(offered) == 2 else None
            P = planner_for(
                obs, hand=list(offered[str(a.value)]), opponents=[size], known_out=known
            )
            plan = P.plan()
            scored.append((P.cost(P.hand), a, plan))
        cost, a, plan = min(scored, key=lambda t: (t[0], str(t[1].value)))
        sure = sum(1 for c in plan if c.ctrl)
        return a, (
            f"Take hand {a.value}: it splits into {len(plan)} plays"
            + (
                f", {sure} of them sure winners."
                if sure > 1
                else ", one a sure winner."
                if sure
                else "."
            )
        )
