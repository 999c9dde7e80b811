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

The screen draws the table and handles, in one place, the keys (its actions) and the
messages its widgets post up (:class:`.table_buttons.ActionRow`, the hand's clicks).
Helpers beside it do the work, one concern each, and own their state:
:mod:`.table_keys`, :mod:`.table_panels`, :mod:`.table_buttons`, :mod:`.table_message`,
:mod:`.table_select` (cursor, selected cards, preview, sort), :mod:`.table_moves`,
:mod:`.table_views` (dialogs), :mod:`.table_seats` (chat, seats taken and left),
:mod:`.table_hints`, :mod:`.table_flow` (turns, pass screens, deal end),
:mod:`.table_ai`, :mod:`.table_flash`, :mod:`.table_tips` and :mod:`.table_demo`.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...engine import Action, Decision
from ...engine.cards import CardFace
from ...engine.views import ClimbingView
from ...play.seat_view import LocalSeatView, SeatView
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
from .table_buttons import ActionButtons, ActionRow
from .table_demo import DemoControls
from .table_flash import Announcer
from .table_flow import DealFlow
from .table_hints import HintHelper
from .table_keys import TABLE_BINDINGS, key_offered
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
from .table_seats import SeatChanges, SeatClocks, join_notes, seat_note
from .table_select import Selection, initial_sort
from .table_tips import TipCoach
from .table_views import TableViews

FRAMED_HEIGHT = 34  #: from this many rows, cards are drawn framed
TALL_HEIGHT = 30  #: from this many rows, the score panel also says how the match is won


class TableScreen(SizeGuard, Screen[None]):
    """A game in play."""

    CSS_PATH = SCREENS_CSS

    #: auto-pass (``a``) is offered in the climbing games (not in a lesson or a puzzle:
    #: there each move is the point)
    AUTO_PASS = True

    BINDINGS = TABLE_BINDINGS

    def __init__(self, table: SeatView | Session) -> None:
        super().__init__()
        #: the table as this screen's seats see it: all the screen knows of the game
        self.table: SeatView = table if isinstance(table, SeatView) else LocalSeatView(table)
        #: the cards picked up (``selected``), the cursor, the hand's order (``sort_by``)
        self.selection = Selection(self, initial_sort(self, self.table.variant_id))
        self.demo = not self.table.humans and not self.table.remote
        self.viewer: int | None = None
        if not self.table.hot_seat and self.table.humans:
            self.viewer = self.table.humans[0]
        self._decision: Decision | None = None
        self._hand_order: list[str] = []
        self._faces: dict[str, CardFace] = {}
        #: what the last-trick view shows, in the game's word ("trick"; 2v1: "hand"):
        #: the board says which, once it is composed
        self.trick_word = "trick"
        self.demo_controls = DemoControls(self)  #: demo: pause, step, follow
        self.ai = AiTurns(self)
        self.flow = DealFlow(self)
        self.announcer = Announcer(self)
        self.hints = HintHelper(self)
        self.messages = MessageBar(self)
        self.buttons = ActionButtons(self)
        self.moves = Moves(self)
        self.views = TableViews(self)
        self.seats = SeatChanges(self)  #: chat, a seat taken or left
        self.tips = TipCoach(self)  #: first-game tips
        #: the header says which deal it is (a puzzle, one position, does not)
        self.deal_in_title = True
        self.autopass = AutoPass(self)  #: a: pass until the trick ends
        self.clocks = SeatClocks(self)  #: the turn clock of a hosted table

    @property
    def selected(self) -> set[str]:
        """The cards picked up (the selection's own set)."""
        return self.selection.selected

    @selected.setter
    def selected(self, cards: set[str]) -> None:
        self.selection.selected = cards

    @property
    def sort_by(self) -> str:
        """The hand's order, "rank" or "suit" (``s`` turns it)."""
        return self.selection.sort_by

    @property
    def decision(self) -> Decision | None:
        """The decision at the screen: the one the hand was last drawn for (None: not
        this screen's turn, or no hand shown)."""
        return self._decision

    @property
    def hand_order(self) -> tuple[str, ...]:
        """The hand's cards in the order drawn (the cursor's index is into this)."""
        return tuple(self._hand_order)

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
        yield ActionRow(id="actions")
        yield KeyBar()
        yield self.guard()

    def on_mount(self) -> None:
        g = self.game
        self.title = g.name
        self.seats.listen()  # moves made elsewhere: changed_elsewhere, on the UI's turn
        self.clocks.start()
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
        self.seats.changed_elsewhere()
        self.clocks.start()
        self.after_change()

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
        clocks = self.clocks.notes()
        return TableView(
            g,
            sight.view,
            me,
            [s.is_ai for s in seats],
            self.ai.thinking,
            self.framed,
            self._flashing(),
            [
                join_notes(
                    seat_note(s),
                    self.autopass.note(i),
                    # a seat held for a dropped player shows its hold, not its clock
                    clocks[i] if i < len(clocks) and not s.held else "",
                )
                for i, s in enumerate(seats)
            ],
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
    def redraw_hand(self) -> None:
        """Draw the hand (its order, the decision, the prompt and buttons) again."""
        self._render_hand(self.table_view())

    def show_message(self, text: str, kind: str = "", error: bool = False) -> None:
        """The line under the prompt: ``kind`` "error", "hint", "preview", "ok" or ""
        (``error=True`` is ``kind="error"``)."""
        self.messages.show(text, "error" if error else kind)

    def _selection_changed(self) -> None:
        # (the benchmarks call it, against this commit and older ones alike)
        self.selection.changed()

    # ----- keys: Textual's actions (BINDINGS and check_action: see table_keys) -----------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return key_offered(self, action, parameters)

    def action_cursor(self, step: int) -> None:
        self.selection.cursor(step)

    def action_cursor_to(self, index: int) -> None:
        self.selection.cursor_to(index)

    def action_row(self, step: int) -> None:
        self.selection.row(step)

    def action_pick(self) -> None:
        self.selection.toggle(self.query_one(HandView).cursor)

    def action_clear(self) -> None:
        if not self.selection.clear():
            self.action_leave()

    def action_sort(self) -> None:
        self.selection.sort()

    async def action_undo(self) -> None:
        from ..undo import undo_at_table

        await undo_at_table(self)

    def action_help(self) -> None:
        self.views.help()

    def action_leave(self, _shown: str = "") -> None:
        self.views.leave()

    def action_last_trick(self, _word: str = "") -> None:
        self.views.last_trick()

    def action_show_log(self, _shown: str = "") -> None:
        self.views.show_log()

    def action_score_sheet(self) -> None:
        self.views.score_sheet()

    def action_hint(self) -> None:
        self.hints.give()

    def act(self, action: Action) -> None:
        self.moves.act(action)

    def action_submit(self, _shown: str = "") -> None:
        self.moves.submit()

    def action_pass_turn(self) -> None:
        self.moves.pass_turn()

    def action_auto_pass(self, _shown: str = "") -> None:
        self.autopass.toggle()

    def action_chat(self) -> None:
        self.seats.chat()

    def action_sit(self) -> None:
        self.seats.sit()

    def action_watch_instead(self) -> None:
        self.seats.leave_to_watch()

    def action_table_info(self) -> None:
        self.seats.table_info()

    def action_demo_pause(self) -> None:
        self.demo_controls.toggle_pause()

    def action_demo_step(self) -> None:
        self.demo_controls.step()

    def action_demo_follow(self) -> None:
        self.demo_controls.next_seat()

    def on_key(self, event: events.Key) -> None:
        if self.flow.key_before_hand_shown(event):
            return
        self.flow.key_pressed()  # a finished trick held on the table has been read
        self.moves.key(event)

    # ----- messages up from the table's widgets ---------------------------------------------
    @on(HandView.Toggled)
    def _clicked(self, event: HandView.Toggled) -> None:
        self.selection.toggle(event.index)

    @on(ActionRow.PlayRequested)
    def _play_requested(self) -> None:
        self.action_submit()

    @on(ActionRow.ChoiceRequested)
    def _choice_requested(self, event: ActionRow.ChoiceRequested) -> None:
        self.moves.choose(event.index)

    @on(ActionRow.HintAsked)
    def _hint_asked(self) -> None:
        self.action_hint()
        self.query_one(HandView).focus()

    @on(ActionRow.SortRequested)
    def _sort_requested(self) -> None:
        self.action_sort()

    @on(ActionRow.HelpAsked)
    def _help_asked(self) -> None:
        self.action_help()

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
