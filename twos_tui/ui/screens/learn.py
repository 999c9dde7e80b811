"""Learn: a short guided lesson for each game (:mod:`twos_tui.play.lessons`).

:class:`LearnScreen` lists the lessons with the progress kept in the settings (steps
passed, stars); Enter starts one at its first step not yet passed. Each step is played
at the real table (:class:`LessonScreen`, the table screen with the lesson's words in
the side panel): the learner's seat only, a wrong move refused with the rule that
forbids it (or why another move is better), the step passed by a correct move, Enter
for the next step. ``t`` on the list turns the first-game tips back on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...engine import Action
from ...play.lessons import (
    LEARNER,
    Lesson,
    LessonError,
    LessonRun,
    all_lessons,
    lesson_view,
    load_lesson,
    record_progress,
    stars_for,
)
from ...play.settings import LessonProgress
from ..chrome import KeyBar, SafeOptionList
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app
from ..widgets import HandView
from .table import TableScreen

if TYPE_CHECKING:
    from ..app import TwosApp


def stars_text(stars: int) -> str:
    """Stars as text a screen reader and a monochrome terminal both get: ★★☆ (2/3)."""
    return "★" * stars + "☆" * (3 - stars) + f" ({stars}/3)"


def progress_line(lesson: Lesson, progress: LessonProgress | None) -> str:
    done = len(progress.get("done", [])) if progress else 0
    total = len(lesson.steps)
    stars = int(progress.get("stars", 0)) if progress else 0
    if done == 0:
        return f"{total} steps · not started"
    if done >= total:
        return f"done · {stars_text(stars)}" if stars else f"{total} of {total} steps"
    return f"{done} of {total} steps"


def first_step_to_do(lesson: Lesson, progress: LessonProgress | None) -> int:
    """The first step not passed yet (the first step when all are)."""
    done = set(progress.get("done", [])) if progress else set()
    for i in range(len(lesson.steps)):
        if i not in done:
            return i
    return 0


def start_lesson(app: TwosApp, variant: str, step: int | None = None) -> None:
    """Open ``variant``'s lesson at ``step`` (None: its first step not passed)."""
    try:
        lesson = load_lesson(variant)
    except LessonError as e:
        app.notify(str(e), title="No lesson", severity="error")
        return
    if step is None:
        step = first_step_to_do(lesson, app.settings.lessons.get(variant))
    app.push_screen(LessonScreen(LessonRun(lesson, step)))


