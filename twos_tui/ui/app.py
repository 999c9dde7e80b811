"""The Textual app. ``twos-tui`` opens the home screen; ``twos-tui play VARIANT`` opens a
table directly. :func:`make_app` builds a deterministic app for tests and screenshots.

:class:`TwosApp` is built in layers, one role each: ``app_settings.py`` (settings and
themes), ``app_sessions.py`` (the table in play: start, resume, host, leave),
``app_routing.py`` (which screen opens); this module holds the app's start and end, its
notifications and the command-line runners."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..play import saves
from ..play import settings as settings_file
from . import cardart
from .app_routing import RoutingApp
from .chrome import SafeHeader
from .screens.home import HomeScreen

# The home screen needs none of the engine, the history (sqlite), the seat views or the
# sessions: they are imported where a table, a replay or the stats first need them, so
# the start stays light (issue 20; benchmarks/bench_start.py measures it).
if TYPE_CHECKING:
    from ..play.history import Recorder
    from ..play.net.server import HostedTable, TableServer
    from ..play.seat_view import SeatView
    from ..play.session import SeatConfig, Session

AI_PAUSE: float | None = None  #: None: the pace chosen in the picker (see play.settings)


class TwosApp(RoutingApp):
    CSS_PATH = "app.tcss"
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
        #: what Textual prints as the app ends with an unexpected error (the traceback),
        #: kept to be written to the crash log as well (:func:`run_built`)
        self.error_console = Console(markup=False, highlight=False, stderr=True, record=True)
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
        loaded = settings_file.load_all()
        self.settings = loaded.settings
        #: what to tell the player once the screen is up: the settings file's problems
        #: (warnings, one line each) and what was done with an old settings file
        self.settings_notes: list[tuple[str, SeverityLevel]] = [
            *((p, "warning") for p in loaded.problems),
            *((n, "information") for n in loaded.notices),
        ]
        if self.settings.theme and self.settings.theme in self.available_themes:
            # the theme chosen last time, from the first frame (set later, it would restyle
            # the whole home screen once more)
            self.theme = self.settings.theme
        elif self.settings.theme:
            from ..play.paths import config_path

            unknown = self.settings.theme
            self.settings.theme = None
            self.settings_notes.append(
                (f"{config_path()}: there is no theme {unknown!r}; using the usual one", "warning")
            )
        self.start_replay = replay
        #: called once the home screen is up (``twos-tui host`` / ``join``)
        self.on_start: Callable[[], object] | None = None  # (what it returns is not used)
        #: the table in play, as this screen sees it (a local game's save is locked)
        self.table: SeatView | None = None

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

    def watch_title(self) -> None:
        self.show_titles()

    def watch_sub_title(self) -> None:
        self.show_titles()

    def show_titles(self) -> None:
        """Each screen's header shows the app's title anew (where the screen has none)."""
        if self.is_running:
            for screen in self.screen_stack:
                for header in screen.query(SafeHeader):
                    header.show_title()

    def get_default_screen(self) -> HomeScreen:
        """The home screen is the bottom of the stack from the start: drawn as the first
        frame, with no empty default screen composed, styled, drawn and then covered."""
        return HomeScreen()

    def on_mount(self) -> None:
        cardart.set_four_colour(self.settings.four_colour)
        for note, severity in self.settings_notes:
            self.notify(note, severity=severity, timeout=15)  # (time to read a path)
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

            players, seats = self.configured_table(self.start_variant)
            self.start_session(
                Session.start(
                    self.start_variant,
                    seats,
                    players,
                    None,
                    self.start_seed,
                    autosave=self.autosave,
                )
            )

    def configured_table(self, variant: str) -> tuple[int | None, list[SeatConfig] | None]:
        """``twos-tui play``'s player count and seats: the command line's, else the
        settings file's count (where the game allows it), name and AI level."""
        from ..engine import variant_class
        from ..play.session import SeatConfig, default_seats

        players, seats, st = self.start_players, self.start_seats, self.settings
        counts = variant_class(variant).player_counts
        if players is None and seats is None and st.players in counts:
            players = st.players
        if seats is None and (st.name or st.ai_level):
            seats = []
            for i, s in enumerate(default_seats(players or variant_class(variant).default_players)):
                name, kind = st.configured_seat(i, s.name, f"ai:{s.level}" if s.is_ai else s.kind)
                level = kind.partition(":")[2]
                seats.append(SeatConfig(name, "ai", level) if level else SeatConfig(name, kind))
        return players, seats

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

    # ----- command palette --------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .app_commands import palette_commands

        yield from super().get_system_commands(screen)
        yield from palette_commands(self, screen)


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
        details = app.error_console.export_text(clear=True).strip()
        _crashed(details or "An unexpected error ended the app (no details were printed).")
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
    from .hosting import join_notice, joined_view, show_join_notice

    def start() -> None:
        app.start_session(joined_view(view))
        notice = join_notice(view)
        if notice:
            show_join_notice(app, notice)

    app.on_start = start
    return run_built(app)


def _recorder_if_loaded() -> Recorder | None:
    """The history's recorder if a table imported the history (it may hold deals to
    write), else ``None``: nothing was recorded, and quitting does not import it."""
    if "twos_tui.play.history" not in sys.modules:
        return None
    from ..play.history import RECORDER

    return RECORDER


def _crashed(details: str) -> None:
    """Tell the player what happened and keep the details in ``crash.log`` (in the user
    log folder, beside the log: :mod:`twos_tui.play.logs`)."""
    from ..play.logs import write_crash

    log = write_crash(details)
    where = f" Details: {log}" if log else ""
    print(
        "twos-tui stopped after an unexpected error. The game in play was saved: "
        f"Continue picks it up.{where}",
        file=sys.stderr,
    )
