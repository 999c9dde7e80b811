"""Help: the rules of the game as chosen (house rules included), the keys and a worked
example, from the Markdown files shipped in ``twos_tui/ui/help``. Each game's page links
its lesson (``l``, or the link at the end of the page)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, TabbedContent, TabPane

from ..chrome import KeyBar, SafeHeader
from ..helptext import help_markdown, keys_markdown
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app

if TYPE_CHECKING:
    from ...engine import Game


class HelpScreen(Screen[None]):
    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("r", "tab('rules')", "Rules"),
        Binding("k", "tab('keys')", "Keys"),
        Binding("o", "odds", "Odds"),
        Binding("l", "learn", "Lesson", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "tab('keys')", show=False),
    ]

    def __init__(self, game: Game | None, tab: str = "rules") -> None:
        """``game``: whose rules (``None``: the keys only, as F1 opens them away from a
        table); ``tab``: the tab shown first, ``"rules"`` or ``"keys"``."""
        super().__init__()
        self.game = game
        self.first_tab = tab if game is not None else "keys"

    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="?")
        with TabbedContent(initial=self.first_tab):
            if self.game is not None:
                with (
                    TabPane(f"{self.game.name} rules", id="rules"),
                    VerticalScroll(id="rules-scroll"),
                ):
                    yield Markdown(help_markdown(self.game), id="rules-md", open_links=False)
            with TabPane("Keys", id="keys"), VerticalScroll(id="keys-scroll"):
                yield Markdown(keys_markdown(), id="keys-md", open_links=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.title = f"Help: {self.game.name}" if self.game is not None else "Help: keys"
        self.query_one(f"#{self.first_tab}-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#{tab}-scroll").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "odds":  # bomb odds matter in Twos only
            return self.game is not None and self.game.variant_id == "twos"
        if action == "tab" and parameters == ("rules",):
            return self.game is not None
        if action == "learn":  # the keys help (F1) away from a game has no lesson
            return self.game is not None
        return True

    def action_odds(self) -> None:
        twos_app(self).open_odds(self.game)

    def action_learn(self) -> None:
        """This game's lesson (the help page links it)."""
        if self.game is not None:
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
