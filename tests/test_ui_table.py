"""Pilot tests of the table and the picker, one (or more) for each problem of issue 10
(each fails on the table as it was before the fix), then the table's share of issue 8
(AI levels and pace in the picker, hints, AI turns off the UI thread, demo) and of
issue 12 (one board per family, no Textual private attributes, exclusive workers)."""

from __future__ import annotations

import math
import random
import re
import threading

import pytest
from textual.widgets import Markdown, Select
from ui_helpers import (
    flat,
    play_until,
    polls,
    press_hint,
    region_text,
    screen_text,
    settled_picker,
    wait_for,
    wait_for_human,
    wait_for_screen,
    wait_for_text,
)

from twos_tui.engine import Action
from twos_tui.play import settings as settings_file
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session, default_seats
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import ConfirmLeave, DealEndScreen, PassScreen
from twos_tui.ui.screens.help import HelpScreen
from twos_tui.ui.screens.home import ContinueScreen, HomeScreen
from twos_tui.ui.screens.picker import PickerScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView

#: Pilot tests of two to five seconds each: the full suite runs them, the quick loop
#: (``-m "not slow"``) leaves them out; tests/test_ui_structure.py stays quick
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(autouse=True)
def hard_ai_by_rollouts(monkeypatch):
    """A ``hard`` seat here stops its search after a fixed number of rollouts instead of
    its 0.4 s clock: the tests run the AI on the event loop (``ai_pause=0``), so each
    hard move would cost 0.4 s, and a clock makes the moves depend on the machine."""
    from twos_tui.ai import climbing_search

    real = climbing_search.HardClimbingAgent.__init__

    def capped(
        self, budget_s: float = 0.4, iterations: int | None = None, play_for_penalty: bool = True
    ) -> None:
        real(self, budget_s, 48 if iterations is None else iterations, play_for_penalty)

    monkeypatch.setattr(climbing_search.HardClimbingAgent, "__init__", capped)


def board(app):
    """The middle of the table (any family)."""
    return app.screen.query_one("#board, #compass, #trick")


def session_at(variant: str, seed: int, done, players: int | None = None, options=None):
    """A fresh session (seat 0 human, the rest AI) advanced at engine level until
    ``done(game)``."""
    session = Session.start(variant, None, players, options or {}, seed)
    play_until(session.game, done, random.Random(seed))
    return session


# ---------------------------------------------------------------------------------------
# 1. 2v1 bidding: p passes
# ---------------------------------------------------------------------------------------


async def test_p_passes_the_2v1_bid():
    app = make_app("2v1", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        assert screen._decision.kind.startswith("bid")
        n = len(g.actions)
        await pilot.press("p")
        await wait_for(pilot, lambda: len(g.actions) > n, "the bid played")
        assert g.actions[n] == (0, {"kind": "bid", "value": 0})
        assert "✗" not in str(screen.query_one("#message").render())


# ---------------------------------------------------------------------------------------
# 2. a finished trick stays on the table; the last-trick view
# ---------------------------------------------------------------------------------------


def trick_just_won(g) -> bool:
    return bool(g.history) and g.history[-1].get("kind") == "trick" and g.to_act() == (0,)


async def test_finished_climbing_trick_stays_on_the_table():
    session = session_at("big-two", 1, trick_just_won)
    g = session.game
    winner = g.current
    # the trick just won: its last play, from the log
    last_play = next(h for h in reversed(g.history) if h.get("kind") == "play")
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await wait_for_text(
            pilot,
            f"{g.names[winner]} won the trick",
            *(g.card_face(code).label for code in last_play["cards"]),
            where=lambda: region_text(app, board(app)),
        )


async def test_finished_trick_game_trick_stays_on_the_table():
    session = session_at("twos-tricks", 1, trick_just_won)
    g = session.game
    last = g.last_trick
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await wait_for_text(
            pilot,
            f"wins trick {last['number']}",
            *(g.card_face(code).label for _, code in last["plays"]),
            where=lambda: region_text(app, board(app)),
        )
        # the next card played clears it (Enter picks up the card under the cursor, a
        # second Enter plays it)
        n = len(g.actions)
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: len(g.actions) > n, "the card played")
        await wait_for(
            pilot,
            lambda: f"wins trick {last['number']}" not in flat(region_text(app, board(app))),
            "the finished trick to leave the table",
        )


