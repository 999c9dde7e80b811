"""Puzzles as data: one JSON file per game in ``twos_tui/puzzles/data/``, loading and
the check that each puzzle loads, is legal and has exactly one answer.

A puzzle is a position (:class:`~twos_tui.engine.positions.Position`), the seat to play
(the position's ``to_act``), a goal the solver reads (:class:`~.solver.Goal`) and its
words for the player, a theme, a difficulty (1 to 3 stars) and a par (the turns the
answer needs), the one answer (a list of actions) and a hint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import TypedDict

from ..engine import VARIANT_IDS, Action, Game
from ..engine.positions import Position, PositionError, build_game
from ..jsontypes import JsonObject
from .solver import (
    Goal,
    GoalJson,
    Move,
    TooBig,
    describe_move,
    move_from_json,
    move_json,
    solve,
)

#: the themes a puzzle may carry, with the words the list shows
THEMES: dict[str, str] = {
    "control": "keep control",
    "lead-order": "order of leads",
    "take-over": "take the lead",
    "beat-low": "beat it cheaply",
    "patience": "pass and wait",
    "bomb": "bomb",
    "last-tricks": "last tricks",
    "catch": "twos and threes",
    "duck": "give a trick away",
    "exact-bid": "exactly the bid",
}


class PuzzleJson(TypedDict):
    """A :class:`Puzzle` in its game's file."""

    id: str
    variant: str
    position: JsonObject  #: :meth:`Position.to_json`
    goal: GoalJson
    text: str
    theme: str
    difficulty: int
    par: int
    answer: list[JsonObject]  #: the actions of the answer (:func:`move_json`)
    hint: str
    source: JsonObject


class PuzzleError(ValueError):
    """A puzzle file or entry that is not right; ``str(err)`` says why."""


@dataclass
class Puzzle:
    id: str
    variant: str
    position: Position
    goal: Goal
    text: str
    theme: str
    difficulty: int
    par: int
    answer: Move
    hint: str
    #: where the puzzle came from (the generator's seed and command...): kept, not read
    source: JsonObject = field(default_factory=dict)

    @property
    def seat(self) -> int:
        return self.position.to_act

    def game(self) -> Game:
        """A fresh game in the puzzle's position."""
        return build_game(self.position)

    def to_json(self) -> PuzzleJson:
        return {
            "id": self.id,
            "variant": self.variant,
            "position": self.position.to_json(),
            "goal": self.goal.to_json(),
            "text": self.text,
            "theme": self.theme,
            "difficulty": self.difficulty,
            "par": self.par,
            "answer": move_json(self.answer),
            "hint": self.hint,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, d: object) -> Puzzle:
        if type(d) is not dict:
            raise PuzzleError("a puzzle is a JSON object")
        pid = d.get("id")
        if type(pid) is not str or not pid:
            raise PuzzleError("a puzzle needs an id")
        try:
            pos = Position.from_json(d["position"])
            g = d["goal"]
            if type(g) is not dict or type(g.get("kind")) is not str:
                raise PuzzleError(f"{pid}: goal is an object with a kind")
            goal = Goal(g["kind"], pos.to_act, int(g.get("target", 1)), g.get("turns"))
            answer = move_from_json(d["answer"])
            p = cls(
                pid,
                str(d["variant"]),
                pos,
                goal,
                str(d["text"]),
                str(d["theme"]),
                int(d["difficulty"]),
                int(d["par"]),
                answer,
                str(d.get("hint", "")),
                dict(d.get("source", {})),
            )
        except PuzzleError:
            raise
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleError(f"{pid}: {type(e).__name__}: {e}") from None
        if p.variant != pos.variant or p.variant not in VARIANT_IDS:
            raise PuzzleError(f"{pid}: the variant and the position's variant differ")
        if p.theme not in THEMES:
            raise PuzzleError(f"{pid}: unknown theme {p.theme!r}")
        if not 1 <= p.difficulty <= 3:
            raise PuzzleError(f"{pid}: difficulty is 1 to 3")
        return p


def data_name(variant: str) -> str:
    return f"{variant}.json"


def load_puzzles(variant: str) -> list[Puzzle]:
    """The puzzles of one game, in order."""
    if variant not in VARIANT_IDS:
        raise PuzzleError(f"unknown game {variant!r}")
    path = resources.files("twos_tui.puzzles") / "data" / data_name(variant)
    if not path.is_file():
        return []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as e:
        raise PuzzleError(f"{data_name(variant)}: not JSON ({e})") from None
    if type(raw) is not list:
        raise PuzzleError(f"{data_name(variant)}: a list of puzzles")
    return [Puzzle.from_json(d) for d in raw]


def all_puzzles() -> dict[str, list[Puzzle]]:
    return {v: load_puzzles(v) for v in VARIANT_IDS}


def check_puzzle(p: Puzzle) -> str | None:
    """``None`` if the puzzle loads, is legal and has exactly one answer, else why not."""
    try:
        g = p.game()
    except PositionError as e:
        return f"{p.id}: {e}"
    seat = p.seat
    first = p.answer[0]
    reason = g.check(seat, first)
    if reason is not None:
        return f"{p.id}: the answer's first action is refused: {reason}"
    try:
        sol = solve(g, p.goal)
    except TooBig as e:
        return f"{p.id}: too big to prove ({e})"

    def face(c: str) -> str:
        return g.card_face(c).label

    wins = sol.winners(p.goal.target)
    firsts = {m[0] for m in wins}
    if len(firsts) != 1:
        shown = ", ".join(describe_move((a,), face) for a in list(firsts)[:4]) or "none"
        return f"{p.id}: {len(firsts)} first moves reach the goal ({shown}), not exactly one"
    if p.answer not in wins:
        return f"{p.id}: the answer {describe_move(p.answer, face)} does not reach the goal"
    return None


def unique_first(values: dict[Move, int], target: int) -> Action | None:
    """The one first action from which the goal can be reached, or ``None`` when there
    are none or several (a move is the seat's actions until another seat acts: 2v1's
    lone player lays two cards; which second card, where several do, is free)."""
    firsts = {m[0] for m, v in values.items() if v >= target}
    return next(iter(firsts)) if len(firsts) == 1 else None
