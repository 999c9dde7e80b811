"""The questions about saves, asked from the Continue list and when a game is opened:
delete this save? another window has it open; a damaged save (or one from a newer
version). They need neither the engine nor the table, so the Continue list opens them
without importing either.

A save's name and problem come from files: they are shown as plain ``Text`` (never
markup), cleaned of control characters."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...play.names import clean_text
from ..chrome import focus_first
from ..screen_css import SCREENS_CSS


class ConfirmDelete(ModalScreen[bool]):
    """Delete a saved game? Nothing is deleted without a yes."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("y", "answer(True)", "Delete"),
        Binding("n,escape", "answer(False)", "Keep"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            text = Text("Delete this saved game for good?\n\n", style="bold")
            text.append(self.what, style="not bold")
            text.append("\n\nIt cannot be brought back.", style="not bold")
            yield Static(text, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Delete (y)", id="delete", variant="error")
                yield Button("Keep (n)", id="keep", variant="primary")

    def on_mount(self) -> None:
        focus_first(self, "#keep")  # Enter keeps: deleting takes a y

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "delete")


class SaveLockedDialog(ModalScreen[str]):
    """The save is open in another running twos-tui: open a copy, or go back."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("c", "choose('copy')", "Open a copy"),
        Binding("escape,b", "choose('back')", "Back"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text("This game is already open", style="bold"))
            yield Static(
                Text(
                    f"{self.message}\n\nOpen a copy to play it from here as a new save "
                    "(the other window keeps the original), or go back."
                ),
                id="locked-text",
            )
            with Horizontal(id="confirm-buttons"):
                yield Button("Open a copy (c)", id="copy", variant="primary")
                yield Button("Back (esc)", id="back")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class DamagedSaveDialog(ModalScreen[str]):
    """A save that cannot be opened: why, and what can be done with it."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("m", "choose('move')", "Move aside"),
        Binding("d", "choose('delete')", "Delete"),
        Binding("escape", "choose('back')", "Back"),
    ]

    def __init__(self, name: str, problem: str, newer: bool = False) -> None:
        super().__init__()
        # what a file holds or is called reaches the screen cleaned of escape codes
        self.file_name = clean_text(name, 120)
        self.problem = clean_text(problem, 400)
        self.newer = newer

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            title = "Saved by a newer twos-tui" if self.newer else "This save cannot be opened"
            yield Static(Text(title, style="bold"))
            body = Text(f"{self.file_name}: {self.problem}.")
            if self.newer:
                body.append("\n\nIt is kept as it is; this version never writes over it.")
            else:
                body.append(
                    "\n\nMove it aside to the damaged/ folder (its bytes are kept, "
                    "nothing there is ever overwritten), or delete it."
                )
            yield Static(body, id="damaged-text")
            with Horizontal(id="confirm-buttons"):
                if not self.newer:
                    yield Button("Move aside (m)", id="move", variant="warning")
                    yield Button("Delete (d)", id="delete", variant="error")
                yield Button("Back (esc)", id="back", variant="primary")

    def action_choose(self, choice: str) -> None:
        if self.newer and choice != "back":
            return
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)
