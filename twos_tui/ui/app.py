"""The Textual app. ``twos-tui`` opens the home screen; ``twos-tui play VARIANT`` opens a
table directly. :func:`make_app` builds a deterministic app for tests and screenshots."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

from ..engine import Game, variant_class
from ..play import saves
from ..play import settings as settings_file
from ..play.saves import SaveInfo
from ..play.session import Session, default_seats
from .screens.home import HomeScreen

AI_PAUSE: float | None = None  #: None: the pace chosen in the picker (see play.settings)


class TwosApp(App[int]):
    CSS_PATH = "app.tcss"
    _theme_cache: tuple[str, Any] | None = None
    TITLE = "twos-tui"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        variant: str | None = None,
        players: int | None = None,
        seed: int | None = None,
        ai_pause: float | None = AI_PAUSE,
        autosave: bool = True,
        session: Session | None = None,
    ) -> None:
        super().__init__()
        self.start_variant = variant
        self.start_players = players
        self.start_seed = seed
        #: seconds before each AI move; None: the pace from the settings; 0: the AI
        #: decides at once on the event loop (tests: every move in order, no threads)
        self.ai_pause = ai_pause
        self.autosave = autosave
        self.start_with = session
        self.settings = settings_file.load()

    # ----- settings ---------------------------------------------------------------------
    @property
    def ai_sync(self) -> bool:
        return self.ai_pause == 0

    def pace(self) -> tuple[float, float]:
        """(seconds before an AI move, seconds a finished trick stays before the next
        lead)."""
        if self.ai_pause is not None:
            return (self.ai_pause, 2 * self.ai_pause)
        return self.settings.pace()

    def save_settings(self) -> None:
        problem = settings_file.save(self.settings)
        if problem:
            self.notify(problem, severity="warning")

    def remember_sort(self, variant_id: str, sort_by: str) -> None:
        self.settings.sort[variant_id] = sort_by
        self.save_settings()

    def watch_theme(self, theme: str) -> None:
        self._theme_cache = None
        if self.is_running and theme != self.settings.theme:
            self.settings.theme = theme
            self.save_settings()

    # ----- themes -----------------------------------------------------------------------
    @property
    def current_theme(self):
        """Textual looks the theme up for every rendered line, copying the theme table
        each time; keep the answer until the theme changes or a theme is (un)registered
        (public API only: ``register_theme``/``unregister_theme`` are overridden)."""
        name = self.theme
        cached = self._theme_cache
        if cached is None or cached[0] != name:
            cached = self._theme_cache = (name, super().current_theme)
        return cached[1]

    def register_theme(self, theme) -> None:
        super().register_theme(theme)
        self._theme_cache = None

    def unregister_theme(self, theme_name: str) -> None:
        super().unregister_theme(theme_name)
        self._theme_cache = None

    def on_unmount(self) -> None:
        saves.WRITER.flush()  # the last autosave is on disk before the app is gone

    def on_mount(self) -> None:
        if self.settings.theme and self.settings.theme in self.available_themes:
            self.theme = self.settings.theme  # the theme chosen last time
        self.push_screen(HomeScreen())
        if self.start_with is not None:
            self.start_session(self.start_with)
        elif self.start_variant is not None:
            self.start_session(
                Session.start(
                    self.start_variant,
                    None,
                    self.start_players,
                    None,
                    self.start_seed,
                    autosave=self.autosave,
                )
            )

    # ----- navigation -------------------------------------------------------------------
    def go_home(self) -> None:
        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def start_session(self, session: Session) -> None:
        from .screens.table import TableScreen

        self.go_home()
        self.push_screen(TableScreen(session))

    def resume(self, info: SaveInfo) -> None:
        self.start_session(Session.resume(info))

    def open_picker(self, variant: str | None = None) -> None:
        from .screens.picker import PickerScreen

        self.go_home()
        self.push_screen(PickerScreen(variant))

    def open_help(self, game: Game | None = None) -> None:
        from .screens.help import HelpScreen
        from .screens.table import TableScreen

        if game is None and isinstance(self.screen, TableScreen):
            game = self.screen.game
        if game is None:
            from .screens.home import RulesListScreen

            self.push_screen(RulesListScreen())
        else:
            self.push_screen(HelpScreen(game))

    def open_odds(self, game: Game | None = None) -> None:
        from .odds_screen import OddsScreen

        hand_size = 13
        if game is not None and game.variant_id == "twos":
            hand = game.options.get("hand_size")
            if isinstance(hand, int):
                hand_size = hand
            elif hasattr(game, "hand_size"):
                hand_size = int(game.hand_size)
        self.push_screen(OddsScreen(hand_size=hand_size))

    # ----- command palette --------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from .screens.table import TableScreen
        from .variants import available_variants

        yield from super().get_system_commands(screen)
        for cls in available_variants():
            yield SystemCommand(
                f"New game: {cls.name}", cls.summary, lambda v=cls.variant_id: self.open_picker(v)
            )
        yield SystemCommand("Help", "Rules, keys and a worked example", self.open_help)
        yield SystemCommand(
            "Odds",
            "Chances of every bomb shape in a dealt hand",
            lambda: self.open_odds(getattr(screen, "game", None)),
        )
        yield SystemCommand("Home", "Back to the home screen (games are saved)", self.go_home)
        if isinstance(screen, TableScreen):
            yield SystemCommand("Sort hand", "Sort by rank or by suit", screen.action_sort)


def make_app(
    variant: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    ai_pause: float | None = AI_PAUSE,
    autosave: bool = True,
    session: Session | None = None,
) -> TwosApp:
    """Build the app (tests pass a fixed seed and ``ai_pause=0``)."""
    return TwosApp(variant, players, seed, ai_pause, autosave, session)


def run_app(variant: str | None = None, players: int | None = None, seed: int | None = None) -> int:
    """Run the app in the terminal; the exit status for the command line."""
    if variant is not None:
        try:
            cls = variant_class(variant)
            players = players or cls.default_players
            if players not in cls.player_counts:
                raise ValueError(
                    f"{cls.name} is for "
                    f"{', '.join(map(str, cls.player_counts))} players, not {players}"
                )
            default_seats(players)
        except ValueError as e:
            print(f"twos-tui: {e}", file=sys.stderr)
            return 2
    try:
        result = make_app(variant, players, seed).run()
    finally:
        saves.WRITER.flush()
    return result or 0
