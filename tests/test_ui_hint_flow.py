"""Hints you can act on (issue: "the hint is hard to act on"): ``h`` takes the hinted move
up at once (its cards picked up, or its button focused) and Enter makes it; Enter with a
play selected never passes; in a lesson a refused move goes back down, ``h`` picks the
right one up and the same refusal again is not another mistake; auto-pass (``a``) in the
climbing games; every hint and refusal shows whole on the message line at 80×24."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading

import pytest
from ui_helpers import flat, polls, press_hint, region_text, wait_for, wait_for_human

from twos_tui.ai import suggest
from twos_tui.engine import VARIANT_IDS, Action
from twos_tui.play.lessons import load_lesson
from twos_tui.play.session import HUMAN, SeatConfig, Session, default_seats
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import PassScreen
from twos_tui.ui.screens.learn import LessonScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.screens.table_hints import hint_line
from twos_tui.ui.screens.table_message import PREFIXES
from twos_tui.ui.widgets import HandView, MessageLine


def message(app) -> str:
    """The message line as the screen shows it (wrapped lines read on)."""
    return flat(region_text(app, app.screen.query_one(MessageLine)))


def raised(app, screen: TableScreen) -> list[str]:
    """The card labels drawn raised (selected cards stand one line higher): the hand's
    first row, where only the selected cards are drawn."""
    hand = screen.query_one(HandView)
    top = region_text(app, hand).split("\n")[0]
    return top.split()


async def until(pilot, cond, what: str = "the state") -> None:
    """Wait for a state, bounded in seconds (generous enough for a busy machine)."""
    await wait_for(pilot, cond, what)


def normal_hints(app) -> None:
    app.settings.hint_level = "normal"  # answers at once (hard searches on a thread)


# ----- h picks the hint up, Enter plays it ---------------------------------------------------
@pytest.mark.parametrize("variant", ["big-two-5r", "twos", "twos-tricks"])
async def test_h_takes_the_hint_up_at_once_and_enter_makes_it(variant):
    """Each of several turns: one h picks the hinted cards up (drawn raised, the reason
    on the message line with what Enter does) or, for a hinted pass, focuses the Pass
    button; one Enter then makes exactly the hinted move."""
    app = make_app(variant, seed=7, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        normal_hints(app)
        kinds = set()
        for _ in range(6):
            screen = await wait_for_human(pilot)
            g = screen.session.game
            if g.deal_over:
                break
            # as if the last turn's pass had been pressed a moment ago: a button's press
            # effect ("-active", 0.2 s) makes it drop presses; the hint's button must not
            for b in screen.query("#choices Button"):
                b.add_class("-active")
            await press_hint(pilot)
            hinted = screen.hints.shown[1]
            line = message(app)
            assert line.startswith("Hint from normal: "), line
            assert "Enter:" in line, line
            if hinted.cards:
                assert screen.selected == set(hinted.cards)
                labels = [g.card_face(c).label for c in hinted.cards]
                assert sorted(raised(app, screen)) == sorted(labels)
                assert screen.focused is screen.query_one(HandView)
            else:
                assert screen.focused is not None and "Pass" in str(screen.focused.label)
            kinds.add(hinted.kind)
            n = len(g.actions)
            await pilot.press("enter")
            await until(pilot, lambda n=n, g=g: len(g.actions) > n)
            assert g.actions[n] == (screen.viewer, hinted.to_json())
        assert kinds


async def test_h_on_a_choice_focuses_the_hinted_button_and_enter_takes_it():
    """2v1's bid: h focuses the hinted bid's button; Enter takes that bid."""
    app = make_app("2v1", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        normal_hints(app)
        screen = await wait_for_human(pilot)
        g = screen.session.game
        d = screen._decision
        assert d is not None and not d.select and d.choices
        await press_hint(pilot)
        hinted = screen.hints.shown[1]
        label = next(c.label for c in d.choices if c.action == hinted)
        focused = screen.focused
        assert focused is not None and str(focused.label).startswith(label)
        assert f"Enter: {label}" in message(app)
        n = len(g.actions)
        await pilot.press("enter")
        await until(pilot, lambda: len(g.actions) > n)
        assert g.actions[n] == (screen.viewer, hinted.to_json())


async def test_h_again_takes_the_same_hint_up_and_counts_it_once():
    app = make_app("big-two", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        normal_hints(app)
        screen = await wait_for_human(pilot)
        await press_hint(pilot)
        hinted = screen.hints.shown[1]
        first = message(app)
        screen.selected.clear()
        screen.selection.changed()
        await press_hint(pilot)
        assert screen.selected == set(hinted.cards)
        assert message(app) == first
        s = screen.session
        assert s.hints == {(s.game.deal_number, screen.viewer): 1}


# ----- Enter with a play selected never passes -----------------------------------------------
def first_turn_with_a_pass(variant: str, seed: int) -> Session:
    """A seeded game played (first legal moves) up to seat 0's first turn that may pass."""
    s = Session.start(variant, default_seats(4), seed=seed, autosave=False)
    g = s.game
    for _ in range(200):
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if seat == 0 and Action("pass") in legal and len(legal) > 1:
            return s
        s.apply(seat, legal[0])
    raise AssertionError("no turn with a pass")


