"""Screens between turns and deals: pass-to-player (hot-seat) and deal/match end; the
questions about saves (delete? another window has it open; a damaged save).

Player names and save reasons come from files: they are shown as plain ``Text`` (never
markup), already cleaned of control characters by the play layer."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Static

from ...play.session import Session


class PassScreen(Screen[None]):
    """Hides the whole table until the named player is at the keyboard."""

    BINDINGS = [Binding("enter", "ready", "I'm ready"), Binding("space", "ready", show=False)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-box"):
            yield Static(Text(f"Pass to {self.player_name}", style="bold"), id="pass-title")
            yield Static(
                Text(
                    "The table is hidden so nobody sees another player's hand.\n"
                    f"{self.player_name}: press Enter (or the button) when only you "
                    "can see the screen."
                ),
                id="pass-text",
            )
            with Center():
                yield Button(
                    Text(f"I am {self.player_name}: show my hand"), id="ready", variant="primary"
                )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#ready")
    def _ready(self) -> None:
        self.dismiss(None)


class DealEndScreen(ModalScreen[str]):
    """Each player's change and the totals; next deal, or play again / new game / home."""

    BINDINGS = [
        Binding("enter", "default", "Continue"),
        Binding("h", "choose('home')", "Home"),
        Binding("escape", "choose('home')", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        g = self.session.game
        r = g.last_result
        over = g.match_over
        with Vertical(id="end-box"):
            title = "Match over" if over else f"Deal {r.deal_number if r else g.deal_number} over"
            yield Static(Text(title, style="bold"), id="end-title")
            body = Text()
            if over:
                won = g.match_winners()
                winners = ", ".join(g.names[i] for i in won)
                body.append(
                    f"★ {winners} win{'s' if len(won) == 1 else ''} the match!\n\n", style="bold"
                )
            if r is not None:
                body.append(r.summary + "\n", style="bold")
                for line in r.details:
                    body.append(f"  {line}\n")
                body.append("\n")
                width = max([6] + [len(n) for n in g.names])
                body.append(f"{'Player':<{width}}  {'change':>7}  {g.score_label}\n", style="dim")
                for seat, name in enumerate(g.names):
                    ch = r.changes[seat] if seat < len(r.changes) else 0
                    body.append(f"{name:<{width}}  {ch:>+7}  {r.totals[seat]:>5}\n")
            target = g.target_text()
            if target:
                body.append(f"\n{target}", style="dim")
            with VerticalScroll(id="end-scroll"):
                yield Static(body, id="end-body")
            with Horizontal(id="end-buttons"):
                if over:
                    yield Button("Play again", id="again", variant="success")
                    yield Button("New game", id="new")
                else:
                    yield Button("Next deal", id="next", variant="success")
                yield Button("Home", id="home")

    def action_default(self) -> None:
        self.dismiss("again" if self.session.game.match_over else "next")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class ConfirmLeave(ModalScreen[bool]):
    """Leave the table? (The game is already saved.)"""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Leave"),
        Binding("n,escape", "answer(False)", "Stay"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(
                Text(
                    "Leave this table for the home screen?\n"
                    "The game is saved: Continue on the home screen picks it up."
                )
            )
            with Horizontal(id="confirm-buttons"):
                yield Button("Leave (y)", id="leave", variant="warning")
                yield Button("Stay (n)", id="stay")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")


class ConfirmDelete(ModalScreen[bool]):
    """Delete a saved game? Nothing is deleted without a yes."""

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
        self.query_one("#keep", Button).focus()  # Enter keeps: deleting takes a y

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "delete")


class SaveLockedDialog(ModalScreen[str]):
    """The save is open in another running twos-tui: open a copy, or go back."""

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

    BINDINGS = [
        Binding("m", "choose('move')", "Move aside"),
        Binding("d", "choose('delete')", "Delete"),
        Binding("escape", "choose('back')", "Back"),
    ]

    def __init__(self, name: str, problem: str, newer: bool = False) -> None:
        super().__init__()
        self.file_name = name
        self.problem = problem
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
