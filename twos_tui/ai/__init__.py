"""AI opponents. An agent sees one seat's observation, that seat's decision and its legal
actions (which depend only on the seat's own hand and public play), and its own seeded
generator — never hidden cards.

Levels, for every variant:

* ``easy`` — quick rules of thumb a beginner can beat (never absurd);
* ``normal`` — hand planning, a few milliseconds a decision (the default);
* ``hard`` — information-set search within a time budget (0.4 s by default).

Baselines for the arena: ``random`` (uniform among legal actions), ``greedy`` (the
lowest legal play, never a pass while a play is possible; the lowest legal card in the
trick games) and ``greedy2``, the stronger greedy (the same, but a free lead is its
lowest whole combination: a pair, triple or run rather than one card of it). Saves that
name the old ``basic`` level load as ``normal``.

In the climbing games the arena also knows ``expert`` (a learned network alone,
:mod:`.learn`), ``guided`` (a search guided by it) and ``rollouts`` (the search with a
fixed rollout policy); ``hard`` is one of the two searches in each game
(:data:`HARD_SEARCH`).

>>> from twos_tui.ai import agent_for
>>> agent = agent_for("big-two", "normal")                     # doctest: +SKIP
>>> action = agent.choose(obs, legal, decision, rng)            # doctest: +SKIP
>>> hint = suggest("big-two", obs, legal, decision, rng)        # doctest: +SKIP
>>> hint.action, hint.reason                                    # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.observer import ObsIn
from ..engine.protocol import Action, Decision

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: levels of the climbing games only, for the arena (not offered in the app)
EXTRA_LEVELS: tuple[str, ...] = ("expert", "guided", "rollouts")
DEFAULT_LEVEL = "normal"
BASELINES: tuple[str, ...] = ("random", "greedy", "greedy2")
#: old level names found in saves -> today's level
LEVEL_ALIASES: dict[str, str] = {"basic": "normal"}

CLIMBING = ("twos", "big-two", "big-two-5r", "chinese-poker")
#: which search is ``hard`` in each climbing game: the one guided by the learned network
#: (``guided``) or the one with the fixed rollout policy (``rollouts``), whichever won
#: more deals against three ``normal`` on the same seeded deals (README, "How strong")
HARD_SEARCH: dict[str, str] = {
    "twos": "guided",
    "big-two": "rollouts",
    "big-two-5r": "rollouts",
    "chinese-poker": "rollouts",
}

#: (variant id, level) -> "module:factory" (imported on first use). The factory is called
#: with the keyword arguments given to :func:`agent_for` (e.g. ``budget_s`` for hard).
_REGISTRY: dict[tuple[str, str], str] = {}
for _v in CLIMBING:
    for _lv in LEVELS:
        _REGISTRY[(_v, _lv)] = "twos_tui.ai.climbing_ai:NormalClimbingAgent"
    _REGISTRY[(_v, "easy")] = "twos_tui.ai.climbing_ai:EasyClimbingAgent"
    _REGISTRY[(_v, "normal")] = "twos_tui.ai.climbing_ai:NormalClimbingAgent"
    _REGISTRY[(_v, "expert")] = "twos_tui.ai.learn.agents:ExpertClimbingAgent"
    _REGISTRY[(_v, "guided")] = "twos_tui.ai.learn.search:GuidedHardAgent"
    _REGISTRY[(_v, "rollouts")] = "twos_tui.ai.climbing_search:HardClimbingAgent"
    _REGISTRY[(_v, "hard")] = _REGISTRY[(_v, HARD_SEARCH[_v])]
for _lv in LEVELS:
    _REGISTRY[("2v1", _lv)] = f"twos_tui.ai.two_v_one_ai:{_lv.capitalize()}TwoVOneAgent"
    _REGISTRY[("twos-tricks", _lv)] = (
        f"twos_tui.ai.twos_tricks_ai:{_lv.capitalize()}TwosTricksAgent"
    )


class Agent(Protocol):
    name: str

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        """Pick one of ``legal`` (never empty) for the seat ``obs.me``. The
        observation is of the variant the agent was made for (:func:`agent_for`)."""


@dataclass(frozen=True)
class Suggestion:
    """A hint: the action and one line saying why, in a player's words."""

    action: Action
    reason: str
    #: the level whose move this is
    level: str = "normal"


def normalize_level(level: str) -> str:
    """Today's name of ``level`` (``basic`` -> ``normal``); raises ValueError if unknown."""
    level = LEVEL_ALIASES.get(level, level)
    if level not in LEVELS and level not in BASELINES and level not in EXTRA_LEVELS:
        raise ValueError(
            f"unknown AI level {level!r}; choose one of: "
            + ", ".join(LEVELS + EXTRA_LEVELS + BASELINES)
        )
    return level


def agent_for(variant_id: str, level: str = DEFAULT_LEVEL, **kw: Any) -> Agent:
    """The agent that plays ``variant_id`` at ``level`` (a level or a baseline)."""
    level = normalize_level(level)
    if level in BASELINES:
        if level == "random":
            return RandomAgent()
        return GreedyAgent() if level == "greedy" else WholeGreedyAgent()
    try:
        target = _REGISTRY[(variant_id, level)]
    except KeyError:
        raise ValueError(f"no {level} AI for variant {variant_id!r}") from None
    module, _, name = target.partition(":")
    factory: Callable[..., Agent] = getattr(importlib.import_module(module), name)
    return factory(**kw)


#: the levels a hint may come from, weakest first; the app's default is the strongest
HINT_LEVELS: tuple[str, ...] = ("normal", "hard")
DEFAULT_HINT_LEVEL = "hard"


def suggest(
    variant_id: str,
    obs: ObsIn,
    legal: list[Action],
    decision: Decision,
    rng: random.Random,
    level: str = "normal",
    **kw: Any,
) -> Suggestion:
    """A hint for the seat of ``obs``: what the AI of ``level`` would do in this
    position (its own move, from its ``suggest``), and why; ``kw`` go to the agent
    (e.g. ``budget_s``). ``Suggestion.level`` names the level."""
    level = normalize_level(level)
    agent = agent_for(variant_id, level, **kw)
    explain: Callable[..., Suggestion] | None = getattr(agent, "suggest", None)
    if explain is not None:
        hint = explain(obs, legal, decision, rng)
        return Suggestion(hint.action, hint.reason, level)
    act = agent.choose(obs, legal, decision, rng)
    what = "pass" if act.kind == "pass" else f"{act.kind} {' '.join(act.cards)}".strip()
    return Suggestion(act, f"The {variant_id} AI would {what}.", level)


def ai_rng(seed: int, seat: int) -> random.Random:
    """The AI's generator for one seat, derived from the game's seed (replayable)."""
    return random.Random(f"twos-tui-ai:{seed}:{seat}")


from .baselines import GreedyAgent, RandomAgent, WholeGreedyAgent  # noqa: E402  (re-exported)

__all__ = [
    "BASELINES",
    "DEFAULT_HINT_LEVEL",
    "DEFAULT_LEVEL",
    "EXTRA_LEVELS",
    "HINT_LEVELS",
    "LEVELS",
    "LEVEL_ALIASES",
    "Agent",
    "GreedyAgent",
    "RandomAgent",
    "Suggestion",
    "WholeGreedyAgent",
    "agent_for",
    "ai_rng",
    "normalize_level",
    "suggest",
]