async def test_finished_2v1_hand_stays_on_the_table():
    def hand_done(g) -> bool:
        return (
            not g.observation(0)["table"]
            and g.last_hand is not None
            and g.history[-1].get("kind") in ("hand", "return")
        )

    session = session_at("2v1", 1, hand_done)
    g = session.game
    # the AI waits until woken: the next lead has not come while the test looks
    app = make_app(session=session, ai_pause=math.inf)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await wait_for_text(
            pilot,
            f"hand {g.last_hand['hand']}",
            *(g.card_face(code).label for code in g.last_hand["lone"]),
            where=lambda: region_text(app, board(app)),
        )


async def test_last_trick_key_shows_the_last_trick():
    session = session_at("twos-tricks", 1, trick_just_won)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.press("enter")  # lead: the finished trick leaves the table
        await wait_for_human(pilot)
        await pilot.press("t")
        text = await wait_for_text(pilot, "Last trick")
        assert f"Trick {g.last_trick['number']}" in text or "wins trick" in text
        await pilot.press("escape")
        await wait_for_screen(pilot, TableScreen, "the table again")


async def test_an_open_last_trick_view_follows_the_ai_at_a_local_table():
    """At a table against the AI, the last-trick view open while the AI seats finish a
    trick stays true: it then shows that trick, the one the log names, not the one it
    was opened on."""
    from twos_tui.ui.screens.dialogs import InfoDialog

    session = session_at("twos-tricks", 1, trick_just_won)
    g = session.game
    first = g.last_trick["number"]
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        await pilot.press("t")
        await wait_for_screen(pilot, InfoDialog, "the last trick")
        dialog = app.screen

        def shown() -> str:
            return flat(str(dialog.query_one("#info-body").render()))

        assert f"Trick {first}" in shown()
        # your lead is made as the table makes it (the view is open over the table),
        # and the AI seats play the trick out under the open view
        screen.table.act(0, g.legal_actions(0)[0])
        screen.after_change()
        await wait_for(pilot, lambda: g.last_trick["number"] == first + 1, "the trick won")
        await wait_for(pilot, lambda: f"Trick {first + 1}" in shown(), "the view to follow")
        newest = [e for e in g.history if e.get("kind") == "trick"][-1]["text"]
        assert f"wins trick {first + 1}" in newest and newest in shown()
        assert app.screen is dialog
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the table again")


# ---------------------------------------------------------------------------------------
# 3. the log keeps up with the table, shows several lines, ends on the newest after resize
# ---------------------------------------------------------------------------------------


def log_lines(app) -> list[str]:
    text = region_text(app, app.screen.query_one("#log"))
    lines = [line.strip("│╭╮╰╯─ ") for line in text.splitlines()[1:-1]]
    return [line for line in lines if line.strip()]


async def test_log_is_in_step_with_the_table_and_scrolled_to_the_end():
    app = make_app("twos", seed=2, ai_pause=0)
    rng = random.Random(4)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            screen = await wait_for_human(pilot)
            g = screen.session.game
            newest = str(g.history[-1]["text"])
            shown = log_lines(app)
            assert flat(newest).endswith(flat(shown[-1])) or flat(shown[-1]) in flat(newest)
            # the newest line is the log's last one, never an older one
            assert flat(" ".join(shown)).endswith(flat(newest)[-12:])
            legal = g.legal_actions(screen.viewer)
            a = rng.choice([x for x in legal if x.kind == "pass"] or legal)
            if a.kind == "pass":
                await pilot.press("p")
            else:
                screen.selected = set(a.cards)
                await pilot.press("enter")
        await wait_for_human(pilot)
        assert len(log_lines(app)) >= 5
        newest = flat(str(app.screen.session.game.history[-1]["text"]))
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: app.screen.size == (120, 40), "the screen at 120x40")
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.screen.size == (80, 24), "the screen at 80x24")
        await wait_for(
            pilot,
            lambda: flat(" ".join(log_lines(app))).endswith(newest[-12:]),
            "the log to end on the newest line",
        )


