"""The app's settings and themes (a layer of :class:`~twos_tui.ui.app.TwosApp`): the AI's
pace, the trick pause, the sort order and the theme kept in the settings file, the
four-colour deck and the first-game tips."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App
from textual.theme import Theme

from ..play import settings as settings_file
from . import cardart

if TYPE_CHECKING:
    from ..play.settings import Settings


class SettingsApp(App[int]):
    """What the player chose, kept in the settings file (``TwosApp.__init__`` loads it)."""

    _theme_cache: tuple[str, Theme] | None = None
    #: the settings as loaded at the start and changed since (each change is saved)
    settings: Settings
    #: seconds before each AI move; None: the pace from the settings; 0: the AI
    #: decides at once on the event loop (tests: every move in order, no threads)
    ai_pause: float | None

    @property
    def ai_sync(self) -> bool:
        return self.ai_pause == 0

    def pace(self) -> tuple[float, float]:
        """(seconds before an AI move, seconds a finished trick stays before the next
        lead)."""
        if self.ai_pause is not None:
            return (self.ai_pause, 2 * self.ai_pause)
        return self.settings.pace()

    def trick_hold(self) -> float | None:
        """Seconds a finished trick (or a 2v1 hand) stays on a table with a person before
        an AI plays on; None: until a key (the "Trick pause" setting)."""
        if self.ai_pause is not None:
            return 2 * self.ai_pause
        return self.settings.trick_hold()

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
    def current_theme(self) -> Theme:
        """Textual looks the theme up for every rendered line, copying the theme table
        each time; keep the answer until the theme changes or a theme is (un)registered
        (public API only: ``register_theme``/``unregister_theme`` are overridden)."""
        name = self.theme
        cached = self._theme_cache
        if cached is None or cached[0] != name:
            cached = self._theme_cache = (name, super().current_theme)
        return cached[1]

    def register_theme(self, theme: Theme) -> None:
        super().register_theme(theme)
        self._theme_cache = None

    def unregister_theme(self, theme_name: str) -> None:
        super().unregister_theme(theme_name)
        self._theme_cache = None

    def toggle_four_colour(self) -> None:
        """The four-colour deck on or off: at once on every card shown, and kept."""
        self.settings.four_colour = not self.settings.four_colour
        cardart.set_four_colour(self.settings.four_colour)
        self.save_settings()
        for screen in self.screen_stack:
            for widget in screen.walk_children():
                widget.refresh()
            screen.refresh()

    def tips_back_on(self) -> None:
        """Every first-game tip is shown again, once (a setting, kept)."""
        self.settings.tips_back_on()
        self.save_settings()
        self.notify("Tips are on: each shows once more, at the moment it is for.")
