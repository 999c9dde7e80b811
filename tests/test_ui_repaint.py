"""Only what changed is redrawn (issue 29): each panel of the table repaints when its own
part of the view changed, and not otherwise.

Repaints are counted through a public hook: every widget of the table screen (the screen
included) has its ``render`` wrapped on the instance, so each time Textual rebuilds a
widget's content the wrapper counts it under the panel the widget belongs to. A key is
pressed, the test waits until the screen has drawn what the key changed (two frames
after it: :func:`drawn`), and the panels that repainted are compared with what the key
may change. The AI waits until woken (``ai_pause=math.inf``), so nothing else moves
while a test looks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from textual.widget import Widget
from ui_helpers import wait_for, wait_for_screen

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView

pytestmark = pytest.mark.slow

#: the panels of the table, by the id of the widget that holds them (a widget inside
#: one of these counts for it)
PANELS = {
    "board": "board",
    "hand": "hand",
    "prompt": "prompt",
    "message": "message",
    "actions": "buttons",
    "score": "score",
    "log": "log",
}


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


def panel_of(widget: Widget) -> str:
    """The panel a widget belongs to: one of :data:`PANELS`' names, "header", "keys",
    "screen" or the widget's class name."""
    node: Any = widget
    while node is not None and not isinstance(node, TableScreen):
        if node.id in PANELS:
            return PANELS[node.id]
        name = type(node).__name__
        if name in ("SafeHeader", "Header"):
            return "header"
        if name == "KeyBar":
            return "keys"
        node = node.parent
    return "screen" if widget is node else type(widget).__name__


def count_repaints(screen: TableScreen) -> Counter[str]:
    """Wrap every widget's ``render`` (on the instance): the counter returned counts the
    content rebuilds of each panel from now on."""
    counts: Counter[str] = Counter()
    for widget in [screen, *screen.query("*")]:
        real: Callable[[], Any] = widget.render
        panel = panel_of(widget)

        def counted(real: Callable[[], Any] = real, panel: str = panel) -> Any:
            counts[panel] += 1
            return real()

        widget.render = counted  # type: ignore[method-assign]
    return counts


async def drawn(pilot) -> None:
    """Wait until the screen has drawn twice since now: whatever was asked to repaint
    (or to be laid out again) before this call has been."""
    frames: list[int] = []
    screen = pilot.app.screen

    def frame() -> None:
        frames.append(1)
        if len(frames) == 1:
            screen.refresh()  # (the screen's own repaint: not counted, see `repainted`)
            screen.call_after_refresh(frame)

    screen.call_after_refresh(frame)
    await wait_for(pilot, lambda: len(frames) >= 2, "two frames drawn")


def repainted(counts: Counter[str]) -> set[str]:
    """The panels that repainted (the screen's own background is left out: `drawn`
    repaints it)."""
    return {panel for panel, n in counts.items() if n and panel != "screen"}


async def human_turn(pilot) -> TableScreen:
    """Wake the AI seats until the person at the screen is asked to move."""
    screen = await wait_for_screen(pilot, TableScreen)

    def asked() -> bool:
        if screen._decision is not None:
            return not screen.ai_busy
        screen.ai.hurry()  # an AI seat waits until woken: wake it
        return False

    await wait_for(pilot, asked, "the person's turn")
    await drawn(pilot)
    return screen


async def ai_waiting(pilot, screen: TableScreen, after: int) -> None:
    """Wait until ``after`` actions were played and the next AI seat waits to move."""
    await wait_for(
        pilot,
        lambda: screen.table.action_count > after and screen.ai.waiting_for == "move",
        "an AI move played and the next AI seat waiting",
    )
    await drawn(pilot)


#: (variant, players, seed): a climbing game and a trick game, AI seats after the person
TABLES = [("big-two", 4, 3), ("twos-tricks", 4, 3)]


@pytest.mark.parametrize(("variant", "players", "seed"), TABLES)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_cursor_key_repaints_the_hand_only(variant, players, seed, size):
    app = make_app(variant, players, seed, ai_pause=math.inf)
    async with app.run_test(size=size) as pilot:
        screen = await human_turn(pilot)
        hand = screen.query_one(HandView)
        for key in ("right", "right", "left", "end", "home"):
            before = hand.cursor
            counts = count_repaints(screen)
            await pilot.press(key)
            moved = lambda before=before: hand.cursor != before  # noqa: E731
            await wait_for(pilot, moved, f"the cursor to move ({key})")
            await drawn(pilot)
            assert repainted(counts) == {"hand"}, (key, dict(counts))


