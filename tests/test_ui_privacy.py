"""Issue 16, privacy and pace at the table: the hot-seat pass screen takes no key that
was pressed before it appeared nor in its guard time (items 1), Enter with nothing
selected never plays silently (item 2), each person's recap starts at their own last turn
(item 3), finished tricks stay until read (item 4), the palette's table commands (item
12).

No test here sleeps for a pause: guards and trick pauses are armed or cut short by the
test itself. The quick loop keeps the hot-seat guard's tests; the rest (a few seconds
each on a busy machine) are marked slow."""

from __future__ import annotations

import random

import pytest
from ui_helpers import ai_plays_the_deal, wait_for

from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import PassScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def wait_until(pilot, cond, what: str = "the state waited for") -> None:
    await wait_for(pilot, cond, what)


async def take_the_seat(pilot, app) -> TableScreen:
    """Dismiss the pass screen on top (arming its guard: no waiting) and return the table
    with the hand shown."""
    await wait_until(pilot, lambda: on_pass_screen(app))
    arm(app.screen)
    await pilot.press("enter")
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, TableScreen)
            and app.screen.viewer is not None
            and app.screen._decision is not None
        ),
    )
    return app.screen


def on_pass_screen(app) -> bool:
    """A pass screen is up and has appeared (its guard counts from then)."""
    s = app.screen
    return isinstance(s, PassScreen) and s.is_mounted and getattr(s, "opened_at", 0) is not None


def human_to_move(app) -> bool:
    s = app.screen
    return (
        isinstance(s, TableScreen)
        and s.viewer is not None
        and s._decision is not None
        and not s.ai_busy
    )


def arm(screen) -> None:
    """End a screen's key guard now (what its timer does after the guard time)."""
    arm_keys = getattr(screen, "arm_keys", None)
    if arm_keys is not None:
        arm_keys()


def hand_codes_shown(screen: TableScreen) -> list[str]:
    return list(screen.query_one(HandView).cards)


@pytest.mark.parametrize(
    "variant,seats,players",
    [
        ("twos", [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN)], 2),
        (
            "2v1",
            [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN), SeatConfig("Cy", HUMAN)],
            3,
        ),
    ],
)
async def test_a_quick_second_enter_never_shows_the_next_hand(monkeypatch, variant, seats, players):
    # the guard lasts the whole test: only arm() ends it
    monkeypatch.setattr(PassScreen, "GUARD", 1000.0, raising=False)
    session = Session.start(variant, seats, players, {}, 5)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await take_the_seat(pilot, app)
        g = session.game
        # make moves until one hands the turn to another person
        for _ in range(20):
            mover = table.viewer
            d = table._decision
            n = len(g.actions)
            if d.select:
                table.selected = set(g.legal_actions(mover)[0].cards)
                await pilot.press("enter", "enter")
            else:
                await pilot.press("enter", "enter")
            await wait_until(
                pilot,
                lambda: on_pass_screen(app) or human_to_move(app),
                "the next person's pass screen or another turn",
            )
            if isinstance(app.screen, PassScreen):
                break
            table = app.screen
        else:
            raise AssertionError("no hand-over")
        assert len(g.actions) == n + 1  # the second Enter played nothing
        for _ in range(5):
            await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        assert table.viewer is None
        assert hand_codes_shown(table) == []
        assert len(g.actions) == n + 1
        # once armed, a deliberate Enter shows the next person's hand
        arm(app.screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen.viewer is not None and app.screen.viewer != mover


# ----- item 2: Enter with nothing selected -------------------------------------------------


def session_at_decision(variant: str, kind: str, seed: int) -> Session:
    """Seat 0 (the human; the others AI) asked a decision of ``kind``: found by playing
    seeded random legal moves at engine level."""
    rng = random.Random(seed)
    for attempt in range(50):
        session = Session.start(variant, None, None, {}, seed + attempt)
        g = session.game
        for _ in range(400):
            if g.deal_over:
                break
            if 0 in g.to_act() and g.decision(0).kind == kind:
                return session
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    raise AssertionError(f"no {kind} decision found")


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant,kind",
    [
        ("twos-tricks", "play"),
        ("2v1", "discard"),
        ("2v1", "lead"),
        ("2v1", "follow"),
    ],
)
async def test_enter_with_nothing_selected_picks_up_and_does_not_play(variant, kind):
    session = session_at_decision(variant, kind, 3)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, TableScreen)
                and app.screen._decision is not None
                and app.screen._decision.kind == kind
            ),
        )
        screen = app.screen
        n = len(g.actions)
        hand = screen.query_one(HandView)
        # the cursor on a card that may be played (a legal one, for the second Enter)
        legal = {c for a in g.legal_actions(0) for c in a.cards}
        hand.cursor = next(i for i, c in enumerate(hand.cards) if c in legal)
        under = hand.cards[hand.cursor]
        await pilot.press("enter")
        line = screen.query_one("#message")
        await wait_until(pilot, lambda: "Enter again" in str(line.render()), "Enter again")
        assert all(seat != 0 for seat, _ in g.actions[n:])  # nothing played
        assert screen.selected == {under}
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(seat == 0 for seat, _ in g.actions[n:]), "the play")
        mine = [a for seat, a in g.actions[n:] if seat == 0]
        assert mine[0]["cards"] == [under]