@pytest.mark.parametrize("variant", ["big-two-5r", "big-two"])
async def test_enter_with_a_selected_play_never_passes(variant):
    """The one key path that passed with a play selected: the Pass button had the focus
    (Tab, or a hinted pass) and took Enter before the table. Selecting a card now gives
    the focus back to the hand, so Enter plays the selection."""
    session = first_turn_with_a_pass(variant, seed=5)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = session.game
        play = next(a for a in g.legal_actions(0) if a.kind == "play")
        for _ in range(8):  # Tab to the Pass button
            if screen.focused is not None and "Pass" in str(getattr(screen.focused, "label", "")):
                break
            await pilot.press("tab")
        assert "Pass" in str(screen.focused.label)
        hand = screen.query_one(HandView)
        for code in play.cards:
            hand.cursor = screen._hand_order.index(code)
            await pilot.press("space")
        assert screen.selected == set(play.cards)
        n = len(g.actions)
        await pilot.press("enter")
        await until(pilot, lambda: len(g.actions) > n)
        assert g.actions[n][1]["kind"] == "play"  # (was a pass: the button took Enter)
        assert set(g.actions[n][1]["cards"]) == set(play.cards)


async def test_enter_makes_a_hinted_pass_wherever_the_focus_went(monkeypatch):
    """h on a hinted pass focuses the Pass button; should the focus go back to the hand
    before the Enter comes (a click, a redraw), Enter still makes the hinted pass: it
    does not pick up the card under the cursor. With a card picked up since, it does
    not pass."""
    import dataclasses

    from twos_tui.ui.screens import table_hints

    real = table_hints.suggest

    def pass_hint(*args, **kw):
        return dataclasses.replace(real(*args, **kw), action=Action("pass"))

    monkeypatch.setattr(table_hints, "suggest", pass_hint)
    session = first_turn_with_a_pass("big-two", seed=5)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        normal_hints(app)
        screen = await wait_for_human(pilot)
        g = session.game
        await press_hint(pilot)
        assert "Enter: Pass" in message(app)
        hand = screen.query_one(HandView)
        hand.focus()
        await wait_for(pilot, lambda: screen.focused is hand, "the hand focused")
        n = len(g.actions)
        await pilot.press("enter")
        await until(pilot, lambda: len(g.actions) > n, "the hinted pass")
        assert g.actions[n] == (0, {"kind": "pass"})
    # a card picked up after the hint: Enter is about that card, never the pass
    session = first_turn_with_a_pass("big-two", seed=5)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        normal_hints(app)
        screen = await wait_for_human(pilot)
        g = session.game
        await press_hint(pilot)
        hand = screen.query_one(HandView)
        hand.focus()
        await pilot.press("space")
        assert screen.selected
        n = len(g.actions)
        await pilot.press("enter")
        await pilot.pause()
        assert all(a[1]["kind"] != "pass" for a in g.actions[n:])


