"""Pilot tests of issue 16's wording items (9-11): hints counted once per position, the
footer's Pass only where a pass exists, house rules marked, labels and stats words."""

from __future__ import annotations

import pytest
from ui_helpers import wait_for_human

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
        n = len(screen.game.actions)
        await pilot.press("h")
        await pilot.pause()
        message = str(screen.query_one("#message").render())
        assert message.startswith("Hint: ")
        for _ in range(3):  # again: shown again (or picked up), not counted again
            await pilot.press("h")
            await pilot.pause()
        assert len(screen.game.actions) == n
        assert s.hints == {(screen.game.deal_number, screen.viewer): 1}


# ----- 10. the picker: house rules per player count, marked when not the usual ----------
async def _picker(pilot, variant):
    from twos_tui.ui.screens.picker import PickerScreen

    pilot.app.open_picker(variant)
    for _ in range(20):
        await pilot.pause()
        if isinstance(pilot.app.screen, PickerScreen) and pilot.app.screen.option_selects:
            return pilot.app.screen
    raise AssertionError("no picker")


def _option(picker, rule):
    return next((spec, sel) for spec, sel in picker.option_selects if spec.id == rule)


async def _set_players(pilot, picker, n):
    from textual.widgets import Select

    picker.query_one("#players", Select).value = n
    for _ in range(20):
        await pilot.pause()
        if picker.players == n and picker.option_selects:
            return


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
        await pilot.pause()
    assert st.load().choice_for("twos").options["hand_size"] == 13
    app2 = make_app(ai_pause=0)
    async with app2.run_test(size=(100, 40)) as pilot:
        picker = await _picker(pilot, "twos")
        spec, sel = _option(picker, "passing")
        sel.value = [v for v, _ in spec.choices].index("locked")
        await pilot.pause()
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
        await pilot.pause()
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
        await pilot.pause()
        await pilot.pause()
        text = flat(region_text(app, row))
        assert "• Passing" in text
        assert "House rule: the usual is You may play again later in the trick" in text
        await pilot.press("ctrl+s")
        screen = await wait_for_human(pilot)
        assert "house rules: Passing" in screen.sub_title
        assert "house rules: Passing" in flat(screen_text(app))
