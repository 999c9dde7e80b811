"""Helpers of the Pilot tests: what the screen shows, as text, and waiting for a human
turn. Reading the screen uses Textual's compositor (``render_strips``): tests only, never
the app."""

from __future__ import annotations

import random

from textual.widget import Widget

from twos_tui.engine import Game
from twos_tui.ui.screens.table import TableScreen


def screen_lines(app) -> list[str]:
    """Every line of the screen as the terminal would show it (text only)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app) -> str:
    return "\n".join(screen_lines(app))


def region_text(app, widget: Widget) -> str:
    """The part of the screen ``widget`` covers, without the side borders of the panels
    in it (so that wrapped text reads on with :func:`flat`)."""
    r = widget.region
    lines = screen_lines(app)[r.y : r.y + r.height]
    return "\n".join(line[r.x : r.x + r.width].strip().strip("│").strip() for line in lines)


def flat(text: str) -> str:
    """Whitespace (line breaks of wrapping included) squeezed to single spaces."""
    return " ".join(text.split())


def ai_idle(screen) -> bool:
    return not getattr(screen, "ai_busy", getattr(screen, "_ai_running", False))


async def wait_for_human(pilot, steps: int = 300) -> TableScreen:
    """Let the AI seats play until the human seat on screen is asked something."""
    app = pilot.app
    for _ in range(steps):
        await pilot.pause()
        s = app.screen
        if isinstance(s, TableScreen) and s._decision is not None and ai_idle(s):
            await pilot.pause()
            return s
    raise AssertionError(f"no human turn; on {app.screen!r}")


def play_until(game: Game, done, rng: random.Random | None = None, limit: int = 2000) -> None:
    """Play legal actions at random (engine only) until ``done(game)``."""
    rng = rng or random.Random(0)
    for _ in range(limit):
        if done(game):
            return
        if game.deal_over:
            raise AssertionError("the deal ended first")
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("not reached")


async def press_hint(pilot) -> None:
    """``h``, then wait for the hint: a hard hint is searched for on a thread."""
    await pilot.press("h")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