# ----- lessons ------------------------------------------------------------------------------
async def test_a_lesson_refusal_clears_the_selection_and_h_picks_the_right_move_up():
    lesson = load_lesson("twos")
    step = next(i for i, s in enumerate(lesson.steps) if s.goals[0].wrong is not None)
    goal = lesson.steps[step].goals[0]
    assert goal.wrong is not None and goal.wrong.cards
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("twos", step)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LessonScreen) and app.screen._decision)
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        hand = screen.query_one(HandView)
        reason = screen.run.refusal(goal.wrong)
        assert reason
        for attempt in range(3):  # the same wrong move, three times
            for code in goal.wrong.cards:
                hand.cursor = screen._hand_order.index(code)
                await pilot.press("space")
            assert screen.selected == set(goal.wrong.cards)
            await pilot.press("enter")
            await until(pilot, lambda: flat(reason)[:40] in message(app))
            # refused: nothing stays raised, and it counts once however often it is tried
            assert screen.selected == set()
            assert raised(app, screen) == []
            assert screen.run.mistakes == 1, attempt
            # Enter after a refusal does not replay the refused cards
            await pilot.press("enter")
            await pilot.pause()
            assert screen.selected != set(goal.wrong.cards) or len(goal.wrong.cards) == 1
            screen.selected.clear()
            screen.selection.changed()
        await pilot.press("h")
        await until(pilot, lambda: screen.selected == set(goal.accept[0].cards))
        labels = [screen.face(c).label for c in goal.accept[0].cards]
        assert sorted(raised(app, screen)) == sorted(labels)
        assert "Enter: play" in message(app)
        await pilot.press("h")  # a second h keeps it picked up
        assert screen.selected == set(goal.accept[0].cards)
        await pilot.press("enter")
        await until(pilot, lambda: screen.run.goal_index > 0 or screen.run.passed)
        assert screen.run.mistakes == 1


async def test_a_lesson_hint_on_a_choice_focuses_its_button():
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("2v1", 4)  # the card that goes back
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LessonScreen) and app.screen._decision)
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        move = screen.run.goal.accept[0]
        await pilot.press("h")
        await until(pilot, lambda: "keep 5☾" in message(app))
        d = screen._decision
        label = next(c.label for c in d.choices if c.action == move)
        assert str(screen.focused.label).startswith(label)
        await pilot.press("enter")
        await until(pilot, lambda: screen.run.goal_index > 0 or screen.run.passed)
        assert screen.run.mistakes == 0


# ----- every hint and refusal shows whole at 80x24 ------------------------------------------
def _hint_text(g, seat, d, hint) -> str:
    """The message line of a hint as the table writes it (what Enter does included)."""
    labels = {c.action: c.label for c in d.choices}
    cards = " ".join(g.card_face(c).label for c in hint.action.cards)
    move = labels.get(hint.action) or f"{hint.action.kind} {cards}".strip()
    then = (d.submit or "play") if hint.action.cards and d.select else labels.get(hint.action, "")
    return f"from {hint.level}: {hint_line(move, hint.reason, cards)} · Enter: {then}"


def longest_texts(variant: str) -> list[tuple[str, str]]:
    """The longest hint and the longest refusal met over seeded deals of ``variant``:
    ``normal``'s hint at every decision, ``hard``'s at some, and (the climbing games)
    ``hard``'s wording at its longest (the longest play, a search of 99,999 deals, the
    next best named); refusals of random selections of every size and of a pass."""
    from twos_tui.ai.learn.explain import explain
    from twos_tui.engine import new_game

    hint, refusal = "", ""
    for seed in range(4):
        g = new_game(variant, seed=seed)
        rng = random.Random(f"fit:{variant}:{seed}")
        for step in range(300):
            if g.deal_over:
                break
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            d = g.decision(seat)
            obs = g.observation(seat)
            hints = [suggest(variant, obs, legal, d, random.Random(seed))]
            if seed == 0 and step % 6 == 0:
                hints.append(
                    suggest(variant, obs, legal, d, random.Random(0), "hard", iterations=30)
                )
            plays = sorted((a for a in legal if a.cards), key=lambda a: -len(a.cards))
            if obs.get("family") == "climbing" and len(plays) > 1:
                act, other = plays[0], plays[1]
                ranked = [(0.99, legal.index(act)), (0.98, legal.index(other))]
                crafted = explain(
                    obs, legal, d, random.Random(0), act, "hard", ranked, {"worlds": 99999}
                )
                hints.append(crafted.__class__(crafted.action, crafted.reason, "hard"))
            for h in hints:
                text = _hint_text(g, seat, d, h)
                if len(text) > len(hint):
                    hint = text
            hand = list(obs.get("hand", []))
            tries = [Action("pass")]
            if d.select and hand:
                for size in range(1, min(len(hand), d.select[1]) + 1):
                    tries.append(Action(d.submit or "play", tuple(rng.sample(hand, size))))
            for a in tries:
                reason = g.check(seat, a) or ""
                if len(reason) > len(refusal):
                    refusal = reason
            g.apply(seat, rng.choice(legal))
    assert hint and refusal
    return [(hint, "hint"), (refusal, "error")]