# ---------------------------------------------------------------------------------------
# 4. 80×24 and smaller
# ---------------------------------------------------------------------------------------


async def test_chinese_poker_reason_is_shown_whole_at_80x24():
    app = make_app("chinese-poker", players=4, seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        hand = screen._hand_order
        seat = screen.viewer
        # a pair and two singles: the longest of the reasons ("…a straight of 5 or more…")
        pair = next((a, b) for a in hand for b in hand if a < b and a[:-1] == b[:-1])
        odd = next(c for c in hand if c[:-1] != pair[0][:-1])
        odd2 = next(c for c in hand if c[:-1] not in (pair[0][:-1], odd[:-1]))
        cards = (*pair, odd, odd2)
        reason = g.check(seat, Action("play", tuple(c for c in hand if c in cards)))
        assert reason is not None and "straight of 5 or more" in reason
        screen.selected = set(cards)
        await pilot.press("enter")
        await wait_for_text(pilot, flat(reason))


async def test_2v1_seat_labels_and_status_fit_at_80x24():
    def lone_bid(g) -> bool:
        return g.bid is not None and g.lone not in (0, None) and 0 in g.to_act()

    session = session_at("2v1", 1, lone_bid)
    g = session.game
    obs = g.observation(0)
    app = make_app(session=session, ai_pause=math.inf)  # the AI waits: nothing moves
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        await wait_for_text(
            pilot, f"{obs['hand_counts'][1]} cards", where=lambda: region_text(app, board(app))
        )
        text = region_text(app, board(app))
        # the two info lines (cards and tags) of the seats left and right are apart
        west, east = 1, 2
        infos = []
        for seat in (west, east):
            bits = [f"{obs['hand_counts'][seat]} cards", *obs["seat_tags"][seat]]
            infos.append(" · ".join(bits))
        line = next(ln for ln in text.splitlines() if infos[0][:7] in ln and infos[1][:7] in ln)
        gap = re.search(r"(\S)( +)(\d+ cards)", line[line.index(infos[0][:7]) + 7 :])
        assert gap is not None and len(gap.group(2)) >= 3, line
        # every tag shows whole (wrapped if need be, never cut)
        for info in infos:
            assert info in flat(text) or all(t in flat(text) for t in info.split(" · ")), info
        # the status line is not cut
        assert flat(obs["status"]) in flat(text)


async def test_side_panels_read_one_line_a_player_at_80x24():
    app = make_app("chinese-poker", players=4, seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        score = [ln for ln in region_text(app, screen.query_one("#score")).splitlines()]
        body = [ln for ln in score if ln and not ln.startswith(("╭", "╰"))]
        assert len(body) == g.players + 1, body  # the deal, then one line each
        for name, line in zip(g.names, body[1:], strict=True):
            assert line.startswith(name)
        # the opponents' panels side by side are alike
        heights = {p.region.height for p in screen.query(".seat") if p.display}
        assert len(heights) == 1, heights


async def test_too_small_window_asks_for_more_room():
    app = make_app("big-two", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.resize_terminal(40, 12)
        await wait_for_text(pilot, "at least 60×20")
        assert not app.screen.query_one(HandView).region.height
        await pilot.resize_terminal(80, 24)
        await wait_for(
            pilot,
            lambda: (
                "at least" not in flat(screen_text(app))
                and app.screen.query_one(HandView).region.height
            ),
            "the table back at 80x24",
        )


async def test_chinese_poker_hand_choice_shows_every_hand_at_60x20():
    app = make_app("chinese-poker", players=2, seed=4, ai_pause=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        offered = g.observation(screen.viewer)["offered_hands"]
        assert len(offered) >= 2
        lines = screen_text(app).splitlines()
        for letter, codes in offered.items():
            line = next(ln for ln in lines if f"Hand {letter} " in ln)
            for code in codes:
                assert f" {g.card_face(code).label}" in line


# ---------------------------------------------------------------------------------------
# 5. the picker
# ---------------------------------------------------------------------------------------


async def open_picker(pilot, variant: str | None = None) -> PickerScreen:
    await wait_for_screen(pilot, HomeScreen)
    pilot.app.open_picker(variant)
    return await settled_picker(pilot, variant)


def brightness(colour) -> float:
    r, g, b = colour.rgb
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


async def test_focused_dropdown_is_clearly_visible():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "big-two")
        players = picker.query_one("#players", Select)
        other = picker.seat_inputs[1][1]
        players.focus()
        await wait_for(pilot, lambda: picker.focused is players, "the Select focused")
        await pilot.pause()
        lit = players.query_one("SelectCurrent").background_colors[1]
        plain = other.query_one("SelectCurrent").background_colors[1]
        assert abs(brightness(lit) - brightness(plain)) > 0.1


async def test_tab_stops_only_on_fields_and_buttons():
    from textual.containers import ScrollableContainer
    from textual.widgets import Button, Input, OptionList

    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "twos")
        seen = []
        for _ in range(25):
            before = picker.focused
            await pilot.press("tab")
            await wait_for(pilot, lambda b=before: picker.focused is not b, "the focus to move")
            seen.append(picker.focused)
        for w in seen:
            assert isinstance(w, (Select, Input, Button, OptionList)), w
        assert not any(type(w) is ScrollableContainer or w.id == "settings" for w in seen)


async def test_player_count_is_each_games_own():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "twos")
        assert picker.players == 3
        await pilot.press("down")  # Big Two
        assert await settled_picker(pilot, "big-two") is picker
        assert picker.players == 4
        assert picker.query_one("#players", Select).value == 4
        assert len(picker.seat_inputs) == 4


async def test_players_list_has_no_blank_entry():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "big-two")
        sel = picker.query_one("#players", Select)
        overlay = sel.query_one("SelectOverlay")
        assert overlay.option_count == 3  # 2, 3 and 4 players, nothing blank


