"""The table in play (a layer of :class:`~twos_tui.ui.app.TwosApp`): starting, resuming,
hosting and leaving a game, and going back to the home screen."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

from ..play.saves import SaveError
from .app_settings import SettingsApp
from .screens.home import HomeScreen

# (the engine, the history, the seat views and the sessions are imported where a table
# first needs them: the home screen starts without them)
if TYPE_CHECKING:
    from ..play.net.server import HostedTable, TableServer
    from ..play.saves import SaveInfo
    from ..play.seat_view import SeatView
    from ..play.session import Session
    from .screens.lobby import LobbyScreen


class SessionsApp(SettingsApp):
    """The table in play (``table``) and the ways to open and leave one."""

    #: the table in play, as this screen sees it (a local game's save is locked)
    table: SeatView | None
    #: games are saved as they are played (off in some tests)
    autosave: bool

    #: leaving the table (or the lobby) ends the program (an SSH door's guest never gets
    #: the home screen, which would play games on the host's computer): ``join --guest``
    exit_on_leave = False

    def go_home(self) -> None:
        """Back to the home screen; from a table opened from a lobby, back to the lobby
        (it stays open under its tables)."""
        leaving_lobby = self.table is None and self.lobby_below(self.screen)
        if self.exit_on_leave and (
            leaving_lobby or (self.table is not None and not self.lobby_below())
        ):
            # an SSH door's guest: its table, or its lobby (a table from the lobby goes
            # back to the lobby), is all it gets
            self.close_session()
            self.exit()
            return
        to_lobby = self.table is not None and self.lobby_below()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            if to_lobby and self.lobby_below(self.screen):
                break
            self.pop_screen()
        self.close_session()

    def leave_to(self) -> str:
        """Where leaving the table in play goes, as its key says it: "Lobby" (a table
        the lobby seated us at), "Quit" (an SSH door's guest at its only table: the
        session ends) or "Home"."""
        if self.lobby_below():
            return "Lobby"
        return "Quit" if self.exit_on_leave else "Home"

    def lobby_screen(self) -> LobbyScreen | None:
        """The lobby open in the stack (under a table it seated us at), if any."""
        if "twos_tui.ui.screens.lobby" not in sys.modules:
            return None
        from .screens.lobby import LobbyScreen

        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    def lobby_below(self, screen: object = None) -> bool:
        """A lobby is open in the stack (``screen``: is that screen the lobby)."""
        if "twos_tui.ui.screens.lobby" not in sys.modules:
            return False  # (never opened: not imported at the start for this question)
        from .screens.lobby import LobbyScreen

        if screen is not None:
            return isinstance(screen, LobbyScreen)
        return any(isinstance(s, LobbyScreen) for s in self.screen_stack)

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
        from ..play.net.server import HostedTable
        from .hosting import app_server

        table = HostedTable(session, tuple(remote_seats), drive_ai=False)
        self.host_table(table, app_server(), bind, port)

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
            cert = server.cert
            tls = f" Certificate {cert.fingerprint}." if cert is not None else " Not encrypted."
            self.notify(
                f"Hosting: join code {table.code}.{tls}{keys} Press i at the table for the "
                "addresses and the command to give friends.",
                timeout=20 if doors else 10,
            )

        self.run_worker(start(), group="host", exclusive=True)

    def start_session(self, session: Session | SeatView, over_lobby: bool = False) -> None:
        """Open the table of ``session``; ``over_lobby``: over the lobby on top (a table
        the lobby seated us at), which leaving the table goes back to."""
        from ..play import history
        from ..play.seat_view import LocalSeatView, SeatView
        from .screens.table import TableScreen

        # the history's writer thread, started with the first table (not at launch)
        history.RECORDER.on_error = self._history_failed
        history.RECORDER.start()
        if over_lobby and self.lobby_below(self.screen):
            self.close_session()
        else:
            self.go_home()
        table = session if isinstance(session, SeatView) else LocalSeatView(session)
        if hasattr(table, "record_history"):  # a joined table: this player's own history
            table.record_history = self.autosave
        self.table = table
        self.push_screen(TableScreen(table))

    def player_name(self) -> str:
        """The settings file's name, else the name this player last gave their own seat
        (for joining a table)."""
        st = self.settings
        if st.name:
            return st.name
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
        from .screens.save_dialogs import SaveLockedDialog

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
        from ..play.net.server import HostedTable, sidecar_path
        from .hosting import app_server

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
        self.host_table(table, app_server(), bind, port)
        return True

    def _history_failed(self, message: str) -> None:
        """Called on the recorder's thread when a deal could not be recorded."""
        with contextlib.suppress(RuntimeError):  # the app is closing
            self.call_from_thread(self.notify, message, severity="error", timeout=8)
