"""First-game tips at the table (:mod:`twos_tui.ui.tips`): when the seat at the screen
comes to a moment a tip is for, and the tip has not been shown yet, a small box says
it; Enter (or Esc) closes it, ``n`` turns tips off, ``?`` and F1 open the help over it
(the rules, the keys: as at the table) and the tip is still there when the help is
closed. Each tip is shown once, then kept in
the settings as seen. A spectator's tip is a note in the corner that goes by itself (their table
does not wait for them). Tips are off at a demo, in lessons, and wherever the app was built
without them (tests and screenshots: ``make_app(tips=False)``, the default there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..screen_css import SCREENS_CSS
from ..tips import moments_for_news, moments_for_turn, tip_id, tip_text

if TYPE_CHECKING:
    from .table import TableScreen

#: how long a tip stays up for a spectator (a note in the corner, not a box to close)
SPECTATOR_TIP_S = 12.0


class TipDialog(ModalScreen[str]):
    """One tip: "ok" (Enter, Esc, the button) or "off" (n: no more tips). ``?`` opens
    the help of ``game`` (its rules) and F1 its keys, over the tip, as they do at the
    table: the tip waits under the help for its answer."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("enter,escape,space", "answer('ok')", "Got it"),
        Binding("n", "answer('off')", "No more tips"),
        Binding("question_mark", "help('rules')", "Help", key_display="?"),
        Binding("f1", "help('keys')", "Keys help", show=False),
    ]

    def __init__(self, title: str, text: str, game: Any = None) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.game = game  #: whose rules ``?`` shows (the table's)

    def compose(self) -> ComposeResult:
        with Vertical(id="tip-box"):
            yield Static(Text("Tip: " + self.title_text, style="bold"), id="tip-title")
            yield Static(Text(self.text), id="tip-text")
            with Horizontal(id="tip-buttons"):
                yield Button("Got it (Enter)", id="ok", variant="primary", compact=True)
                yield Button("No more tips (n)", id="off", compact=True)

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)

    def action_help(self, tab: str) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.game, tab=tab))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "ok")


class TipCoach:
    """Decides when a tip is due at this table and shows it."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.seen_news = len(screen.game.history)
        self.showing = False
        self.enabled = True  #: off for a lesson's table

    def settings(self) -> Any:
        app = self.screen.app
        if not getattr(app, "tips", False):
            return None
        return getattr(app, "settings", None)

    def check(self) -> None:
        """After every change: a tip for news on the table, or for the turn now."""
        screen = self.screen
        g = screen.game
        news = g.history[self.seen_news :] if self.seen_news <= len(g.history) else []
        self.seen_news = len(g.history)
        st = self.settings()
        if st is None or not self.enabled or screen.demo or self.showing:
            return
        variant = g.variant_id
        moments = moments_for_news(variant, news)
        seat = screen.viewer
        d = screen.decision
        if seat is not None and d is not None:
            obs = g.observation(seat)
            legal = g.legal_actions(seat)
            moments += moments_for_turn(variant, obs, d, legal)
        for m in moments:
            tid = tip_id(variant, m)
            found = tip_text(variant, m)
            if found is not None and st.tip_due(tid):
                self.show(tid, *found)
                return

    def show(self, tid: str, title: str, text: str) -> None:
        screen = self.screen
        app: Any = screen.app
        app.settings.tip_shown(tid)
        app.save_settings()
        if screen.spectator:
            # a spectator's table goes on without them: a tip must not cover it until a
            # key is pressed, so it comes as a note in the corner that goes by itself
            app.notify(text, title=f"Tip: {title}", timeout=SPECTATOR_TIP_S, markup=False)
            return
        self.showing = True

        def answer(choice: str | None) -> None:
            self.showing = False
            if choice == "off":
                app.settings.tips = False
                app.save_settings()
                app.notify("Tips are off. Learn on the home screen turns them back on.")

        app.push_screen(TipDialog(title, text, screen.table.rules), answer)