async def test_option_labels_do_not_run_into_their_dropdowns_at_80_columns():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "chinese-poker")
        for spec, sel in picker.option_selects:
            label = sel.parent.query_one(".option-label")
            label.scroll_visible(animate=False)
            await wait_for(pilot, lambda lb=label: lb.region.height > 0, "the label in view")
            await pilot.pause()
            assert not label.region.overlaps(sel.region), spec.label
            assert flat(region_text(app, label)) == spec.label


# ---------------------------------------------------------------------------------------
# 6. help follows the rules chosen
# ---------------------------------------------------------------------------------------


async def test_help_from_the_picker_follows_the_lock_out_rule():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot, "twos")
        passing = next(sel for s, sel in picker.option_selects if s.id == "passing")
        spec = next(s for s, _ in picker.option_selects if s.id == "passing")
        passing.value = [v for v, _ in spec.choices].index("locked")
        await wait_for(pilot, lambda: picker.chosen_options()["passing"] == "locked", "locked")
        await pilot.press("f1")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        source = help_screen.query_one("#rules-md", Markdown).source
        assert "You are still in the trick" not in source
        assert "sit out" in source.split("## Worked example")[1]
        assert "sit out until somebody leads" in source.split("## House rules")[0]


# ---------------------------------------------------------------------------------------
# 7. the smaller ones
# ---------------------------------------------------------------------------------------


