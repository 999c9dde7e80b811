"""The card table: one screen for every variant, driven by the engine's protocol.

The screen shows ``game.observation(seat)`` for the player at the screen, asks
``game.decision(seat)`` what to offer, ``game.check`` whether the selection may be
played (and ``game.describe`` what it is, for the preview), and plays it with
``apply``. What sits in the middle of the table comes from the game's board
(:func:`twos_tui.ui.boards.board_for`): the screen itself never asks what kind of game
it shows.

AI seats decide in a worker (``@work(exclusive=True)``): the decision runs on a thread
(see :mod:`twos_tui.ui.ai_runner`; the ``hard`` search's 0.4 s included) so the interface
never waits for it, the seat shows "thinking…", and leaving the table cancels it. The AI's
move appears after the pace chosen in the picker. Hot-seat games put a "pass to NAME"
screen between human turns (the table is hidden then). A spectator's screen
(:attr:`TableScreen.spectator`) is not hidden: it draws the public view, every seat
alike, with no hand and no key that acts. With every seat an AI the table is a demo: space pauses,
``n`` steps one move, ``f`` looks over the next seat's shoulder.

The screen holds the state at the screen (the decision, the hand's order, the selection)
and Textual's actions and handlers; small helpers beside it do the work, one concern
each: :mod:`.table_panels` (score, log, prompt), :mod:`.table_buttons`,
:mod:`.table_message`, :mod:`.table_select` (cursor, selection, preview, sort),
:mod:`.table_moves` (Enter, pass, choices), :mod:`.table_views` (dialogs),
:mod:`.table_hints`, :mod:`.table_flow` (turns, pass screens, deal end),
:mod:`.table_ai` (the AI worker's move), :mod:`.table_flash` (bombs and catches),
:mod:`.table_tips` (first-game tips) and :mod:`.table_demo` (pause, step, follow).
"""

from __future__ import annotations

import asyncio
import contextvars
import random
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from ...engine import Action, Decision
from ...engine.cards import CardFace
from ...engine.views import ClimbingView
from ...play.seat_view import REMOTE, LocalSeatView, SeatInfo, SeatView
from ...play.session import Session
from ...play.sight import PublicView
from ..boards import Board, TableView, board_for
from ..chrome import KeyBar, SafeHeader
from ..playlog import PlayLog
from ..screen_css import SCREENS_CSS
from ..widgets import HandView, InfoPanel, MessageLine, update_static
from .sizing import SizeGuard
from .table_ai import AiTurns
from .table_autopass import AutoPass
from .table_buttons import ActionButtons
from .table_demo import DemoControls
from .table_flash import Announcer
from .table_flow import DealFlow
from .table_hints import HintHelper
from .table_message import MessageBar
from .table_moves import Moves
from .table_panels import (
    buttons_shown,
    fit_sub_title,
    house_rules_note,
    offered_lines,
    prompt_text,
    render_log,
    render_score,
)
from .table_select import Selection
from .table_tips import TipCoach
from .table_views import TableViews

if TYPE_CHECKING:
    from .dialogs import InfoDialog

#: what a spectator's keys may do (nothing that acts: no select, play, hint, pass, sort,
#: undo)
SPECTATOR_ACTIONS = frozenset(
    {"help", "show_log", "last_trick", "score_sheet", "chat", "sit", "table_info", "clear"}
    | {"leave"}
)
CHOICE_POOL = 4  #: choice buttons mounted up front (more are mounted if ever needed)
FRAMED_HEIGHT = 34  #: from this many rows, cards are drawn framed
TALL_HEIGHT = 30  #: from this many rows, the score panel also says how the match is won


def join_notes(*notes: str) -> str:
    return " · ".join(n for n in notes if n)


def seat_note(seat: SeatInfo) -> str:
    """What the seat panel adds about a seat played from another computer."""
    if seat.kind != REMOTE:
        return seat.note
    return seat.note or ("" if seat.connected else "away")


