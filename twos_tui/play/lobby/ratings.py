"""Ratings for the lobby: OpenSkill's Plackett–Luce model, one rating per player per game.

``docs/ratings.md`` says the same in plain words. The choices:

- **The number shown** is ``1000 + 40 × (μ − 3σ)`` (:func:`display`): OpenSkill's
  "ordinal", a cautious estimate that rises as the system grows sure of a player,
  scaled to look like the chess-style numbers people know. A newcomer (μ 25, σ 25/3)
  shows 1000; a steady average player settles near 1800.
- **AI seats count**, each level with a fixed rating that never changes
  (:data:`AI_RATINGS`): a quick match filled with AI is rated like any other, and
  beating the hard AI moves a rating more than beating the easy one. Leaving the AI out
  would make a rated game of one person against three AI seats mean nothing.
- **Guests** (and any name without an account) count as a newcomer's rating that never
  changes: they are unrated, but whoever beats them still gains a little.
- **Ties** (equal places, as the two partners of a 2v1 side share) are ties for
  Plackett–Luce: neither is ranked above the other.
- **Leaving** a rated match before its end counts as last place, below everyone who
  stayed (several who left share that last place), whatever place the seat reached
  after (an AI may finish it).

Each seat is its own team of one; the model is OpenSkill's defaults (``PlackettLuce()``),
so the numbers can be checked against OpenSkill itself (tests/test_lobby_ratings.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .model import MatchOutcome

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu  #: a new player's skill estimate (25)
DEFAULT_SIGMA: float = MODEL.sigma  #: and its uncertainty (25/3)
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0
#: an AI level's fixed (mu, sigma): never updated. A small sigma says "we know how
#: strong it is", so a result against it moves the human, not it.
AI_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (18.0, 2.0),
    "normal": (25.0, 2.0),
    "hard": (30.0, 2.0),
    "expert": (22.0, 2.0),  # the network alone: weaker than normal (README, "How strong")
    "guided": (30.0, 2.0),
    "rollouts": (30.0, 2.0),
}
DEFAULT_AI_LEVEL = "normal"  #: the rating of an AI seat whose level was not reported


def display(mu: float, sigma: float) -> float:
    """The rating a player sees: ``1000 + 40 × (μ − 3σ)``."""
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)


def ai_rating(level: str | None) -> tuple[float, float]:
    """The fixed (mu, sigma) an AI seat of ``level`` plays at."""
    return AI_RATINGS.get(level or DEFAULT_AI_LEVEL, AI_RATINGS[DEFAULT_AI_LEVEL])


def effective_places(outcome: MatchOutcome) -> list[int]:
    """Each seat's place for rating: the reported one, except that a player who left
    is placed last, below every seat that stayed (leavers share that place)."""
    left = set(outcome.left)
    stayed = [place for name, place in outcome.places if name is None or name not in left]
    last = max(stayed, default=0) + 1
    return [last if name is not None and name in left else place for name, place in outcome.places]


@dataclass(frozen=True, slots=True)
class SeatRating:
    """One seat going into a rating update."""

    mu: float
    sigma: float
    fixed: bool  #: an AI or a guest: its rating is used, never changed


def rate(seats: Sequence[SeatRating], places: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a match with these places (1 = best, equal = tie);
    fixed seats come back unchanged. Fewer than two seats change nothing."""
    if len(seats) != len(places):
        raise ValueError("one place per seat")
    if len(seats) < 2:
        return [(s.mu, s.sigma) for s in seats]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in seats]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        (s.mu, s.sigma) if s.fixed else (float(team[0].mu), float(team[0].sigma))
        for s, team in zip(seats, new, strict=True)
    ]