async def test_twos_tricks_hand_is_sorted_by_suit():
    app = make_app("twos-tricks", seed=1, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        assert screen.sort_by == "suit"
        assert screen._hand_order == g.sort_cards(list(screen._hand_order), by="suit")


async def test_sort_choice_survives_continue():
    app = make_app("big-two", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        await pilot.press("s")
        assert screen.sort_by == "suit"
        await pilot.press("q")
        await wait_for_screen(pilot, ConfirmLeave)
        await pilot.press("y")
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("c")
        await wait_for_screen(pilot, ContinueScreen)
        await pilot.press("enter")
        table = await wait_for_screen(pilot, TableScreen)
        assert table.sort_by == "suit"
        assert table._hand_order == table.game.sort_cards(list(table._hand_order), by="suit")


async def test_escape_then_enter_stays_at_the_table():
    app = make_app("big-two", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        await pilot.press("escape")
        await wait_for_screen(pilot, ConfirmLeave)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, "the table again")
        await pilot.press("escape")
        await wait_for_screen(pilot, ConfirmLeave, "the question again")
        await pilot.press("y")
        await wait_for_screen(pilot, HomeScreen)


async def test_no_continue_in_the_footer_without_saves():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await wait_for_text(pilot, "New game")  # the menu drawn
        assert "Continue" not in screen_text(app)


async def test_2v1_calls_a_deal_a_round():
    app = make_app("2v1", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        assert screen.sub_title.startswith("Round 1")
        assert "Deal" not in region_text(app, screen.query_one("#score"))


async def test_deal_summary_says_1_trick():
    session = Session.start("twos-tricks", None, 4, {"game_length": 8}, 1)
    g = session.game
    rng = random.Random(3)
    for _ in range(7):  # a deal where somebody takes exactly one trick
        play_until(g, lambda g: g.deal_over, rng)
        if 1 in g.tricks_taken:
            break
        g.next_deal()
    else:
        pytest.skip("no deal with a single trick")
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, DealEndScreen)
        text = await wait_for_text(pilot, " 1 trick,")
        assert "1 tricks" not in text and " 1 honours" not in text


async def test_twos_two_unmatched_cards_are_not_a_pair():
    session = session_at("twos", 2, lambda g: g.to_act() == (0,) and g.top is None)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        hand = screen._hand_order
        a, b = next(
            (x, y)
            for x in hand
            for y in hand
            if g.card_face(x).rank != g.card_face(y).rank and abs(hand.index(x) - hand.index(y)) > 1
        )
        screen.selected = {a, b}
        await pilot.press("enter")
        line = screen.query_one("#message")
        await wait_for(pilot, lambda: "two cards must be a pair" in str(line.render()), "why")


async def test_hot_seat_mover_sees_how_the_trick_ended():
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN)]
    seats += [SeatConfig("Ada", AI), SeatConfig("Bram", AI)]
    session = Session.start("twos-tricks", seats, 4, {"game_length": 1}, 6)
    app = make_app(session=session, ai_pause=0)
    rng = random.Random(2)
    async with app.run_test(size=(80, 24)) as pilot:
        async for _ in polls(pilot, "a pass screen saying how the trick ended"):
            screen = app.screen
            if isinstance(screen, PassScreen):
                g = session.game
                finished = [h for h in g.history if h.get("kind") == "trick"]
                if finished and "wins trick" in flat(screen_text(app)):
                    assert flat(finished[-1]["text"])[:30] in flat(screen_text(app))
                    return
                await pilot.press("enter")
            elif isinstance(screen, TableScreen) and screen._decision is not None:
                legal = screen.session.game.legal_actions(screen.viewer)
                screen.selected = set(rng.choice(legal).cards)
                await pilot.press("enter")
        raise AssertionError("no pass screen after a finished trick")


# ---------------------------------------------------------------------------------------
# issue 8 in the app: levels and pace kept, hints, AI off the UI thread, demo
# ---------------------------------------------------------------------------------------


