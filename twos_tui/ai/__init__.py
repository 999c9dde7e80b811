"""AI opponents. An agent sees one seat's observation, that seat's decision and its legal
actions (which depend only on the seat's own hand and public play) — never hidden cards.

>>> from twos_tui.ai import agent_for
>>> agent = agent_for("big-two")          # doctest: +SKIP
>>> action = agent.choose(obs, legal, decision, rng)   # doctest: +SKIP
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..engine.protocol import Action, Decision

LEVELS = ("basic",)


class Agent(Protocol):
    name: str

    def choose(
        self, obs: dict[str, Any], legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        """Pick one of ``legal`` (never empty) for the seat ``obs["seat"]``."""


class RandomAgent:
    """Uniform among legal actions (used by benchmarks and as a fallback)."""

    name = "random"

    def choose(self, obs, legal, decision, rng):
        return legal[rng.randrange(len(legal))]


def agent_for(variant_id: str, level: str = "basic") -> Agent:
    """The agent that plays ``variant_id`` at ``level``."""
    if level == "random":
        return RandomAgent()
    if variant_id == "2v1":
        from .trick_ai import TwoVOneAgent

        return TwoVOneAgent()
    if variant_id == "twos-tricks":
        from .trick_ai import TwosTricksAgent

        return TwosTricksAgent()
    from .climbing_ai import ClimbingAgent

    return ClimbingAgent()


def ai_rng(seed: int, seat: int) -> random.Random:
    """The AI's generator for one seat, derived from the game's seed (replayable)."""
    return random.Random(f"twos-tui-ai:{seed}:{seat}")
