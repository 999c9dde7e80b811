"""Help: the rules of the game as chosen (house rules included), the keys and a worked
example, from the Markdown files shipped in ``twos_tui/ui/help``. Each game's page links
its lesson (``l``, or the link at the end of the page)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, TabbedContent, TabPane

from ...engine import Game
from ..helptext import help_markdown, keys_markdown
from ..typed_app import twos_app
from ..widgets import KeyBar, SafeHeader


class HelpScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("r", "tab('rules')", "Rules"),
        Binding("k", "tab('keys')", "Keys"),
        Binding("o", "odds", "Odds"),
        Binding("l", "learn", "Lesson", show=False),
        Binding("question_mark", "close", show=False),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="?")
        with TabbedContent(initial="rules"):
            with TabPane(f"{self.game.name} rules", id="rules"), VerticalScroll(id="rules-scroll"):
                yield Markdown(help_markdown(self.game), id="rules-md", open_links=False)
            with TabPane("Keys", id="keys"), VerticalScroll(id="keys-scroll"):
                yield Markdown(keys_markdown(), id="keys-md", open_links=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.title = f"Help: {self.game.name}"
        self.query_one("#rules-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#{tab}-scroll").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "odds":
            return self.game.variant_id == "twos"  # bomb odds matter in Twos only
        return True

    def action_odds(self) -> None:
        twos_app(self).open_odds(self.game)

    def action_learn(self) -> None:
        """This game's lesson (the help page links it)."""
        twos_app(self).open_learn(self.game.variant_id)

    @on(Markdown.LinkClicked)
    def _link(self, event: Markdown.LinkClicked) -> None:
        href = event.href
        if href.startswith("learn:"):
            event.prevent_default()
            twos_app(self).open_learn(href.split(":", 1)[1])

    @on(TabbedContent.TabActivated)
    def _tab(self, event: TabbedContent.TabActivated) -> None:
        pane = event.pane.id
        if pane:
            self.query_one(f"#{pane}-scroll").focus()
