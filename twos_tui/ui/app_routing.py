"""Which screen opens (a layer of :class:`~twos_tui.ui.app.TwosApp`): the picker, help,
lessons, stats, replays and odds, each imported when first opened; the F1 keys help and
the command palette."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal, overload

from textual.command import CommandPalette
from textual.screen import Screen, ScreenResultCallbackType, ScreenResultType
from textual.widget import AwaitMount

from .app_sessions import SessionsApp
from .chrome import SafeCommandPalette

if TYPE_CHECKING:
    from ..engine import Game
    from ..play.lobby.model import LobbyLink
    from .screens.lobby import LobbyConnect


class RoutingApp(SessionsApp):
    """Opens the app's screens (their modules are imported on first use)."""

    @overload
    def push_screen(
        self,
        screen: Screen[ScreenResultType] | str,
        callback: ScreenResultCallbackType[ScreenResultType] | None = None,
        wait_for_dismiss: Literal[False] = False,
        *,
        mode: str | None = None,
    ) -> AwaitMount: ...

    @overload
    def push_screen(
        self,
        screen: Screen[ScreenResultType] | str,
        callback: ScreenResultCallbackType[ScreenResultType] | None = None,
        wait_for_dismiss: Literal[True] = True,
        *,
        mode: str | None = None,
    ) -> asyncio.Future[ScreenResultType]: ...

    def push_screen(
        self,
        screen: Screen[ScreenResultType] | str,
        callback: ScreenResultCallbackType[ScreenResultType] | None = None,
        wait_for_dismiss: bool = False,
        *,
        mode: str | None = None,
    ) -> AwaitMount | asyncio.Future[ScreenResultType]:
        """Push ``screen``; an open command palette is closed first. (A screen pushed
        over the palette, such as the hot-seat pass screen after an AI move, left the
        palette in the stack, and the next ctrl+p tried to mount a second palette with
        the same id and ended the app.)"""
        if not isinstance(screen, CommandPalette):
            while isinstance(self.screen, CommandPalette) and len(self.screen_stack) > 1:
                self.pop_screen()
        if wait_for_dismiss:
            return super().push_screen(screen, callback, True, mode=mode)
        return super().push_screen(screen, callback, False, mode=mode)

    def action_command_palette(self) -> None:
        if any(isinstance(s, CommandPalette) for s in self.screen_stack):
            return  # one palette at a time (it is open, or will be again when on top)
        if self.use_command_palette:
            # (Textual's own, with paging that a tiny terminal cannot crash: issue 23)
            self.push_screen(SafeCommandPalette(id="--command-palette"))

    def open_picker(self, variant: str | None = None) -> None:
        from .screens.picker import PickerScreen

        self.go_home()
        self.push_screen(PickerScreen(variant))

    def open_lobby(
        self, link: LobbyLink, address: tuple[str, int], connect: LobbyConnect | None = None
    ) -> None:
        """The lobby of the server at ``address`` (host, port), over ``link`` (a
        connection already open). ``connect(host, port)`` opens another link: how a
        redirect to another server process is followed (without it, one is refused)."""
        from .screens.lobby import LobbyScreen

        self.go_home()
        self.push_screen(LobbyScreen(link, address, connect))

    def open_help(self, game: Game | None = None) -> None:
        from .screens.help import HelpScreen
        from .screens.table import TableScreen

        if game is None and isinstance(self.screen, TableScreen):
            game = self.screen.table.rules
        if game is None:
            from .screens.home import RulesListScreen

            self.push_screen(RulesListScreen())
        else:
            self.push_screen(HelpScreen(game))

    def open_learn(self, variant: str | None = None, step: int | None = None) -> None:
        """The lessons list (``variant``: that game's lesson starts at once, at ``step``
        counted from 0, else at its first step not passed)."""
        from .screens.learn import LearnScreen

        self.push_screen(LearnScreen())
        if variant is not None:
            self.start_lesson(variant, step)

    def start_lesson(self, variant: str, step: int | None = None) -> None:
        from .screens.learn import start_lesson
        from .typed_app import twos_app

        start_lesson(twos_app(self), variant, step)

    def action_keys_help(self) -> None:
        """F1: the keys, on the help screen's Keys tab (with the rules of the game at the
        table, if there is one); on the help screen, F1 goes to its Keys tab."""
        from .screens.help import HelpScreen
        from .screens.table import TableScreen

        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.action_tab("keys")
            return
        game = None
        for s in reversed(self.screen_stack):
            if isinstance(s, TableScreen):
                game = s.table.rules
                break
        self.push_screen(HelpScreen(game, tab="keys"))

    def open_stats(self, variant: str | None = None) -> None:
        from .screens.stats import StatsScreen

        self.push_screen(StatsScreen(variant))

    def open_replay(self, deal_id: int, then: ScreenResultCallbackType[None] | None = None) -> None:
        """Replay a recorded deal; ``then``: called when the replay is closed."""
        import sqlite3

        from ..play import history
        from ..play.replay import load_replay
        from .screens.replay import ReplayScreen

        try:
            conn = history.open_history()
            try:
                replay = load_replay(conn, deal_id)
            finally:
                conn.close()
        except (history.HistoryError, sqlite3.Error, OSError) as e:
            self.notify(str(e), title="Cannot replay", severity="error")
            return
        self.push_screen(ReplayScreen(replay), then)

    def open_odds(self, game: Game | None = None) -> None:
        from .odds_screen import OddsScreen

        hand_size = 13
        if game is not None and game.variant_id == "twos":
            hand = game.options.get("hand_size")
            if isinstance(hand, int):
                hand_size = hand
            elif hasattr(game, "hand_size"):
                hand_size = int(game.hand_size)
        self.push_screen(OddsScreen(hand_size=hand_size))