async def test_picker_levels_and_pace_are_kept_for_next_time(data_home):
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:
        picker = await open_picker(pilot, "big-two")
        picker.seat_inputs[2][1].value = "ai:hard"
        picker.seat_inputs[3][1].value = "ai:easy"
        picker.query_one("#pace", Select).value = "slow"
        await pilot.press("ctrl+s")
        table = await wait_for_screen(pilot, TableScreen)
        assert [s.level for s in table.session.seats[1:]] == ["normal", "hard", "easy"]
        assert app.pace() == (0.0, 0.0)  # the tests' own pace
    stored = settings_file.load()
    assert stored.ai_pace == "slow"
    assert settings_file.PACES["slow"] == stored.pace()
    app2 = make_app(ai_pause=0)
    async with app2.run_test(size=(100, 40)) as pilot:
        picker = await open_picker(pilot)
        assert picker.cls.variant_id == "big-two"  # the last game chosen
        assert [sel.value for _, sel in picker.seat_inputs] == [
            "human",
            "ai:normal",
            "ai:hard",
            "ai:easy",
        ]
        assert picker.query_one("#pace", Select).value == "slow"


async def test_hint_marks_cards_says_why_changes_nothing_and_is_counted():
    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        s = screen.session
        before = s.to_json()
        for moving in ("updated", "clock"):  # wall-clock facts of the save
            before.pop(moving, None)
        await press_hint(pilot)
        after = s.to_json()
        for moving in ("updated", "clock"):
            after.pop(moving, None)
        # the hint is counted and saved with the game (a resumed deal still counts it)
        assert after.pop("hints") == [[s.game.deal_number, 0, 1]]
        assert before.pop("hints") == []
        assert after == before  # neither the game nor any AI generator moved
        resumed = Session.from_json(s.to_json(), autosave=False)
        assert resumed.hints_this_deal() == {"Player 1": 1}
        message = str(screen.query_one("#message").render())
        assert message.startswith("Hint from hard: ")
        hand = screen.query_one(HandView)
        hinted = screen.hints.shown[1]
        assert hand.hinted == set(hinted.cards)
        if hinted.cards:
            assert "◆" in region_text(app, hand)
        # the hint is good: h again picks its cards up, Enter plays them
        assert screen.session.game.check(screen.viewer, hinted) is None
        if hinted.cards:
            await pilot.press("h")
            assert screen.selected == set(hinted.cards)
            n = len(screen.session.game.actions)
            await pilot.press("enter")
            await wait_for(pilot, lambda: len(screen.session.game.actions) > n, "the hint played")
            assert screen.session.game.actions[n] == (0, hinted.to_json())
        # finish the deal and read the summary
        g = screen.session.game
        while not g.deal_over:
            seat = g.to_act()[0]
            s.apply(seat, g.legal_actions(seat)[0])
        screen.after_change()
        await wait_for_screen(pilot, DealEndScreen)
        await wait_for_text(pilot, "Hints this deal: Player 1 1 hint")


class BlockingAgent:
    """An AI that thinks until the test lets it go (on the worker thread)."""

    name = "blocking"

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def choose(self, obs, legal, decision, rng):
        self.started.set()
        self.release.wait(10)
        rng.random()
        return legal[0]


