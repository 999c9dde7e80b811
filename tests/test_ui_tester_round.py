"""Pilot tests of what a tester found playing the app in tmux (issue 10, second round):
the deal-end dialog's keys, the pickers' open lists, the trick caption's wording, 2v1's
own words, and Enter on a choice. Each fails on the app as it was before the fix."""

from __future__ import annotations

import random

import pytest
from ui_helpers import (
    deal_over,
    flat,
    play_until,
    press_hint,
    region_text,
    screen_lines,
    screen_text,
    settled_picker,
    wait_for,
    wait_for_human,
    wait_for_screen,
    wait_for_text,
)

from twos_tui.play.session import Session
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import ConfirmLeave, DealEndScreen, InfoDialog
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.table import TableScreen

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


async def at_deal_end(pilot) -> DealEndScreen:
    """The deal-end dialog, up and drawn (its buttons on screen)."""
    dialog = await wait_for_screen(pilot, DealEndScreen, "the deal-end dialog")
    await wait_for_text(pilot, "Home (q)")
    return dialog


# ---------------------------------------------------------------------------------------
# 1. the deal-end dialog: h and Esc never send the player home; its keys are its own
# ---------------------------------------------------------------------------------------


async def test_deal_end_h_does_not_go_home():
    app = make_app(session=deal_over("big-two"), ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_deal_end(pilot)
        await press_hint(pilot)
        assert isinstance(app.screen, DealEndScreen)


async def test_deal_end_escape_goes_on_to_the_next_deal():
    session = deal_over("big-two")
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_deal_end(pilot)
        await pilot.press("escape")
        await wait_for_screen(pilot, TableScreen)
        assert session.game.deal_number == 2 and not session.game.deal_over


async def test_deal_end_home_is_q_and_the_buttons_and_footer_say_so():
    app = make_app(session=deal_over("big-two"), ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_deal_end(pilot)
        text = flat(screen_text(app))
        assert "Next deal (⏎)" in text and "Home (q)" in text
        footer = screen_lines(app)[-1]
        assert "Hint" not in footer and "Sort" not in footer  # the table's keys
        assert "Home" in footer and "q" in footer and "Last trick" in footer
        assert "⏎ Continue" in footer
        await pilot.press("q")
        await wait_for_screen(pilot, ConfirmLeave)  # the match goes on: asked first
        await pilot.press("y")
        await wait_for_screen(pilot, HomeScreen)


@pytest.mark.parametrize("variant", ["big-two", "twos-tricks"])
async def test_deal_end_t_shows_the_deals_last_trick(variant):
    session = deal_over(variant)
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_deal_end(pilot)
        await pilot.press("t")
        await wait_for_screen(pilot, InfoDialog)
        text = await wait_for_text(pilot, "Last trick")
        g = session.game
        obs = g.observation(0)
        if variant == "big-two":  # the deal ended inside a trick: that trick is shown
            last = [e for e in obs["trick"] if not e.get("pass")][-1]
            assert f"{g.names[last['seat']]} went out" in text
        else:
            assert f"Trick {obs['last_trick']['number']}" in text
        await pilot.press("escape")
        await wait_for_screen(pilot, DealEndScreen, "the deal-end dialog again")


# ---------------------------------------------------------------------------------------
# 2. an open drop-down is framed and stands out from the form under it
# ---------------------------------------------------------------------------------------


def brightness(colour) -> float:
    r, g, b = colour.rgb
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_open_dropdown_has_a_border_and_its_own_background(size):
    from textual.widgets import Select

    app = make_app(ai_pause=0)
    async with app.run_test(size=size) as pilot:
        app.open_picker("big-two")
        picker = await settled_picker(pilot, "big-two")
        for select in (picker.query_one("#players", Select), picker.query(Select).last()):
            select.focus()
            await wait_for(pilot, lambda s=select: s.has_focus, "the Select focused")
            await pilot.press("enter")
            overlay = select.query_one("SelectOverlay")
            await wait_for(
                pilot,
                lambda s=select, o=overlay: s.expanded and o.region.height > 0,
                "the list open",
            )
            await pilot.pause()
            edges = overlay.styles.border
            assert all(edge[0] not in ("", "none", "hidden") for edge in edges)
            under = picker.background_colors[1]
            own = overlay.background_colors[1]
            assert abs(brightness(own) - brightness(under)) > 0.08
            await pilot.press("escape")
            await wait_for(pilot, lambda s=select: not s.expanded, "the list closed")


# ---------------------------------------------------------------------------------------
# 3. the finished trick's caption: no stray " ;", who leads said once, bombs written ×
# ---------------------------------------------------------------------------------------


def won_by_a_bomb() -> Session:
    """Twos, seed 5: the human seat has just won a trick with the four 2s (bomb 4×1)."""
    session = Session.start("twos", None, None, {}, 5)
    g = session.game
    rng = random.Random(5)
    for _ in range(400):
        seat = g.to_act()[0]
        last = g.observation(seat).get("last_trick")
        if seat == 0 and g.history[-1].get("kind") == "trick" and last:
            top = [p for p in last["plays"] if not p.get("pass")][-1]
            if top["kind"].startswith("bomb-"):
                return session
        legal = g.legal_actions(seat)
        bombs = [a for a in legal if a.kind == "play" and len(a.cards) >= 6]
        g.apply(seat, bombs[0] if bombs else rng.choice(legal))
    raise AssertionError("no trick won by a bomb")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_trick_caption_has_no_stray_semicolon_and_says_who_leads_once(size):
    session = won_by_a_bomb()
    name = session.game.names[0]
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=size) as pilot:
        table = await wait_for_screen(pilot, TableScreen)
        shown = await wait_for_text(
            pilot,
            f"{name} won the trick with bomb 4×1",
            where=lambda: region_text(app, table.query_one("#board")),
        )
        assert "4x1" not in shown and " ;" not in shown
        assert shown.count(f"{name} leads") + shown.count(f"{name} to lead") == 1
        await pilot.press("t")
        await wait_for_screen(pilot, InfoDialog)
        dialog = await wait_for_text(pilot, "bomb 4×1")
        assert "bomb 4×1" in dialog and "4x1" not in dialog and " ;" not in dialog
        assert dialog.count(f"{name} leads") == 1


# ---------------------------------------------------------------------------------------
# 4. 2v1 in its own words: its last hand, its rounds (in Continue too)
# ---------------------------------------------------------------------------------------


async def test_2v1_last_hand_is_called_a_hand():
    session = Session.start("2v1", None, None, {}, 3)
    play_until(
        session.game,
        lambda g: any(h.get("kind") == "hand" for h in g.history) and 0 in g.to_act(),
        random.Random(3),
    )
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, TableScreen)
        # the footer
        await wait_for(pilot, lambda: "Last hand" in screen_lines(app)[-1], "Last hand")
        await pilot.press("t")
        await wait_for_screen(pilot, InfoDialog)
        text = await wait_for_text(pilot, "Last hand")
        assert "trick" not in text.lower()