# ----- item 3: the recap starts at this person's own last turn -----------------------------


@pytest.mark.slow
@pytest.mark.parametrize("kinds", [(HUMAN, HUMAN, HUMAN), (HUMAN, AI, HUMAN)])
async def test_each_persons_recap_covers_everything_since_their_last_turn(kinds):
    names = ["Ada", "Bram", "Cleo"]
    seats = [SeatConfig(n, k) for n, k in zip(names, kinds, strict=True)]
    session = Session.start("twos", seats, 3, {}, 4)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    after_my_turn: dict[int, int] = {}  # seat -> history length after its last move
    checked = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(60):
            await wait_until(pilot, lambda: on_pass_screen(app) or human_to_move(app))
            if isinstance(app.screen, PassScreen):
                seat = names.index(app.screen.player_name)
                recap = app.screen.recap.plain
                if seat in after_my_turn:
                    since = [str(h["text"]) for h in g.history[after_my_turn[seat] :]]
                    assert since, "somebody moved in between"
                    if len(since) < 7:
                        for line in since:
                            assert line in recap
                        checked += 1
                arm(app.screen)
                await pilot.press("enter")
                await wait_until(pilot, lambda: human_to_move(app))
                continue
            table = app.screen
            seat = table.viewer
            table.act(g.legal_actions(seat)[-1])
            after_my_turn[seat] = len(g.history)
            await pilot.pause()
            if g.deal_over or checked >= 3:
                break
        assert checked >= 3


# ----- item 4: a finished trick stays until read ----------------------------------------------


def trick_done_ai_next(g) -> bool:
    """A trick (or 2v1 hand) was just finished and an AI seat is to play on."""
    return (
        bool(g.history)
        and g.history[-1].get("kind") in ("trick", "return")  # 2v1: after its hand
        and not g.observation(0).get("table")
        and not g.deal_over
        and 0 not in g.to_act()
    )


def session_where(variant: str, done, seed: int = 1) -> Session:
    rng = random.Random(seed)
    for attempt in range(40):
        session = Session.start(variant, None, None, {}, seed + attempt)
        g = session.game
        for _ in range(400):
            if done(g):
                return session
            if g.deal_over:
                break
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    raise AssertionError("position not found")