class TableScreen(SizeGuard, Screen[None]):
    """A game in play."""

    CSS_PATH = SCREENS_CSS

    #: auto-pass (``a``) is offered in the climbing games (not in a lesson or a puzzle:
    #: there each move is the point)
    AUTO_PASS = True

    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", show=False),
        Binding("right", "cursor(1)", "Move", show=False),
        Binding("up", "row(-1)", "Row up", show=False),
        Binding("down", "row(1)", "Row down", show=False),
        Binding("home", "cursor_to(0)", "First card", show=False),
        Binding("end", "cursor_to(-1)", "Last card", show=False),
        Binding("space", "pick", "Select"),
        Binding("space", "demo_pause", "Pause/run"),
        Binding("n", "demo_step", "Step"),
        Binding("f", "demo_follow", "Next seat"),
        Binding("enter", "submit", "Play"),
        Binding("enter", "submit('choice')", "Choose"),  # choices only: the marked one
        Binding("p", "pass_turn", "Pass"),
        # the climbing games: pass until this trick ends (a again: off)
        Binding("a", "auto_pass('on')", "Auto-pass"),
        Binding("a", "auto_pass('off')", "Auto-pass off"),
        Binding("h", "hint", "Hint"),
        # (at a joined table chat comes before the keys the help and the screen also
        # give, so that it is never the one a short key bar leaves out)
        Binding("c", "chat", "Chat"),  # a table with players on other computers
        Binding("j", "sit", "Take a seat"),  # a spectator, where a seat is free
        Binding("t", "last_trick('trick')", "Last trick"),
        Binding("t", "last_trick('hand')", "Last hand"),  # 2v1: the game's word
        Binding("l", "show_log", "Log", show=False),
        Binding("l", "show_log('watching')", "Log"),  # a spectator: room in the key bar
        Binding("i", "table_info", "Table info", show=False),
        Binding("s", "sort", "Sort"),
        Binding("o", "score_sheet", "Scores"),
        Binding("ctrl+z", "undo", "Undo", show=False),
        Binding("w", "watch_instead", "Watch", show=False),  # leave the seat (twice)
        Binding("escape", "clear", "Clear/leave", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Home"),
    ]

    def __init__(self, table: SeatView | Session) -> None:
        super().__init__()
        #: the table as this screen's seats see it: all the screen knows of the game
        self.table: SeatView = table if isinstance(table, SeatView) else LocalSeatView(table)
        self.sort_by = self.app_settings_sort(self.table.variant_id)
        self.selected: set[str] = set()
        self.demo = not self.table.humans and not self.table.remote
        self.viewer: int | None = None
        self._watch_armed: int | None = None  #: ``w`` pressed once at this move
        if not self.table.hot_seat and self.table.humans:
            self.viewer = self.table.humans[0]
        self._decision: Decision | None = None
        self._hand_order: list[str] = []
        self._faces: dict[str, CardFace] = {}
        #: what the last-trick view shows, in the game's word ("trick"; 2v1: "hand"):
        #: the board says which, once it is composed
        self.trick_word = "trick"
        self._could_sit = False
        self.demo_controls = DemoControls(self)  #: demo: pause, step, follow
        self.ai = AiTurns(self)
        self.flow = DealFlow(self)
        self.announcer = Announcer(self)
        self.hints = HintHelper(self)
        self.selection = Selection(self)
        self.messages = MessageBar(self)
        self.buttons = ActionButtons(self)
        self.moves = Moves(self)
        self.views = TableViews(self)
        self.tips = TipCoach(self)  #: first-game tips
        #: the header says which deal it is (a puzzle, one position, does not)
        self.deal_in_title = True
        self.autopass = AutoPass(self)  #: a: pass until the trick ends

    def app_settings_sort(self, variant_id: str) -> str:
        from ...play.settings import Settings, default_sort

        settings = getattr(self.app, "settings", None)
        if not isinstance(settings, Settings):
            return default_sort(variant_id)
        return settings.sort_for(variant_id)

    @property
    def game(self) -> SeatView:
        """The table as this screen sees it (it answers like a game: names, observation,
        decision, check, history...)."""
        return self.table

    @property
    def session(self) -> Session:
        """The match on this computer (a local table only: tests and the AI turns)."""
        table = self.table
        if not isinstance(table, LocalSeatView):
            raise AttributeError("a table hosted elsewhere has no session here")
        return table.session

    def face(self, code: str) -> CardFace:
        """The engine's face of a card (kept: a card always looks the same)."""
        face = self._faces.get(code)
        if face is None:
            face = self._faces[code] = self.game.card_face(code)
        return face

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    # ----- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="♠")
        with Horizontal(id="main"):
            with Vertical(id="play-area"):
                yield board_for(self.game, id="board")
            with Vertical(id="side"):
                yield InfoPanel(id="score")
                yield PlayLog(id="log")
        yield Static(id="prompt")
        yield MessageLine(id="message")
        yield HandView(id="hand")
        with Horizontal(id="actions"):
            yield Button("Play", id="submit", variant="success", compact=True)
            with Horizontal(id="choices"):
                # a small pool of choice buttons, relabelled and shown as decisions come
                # (re-mounting buttons on every turn cost extra layout passes)
                for i in range(CHOICE_POOL):
                    b = Button("", name=str(i), classes="choice", compact=True)
                    b.display = False
                    yield b
            yield Button("Hint (h)", id="hint", compact=True)
            yield Button("Sort: rank", id="sort", compact=True)
            yield Button("Help (?)", id="help", compact=True)
        yield KeyBar()
        yield self.guard()

    def on_mount(self) -> None:
        g = self.game
        self.title = g.name
        # moves made elsewhere (players on other computers, a hosted table's AI) come
        # from the network's thread or the server's callbacks: redraw on the UI's turn
        loop = asyncio.get_running_loop()
        # (in the UI's context, not the calling thread's: what the redraw starts, such
        # as the deal end's timer, needs the app's context variables)
        context = contextvars.copy_context()

        def listener() -> None:
            loop.call_soon_threadsafe(self.changed_elsewhere, context=context.copy())

        self.table.set_listener(listener)
        self._could_sit = self.table.can_sit  #: "j Take a seat" shown (see changed_elsewhere)
        self.trick_word = type(self.board).trick_word(g.observation((g.visible or (0,))[0]))
        self.refresh_bindings()
        self.query_one(HandView).focus()
        w, h = self.app.size
        self._apply_size(w, h)
        self.refresh_view()
        self.call_after_refresh(self.after_change)

    def on_unmount(self) -> None:
        self.table.set_listener(None)

    def changed_elsewhere(self) -> None:
        """The table changed by a move not made at this screen: redraw, hand on."""
        if not self.is_attached or not self.query("#score"):
            return
        self._follow_seat()
        can_sit = self.table.can_sit
        if can_sit != self._could_sit:
            self._could_sit = can_sit
            self.refresh_bindings()
        self.after_change()

    def _follow_seat(self) -> None:
        """A joined table's seat can change: a spectator took a seat, a player left
        theirs to watch. The hand shown follows (a spectator's screen shows none)."""
        if not self.table.remote:
            return
        want = self.table.humans[0] if self.table.humans else None
        if want != self.viewer:
            self.viewer = want
            self.selected.clear()
            self.refresh_bindings()

    # ----- spectators and chat ------------------------------------------------------------
    def action_chat(self) -> None:
        if not self.table.can_chat:
            self.show_message("Chat is for tables with players on other computers.")
            return
        from .chat import ChatDialog

        def said(text: str | None) -> None:
            if text and text.strip():
                reason = self.table.send_chat(text)
                if reason:
                    self.show_message(reason, error=True)
            self.refresh_view()

        self.app.push_screen(ChatDialog(), said)

    def action_sit(self) -> None:
        if not self.table.can_sit:
            self.show_message("There is no free seat to take.")
            return
        reason = self.table.sit()
        if reason:
            self.show_message(reason, error=True)
            return
        self._follow_seat()
        self.show_message("You took a seat: your hand is below.")
        self.after_change()

    def action_watch_instead(self) -> None:
        if not self.table.can_leave_seat:
            return
        count = self.table.action_count
        if self._watch_armed != count:
            self._watch_armed = count
            self.show_message("Press w again to leave your seat and watch (it is held for you).")
            return
        self._watch_armed = None
        reason = self.table.leave_seat()
        if reason:
            self.show_message(reason, error=True)
            return
        self._follow_seat()
        self.show_message("You are watching: no hand is shown.")
        self.after_change()

    def action_table_info(self) -> None:
        lines = self.table.table_info()
        if not lines:
            self.show_message("This table is played on this computer only.")
            return
        from .dialogs import InfoDialog

        self.app.push_screen(InfoDialog(f"{self.game.name}: this table", Text("\n".join(lines))))

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self._apply_size(event.size.width, event.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        self.check_size(width, height)
        framed = height >= FRAMED_HEIGHT
        self.query_one(HandView).set_framed(framed)
        self.set_class(height >= TALL_HEIGHT, "-tall")
        self.set_class(width >= 110, "-wide")
        if self.is_mounted and self._hand_order is not None:
            self.refresh_view()

    @property
    def framed(self) -> bool:
        return self.app.size.height >= FRAMED_HEIGHT

    # ----- rendering --------------------------------------------------------------------
    def seat_on_screen(self) -> int | None:
        """The seat whose hand is shown (None: hidden between hot-seat players, or a
        spectator's screen, which has no seat: see :attr:`spectator`)."""
        if self.demo:
            return self.demo_controls.follow
        return self.viewer

    @property
    def spectator(self) -> bool:
        """This screen watches a table it has no seat at: the public view, every seat
        drawn alike, no hand, and no key that acts."""
        return self.table.watching and self.seat_on_screen() is None

    def table_view(self) -> TableView:
        g = self.game
        seat = self.seat_on_screen()
        me = seat if seat is not None else (self.table.humans or [0])[0]
        # a seat's own view; a spectator's public view; or nothing (hot seat, hidden)
        sight = self.table.sight(seat)
        seats = self.table.seats
        return TableView(
            g,
            sight.view,
            me,
            [s.is_ai for s in seats],
            self.ai.thinking,
            self.framed,
            self._flashing(),
            [join_notes(seat_note(s), self.autopass.note(i)) for i, s in enumerate(seats)],
            public=isinstance(sight, PublicView),
        )

    def refresh_view(self) -> None:
        if not self.is_attached or not self.query("#score") or not self.query("#hand"):
            # not composed yet, or left while a callback or an AI worker was on its way
            return
        g = self.game
        view = self.table_view()
        public = view.obs if view.obs is not None else g.observation(view.me)
        word = g.deal_word.capitalize()
        paused = " (paused)" if self.demo_controls.paused else ""
        parts = [
            *([f"{word} {public.deal_number}"] if self.deal_in_title else []),
            *(["demo" + paused] if self.demo else []),
            *([self.table.banner] if self.table.banner else []),
        ]
        self.sub_title = fit_sub_title(
            self.title or "", parts, house_rules_note(g), self.app.size.width
        )
        # Each panel gets its part of the view; only one whose part differs repaints. Where
        # a size may have changed, one layout of the screen: the change lands in one frame
        resized = self.board.show(view)
        resized |= render_score(self, public)
        render_log(self, public)
        resized |= self._render_hand(view)
        self.views.follow_last_trick()  # an open last-trick view shows the newest one
        if resized:
            self.refresh(layout=True)

    def _render_hand(self, view: TableView) -> bool:
        """The hand, the prompt and the buttons; True when a size may have changed."""
        before = buttons_shown(self)
        resized = self._hand_and_prompt(view)
        self.buttons.render()
        return resized or buttons_shown(self) != before

    def _hand_and_prompt(self, view: TableView) -> bool:
        g = self.game
        hand = self.query_one(HandView)
        prompt = self.query_one("#prompt", Static)
        seat = self.seat_on_screen()
        obs = view.obs
        if view.public and obs is not None:
            # a spectator: no hand, no decision; the prompt says whom the table waits for
            self._decision = None
            self.selected.clear()
            watching = "Watching: you see what every player sees, and no hand." + (
                " A seat is free: j takes it." if self.table.can_sit else ""
            )
            shown = update_static(prompt, prompt_text(self, obs, None, None))
            return hand.set_hand([], [], set(), watching) | shown
        if obs is None or seat is None:
            self._decision = None
            hidden = "Hand hidden: waiting for the next player."
            return hand.set_hand([], [], set(), hidden) | update_static(prompt, Text(""))
        offered = (obs.offered_hands if isinstance(obs, ClimbingView) else None) or {}
        cards = g.sort_cards(list(obs.hand), by=self.sort_by)
        self._hand_order = cards
        self.selected &= set(cards)
        d = g.decision(seat) if (not self.demo and seat in g.to_act()) else None
        self._decision = d
        selectable = bool(d and d.select)
        if not selectable:
            self.selected.clear()
        if not cards and offered:
            # a hand to choose from (2-player Chinese Poker): the offered hands take
            # the hand's place, one line each
            resized = hand.set_hand([], [], set(), "", False, offer=offered_lines(self, offered))
        else:
            faces = [self.face(c) for c in cards]
            resized = hand.set_hand(cards, faces, self.selected, "", selectable)
        self.hints.render_marks()
        return resized | update_static(prompt, prompt_text(self, obs, seat, d))

    # ----- selection and the message line -----------------------------------------------
    def selection_action(self) -> Action | None:
        return self.selection.action()

    def current_reason(self) -> str | None:
        return self.selection.reason()

    def show_message(self, text: str, kind: str = "", error: bool = False) -> None:
        """The line under the prompt: ``kind`` "error", "hint", "preview", "ok" or ""
        (``error=True`` is ``kind="error"``)."""
        self.messages.show(text, "error" if error else kind)

    def preview(self, reason: str | None = "") -> None:
        self.selection.preview(reason)

    def _selection_changed(self) -> None:
        self.selection.changed()

    def toggle_index(self, i: int) -> None:
        self.selection.toggle(i)

    def action_cursor(self, step: int) -> None:
        self.selection.cursor(step)

    def action_cursor_to(self, index: int) -> None:
        self.selection.cursor_to(index)

    def action_row(self, step: int) -> None:
        self.selection.row(step)

    def action_pick(self) -> None:
        self.toggle_index(self.query_one(HandView).cursor)

    @on(HandView.Toggled)
    def _clicked(self, event: HandView.Toggled) -> None:
        self.toggle_index(event.index)

    def action_clear(self) -> None:
        if self.selected:
            self.selected.clear()
            self._selection_changed()
        else:
            self.action_leave()

    def action_sort(self) -> None:
        self.selection.sort()

    # ----- dialogs ----------------------------------------------------------------------
    async def action_undo(self) -> None:
        from ..undo import undo_at_table

        await undo_at_table(self)

    def action_help(self) -> None:
        self.views.help()

    def action_leave(self) -> None:
        self.views.leave()

    def action_last_trick(self, _word: str = "") -> None:
        self.views.last_trick()

    def last_trick_dialog(self) -> InfoDialog | None:
        return self.views.last_trick_dialog()

    def action_show_log(self, _shown: str = "") -> None:
        self.views.show_log()

    def action_score_sheet(self) -> None:
        self.views.score_sheet()

    # ----- hints ------------------------------------------------------------------------
    @property
    def _hint(self) -> tuple[int, Action] | None:
        """The hint shown: (actions so far, hinted action)."""
        return self.hints.shown

    def hint_rng(self, seat: int) -> random.Random:
        return self.hints.rng(seat)

    def action_hint(self) -> None:
        self.hints.give()

    def describe_action(self, action: Action) -> str:
        return self.hints.describe(action)

    # ----- acting -----------------------------------------------------------------------
    def act(self, action: Action) -> None:
        self.moves.act(action)

    def action_submit(self, _shown: str = "") -> None:
        self.moves.submit()

    def action_pass_turn(self) -> None:
        self.moves.pass_turn()

    def action_auto_pass(self, _shown: str = "") -> None:
        self.autopass.toggle()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_log":
            # shown in the key bar only to a spectator, whose bar has the room
            return bool(parameters) == self.spectator
        if self.spectator and action not in SPECTATOR_ACTIONS:
            return False  # a spectator has no hand and no move: no key that acts
        if action in ("demo_pause", "demo_step", "demo_follow"):
            return self.demo
        if action == "pick":
            # nothing to select in a decision made by choices only: space is not offered
            return not self.demo and not self._choices_only()
        if action == "submit":
            # "⏎ Play", or "⏎ Choose" where Enter takes the marked choice
            return not self.demo and bool(parameters) == self._choices_only()
        if action == "hint":
            return not self.demo
        if action == "last_trick" and parameters:
            return parameters[0] == self.trick_word  # the one in the game's word
        if action == "chat":
            return self.table.can_chat
        if action == "sit":
            return self.table.can_sit
        if action == "watch_instead":
            return self.table.can_leave_seat
        if action == "auto_pass":
            return self.autopass.usable(str(parameters[0]) if parameters else "on")
        if action == "pass_turn":
            # only where the decision has a pass (the footer is redrawn when that
            # changes, not on every turn: see ActionButtons.footer_pass)
            return not self.demo and self.buttons.footer_pass
        return True

    def _choices_only(self) -> bool:
        d = self._decision
        return d is not None and not d.select

    def on_key(self, event: events.Key) -> None:
        if self.flow.key_before_hand_shown(event):
            return
        self.flow.key_pressed()  # a finished trick held on the table has been read
        self.moves.key(event)

    @on(Button.Pressed, "#submit")
    def _submit_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#sort")
    def _sort_pressed(self) -> None:
        self.action_sort()

    @on(Button.Pressed, "#hint")
    def _hint_pressed(self) -> None:
        self.action_hint()
        self.query_one(HandView).focus()

    @on(Button.Pressed, "#help")
    def _help_pressed(self) -> None:
        self.action_help()

    @on(Button.Pressed, ".choice")
    def _choice_pressed(self, event: Button.Pressed) -> None:
        if event.button.name is not None:
            self.moves.choose(int(event.button.name))

    # ----- demo -------------------------------------------------------------------------
    def action_demo_pause(self) -> None:
        self.demo_controls.toggle_pause()

    def action_demo_step(self) -> None:
        self.demo_controls.step()

    def action_demo_follow(self) -> None:
        self.demo_controls.next_seat()

    # ----- flow -------------------------------------------------------------------------
    def after_change(self) -> None:
        """After any action: announce, refresh, then hand the turn on."""
        self.flow.after_change()

    def advance(self) -> None:
        self.flow.advance()

    def pace(self) -> tuple[float, float]:
        return self.flow.pace()

    def _flashing(self) -> bool:
        return self.announcer.flashing()

    # ----- AI ---------------------------------------------------------------------------
    @property
    def ai_busy(self) -> bool:
        """An AI worker of this table is waiting or deciding."""
        return self.ai.busy

    @work(exclusive=True, group="ai")
    async def ai_turn(self) -> None:
        """One AI move: wait for the pace, decide off the UI thread, then play it."""
        await self.ai.turn()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "ai" and event.state == WorkerState.CANCELLED:
            self.ai.cancelled()
