"""Puzzles: the list of games (with stars), the puzzles of one game, and a puzzle at the
real table.

Home → "Puzzles" (and ``twos-tui puzzles [VARIANT]``) lists every game with how many
puzzles it has, how many are solved and the stars won; Enter opens a game's list (the
star, the theme, the difficulty and the goal of each); Enter on a puzzle opens it at the
table in its position, as the puzzle's seat sees it. A correct move solves the puzzle (a
star when no hint was used); a wrong move is refused with why it fails, and the player
tries again; ``h`` gives the puzzle's hint.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ...engine import VARIANT_IDS, Action, variant_class
from ...play.puzzle_play import Progress, PuzzleSeatView
from ...puzzles.model import THEMES, Puzzle, PuzzleError, load_puzzles
from ..chrome import KeyBar, SafeOptionList
from ..screen_css import SCREENS_CSS
from .table import TableScreen

STAR, NO_STAR, UNSOLVED = "★", "☆", "·"


def star_mark(progress: Progress, p: Puzzle) -> str:
    r = progress.get(p.id)
    return STAR if r.star else NO_STAR if r.solved else UNSOLVED


def _load(variant: str) -> tuple[list[Puzzle], str | None]:
    try:
        return load_puzzles(variant), None
    except PuzzleError as e:
        return [], str(e)


class PuzzlesScreen(Screen[None]):
    """Every game, with its puzzles solved and stars; Enter opens a game's puzzles."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    #puzzles-title { margin: 1 2 0 2; height: auto; }
    #puzzles-games { height: 1fr; margin: 1 2; }
    """

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.start_variant = variant

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                ("Puzzles", "bold"),
                ": positions with one best move. Solve one without a hint for a star ★.",
            ),
            id="puzzles-title",
        )
        yield SafeOptionList(id="puzzles-games")
        yield KeyBar()

    def on_mount(self) -> None:
        self.progress = Progress()
        if self.progress.problem:
            self.app.notify(self.progress.problem, severity="warning", markup=False)
        self.reload()
        if self.start_variant is not None:
            self.open_game(self.start_variant)

    def on_screen_resume(self) -> None:
        self.progress = Progress()
        self.reload()

    def reload(self) -> None:
        ol = self.query_one(OptionList)
        keep = ol.highlighted or 0
        ol.clear_options()
        for v in VARIANT_IDS:
            puzzles, problem = _load(v)
            stars, solved = self.progress.stars(puzzles)
            label = Text()
            label.append(f"{variant_class(v).name:<22}", style="bold")
            if problem:
                label.append(f" cannot be read: {problem}", style="red")
            else:
                label.append(f"{len(puzzles):>3} puzzles  ")
                label.append(f"{solved:>3} solved  ")
                label.append(f"{STAR} {stars}", style="yellow")
            ol.add_option(Option(label, id=v))
        ol.highlighted = min(keep, len(VARIANT_IDS) - 1)
        ol.focus()

    def open_game(self, variant: str) -> None:
        puzzles, problem = _load(variant)
        if problem or not puzzles:
            self.app.notify(
                problem or f"No puzzles for {variant_class(variant).name} yet.",
                severity="warning",
                markup=False,
            )
            return
        self.app.push_screen(PuzzleListScreen(variant, puzzles))

    def action_back(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.open_game(event.option.id)


class PuzzleListScreen(Screen[None]):
    """The puzzles of one game: star, number, theme, difficulty and goal."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    #puzzle-list-title { margin: 1 2 0 2; height: auto; }
    #puzzle-list { height: 1fr; margin: 1 2 0 2; }
    #puzzle-list-note { margin: 0 2; height: auto; color: $text-muted; }
    """

    def __init__(self, variant: str, puzzles: list[Puzzle]) -> None:
        super().__init__()
        self.variant = variant
        self.puzzles = puzzles

    def compose(self) -> ComposeResult:
        yield Static(id="puzzle-list-title")
        yield SafeOptionList(id="puzzle-list")
        yield Static(
            Text(f"{STAR} solved without a hint · {NO_STAR} solved · {UNSOLVED} not yet"),
            id="puzzle-list-note",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        progress = Progress()
        stars, solved = progress.stars(self.puzzles)
        name = variant_class(self.variant).name
        self.query_one("#puzzle-list-title", Static).update(
            Text.assemble(
                (f"{name} puzzles", "bold"),
                f"  {solved} of {len(self.puzzles)} solved, {STAR} {stars}",
            )
        )
        ol = self.query_one(OptionList)
        keep = ol.highlighted or 0
        ol.clear_options()
        for i, p in enumerate(self.puzzles, 1):
            t = Text()
            t.append(f"{star_mark(progress, p)} ", style="yellow")
            t.append(f"{i:>2}. ", style="bold")
            t.append(f"{'●' * p.difficulty}{'○' * (3 - p.difficulty)} ")
            t.append(f"{THEMES[p.theme]:<18}", style="cyan")
            t.append(p.text)
            ol.add_option(Option(t, id=p.id))
        ol.highlighted = min(keep, len(self.puzzles) - 1)
        ol.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    def open_puzzle(self, index: int) -> None:
        p = self.puzzles[index]
        view = PuzzleSeatView(p)
        self.app.push_screen(PuzzleTableScreen(view, self.puzzles, index))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        ids = [p.id for p in self.puzzles]
        if event.option.id in ids:
            self.open_puzzle(ids.index(event.option.id))


class PuzzleTableScreen(TableScreen):
    """A puzzle at the real table: the seat's view, the goal in the log and the title,
    the puzzle's hint on ``h``; the answer solves it, a wrong move says why it fails."""

    AUTO_PASS = False

    def __init__(self, view: PuzzleSeatView, puzzles: list[Puzzle], index: int) -> None:
        super().__init__(view)
        self.view = view
        self.puzzle = view.puzzle
        self.puzzles = puzzles
        self.index = index
        self.progress = Progress()
        self.announced = False
        self.tried = False
        p = self.puzzle
        view.banner = f"puzzle {index + 1} of {len(puzzles)} · {THEMES[p.theme]}"
        self.deal_in_title = False  # one position: "Deal 1" would say nothing

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self.show_message, "")

    def show_message(self, text: str, kind: str = "", error: bool = False) -> None:
        # with nothing else to say, the message line keeps the goal in view
        if not text and not self.view.solved:
            text, kind = f"Goal: {self.puzzle.text}", "goal"
        super().show_message(text, kind, error)

    def action_hint(self) -> None:
        if self.view.solved or self.decision is None:
            return
        self.view.hint_used = True
        self.show_message(self.puzzle.hint + " (No star with a hint.)", "hint")

    async def action_undo(self) -> None:
        self.show_message(self.view.can_undo() or "", "error")

    def action_leave(self, _shown: str = "") -> None:
        self.dismiss()

    def act(self, action: Action) -> None:
        before = self.view.wrong_tries
        super().act(action)
        if self.view.wrong_tries != before and not self.tried:
            self.tried = True
            self.progress.note_try(self.puzzle.id, self.view.hint_used)

    def after_change(self) -> None:
        super().after_change()
        if self.view.solved and not self.announced:
            self.announced = True
            record = self.progress.note_solved(self.puzzle.id, self.view.hint_used)
            last = self.index + 1 >= len(self.puzzles)

            def answer(choice: str | None) -> None:
                if choice == "next" and not last:
                    self.app.switch_screen(
                        PuzzleTableScreen(
                            PuzzleSeatView(self.puzzles[self.index + 1]),
                            self.puzzles,
                            self.index + 1,
                        )
                    )
                else:
                    self.dismiss()

            self.app.push_screen(
                SolvedDialog(self.puzzle, record.star and not self.view.hint_used, last), answer
            )


class SolvedDialog(ModalScreen[str]):
    """Solved: the star (or why none), then the next puzzle or the list."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("enter", "choose('next')", "Next puzzle", priority=True),
        Binding("escape,q", "choose('list')", "Puzzle list"),
    ]
    DEFAULT_CSS = """
    SolvedDialog { align: center middle; }
    #solved-box { width: 60; height: auto; border: round $success; padding: 1 2;
                  background: $surface; }
    #solved-buttons { height: auto; margin-top: 1; }
    #solved-buttons Button { margin-right: 1; }
    """

    def __init__(self, puzzle: Puzzle, star: bool, last: bool) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.star = star
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical(id="solved-box"):
            head = f"Solved! {STAR}" if self.star else "Solved (a hint was used: no star)."
            yield Static(Text(head, style="bold green"))
            yield Static(Text(self.puzzle.text, style="dim"))
            with Horizontal(id="solved-buttons"):
                if not self.last:
                    yield Button("Next puzzle (Enter)", id="next", variant="primary")
                yield Button("Puzzle list (Esc)", id="list")

    def action_choose(self, choice: str) -> None:
        self.dismiss("list" if self.last else choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "list")