async def test_continue_lists_a_2v1_save_by_its_round():
    from twos_tui.ui.screens.home import ContinueScreen

    session = Session.start("2v1", None, None, {}, 3)
    play_until(session.game, lambda g: g.deal_over, random.Random(3))
    session.next_deal()
    session.flush()
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        app.push_screen(ContinueScreen())
        await wait_for_screen(pilot, ContinueScreen)
        text = await wait_for_text(pilot, "Round 2 ·")
        assert "deal 2" not in text.lower()


# ---------------------------------------------------------------------------------------
# 5. a decision made by choices only (2v1: which card goes back): Enter takes one
# ---------------------------------------------------------------------------------------


def at_return_choice() -> Session:
    """2v1: the human seat (the duo) chooses which card goes back to the lone hand."""
    for seed in range(1, 40):
        session = Session.start("2v1", None, None, {}, seed)
        g = session.game
        rng = random.Random(seed)
        for _ in range(300):
            if g.deal_over:
                break
            if 0 in g.to_act() and g.decision(0).kind == "keep" and g.lone != 0:
                return session
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    raise AssertionError("no return choice for seat 0")


async def test_enter_takes_the_marked_choice_when_a_card_goes_back():
    session = at_return_choice()
    g = session.game
    first = g.decision(0).choices[0]
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await wait_for_human(pilot)
        footer = await wait_for(
            pilot, lambda: "⏎ Choose" in (f := screen_lines(app)[-1]) and f, "⏎ Choose"
        )
        assert "Select" not in footer  # nothing to select: space is not offered
        assert "⏎ Choose" in footer and "Play" not in footer
        marked = [b for b in table.query(".choice") if b.display and b.variant == "primary"]
        assert [str(b.label) for b in marked] == [f"{first.label} ({first.key})"]
        n = len(g.actions)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(g.actions) > n, "the choice played")
        assert g.actions[n] == (0, first.action.to_json())