def paced_app(session: Session, pace: str, trick_pause: str):
    """An app at a pace from the settings (no test override), AI on its thread."""
    app = make_app(session=session, ai_pause=None)
    app.settings.ai_pace = pace
    app.settings.trick_pause = trick_pause
    return app


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["twos-tricks", "2v1", "big-two"])
async def test_a_finished_trick_stays_until_a_key_at_instant_pace(variant):
    session = session_where(variant, trick_done_ai_next)
    g = session.game
    n = len(g.actions)
    app = paced_app(session, "instant", "key")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        await wait_until(pilot, lambda: getattr(screen.ai, "holding_trick", False))
        for _ in range(30):  # however long it is given, the AI waits for the key
            await pilot.pause()
        assert len(g.actions) == n
        assert screen.ai.holding_trick
        assert "any key" in str(screen.query_one("#message").render()).lower()
        await pilot.press("right")  # any key
        await wait_until(pilot, lambda: len(g.actions) > n)


@pytest.mark.slow
@pytest.mark.parametrize("pace,seconds", [("instant", 1.5), ("normal", 2.0), ("slow", 3.0)])
async def test_the_trick_pause_follows_the_pace_and_a_key_cuts_it_short(monkeypatch, pace, seconds):
    from twos_tui.ui.screens.table_ai import AiTurns

    asked: list[float | None] = []
    real = AiTurns.hold_trick

    async def recorded(self, hold):
        asked.append(hold)
        await real(self, None)  # held until the test goes on: no clock in the test

    monkeypatch.setattr(AiTurns, "hold_trick", recorded)
    session = session_where("twos-tricks", trick_done_ai_next)
    g = session.game
    n = len(g.actions)
    app = paced_app(session, pace, "pace")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: asked and app.screen.ai.holding_trick)
        assert asked == [seconds]
        assert len(g.actions) == n
        app.screen.ai.go_on()  # what a key does, or the time running out
        await wait_until(pilot, lambda: len(g.actions) > n)


@pytest.mark.slow
async def test_a_demo_follows_the_pace_without_waiting_for_a_key():
    seats = [SeatConfig(n, AI) for n in ("Ada", "Bram", "Cleo", "Dan")]
    session = Session.start("twos-tricks", seats, 4, {}, 2)
    g = session.game
    app = paced_app(session, "instant", "key")
    async with app.run_test(size=(80, 24)) as pilot:

        def two_tricks() -> bool:
            return sum(h.get("kind") == "trick" for h in g.history) >= 2

        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        await wait_until(pilot, two_tricks)  # no key was pressed
        # pause the demo (as space does), so the test ends between moves; at the instant
        # pace the deal may have ended meanwhile and its summary be on top
        if not table.demo_controls.paused:
            table.action_demo_pause()
        await wait_until(pilot, lambda: not table.ai_busy)


@pytest.mark.slow
async def test_the_deal_summary_waits_for_a_key_after_the_last_play():
    from twos_tui.ui.screens.dialogs import DealEndScreen

    session = session_where("twos-tricks", lambda g: g.deal_over)
    app = paced_app(session, "instant", "key")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        for _ in range(20):
            await pilot.pause()
        assert app.screen is screen  # the last trick is still there to read
        assert "any key" in str(screen.query_one("#message").render()).lower()
        await pilot.press("right")
        await wait_until(pilot, lambda: isinstance(app.screen, DealEndScreen))


def test_the_trick_pause_setting_is_kept_and_checked():
    from twos_tui.play import settings as st

    s = st.Settings(ai_pace="slow", trick_pause="key")
    back = st.Settings.from_json(s.to_json())
    assert back.trick_pause == "key" and back.trick_hold() is None
    assert st.Settings.from_json({"trick_pause": "forever"}).trick_pause == "pace"
    assert st.Settings(ai_pace="instant").trick_hold() == 1.5


# ----- item 12: the palette at the table; replay from the command line -------------------


def command(app, start: str):
    found = [c for c in app.get_system_commands(app.screen) if c.title.startswith(start)]
    assert found, f"no command {start!r}"
    return found[0]


