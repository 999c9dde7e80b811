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
screen between human turns. With every seat an AI the table is a demo: space pauses,
``n`` steps one move, ``f`` looks over the next seat's shoulder.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static
from textual.worker import Worker, WorkerState

from ...ai import suggest
from ...engine import Action, Decision
from ...play.session import Session
from ..ai_runner import commit, decide
from ..boards import Board, TableView, board_for
from ..cardart import face_style
from ..typed_app import twos_app
from ..widgets import HandView, InfoPanel, MessageLine, PlayLog, update_static
from .sizing import SizeGuard

CHOICE_POOL = 4  #: choice buttons mounted up front (more are mounted if ever needed)
FRAMED_HEIGHT = 34  #: from this many rows, cards are drawn framed
TALL_HEIGHT = 30  #: from this many rows, the score panel also says how the match is won
BUSY = (WorkerState.PENDING, WorkerState.RUNNING)
MESSAGE_STYLES = {
    "error": "bold red",
    "hint": "bold green",
    "preview": "italic",
    "ok": "green",
}
FLASH_SECONDS = 1.2  #: how long a bomb or a catch lights the table up


class TableScreen(SizeGuard, Screen):
    """A game in play."""

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
        Binding("p", "pass_turn", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("t", "last_trick", "Last trick"),
        Binding("l", "show_log", "Log", show=False),
        Binding("s", "sort", "Sort"),
        Binding("ctrl+z", "undo", "Undo", show=False),
        Binding("escape", "clear", "Clear/leave", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Home"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.sort_by = self.app_settings_sort(session.game.variant_id)
        self.selected: set[str] = set()
        self.demo = not session.humans
        self.viewer: int | None = None
        if not session.hot_seat and session.humans:
            self.viewer = session.humans[0]
        self.follow = 0  #: demo: the seat whose hand is shown
        self.paused = False  #: demo: paused
        self.steps = 0  #: demo: moves still to play while paused
        self.thinking: int | None = None
        self.hints: dict[tuple[int, int], int] = {}  #: (deal, seat) -> hints asked
        self._hint: tuple[int, Action] | None = None  #: (actions so far, hinted action)
        self._pass_pending = False
        self._deal_end_shown: int | None = None
        self._recap_from = 0  #: history index: what the pass screen recaps
        self._choice_sig: tuple | None = None
        self._decision: Decision | None = None
        self._hand_order: list[str] = []
        self._faces: dict[str, Any] = {}
        self._message: tuple[str, str] | None = None
        self._flash_until = 0.0
        self._flash_timer: Any = None
        self._seen_history = len(session.game.history)  #: bombs before this are old news

    def app_settings_sort(self, variant_id: str) -> str:
        settings = getattr(self.app, "settings", None)
        if settings is None:
            from ...play.settings import default_sort

            return default_sort(variant_id)
        return settings.sort_for(variant_id)

    @property
    def game(self):
        return self.session.game

    def face(self, code: str):
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
        yield Header(show_clock=False, icon="♠")
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
        yield Footer()
        yield self.guard()

    def on_mount(self) -> None:
        g = self.game
        self.title = g.name
        self.query_one(HandView).focus()
        w, h = self.app.size
        self._apply_size(w, h)
        self.refresh_view()
        self.call_after_refresh(self.after_change)

    def on_resize(self, event) -> None:
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
        """The seat whose hand is shown (None: hidden between hot-seat players)."""
        if self.demo:
            return self.follow
        return self.viewer

    def table_view(self) -> TableView:
        g = self.game
        seat = self.seat_on_screen()
        me = seat if seat is not None else (self.session.humans or [0])[0]
        obs = g.observation(me) if seat is not None else None
        return TableView(
            g,
            obs,
            me,
            [s.is_ai for s in self.session.seats],
            self.thinking,
            self.framed,
            self._flashing(),
        )

    def refresh_view(self) -> None:
        if not self.is_attached or not self.query("#score"):
            return  # not composed yet, or left while a callback was on its way
        g = self.game
        view = self.table_view()
        public = view.obs if view.obs is not None else g.observation(view.me)
        word = g.deal_word.capitalize()
        self.sub_title = f"{word} {public.get('deal_number', g.deal_number)}" + (
            " · demo" + (" (paused)" if self.paused else "") if self.demo else ""
        )
        self.board.show(view)
        self._render_score(public)
        self._render_log(public)
        self._render_hand(view.obs)
        # Every panel above may have changed: have the screen lay out and repaint all of
        # it in its next frame, rather than over two or three frames one panel at a time
        # (the widgets ask for their own repaints; this asks for one layout pass).
        self.refresh(layout=True)

    def _render_score(self, obs: dict[str, Any]) -> None:
        g = self.game
        totals = obs.get("totals", g.totals)
        word = g.deal_word.capitalize()
        points = obs.get("points")  # trick games: this deal's points so far
        now = isinstance(points, list) and len(points) == len(totals)
        width = min(14, max(len(n) for n in g.names))
        t = Text()
        head = f"{word} {obs.get('deal_number', g.deal_number)}"
        t.append(head, style="bold")
        if now:
            t.append(" " * max(1, width + 1 - len(head)) + "total  deal", style="dim")
        t.append("\n")
        for seat, total in enumerate(totals):
            name = g.names[seat][:width]
            t.append(f"{name:<{width}} {total:>5}")
            if now:
                t.append(f" {points[seat]:>+5d}")  # type: ignore[index]
            if seat == self.seat_on_screen():
                t.append(" ◀")
            t.append("\n")
        target = g.target_text()
        if target and self.has_class("-tall"):
            t.append(f"\n{target}", style="dim")
        panel = self.query_one("#score", InfoPanel)
        panel.border_title = g.score_label
        t.rstrip()
        update_static(panel, t)

    @staticmethod
    def _log_line(entry: dict[str, Any]) -> Text:
        kind = entry.get("kind")
        style = ""
        if entry.get("bomb"):
            style = "bold red"
        elif kind in ("deal-end", "match-end", "trick", "hand"):
            style = "bold"
        elif kind == "pass":
            style = "dim"
        return Text(str(entry.get("text", "")), style=style)

    def _render_log(self, obs: dict[str, Any]) -> None:
        history = obs.get("history", [])
        log = self.query_one(PlayLog)
        known = len(log.entries)
        if known <= len(history) and (
            not known or log.entries[-1].plain == str(history[known - 1].get("text", ""))
        ):
            # the usual case: the same log and some new lines (only those are made)
            log.add_entries([self._log_line(e) for e in history[known:]])
        else:  # a new deal's log, or an undo took lines back
            log.set_entries([self._log_line(e) for e in history])

    def _render_hand(self, obs: dict[str, Any] | None) -> None:
        g = self.game
        hand = self.query_one(HandView)
        prompt = self.query_one("#prompt", Static)
        seat = self.seat_on_screen()
        if obs is None or seat is None:
            self._decision = None
            hand.set_hand([], [], set(), "Hand hidden: waiting for the next player.")
            update_static(prompt, Text(""))
            self._render_actions()
            return
        offered = obs.get("offered_hands") or {}
        cards = g.sort_cards(list(obs.get("hand", [])), by=self.sort_by)
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
            lines = Text()
            for letter, codes in sorted(offered.items()):
                if lines.cell_len:
                    lines.append("\n")
                lines.append(f"Hand {letter}  ", style="bold")
                for i, c in enumerate(g.sort_cards(list(codes), self.sort_by)):
                    if i:
                        lines.append(" ")
                    face = g.card_face(c)
                    lines.append(face.label, style=face_style(face))
            hand.offer = lines
            hand.set_hand([], [], set(), "", False)
        else:
            hand.offer = None
            hand.set_hand(cards, [self.face(c) for c in cards], self.selected, "", selectable)
        self._render_hint_marks()
        me = Text()
        me.append(g.names[seat], style="bold")
        if self.demo:
            me.append(" (AI)", style="dim")
        tags = (obs.get("seat_tags") or [[]] * g.players)[seat]
        if tags:
            me.append(" · " + " · ".join(tags), style="italic")
        me.append(" — ")
        if d is not None:
            me.append(d.prompt, style="bold yellow")
        elif g.deal_over:
            me.append(obs.get("status", "The deal is over."))
        elif self.thinking is not None:
            me.append(f"{g.names[self.thinking]} is thinking…", style="italic")
        elif self.demo and self.paused:
            me.append("paused", style="italic")
        else:
            waiting = ", ".join(g.names[s] for s in g.to_act())
            me.append(
                f"waiting for {waiting}…" if waiting else obs.get("status", ""), style="italic"
            )
        if self.demo:
            me.append(
                "  [demo: space " + ("runs" if self.paused else "pauses") + ", n steps, f seat]",
                style="dim",
            )
        update_static(prompt, me)
        self._render_actions()

    def _render_actions(self, reason: str | None = "") -> None:
        """The buttons; ``reason``: :meth:`current_reason` when the caller has it."""
        d = self._decision
        submit = self.query_one("#submit", Button)
        if d is not None and d.select:
            submit.display = True
            submit.label = (d.submit or "play").replace("-", " ").capitalize()
            legal = (self.current_reason() if reason == "" else reason) is None
            submit.disabled = not legal
            submit.variant = "success" if legal else "default"
        else:
            submit.display = False
        self.query_one("#hint", Button).display = d is not None
        sig: tuple[tuple[str, str | None], ...] = (
            tuple((c.label, c.key) for c in d.choices) if d else ()
        )
        if sig != self._choice_sig:
            self._choice_sig = sig
            box = self.query_one("#choices", Horizontal)
            pool = list(box.query_children(Button))
            extra = []
            for i, (text, key) in enumerate(sig):
                label = f"{text} ({key})" if key else text
                if i < len(pool):
                    pool[i].label = label
                    pool[i].display = True
                else:
                    extra.append(Button(label, name=str(i), classes="choice", compact=True))
            for b in pool[len(sig) :]:
                b.display = False
            if extra:
                box.mount_all(extra)
        self.query_one("#sort", Button).label = f"Sort: {self.sort_by}"

    # ----- selection --------------------------------------------------------------------
    def selection_action(self) -> Action | None:
        d = self._decision
        if d is None or not d.select:
            return None
        cards = [c for c in self._hand_order if c in self.selected]
        if not cards and d.select == (1, 1) and self._hand_order:
            cards = [self._hand_order[self.query_one(HandView).cursor]]
        return Action(d.submit or "play", tuple(cards))

    def current_reason(self) -> str | None:
        a = self.selection_action()
        if a is None or self._decision is None or self._decision.select is None:
            return "Nothing to play now."
        lo, hi = self._decision.select
        if not a.cards and lo > 0:  # the decision's own bounds: nothing selected yet
            many = f"{lo}" if lo == hi else f"at least {lo}"
            return f"Select {many} card{'s' if lo > 1 else ''} first."
        return self.game.check(self.viewer, a)

    def show_message(self, text: str, kind: str = "", error: bool = False) -> None:
        """The line under the prompt: ``kind`` "error", "hint", "preview", "ok" or ""
        (``error=True`` is ``kind="error"``)."""
        if error:
            kind = "error"
        if (text, kind) == self._message:
            return  # unchanged: no repaint, no layout
        self._message = (text, kind)
        # styled in the text itself: a CSS class change would restyle the widget
        prefix = {"error": "✗ ", "hint": "Hint: ", "ok": "✓ "}.get(kind, "") if text else ""
        self.query_one(MessageLine).set(Text(prefix + text, style=MESSAGE_STYLES.get(kind, "")))

    def preview(self, reason: str | None = "") -> None:
        """Say what the selection is as it is made: what it beats, or why it is not a play."""
        d = self._decision
        if d is None or not d.select or not self.selected:
            self.show_message("")
            return
        a = self.selection_action()
        if reason == "":
            reason = self.current_reason()
        if reason is not None:
            text = reason if "not a play" in reason else f"not a play: {reason}"
            self.show_message(text, "preview")
            return
        assert a is not None and self.viewer is not None
        what = self.game.describe(self.viewer, a)
        verb = (d.submit or "play").replace("-", " ")
        self.show_message(what or f"ready: Enter to {verb}", "ok")

    def _selection_changed(self) -> None:
        self.query_one(HandView).set_selected(self.selected)
        reason = self.current_reason()
        self.preview(reason)
        self._render_actions(reason)

    def action_cursor(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            if self._decision is not None and self._decision.select == (1, 1):
                self._render_actions()  # a single card: the cursor card is the play

    def action_cursor_to(self, index: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = index % len(hand.cards)

    def action_row(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            i = hand.cursor + step * hand.per_row()
            if 0 <= i < len(hand.cards):
                hand.cursor = i

    def toggle_index(self, i: int) -> None:
        d = self._decision
        if d is None or not d.select or not (0 <= i < len(self._hand_order)):
            return
        code = self._hand_order[i]
        if code in self.selected:
            self.selected.discard(code)
        elif d.select[1] == 1:
            self.selected = {code}
        else:
            self.selected.add(code)
        self._selection_changed()

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
        self.sort_by = "suit" if self.sort_by == "rank" else "rank"
        remember = getattr(self.app, "remember_sort", None)
        if remember is not None:
            remember(self.game.variant_id, self.sort_by)
        hand = self.query_one(HandView)
        current = self._hand_order[hand.cursor] if self._hand_order else None
        self._render_hand(self.table_view().obs)
        if current in self._hand_order:
            hand.cursor = self._hand_order.index(current)

    async def action_undo(self) -> None:
        from ..undo import undo_at_table

        await undo_at_table(self)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.game))

    def action_leave(self) -> None:
        from .dialogs import ConfirmLeave

        def answer(leave: bool | None) -> None:
            if leave:
                twos_app(self).go_home()

        self.app.push_screen(ConfirmLeave(), answer)

    def action_last_trick(self) -> None:
        from .dialogs import InfoDialog

        view = self.table_view()
        if view.obs is None:
            return
        text = type(self.board).last_trick(view)
        if text is None:
            self.show_message("No trick has been finished yet this deal.", "")
            return
        self.app.push_screen(InfoDialog("Last trick", text))

    def action_show_log(self) -> None:
        from .dialogs import InfoDialog

        log = self.query_one(PlayLog)
        self.app.push_screen(InfoDialog("Log of this deal", Text("\n").join(log.entries)))

    # ----- hints ------------------------------------------------------------------------
    def hint_rng(self, seat: int) -> random.Random:
        """A generator of its own for each hint, derived from the seed and the position:
        never the AI seats' generators, so asking for a hint cannot change the game."""
        g = self.game
        return random.Random(f"twos-tui-hint:{g.seed}:{g.deal_number}:{len(g.actions)}:{seat}")

    def action_hint(self) -> None:
        seat = self.viewer
        d = self._decision
        if seat is None or d is None:
            return
        g = self.game
        shown = self._hint
        if shown is not None and shown[0] == len(g.actions) and shown[1].cards and d.select:
            # h again: pick the hinted cards up (Enter then plays them)
            self.selected = set(shown[1].cards)
            self._selection_changed()
            return
        legal = g.legal_actions(seat)
        if not legal:
            return
        hint = suggest(g.variant_id, g.observation(seat), legal, d, self.hint_rng(seat))
        key = (g.deal_number, seat)
        self.hints[key] = self.hints.get(key, 0) + 1
        self._hint = (len(g.actions), hint.action)
        self._render_hint_marks()
        again = " (h again picks it up)" if hint.action.cards and d.select else ""
        self.show_message(f"{self.describe_action(hint.action)} — {hint.reason}{again}", "hint")

    def describe_action(self, action: Action) -> str:
        d = self._decision
        for c in d.choices if d else ():
            if c.action == action:
                return f"{c.label} ({c.key})" if c.key else c.label
        g = self.game
        cards = " ".join(g.card_face(c).label for c in action.cards)
        verb = action.kind.replace("-", " ")
        return f"{verb} {cards}".strip()

    def _render_hint_marks(self) -> None:
        hand = self.query_one(HandView)
        hint = self._hint
        if hint is None or hint[0] != len(self.game.actions) or self._decision is None:
            self._hint = None
            hand.set_hint(())
            return
        hand.set_hint(hint[1].cards)

    # ----- acting -----------------------------------------------------------------------
    def act(self, action: Action) -> None:
        seat = self.viewer
        if seat is None or self._decision is None:
            return
        reason = self.game.check(seat, action)
        if reason is not None:
            self.show_message(reason, "error")
            return
        self.session.apply(seat, action)
        self.selected.clear()
        self.show_message("")
        self.query_one(HandView).focus()  # a clicked or tabbed-to button gives focus back
        self.after_change()

    def action_submit(self) -> None:
        a = self.selection_action()
        if a is None:
            if (
                self._decision is not None
                and self._decision.choices
                and len(self._decision.choices) == 1
            ):
                self.act(self._decision.choices[0].action)
            return
        reason = self.current_reason()
        if reason is not None:
            self.show_message(reason, "error")
            return
        self.act(a)

    def action_pass_turn(self) -> None:
        d = self._decision
        if d is None:
            return
        c = self._pass_choice(d)
        if c is not None:
            self.act(c.action)
            return
        assert self.viewer is not None
        reason = self.game.check(self.viewer, Action("pass")) or "You cannot pass now."
        self.show_message(reason, "error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("demo_pause", "demo_step", "demo_follow"):
            return self.demo
        if action in ("pick", "submit", "hint"):
            return not self.demo
        if action == "pass_turn":
            # always in the footer at a table with players: the bindings shown never
            # change from turn to turn (recomposing the footer costs a frame)
            return not self.demo
        return True

    @staticmethod
    def _pass_choice(d) -> Any:
        """The decision's own "p" choice (a 2v1 bid pass is a bid of nothing), or its
        pass."""
        for c in d.choices:
            if c.key == "p" or c.action.kind == "pass":
                return c
        return None

    def on_key(self, event) -> None:
        d = self._decision
        if d is not None and event.key == "p" and self._pass_choice(d) is None:
            event.stop()  # no pass on offer: say why (the footer shows p dimmed)
            self.action_pass_turn()
            return
        if d is None or event.key in ("p", "space", "enter", "s", "q", "h", "t", "l"):
            return
        for c in d.choices:
            if c.key and c.key == event.key:
                event.stop()
                self.act(c.action)
                return

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
        d = self._decision
        if d is not None and event.button.name is not None:
            i = int(event.button.name)
            if i < len(d.choices):
                self.act(d.choices[i].action)

    # ----- demo -------------------------------------------------------------------------
    def action_demo_pause(self) -> None:
        self.paused = not self.paused
        self.refresh_bindings()
        self.steps = 0
        self.refresh_view()
        if not self.paused:
            self.advance()

    def action_demo_step(self) -> None:
        if not self.paused:
            self.paused = True
            self.refresh_view()
            return
        self.steps = 1
        self.advance()

    def action_demo_follow(self) -> None:
        self.follow = (self.follow + 1) % self.game.players
        self.refresh_view()

    # ----- flow -------------------------------------------------------------------------
    def after_change(self) -> None:
        """After any action: announce, refresh, then hand the turn on."""
        g = self.game
        self._announce()
        if self.session.save_error:
            self.app.notify(self.session.save_error, severity="error")
        if g.deal_over:
            self.refresh_view()
            hold = self.pace()[1]
            if hold > 0 and not self._pass_pending:
                self.set_timer(hold, self._show_deal_end)
            else:
                self._show_deal_end()
            return
        self.advance()

    def _announce(self) -> None:
        """A bomb or a catch: a notice and a short highlight of the table."""
        g = self.game
        if self._seen_history > len(g.history):  # an undo took moves back
            self._seen_history = len(g.history)
            self._recap_from = min(self._recap_from, len(g.history))
        new = g.history[self._seen_history :]
        self._seen_history = len(g.history)
        for entry in new:
            if entry.get("bomb"):
                self.app.notify(
                    str(entry.get("text", "Bomb!")), title="Bomb!", severity="warning", timeout=4
                )
                self.flash()
            elif entry.get("kind") == "trick" and "catches" in str(entry.get("text", "")):
                self.app.notify(str(entry.get("text", "")), title="Catch!", timeout=4)
                self.flash()

    def flash(self) -> None:
        self._flash_until = asyncio.get_event_loop().time() + FLASH_SECONDS
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash_timer = self.set_timer(FLASH_SECONDS, self._flash_over)

    def _flashing(self) -> bool:
        return self._flash_until > asyncio.get_event_loop().time()

    def _flash_over(self) -> None:
        self._flash_timer = None
        if self.is_mounted:
            self.board.show(self.table_view())

    def pace(self) -> tuple[float, float]:
        pace = getattr(self.app, "pace", None)
        return pace() if pace is not None else (0.0, 0.0)

    def advance(self) -> None:
        s = self.session
        if self.demo:
            if s.ai_to_act() and (not self.paused or self.steps > 0):
                self.steps = max(0, self.steps - 1)
                self.ai_turn()
            self.refresh_view()
            return
        if s.ai_to_act():
            self.ai_turn()
        humans = s.humans_to_act()
        if humans and not self._pass_pending:
            target = self.viewer if self.viewer in humans else humans[0]
            if s.hot_seat and target != self.viewer:
                recap = self.recap()
                self.viewer = None
                self.selected.clear()
                self._pass_pending = True
                self.refresh_view()
                from .dialogs import PassScreen

                self.app.push_screen(
                    PassScreen(self.game.names[target], recap),
                    lambda _r, t=target: self._passed_to(t),
                )
                return
            self.viewer = target
        self.refresh_view()

    def recap(self) -> Text:
        """What happened since the last player took the screen (public log lines), for
        the pass screen: the mover sees how the trick ended before the table is hidden."""
        g = self.game
        lines = [str(h.get("text", "")) for h in g.history[self._recap_from :]][-6:]
        return Text("\n".join(lines))

    def _passed_to(self, seat: int) -> None:
        self._pass_pending = False
        self._recap_from = len(self.game.history)
        self.viewer = seat
        self.advance()

    @property
    def ai_busy(self) -> bool:
        """An AI worker of this table is waiting or deciding."""
        return any(w.group == "ai" and w.node is self and w.state in BUSY for w in self.app.workers)

    def trick_just_finished(self) -> bool:
        """The last thing that happened finished a trick (or a 2v1 hand)."""
        g = self.game
        if not g.history or g.history[-1].get("kind") not in ("trick", "hand"):
            return False
        obs = g.observation(self.table_view().me)
        return type(self.board).holds_finished_trick(obs)

    @work(exclusive=True, group="ai")
    async def ai_turn(self) -> None:
        """One AI move: wait for the pace, decide off the UI thread, then play it."""
        s = self.session
        seats = s.ai_to_act()
        if not seats or self.game.deal_over:
            return
        sync = getattr(self.app, "ai_sync", False)
        move, hold = self.pace()
        delay = max(move, hold if self.trick_just_finished() else 0.0)
        if delay > 0:
            await asyncio.sleep(delay)
        seats = s.ai_to_act()
        if not seats:
            return
        seat = seats[0]
        n_actions = len(self.game.actions)
        if not sync:
            # the last move's autosave is on disk before the AI moves on
            await asyncio.to_thread(s.flush)
            self.thinking = seat
            self.refresh_view()
        try:
            action, rng = await decide(s, seat, sync)
        finally:
            self.thinking = None
        if len(self.game.actions) != n_actions or self.game.check(seat, action) is not None:
            self.advance()  # a simultaneous human choice changed the state: ask again
            return
        if sync:
            s.flush()
        commit(s, seat, rng)
        s.apply(seat, action)
        self.after_change()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "ai" and event.state == WorkerState.CANCELLED:
            self.thinking = None

    def _show_deal_end(self) -> None:
        g = self.game
        if self._deal_end_shown == g.deal_number or not self.is_mounted:
            return
        if self.app.screen is not self:
            # a dialog (help, last trick) is open: show the deal end when it closes
            self.set_timer(0.3, self._show_deal_end)
            return
        self._deal_end_shown = g.deal_number
        from .dialogs import DealEndScreen

        hints = {
            g.names[seat]: n for (deal, seat), n in self.hints.items() if deal == g.deal_number
        }
        self.app.push_screen(DealEndScreen(self.session, hints), self._deal_end_choice)

    def _deal_end_choice(self, choice: str | None) -> None:
        if choice == "next":
            self.session.next_deal()
            self.selected.clear()
            self._recap_from = len(self.game.history)
            self.after_change()
        elif choice == "again":
            twos_app(self).start_session(self.session.again())
        elif choice == "new":
            twos_app(self).open_picker(self.game.variant_id)
        elif choice == "home":
            twos_app(self).go_home()
