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
