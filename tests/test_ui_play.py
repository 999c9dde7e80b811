"""Pilot tests: complete games of every variant through the UI (the human seat driven by
key presses and clicks, the AI seats playing), the illegal-play message, hot-seat
privacy, saving and continuing."""

from __future__ import annotations

import random

import pytest
from ui_helpers import polls, wait_for, wait_for_human, wait_for_screen

from twos_tui.ai import RandomAgent
from twos_tui.engine import Action, load_game, new_game, variant_class
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session, default_seats
from twos_tui.ui.app import make_app
from twos_tui.ui.home_menu import HomeMenu
from twos_tui.ui.screens.dialogs import DealEndScreen, PassScreen
from twos_tui.ui.screens.home import ContinueScreen, HomeScreen
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.widgets import HandView


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def human_turn(pilot, screen: TableScreen, rng: random.Random) -> Action:
    """Play one legal action of the seat on screen with keys (or a click for a button
    without a key), the way a person would."""
    g = screen.session.game
    d = screen._decision
    legal = g.legal_actions(screen.viewer)
    most = max(len(a.cards) for a in legal)  # shed quickly: keeps the tests short
    action = rng.choice([a for a in legal if len(a.cards) == most])
    for i, c in enumerate(d.choices):
        if c.action == action:
            if c.key:
                await pilot.press(c.key)
            else:
                await pilot.click(f"#choices Button[name='{i}']")
            return action
    await pilot.press(*selection_keys(screen, action.cards), "enter")
    return action


def selection_keys(screen: TableScreen, cards) -> list[str]:
    """The arrow and space presses that select ``cards`` from the cursor's position (the
    cursor wraps round the hand, so each card is reached the shorter way)."""
    n = len(screen._hand_order)
    at = screen.query_one(HandView).cursor
    keys: list[str] = []
    for code in cards:
        target = screen._hand_order.index(code)
        right = (target - at) % n
        keys += ["right"] * right if right <= n - right else ["left"] * (n - right)
        keys.append("space")
        at = target
    return keys


async def drive(pilot, app, rng, until, timeout: float = 600.0, on_step=None) -> None:
    """Answer every human decision, pass screen and deal end until ``until(app)`` (a whole
    match may take minutes on a busy machine: the bound is in seconds)."""
    async for _ in polls(pilot, f"{getattr(until, '__name__', 'the end')}", timeout):
        if on_step is not None:
            on_step(app)
        if until(app):
            return
        screen = app.screen
        if isinstance(screen, (DealEndScreen, PassScreen)):
            await pilot.press("enter")
        elif isinstance(screen, TableScreen) and screen._decision is not None:
            await human_turn(pilot, screen, rng)


def match_end_shown(app) -> bool:
    return isinstance(app.screen, DealEndScreen) and app.screen.table.match_over


def last_deal(variant: str, options: dict, seed: int, players: int | None = None):
    """A match advanced by random play (engine only) to the start of a deal after which
    the match can be over: the UI then plays that deal (and more if needed) to the end."""
    g = new_game(variant, players, options, seed)
    rng = random.Random(seed)
    agent = RandomAgent()
    for _ in range(50):
        start = g.to_json()
        while not g.deal_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            g.apply(seat, agent.choose(g.observation(seat), legal, g.decision(seat), rng))
        if g.match_over:
            return load_game(start)
        g.next_deal()
    raise AssertionError("match did not end")


