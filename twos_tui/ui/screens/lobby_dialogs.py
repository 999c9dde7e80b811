"""The lobby's smaller views: quick match (game, players, how long to wait before AI
fills the table), a game's leaderboard (live), the code of a private table, and an SSH
door guest's "End the session?"."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from ...engine import variant_class
from ...play.lobby.model import LobbyState, QuickMatch
from ..chrome import KeyBar, focus_first
from ..lobby_text import game_name, rating_text
from ..screen_css import SCREENS_CSS
from ..variants import available_variants

#: how long a quick match waits for people before AI takes the empty seats
WAITS: tuple[tuple[str, float], ...] = (
    ("At once", 0.0),
    ("After 30 s", 30.0),
    ("After 2 min", 120.0),
)
DEFAULT_WAIT = 30.0


def game_choices() -> list[tuple[Text, str]]:
    return [(Text(c.name), c.variant_id) for c in available_variants()]


def player_choices(game: str) -> list[tuple[Text, int]]:
    return [(Text(str(n)), n) for n in variant_class(game).player_counts]


class QuickMatchScreen(ModalScreen[QuickMatch | None]):
    """Quick match: "seat me at the next table of this game for this many players"."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "start", "Find a game"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        cls = variant_class(self.game)
        with Vertical(id="quick-box", classes="lobby-box"):
            yield Static(Text("Quick match", style="bold"), classes="lobby-box-title")
            yield Static(
                Text(
                    "You wait with the others who asked for the same game; when the wait "
                    "is over, AI players take the seats still empty.",
                    style="dim",
                )
            )
            with Horizontal(classes="row"):
                yield Label("Game", classes="row-label")
                yield Select(
                    game_choices(),
                    id="quick-game",
                    allow_blank=False,
                    compact=True,
                    value=self.game,
                )
            with Horizontal(classes="row"):
                yield Label("Players", classes="row-label")
                yield Select(
                    player_choices(self.game),
                    id="quick-players",
                    allow_blank=False,
                    compact=True,
                    value=cls.default_players,
                )
            with Horizontal(classes="row"):
                yield Label("AI fills", classes="row-label")
                yield Select(
                    [(Text(label), s) for label, s in WAITS],
                    id="quick-wait",
                    allow_blank=False,
                    compact=True,
                    value=DEFAULT_WAIT,
                )
            with Horizontal(classes="lobby-buttons"):
                yield Button("Find a game", id="quick-start", variant="success", compact=True)
                yield Button("Back (Esc)", id="quick-cancel", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        focus_first(self, "#quick-game")

    @on(Select.Changed, "#quick-game")
    def _game(self, event: Select.Changed) -> None:
        game = event.value
        if not isinstance(game, str) or game == self.game:
            return
        self.game = game
        players = self.query_one("#quick-players", Select)
        players.set_options(player_choices(game))
        players.value = variant_class(game).default_players

    def chosen(self) -> QuickMatch:
        players = self.query_one("#quick-players", Select).value
        wait = self.query_one("#quick-wait", Select).value
        return QuickMatch(
            self.game,
            players if isinstance(players, int) else variant_class(self.game).default_players,
            float(wait) if isinstance(wait, int | float) else DEFAULT_WAIT,
        )

    @on(Button.Pressed, "#quick-start")
    def action_start(self) -> None:
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#quick-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class LeaderboardScreen(ModalScreen[None]):
    """A game's leaderboard: rank, name, rating, matches; the player's own row marked.
    Left and right go to the other games; it follows the lobby's updates."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        Binding("escape", "close", "Back"),
        # (before the table's own left and right, which have no columns to move across)
        Binding("left", "game(-1)", "Game before", priority=True),
        Binding("right", "game(1)", "Next game", priority=True),
    ]

    def __init__(self, games: list[str], game: str) -> None:
        super().__init__()
        self.games = games
        self.game = game
        self.state: LobbyState | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="leaderboard-box", classes="lobby-box"):
            yield Static(id="leaderboard-title", classes="lobby-box-title")
            table: DataTable[Text] = DataTable(
                id="leaderboard", cursor_type="row", zebra_stripes=True
            )
            yield table
            yield Static(id="leaderboard-note")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#leaderboard", DataTable)
        for label, key in (("Rank", "rank"), ("Name", "name"), ("Rating", "rating")):
            table.add_column(label, key=key)
        table.add_column("Matches", key="matches")
        self.fill()
        table.focus()

    def show(self, state: LobbyState) -> None:
        self.state = state
        if self.is_mounted:
            self.fill()

    def rows(self) -> list[tuple[int, str, float, int]]:
        if self.state is None:
            return []
        found = dict(self.state.leaderboards).get(self.game, ())
        return [(r.rank, r.name, r.rating, r.matches) for r in found]

    def fill(self) -> None:
        title = Text("Leaderboard · ", style="bold")
        title.append(game_name(self.game), style="bold")
        i = self.games.index(self.game) if self.game in self.games else 0
        title.append(f"   ({i + 1} of {len(self.games)}: ← → other games)", style="dim")
        self.query_one("#leaderboard-title", Static).update(title)
        table = self.query_one("#leaderboard", DataTable)
        keep = table.cursor_row
        table.clear()
        me = self.state.me.name if self.state is not None else None
        rows = self.rows()
        for rank, name, rating, matches in rows:
            mine = name == me
            cell = Text(("▸ " if mine else "  ") + name, style="bold" if mine else "")
            if mine:
                cell.append(" (you)")
            table.add_row(
                Text(f"#{rank}", justify="right"),
                cell,
                Text(rating_text(rating), justify="right"),
                Text(str(matches), justify="right"),
                key=name,
            )
        if rows:
            table.move_cursor(row=min(keep, len(rows) - 1), animate=False)
        note = self.query_one("#leaderboard-note", Static)
        if self.state is None:
            note.update(Text("Waiting for the lobby…", style="italic"))
        elif not rows:
            note.update(Text(f"No rated match of {game_name(self.game)} yet.", style="italic"))
        elif me is not None and all(name != me for _, name, _, _ in rows):
            note.update(Text("You are not on this leaderboard yet.", style="dim"))
        else:
            note.update("")

    def action_game(self, step: int) -> None:
        i = self.games.index(self.game) if self.game in self.games else 0
        self.game = self.games[(i + step) % len(self.games)]
        self.fill()

    def action_close(self) -> None:
        self.dismiss(None)


class CodeDialog(ModalScreen[str | None]):
    """The code of a private table, asked before sitting there."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id

    def compose(self) -> ComposeResult:
        with Vertical(id="code-box", classes="lobby-box"):
            yield Static(
                Text(f"Table {self.table_id} is private", style="bold"),
                classes="lobby-box-title",
            )
            yield Static(Text("Type the code its players gave you.", style="dim"))
            with Horizontal(classes="row"):
                yield Label("Code", classes="row-label")
                yield Input(placeholder="join code", id="code-input", max_length=40, compact=True)
            with Horizontal(classes="lobby-buttons"):
                yield Button("Sit down", id="code-ok", variant="success", compact=True)
                yield Button("Back (Esc)", id="code-cancel", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        focus_first(self, "#code-input")

    @on(Input.Submitted)
    @on(Button.Pressed, "#code-ok")
    def _ok(self) -> None:
        code = self.query_one("#code-input", Input).value.strip()
        if code:
            self.dismiss(code)

    @on(Button.Pressed, "#code-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmEndSession(ModalScreen[bool]):
    """An SSH door's guest leaving its lobby: "End the session?" Leaving ends the
    connection, so it takes a yes; Enter answers with the focused button, which is "No",
    and Esc or ``n`` says no."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("y", "answer(True)", "End session"),
        Binding("n,escape", "answer(False)", "Stay"),
        Binding("left,right", "app.focus_next", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text("End the session?\nYou leave the lobby and the connection closes."))
            with Horizontal(id="confirm-buttons"):
                yield Button("No (n)", id="no", variant="primary")
                yield Button("Yes (y)", id="yes", variant="warning")
        yield KeyBar()

    def on_mount(self) -> None:
        focus_first(self, "#no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
