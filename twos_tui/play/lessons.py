"""Lessons: a short guided lesson for each game, played at the real table.

A lesson is a data file in the package (``play/lesson_data/<variant>.toml``): a title and 5 to 8
steps. Each step is a fixed position (:mod:`twos_tui.engine.positions`: hands stacked
to teach one thing), one or two sentences saying what to do, and the moves that pass it
(``goals``: usually one move; a step may ask for two or three in a row, with the other
seats' replies between them given in the file). The learner always sits in seat 0 and
sees only that seat (the table screen shows only its seat, as in any game).

A move that breaks a rule is refused with the engine's own reason; a legal move that is
not the point of the step is refused with the step's ``why`` (why another move is
better). Either way nothing changes and the learner tries again. Progress (the steps
passed and the stars of the best run: 3 with no wrong move, 2 with one or two, else 1)
is kept in the settings.

A step in the file::

    [[steps]]
    title = "Beat a pair"
    text = "Ada led a pair of 7s. Beat it with a higher pair."
    done = "Your 9s beat her 7s."                 # said when the step is passed
    position = { hands = [[...], [...]], to_act = 0, top = {seat = 1, cards = [...]} }
    accept = [{ cards = ["9S", "9H"] }]           # the moves that pass (or [[steps.goals]])
    why = "That is legal, but ..."                # a legal move that is not the point
    wrong = { cards = ["8S", "8H"] }              # a wrong move the tests try (optional)
    then = [{ seat = 1, kind = "pass" }]          # replies after the move (optional)
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..engine import VARIANT_IDS, Action, Decision, Game, IllegalAction, new_game
from ..engine.positions import Position, PositionError, build_game
from .seat_view import LocalSeatView
from .session import AI, HUMAN, SeatConfig, Session
from .settings import LessonProgress

LEARNER = 0  #: the learner's seat in every step
DATA_PACKAGE = "twos_tui.play"
DATA_FOLDER = "lesson_data"


class LessonError(ValueError):
    """A lesson file that cannot be used; ``str(err)`` says where and why."""


def action_from(spec: object, where: str) -> Action:
    """An :class:`Action` from a file's ``{kind, cards, value}`` (kind "play" when it
    has cards and no kind, "pass" when it has neither)."""
    if not isinstance(spec, dict) or not set(spec) <= {"kind", "cards", "value", "seat"}:
        raise LessonError(f"{where}: a move is {{kind, cards, value}}")
    cards = spec.get("cards", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise LessonError(f"{where}: cards is a list of card codes")
    kind = spec.get("kind", "play" if cards else "pass")
    value = spec.get("value")
    if not isinstance(kind, str) or (value is not None and not isinstance(value, int | str)):
        raise LessonError(f"{where}: a move's kind is a word and its value a number or word")
    return Action(kind, tuple(cards), value)


def same_move(a: Action, b: Action) -> bool:
    """The same move whatever the order of its cards."""
    return a.kind == b.kind and a.value == b.value and sorted(a.cards) == sorted(b.cards)


@dataclass
class Goal:
    """One move the learner must make: which moves pass, why others do not, and what
    the other seats answer before the learner's next move."""

    accept: list[Action]
    why: str
    then: list[tuple[int, Action]] = field(default_factory=list)
    wrong: Action | None = None
    prompt: str = ""  #: a sentence for this move (a step with several moves)

    def accepts(self, action: Action) -> bool:
        return any(same_move(action, a) for a in self.accept)


@dataclass
class Step:
    title: str
    text: str
    done: str
    position: Position
    goals: list[Goal]

    def game(self) -> Game:
        return build_game(self.position)


@dataclass
class Lesson:
    variant: str
    title: str
    summary: str
    steps: list[Step]

    @property
    def name(self) -> str:
        return self.title


