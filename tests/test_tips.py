"""First-game tips (issue 21 item 3): shown once at the moment they are for, dismissed
with a key, never again (kept in the settings), all back on with one setting; off in
the app the tests and screenshots build unless asked for."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ui_helpers import wait_for

from twos_tui.engine import Action, Decision, new_game
from twos_tui.engine.positions import Position, build_game
from twos_tui.engine.views import LogLine, TopPlay
from twos_tui.play import settings as settings_file
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.table import TableScreen
from twos_tui.ui.screens.table_tips import TipDialog
from twos_tui.ui.tips import TIPS, moments_for_news, moments_for_turn


@pytest.fixture(autouse=True)
def fresh_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


def session_at(position: Position) -> Session:
    g = build_game(position)
    seats = [SeatConfig(n, HUMAN if i == 0 else AI) for i, n in enumerate(g.names)]
    return Session(g, seats, autosave=False)


def twos_lead() -> Position:
    return Position(
        "twos",
        [["3S", "4D", "5C", "9H"], ["6S", "7S"], ["8S", "10S"]],
        to_act=0,
        names=["You", "Ada", "Ben"],
        options={"hand_size": 13},
        out_of_play=None,
        played=None,
        extra={},
    )


def twos_cannot_beat() -> Position:
    p = twos_lead()
    p.hands = [["3S", "4D"], ["6S", "7S"], ["8S", "10S"]]
    p.top = {"seat": 2, "cards": ["2H"]}
    return p


def with_out_of_play(p: Position) -> Position:
    """Twos for three leaves 13 cards out of play: the first 13 nobody holds."""
    from twos_tui.engine import new_game

    used = {c for h in p.hands for c in h} | set((p.top or {}).get("cards", []))
    deck = new_game("twos", 3).deck_cards()
    p.out_of_play = [c for c in deck if c not in used][:13]
    return p


async def tip_on_screen(pilot) -> TipDialog | None:
    """The tip shown at the human's turn, else None: waits until a tip is up or the
    table asks the human with no tip over it (the tip is checked for as the turn is
    shown, so a due tip is up by then)."""
    app = pilot.app

    def settled() -> bool:
        s = app.screen
        if isinstance(s, TipDialog):
            return s.is_mounted
        return isinstance(s, TableScreen) and s._decision is not None

    await wait_for(pilot, settled, "a tip or the human's turn without one")
    return app.screen if isinstance(app.screen, TipDialog) else None


def dialog_text(dialog: TipDialog) -> str:
    return dialog.title_text + " " + dialog.text


async def test_the_first_lead_shows_its_tip_once_and_it_is_kept():
    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_lead())), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await tip_on_screen(pilot)
        assert dialog is not None and "Your lead" in dialog_text(dialog)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), "the table again")
    assert "twos.lead" in settings_file.load().tips_seen
    # the next game: the same moment, no tip
    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_lead())), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await tip_on_screen(pilot) is None


async def test_cannot_beat_tip_and_n_turns_tips_off_then_back_on():
    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_cannot_beat())), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await tip_on_screen(pilot)
        assert dialog is not None and "pass" in dialog.text
        await pilot.press("n")
        await wait_for(pilot, lambda: app.settings.tips is False, "tips turned off")
        app.tips_back_on()
    kept = settings_file.load()
    assert kept.tips is True and kept.tips_seen == []


async def test_tips_are_off_in_the_tests_app_unless_asked():
    """Existing flows and snapshots are unchanged: ``make_app`` builds without tips."""
    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_lead())))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await tip_on_screen(pilot) is None
        assert isinstance(app.screen, TableScreen)


async def test_tips_off_in_the_settings_are_not_shown():
    s = settings_file.Settings(tips=False)
    settings_file.save(s)
    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_lead())), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await tip_on_screen(pilot) is None


async def test_2v1_first_bid_tip():
    p = Position(
        "2v1",
        [["5M", "4M", "5S", "6H", "5C", "6U"], ["1S", "2M", "2H", "3S", "3C", "4U"], []],
        to_act=0,
        names=["You", "Ada", "Ben"],
    )
    p.hands[2] = ["RB", "1M", "2S", "3H", "1U", "4C"]
    app = make_app(ai_pause=0, session=session_at(p), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await tip_on_screen(pilot)
        assert dialog is not None and "Bidding" in dialog.title_text


def test_moments_for_a_turn():
    # the views a turn reads (typed), set to the positions each tip is about
    twos = new_game("twos", 3, {}, 1).observe(0)
    big_two = new_game("big-two", 4, {}, 1).observe(0)
    tricks = new_game("twos-tricks", 4, {}, 1).observe(0)
    two_v_one = new_game("2v1", 3, {}, 1).observe(0)
    play = Decision(0, "play", "", (1, 13), "play")
    assert moments_for_turn("twos", replace(twos, top=None), play, []) == ["lead"]
    only_pass = [Action("pass")]
    top_2s = replace(big_two, top=TopPlay(1, ("2S",), "single"))
    assert moments_for_turn("big-two", top_2s, play, only_pass) == ["cannot-beat"]
    top_3s = replace(big_two, top=TopPlay(1, ("3S",), "single"))
    assert moments_for_turn("big-two", top_3s, play, [Action("play")]) == []
    trick = Decision(0, "play", "", (1, 1), "play")
    obs = replace(tricks, led_suit="H", hand=("4S", "2C"))
    assert moments_for_turn("twos-tricks", obs, trick, []) == ["cannot-follow", "wild-two"]
    assert moments_for_turn("2v1", two_v_one, Decision(0, "hide", ""), []) == ["hide"]
    assert moments_for_turn("twos", twos, None, []) == []


def test_moments_for_news_and_every_tip_is_short_and_ours():
    news = [LogLine(0, "Ada bombs", 1, bomb=True), LogLine(0, "Ada catches Ben's 2", 1, "trick")]
    assert moments_for_news("twos", news) == ["bomb"]
    assert moments_for_news("twos-tricks", news) == ["catch"]
    assert moments_for_news("big-two", news) == []
    for (variant, moment), (title, text) in TIPS.items():
        assert title and 40 < len(text) < 330, (variant, moment)
        assert "[" not in text  # plain text, never markup


async def test_t_on_the_learn_list_turns_tips_back_on():
    s = settings_file.Settings(tips=False, tips_seen=["twos.lead"])
    settings_file.save(s)
    app = make_app(ai_pause=0)
    app.on_start = app.open_learn
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
    kept = settings_file.load()
    assert kept.tips and kept.tips_seen == []


async def wait_for_screen(pilot, kind):
    return await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen, kind.__name__
    )


@pytest.mark.parametrize(("key", "tab"), [("question_mark", "rules"), ("f1", "keys")])
async def test_help_keys_open_the_help_over_a_tip_and_the_tip_waits_under_it(key, tab):
    from textual.widgets import TabbedContent
    from ui_helpers import screen_text

    from twos_tui.ui.screens.help import HelpScreen

    app = make_app(ai_pause=0, session=session_at(with_out_of_play(twos_lead())), tips=True)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await tip_on_screen(pilot)
        assert dialog is not None
        await pilot.press(key)
        help_screen = await wait_for_screen(pilot, HelpScreen)
        assert help_screen.query_one(TabbedContent).active == tab
        shown = screen_text(app)
        assert ("Twos rules" if tab == "rules" else "Keys") in shown
        assert "Tip: " not in shown  # the help is on top, whole
        await pilot.press("escape")
        back = await wait_for_screen(pilot, TipDialog)
        assert back is dialog  # the tip is still up, not yet answered
        assert "Tip: Your lead" in screen_text(app)
        await pilot.press("enter")
        await wait_for_screen(pilot, TableScreen)
        assert app.settings.tips is True
