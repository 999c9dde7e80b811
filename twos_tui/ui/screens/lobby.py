"""The lobby of a lobby server (issue 30): the six games, the open tables of the one
chosen, the player's own rating and results; sit, watch, create a table, quick match,
the leaderboard.

The screen talks to the server through a :class:`~twos_tui.play.lobby.model.LobbyLink`
only: requests go out with ``send``, and what the lobby answers comes from ``events()``,
read by an async worker on the app's own loop (so widgets are touched on the UI thread).
A new :class:`LobbyState` updates the lists in place, keeping the game and table chosen
and the scroll; ``Refused`` is a notice; ``Seated`` joins the table as ``twos-tui join``
does (:mod:`..lobby_join`); ``Redirect`` reconnects to the server given and asks again.
The lobby stays open under its table: the state it gets once a rated match there is over
brings the rating change, which the match-over box shows (:mod:`.lobby_results`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...play.lobby.model import (
    CancelQuickMatch,
    CreateTable,
    LobbyEvent,
    LobbyLink,
    LobbyRequest,
    LobbyState,
    QuickMatch,
    Redirect,
    Refused,
    ResultInfo,
    Seated,
    SitDown,
    TableInfo,
    Watch,
)
from ..chrome import KeyBar, SafeHeader, SafeOptionList
from ..lobby_text import free_seats, game_name, me_text, queue_text, table_text
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app
from ..variants import available_variants
from .lobby_list import TablesList
from .lobby_results import ask_again, leave_lobby, open_joined, tell_match_end
from .sizing import SizeGuard

if TYPE_CHECKING:
    from ...play.seat_view import SeatView

#: opens a link to the lobby at (host, port): how a ``Redirect`` is followed
LobbyConnect = Callable[[str, int], Awaitable[LobbyLink]]

#: the clock the quick-match wait is counted with (a test may stop it)
now = time.monotonic


class LobbyScreen(SizeGuard, Screen[None]):
    """The lobby, for one player, over ``link`` to the server at ``address``."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        # Esc: cancels a quick match under way, else goes back
        Binding("escape", "cancel_quick_match", "Cancel match"),
        # Esc leaves as q does; the bar shows q, which says where it goes ("Quit" for an
        # SSH door's guest, whose leaving ends the session)
        Binding("escape", "back", "Back", show=False),
        Binding("s", "sit", "Sit"),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "Create"),
        Binding("m", "quick_match", "Quick match"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("q", "leave('Home')", "Home"),
        Binding("q", "leave('Quit')", "Quit"),
        Binding("left", "focus_games", "Games", show=False),
        Binding("right", "focus_tables", "Tables", show=False),
    ]

    def __init__(
        self,
        link: LobbyLink,
        address: tuple[str, int],
        connect: LobbyConnect | None = None,
    ) -> None:
        super().__init__()
        self.link = link
        #: the server's host and port: a table the lobby seats us at is joined there
        self.address = address
        self.connect_link = connect
        self.games = [c.variant_id for c in available_variants()]
        self.game = self.games[0]
        self.state: LobbyState | None = None
        #: when the queue shown was received (its ``waited_s`` counts on from then)
        self.queue_seen = 0.0
        #: the last request about a table (asked again after a redirect)
        self.last_request: LobbyRequest | None = None
        #: events handled (tests and tools wait for a count)
        self.events_seen = 0
        #: the player's results as the lobby last seated them (see lobby_results)
        self.results_before: tuple[ResultInfo, ...] | None = None
        #: a join under way (the lobby says so, and asks nothing more meanwhile)
        self.joining = False
        #: a table joined while "End the session?" is asked: it waits for the answer
        self.waiting_table: SeatView | None = None
        self.closing = False  #: the lobby is being left

    # ----- building -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="♣")
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-side"):
                games = SafeOptionList(id="lobby-games")
                for g in self.games:
                    games.add_option(Option(Text(game_name(g)), id=g))
                yield games
                with VerticalScroll(id="lobby-me-box"):
                    yield Static(Text("…"), id="lobby-me")
            with Vertical(id="lobby-main"):
                yield Static(Text("Connecting to the lobby…", style="italic"), id="lobby-title")
                yield TablesList(id="lobby-tables")
        yield Static(id="lobby-queue")
        yield KeyBar()
        yield self.guard()

    def on_mount(self) -> None:
        self.title = f"Lobby · {self.address[0]}:{self.address[1]}"
        self.check_size(*self.app.size)
        self.query_one("#lobby-games", OptionList).highlighted = 0
        self.query_one("#lobby-queue").display = False
        self.query_one("#lobby-tables", OptionList).focus()
        self.first_state()
        self.listen()
        self.set_interval(1.0, self.tick)

    def on_screen_resume(self) -> None:
        """Back from a table (or a dialog): the lobby as it is now."""
        if self.joining and twos_app(self).table is None:
            self.joining = False
            self.show_game()

    async def on_unmount(self) -> None:
        self.closing = True  # (the link's end that follows is ours, not news)
        with contextlib.suppress(Exception):
            await self.link.close()

    # ----- what the lobby says ----------------------------------------------------------
    def first_state(self) -> None:
        """The listing a link got as it logged in (a ``LobbyClient`` keeps it as its
        ``state``; its events are what comes after)."""
        state = getattr(self.link, "state", None)
        if isinstance(state, LobbyState):
            self.show_state(state)

    def listen(self) -> None:
        self.run_worker(self.read_events(self.link), group="lobby-events", exclusive=True)

    async def read_events(self, link: LobbyLink) -> None:
        try:
            async for event in link.events():
                if link is not self.link:
                    return  # a link left for another (a redirect)
                self.events_seen += 1
                if isinstance(event, Redirect):
                    self.run_worker(self.follow(event), group="lobby-follow", exclusive=True)
                    return
                self.handle(event)
        except Exception as e:  # the connection failed: say so, the screen stays
            if link is self.link:
                self.say_lost(f"The connection to the lobby was lost ({e}).")
            return
        if link is self.link:
            self.say_lost("The lobby closed the connection.")

    def say_lost(self, text: str) -> None:
        if self.closing or not self.is_attached:
            return
        self.query_one("#lobby-title", Static).update(
            Text(f"✗ {text} Press Esc to go back.", style="bold")
        )
        self.notify(text, title="Lobby", severity="error", timeout=10)

    def handle(self, event: LobbyEvent) -> None:
        if isinstance(event, LobbyState):
            self.show_state(event)
        elif isinstance(event, Refused):
            self.joining = False
            self.notify(event.reason, title="Not possible", severity="warning", timeout=8)
        elif isinstance(event, Seated):
            self.join_table(event)

    def show_state(self, state: LobbyState) -> None:
        if state.queue != (self.state.queue if self.state else None):
            self.queue_seen = now()  # (the time waited counts on from this update)
        first = self.state is None
        self.state = state
        if first and state.me.recent and state.me.recent[0].game in self.games:
            # the lobby opens on the game the player played last
            self.game = state.me.recent[0].game
            self.query_one("#lobby-games", OptionList).highlighted = self.games.index(self.game)
        self.mark_games()
        self.show_game()
        self.tick()
        self.refresh_bindings()
        board = self.app.screen
        from .lobby_dialogs import LeaderboardScreen

        if isinstance(board, LeaderboardScreen):
            board.show(state)
        tell_match_end(self)

    def mark_games(self) -> None:
        """Each game with its count of tables; the one shown marked "▸", the one of a
        quick match under way "⌛ queued"."""
        state = self.state
        games = self.query_one("#lobby-games", OptionList)
        for i, g in enumerate(self.games):
            label = Text("▸ " if g == self.game else "  ", style="bold")
            label.append(game_name(g))
            count = sum(1 for t in state.tables if t.game == g) if state else 0
            label.append(f" ({count})" if count else "", style="dim")
            if state is not None and state.queue is not None and state.queue.game == g:
                label.append(" ⌛ queued")
            games.replace_option_prompt_at_index(i, label)

    def mark_tables(self) -> None:
        """The tables' text, the one highlighted marked "▸"."""
        lst = self.query_one("#lobby-tables", TablesList)
        for i, t in enumerate(self.game_tables()):
            if i < lst.option_count:
                lst.replace_option_prompt_at_index(i, table_text(t, i == lst.highlighted))

    def game_tables(self) -> list[TableInfo]:
        state = self.state
        return [t for t in state.tables if t.game == self.game] if state else []

    def show_game(self) -> None:
        """The chosen game's tables and the player's panel, from the last state: the
        table highlighted stays highlighted (or its neighbour, if it went) and the list
        keeps its scroll."""
        state = self.state
        if state is None:
            return
        self.query_one("#lobby-me", Static).update(me_text(state.me, self.game))
        tables = self.game_tables()
        title = Text(game_name(self.game), style="bold")
        if tables:
            title.append(f" · {len(tables)} table{'s' if len(tables) != 1 else ''}")
        else:
            title.append(" · no open table: c creates one, m finds you a game")
        self.query_one("#lobby-title", Static).update(title)
        lst = self.query_one("#lobby-tables", TablesList)
        ids = [t.table_id for t in tables]
        if [o.id for o in lst.options] == ids:
            self.mark_tables()  # the same tables: their text updated in place
            return
        before = lst.highlighted_option
        index = lst.highlighted
        scroll = lst.scroll_y
        options: list[Option | None] = []
        for t in tables:
            options += [Option(table_text(t), id=t.table_id), None]
        lst.set_options(options[:-1])
        if not tables:
            return
        if before is not None and before.id in ids:
            lst.highlighted = ids.index(before.id)
        else:
            lst.highlighted = min(index or 0, len(tables) - 1)

        def keep_scroll() -> None:  # (once the list has measured its new options)
            lst.scroll_to(y=scroll, animate=False, immediate=True)
            lst.scroll_to_highlight()  # (only if the table chosen went out of view)

        self.call_after_refresh(keep_scroll)
        self.mark_tables()

    def tick(self) -> None:
        """The quick-match line, with the time waited counted on between updates."""
        queue = self.state.queue if self.state else None
        line = self.query_one("#lobby-queue", Static)
        line.display = queue is not None
        if queue is not None:
            line.update(queue_text(queue, queue.waited_s + now() - self.queue_seen))

    # ----- choosing ---------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#lobby-games")
    def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        game = event.option.id
        if game is not None and game != self.game:
            self.game = game
            self.query_one("#lobby-tables", OptionList).clear_options()
            self.mark_games()
            self.show_game()
            self.refresh_bindings()

    @on(OptionList.OptionHighlighted, "#lobby-tables")
    def _table_highlighted(self) -> None:
        self.mark_tables()
        self.refresh_bindings()

    @on(OptionList.OptionSelected, "#lobby-games")
    def _game_chosen(self) -> None:
        self.query_one("#lobby-tables", OptionList).focus()

    @on(OptionList.OptionSelected, "#lobby-tables")
    def _table_chosen(self) -> None:
        lst = self.query_one("#lobby-tables", TablesList)
        if lst.single_click:
            lst.single_click = False
            return  # a click chooses the table; a double click or Enter sits there
        self.action_sit()

    def selected_table(self) -> TableInfo | None:
        try:
            option = self.query_one("#lobby-tables", OptionList).highlighted_option
        except NoMatches:  # (asked before the screen is built, or as it goes)
            return None
        if option is None:
            return None
        return next((t for t in self.game_tables() if t.table_id == option.id), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("sit", "watch"):
            return True if self.selected_table() is not None else None
        queued = self.state is not None and self.state.queue is not None
        if action == "cancel_quick_match":
            return queued
        if action == "leave" and parameters:
            # the key that says where it goes: "Quit" for an SSH door's guest
            quits = twos_app(self).exit_on_leave
            if (parameters[0] == "Quit") != quits:
                return False
        if action == "back":
            return not queued
        if action == "quick_match":
            return True if not queued else None
        return True

    # ----- asking -----------------------------------------------------------------------
    def ask(self, request: LobbyRequest) -> None:
        if isinstance(request, SitDown | Watch | QuickMatch | CreateTable):
            self.last_request = request
        self.run_worker(self.send(request), group="lobby-send")

    async def send(self, request: LobbyRequest) -> None:
        try:
            await self.link.send(request)
        except Exception as e:
            self.notify(f"The lobby did not get that ({e}).", title="Lobby", severity="error")

    def action_sit(self) -> None:
        table = self.selected_table()
        if table is None:
            return
        me = self.state.me.name if self.state is not None else None
        if any(seat.name == me for seat in table.seats):  # your own seat (away): back to it
            self.ask(SitDown(table.table_id))
            return
        if not free_seats(table):
            self.notify("Every seat at that table is taken: w watches it.", title="No free seat")
            return
        if not table.public:
            from .lobby_dialogs import CodeDialog

            def answer(code: str | None) -> None:
                if code:
                    self.ask(SitDown(table.table_id, None, code))

            self.app.push_screen(CodeDialog(table.table_id), answer)
            return
        self.ask(SitDown(table.table_id))

    def action_watch(self) -> None:
        table = self.selected_table()
        if table is not None:
            self.ask(Watch(table.table_id))

    def action_create(self) -> None:
        from .lobby_create import CreateTableScreen

        def answer(request: CreateTable | None) -> None:
            if request is not None:
                self.ask(request)

        self.app.push_screen(CreateTableScreen(self.game), answer)

    def action_quick_match(self) -> None:
        if self.state is not None and self.state.queue is not None:
            return
        from .lobby_dialogs import QuickMatchScreen

        def answer(request: QuickMatch | None) -> None:
            if request is not None:
                self.ask(request)

        self.app.push_screen(QuickMatchScreen(self.game), answer)

    def action_cancel_quick_match(self) -> None:
        if self.state is not None and self.state.queue is not None:
            self.ask(CancelQuickMatch())

    def action_leaderboard(self) -> None:
        from .lobby_dialogs import LeaderboardScreen

        board = LeaderboardScreen(self.games, self.game)
        self.app.push_screen(board)
        if self.state is not None:
            board.show(self.state)

    def action_back(self) -> None:
        self.action_leave()

    def action_leave(self, _shown: str = "") -> None:
        leave_lobby(self)  # (an SSH door's guest is asked first: it ends the session)

    def action_focus_games(self) -> None:
        self.query_one("#lobby-games", OptionList).focus()

    def action_focus_tables(self) -> None:
        self.query_one("#lobby-tables", OptionList).focus()

    # ----- a redirect -------------------------------------------------------------------
    async def follow(self, redirect: Redirect) -> None:
        """Reconnect to the server that has the table, and ask there again."""
        from .join import split_address

        try:
            host, port = split_address(redirect.address)
        except ValueError as e:
            self.notify(f"The lobby sent us to {redirect.address!r}: {e}", severity="error")
            return
        if self.connect_link is None:
            self.notify(
                f"That table is on {host}:{port}; this lobby cannot take you there.",
                title="Lobby",
                severity="error",
            )
            return
        try:
            link = await self.connect_link(host, port)
        except Exception as e:
            self.notify(f"Could not reach {host}:{port} ({e}).", title="Lobby", severity="error")
            return
        old, self.link, self.address = self.link, link, (host, port)
        self.title = f"Lobby · {host}:{port}"
        with contextlib.suppress(Exception):
            await old.close()
        self.first_state()
        self.listen()
        self.ask(ask_again(redirect, self.last_request))

    # ----- seated: the table opens ------------------------------------------------------
    def join_table(self, seated: Seated) -> None:
        if self.joining:
            return
        self.joining = True
        self.results_before = self.state.me.recent if self.state else ()
        host, port = self.address
        name = self.state.me.name if self.state else None
        what = "Watching" if seated.seat is None else "Joining"
        self.query_one("#lobby-title", Static).update(
            Text(f"{what} table {seated.table_id}…", style="italic")
        )
        self.connect_table(host, port, seated, name)

    @work(thread=True, exclusive=True, group="lobby-join")
    def connect_table(self, host: str, port: int, seated: Seated, name: str | None) -> None:
        from ...play.net.client import JoinError
        from ..lobby_join import connect_seated

        try:
            view = connect_seated(host, port, seated, name)
        except JoinError as e:
            self.app.call_from_thread(self.join_failed, str(e))
            return
        self.app.call_from_thread(self.joined, view)

    def join_failed(self, reason: str) -> None:
        self.joining = False
        if self.is_attached:
            self.notify(reason, title="Could not join", severity="error", timeout=10)
            self.show_game()

    def joined(self, view: SeatView) -> None:
        """The table opens as a joined table, over the lobby (leaving it comes back)."""
        open_joined(self, view)
