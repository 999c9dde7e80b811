"""The cards played on the trick-taking table (Twos tricks, 2v1) are drawn whole and in
line, as the screen shows them: every framed card's four rows line up (its middle rows
are not pushed aside by "▶ Player 1", "led" or the newest card's mark), and your card
(or the dot where it will go) sits in the same column as the card across the table, at
80x24 (chip lines), 120x40 and 200x60 (framed cards), for every seat of a trick as it is
played and while the finished trick is kept on show. The AI waits until woken
(``ai_pause=math.inf``): each step is looked at before the next one is played."""

from __future__ import annotations

import math
import random

import pytest
from ui_helpers import play_until, screen_lines, wait_for, wait_for_screen

from twos_tui.play.session import Session
from twos_tui.ui.app import make_app
from twos_tui.ui.boards import TrickBoard
from twos_tui.ui.boards_tricks import CompassSeat
from twos_tui.ui.screens.table import TableScreen

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (120, 40), (200, 60)]
IDS = ["80x24", "120x40", "200x60"]

TOP_LEFT, TOP_RIGHT = "╭┏╔", "╮┓╗"
SIDE, BOTTOM_LEFT, BOTTOM_RIGHT = "│┃║", "╰┗╚", "╯┛╝"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


def board_of(app) -> TrickBoard:
    return app.screen.query_one(TrickBoard)


def board_rows(app) -> list[str]:
    """The board's content as the terminal shows it, one string a row, every column
    kept (its border and padding left out)."""
    r = board_of(app).content_region
    return [line[r.x : r.right] for line in screen_lines(app)[r.y : r.bottom]]


def played(app) -> dict[str, CompassSeat]:
    seats, _ = board_of(app).seats()
    return seats


def at(rows: list[str], y: int, x: int) -> str:
    return rows[y][x] if 0 <= y < len(rows) and 0 <= x < len(rows[y]) else " "


def framed_cards(rows: list[str]) -> list[tuple[int, int]]:
    """The top-left corners (row, column) of the framed cards on the board, checking
    that each card is whole: its left edge (and its right one, where no card of a fan
    covers it) runs straight down four rows, and no piece of a card is left over."""
    picture = "\n".join(rows)
    cards = [(y, x) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in TOP_LEFT]
    edges: set[tuple[int, int]] = set()
    for y, x in cards:
        left = at(rows, y + 1, x) + at(rows, y + 2, x) + at(rows, y + 3, x)
        assert left[0] in SIDE and left[1] in SIDE and left[2] in BOTTOM_LEFT, (
            f"the card at row {y}, column {x} is not whole:\n{picture}"
        )
        edges |= {(y + 1, x), (y + 2, x), (y + 3, x)}
        if at(rows, y, x + 4) in TOP_RIGHT:
            right = at(rows, y + 1, x + 4) + at(rows, y + 2, x + 4) + at(rows, y + 3, x + 4)
            assert right[0] in SIDE and right[1] in SIDE and right[2] in BOTTOM_RIGHT, (
                f"the card at row {y}, column {x} is not whole:\n{picture}"
            )
            edges |= {(y + 1, x + 4), (y + 2, x + 4), (y + 3, x + 4)}
    stray = [
        (y, x)
        for y, row in enumerate(rows)
        for x, ch in enumerate(row)
        if ch in SIDE + BOTTOM_LEFT + BOTTOM_RIGHT and (y, x) not in edges
    ]
    assert not stray, f"pieces of cards out of line at {stray}:\n{picture}"
    return cards


def column_of(rows: list[str], text: str, beside: str = "") -> tuple[int, int]:
    """(row, column) of ``text`` on the one row that shows it (and ``beside``)."""
    found = [(y, row.find(text)) for y, row in enumerate(rows) if text in row and beside in row]
    assert len(found) == 1, (text, beside, "\n".join(rows))
    return found[0]


def check_table(app, framed: bool) -> None:
    """Every card on the board whole, and yours in line with the one across the table
    (north's, or the dot of a north that has not played)."""
    rows = board_rows(app)
    seats = played(app)
    face = board_of(app).view.face  # type: ignore[union-attr]
    me = seats["south"]
    if framed:
        cards = framed_cards(rows)
        assert len(cards) == len(cards_of(seats)), "\n".join(rows)
        # your card's middle row carries your name
        if me.cards:
            y, x = max(cards)
            assert me.name in rows[y + 2][x + 5 :], "\n".join(rows)
    else:
        assert not framed_cards(rows)
    north = seats.get("north")
    if north is None:
        return

    def centre(seat: CompassSeat, beside: str = "") -> float:
        """The column of the middle of a seat's card (or of its dot)."""
        if not seat.cards:
            if beside:
                y, x = column_of(rows, "·", beside)
            else:  # north's dot: the first row that is a dot alone
                x = next(r.index("·") for r in rows if r.strip() == "·")
            return x
        if framed:
            cards = sorted(framed_cards(rows))
            y, x = cards[0] if seat is north else cards[-1]
            return x + 2
        label = face(seat.cards[0]).label
        y, x = column_of(rows, label, beside)
        return x + (len(label) - 1) / 2

    mine = centre(me, me.name)
    theirs = centre(north)
    assert abs(mine - theirs) <= 0.5, (mine, theirs, "\n".join(rows))