GAMES = [
    # variant, options, players, engine-advanced to the last deal?
    ("twos", {"deals_to_win": 1}, 3, False),
    ("twos", {"deals_to_win": 1, "hand_size": 20}, 2, False),
    ("big-two", {"target": 50}, 4, True),
    ("big-two-5r", {}, 4, True),
    ("chinese-poker", {"target": 50}, 2, True),
    ("2v1", {"coins_to_win": 5}, 3, True),
    ("twos-tricks", {"game_length": 1}, 4, False),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant,options,players,advance", GAMES, ids=[f"{v}-{p}p" for v, _, p, _ in GAMES]
)
async def test_complete_game_through_the_ui(variant, options, players, advance):
    try:
        variant_class(variant)
    except ImportError:
        pytest.skip(f"{variant} engine not installed yet")
    seats = default_seats(players)
    if advance:
        game = last_deal(variant, options, seed=7, players=players)
        for s, seat in zip(seats, game.names, strict=False):
            s.name = seat
        session = Session(game, seats)
    else:
        session = Session.start(variant, seats, players, options, seed=7)
    app = make_app(ai_pause=0, session=session)
    rng = random.Random(11)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, rng, match_end_shown)
        g = session.game
        assert g.match_over and g.match_winners()
        assert [r.totals for r in g.results][-1] == g.totals
        # the engine's own replay agrees with what the UI did
        assert g.replay().to_json()["totals"] == g.totals
        # play again: a fresh table of the same game with the next seed
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, TableScreen) and app.screen.session.game is not g,
            "a fresh table",
        )
        assert app.screen.session.game.variant_id == variant
        assert app.screen.session.game.seed == g.seed + 1
        assert app.screen.session.game.options == g.options


async def select_cards(pilot, screen, cards) -> None:
    await pilot.press(*selection_keys(screen, cards))
    await wait_for(pilot, lambda: screen.selected == set(cards), f"{cards} selected")


@pytest.mark.parametrize("variant,seed", [("big-two", 1), ("twos", 2), ("twos-tricks", 3)])
async def test_illegal_play_shows_the_engines_reason(variant, seed):
    app = make_app(variant, seed=seed, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:

        def ready(a) -> bool:
            s = a.screen
            if not (
                isinstance(s, TableScreen) and s._decision and s._decision.select and not s.ai_busy
            ):
                return False
            d = s._decision
            return d.select[1] > 1 or any(
                s.game.check(s.viewer, Action(d.submit, (c,))) for c in s._hand_order
            )

        await drive(pilot, app, random.Random(0), ready)
        screen = app.screen
        g = screen.session.game
        seat = screen.viewer
        order = screen._hand_order
        submit = screen._decision.submit
        # an illegal selection: a single card the rules refuse, else two cards that
        # make no play together
        wrong = next(([c] for c in order if g.check(seat, Action(submit, (c,)))), None)
        if wrong is None:
            wrong = next(
                [a, b]
                for a in order
                for b in order
                if a < b and g.check(seat, Action(submit, (a, b)))
            )
        await select_cards(pilot, screen, wrong)
        expected = g.check(seat, Action(submit, tuple(c for c in order if c in wrong)))
        assert expected is not None
        assert screen.query_one("#submit").disabled
        before = g.to_json()
        await pilot.press("enter")
        line = screen.query_one("#message")
        await wait_for(pilot, lambda: expected in str(line.render()), "the refusal's reason")
        assert g.to_json() == before  # nothing changed
        # clear, then a legal play is offered and played
        await pilot.press("escape")
        assert not screen.selected
        legal = next(a for a in g.legal_actions(seat) if a.cards)
        await select_cards(pilot, screen, legal.cards)
        assert not screen.query_one("#submit").disabled
        n = len(g.actions)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(g.actions) > n, "the play")
        assert g.actions[n][0] == seat
        assert sorted(g.actions[n][1]["cards"]) == sorted(legal.cards)


async def test_mouse_click_toggles_a_card():
    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        hand = screen.query_one(HandView)
        # the first card of the bottom (unselected) line of the first row
        await pilot.click(HandView, offset=(hand.styles.padding.left + 1, 1))
        first = {screen._hand_order[0]}
        await wait_for(pilot, lambda: screen.selected == first, "the first card picked up")
        await pilot.click(HandView, offset=(hand.styles.padding.left + 1, 0))
        await wait_for(pilot, lambda: screen.selected == set(), "the card put back")


