"""Home → Join a table: the address is read with a reason for every mistake, and the
picker's Remote seats ask where to host."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.join import DEFAULT_PORT, JoinScreen, split_address
from twos_tui.ui.screens.picker import REMOTE, PickerScreen


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("192.168.1.20", ("192.168.1.20", DEFAULT_PORT)),
        ("192.168.1.20:9000", ("192.168.1.20", 9000)),
        (" example.org:1234 ", ("example.org", 1234)),
        ("[::1]:8800", ("::1", 8800)),
        ("[::1]", ("::1", DEFAULT_PORT)),
    ],
)
def test_split_address(text, want):
    assert split_address(text) == want


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Type the host's address"),
        ("host:0", "is not a port"),
        ("host:99999", "is not a port"),
        ("host:http", "is not a port"),
        ("[::1", "brackets"),
        ("[::1]8800", "after a colon"),
        (":8765", "not a host"),
        ("my host:8765", "not a host"),
    ],
)
def test_split_address_says_why(text, says):
    with pytest.raises(ValueError, match=says):
        split_address(text)


async def test_join_dialog_says_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    app = make_app(autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await pilot.pause()
        assert isinstance(app.screen, JoinScreen)
        screen = app.screen
        screen.query_one("#join-address", Input).value = "host:http"
        await pilot.click("#join")
        await pilot.pause()
        assert "is not a port" in str(screen.query_one("#join-error", Static).render())
        screen.query_one("#join-address", Input).value = "127.0.0.1:9"
        screen.action_join()
        await pilot.pause()
        assert "join code" in str(screen.query_one("#join-error", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, JoinScreen)


async def test_picker_remote_seat_shows_where_to_host(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    app = make_app(autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PickerScreen)
        await pilot.pause()
        assert not picker.query_one("#host-row").display
        _, kind = picker.seat_inputs[1]
        kind.value = REMOTE
        await pilot.pause()
        assert picker.query_one("#host-row").display
        assert picker.remote_seats() == (1,)
        assert "hosts the table" in str(picker.query_one("#picker-error", Static).render())
        # every seat remote: the host must keep one
        for _, sel in picker.seat_inputs:
            sel.value = REMOTE
        await pilot.pause()
        picker.action_start()
        await pilot.pause()
        assert "Keep one seat for yourself" in str(
            picker.query_one("#picker-error", Static).render()
        )
        assert isinstance(app.screen, PickerScreen)
        assert isinstance(picker.query_one("#bind", Select).value, str)