def _goal(d: object, where: str, default_why: str) -> Goal:
    """One move of a step, from the file's table (read as TOML: checked here)."""
    if not isinstance(d, Mapping):
        raise LessonError(f"{where}: a move is a table")
    accept = d.get("accept")
    if not isinstance(accept, list) or not accept:
        raise LessonError(f"{where}: accept lists the moves that pass")
    then = []
    replies = d.get("then", [])
    for i, r in enumerate(replies if isinstance(replies, list) else [None]):
        seat = r.get("seat") if isinstance(r, dict) else None
        if type(seat) is not int or seat == LEARNER or not isinstance(r, dict):
            raise LessonError(f"{where}: then[{i}] is another seat's move, with its seat")
        then.append((seat, action_from({k: v for k, v in r.items() if k != "seat"}, where)))
    why = d.get("why", default_why)
    wrong = d.get("wrong")
    return Goal(
        [action_from(a, f"{where} accept") for a in accept],
        str(why),
        then,
        action_from(wrong, f"{where} wrong") if wrong is not None else None,
        str(d.get("prompt", "")),
    )


def _placed(p: Position) -> set[str]:
    """The cards a position puts somewhere (hands, table, state fields)."""
    used = {c for h in p.hands for c in h if isinstance(c, str)}
    used |= set((p.top or {}).get("cards", []))
    used |= {str(t.get("card")) for t in p.trick or [] if isinstance(t, dict)}
    used |= set(p.played or []) | set(p.out_of_play or [])
    for key in ("lead_up", "lead_down"):
        if isinstance(p.extra.get(key), str):
            used.add(p.extra[key])
    for key in ("follows", "duo_discards", "pile"):
        vals = p.extra.get(key)
        if isinstance(vals, list):
            used |= {c for c in vals if isinstance(c, str)}
    return used


