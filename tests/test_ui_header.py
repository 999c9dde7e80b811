"""A title change that reaches a header whose title part is already gone (a screen being
taken down while its title changes) is ignored: Textual 8.2.8's Header raised NoMatches
there and the app ended (found by the long storm test)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from twos_tui.ui.textual_private import HeaderTitle
from twos_tui.ui.widgets import SafeHeader


class OneHeader(App[None]):
    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False)


async def test_a_title_change_after_the_title_part_is_gone_is_ignored():
    app = OneHeader()
    async with app.run_test() as pilot:
        await pilot.pause()
        await app.screen.query_one(HeaderTitle).remove()  # as when the screen is dismantled
        app.screen.sub_title = "Deal 2"
        app.title = "Twos"
        await pilot.pause()
        await pilot.pause()
    assert app.return_code in (None, 0)
