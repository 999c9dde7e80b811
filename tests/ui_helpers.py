"""Helpers of the Pilot tests: what the screen shows, as text, and waiting for a state
(a human turn, a screen, a condition). Reading the screen uses Textual's compositor
(``render_strips``): tests only, never the app.

On a busy machine ``pilot.pause()`` returns as soon as the app's process *looks* idle,
which it does whenever other processes have the CPU: a fixed number of pauses is no wait
at all. Wait for the state instead (:func:`wait_for`, :func:`wait_for_screen`,
:func:`settled_picker`), with a bound that fails saying what never came."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from textual.widget import Widget

from twos_tui.engine import Game
from twos_tui.play.session import Session
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


#: how long a wait may take before the test fails: generous, for a machine whose cores are
#: all busy (a wait that holds returns as soon as it does)
WAIT_S = 60.0

S = TypeVar("S")


async def wait_for(pilot, condition: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Let the app run (``pilot.pause()``) until ``condition()`` is true, and return its
    value; fail after ``timeout`` seconds saying ``what`` was awaited and which screen was
    up. Exceptions of the condition (a widget not there yet) count as not yet."""
    deadline = time.monotonic() + timeout
    while True:
        error: Exception | None = None
        try:
            value = condition()
        except Exception as e:  # a query before the widget is mounted, and the like
            value, error = None, e
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"waited {timeout:.0f} s for {what}; the screen is {pilot.app.screen!r}"
                + (f"; the check last raised {error!r}" if error else "")
            ) from error
        await pilot.pause()


async def polls(pilot, what: str, timeout: float = WAIT_S) -> AsyncIterator[None]:
    """For a loop that acts as it waits (answer each dialog until ...): each turn pauses
    once; the loop fails after ``timeout`` seconds saying ``what`` it waited for.

        async for _ in polls(pilot, "the match's end"):
            if done():
                break
            ...
    """
    deadline = time.monotonic() + timeout
    while True:
        await pilot.pause()
        yield
        if time.monotonic() > deadline:
            raise AssertionError(
                f"waited {timeout:.0f} s for {what}; the screen is {pilot.app.screen!r}"
            )


async def wait_for_text(
    pilot, *needles: str, where: Callable[[], str] | None = None, timeout: float = WAIT_S
) -> str:
    """Wait until the screen's text (or ``where()``), whitespace squeezed (:func:`flat`),
    holds every one of ``needles``; return that text."""
    want = list(needles)

    def shown() -> str | None:
        text = flat(where() if where is not None else screen_text(pilot.app))
        return text if all(n in text for n in want) else None

    return await wait_for(pilot, shown, f"the screen to show {needles!r}", timeout)  # type: ignore[no-any-return]


async def wait_for_screen(
    pilot,
    cls: type[S],
    what: str = "",
    timeout: float = WAIT_S,
    when: Callable[[S], Any] | None = None,
) -> S:
    """Wait until the active screen is a mounted ``cls`` (and ``when(screen)`` holds), and
    return it."""

    def up() -> Any:
        s = pilot.app.screen
        return s if isinstance(s, cls) and s.is_mounted and (when is None or when(s)) else None

    return await wait_for(pilot, up, what or f"a {cls.__name__}", timeout)  # type: ignore[no-any-return]


async def settled_picker(pilot, variant: str | None = None, players: int | None = None):
    """Wait until the rules picker is up with its settings built (for ``variant`` and
    ``players`` when given: after a change, the new ones), and return it."""
    from twos_tui.ui.screens.picker import PickerScreen

    def ready(p: PickerScreen) -> bool:
        return (
            p.settled
            and (variant is None or p.cls.variant_id == variant)
            and (players is None or p.players == players)
            and len(p.seat_inputs) == p.players
            and all(s.is_mounted for _, s in p.option_selects)
        )

    wanted = ", ".join(
        x for x in (variant and f"game {variant}", players and f"{players} players") if x
    )
    return await wait_for_screen(
        pilot, PickerScreen, f"the picker built ({wanted or 'as opened'})", when=ready
    )


def ai_idle(screen) -> bool:
    return not getattr(screen, "ai_busy", getattr(screen, "_ai_running", False))


async def wait_for_human(pilot, timeout: float = WAIT_S) -> TableScreen:
    """Let the AI seats play until the human seat on screen is asked something."""
    app = pilot.app

    def asked() -> TableScreen | None:
        s = app.screen
        if isinstance(s, TableScreen) and s._decision is not None and ai_idle(s):
            return s
        return None

    screen = await wait_for(pilot, asked, "a human turn", timeout)
    await pilot.pause()
    return screen  # type: ignore[no-any-return]


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


def deal_over(variant: str, seed: int = 1, players: int | None = None) -> Session:
    """A session (seat 0 human) whose first deal is over, the match not."""
    session = Session.start(variant, None, players, {}, seed)
    play_until(session.game, lambda g: g.deal_over, random.Random(seed))
    assert not session.game.match_over
    return session


def ai_plays_the_deal(session: Session) -> None:
    """Every seat (a person's too) plays the session's deal to its end with its AI."""
    while not session.game.deal_over:
        seat = session.game.to_act()[0]
        session.apply(seat, session.ai_choose(seat))


async def press_hint(pilot) -> None:
    """``h``, then wait for the hint: a hard hint is searched for on a thread."""
    await pilot.press("h")
    await pilot.app.workers.wait_for_complete()
    screen = pilot.app.screen
    hints = screen.hints if isinstance(screen, TableScreen) else None
    if hints is not None:  # the answer is shown (``_show`` clears ``pending``)
        await wait_for(pilot, lambda: hints.pending is None, "the hint to be shown")
    await pilot.pause()
