"""A basic opponent for the climbing games (Twos, Big Two, Big Two 5r, Chinese Poker).

It plays from what one seat may know: its hand, the play to beat, the public history and
every seat's card count. Plays are classified with the variant's own rules (the engine
is pure, so an agent may ask it about any set of *its own* cards).

Policy, in plain words:
* if a play empties the hand, make it;
* when leading, shed the lowest cards, preferring a combination that gets rid of several
  low cards at once; keep bombs and the top ranks (A, 2) for later unless the hand is
  nearly empty;
* when following, make the cheapest play that beats the table; keep bombs back unless
  an opponent is close to going out; decline to spend an ace or a two early in a deal
  when nobody is threatening to go out;
* other decisions (e.g. Chinese Poker's hand choice) pick the hand with the most
  high cards and combinations.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import variant_class
from ..engine.cards import CLIMB_RANKS, rank_of
from ..engine.protocol import Action, Decision

_RANK_INDEX = {r: i for i, r in enumerate(CLIMB_RANKS)}  # 3 -> 0 ... 2 -> 12
TOP_RANKS = 11  # index of the ace


def rank_index(code: str) -> int:
    return _RANK_INDEX[rank_of(code)]


class ClimbingAgent:
    name = "basic"

    def choose(
        self, obs: dict[str, Any], legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        if decision.kind != "play":
            return self._choose_other(obs, legal, decision, rng)
        plays = [a for a in legal if a.kind == "play"]
        passes = [a for a in legal if a.kind == "pass"]
        if not plays:
            return passes[0] if passes else legal[0]
        hand = obs["hand"]
        for a in plays:
            if len(a.cards) == len(hand):
                return a
        cls = variant_class(obs["variant"])
        opts = dict(obs.get("options", {}))
        opts["_players"] = obs["players"]
        seat = obs["seat"]
        others = [n for i, n in enumerate(obs["hand_counts"]) if i != seat]
        danger = min(others) <= 3 if others else False
        scored = []
        for a in plays:
            combo = cls.classify_cards(tuple(a.cards), opts)
            bomb = bool(combo and combo.is_bomb)
            top = max(rank_index(c) for c in a.cards)
            low = sum(rank_index(c) for c in a.cards) / len(a.cards)
            scored.append((bomb, top, low, -len(a.cards), a))
        leading = obs.get("top") is None
        non_bombs = [s for s in scored if not s[0]]
        bombs = [s for s in scored if s[0]]
        if leading:
            pool = non_bombs or bombs
            # lowest top card first, then the most cards, then the lowest average
            pool.sort(key=lambda s: (s[1], s[3], s[2]))
            return pool[0][4]
        if non_bombs:
            non_bombs.sort(key=lambda s: (s[1], s[2], -s[3]))
            best = non_bombs[0]
            if best[1] >= TOP_RANKS and not danger and len(hand) > 6 and passes:
                return passes[0]
            return best[4]
        if bombs and (danger or len(hand) <= 6):
            bombs.sort(key=lambda s: (s[1], s[2]))
            return bombs[0][4]
        return passes[0] if passes else scored[0][4]

    def _choose_other(self, obs, legal, decision, rng):
        offered = obs.get("offered_hands")
        if offered and decision.choices:

            def strength(cards):
                return sum(rank_index(c) for c in cards)

            best = max(
                decision.choices, key=lambda ch: strength(offered.get(str(ch.action.value), []))
            )
            return best.action
        return legal[rng.randrange(len(legal))]