async def test_sort_toggle_orders_by_suit_and_back():
    app = make_app("big-two", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        hand = list(screen._hand_order)
        assert hand == g.sort_cards(hand, by="rank")
        await pilot.press("s")
        assert screen._hand_order == g.sort_cards(hand, by="suit")
        assert "suit" in str(screen.query_one("#sort").label)
        await pilot.press("s")
        assert screen._hand_order == g.sort_cards(hand, by="rank")


@pytest.mark.slow
async def test_hot_seat_never_shows_another_humans_hand():
    seats = [
        SeatConfig("Ann", HUMAN),
        SeatConfig("Ada", AI),
        SeatConfig("Bob", HUMAN),
        SeatConfig("Bram", AI),
    ]
    session = Session.start("big-two", seats, 4, {"target": 50}, seed=5)
    app = make_app(ai_pause=0, session=session)
    rng = random.Random(3)
    seen: list[tuple[str, int | None]] = []
    problems: list[str] = []

    def watch(app) -> None:
        screen = app.screen
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        hand = table.query_one(HandView)
        v = table.viewer
        if isinstance(screen, PassScreen):
            if hand.cards:
                problems.append("a hand is on screen behind the pass screen")
            seen.append(("pass", None))
            return
        if v is None:
            if hand.cards:
                problems.append("a hand is shown with no player at the screen")
            return
        if sorted(hand.cards) != sorted(session.game.hands[v]):
            problems.append(f"the hand shown is not {session.game.names[v]}'s")
        if seen and seen[-1][0] == "view" and seen[-1][1] != v:
            problems.append("the hand changed owner without a pass screen")
        seen.append(("view", v))

    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, rng, lambda a: isinstance(a.screen, DealEndScreen), on_step=watch)
    assert not problems, problems
    assert ("pass", None) in seen
    assert {v for k, v in seen if k == "view"} == {0, 2}


async def test_autosave_and_continue(data_home):
    app = make_app("twos", seed=9, ai_pause=0)
    rng = random.Random(1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        n = len(screen.session.game.actions)
        await human_turn(pilot, screen, rng)
        await wait_for(pilot, lambda: len(screen.session.game.actions) > n, "the move")
        await pilot.pause()
        state = screen.session.game.to_json()
        assert state["actions"]
    saves = list((data_home / "saves").glob("*.json"))
    assert len(saves) == 1
    app2 = make_app(ai_pause=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        assert "continue" in home.query_one(HomeMenu).shown()
        await pilot.press("c")
        await wait_for_screen(pilot, ContinueScreen)
        await pilot.press("enter")
        table = await wait_for_screen(pilot, TableScreen)
        assert table.session.game.to_json() == state
        # back home: the game stays listed until it is finished
        await pilot.press("q")
        await wait_for(pilot, lambda: app2.screen is not table, "the question to leave")
        await pilot.press("y")
        home = await wait_for_screen(pilot, HomeScreen, "home again")
        assert "continue" in home.query_one(HomeMenu).shown()


async def test_no_continue_without_saves():
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        home = await wait_for_screen(pilot, HomeScreen)
        await wait_for(pilot, lambda: home.query_one(HomeMenu).shown(), "the menu")
        assert "continue" not in home.query_one(HomeMenu).shown()


async def test_chinese_poker_hand_choice_shows_the_offered_hands():
    """With two players the chooser sees the hands on offer before picking one."""
    app = make_app("chinese-poker", players=2, seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        offered = g.observation(screen.viewer)["offered_hands"]
        assert offered
        # the offered hands take the hand's place, one line each
        shown = str(screen.query_one(HandView).render())
        for letter, codes in offered.items():
            line = next(ln for ln in shown.splitlines() if ln.startswith(f"Hand {letter} "))
            for c in codes:
                assert f" {g.card_face(c).label}" in line
        letter = sorted(offered)[0]
        await pilot.press(letter.lower())
        await wait_for(
            pilot,
            lambda: sorted(g.hands[screen.viewer]) == sorted(offered[letter]),
            f"hand {letter} taken",
        )