@pytest.mark.parametrize("variant", VARIANT_IDS)
async def test_the_longest_hint_and_refusal_show_whole_at_80x24(variant):
    texts = await asyncio.to_thread(longest_texts, variant)
    app = make_app(variant, seed=1, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        line = screen.query_one(MessageLine)
        for text, kind in texts:
            screen.show_message(text, kind)
            want = flat(PREFIXES[kind] + text)
            await until(pilot, lambda want=want: message(app) == want)
            assert line.region.height <= 4
            # the hand and the key bar are still on screen under it
            assert screen.query_one(HandView).region.height >= 2


# ----- auto-pass ----------------------------------------------------------------------------
def beat_with_the_lowest(g, seat: int) -> Action:
    legal = g.legal_actions(seat)
    plays = [a for a in legal if a.kind == "play" and len(a.cards) == 1]
    return plays[0] if plays else next(a for a in legal if a.kind == "pass")


async def hot_seat_turn(pilot, seat: int, seen: list[str]) -> TableScreen:
    """Wait for ``seat``'s turn at a shared screen, going through the pass screens (the
    names on them noted in ``seen``)."""
    app = pilot.app
    async for _ in polls(pilot, f"seat {seat}'s turn"):
        s = app.screen
        if isinstance(s, PassScreen):
            seen.append(flat(str(s.query_one("#pass-title").render())))
            await pilot.press("enter")
            continue
        if isinstance(s, TableScreen) and s.viewer == seat and s._decision is not None:
            return s
    raise AssertionError(f"no turn for seat {seat}")


def lowest_lead(g, seat: int) -> Action:
    return next(a for a in g.legal_actions(seat) if a.kind == "play" and len(a.cards) == 1)


async def test_auto_pass_at_a_shared_screen_passes_each_turn_until_the_trick_ends():
    """Twos, three people at one screen: the second seat turns auto-pass on (a pass at
    once); its seat box says so; at its next turn in that trick the pass is made for it
    without its pass screen; the next trick turns it off."""
    seats = [SeatConfig(f"Player {i + 1}", HUMAN) for i in range(3)]
    session = Session.start("twos", seats, seed=11, autosave=False)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        seen: list[str] = []
        leader = g.to_act()[0]
        armer, third = (leader + 1) % 3, (leader + 2) % 3
        screen = await hot_seat_turn(pilot, leader, seen)
        screen.act(lowest_lead(g, leader))
        screen = await hot_seat_turn(pilot, armer, seen)
        n = len(g.actions)
        await pilot.press("a")
        await until(pilot, lambda: len(g.actions) > n)
        assert g.actions[n] == (armer, {"kind": "pass"})
        assert armer in screen.autopass.armed
        # the next seat's turn: the armed seat's box says auto-pass
        screen = await hot_seat_turn(pilot, third, seen)
        assert "auto-pass" in flat(region_text(app, screen.board))
        seen.clear()
        screen.act(beat_with_the_lowest(g, third))
        screen = await hot_seat_turn(pilot, leader, seen)
        n = len(g.actions)
        screen.act(beat_with_the_lowest(g, leader))
        # the armed seat passes by itself, with no pass screen of its own
        await until(pilot, lambda: len(g.actions) >= n + 2)
        assert g.actions[n + 1] == (armer, {"kind": "pass"})
        assert not any(g.names[armer] in name for name in seen), seen
        # the others pass until a new trick begins: auto-pass is off, the box says so
        for _ in range(6):
            if not g.trick:
                break
            seat = g.to_act()[0]
            if seat == armer:
                break
            screen = await hot_seat_turn(pilot, seat, seen)
            screen.act(Action("pass"))
            await pilot.pause()
        await until(pilot, lambda: not g.trick or g.to_act()[0] == armer)
        screen = await hot_seat_turn(pilot, g.to_act()[0], seen)
        assert armer not in screen.autopass.armed
        assert "auto-pass" not in flat(region_text(app, screen.board))


@contextlib.contextmanager
def server_on_a_thread(table):
    """A live server on a loop of its own (as a host on another computer would be): a
    move sent from the app's loop waits for the host's answer, which must come from
    elsewhere."""
    from twos_tui.play.net.server import TableServer

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = TableServer()
    server.add(table)
    asyncio.run_coroutine_threadsafe(server.start("127.0.0.1", 0), loop).result(30)
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


async def test_auto_pass_at_a_joined_table_passes_through_the_host(tmp_path, monkeypatch):
    """A joined table (the host elsewhere): a turns auto-pass on at a turn with a pass;
    the later passes of that trick are made by the client the way p makes them (the host
    applies them); a new trick turns it off."""
    from net_helpers import remote_table

    from twos_tui.play.net.client import RemoteSeatView
    from twos_tui.ui.hosting import joined_view

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=3, kinds=["ai", "remote", "ai"], autosave=False)
    with server_on_a_thread(table) as server:
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Zoe", False
        )
        app = make_app(autosave=False, ai_pause=None)
        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, TableScreen), 3000)
                screen = app.screen
                assert isinstance(screen, TableScreen)
                seat = view.controls[0]
                host = table.game
                pressed = 0

                def auto() -> int:
                    """Passes the client made by itself: more passes than a presses."""
                    mine = [a for s, a in host.actions if s == seat and a["kind"] == "pass"]
                    return len(mine) - pressed

                for _ in range(60):
                    await until(
                        pilot,
                        lambda: (
                            host.deal_over
                            or auto() > 0
                            or (
                                seat in view.to_act()
                                and screen._decision is not None
                                and not screen.autopass.armed
                            )
                        ),
                        3000,
                    )
                    if host.deal_over or auto() > 0:
                        break
                    d = screen._decision
                    n = len(host.actions)
                    if any(c.action.kind == "pass" for c in d.choices):
                        pressed += 1
                        await pilot.press("a")
                    else:
                        screen.act(view.legal_actions(seat)[0])
                    await until(pilot, lambda n=n: len(host.actions) > n, 3000)
                    assert host.actions[n][0] == seat
                assert auto() >= 1, "no turn was passed by auto-pass"
                # that trick ended: auto-pass is off again, and the seat box says nothing
                await until(pilot, lambda: not screen.autopass.armed, 3000)
                assert "auto-pass" not in flat(region_text(app, screen.board))
        finally:
            view.close()


