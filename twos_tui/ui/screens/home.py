"""Home: New game, Continue, Rules, Odds, Quit; the name and version."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from ... import __version__
from ...play.saves import list_saves

LOGO = """\
 ┌─────┐ ┌─────┐
 │2    │ │2    │
 │  ♠  │ │  ♥  │   t w o s - t u i
 │    2│ │    2│
 └─────┘ └─────┘"""


class HomeScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New game"),
        Binding("c", "continue_game", "Continue"),
        Binding("r", "rules", "Rules"),
        Binding("o", "odds", "Odds"),
        Binding("s", "stats", "Stats"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="home-box"):
            logo = Text(LOGO, style="bold")
            yield Static(logo, id="logo")
            yield Static(
                Text(f"version {__version__} · climbing and trick card games", style="dim"),
                id="version",
            )
            with Center(), Vertical(id="home-buttons"):
                yield Button("New game (n)", id="new", variant="primary")
                yield Button("Continue (c)", id="continue")
                yield Button("Rules (r)", id="rules")
                with Horizontal(id="home-pair"):
                    yield Button("Odds (o)", id="odds")
                    yield Button("Stats (s)", id="stats")
                yield Button("Quit (q)", id="quit", variant="error")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_saves()
        self.query_one("#new", Button).focus()

    def on_screen_resume(self) -> None:
        self.refresh_saves()

    def refresh_saves(self) -> None:
        self.query_one("#continue", Button).display = bool(list_saves())

    def action_new(self) -> None:
        self.app.open_picker()

    def action_continue_game(self) -> None:
        if list_saves():
            self.app.push_screen(ContinueScreen())

    def action_rules(self) -> None:
        self.app.push_screen(RulesListScreen())

    def action_odds(self) -> None:
        self.app.open_odds()

    def action_stats(self) -> None:
        self.app.open_stats()

    async def action_quit(self) -> None:
        self.app.exit(0)

    @on(Button.Pressed)
    async def _pressed(self, event: Button.Pressed) -> None:
        actions = {
            "new": self.action_new,
            "continue": self.action_continue_game,
            "rules": self.action_rules,
            "odds": self.action_odds,
            "stats": self.action_stats,
        }
        if event.button.id == "quit":
            self.app.exit(0)
        elif event.button.id in actions:
            actions[event.button.id]()


class ContinueScreen(Screen[None]):
    """Unfinished saved games, the latest first; Enter resumes one."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("d", "delete", "Delete save")]

    def compose(self) -> ComposeResult:
        yield Static(Text("Continue a saved game", style="bold"), id="continue-title")
        yield OptionList(id="saves")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        ol = self.query_one(OptionList)
        ol.clear_options()
        self.saves = list_saves()
        for s in self.saves:
            ol.add_option(Option(Text(s.describe()), id=s.save_id))
        if not self.saves:
            self.dismiss(None)
            return
        ol.highlighted = 0
        ol.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_delete(self) -> None:
        from ...play.saves import delete_save

        ol = self.query_one(OptionList)
        if ol.highlighted is not None and self.saves:
            delete_save(self.saves[ol.highlighted].save_id)
            self.reload()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        info = self.saves[event.option_index]
        self.app.resume(info)


class RulesListScreen(Screen[None]):
    """Every variant; Enter opens its help with the default house rules."""

    BINDINGS = [Binding("escape", "back", "Back")]

    def compose(self) -> ComposeResult:
        from ..variants import available_variants

        yield Static(Text("Rules: pick a game", style="bold"), id="rules-title")
        ol = OptionList(id="rules-list")
        for cls in available_variants():
            ol.add_option(
                Option(Text.assemble((cls.name, "bold"), f" — {cls.summary}"), id=cls.variant_id)
            )
        yield ol
        yield Footer()

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.highlighted = 0
        ol.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        from ...engine import new_game
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(new_game(event.option.id, seed=0)))
