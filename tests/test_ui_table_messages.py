"""Issue 29: the table's widgets talk up with messages, and no helper reaches into the
table screen. The button row (:class:`ActionRow`) posts ``PlayRequested``,
``ChoiceRequested``, ``HintAsked``, ``SortRequested`` and ``HelpAsked``; the screen
handles them in one place and what it does shows on the screen."""

from __future__ import annotations

import math
import re
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Button
from ui_helpers import flat, region_text, wait_for, wait_for_human, wait_for_screen

from twos_tui.engine import Action, Choice, Decision
from twos_tui.play.session import Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.help import HelpScreen
from twos_tui.ui.screens.table_buttons import ActionRow
from twos_tui.ui.widgets import HandView, MessageLine

UI = Path(__file__).resolve().parents[1] / "twos_tui" / "ui"


class RowApp(App[None]):
    """The button row alone, and the messages that reach its parent."""

    def __init__(self, decision: Decision) -> None:
        super().__init__()
        self.decision = decision
        self.got: list[str] = []
        self.presses_past_the_row = 0

    def compose(self) -> ComposeResult:
        yield ActionRow(id="actions")

    def on_mount(self) -> None:
        self.query_one(ActionRow).show(self.decision, True, "rank", False, 80)

    @on(ActionRow.PlayRequested)
    def _play(self) -> None:
        self.got.append("play")

    @on(ActionRow.ChoiceRequested)
    def _choice(self, event: ActionRow.ChoiceRequested) -> None:
        self.got.append(f"choice {event.index}")

    @on(ActionRow.HintAsked)
    def _hint(self) -> None:
        self.got.append("hint")

    @on(ActionRow.SortRequested)
    def _sort(self) -> None:
        self.got.append("sort")

    @on(ActionRow.HelpAsked)
    def _help(self) -> None:
        self.got.append("help")

    @on(Button.Pressed)
    def _pressed(self) -> None:
        self.presses_past_the_row += 1


async def test_the_button_row_posts_its_messages_up():
    """Each button of the row posts its own message to the row's parent (the press
    itself stops at the row); the row draws the decision it was shown."""
    d = Decision(
        seat=0,
        kind="play",
        prompt="Your turn",
        select=(1, 5),
        submit="play",
        choices=(Choice("Pass", Action("pass"), "p"),),
    )
    app = RowApp(d)
    async with app.run_test(size=(80, 5)) as pilot:
        row = app.query_one(ActionRow)
        await wait_for(pilot, lambda: row.choice_button(0) is not None, "the Pass button")
        assert str(row.query_one("#submit", Button).label) == "Play"
        assert str(row.query_one("#sort", Button).label) == "Sort: rank"
        choice = row.choice_button(0)
        assert choice is not None and str(choice.label) == "Pass (p)"
        for button in ("#submit", choice, "#hint", "#sort", "#help"):
            await pilot.click(button)
        want = ["play", "choice 0", "hint", "sort", "help"]
        await wait_for(pilot, lambda: app.got == want, f"the row's messages {want}")
        assert app.presses_past_the_row == 0


def hand_labels(screen) -> list[str]:
    hand = screen.query_one(HandView)
    return [screen.face(c).label for c in hand.cards]


async def test_the_table_acts_on_the_rows_messages():
    """At a Big Two table: Sort sorts the hand the other way (the button says so), Hint
    shows the hint on the message line with its cards picked up, Play plays them (they
    leave the hand), Help opens the help."""
    session = Session.start("big-two", None, 4, {}, 7)  # seat 0 leads
    app = make_app(session=session, ai_pause=math.inf)  # the AI waits: nothing moves
    async with app.run_test(size=(100, 30)) as pilot:
        app.settings.hint_level = "normal"  # answers at once
        screen = await wait_for_human(pilot)
        g = screen.game
        before = screen.sort_by
        other = "suit" if before == "rank" else "rank"
        await pilot.click("#sort")
        sort_button = screen.query_one("#sort", Button)
        await wait_for(pilot, lambda: str(sort_button.label) == f"Sort: {other}", "Sort flipped")
        assert screen.sort_by == other
        hand = screen.query_one(HandView)
        assert list(hand.cards) == g.sort_cards(list(hand.cards), by=other)

        message = screen.query_one(MessageLine)
        await pilot.click("#hint")
        await wait_for(pilot, lambda: screen.hints.shown is not None, "the hint")
        shown = screen.hints.shown
        assert shown is not None
        hinted = shown[1]
        assert hinted.cards  # Big Two's first turn: a lead, never a pass
        await wait_for(
            pilot,
            lambda: flat(region_text(app, message)).startswith("Hint from normal"),
            "the hint on the message line",
        )
        assert screen.selected == set(hinted.cards)

        played = len(g.history)
        await pilot.click("#submit")
        await wait_for(pilot, lambda: len(g.history) > played, "the hinted play made")
        assert g.history[played].seat == screen.viewer
        labels = [g.card_face(c).label for c in hinted.cards]
        await wait_for(
            pilot,
            lambda: not set(labels) & set(hand_labels(screen)),
            "the played cards gone from the hand",
        )

        await pilot.click("#help")
        await wait_for_screen(pilot, HelpScreen, "the help")


def test_no_helper_reaches_into_the_table_screen():
    """No module of the UI reads or writes the table screen's private attributes
    (``screen._x``, ``self.screen._x``, ``self._screen._x``), and the table's helpers
    touch no other object's private attributes either."""
    reach = re.compile(r"\b_?screen\._[A-Za-z]")
    found = [
        f"{f.relative_to(UI)}:{n}"
        for f in sorted(UI.rglob("*.py"))
        for n, line in enumerate(f.read_text("utf-8").splitlines(), 1)
        if reach.search(line)
    ]
    assert found == []
    other = re.compile(r"\b(\w+)\._[a-z]")
    for f in sorted((UI / "screens").glob("table_*.py")):
        for n, line in enumerate(f.read_text("utf-8").splitlines(), 1):
            for m in other.finditer(line):
                assert m.group(1) == "self", f"{f.name}:{n}: {line.strip()}"
