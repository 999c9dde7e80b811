"""Home → Join a table: the address is read with a reason for every mistake, and the
picker's Remote seats ask where to host."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static
from ui_helpers import settled_picker, wait_for, wait_for_screen

from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen
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
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("j")
        screen = await wait_for_screen(pilot, JoinScreen)
        error = screen.query_one("#join-error", Static)
        screen.query_one("#join-address", Input).value = "host:http"
        await pilot.click("#join")
        await wait_for(pilot, lambda: "is not a port" in str(error.render()), "not a port")
        screen.query_one("#join-address", Input).value = "127.0.0.1:9"
        # watching needs the code; joining without one looks for a lobby server there
        screen.action_join(watch=True)
        await wait_for(pilot, lambda: "join code" in str(error.render()), "the join code asked")
        screen.action_join()
        await wait_for(
            pilot, lambda: "Could not reach 127.0.0.1:9" in str(error.render()), "no lobby"
        )
        assert not screen.query_one("#join").disabled
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, JoinScreen), "the join closed")


async def test_picker_remote_seat_shows_where_to_host(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    app = make_app(autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("n")
        picker = await settled_picker(pilot)
        note = picker.query_one("#picker-error", Static)
        assert not picker.query_one("#host-row").display
        _, kind = picker.seat_inputs[1]
        kind.value = REMOTE
        await wait_for(pilot, lambda: "hosts the table" in str(note.render()), "the hosting note")
        assert picker.query_one("#host-row").display
        assert picker.remote_seats() == (1,)
        # every seat remote: the host must keep one
        for _, sel in picker.seat_inputs:
            sel.value = REMOTE
        picker.action_start()
        await wait_for(pilot, lambda: "Keep one seat" in str(note.render()), "the refusal")
        assert isinstance(app.screen, PickerScreen)
        assert isinstance(picker.query_one("#bind", Select).value, str)
