"""The command palette's commands (ctrl+p): the app's own, and at a table those of the
table; and the settings some of them cycle through (the AI's pace, the trick pause, the
hints' level), each changed at once and kept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

from ..play import settings as settings_file

if TYPE_CHECKING:
    from ..engine import Game
    from .app import TwosApp


def palette_commands(app: TwosApp, screen: Screen[object]) -> Iterator[SystemCommand]:
    """The commands twos-tui adds to Textual's on ``screen``."""
    from .screens.table import TableScreen
    from .variants import available_variants

    # an SSH door's guest plays the table it came for, nothing else on this computer
    guest = app.exit_on_leave
    for cls in () if guest else available_variants():
        yield SystemCommand(
            f"New game: {cls.name}", cls.summary, lambda v=cls.variant_id: app.open_picker(v)
        )
    yield SystemCommand("Help", "Rules, keys and a worked example", app.open_help)
    if not guest:
        yield SystemCommand(
            "Odds",
            "Chances of every bomb shape in a dealt hand",
            lambda: app.open_odds(game_on(screen)),
        )
        yield SystemCommand(
            "Statistics",
            "Your results per game; replay or export recorded deals",
            lambda: app.open_stats(variant_on(screen)),
        )
        yield SystemCommand("Home", "Back to the home screen (games are saved)", app.go_home)
        yield SystemCommand(
            "Learn", "A short guided lesson for each game, played at the table", app.open_learn
        )
        yield SystemCommand(
            "Tips: show them all again",
            "First-game tips come back, each once, at the moment it is for (kept)",
            app.tips_back_on,
        )
    on = app.settings.four_colour
    yield SystemCommand(
        f"Four-colour deck: {'on → off' if on else 'off → on'}",
        "Each suit its own colour: ♠ black, ♥ red, ♦ blue, ♣ green (kept with the theme)",
        app.toggle_four_colour,
    )
    if isinstance(screen, TableScreen):
        yield SystemCommand("Sort hand", "Sort by rank or by suit", screen.action_sort)
        yield SystemCommand(
            "Undo (ctrl+z)",
            "Take back your last move (not at a table shared with other players)",
            screen.action_undo,
        )
        yield SystemCommand("Log (l)", "Every move of this deal so far", screen.action_show_log)
        word = screen.trick_word
        yield SystemCommand(
            f"Last {word} (t)",
            f"Who played what in the last {word} finished, and who won it",
            screen.action_last_trick,
        )
        pace = app.settings.ai_pace
        after = next_pace(pace)
        yield SystemCommand(
            f"AI pace: {pace} → {after}",
            f"{settings_file.PACE_LABELS[after]} (kept for next time)",
            lambda: cycle_pace(app),
        )
        hold = app.settings.trick_pause
        other = next_trick_pause(hold)
        short = {"pace": "a moment", "key": "until a key"}
        yield SystemCommand(
            f"Trick pause: {short.get(hold, hold)} → {short.get(other, other)}",
            "How long a finished trick stays before an AI plays on (kept for next time)",
            lambda: cycle_trick_pause(app),
        )
        hints = app.settings.hint_level
        yield SystemCommand(
            f"Hints from: {hints} → {next_hint_level(hints)}",
            "Which AI level suggests your move when you press h (kept for next time)",
            lambda: cycle_hint_level(app),
        )


def game_on(screen: Screen[object]) -> Game | None:
    """The rules of the game ``screen`` is about: a table's, or those its help or its tip
    shows; ``None`` on a screen of no game."""
    from ..engine import Game
    from ..play.seat_view import SeatView

    game = getattr(screen, "game", None)
    if isinstance(game, SeatView):
        return game.rules
    return game if isinstance(game, Game) else None


def variant_on(screen: Screen[object]) -> str | None:
    """The variant id of the game ``screen`` is about, if any."""
    game = game_on(screen)
    return game.variant_id if game is not None else None


def next_pace(pace: str) -> str:
    order = list(settings_file.PACES)
    return order[(order.index(pace) + 1) % len(order)] if pace in order else order[0]


def cycle_pace(app: TwosApp) -> None:
    """The AI's pace, the next of instant, normal, slow: at once, and kept."""
    app.settings.ai_pace = next_pace(app.settings.ai_pace)
    app.save_settings()
    app.notify(f"AI pace: {settings_file.PACE_LABELS[app.settings.ai_pace]}")


def next_hint_level(level: str) -> str:
    from ..ai import HINT_LEVELS

    order = list(HINT_LEVELS)
    return order[(order.index(level) + 1) % len(order)] if level in order else order[-1]


def cycle_hint_level(app: TwosApp) -> None:
    """The level hints come from, the next of normal, hard: at once, and kept."""
    app.settings.hint_level = next_hint_level(app.settings.hint_level)
    app.save_settings()
    app.notify(f"Hints now come from the {app.settings.hint_level} AI")


def next_trick_pause(hold: str) -> str:
    order = list(settings_file.TRICK_PAUSES)
    return order[(order.index(hold) + 1) % len(order)] if hold in order else order[0]


def cycle_trick_pause(app: TwosApp) -> None:
    """How long a finished trick stays: the other choice, at once, and kept."""
    app.settings.trick_pause = next_trick_pause(app.settings.trick_pause)
    app.save_settings()
    label = settings_file.TRICK_PAUSE_LABELS[app.settings.trick_pause]
    app.notify(f"A finished trick stays: {label.lower()}")