@pytest.mark.slow
async def test_palette_has_log_last_trick_undo_and_the_pace_at_the_table(data_home):
    from twos_tui.play import settings as st
    from twos_tui.ui.screens.dialogs import InfoDialog
    from twos_tui.ui.screens.home import HomeScreen

    session = session_where(
        "twos-tricks",
        lambda g: sum(h.get("kind") == "trick" for h in g.history) >= 1 and 0 in g.to_act(),
    )
    app = make_app(session=session, ai_pause=None)
    app.settings.ai_pace = "normal"
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_to_move(app))
        table = app.screen
        titles = [c.title for c in app.get_system_commands(table)]
        assert "Undo (ctrl+z)" in titles
        command(app, "Log").callback()
        await wait_until(pilot, lambda: isinstance(app.screen, InfoDialog))
        assert "Log" in app.screen.title_text
        await pilot.pause()
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is table)
        command(app, "Last trick").callback()
        await wait_until(pilot, lambda: isinstance(app.screen, InfoDialog))
        assert app.screen.title_text == "Last trick"
        await pilot.pause()
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is table)
        # the pace, changed during the game: at once and kept
        assert command(app, "AI pace").title == "AI pace: normal → slow"
        command(app, "AI pace").callback()
        assert app.pace() == st.PACES["slow"] and st.load().ai_pace == "slow"
        command(app, "AI pace").callback()
        assert app.pace() == st.PACES["instant"] and st.load().ai_pace == "instant"
        command(app, "Trick pause").callback()
        assert app.trick_hold() is None and st.load().trick_pause == "key"
        # where hints come from: hard by default, normal at once and kept
        assert command(app, "Hints from").title == "Hints from: hard → normal"
        command(app, "Hints from").callback()
        assert st.load().hint_level == "normal"
        assert command(app, "Hints from").title == "Hints from: normal → hard"
        # off the table, none of them
        app.push_screen(HomeScreen())
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for start in ("Log", "Last trick", "AI pace", "Trick pause", "Hints from", "Undo"):
            assert not any(t.startswith(start) for t in titles)


@pytest.mark.slow
async def test_replay_from_the_command_line_closes_to_the_shell(data_home):
    from twos_tui.play import history
    from twos_tui.ui.screens.replay import ReplayScreen

    s = Session.start("big-two", seed=6)
    ai_plays_the_deal(s)
    history.RECORDER.flush()
    app = make_app(ai_pause=0, replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.return_code is not None, "the app to end")
        assert app.return_code == 0  # the app ended: back to the shell, not its home


async def test_a_key_pressed_before_the_pass_screen_appeared_is_dropped():
    from textual import events

    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bob", HUMAN)]
    app = make_app(session=Session.start("twos", seats, 2, {}, 5), ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on_pass_screen(app))
        pass_screen = app.screen
        assert pass_screen.keys_armed  # no guard time in the tests (GUARD = 0)
        early = events.Key("enter", None)
        early.time = pass_screen.opened_at - 0.01  # pressed just before it appeared
        app.post_message(early)
        for _ in range(5):
            await pilot.pause()
        assert app.screen is pass_screen
        await pilot.press("enter")  # pressed after: taken
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))


@pytest.mark.slow
async def test_a_quick_second_enter_does_not_skip_the_deal_summary(monkeypatch):
    from twos_tui.ui.screens.dialogs import DealEndScreen

    monkeypatch.setattr(DealEndScreen, "GUARD", 1000.0)
    session = session_where("twos-tricks", lambda g: g.deal_over)
    g = session.game
    deal = g.deal_number
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, DealEndScreen))
        end = app.screen
        await pilot.press("enter", "enter", "escape", "q")
        await pilot.pause()
        assert app.screen is end and g.deal_number == deal
        end.arm_keys()
        await pilot.press("enter")
        await wait_until(pilot, lambda: g.deal_number == deal + 1)
