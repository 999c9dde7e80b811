"""Page Up / Page Down in a list squeezed to no height does nothing (the storm test found
Textual 8.2.8's OptionList raising KeyError there: the app crashed)."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList
from ui_helpers import settled_picker, wait_for_screen

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.picker import PickerScreen


@pytest.mark.parametrize("key", ["pageup", "pagedown"])
async def test_paging_a_list_with_no_room_does_not_crash(key):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("n")
        picker = await settled_picker(pilot)
        ol = picker.query_one("#variant-list", OptionList)
        ol.focus()
        ol.highlighted = 5
        await settled_picker(pilot, picker.variants[5].variant_id)
        ol.styles.height = 0  # squeezed to nothing (as a tiny window can leave it)
        await pilot.resize_terminal(90, 28)
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code is None or app.return_code == 0
        ol.styles.height = "100%"
        await pilot.resize_terminal(100, 30)
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
    assert app.return_code in (None, 0)
