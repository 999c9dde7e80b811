"""The table's looks ("go further" of issue 10): framed cards with rank and suit in the
corners, a fan that fits a 20-card hand in 80 columns, chips in small windows, the
selection preview, the newest play marked, a bomb lighting up the table, Home/End."""

from __future__ import annotations

import math
import random

import pytest
from ui_helpers import flat, play_until, region_text, wait_for_human

from twos_tui.engine import Action, new_game
from twos_tui.engine.cards import standard_face
from twos_tui.play.session import Session
from twos_tui.ui.app import make_app
from twos_tui.ui.cardart import Canvas, best_stride, card_row, fan_width
from twos_tui.ui.widgets import HandView


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


def test_a_framed_card_has_rank_and_suit_in_two_corners():
    c = Canvas(5, 4)
    c.card(0, 0, standard_face("10S"))
    lines = c.to_text().plain.splitlines()
    assert lines == ["╭───╮", "│10♠│", "│♠10│", "╰───╯"]
    c = Canvas(5, 4)
    c.card(0, 0, standard_face("7H"))
    assert c.to_text().plain.splitlines()[1:3] == ["│7 ♥│", "│♥ 7│"]


def test_a_fan_keeps_rank_and_suit_of_every_card_readable():
    codes = ["10S", "10H", "JC", "QD", "KS", "AH", "2C"]
    text = card_row(codes, standard_face, width=fan_width(len(codes), 3))
    assert text is not None
    top, second = text.plain.splitlines()[1:3]
    for i, code in enumerate(codes):
        face = standard_face(code)
        # the visible part of card i: its border, then rank, then suit below
        assert top[i * 3 + 1 : i * 3 + 3] == face.rank.ljust(2)[:2]
        assert face.suit in second[i * 3 + 1 : i * 3 + 3]


def test_twenty_cards_fit_in_80_columns():
    assert best_stride(20, 80) is not None
    assert fan_width(20, best_stride(20, 80)) <= 80


@pytest.mark.slow
async def test_twenty_card_hand_is_one_fan_of_framed_cards_at_80_columns():
    app = make_app("twos", players=2, seed=1, ai_pause=0)
    async with app.run_test(size=(80, 40)) as pilot:
        screen = await wait_for_human(pilot)
        hand = screen.query_one(HandView)
        assert len(hand.cards) == 20 and hand.stride() is not None
        shown = region_text(app, hand).splitlines()
        assert sum("╭" in line or "┏" in line for line in shown) == 1  # one row of cards
        for code in hand.cards:
            assert screen.session.game.card_face(code).rank in shown[1] + shown[2]


@pytest.mark.slow
async def test_small_windows_show_chips():
    app = make_app("twos", players=2, seed=1, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        hand = screen.query_one(HandView)
        assert hand.stride() is None  # chips
        text = region_text(app, hand)
        assert "╭" not in text
        for code in hand.cards:
            assert screen.session.game.card_face(code).label in text


@pytest.mark.slow
async def test_selection_preview_says_what_it_beats_or_why_not():
    session = Session.start("big-two", None, 4, {}, 3)
    g = session.game
    play_until(g, lambda g: g.to_act() == (0,) and g.top is not None, random.Random(2))
    app = make_app(session=session, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        legal = [a for a in g.legal_actions(0) if a.kind == "play"]
        if legal:
            screen.selected = set(legal[0].cards)
            screen.selection.changed()
            await pilot.pause()
            message = str(screen.query_one("#message").render())
            assert "beats" in message or "bombs" in message
            assert g.names[g.top_seat] in message
        hand = screen._hand_order
        tries = [(c,) for c in hand] + [(a, b) for a in hand for b in hand if a < b]
        bad = next(t for t in tries if g.check(0, Action("play", t)) is not None)
        screen.selected = set(bad)
        screen.selection.changed()
        await pilot.pause()
        message = str(screen.query_one("#message").render())
        assert "not a play" in message
        ordered = tuple(c for c in hand if c in bad)
        assert g.check(0, Action("play", ordered)) in message


@pytest.mark.slow
async def test_the_newest_play_is_marked():
    app = make_app("big-two", seed=12, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        g = screen.session.game
        last = next(h for h in reversed(g.history) if h.get("kind") == "play")
        marked = [ln for ln in region_text(app, screen.query_one("#trick")).splitlines()]
        line = next(ln for ln in marked if ln.lstrip().startswith("▶"))
        assert g.names[last["seat"]] in line


@pytest.mark.slow
async def test_a_bomb_lights_up_the_table(monkeypatch):
    from twos_tui.ui.screens import table_flash

    # the flash lasts the whole test (on a busy machine 1.2 s may pass before the
    # asserts); the test ends it itself
    monkeypatch.setattr(table_flash, "FLASH_SECONDS", 600.0)
    session = Session.start("twos", None, 3, {}, 1)
    g = session.game
    # a position where the human can drop a bomb
    rng = random.Random(0)
    for _ in range(3000):
        if g.deal_over:
            g.next_deal()
        if g.to_act() == (0,) and any(
            g.classify(a.cards) and g.classify(a.cards).is_bomb
            for a in g.legal_actions(0)
            if a.cards
        ):
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    else:
        pytest.skip("no bomb found")
    bomb = next(a for a in g.legal_actions(0) if a.cards and g.classify(a.cards).is_bomb)
    app = make_app(session=session, ai_pause=math.inf)  # the AI waits until woken
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        screen.selected = set(bomb.cards)
        await pilot.press("enter")
        await pilot.pause()
        assert screen._flashing()
        assert screen.query_one("#trick").has_class("flash")
        assert "BOMB" in flat(region_text(app, screen.query_one("#log")))
        screen.announcer.end_flash()  # what the timer does
        await pilot.pause()
        assert not screen._flashing()
        assert not screen.query_one("#trick").has_class("flash")


@pytest.mark.slow
async def test_home_and_end_jump_along_the_hand():
    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        hand = screen.query_one(HandView)
        await pilot.press("end")
        assert hand.cursor == len(hand.cards) - 1
        await pilot.press("home")
        assert hand.cursor == 0


def test_every_variant_draws_framed_cards():
    from twos_tui.ui.variants import available_variants

    for cls in available_variants():
        g = new_game(cls.variant_id, None, {}, 0)
        codes = g.deck_cards()[:6]
        text = card_row(codes, g.card_face, 80)
        assert text is not None
        for code in codes:
            face = g.card_face(code)
            assert face.rank in text.plain and face.suit in text.plain