@pytest.mark.parametrize(("variant", "players", "seed"), TABLES)
async def test_selecting_a_card_repaints_the_hand_message_and_buttons_at_most(
    variant, players, seed
):
    app = make_app(variant, players, seed, ai_pause=math.inf)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await human_turn(pilot)
        counts = count_repaints(screen)
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.selected, "a card selected")
        await drawn(pilot)
        shown = repainted(counts)
        # the card is raised; the preview says what it is and Play is enabled or not:
        # the board, the score, the log, the prompt, the header and the keys stay
        assert "hand" in shown, dict(counts)
        assert shown <= {"hand", "message", "buttons"}, dict(counts)
        # the same selection again changes nothing: the hand's other keys stay quiet
        counts = count_repaints(screen)
        screen.refresh_view()
        await drawn(pilot)
        assert repainted(counts) == set(), dict(counts)


@pytest.mark.parametrize(("variant", "players", "seed"), TABLES)
async def test_an_ai_move_repaints_what_it_changed_and_a_second_refresh_nothing(
    variant, players, seed
):
    app = make_app(variant, players, seed, ai_pause=math.inf)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await human_turn(pilot)
        played = screen.table.action_count
        g = screen.session.game
        seat = screen.viewer
        assert seat is not None
        # the person plays (a legal play, as Enter would); the next seat, an AI, waits
        screen.act(next(a for a in g.legal_actions(seat) if a.cards))
        await ai_waiting(pilot, screen, played)
        counts = count_repaints(screen)
        screen.ai.hurry()  # the AI's move lands
        await ai_waiting(pilot, screen, played + 1)
        shown = repainted(counts)
        # the table (its seat boxes and the play) and the log changed; so did the line
        # that says whom the table waits for
        assert {"board", "log", "prompt"} <= shown, dict(counts)
        # the person's hand, the score, the buttons, the header and the keys did not
        assert not shown & {"hand", "score", "buttons", "header", "keys"}, dict(counts)
        # the same view again: nothing repaints
        counts = count_repaints(screen)
        screen.refresh_view()
        await drawn(pilot)
        assert repainted(counts) == set(), dict(counts)


@pytest.mark.parametrize(("variant", "players", "seed"), TABLES)
async def test_a_demo_table_shown_again_repaints_nothing(variant, players, seed):
    """Every seat an AI (the demo: the hand followed is an AI's, with no decision at the
    screen): the same view again repaints nothing either."""
    from twos_tui.play.session import AI, SeatConfig

    seats = [SeatConfig(f"Bot {i + 1}", AI) for i in range(players)]
    app = make_app(variant, players, seed, ai_pause=math.inf, seats=seats)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_screen(pilot, TableScreen, when=lambda s: s.demo)
        await ai_waiting(pilot, screen, -1)
        counts = count_repaints(screen)
        screen.refresh_view()
        await drawn(pilot)
        assert repainted(counts) == set(), dict(counts)
        # one AI move: the table and the log change (the hand followed, its seat's, may)
        screen.ai.hurry()
        await ai_waiting(pilot, screen, 0)
        assert {"board", "log"} <= repainted(counts), dict(counts)


async def test_the_hand_lays_itself_out_again_when_its_rows_change():
    """With no layout pass of the whole screen, the hand asks for its own where its
    height may change: here as many cards, but one label longer ("10♠"), so that the
    chips take two rows instead of one."""
    from textual.app import App, ComposeResult

    from twos_tui.engine.cards import CardFace

    class HandOnly(App[None]):
        CSS = "HandView { width: 29; }"

        def compose(self) -> ComposeResult:
            yield HandView(id="hand")

    app = HandOnly()
    async with app.run_test(size=(40, 12)) as pilot:
        hand = app.query_one(HandView)
        short = [CardFace(f"{r}S", r, "♠", "spades", "black") for r in "23456789"]

        async def next_frame() -> None:
            framed: list[bool] = []
            hand.call_after_refresh(framed.append, True)
            await wait_for(pilot, lambda: framed, "the next frame")

        hand.set_hand([f.code for f in short], short, set())
        await next_frame()
        assert hand.region.height == 3  # one row of chips
        await pilot.pause()
        longer = [*short[:-1], CardFace("TS", "10", "♠", "spades", "black")]
        hand.set_hand([f.code for f in longer], longer, set())
        # the frame after the change (nothing else asks for a layout pass) fits them
        await next_frame()
        assert hand.region.height == 6
