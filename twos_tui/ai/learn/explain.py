"""Reasons for the hints of ``hard`` and ``expert`` in the climbing games.

When ``normal`` would make the same move, its reason is used (each of its claims is
about the position). Otherwise the reason says what was computed, and only that —
for ``hard`` the share of the sampled deals the move went on to win in its search (and
that no other move weighed did better, when that is so); for ``expert`` that it is the
trained network's first choice and the network's estimate of the chance to win after
it — and two facts read from the seat's own hand: how many cards the play gets out and
that it breaks up no pair, triple or four.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...engine.climbing.rules import rules_for
from ...engine.observer import ObsIn, as_climbing
from ...engine.protocol import Action, Decision
from .. import Suggestion
from ..climbing_ai import NormalClimbingAgent, show, splits_a_set

if TYPE_CHECKING:
    from ..climbing_search import SearchFigures

#: the most cards of the next best move named in a hint (a poker hand's five)
NAMED_CARDS = 5


def _name(a: Action) -> str:
    return "passing" if a.kind == "pass" else show(a.cards)


def explain(
    seen: ObsIn,
    legal: list[Action],
    decision: Decision,
    rng: random.Random,
    act: Action,
    level: str,
    ranked: list[tuple[float, int]],
    last: SearchFigures | None,
) -> Suggestion:
    """The hint of ``level`` for ``act``; ``ranked``: (estimate, index in ``legal``) of
    the moves weighed; ``last``: the search's figures (``worlds``)."""
    obs = as_climbing(seen)
    base = NormalClimbingAgent().suggest(obs, legal, decision, random.Random(0))
    if base.action == act:
        return Suggestion(act, base.reason)
    if act.kind == "play" and len(act.cards) == len(obs.hand):
        return Suggestion(act, f"Play {show(act.cards)}: it empties your hand.")
    est = {legal[i]: p for p, i in ranked}
    mine = est.get(act)
    others = [(p, legal[i]) for p, i in ranked if legal[i] != act]
    stat = ""
    rules = rules_for(obs.variant, obs.players, obs.options)
    penalty = rules.penalty(rules.hand_size) is not None  # (Twos under penalty scoring)
    if penalty and level == "hard" and last is not None and last["worlds"]:
        # the search weighed the moves by penalty points, not by deals won
        stat = f"played on in {last['worlds']} deals dealt from what you can see"
        if mine is not None and others and all(p <= mine for p, _ in others):
            stat += ", no other move weighed left you better placed on penalty points"
    elif mine is not None and level == "hard" and last is not None and last["worlds"]:
        stat = (
            f"played on in {last['worlds']} deals dealt from what you can see, it won "
            f"{mine:.0%} of them"
        )
        if others and all(p <= mine for p, _ in others):
            p, o = max(others, key=lambda t: t[0])
            # the next best is named when it is short (a long run's cards would take the
            # message line a row more than it has at 80x24)
            named = f"next, {_name(o)}" if len(o.cards) <= NAMED_CARDS else "next best"
            stat += f", the best of the moves weighed ({named}: {p:.0%})"
    elif mine is not None and level == "expert":
        stat = f"the trained network's first choice, with a {mine:.0%} chance to win after it"
    elif level == "hard":
        stat = "the move the trained network prefers by far"
    if act.kind == "pass":
        return Suggestion(act, f"Pass: {stat}." if stat else "Pass: it does best here.")
    facts = []
    if len(act.cards) >= 3:
        facts.append(f"it gets {len(act.cards)} cards out")
    if len(act.cards) > 1 and not splits_a_set(obs.variant, obs.hand, act.cards):
        facts.append("it is played without breaking up your hand")
    head = f"Play {show(act.cards)}"
    body = "; ".join(facts + ([stat] if stat else []))
    return Suggestion(act, f"{head}: {body}." if body else f"{head}.")
