"""The Textual app. ``twos-tui`` opens the home screen; ``twos-tui play VARIANT`` opens a
table directly. :func:`make_app` builds a deterministic app for tests and screenshots."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal, overload

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.notifications import SeverityLevel
from textual.screen import Screen, ScreenResultCallbackType, ScreenResultType
from textual.theme import Theme
from textual.widget import AwaitMount

from ..play import saves
from ..play import settings as settings_file
from ..play.paths import data_dir
from ..play.saves import SaveError
from . import cardart
from .screens.home import HomeScreen
from .textual_private import app_exception, guarded_command_palette

# The home screen needs none of the engine, the history (sqlite), the seat views or the
# sessions: they are imported where a table, a replay or the stats first need them, so
# the start stays light (issue 20; benchmarks/bench_start.py measures it).
if TYPE_CHECKING:
    from ..engine import Game
    from ..play.history import Recorder
    from ..play.net.server import HostedTable, TableServer
    from ..play.saves import SaveInfo
    from ..play.seat_view import SeatView
    from ..play.session import SeatConfig, Session

AI_PAUSE: float | None = None  #: None: the pace chosen in the picker (see play.settings)


class TwosApp(App[int]):
    CSS_PATH = "app.tcss"
    _theme_cache: tuple[str, Theme] | None = None
    TITLE = "twos-tui"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        # as in other Textual apps: F1 for the keys (on any screen without its own F1)
        Binding("f1", "keys_help", "Keys help", show=False),
    ]

    def __init__(
        self,
        variant: str | None = None,
        players: int | None = None,
        seed: int | None = None,
        ai_pause: float | None = AI_PAUSE,
        autosave: bool = True,
        session: Session | SeatView | None = None,
        replay: int | None = None,
        tips: bool = False,
        seats: list[SeatConfig] | None = None,
    ) -> None:
        super().__init__()
        self.start_seats = seats
        #: first-game tips may be shown (as the settings say): on for a player's app
        #: (:func:`run_app`), off in the tests' and screenshots' apps unless asked for
        self.tips = tips
        self.start_variant = variant
        self.start_players = players
        self.start_seed = seed
        #: seconds before each AI move; None: the pace from the settings; 0: the AI
        #: decides at once on the event loop (tests: every move in order, no threads)
        self.ai_pause = ai_pause
        #: warnings and errors shown: (message, title, severity, until) for
        #: :meth:`clear_announcements`
        self.notices: list[tuple[str, str, SeverityLevel, float]] = []
        self.autosave = autosave
        self.start_with = session
        self.settings = settings_file.load()
        self.start_replay = replay
        #: called once the home screen is up (``twos-tui host`` / ``join``)
        self.on_start: Callable[[], object] | None = None  # (what it returns is not used)
        #: the table in play, as this screen sees it (a local game's save is locked)
        self.table: SeatView | None = None

    # ----- settings ---------------------------------------------------------------------
    @property
    def ai_sync(self) -> bool:
        return self.ai_pause == 0

    def pace(self) -> tuple[float, float]:
        """(seconds before an AI move, seconds a finished trick stays before the next
        lead)."""
        if self.ai_pause is not None:
            return (self.ai_pause, 2 * self.ai_pause)
        return self.settings.pace()

    def trick_hold(self) -> float | None:
        """Seconds a finished trick (or a 2v1 hand) stays on a table with a person before
        an AI plays on; None: until a key (the "Trick pause" setting)."""
        if self.ai_pause is not None:
            return 2 * self.ai_pause
        return self.settings.trick_hold()

    def save_settings(self) -> None:
        problem = settings_file.save(self.settings)
        if problem:
            self.notify(problem, severity="warning")

    def remember_sort(self, variant_id: str, sort_by: str) -> None:
        self.settings.sort[variant_id] = sort_by
        self.save_settings()

    def watch_theme(self, theme: str) -> None:
        self._theme_cache = None
        if self.is_running and theme != self.settings.theme:
            self.settings.theme = theme
            self.save_settings()

    # ----- themes -----------------------------------------------------------------------
    @property
    def current_theme(self) -> Theme:
        """Textual looks the theme up for every rendered line, copying the theme table
        each time; keep the answer until the theme changes or a theme is (un)registered
        (public API only: ``register_theme``/``unregister_theme`` are overridden)."""
        name = self.theme
        cached = self._theme_cache
        if cached is None or cached[0] != name:
            cached = self._theme_cache = (name, super().current_theme)
        return cached[1]

    def register_theme(self, theme: Theme) -> None:
        super().register_theme(theme)
        self._theme_cache = None

    def unregister_theme(self, theme_name: str) -> None:
        super().unregister_theme(theme_name)
        self._theme_cache = None

    async def on_unmount(self) -> None:
        saves.WRITER.flush()  # the last autosave is on disk before the app is gone
        cardart.set_four_colour(False)  # (a module setting: the next app sets its own)
        recorder = _recorder_if_loaded()
        if recorder is not None:
            recorder.flush(timeout=10)  # and the last finished deal in the history
            recorder.on_error = None
        server = getattr(self.table, "server", None)
        self.close_session()
        if server is not None:  # a hosted table: its players are told it has stopped
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.close(), 3)

    def _history_failed(self, message: str) -> None:
        """Called on the recorder's thread when a deal could not be recorded."""
        with contextlib.suppress(RuntimeError):  # the app is closing
            self.call_from_thread(self.notify, message, severity="error", timeout=8)

    def get_default_screen(self) -> HomeScreen:
        """The home screen is the bottom of the stack from the start: drawn as the first
        frame, with no empty default screen composed, drawn and then covered (a start
        that costs about as much as a bare Textual app's)."""
        return HomeScreen()

    def on_mount(self) -> None:
        if self.settings.theme and self.settings.theme in self.available_themes:
            self.theme = self.settings.theme  # the theme chosen last time
        cardart.set_four_colour(self.settings.four_colour)
        if self.autosave:
            saves.remove_stray_temp_files()  # left by a writer that was killed
        if self.start_replay is not None:
            # `twos-tui replay ID`: closing the replay goes back to the shell
            self.open_replay(self.start_replay, then=lambda _r: self.exit(0))
        if self.on_start is not None:
            self.on_start()
        elif self.start_with is not None:
            self.start_session(self.start_with)
        elif self.start_variant is not None:
            from ..play.session import Session

            self.start_session(
                Session.start(
                    self.start_variant,
                    self.start_seats,
                    self.start_players,
                    None,
                    self.start_seed,
                    autosave=self.autosave,
                )
            )

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications show their text as it is, never as markup: it often holds a
        player's name, and ``[bold]x`` is a name like any other."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        if severity != "information":  # a warning or an error outlives clear_announcements
            until = time.monotonic() + (timeout if timeout is not None else 5.0)
            self.notices.append((message, title, severity, until))

    def clear_announcements(self) -> None:
        """Take down the toasts of plain news (a catch, a bomb, a notice) at once; the
        warnings and errors still due stay up (for the rest of their time)."""
        now = time.monotonic()
        keep = [n for n in self.notices if n[3] > now]
        self.notices = []
        self.clear_notifications()
        for message, title, severity, until in keep:
            self.notify(message, title=title, severity=severity, timeout=until - now)

    # ----- screens ----------------------------------------------------------------------
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
            self.push_screen(guarded_command_palette(id="--command-palette"))

    # ----- navigation -------------------------------------------------------------------
    #: leaving the table ends the program (an SSH door's guest never gets the home
    #: screen, which would play games on the host's computer): ``join --guest``
    exit_on_leave = False

    def go_home(self) -> None:
        if self.exit_on_leave and self.table is not None:
            self.close_session()
            self.exit()
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()
        self.close_session()

    @property
    def session(self) -> Session | None:
        """The match in play on this computer, if any (a joined table has none)."""
        table = self.table
        if table is None:
            return None
        from ..play.seat_view import LocalSeatView

        return table.session if isinstance(table, LocalSeatView) else None

    def close_session(self) -> None:
        """The table in play is left: a local game's last save goes to disk and its lock
        is released; a joined table is disconnected; a hosted table stops listening."""
        if self.table is not None:
            from .hosting import stop_server

            stop_server(self.table)
            self.table.close()
            self.table = None

    def start_hosted(
        self, session: Session, remote_seats: tuple[int, ...], bind: str, port: int
    ) -> None:
        """Host ``session`` with ``remote_seats`` played from other computers: the server
        starts on this app's loop, then the host's table opens with the join code."""
        from ..play.net.server import HostedTable, TableServer

        table = HostedTable(session, tuple(remote_seats), drive_ai=False)
        self.host_table(table, TableServer(), bind, port)

    def host_table(self, table: HostedTable, server: TableServer, bind: str, port: int) -> None:
        """Serve ``table`` (made by the picker or ``twos-tui host``) and open it."""
        server.add(table)

        async def start() -> None:
            from .hosting import host_view, start_server

            problem = await start_server(server, bind, port)
            if problem is not None:
                table.close()
                table.session.close()
                self.notify(problem, title="Not hosted", severity="error", timeout=10)
                return
            self.start_session(host_view(table, server, bind))
            doors = getattr(server, "doors", [])
            keys = "".join(f" SSH door on port {d.port}, host key {d.fingerprint}." for d in doors)
            self.notify(
                f"Hosting: join code {table.code}.{keys} Press i at the table for the "
                "addresses and the command to give friends.",
                timeout=20 if doors else 10,
            )

        self.run_worker(start(), group="host", exclusive=True)

    def start_session(self, session: Session | SeatView) -> None:
        from ..play import history
        from ..play.seat_view import LocalSeatView, SeatView
        from .screens.table import TableScreen

        # the history's writer thread, started with the first table (not at launch)
        history.RECORDER.on_error = self._history_failed
        history.RECORDER.start()
        self.go_home()
        table = session if isinstance(session, SeatView) else LocalSeatView(session)
        if hasattr(table, "record_history"):  # a joined table: this player's own history
            table.record_history = self.autosave
        self.table = table
        self.push_screen(TableScreen(table))

    def player_name(self) -> str:
        """The name this player last gave their own seat (for joining a table)."""
        st = self.settings
        choice = st.choice_for(st.last_variant) if st.last_variant else None
        for seat in choice.seats if choice else []:
            if seat.get("kind") == "human" and seat.get("name"):
                return seat["name"]
        return ""

    def resume(self, info: SaveInfo, copy: bool = False) -> None:
        """Open a listed save. If another running twos-tui has it open, say so and
        offer a copy; if it changed since it was listed and is now damaged, say why."""
        from ..play.locks import SaveLocked
        from ..play.session import Session
        from .screens.dialogs import SaveLockedDialog

        if not copy and self.resume_hosted(info):
            return
        try:
            session = Session.resume(info, copy=copy)
        except SaveLocked as e:

            def answer(choice: str | None) -> None:
                if choice == "copy":
                    self.resume(info, copy=True)

            self.push_screen(SaveLockedDialog(str(e)), answer)
            return
        except SaveError as e:
            self.notify(
                f"{info.display_name} cannot be opened: {e}",
                title="Damaged save",
                severity="error",
                markup=False,
            )
            if hasattr(self.screen, "reload"):
                self.screen.reload()
            return
        if copy:
            session.save()
            self.notify("A copy of the game opens here; the other window keeps the original.")
        self.start_session(session)

    def resume_hosted(self, info: SaveInfo) -> bool:
        """A save of a table this app hosted reopens as that hosted table (same code,
        same seat keys, where it listened before): never as a local game, which would
        show the remote players' hands at this screen. ``False``: not a hosted save."""
        from ..play.locks import SaveLocked
        from ..play.net.client import DEFAULT_PORT
        from ..play.net.server import HostedTable, TableServer, sidecar_path

        if not sidecar_path(info.save_id).is_file():
            return False
        try:
            table = HostedTable.reopen(info.save_id, drive_ai=False)
        except SaveLocked as e:
            self.notify(str(e), title="Open elsewhere", severity="error", timeout=10)
            return True
        except Exception as e:  # a damaged save or sidecar: say why, play nothing
            self.notify(
                f"{info.display_name}: the hosted table cannot be reopened ({e})",
                title="Damaged save",
                severity="error",
                timeout=10,
            )
            return True
        bind, port = table.listen or ("127.0.0.1", DEFAULT_PORT)
        self.host_table(table, TableServer(), bind, port)
        return True

    def open_picker(self, variant: str | None = None) -> None:
        from .screens.picker import PickerScreen

        self.go_home()
        self.push_screen(PickerScreen(variant))

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

        start_lesson(self, variant, step)

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

    def toggle_four_colour(self) -> None:
        """The four-colour deck on or off: at once on every card shown, and kept."""
        self.settings.four_colour = not self.settings.four_colour
        cardart.set_four_colour(self.settings.four_colour)
        self.save_settings()
        for screen in self.screen_stack:
            for widget in screen.walk_children():
                widget.refresh()
            screen.refresh()

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

    # ----- command palette --------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .app_commands import palette_commands

        yield from super().get_system_commands(screen)
        yield from palette_commands(self, screen)

    def tips_back_on(self) -> None:
        """Every first-game tip is shown again, once (a setting, kept)."""
        self.settings.tips_back_on()
        self.save_settings()
        self.notify("Tips are on: each shows once more, at the moment it is for.")