async def test_ai_thinks_off_the_ui_thread_and_is_cancelled_when_the_table_is_left():
    session = Session.start("big-two", None, 4, {}, 4)
    agent = BlockingAgent()
    session.agent = lambda seat: agent  # type: ignore[method-assign]
    g = session.game
    # an AI seat is to act
    play_until(g, lambda g: g.to_act()[0] != 0)
    rngs = {k: r.getstate() for k, r in session.ai_rngs.items()}
    # (a short pace: the table's AI worker is busy from the start; the agent itself blocks
    # until released, so nothing here waits on the clock)
    app = make_app(session=session, ai_pause=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, agent.started.is_set, "the AI to start thinking")
        table = app.screen
        assert table.ai_busy
        thinker = g.names[g.to_act()[0]]
        await wait_for(pilot, lambda: "thinking" in flat(screen_text(app)), "thinking shown")
        assert f"{thinker} is thinking" in flat(screen_text(app)) or "thinking…" in flat(
            screen_text(app)
        )
        # the interface answers while the AI thinks
        hand = table.query_one(HandView)
        at = hand.cursor
        await pilot.press("right")
        await wait_for(pilot, lambda: hand.cursor == (at + 1) % len(hand.cards), "the cursor")
        await pilot.press("s")
        await wait_for(pilot, lambda: table.sort_by == "suit", "the sort by suit")
        # leave: the decision is dropped, the game does not move
        n = len(g.actions)
        await pilot.press("q", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        agent.release.set()
        for _ in range(5):
            await pilot.pause()
        assert len(g.actions) == n
        assert {k: r.getstate() for k, r in session.ai_rngs.items()} == rngs


async def test_demo_with_every_seat_an_ai_pauses_and_steps():
    seats = [SeatConfig(n, AI) for n in ("Ada", "Bram", "Cleo")]
    session = Session.start("twos", seats, 3, {"deals_to_win": 1}, 8)
    g = session.game
    # (a short pace so that the demo runs; the test then waits for states only)
    app = make_app(session=session, ai_pause=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        # not pilot.pause(): it waits for an idle CPU, and a running demo is never idle
        # (the whole deal went by before the space key was pressed)
        await pilot.pause(0)
        table = app.screen
        assert isinstance(table, TableScreen) and table.demo
        assert not g.deal_over
        await pilot.press("space")  # pause
        await wait_for(pilot, lambda: not table.ai_busy, "the demo to stop")
        n = len(g.actions)
        for _ in range(5):
            await pilot.pause()  # (a paused demo is idle: this waits for states, not time)
        assert len(g.actions) == n  # paused: nothing moves
        await pilot.press("n")  # one step
        await wait_for(
            pilot, lambda: len(g.actions) >= n + 1 and not table.ai_busy, "one step of the demo"
        )
        assert len(g.actions) == n + 1
        for _ in range(5):
            await pilot.pause()
        assert len(g.actions) == n + 1
        # whose hand is shown: f moves round the table
        shown = table.seat_on_screen()
        await pilot.press("f")
        assert table.seat_on_screen() == (shown + 1) % 3
        hand = table.query_one(HandView)
        assert sorted(hand.cards) == sorted(g.hands[table.seat_on_screen()])
        assert "demo" in table.sub_title


async def test_picker_starts_a_demo_when_every_seat_is_an_ai():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:
        picker = await open_picker(pilot, "twos")
        picker.seat_inputs[0][1].value = "ai:easy"
        note = picker.query_one("#picker-error")
        await wait_for(pilot, lambda: "demo" in str(note.render()), "the demo note")
        await pilot.click("#start")
        table = await wait_for(
            pilot,
            lambda: next((s for s in app.screen_stack if isinstance(s, TableScreen)), None),
            "the demo table",
        )
        assert table.demo and not table.session.humans


# ---------------------------------------------------------------------------------------
# issue 12: one board per family, no Textual private attributes, exclusive AI worker
# ---------------------------------------------------------------------------------------


async def test_theme_cache_follows_public_theme_calls_and_theme_is_kept(data_home):
    from textual.theme import Theme

    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        assert app.current_theme.name == app.theme
        app.register_theme(Theme("twos-test", primary="#123456", dark=True))
        app.theme = "twos-test"
        await wait_for(pilot, lambda: app.current_theme.primary == "#123456", "the new theme")
        app.theme = "textual-light"
        await wait_for(pilot, lambda: app.current_theme.name == "textual-light", "the light one")
    assert settings_file.load().theme == "textual-light"
    app2 = make_app(ai_pause=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        assert app2.theme == "textual-light"


async def test_one_ai_worker_at_a_time():
    seats = default_seats(4, humans=0)
    session = Session.start("big-two", seats, 4, {}, 5)
    app = make_app(session=session, ai_pause=math.inf)  # the AI waits while the test looks
    async with app.run_test(size=(80, 24)) as pilot:
        table = await wait_for_screen(pilot, TableScreen)
        for _ in range(3):
            table.advance()
        await pilot.pause()
        running = [w for w in app.workers if w.group == "ai" and not w.is_finished]
        assert len(running) == 1
