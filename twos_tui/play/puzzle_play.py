"""Playing a puzzle: the progress kept in the data directory, and the table of one
puzzle as the player's seat sees it.

Progress is ``puzzles.json`` in the data directory: puzzle id -> ``{"solved": bool,
"star": bool, "tries": int, "hint": bool}``; written atomically. A damaged file is set
aside as ``puzzles.json.bad`` and progress starts again, with the reason kept for the
screen to say.

:class:`PuzzleSeatView` is a local table (:class:`~.seat_view.LocalSeatView`) in the
puzzle's position with the player at the puzzle's seat. A move that is the puzzle's
answer (or the start of it) is played; the answer complete, the puzzle is solved. Any
other legal move is refused, as the table refuses an illegal one, with why it falls
short (a reply that beats it, from the solver); the position stays, so the player tries
again. The other seats never move: the puzzle ends with the answer.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from ..engine import Action, IllegalAction
from ..engine.words import says
from ..puzzles.model import Puzzle
from ..puzzles.solver import Move, describe_move, refutation, solve
from .paths import data_dir
from .seat_view import LocalSeatView
from .session import SeatConfig, Session

PROGRESS_FILE = "puzzles.json"


class RecordJson(TypedDict):
    """One puzzle's progress in ``puzzles.json`` (keyed by the puzzle's id)."""

    solved: bool
    star: bool  #: solved without a hint
    tries: int
    hint: bool  #: a hint was taken


@dataclass
class Record:
    solved: bool = False
    star: bool = False
    tries: int = 0
    hint: bool = False

    def to_json(self) -> RecordJson:
        return {"solved": self.solved, "star": self.star, "tries": self.tries, "hint": self.hint}


class Progress:
    """Which puzzles are solved, with a star or not, kept in the data directory."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / PROGRESS_FILE
        self.records: dict[str, Record] = {}
        self.problem: str | None = None  #: why the file could not be read, if it could not
        self._load()

    def _load(self) -> None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            self._set_aside(f"the puzzle progress file could not be read ({e})")
            return
        if type(raw) is not dict:
            self._set_aside("the puzzle progress file is not a JSON object")
            return
        for pid, r in raw.items():
            if type(pid) is not str or type(r) is not dict:
                continue
            self.records[pid] = Record(
                bool(r.get("solved")),
                bool(r.get("star")),
                int(r["tries"]) if type(r.get("tries")) is int else 0,
                bool(r.get("hint")),
            )

    def _set_aside(self, why: str) -> None:
        self.problem = why + "; it was set aside and progress starts again"
        with contextlib.suppress(OSError):
            os.replace(self.path, self.path.with_name(PROGRESS_FILE + ".bad"))

    def get(self, pid: str) -> Record:
        return self.records.get(pid, Record())

    def stars(self, puzzles: list[Puzzle]) -> tuple[int, int]:
        """(stars, solved) among ``puzzles``."""
        recs = [self.get(p.id) for p in puzzles]
        return sum(r.star for r in recs), sum(r.solved for r in recs)

    def note_try(self, pid: str, hint: bool) -> None:
        r = self.records.setdefault(pid, Record())
        r.tries += 1
        r.hint = r.hint or hint
        self.save()

    def note_solved(self, pid: str, hint: bool) -> Record:
        r = self.records.setdefault(pid, Record())
        r.solved = True
        r.star = r.star or not hint
        r.hint = r.hint or hint
        self.save()
        return r

    def save(self) -> str | None:
        """Write atomically; ``None`` or why not."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(PROGRESS_FILE + ".tmp")
            data = {pid: r.to_json() for pid, r in sorted(self.records.items())}
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            return f"puzzle progress not saved: {e}"
        return None


def unseen_cards(view: LocalSeatView, seat: int) -> list[str]:
    """The cards ``seat`` has not seen (in the others' hands, out of play or put aside
    face down): which they are is public, where they lie is not."""
    g = view.game
    return g.sort_cards(sorted(g.hidden_from(seat)))


class PuzzleSeatView(LocalSeatView):
    """The table of one puzzle (see the module docstring)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        game = puzzle.game()
        seat = puzzle.seat
        seats = [
            SeatConfig(game.names[i], "human" if i == seat else "ai", "normal")
            for i in range(game.players)
        ]
        super().__init__(Session(game, seats, autosave=False))
        self.seat = seat
        self.done: list[Action] = []  #: the answer's actions played so far
        self.solved = False
        self.hint_used = False
        self.wrong_tries = 0
        self._solution: dict[Move, int] | None = None
        game.log(f"Puzzle: {puzzle.text}", None)
        hidden = unseen_cards(self, seat)
        if hidden:
            others = [game.names[i] for i in range(game.players) if i != seat]
            where = f"{others[0]} holds them" if len(others) == 1 else "in the others' hands"
            if game.family == "climbing" and game.to_json()["out_of_play"]:
                where = "in the others' hands or out of play"
            if puzzle.variant == "2v1":
                where = "in the duo's hands or put aside by them"
            shown = " ".join(game.card_face(c).label for c in hidden)
            game.log(f"Not seen yet ({where}): {shown}", None)

    def ai_to_act(self) -> list[int]:
        return []  # the other seats never move: the answer ends the puzzle

    def can_undo(self) -> str | None:
        return "A puzzle has no undo: a wrong move is never played."

    def act(self, seat: int, action: Action) -> None:
        if self.solved:
            raise IllegalAction("Solved! Go on to the next puzzle.")
        reason = self.check(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        tried = (*self.done, action)
        values = self._values()
        target = self.puzzle.goal.target
        good = [m for m, v in values.items() if v >= target and m[: len(tried)] == tried]
        if good:
            super().act(seat, action)
            self.done.append(action)
            if tried in good:  # a whole move that reaches the goal
                self.solved = True
            return
        self.wrong_tries += 1
        raise IllegalAction(self.why_not(tried))

    # ----- why a move falls short ---------------------------------------------------------
    def why_not(self, tried: tuple[Action, ...]) -> str:
        """Why the move that starts with ``tried`` does not reach the goal, in words."""
        p = self.puzzle
        game = p.game()
        values = self._values()
        moves = [m for m in values if m[: len(tried)] == tried]
        # (the first actions of a move already played here are the answer's)
        if not moves:
            return "That is not the answer. Try again."
        move = max(moves, key=lambda m: values[m])
        line = refutation(game, p.goal, move)
        names = game.names
        goal = p.goal

        def face(c: str) -> str:
            return game.card_face(c).label

        what = describe_move(tried, face)
        if goal.kind == "points":
            head = (
                f"{what} makes sure of only {values[move]} point"
                f"{'s' if values[move] != 1 else ''}, not {goal.target}"
            )
        elif goal.kind == "tricks":
            head = f"{what} makes sure of only {values[move]} of the tricks, not {goal.target}"
        elif goal.kind == "bid":
            head = f"{what} cannot make sure of exactly your bid"
        else:
            head = f"{what} does not make sure you go out in time"
        if line:
            replies = "; ".join(
                says(names[s], _verb(a, face)) for s, acts in line[:3] for a in acts if s != p.seat
            )
            if replies:
                head += f": {replies}" + ("…" if len(line) > 3 else "")
                if goal.kind == "out":
                    head += ", and you cannot go out in time after that"
        return head + ". Try again."

    def _values(self) -> dict[Move, int]:
        if self._solution is None:
            self._solution = solve(self.puzzle.game(), self.puzzle.goal).values
        return self._solution


def _verb(a: Action, face: Callable[[str], str]) -> str:
    if a.kind == "pass":
        return "passes"
    if a.kind == "keep" and type(a.value) is str:
        return f"sends {face(a.value)} back to your hand"
    if a.cards:
        word = "can answer" if a.kind == "play" else "can play"
        return f"{word} {' '.join(face(c) for c in a.cards)}"
    return a.kind