def make_app(
    variant: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    ai_pause: float | None = AI_PAUSE,
    autosave: bool = True,
    session: Session | None = None,
    replay: int | None = None,
    tips: bool = False,
    seats: list[SeatConfig] | None = None,
) -> TwosApp:
    """Build the app (tests pass a fixed seed and ``ai_pause=0``). First-game tips are
    off unless ``tips``: a player's app (:func:`run_app`) turns them on. ``seats``: who
    sits at the ``variant``'s table (``twos-tui play --seats``; default: one person and
    AIs)."""
    return TwosApp(variant, players, seed, ai_pause, autosave, session, replay, tips, seats)


def run_app(
    variant: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    replay: int | None = None,
    learn: str | None = None,
    learn_step: int | None = None,
    seats: list[SeatConfig] | None = None,
) -> int:
    """Run the app in the terminal; the exit status for the command line. ``learn``:
    open the lessons ("" the list, a variant id that game's lesson, at ``learn_step``
    counted from 1)."""
    if learn:
        from ..play.lessons import LessonError, load_lesson

        try:
            lesson = load_lesson(learn)
            if learn_step is not None and not 1 <= learn_step <= len(lesson.steps):
                raise LessonError(
                    f"the {lesson.title} lesson has steps 1 to {len(lesson.steps)}, "
                    f"not {learn_step}"
                )
        except LessonError as e:
            print(f"twos-tui: {e}", file=sys.stderr)
            return 2
    if learn is not None:
        app = make_app(tips=True)
        step = learn_step - 1 if learn_step is not None else None
        app.on_start = lambda: app.open_learn(learn or None, step)
        return run_built(app)
    if variant is not None:
        from ..engine import variant_class
        from ..play.session import default_seats

        try:
            cls = variant_class(variant)
            if players is None:
                players = cls.default_players
            if players not in cls.player_counts:
                raise ValueError(
                    f"{cls.name} is for "
                    f"{', '.join(map(str, cls.player_counts))} players, not {players}"
                )
            default_seats(players)
        except ValueError as e:
            print(f"twos-tui: {e}", file=sys.stderr)
            return 2
    return run_built(make_app(variant, players, seed, replay=replay, tips=True, seats=seats))


