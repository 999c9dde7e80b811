"""Heuristic opponents for the trick games, 2v1 and Twos (trick-taking).

Both agents read only the seat's observation, its decision and its legal actions (the
observation never holds another seat's hidden cards). Duo partners in 2v1 share nothing:
each decides from the table alone.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ..engine.cards import card_code, rank_of, suit_of
from ..engine.protocol import Action, Decision
from ..engine.two_v_one import (
    BLINDFOLD,
    HANDS_PER_ROUND,
    RAINBOW,
    card_suit,
    card_value,
    pair_value,
)
from ..engine.twos_tricks import HONOURS, resolve_trick


# ===== 2v1 ==================================================================================
def lone_strength(hand: list[str]) -> float:
    """Rough number of hands a lone player with ``hand`` can win: disjoint strong pairs
    (greedy, strongest first), a spare strong pair counting half."""
    pairs = sorted(((pair_value(a, b), a, b) for a, b in combinations(hand, 2)), reverse=True)
    used: set[str] = set()
    wins = 0.0
    for v, a, b in pairs:
        if a in used or b in used:
            continue
        if v >= 8:
            wins += 1
        elif v >= 6:
            wins += 0.5
        else:
            continue
        used.update((a, b))
    # the card returned after each hand lets strong cards be used again
    high = sum(1 for c in hand if c != RAINBOW and card_value(c) >= 5)
    return wins + 0.5 * min(high, 2) + (0.5 if RAINBOW in hand else 0)


class TwoVOneAgent:
    """Bids on strong pairs; as the lone player wins or throws hands to land exactly on
    the bid; in the duo, tries to beat the lone player while it still needs hands and to
    feed it hands once it has its bid."""

    name = "basic"

    def __init__(self, bid3: float = 3.0, bid4: float = 4.5) -> None:
        self.bid3 = bid3
        self.bid4 = bid4

    def choose(
        self, obs: dict[str, Any], legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        phase = obs.get("phase")
        handler = getattr(self, f"_{phase}", None)
        act = handler(obs, legal) if handler else None
        if act is not None and act in legal:
            return act
        return legal[rng.randrange(len(legal))]

    # --- helpers
    @staticmethod
    def _need(obs) -> tuple[int, int]:
        """(hands the lone player still needs, hands left including this one)."""
        won = obs["hands_won"]["lone"]
        left = HANDS_PER_ROUND - obs["hand_no"] + 1
        return obs["bid"] - won, left

    def _lone_wants_win(self, obs) -> bool:
        # Throw hands first, win late: while the lone player still needs hands the duo
        # fight for every hand (so throwing one is easy), but once the bid is made they
        # try to feed the lone player more (so throwing then is hard). The strong cards
        # survive the early throws, because one card of each pair comes back.
        need, left = self._need(obs)
        return need > 0 and need >= left

    def _duo_wants_win(self, obs) -> bool:
        need, left = self._need(obs)
        return need > 0  # once the lone player has its bid, feed it more hands

    # --- phases
    def _bid(self, obs, legal):
        s = lone_strength(obs["hand"])
        values = {a.value for a in legal}
        if s >= self.bid4 and 4 in values:
            return Action("bid", value=4)
        if s >= self.bid3 and 3 in values:
            return Action("bid", value=3)
        if 0 in values:
            return Action("bid", value=0)
        return Action(
            "bid", value=4 if s >= self.bid4 and 4 in values else (3 if 3 in values else 4)
        )

    def _raise(self, obs, legal):
        return Action("raise", value=4 if lone_strength(obs["hand"]) >= self.bid4 + 0.5 else 3)

    def _exchange(self, obs, legal):
        # keep the cards that make the best pairs: pass the two whose removal hurts least
        hand = obs["hand"]
        return max(legal, key=lambda a: lone_strength([c for c in hand if c not in a.cards]))

    def _discard(self, obs, legal):
        hand = obs["hand"]

        # keep the rainbow and suit coverage; drop the lowest card of the longest suit
        def cost(a):
            c = a.cards[0]
            if c == RAINBOW:
                return 100
            same = sum(1 for x in hand if card_suit(x) == card_suit(c))
            return card_value(c) * 2 - same

        return min(legal, key=cost)

    def _lead(self, obs, legal):
        hand = obs["hand"]
        win = self._lone_wants_win(obs)
        best = None
        for a, b in combinations(hand, 2):
            for up, down in ((a, b), (b, a)):
                if up == RAINBOW:
                    continue
                v = pair_value(up, down)
                # a blindfold lead keeps the duo from matching each other
                bonus = 1.5 if win and card_value(up) == BLINDFOLD else 0
                # spend little: prefer pairs of low total face value at equal strength
                key = (
                    v + bonus - 0.1 * (card_value(up) + card_value(down) * (down != RAINBOW))
                    if win
                    else -v - 0.05 * (card_value(up) + card_value(down))
                )
                if best is None or key > best[0]:
                    best = (key, up)
        return Action("lead", (best[1],)) if best else None

    def _hide(self, obs, legal):
        up = obs["lead"]
        win = self._lone_wants_win(obs)
        cards = [a.cards[0] for a in legal]
        if win:
            c = max(cards, key=lambda c: (pair_value(up, c), -card_value(c)))
        else:
            c = min(cards, key=lambda c: (pair_value(up, c), card_value(c)))
        return Action("hide", (c,))

    def _follow(self, obs, legal):
        win = self._duo_wants_win(obs)
        seat = obs["seat"]
        partner = None
        for t in obs["table"]:
            if t["seat"] != obs["lone"] and t["seat"] != seat and t["cards"][0] != "??":
                partner = t["cards"][0]
        cards = [a.cards[0] for a in legal]
        if partner is not None:

            def f(c):
                return pair_value(partner, c)
        else:

            def f(c):
                return 2 * card_value(c) if c == RAINBOW else card_value(c)

        if win:
            c = max(cards, key=lambda c: (f(c), -card_value(c)))
        else:
            c = min(cards, key=lambda c: (f(c), card_value(c) if c != RAINBOW else 9))
        return Action("follow", (c,))

    def _keep(self, obs, legal):
        cards = [a.value for a in legal]

        def strength(c):
            return 6 if c == RAINBOW else card_value(c)

        if obs["seat"] == obs["lone"]:
            # keep the stronger card while hands are still needed, else the weaker
            need, _ = self._need(obs)
            pick = max if need > 0 else min
        else:
            pick = min if self._duo_wants_win(obs) else max
        return Action("keep", value=pick(cards, key=strength))


# ===== Twos (trick-taking) ===================================================================
def _strength(card: str) -> int:
    r = rank_of(card)
    return 15 if r == 2 else r


class TwosTricksAgent:
    """Wins tricks worth having with the cheapest sufficient card, catches 2s with their
    3s, avoids throwing a 2 into a trick that already holds one, and keeps its 2s safe."""

    name = "basic"

    def choose(
        self, obs: dict[str, Any], legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        act = self._pick(obs, [a.cards[0] for a in legal])
        return Action("play", (act,)) if act is not None else legal[rng.randrange(len(legal))]

    def _pick(self, obs, cards: list[str]) -> str | None:
        seat = obs["seat"]
        n = obs["players"]
        trick = [(s, c) for s, c in obs["trick"]]
        hand = obs["hand"]
        gone = set(obs.get("played", [])) | {c for _, c in trick} | set(hand)
        later = n - len(trick) - 1  # players still to play after me

        def safe_two(c):  # a 2 whose own 3 cannot appear any more
            return rank_of(c) == 2 and ("3" + suit_of(c)) in gone and ("3" + suit_of(c)) not in hand

        def wins_now(c):
            plays = trick + [(seat, c)]
            return resolve_trick(plays)[0] == len(plays) - 1

        def gain(c):
            plays = trick + [(seat, c)]
            idx, catches = resolve_trick(plays)
            if idx != len(plays) - 1:
                return 0
            hon = sum(1 for _, x in plays if rank_of(x) in HONOURS)
            return hon + sum(p for catcher, _, p in catches if catcher == seat)

        def risky(c):  # could still be beaten by later players
            if later == 0:
                return False
            if rank_of(c) == 2:
                return not safe_two(c)
            led = suit_of(trick[0][1]) if trick else suit_of(c)
            higher = [card_code(r, led) for r in range(rank_of(c) + 1, 15)]
            twos_out = [card_code(2, s) for s in "SHDC" if card_code(2, s) not in gone]
            return any(h not in gone for h in higher) or bool(twos_out)

        if not trick:
            return self._lead(obs, cards, hand, gone, safe_two)

        has_two = any(rank_of(c) == 2 for _, c in trick)
        # catching a 2 with its 3 is always worth it when the 3 wins
        catches3 = [c for c in cards if rank_of(c) == 3 and wins_now(c) and has_two]
        if catches3:
            return catches3[0]
        winners = [c for c in cards if wins_now(c)]
        worth = max((gain(c) for c in winners), default=0)
        honours_here = sum(1 for _, x in trick if rank_of(x) in HONOURS)
        if winners and (worth > 0 or later == 0):
            # cheapest card that wins and is not likely to be overtaken
            solid = [c for c in winners if not risky(c)]
            pool = solid or (winners if later == 0 or honours_here else [])
            pool = [c for c in pool if gain(c) >= 0]
            if pool:
                return min(pool, key=lambda c: (rank_of(c) == 2, _strength(c)))

        # otherwise throw the cheapest card: never a 2 into a trick holding a 2, keep
        # honours and 2s, keep a 3 whose 2 is still out
        def throw_cost(c):
            r = rank_of(c)
            cost = _strength(c)
            if r == 2:
                cost += 40 if has_two else 20
            if r in HONOURS:
                cost += 5
            if r == 3 and ("2" + suit_of(c)) not in gone:
                cost += 8
            return cost

        return min(cards, key=throw_cost)

    def _lead(self, obs, cards, hand, gone, safe_two):
        # a safe 2 wins for certain and catches any 2 thrown after it: lead it once the
        # other players may still hold honours... but keep one for later tricks
        safe = [c for c in cards if safe_two(c)]
        if safe and len(hand) <= 6:
            return safe[0]
        # lead a boss card (highest remaining of its suit) if we have one
        for c in sorted(cards, key=_strength, reverse=True):
            r, s = rank_of(c), suit_of(c)
            if r == 2:
                continue
            if (
                all(
                    f"{x}{s}" in gone
                    for x in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
                    if _rank_num(x) > r
                )
                and r >= 11
            ):
                return c

        # else a low card from the longest suit, not a 3 that guards a live 2
        def cost(c):
            r, s = rank_of(c), suit_of(c)
            if r == 2:
                return 100
            length = sum(1 for x in hand if suit_of(x) == s and rank_of(x) != 2)
            guard = 10 if r == 3 and ("2" + s) not in gone else 0
            return r + guard - length + (5 if r in HONOURS else 0)

        return min(cards, key=cost)


def _rank_num(text: str) -> int:
    return {"A": 14, "K": 13, "Q": 12, "J": 11}.get(text) or int(text)