def _nulls(value: Any) -> Any:
    """TOML has no null: the word "null" in a state field stands for it."""
    if value == "null":
        return None
    if isinstance(value, dict):
        return {k: _nulls(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nulls(v) for v in value]
    return value


def _position(variant: str, d: object, names: list[str], where: str) -> Position:
    """A step's position. Two conveniences of the files: a hand written as a number is
    that many cards dealt at random (a generator seeded by the step, so the same every
    time) from the cards the step does not place, for the seats whose cards do not
    matter; ``out_of_play_auto`` leaves out of play as many of the cards nobody holds
    as the game leaves undealt (the others count as played before); in ``extra`` the
    word "null" stands for a null (TOML has none)."""
    if not isinstance(d, dict):
        raise LessonError(f"{where}: position is a table")
    data = {"variant": variant, "names": names, **d}
    if isinstance(data.get("extra"), dict):
        data["extra"] = _nulls(data["extra"])
    auto = data.pop("out_of_play_auto", False)
    hands = data.get("hands")
    counts: dict[int, int] = {}
    if isinstance(hands, list):
        counts = {i: h for i, h in enumerate(hands) if type(h) is int}
        data["hands"] = [[] if type(h) is int else h for h in hands]
    try:
        p = Position.from_json(data)
    except PositionError as e:
        raise LessonError(f"{where}: {e}") from None
    base = new_game(variant, len(p.hands), dict(p.options), 0)
    rng = random.Random(f"lesson:{where}")
    rest = [c for c in base.deck_cards() if c not in _placed(p)]
    for seat, n in counts.items():
        if n > len(rest):
            raise LessonError(f"{where}: not enough cards left to deal {n} to seat {seat}")
        dealt = rng.sample(rest, n)
        p.hands[seat] = base.sort_cards(dealt)
        rest = [c for c in rest if c not in dealt]
    if auto:
        undealt = len(base.deck_cards()) - sum(len(h) for h in base.to_json()["hands"])
        p.out_of_play = sorted(rng.sample(rest, undealt), key=base.card_sort_key)
    return p


def parse_lesson(variant: str, data: Mapping[str, object]) -> Lesson:
    """A lesson from its file's data (TOML just read: every value is checked here)."""
    where = f"lesson_data/{variant}.toml"
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise LessonError(f"{where}: names lists the seats' names (the learner first)")
    steps = []
    listed = data.get("steps", [])
    for i, s in enumerate(listed if isinstance(listed, list) else [None]):
        at = f"{where} step {i + 1}"
        if not isinstance(s, dict):
            raise LessonError(f"{at}: a step is a table")
        for key in ("title", "text", "done", "position"):
            if key not in s:
                raise LessonError(f"{at}: a step needs {key!r}")
        why = str(s.get("why", "That is a legal move, but not the one this step asks for."))
        raw_goals = s.get("goals") or [s]
        goals = [_goal(g, f"{at} move {j + 1}", why) for j, g in enumerate(raw_goals)]
        position = _position(variant, s["position"], names, at)
        steps.append(Step(str(s["title"]), str(s["text"]), str(s["done"]), position, goals))
    if not 5 <= len(steps) <= 8:
        raise LessonError(f"{where}: a lesson has 5 to 8 steps, not {len(steps)}")
    return Lesson(variant, str(data.get("title", variant)), str(data.get("summary", "")), steps)


_CACHE: dict[str, Lesson] = {}


def load_lesson(variant: str) -> Lesson:
    """The lesson of ``variant`` (from the package's data); :class:`LessonError` if the
    game has none or its file is damaged."""
    if variant in _CACHE:
        return _CACHE[variant]
    if variant not in VARIANT_IDS:
        raise LessonError(f"no such game {variant!r}; choose one of: " + ", ".join(VARIANT_IDS))
    path = resources.files(DATA_PACKAGE) / DATA_FOLDER / f"{variant}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise LessonError(f"lesson_data/{variant}.toml cannot be read: {e}") from None
    lesson = parse_lesson(variant, data)
    _CACHE[variant] = lesson
    return lesson


def all_lessons() -> list[Lesson]:
    return [load_lesson(v) for v in VARIANT_IDS]


def check_lesson(lesson: Lesson) -> list[str]:
    """Problems with a lesson, [] if none: every step's position builds with the learner
    to act; every accepted move is legal in turn; the replies are legal; the example wrong
    move is refused (by a rule or by the step)."""
    problems = []
    for i, step in enumerate(lesson.steps):
        at = f"{lesson.variant} step {i + 1}"
        try:
            g = step.game()
        except (PositionError, KeyError) as e:  # (KeyError: see the report on positions)
            problems.append(f"{at}: {e}")
            continue
        for j, goal in enumerate(step.goals):
            if LEARNER not in g.to_act():
                problems.append(f"{at} move {j + 1}: the learner is not to act")
                break
            if goal.wrong is not None and goal.accepts(goal.wrong):
                problems.append(f"{at} move {j + 1}: the wrong move is accepted")
            for a in goal.accept:
                reason = g.check(LEARNER, a)
                if reason is not None:
                    problems.append(f"{at} move {j + 1}: {a} is refused: {reason}")
            try:
                g.apply(LEARNER, goal.accept[0])
                for seat, a in goal.then:
                    g.apply(seat, a)
            except IllegalAction as e:
                problems.append(f"{at} move {j + 1}: {e}")
                break
    return problems


def stars_for(mistakes: int) -> int:
    return 3 if mistakes == 0 else 2 if mistakes <= 2 else 1


class LessonRun:
    """One learner going through a lesson: the step, its game, the move asked, the
    mistakes so far. Pure play-layer state; the screen asks it and shows the answers."""

    def __init__(self, lesson: Lesson, step: int = 0, mistakes: int = 0) -> None:
        if not 0 <= step < len(lesson.steps):
            raise LessonError(f"{lesson.title} has steps 1 to {len(lesson.steps)}")
        self.lesson = lesson
        self.index = step
        self.mistakes = mistakes  #: wrong moves tried in this run (all steps)
        self.goal_index = 0
        self.passed = False
        self.game = self.step.game()

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def goal(self) -> Goal:
        return self.step.goals[min(self.goal_index, len(self.step.goals) - 1)]

    @property
    def last_step(self) -> bool:
        return self.index == len(self.lesson.steps) - 1

    def instruction(self) -> str:
        prompt = self.goal.prompt if len(self.step.goals) > 1 else ""
        return f"{self.step.text} {prompt}".strip()

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` does not pass the step now (the rule, or why another move is
        better), or None: it passes."""
        if self.passed:
            return "This step is done: press Enter for the next one."
        reason = self.game.check(LEARNER, action)
        if reason is not None:
            return reason
        if not self.goal.accepts(action):
            return self.goal.why
        return None

    def note_mistake(self) -> None:
        self.mistakes += 1

    def play(self, action: Action) -> None:
        """Make the learner's accepted move, then the replies; the step is passed after
        its last move. Raises :class:`IllegalAction` (nothing changes) for any other."""
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        self.game.apply(LEARNER, action)
        for seat, reply in self.goal.then:
            self.game.apply(seat, reply)
        self.goal_index += 1
        if self.goal_index >= len(self.step.goals):
            self.passed = True

    def next_run(self) -> LessonRun | None:
        """The run at the next step (the mistakes carried), or None after the last."""
        if self.last_step:
            return None
        return LessonRun(self.lesson, self.index + 1, self.mistakes)


def record_progress(
    progress: dict[str, LessonProgress], variant: str, step: int, stars: int | None = None
) -> None:
    """Note step ``step`` passed (and, at the lesson's end, the stars: the best kept)."""
    entry = progress.setdefault(variant, {"done": [], "stars": 0})
    if step not in entry["done"]:
        entry["done"] = sorted([*entry["done"], step])
    if stars is not None:
        entry["stars"] = max(int(entry.get("stars", 0)), stars)


def lesson_view(run: LessonRun) -> LessonSeatView:
    """The table of ``run``'s step as the learner's screen sees it."""
    g = run.game
    seats = [SeatConfig(n, HUMAN if i == LEARNER else AI) for i, n in enumerate(g.names)]
    return LessonSeatView(Session(g, seats, autosave=False), run)


class LessonSeatView(LocalSeatView):
    """A lesson step's table: the learner's seat only, the other seats never move on
    their own (their replies are in the lesson), every move goes through the lesson
    (:meth:`LessonRun.refusal`), and the step's end is not the deal's end (no deal
    summary, no history, no save)."""

    banner: str | None = "lesson"

    def __init__(self, session: Session, run: LessonRun) -> None:
        super().__init__(session)
        self.run = run
        session.record_history = False

    def to_act(self) -> tuple[int, ...]:
        return () if self.run.passed else self.game.to_act()

    def decision(self, seat: int) -> Decision | None:
        if self.run.passed:
            return None
        return super().decision(seat)

    def check(self, seat: int, action: Action) -> str | None:
        """The rules' answer (the screen previews a selection with it); whether the
        move is the step's comes when it is played (:meth:`act`)."""
        if seat != LEARNER:
            return "That seat is not played at this screen."
        if self.run.passed:
            return "This step is done: press Enter for the next one."
        return self.game.check(seat, action)

    def act(self, seat: int, action: Action) -> None:
        if seat != LEARNER:
            raise IllegalAction("That seat is not played at this screen.")
        self.run.play(action)

    @property
    def deal_over(self) -> bool:
        return False  # a step ends the lesson's way, even when it ends the deal

    @property
    def match_over(self) -> bool:
        return False

    def ai_to_act(self) -> list[int]:
        return []

    def humans_to_act(self) -> list[int]:
        return [s for s in self.to_act() if s == LEARNER]

    def can_undo(self) -> str | None:
        return "There is no undo in a lesson: a wrong move is refused, so just try again."

    def undo(self) -> int:
        from .tracker import UndoRefused

        raise UndoRefused(self.can_undo() or "")
