"""Pilot tests of issue 16's wording items (9-11): hints counted once per position, the
footer's Pass only where a pass exists, house rules marked, labels and stats words."""

from __future__ import annotations

import pytest
from ui_helpers import press_hint, settled_picker, wait_for, wait_for_human

from twos_tui.ui.app import make_app

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("variant", ["2v1", "twos"])
async def test_asking_again_on_the_same_position_counts_one_hint(variant):
    app = make_app(variant, seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        s = screen.session
        n = len(screen.session.game.actions)
        await press_hint(pilot)
        message = str(screen.query_one("#message").render())
        assert message.startswith("Hint from hard: ")
        for _ in range(3):  # again: shown again (or picked up), not counted again
            await press_hint(pilot)
        assert len(screen.session.game.actions) == n
        assert s.hints == {(screen.session.game.deal_number, screen.viewer): 1}


# ----- 10. the picker: house rules per player count, marked when not the usual ----------
async def _picker(pilot, variant):
    from twos_tui.ui.screens.home import HomeScreen

    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HomeScreen), "the home screen")
    pilot.app.open_picker(variant)
    return await settled_picker(pilot, variant)


def _option(picker, rule):
    return next((spec, sel) for spec, sel in picker.option_selects if spec.id == rule)


async def _set_players(pilot, picker, n):
    from textual.widgets import Select

    picker.query_one("#players", Select).value = n
    assert await settled_picker(pilot, players=n) is picker


def test_carried_rules_leave_out_those_whose_usual_value_depends_on_the_count():
    from twos_tui.engine import variant_class
    from twos_tui.play import settings as st

    specs = variant_class("twos").option_specs
    chosen = {"hand_size": 13, "passing": "locked", "bomb_order": "fixed"}
    assert st.carry_options(chosen, 3, 2, specs) == {"passing": "locked", "bomb_order": "fixed"}
    choice = st.PickerChoice(3, [], chosen, {3: chosen})
    assert choice.options_for(3, specs)["hand_size"] == 13
    assert "hand_size" not in choice.options_for(2, specs)  # its own usual 20
    choice.by_players[2] = {"hand_size": 18}
    assert choice.options_for(2, specs) == {"hand_size": 18}
    back = st.PickerChoice.from_json(choice.to_json())
    assert back == choice


async def test_twos_two_players_get_their_own_hand_size(data_home):
    from twos_tui.play import settings as st

    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:  # a 3-player start is remembered
        picker = await _picker(pilot, "twos")
        assert picker.players == 3
        spec, sel = _option(picker, "hand_size")
        assert spec.choices[sel.value][0] == 13
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: pilot.app.screen is not picker, "the game to start")
    assert st.load().choice_for("twos").options["hand_size"] == 13
    app2 = make_app(ai_pause=0)
    async with app2.run_test(size=(100, 40)) as pilot:
        picker = await _picker(pilot, "twos")
        spec, sel = _option(picker, "passing")
        sel.value = [v for v, _ in spec.choices].index("locked")
        await wait_for(pilot, lambda: picker.chosen_options()["passing"] == "locked", "locked")
        await _set_players(pilot, picker, 2)
        spec, sel = _option(picker, "hand_size")
        assert spec.choices[sel.value][0] == 20  # the usual for two, as the help says
        spec, sel = _option(picker, "passing")
        assert spec.choices[sel.value][0] == "locked"  # a rule that does not depend on it
        await _set_players(pilot, picker, 3)
        spec, sel = _option(picker, "hand_size")
        assert spec.choices[sel.value][0] == 13
        await _set_players(pilot, picker, 2)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: pilot.app.screen is not picker, "the game to start")
    choice = st.load().choice_for("twos")
    assert choice.players == 2 and choice.options["hand_size"] == 20
    assert choice.by_players[3]["hand_size"] == 13


async def test_a_house_rule_is_marked_in_the_picker_and_at_the_table():
    from ui_helpers import flat, region_text, screen_text

    app = make_app(ai_pause=0)
    async with app.run_test(size=(100, 40)) as pilot:
        picker = await _picker(pilot, "twos")
        spec, sel = _option(picker, "passing")
        row = sel.parent.parent
        assert "•" not in region_text(app, row)
        sel.value = [v for v, _ in spec.choices].index("locked")
        text = await wait_for(
            pilot,
            lambda: "• Passing" in (t := flat(region_text(app, row))) and t,
            "the rule marked as a house rule",
        )
        assert "House rule: the usual is You may play again later in the trick" in text
        await pilot.press("ctrl+s")
        screen = await wait_for_human(pilot)
        assert "house rules: Passing" in screen.sub_title
        assert "house rules: Passing" in flat(screen_text(app))