def cards_of(seats: dict[str, CompassSeat]) -> list[str]:
    return [c for s in seats.values() for c in s.cards]


async def shown(pilot, framed: bool) -> None:
    """Wait until the board shows what its seats hold (as many framed cards, or every
    chip), then check it."""
    app = pilot.app

    def drawn() -> bool:
        seats = played(app)
        rows = board_rows(app)
        if framed:
            corners = sum(row.count(c) for row in rows for c in TOP_LEFT)
            return corners == len(cards_of(seats))
        face = board_of(app).view.face  # type: ignore[union-attr]
        text = "\n".join(rows)
        shows = [("▒▒" if face(c).face_down else face(c).label) for c in cards_of(seats)]
        return all(label in text for label in shows)

    await wait_for(pilot, drawn, "the board to show the cards played")
    check_table(app, framed)


async def person_asked(pilot) -> TableScreen:
    """Wake the AI seats until the person at the screen is asked to move."""
    screen = await wait_for_screen(pilot, TableScreen)

    def asked() -> bool:
        if screen._decision is not None:
            return not screen.ai_busy
        screen.ai.hurry()
        return False

    await wait_for(pilot, asked, "the person's turn")
    return screen


def woken(screen: TableScreen):
    """A condition: the next AI seat has played (woken until it has)."""
    n = screen.table.action_count

    def played_on() -> bool:
        if screen.table.action_count > n:
            return True
        screen.ai.hurry()
        return False

    return played_on


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_every_card_of_a_trick_is_whole_and_yours_in_line(size):
    framed = size[1] >= 34
    app = make_app("twos-tricks", 4, 4, ai_pause=math.inf)
    async with app.run_test(size=size) as pilot:
        screen = await person_asked(pilot)
        g = screen.session.game
        assert screen.framed == framed
        # you lead: nothing on the table, your dot beside "▶ Player 1" under north's
        await wait_for(pilot, lambda: "▶ Player 1" in "\n".join(board_rows(app)), "your turn")
        await shown(pilot, framed)
        assert played(app)["south"].turn and not played(app)["south"].cards
        # you play a card: it is the newest (▶) and led ("led"); west waits to play
        n = screen.table.action_count
        screen.act(next(a for a in g.legal_actions(0) if a.cards))
        await wait_for(
            pilot,
            lambda: screen.table.action_count > n and screen.ai.waiting_for == "move",
            "your card played and west waiting",
        )
        await wait_for(pilot, lambda: "led" in "\n".join(board_rows(app)), "your card shown")
        me = played(app)["south"]
        assert me.cards and me.mark == "▶" and me.label == "led"
        await shown(pilot, framed)
        # the others play one by one (the newest card marked), then the trick is held
        # with its winner starred
        for _ in range(3):
            await wait_for(pilot, woken(screen), "an AI card")
            await shown(pilot, framed)
        await wait_for(pilot, lambda: screen.ai.holding_trick, "the finished trick held")
        await shown(pilot, framed)
        seats = played(app)
        assert all(len(s.cards) == 1 for s in seats.values())
        assert any(s.mark == "★" for s in seats.values())


def mid_hand_2v1() -> Session:
    """A 2v1 round in the middle of a hand: the lone player has led (several cards),
    the person (one of the duo) is to follow."""
    session = Session.start("2v1", None, 3, {}, 5)
    play_until(
        session.game,
        lambda g: g.phase == "follow" and 0 in g.to_act() and g.hand_no >= 2,
        random.Random(5),
    )
    return session


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_2v1_hand_is_drawn_whole(size):
    framed = size[1] >= 34
    app = make_app(session=mid_hand_2v1(), ai_pause=math.inf)
    async with app.run_test(size=size) as pilot:
        screen = await person_asked(pilot)
        g = screen.session.game
        await shown(pilot, framed)
        assert any(len(s.cards) > 1 for s in played(app).values())  # the lone's fan
        n = screen.table.action_count
        screen.act(next(a for a in g.legal_actions(0) if a.cards))
        await wait_for(pilot, lambda: screen.table.action_count > n, "your card played")
        await wait_for(pilot, lambda: played(app)["south"].cards, "your card on the table")
        await shown(pilot, framed)
