"""The header at the top of the screens is our own widget on Textual's public API
(issue 32): it shows the screen's title and sub-title (the app's where the screen has
none), follows their changes, ignores a change that reaches it while its screen is taken
down (Textual 8.2.8's Header raised NoMatches there and the app ended: found by the long
storm test), and a closed screen's header is not kept alive by the app (Textual's Header
watched the app's title, and the app kept every header it had ever had)."""

from __future__ import annotations

import gc
import re
import weakref

from textual.app import App, ComposeResult
from textual.screen import Screen
from ui_helpers import screen_lines, wait_for

from twos_tui.ui.chrome import SafeHeader, TitleText


class TitledScreen(Screen[None]):
    def __init__(self, title: str | None = None) -> None:
        super().__init__()
        self.given_title = title

    def compose(self) -> ComposeResult:
        yield SafeHeader(icon="♠")

    def on_mount(self) -> None:
        if self.given_title is not None:
            self.title = self.given_title


class OneHeader(App[None]):
    TITLE = "The app"

    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False)


def header_line(app) -> str:
    return screen_lines(app)[0].rstrip()


async def test_the_header_shows_the_titles_and_follows_them():
    app = OneHeader()
    async with app.run_test(size=(60, 5)) as pilot:
        header = app.screen.query_one(SafeHeader)
        await wait_for(pilot, lambda: header.shown_title() == "The app", "the app's title")
        app.screen.title = "Twos"
        app.screen.sub_title = "Deal 2"
        await wait_for(pilot, lambda: header.shown_title() == "Twos — Deal 2", "the screen's")
        # drawn as Textual's Header was: the icon at the left, the title centred
        await wait_for(pilot, lambda: "Twos — Deal 2" in header_line(app), "the line drawn")
        line = header_line(app)
        assert line.startswith(" ⭘") and re.search(r"\s{10}Twos — Deal 2", line), line
        pushed = TitledScreen("Help")
        await app.push_screen(pushed)
        mine = pushed.query_one(SafeHeader)
        await wait_for(pilot, lambda: mine.shown_title() == "Help", "the pushed screen's")
        assert "♠" in str(mine.query_one("TitleIcon").render())


async def test_a_title_change_after_the_title_part_is_gone_is_ignored():
    app = OneHeader()
    async with app.run_test() as pilot:
        await pilot.pause()
        await app.screen.query_one(TitleText).remove()  # as when the screen is dismantled
        app.screen.sub_title = "Deal 2"
        app.title = "Twos"
        await pilot.pause()
        await pilot.pause()
        assert app.is_running
    assert app.return_code in (None, 0)


async def test_a_closed_screens_header_is_not_kept_alive():
    app = OneHeader()
    async with app.run_test() as pilot:
        gone = []
        for i in range(3):
            screen = TitledScreen(f"Screen {i}")
            await app.push_screen(screen)
            await wait_for(pilot, lambda s=screen: s.query(SafeHeader), "the header")
            gone.append(weakref.ref(screen.query_one(SafeHeader)))
            app.pop_screen()
            await wait_for(pilot, lambda s=screen: app.screen is not s, "the screen to close")
            del screen
        for _ in range(50):
            gc.collect()
            if all(ref() is None for ref in gone):
                break
            await pilot.pause()
        assert [ref() for ref in gone] == [None, None, None]


async def test_the_apps_own_title_change_reaches_the_headers(tmp_path, monkeypatch):
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.help import HelpScreen

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = HelpScreen(None)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen and screen.query(SafeHeader), "help")
        header = screen.query_one(SafeHeader)
        await wait_for(pilot, lambda: header.shown_title() == "Help: keys", "help's title")
        screen.title = None  # the screen leaves the title to the app
        await wait_for(pilot, lambda: header.shown_title() == "twos-tui", "the app's title")
        app.sub_title = "offline"
        await wait_for(pilot, lambda: header.shown_title() == "twos-tui — offline", "the change")


async def test_the_clock_shows_the_time_when_asked():
    class Clocked(App[None]):
        def compose(self) -> ComposeResult:
            yield SafeHeader(show_clock=True)

    app = Clocked()
    async with app.run_test(size=(60, 5)) as pilot:
        clock = app.screen.query_one("TitleClock")
        pattern = r"\d{1,2}:\d{2}:\d{2}"
        await wait_for(pilot, lambda: re.search(pattern, header_line(app)), "the time")
        assert re.fullmatch(pattern + r".*", str(clock.render()))