def run_built(app: TwosApp) -> int:
    """Run a built app in the terminal; the exit status for the command line."""
    try:
        result = app.run()
    except BaseException:
        # an error outside the app's own handling: the terminal is restored by now
        saves.WRITER.flush()
        _crashed(traceback.format_exc())
        raise
    finally:
        saves.WRITER.flush()
        recorder = _recorder_if_loaded()
        if recorder is not None:  # (not imported: no deal was played, nothing to write)
            recorder.flush(timeout=10)
        if app.table is not None:
            app.table.close()
    if app.return_code not in (None, 0):
        # an unexpected error: Textual restored the terminal and printed the traceback
        error = app_exception(app)
        _crashed("".join(traceback.format_exception(error)) if error else "")
        return app.return_code or 1
    return result or 0


def run_hosted(table: HostedTable, server: TableServer, seat: int | None = None) -> int:
    """``twos-tui host`` with a screen: the host's table opens once ``server`` listens
    (on the address and port it was made with). The host plays the table's seats of
    people at this screen (``seat`` among them)."""
    app = make_app(ai_pause=None, tips=True)
    app.on_start = lambda: app.host_table(table, server, server.host, server.port)
    return run_built(app)


def run_joined(view: SeatView, guest: bool = False) -> int:
    """``twos-tui join``: the joined table opens at once (the view is connected).
    ``guest``: leaving the table ends the program (the SSH door's clients)."""
    app = make_app(ai_pause=None, tips=True)
    app.exit_on_leave = guest
    from .hosting import joined_view

    app.on_start = lambda: app.start_session(joined_view(view))
    return run_built(app)


def _recorder_if_loaded() -> Recorder | None:
    """The history's recorder if a table imported the history (it may hold deals to
    write), else ``None``: nothing was recorded, and quitting does not import it."""
    if "twos_tui.play.history" not in sys.modules:
        return None
    from ..play.history import RECORDER

    return RECORDER


def _crashed(details: str) -> None:
    """Tell the player what happened and keep the details in the data folder."""
    log = None
    try:
        d = data_dir()
        d.mkdir(parents=True, exist_ok=True)
        log = d / "crash.log"
        with open(log, "a", encoding="utf-8") as f:
            f.write(details + "\n")
    except OSError:
        log = None
    where = f" Details: {log}" if log else ""
    print(
        "twos-tui stopped after an unexpected error. The game in play was saved: "
        f"Continue picks it up.{where}",
        file=sys.stderr,
    )