# ----- 11. wording at the table ---------------------------------------------------------
def _footer(app) -> str:
    from ui_helpers import screen_lines

    return screen_lines(app)[-1]


async def _next_human(pilot, screen):
    """Play the hint's move for the human and wait for their next decision (None when
    the deal ends first)."""
    import random

    from ui_helpers import ai_idle

    from twos_tui.ai import suggest
    from twos_tui.ui.screens.table import TableScreen

    g = screen.session.game
    seat = screen.viewer
    d = g.decision(seat)
    hint = suggest(g.variant_id, g.observation(seat), g.legal_actions(seat), d, random.Random(0))
    screen.act(hint.action)

    def next_turn():
        if g.deal_over:
            return "over"
        s = pilot.app.screen
        if isinstance(s, TableScreen) and s._decision is not None and ai_idle(s):
            return s
        return None

    found = await wait_for(pilot, next_turn, "the human's next turn or the deal's end")
    if found == "over":
        return None
    await pilot.pause()
    return found


@pytest.mark.parametrize("variant", ["twos", "big-two", "twos-tricks", "2v1"])
async def test_pass_is_in_the_footer_only_where_there_is_a_pass(variant):
    from twos_tui.ui.screens.table_moves import pass_choice

    app = make_app(variant, seed=2, ai_pause=0)
    seen = set()
    async with app.run_test(size=(140, 30)) as pilot:
        screen = await wait_for_human(pilot)
        for _ in range(12):
            if screen is None:
                break
            d = screen._decision
            can = pass_choice(d) is not None
            seen.add(can)
            await wait_for(
                pilot,
                lambda can=can: ("p Pass" in _footer(app)) == can,
                f"the footer {'with' if can else 'without'} p Pass at {d.prompt!r}",
            )
            screen = await _next_human(pilot, screen)
    if variant == "twos-tricks":
        assert seen == {False}
    elif variant in ("twos", "big-two"):
        assert seen == {True, False}  # a lead (no pass) and a follow (a pass) both met


async def test_the_score_panel_says_what_its_mark_means():
    from ui_helpers import region_text

    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        text = region_text(app, screen.query_one("#score"))
        assert "◀" in text.splitlines()[1] or "◀" in text
        assert "◀ hand shown" in text


async def test_2v1_log_says_round():
    from ui_helpers import screen_text

    from twos_tui.ui.screens.dialogs import InfoDialog

    app = make_app("2v1", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoDialog), "the log")
        await wait_for(pilot, lambda: "Log of round 1" in screen_text(app), "the log's title")


def test_the_trick_caption_has_one_space_before_the_cards():
    from twos_tui.engine import new_game
    from twos_tui.ui.boards import climbing_caption

    class View:
        def name(self, seat):
            return ["Ana", "Ben", "Cy"][seat]

        face = staticmethod(new_game("twos", 3).card_face)

    from twos_tui.engine.views import ClimbingLastTrick, TrickMove

    last = ClimbingLastTrick((TrickMove(0, ("AH",), "single"),), winner=0)
    text = climbing_caption(View(), last, leads=False).plain
    assert "  " not in text and text == "Ana won the trick with single A♥ "


async def test_a_hard_hint_is_searched_for_off_the_ui_thread(monkeypatch):
    """The hard hint's search runs on a thread: while it thinks the table says so and
    still takes keys; its answer is shown when it comes (a gate, not a clock)."""
    import threading

    from twos_tui.ui.screens import table_hints

    gate = threading.Event()
    real = table_hints.suggest
    threads = []

    def gated(*args, **kw):
        threads.append(threading.current_thread())
        assert gate.wait(30)
        return real(*args, **kw)

    monkeypatch.setattr(table_hints, "suggest", gated)
    app = make_app("twos", seed=4, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        line = screen.query_one("#message")
        await pilot.press("h")
        await wait_for(pilot, lambda: "thinking" in str(line.render()), "the thinking line")
        order = screen.sort_by
        await pilot.press("s")  # a key while the search goes on: taken at once
        await wait_for(pilot, lambda: screen.sort_by != order, "the sort to change")
        assert "thinking" in str(line.render())  # the search still waits on its gate
        gate.set()
        await pilot.app.workers.wait_for_complete()
        message = await wait_for(
            pilot,
            lambda: (m := str(line.render())).startswith("Hint from hard: ") and m,
            "the hint",
        )
        assert threads and threads[0] is not threading.main_thread()
        assert "thinking" not in message