async def test_a_still_chooses_hand_a_in_two_player_chinese_poker():
    """Chinese Poker's hand choice keeps its own key a (auto-pass is not offered there)."""
    session = Session.start("chinese-poker", default_seats(2), seed=4, autosave=False)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, TableScreen)
                and app.screen._decision is not None
                and any(c.key == "a" for c in app.screen._decision.choices)
            ),
        )
        screen = app.screen
        assert "Auto-pass" not in flat(region_text(app, screen.query_one("KeyBar")))
        n = len(g.actions)
        await pilot.press("a")
        await until(pilot, lambda: len(g.actions) > n)
        assert g.actions[n] == (screen.viewer, {"kind": "choose-hand", "value": "A"})


async def test_an_undo_turns_auto_pass_off():
    """ctrl+z takes an auto-passed turn back: the seat plays that turn itself (auto-pass
    is off, the prompt no longer says it, the key bar offers a again)."""
    session = first_turn_with_a_pass("big-two", seed=5)
    g = session.game
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        n = len(g.actions)
        await pilot.press("a")
        await until(pilot, lambda: len(g.actions) > n)
        assert g.actions[n] == (0, {"kind": "pass"})
        screen = await wait_for_human(pilot)  # a later turn of this seat
        await pilot.press("ctrl+z")  # back to before this seat's last move
        # (the undo replays the game into a new one) the seat's turn, shown, and left to it
        await until(pilot, lambda: session.game is not g and screen._decision is not None)
        taken = session.game
        assert len(taken.actions) < len(g.actions) and taken.to_act() == (0,)
        assert not screen.autopass.armed
        assert "auto-pass" not in flat(region_text(app, screen.query_one("#prompt")))
        assert "Auto-pass" in flat(region_text(app, screen.query_one("KeyBar")))
