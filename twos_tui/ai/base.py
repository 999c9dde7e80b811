"""What the explaining agents share: ``choose`` is the move their ``suggest`` explains."""

from __future__ import annotations

import random
from typing import Any

from ..engine.observer import ObsIn
from ..engine.protocol import Action, Decision
from . import Suggestion


class SuggestingAgent:
    """An agent whose move is its hint's move (one legal action is played at once)."""

    name = ""

    def __init__(self, **kw: Any) -> None:
        pass

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.suggest(obs, legal, decision, rng).action

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:  # pragma: no cover - overridden
        raise NotImplementedError
