"""The ``easy`` opponent of the climbing games (Twos, Big Two, Big Two five-round, Chinese
Poker): rules of thumb, quick, never absurd, easy to beat (described in the docstring of
:mod:`.climbing_ai`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.observer import ObsIn
from ..engine.protocol import Action, Decision
from ..engine.views import ClimbingView
from . import Suggestion
from .climbing_common import (
    _ORDER,
    _climbing,
    _offered,
    _plays,
    show,
)

# =========================================================================================
# easy


class EasyClimbingAgent:
    """Rules of thumb (see the module doc): quick, never absurd, easy to beat."""

    name = "easy"

    def __init__(self, **kw: Any) -> None:
        pass

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        return self._decide(_climbing(obs), legal, decision, rng)[0]

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        act, why = self._decide(_climbing(obs), legal, decision, rng)
        return Suggestion(act, why)

    def _decide(
        self, obs: ClimbingView, legal: list[Action], decision: Decision, rng: random.Random
    ) -> tuple[Action, str]:
        variant = obs.variant
        order = _ORDER[variant]
        if decision.kind == "choose-hand" or (legal and legal[0].kind == "choose-hand"):
            offered = _offered(obs)
            choices = [a for a in legal if a.value in offered]
            if not choices:
                return legal[0], "Take the first hand on offer."

            # the hand with the most high cards (aces and twos count double)
            def worth(a: Action) -> int:
                ranks = [order[c] >> 2 for c in offered[str(a.value)]]
                return sum(r + (12 if r >= 11 else 0) for r in ranks)

            a = max(choices, key=lambda a: (worth(a), str(a.value)))
            return a, f"Take hand {a.value}: it has the most high cards."
        plays, pass_act = _plays(legal)
        top = obs.top
        if not plays:
            act = pass_act or legal[0]
            return act, (f"Pass: nothing you hold beats {show(top.cards)}." if top else "Pass.")
        hand = obs.hand
        for a in plays:
            if len(a.cards) == len(hand):
                return a, f"Play {show(a.cards)}: it empties your hand."
        counts = obs.hand_counts
        me = obs.me
        near = min((n for s, n in enumerate(counts) if s != me and n), default=99)
        rank = [order[c] >> 2 for c in hand]
        per_rank: dict[int, int] = {}
        for r in rank:
            per_rank[r] = per_rank.get(r, 0) + 1
        bomb_ranks = self._bomb_ranks(variant, per_rank)

        def info(a: Action) -> tuple[int, int, bool, bool, int]:
            ks = [order[c] for c in a.cards]
            top_card = max(ks)
            is_bomb = self._is_bomb(variant, a.cards, order)
            # breaks a bomb, or takes a single card out of a set of three or four
            breaks = False
            if not is_bomb:
                used: dict[int, int] = {}
                for k in ks:
                    used[k >> 2] = used.get(k >> 2, 0) + 1
                for r, u in used.items():
                    if (
                        r in bomb_ranks
                        and (u < 4 or variant == "twos")
                        or per_rank[r] >= 3
                        and u == 1
                        and len(ks) == 1
                    ):
                        breaks = True
            return top_card, len(a.cards), is_bomb, breaks, sum(ks)

        if top is None:
            # the lowest card, with the others of its rank (a beginner sees sets, and
            # plays runs and poker hands only when nothing else will do)
            sets: list[Action] = []
            others: list[Action] = []
            for a in plays:
                r0 = order[a.cards[0]] >> 2
                same = all(order[c] >> 2 == r0 for c in a.cards)
                (sets if same else others).append(a)
            for group in (sets, others):
                best = None
                for a in group:
                    t, n, is_bomb, breaks, _tot = info(a)
                    if is_bomb or breaks:
                        continue
                    key = (min(order[c] >> 2 for c in a.cards), -n, t)
                    if best is None or key < best[0]:
                        best = (key, a)
                if best is not None:
                    a = best[1]
                    return a, f"Lead {show(a.cards)}: get your low cards out first."
            # only bombs and pieces of them: the lowest play, bombs last
            a = min(plays, key=lambda a: (info(a)[2], info(a)[0]))
            return a, f"Lead {show(a.cards)}: nothing else to lead."
        scored = []
        for a in plays:
            t, n, is_bomb, breaks, tot = info(a)
            scored.append((t, n, is_bomb, breaks, a))
        fine = [x for x in scored if not x[2] and not x[3]]
        high = 12  # the rank of the twos
        long_hand = len(hand) > 6
        if fine:
            fine.sort(key=lambda x: (x[0], x[1]))
            t, n, _b, _br, a = fine[0]
            keep = (t >> 2) >= high and long_hand and near > 3
            if pass_act is not None and keep and rng.random() < 0.8:
                return pass_act, f"Pass: keep {show(a.cards)} for later."
            return a, f"Play {show(a.cards)}: the lowest play that beats {show(top.cards)}."
        bombs = [x for x in scored if x[2]]
        if bombs and (near <= 3 or len(hand) - len(bombs[0][4].cards) <= 2):
            bombs.sort(key=lambda x: (x[0], x[1]))
            a = bombs[0][4]
            if near <= 3:
                return a, f"Bomb with {show(a.cards)}: someone is about to go out."
            return a, f"Bomb with {show(a.cards)}: you are nearly out yourself."
        if pass_act is not None:
            return pass_act, f"Pass: beating {show(top.cards)} would break up your hand."
        scored.sort(key=lambda x: (x[2], x[0]))
        a = scored[0][4]
        return a, f"Play {show(a.cards)}: you must play."

    @staticmethod
    def _is_bomb(variant: str, cards: Sequence[str], order: Mapping[str, int]) -> bool:
        n = len(cards)
        if variant == "twos":
            ranks: dict[int, int] = {}
            for c in cards:
                r = order[c] >> 2
                ranks[r] = ranks.get(r, 0) + 1
            widths = set(ranks.values())
            if len(widths) != 1:
                return False
            w = widths.pop()
            return (len(ranks) == 1 and w == 4) or (w >= 2 and len(ranks) >= 3)
        if variant == "chinese-poker" and n == 5:
            ranks = {}
            for c in cards:
                r = order[c] >> 2
                ranks[r] = ranks.get(r, 0) + 1
            return 4 in ranks.values()
        return False

    @staticmethod
    def _bomb_ranks(variant: str, per_rank: dict[int, int]) -> set[int]:
        """Ranks of the hand that make a bomb (four of a kind; in Twos also the ranks of
        a multi-run): an easy player does not break them up."""
        ranks = {r for r, k in per_rank.items() if k == 4}
        if variant == "twos":
            run: list[int] = []
            for r in range(14):
                if r < 13 and per_rank.get(r, 0) >= 2:
                    run.append(r)
                    continue
                if len(run) >= 3:
                    ranks.update(run)
                run = []
        return ranks