class LearnScreen(Screen[None]):
    """The lessons, one a game, with the progress kept."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("t", "tips_on", "Tips back on"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text("Learn: a short lesson for each game", style="bold"), id="learn-title")
        yield SafeOptionList(id="learn-list")
        yield Static(
            Text(
                "Each lesson is a few steps played at the table: do what a step says; a "
                "wrong move is explained and you try again. Enter: start · t: first-game "
                "tips back on · Esc: back"
            ),
            id="learn-help",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        ol = self.query_one(OptionList)
        keep = ol.highlighted or 0
        ol.clear_options()
        progress = twos_app(self).settings.lessons
        for lesson in all_lessons():
            line = Text.assemble(
                (lesson.title, "bold"),
                f" — {lesson.summary}\n",
                ("  " + progress_line(lesson, progress.get(lesson.variant)), "dim"),
            )
            ol.add_option(Option(line, id=lesson.variant))
        ol.highlighted = min(keep, ol.option_count - 1)
        ol.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_tips_on(self) -> None:
        twos_app(self).tips_back_on()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            start_lesson(twos_app(self), event.option.id)


class LessonScreen(TableScreen):
    """One step of a lesson at the real table."""

    AUTO_PASS = False

    def __init__(self, run: LessonRun) -> None:
        super().__init__(lesson_view(run))
        self.run = run
        self.tips.enabled = False  # the lesson says what to do itself
        self.recorded = False
        #: the refusals counted as mistakes: (step, goal, reason)
        self.refusals_counted: set[tuple[int, int, str]] = set()

    def on_mount(self) -> None:
        super().on_mount()
        for widget in self.query("#log, #score"):
            widget.display = False  # the lesson's words take the side panel
        panel = Static(id="lesson")
        panel.border_title = f"Lesson: {self.run.lesson.title}"
        self.query_one("#side").mount(panel, after="#score")
        self.call_after_refresh(self.show_lesson)

    def refresh_view(self) -> None:
        super().refresh_view()
        run = self.run
        self.title = f"Learn {run.lesson.title}"
        self.sub_title = f"step {run.index + 1} of {len(run.lesson.steps)}"

    def show_lesson(self) -> None:
        run = self.run
        steps = len(run.lesson.steps)
        t = Text()
        t.append(f"Step {run.index + 1} of {steps}: {run.step.title}\n", style="bold")
        if run.passed:
            t.append("✓ ", style="bold green")
            t.append(run.step.done)
            t.append("\n\n")
            more = "finish the lesson" if run.last_step else "next step"
            t.append(f"Enter: {more}", style="bold")
        else:
            t.append(run.instruction())
        for panel in self.query("#lesson"):
            if isinstance(panel, Static):
                panel.update(t)

    def after_change(self) -> None:
        super().after_change()
        if self.run.passed and not self.recorded:
            self.recorded = True
            app = twos_app(self)
            stars = stars_for(self.run.mistakes) if self.run.last_step else None
            record_progress(app.settings.lessons, self.run.lesson.variant, self.run.index, stars)
            app.save_settings()
            more = "finish the lesson" if self.run.last_step else "the next step"
            self.show_message(f"Well done. Enter: {more}.", "ok")
        self.show_lesson()

    def show_message(self, text: str, kind: str = "", error: bool = False) -> None:
        if (error or kind == "error") and text and not self.run.passed:
            self.refused(text)
        super().show_message(text, kind, error)

    def refused(self, reason: str) -> None:
        """A move was refused: it counts against the stars once (the same refusal again
        at the same point of the step is not another mistake), and the refused cards go
        back down, so that the next Enter does not try them again."""
        at = (self.run.index, self.run.goal_index, reason)
        if at not in self.refusals_counted:
            self.refusals_counted.add(at)
            self.run.note_mistake()
        if self.selected:
            self.selected.clear()
            self.query_one(HandView).set_selected(self.selected)
            self.buttons.render()

    def action_submit(self, _shown: str = "") -> None:
        if self.run.passed:
            self.next_step()
            return
        super().action_submit(_shown)

    def next_step(self) -> None:
        app = twos_app(self)
        following = self.run.next_run()
        if following is not None:
            app.switch_screen(LessonScreen(following))
            return
        from .dialogs import InfoDialog

        lesson = self.run.lesson
        stars = stars_for(self.run.mistakes)
        wrong = self.run.mistakes
        said = "no wrong move" if wrong == 0 else f"{wrong} wrong move{'s' if wrong != 1 else ''}"
        body = Text(
            f"You finished the {lesson.title} lesson with {said}: {stars_text(stars)}.\n\n"
            "Play a real game from New game on the home screen; the game's help (?) has "
            "the whole rules."
        )
        app.pop_screen()
        app.push_screen(InfoDialog(f"{lesson.title}: lesson done", body, scroll_to_end=False))

    def action_hint(self) -> None:
        """A lesson's hint: the move the step asks for, taken up at once like the
        table's hint (its cards picked up, or its button focused), so Enter makes it."""
        if self.run.passed or self.decision is None:
            return
        move = self.run.goal.accept[0]
        words = self.move_words(move)
        self.show_message(f"for this step: {words}{self.hints.take(move)}", "hint")

    def move_words(self, move: Action) -> str:
        if move.cards:
            cards = " ".join(self.face(c).label for c in move.cards)
            verb = move.kind.replace("-", " ")
            return f"{verb} {cards}"
        if move.kind == "pass":
            return "pass (p)"
        value = move.value
        if isinstance(value, str) and value in self.game.deck_cards():
            value = self.face(value).label  # a card named by a choice (2v1's keep)
        elif move.kind == "bid" and value == 0:
            return "pass (p)"
        return f"{move.kind} {value}"

    def action_leave(self, _shown: str = "") -> None:
        """Back to the lessons list (the steps passed are kept)."""
        self.app.pop_screen()

    async def action_undo(self) -> None:
        self.show_message(self.table.can_undo() or "", "")

    @property
    def learner(self) -> int:
        return LEARNER
