"""Pilot tests of issue 16's layout items: every footer shows its leave key at 80
columns, the log dialog fits 80x24, the score sheet and the hands left at a deal's end,
a deal-end dialog that is left at once, and widgets that stay flat over many deals."""

from __future__ import annotations

import gc
import random

import pytest
from ui_helpers import (
    ai_plays_the_deal,
    deal_over,
    play_until,
    screen_lines,
    screen_text,
    wait_for,
    wait_for_human,
    wait_for_screen,
)

from twos_tui.play import history
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import ConfirmLeave, DealEndScreen, InfoDialog, PassScreen
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.table import TableScreen

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def wait_screen(pilot, kind):
    screen = await wait_for_screen(pilot, kind)
    await pilot.pause()
    return screen


def footer(app) -> str:
    """The bottom line of the screen as drawn (the footer's keys)."""
    return screen_lines(app)[-1]


# ---------------------------------------------------------------------------------------
# item 6: every screen's footer shows its leave key at 80 columns
# ---------------------------------------------------------------------------------------


async def test_every_footer_shows_its_leave_key_at_80_columns():
    seen: dict[str, str] = {}

    def check(name: str, app, leave: str) -> None:
        line = footer(app)
        seen[name] = line
        assert len(line) <= 80
        assert leave in line, f"{name}: {leave!r} not in the footer {line!r}"

    app = make_app("twos", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await wait_for_human(pilot)
        check("table", app, "q Home")
        await pilot.press("l")
        await wait_screen(pilot, InfoDialog)
        check("log", app, "esc Close")
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        check("help", app, "esc Back")
        await pilot.press("o")  # odds, from the help
        await pilot.pause()
        check("odds", app, "esc Back")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table
        # the deal-end dialog
        play_until(table.session.game, lambda g: g.deal_over)
        table.after_change()
        await wait_screen(pilot, DealEndScreen)
        check("deal end", app, "q Home")
        await pilot.press("q")
        await wait_screen(pilot, ConfirmLeave)  # the match goes on: asked first
        await pilot.press("y")
        await wait_screen(pilot, HomeScreen)
        check("home", app, "q Quit")
        await pilot.press("n")
        await pilot.pause()
        check("picker", app, "esc Back")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        check("stats", app, "esc Back")
    # the pass screen of a hot-seat table
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN), SeatConfig("Cy", AI)]
    app = make_app(session=Session.start("twos", seats, 3, {}, 3), ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, PassScreen)
        check("pass", app, "⏎")
    # a replay
    seats = [SeatConfig(n, AI) for n in ("Ada", "Bram", "Cleo", "Dev")]
    s = Session.start("big-two", seats, seed=12)
    ai_plays_the_deal(s)
    history.RECORDER.flush()
    app = make_app(ai_pause=0, replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        check("replay", app, "esc Close")


# ---------------------------------------------------------------------------------------
# item 13: a deal-end dialog taken down as it opens
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("leave", ["exit", "pop", "home"])
async def test_deal_end_dialog_left_as_it_opens_raises_nothing(leave):
    session = deal_over("twos", seed=2)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        # the table shows the deal end at once: take that one down
        await wait_for_screen(pilot, DealEndScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        app.pop_screen()
        await pilot.pause()
        # now: push a fresh one and leave before it has mounted
        app.push_screen(DealEndScreen(table.table, {}, table.views.last_trick_dialog, "trick"))
        if leave == "exit":
            app.exit()
        elif leave == "pop":
            app.pop_screen()
        else:
            app.go_home()
        await pilot.pause()
        await pilot.pause()
    assert app.return_code in (0, None)  # (run_test raised an error that ended it)


# ---------------------------------------------------------------------------------------
# item 5: the log dialog fits 80x24 and holds this deal's lines only
# ---------------------------------------------------------------------------------------


def long_deal_two() -> Session:
    """Twos, deal 2 well under way (a long log: deal 1's lines and many of deal 2's)."""
    session = Session.start("twos", None, 3, {}, 4)
    g = session.game
    rng = random.Random(4)
    play_until(g, lambda g: g.deal_over, rng)
    session.next_deal()
    start = len(g.history)
    play_until(g, lambda g: len(g.history) >= start + 30 and 0 in g.to_act(), rng)
    return session


async def test_log_dialog_shows_its_newest_line_and_close_at_80x24():
    session = long_deal_two()
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.press("l")
        dialog = await wait_screen(pilot, InfoDialog)
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        newest = str(session.game.history[-1]["text"])
        assert newest in text, text
        assert "Close (Esc)" in text
        close = dialog.query_one("#close")
        assert close.region.bottom <= 23 and close.region.height == 1
        # only this deal's lines, and the title says which deal
        assert "Log of deal 2" in text
        body = dialog.body.plain
        assert "Deal 1" not in body and body.startswith("Deal 2")


# ---------------------------------------------------------------------------------------
# item 14: live widgets stay flat deal after deal
# ---------------------------------------------------------------------------------------


def live_widgets() -> int:
    from textual.widget import Widget

    gc.collect()
    return sum(isinstance(o, Widget) for o in gc.get_objects())


async def answer_deal_ends(pilot, count: int) -> None:
    """Let an all-AI table play on, taking each deal-end dialog's default (Enter)."""
    app = pilot.app
    for done in range(count):
        dialog = await wait_for_screen(pilot, DealEndScreen, f"the end of deal {done + 1}")
        await wait_for(pilot, lambda d=dialog: d.keys_armed, "the dialog to take keys")
        await pilot.press("enter")
        await wait_for(pilot, lambda d=dialog: app.screen is not d, "the dialog to close")


async def test_live_widgets_do_not_grow_over_ten_deals():
    # two deals win a match: the ten deals cross matches too (a new table each)
    seats = [SeatConfig(n, AI) for n in ("Ada", "Bram", "Cleo")]
    session = Session.start("twos", seats, 3, {"deals_to_win": 2}, 7, autosave=False)
    app = make_app(session=session, ai_pause=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await answer_deal_ends(pilot, 4)
        await pilot.pause()
        before = live_widgets()
        await answer_deal_ends(pilot, 10)
        await pilot.pause()
        after = live_widgets()
        assert after <= before, (before, after)
        app.exit()


# ---------------------------------------------------------------------------------------
# item 7: 60x20, the advertised minimum, in every game
# ---------------------------------------------------------------------------------------

SIX = [
    ("twos", None),
    ("big-two", None),
    ("big-two-5r", None),
    ("chinese-poker", 4),
    ("2v1", None),
    ("twos-tricks", None),
]


@pytest.mark.parametrize(("variant", "players"), SIX)
async def test_deal_end_dialog_fits_60x20(variant, players):
    session = deal_over(variant, players=players)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(60, 20)) as pilot:
        dialog = await wait_screen(pilot, DealEndScreen)
        box = dialog.query_one("#end-box")
        assert box.region.right <= 60 and box.region.bottom <= 19  # both borders, footer
        for button in dialog.query("#end-buttons Button"):
            assert button.region.height == 3 and button.region.bottom <= box.region.bottom
        # the last line of the text (how the match is won) is reached with the keys
        for _ in range(4):
            await pilot.press("pagedown")
        await pilot.pause()
        target = session.game.target_text()
        if target:
            assert target[:20] in screen_text(app)


def button_row(app, screen) -> tuple[str, list[str]]:
    """The action row as shown, and the labels of its buttons on screen."""
    from textual.widgets import Button

    row = screen.query_one("#actions")
    r = row.region
    shown = screen_lines(app)[r.y][r.x : r.right]
    labels = [str(b.label) for b in row.query(Button) if b.display and b.region.width]
    return shown, labels


@pytest.mark.parametrize(("seed", "widest"), [(2, ("keep", 2)), (3, ("bid", 3))])
async def test_2v1_buttons_are_whole_at_60x20(seed, widest):
    # 2v1's three bids, or its two cards to keep, left "Hel" (or no Help at all) at 60
    # columns: every label on the row is now shown whole, Hint and Help always there
    app = make_app("2v1", seed=seed, ai_pause=0)
    rng = random.Random(seed)
    kinds = set()
    async with app.run_test(size=(60, 20)) as pilot:
        for _ in range(40):
            screen = app.screen
            if isinstance(screen, DealEndScreen):
                break
            try:
                screen = await wait_for_human(pilot, 200)
            except AssertionError:
                break
            d = screen._decision
            kinds.add((d.kind, len(d.choices)))
            shown, labels = button_row(app, screen)
            for label in labels:
                assert f" {label} " in f" {shown} ", (label, shown)
            assert "Hint" in labels[-3] and labels[-2].startswith("Sort") and "Help" in labels[-1]
            assert [lb for lb in labels if lb.startswith("Help")], shown
            for choice in d.choices:
                assert choice.label in shown, (choice.label, shown)
            seat = screen.viewer
            screen.act(rng.choice(screen.session.game.legal_actions(seat)))
    assert widest in kinds, kinds  # the row that did not fit was met and checked


async def test_the_button_row_takes_its_full_labels_back_when_there_is_room():
    app = make_app("2v1", seed=3, ai_pause=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await wait_for_human(pilot)
        assert len(screen._decision.choices) == 3  # Pass, Bid 3, Bid 4
        shown, labels = button_row(app, screen)
        assert "Help" in labels and "Help (?)" not in labels
        await pilot.resize_terminal(100, 30)
        await wait_for(
            pilot,
            lambda: all("Help (?)" in part for part in button_row(app, screen)),
            "the full labels back, drawn",
        )
        shown, labels = button_row(app, screen)
        assert {"Hint (h)", "Help (?)", "Bid 3 (3)", "Sort: rank"} <= set(labels)
        assert "Help (?)" in shown and "Sort: rank" in shown


@pytest.mark.parametrize("variant", ["chinese-poker", "big-two"])
async def test_four_player_climbing_tables_show_the_play_to_beat_at_60x20(variant):
    # Big Two, seed 12: two passes follow the full house to beat, and the panel has
    # two rows: it showed "… 2 earlier" and a pass, not the play
    session = Session.start(variant, None, 4, {}, 12)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(60, 20)) as pilot:
        table = await wait_for_human(pilot)
        top = table.game.observation(0).top
        assert top is not None
        panel = table.query_one("TrickPlays")
        r = panel.region
        shown = "\n".join(line[r.x : r.right] for line in screen_lines(app)[r.y : r.bottom])
        assert "▶" in shown, shown  # the play to beat is marked and on screen


async def test_the_deal_end_dialog_takes_down_the_table_announcements():
    app = make_app("twos", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        table = await wait_for_human(pilot)
        app.notify("Ada catches Bram's 2♠", title="Catch!", timeout=30)
        app.notify("The save failed", severity="error", timeout=30)
        await wait_for(pilot, lambda: "The save failed" in screen_text(app), "the error shown")
        assert "Catch!" in screen_text(app)
        play_until(table.session.game, lambda g: g.deal_over)
        table.after_change()
        await wait_screen(pilot, DealEndScreen)
        text = await wait_for(
            pilot,
            lambda: "Catch!" not in (t := screen_text(app)) and "Home (q)" in t and t,
            "the deal-end dialog with the announcements taken down",
        )
        assert "The save failed" in text  # errors stay up


# ---------------------------------------------------------------------------------------
# item 8: the score sheet (o) and the hands left at a deal's end
# ---------------------------------------------------------------------------------------


async def test_score_sheet_lists_every_deal_per_seat():
    session = Session.start("big-two", None, 4, {}, 6)
    g = session.game
    rng = random.Random(6)
    changes = []
    for _ in range(2):
        play_until(g, lambda g: g.deal_over, rng)
        changes.append(list(g.last_result.changes))
        session.next_deal()
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.press("o")
        dialog = await wait_screen(pilot, InfoDialog)
        assert dialog.title_text == "Score sheet"
        rows = dialog.body.plain.splitlines()
        for deal, row in enumerate(changes, 1):
            line = next(r for r in rows if r.split() and r.split()[0] == str(deal))
            assert [int(x) for x in line.split()[1:]] == row
        total = next(r for r in rows if r.startswith("Total"))
        assert [int(x) for x in total.split()[1:]] == list(g.totals)
        await pilot.press("o")  # the key that opened it closes it
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_deal_end_shows_the_cards_left_and_opens_the_score_sheet():
    session = deal_over("big-two")
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await wait_screen(pilot, DealEndScreen)
        body = dialog.query_one("#end-body").render()
        text = str(body)
        assert "Cards left in hand" in text
        for seat, hand in enumerate(g.hands):
            for code in hand:
                assert g.card_face(code).label in text, (seat, code)
        await pilot.press("o")
        sheet = await wait_screen(pilot, InfoDialog)
        assert sheet.title_text == "Score sheet" and "Total" in sheet.body.plain
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DealEndScreen)


async def test_no_cards_left_line_in_trick_games():
    session = deal_over("twos-tricks")
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await wait_screen(pilot, DealEndScreen)
        assert "Cards left in hand" not in str(dialog.query_one("#end-body").render())


async def test_a_click_on_a_footer_key_presses_it():
    from twos_tui.ui.screens.dialogs import ConfirmLeave

    app = make_app("twos", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        line = footer(app)
        await pilot.click("KeyBar", offset=(line.index("q Home") + 3, 0))
        await wait_screen(pilot, ConfirmLeave)
