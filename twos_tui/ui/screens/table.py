"""The card table: one screen for every variant, driven by the engine's protocol.

The screen shows ``game.observation(viewer)`` (``viewer`` is the human whose hand is on
screen), asks ``game.decision(viewer)`` what to offer, ``game.check`` whether the
selection may be played, and plays it with ``apply``. AI seats play in an async worker
with a short pause; hot-seat games put a "pass to NAME" screen between human turns.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, RichLog, Static

from ...engine import Action
from ...play.session import Session
from ..widgets import (
    CompassView,
    HandView,
    InfoPanel,
    SeatInfo,
    SeatPanel,
    cards_text,
    update_static,
)

CHOICE_POOL = 4  #: choice buttons mounted up front (more are mounted if ever needed)


class TableScreen(Screen):
    """A game in play."""

    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", show=False),
        Binding("right", "cursor(1)", "Move", show=False),
        Binding("up", "row(-1)", "Row up", show=False),
        Binding("down", "row(1)", "Row down", show=False),
        Binding("space", "toggle", "Select"),
        Binding("enter", "submit", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("s", "sort", "Sort"),
        Binding("ctrl+z", "undo", "Undo", show=False),
        Binding("escape", "clear", "Clear/back", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Home"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.sort_by = "rank"
        self.selected: set[str] = set()
        self.viewer: int | None = None if session.hot_seat else session.humans[0]
        self._ai_running = False
        self._pass_pending = False
        self._deal_end_shown: int | None = None
        self._log_count = 0
        self._choice_sig: tuple | None = None
        self._decision = None
        self._hand_order: list[str] = []
        self._message: tuple[str, bool] | None = None

    @property
    def game(self):
        return self.session.game

    # ----- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        g = self.game
        yield Header(show_clock=False, icon="♠")
        trick = g.family == "trick"
        with Horizontal(id="main"):
            with Vertical(id="play-area"):
                if trick:
                    yield CompassView(id="compass")
                else:
                    with Horizontal(id="opponents"):
                        for i in range(g.players - 1):
                            yield SeatPanel(id=f"opp-{i}", classes="seat")
                    yield InfoPanel(id="trick")
                yield RichLog(id="log", wrap=True, max_lines=400, auto_scroll=True, min_width=10)
            with Vertical(id="side"):
                yield InfoPanel(id="score")
        yield Static(id="prompt")
        yield Static(id="message")
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
            yield Button("Sort: rank", id="sort", compact=True)
            yield Button("Help", id="help", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        g = self.game
        self.title = g.name
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#log", RichLog).anchor()  # stays at the end when its height changes
        self.query_one(HandView).focus()
        self.refresh_view()
        self.call_after_refresh(self.after_change)

    # ----- rendering --------------------------------------------------------------------
    def _positions(self) -> dict[int, str]:
        """Seat -> compass position for the trick layout (you sit south)."""
        n = self.game.players
        me = self.viewer if self.viewer is not None else self.session.humans[0]
        order = [(me + k) % n for k in range(1, n)]
        names = {1: ["north"], 2: ["west", "east"], 3: ["west", "north", "east"]}[len(order)]
        return dict(zip(order, names, strict=False))

    def refresh_view(self) -> None:
        g = self.game
        v = self.viewer
        public_seat = v if v is not None else self.session.humans[0]
        obs = g.observation(public_seat)
        self.sub_title = f"Deal {obs.get('deal_number', g.deal_number)}"
        self._render_seats(obs, hidden=v is None)
        self._render_trick(obs, hidden=v is None)
        self._render_score(obs)
        self._render_log(obs)
        self._render_hand(obs if v is not None else None)
        # Every panel above may have changed: have the screen lay out and repaint all of
        # it in its next frame. Left to themselves, the panels report their changes one
        # by one from their own message queues and the table would show the change over
        # two or three frames instead of one.
        self.refresh(layout=True, repaint=True)

    def _seat_extra(self, obs: dict[str, Any], seat: int) -> list[Text]:
        """Variant keys shown on a seat panel: per-seat face-down or face-up cards."""
        extra: list[Text] = []
        for key in ("coins",):
            vals = obs.get(key)
            if isinstance(vals, list) and seat < len(vals):
                extra.append(Text(f"{key}: {vals[seat]}"))
        return extra

    def _render_seats(self, obs: dict[str, Any], hidden: bool) -> None:
        g = self.game
        to_act = set(obs.get("to_act", ()))
        counts = obs.get("hand_counts") or [None] * g.players
        tags = obs.get("seat_tags") or [[] for _ in range(g.players)]
        me = self.viewer

        def fill(panel: SeatPanel, seat: int) -> None:
            panel.show(
                g.names[seat],
                counts[seat],
                list(tags[seat]),
                seat in to_act,
                self._seat_extra(obs, seat),
                self.session.seats[seat].is_ai,
            )

        if g.family == "trick":
            return  # the compass shows the seats (see _render_trick)
        else:
            base = me if me is not None else self.session.humans[0]
            order = [(base + k) % g.players for k in range(1, g.players)]
            for i, seat in enumerate(order):
                fill(self.query_one(f"#opp-{i}", SeatPanel), seat)
        # the viewer's own line above the hand
        if me is None:
            update_static(self.query_one("#prompt", Static), Text(""))
            return

    def _variant_notes(self, obs: dict[str, Any]) -> Text:
        """Private or phase facts some variants add to the observation (2v1)."""
        g = self.game
        face = g.card_face
        out = Text()

        def add(label: str, codes: list[str]) -> None:
            if out.cell_len:
                out.append("  ")
            out.append(label + " ", style="dim")
            out.append_text(cards_text(codes, face))

        if obs.get("my_face_down"):
            add("Your face-down card:", [obs["my_face_down"]])
        if obs.get("my_choice"):
            add("Your choice:", list(obs["my_choice"]))
        if obs.get("received"):
            add("Received:", list(obs["received"]))
        if obs.get("blindfold"):
            if out.cell_len:
                out.append("  ")
            out.append("Blindfold: the duo follows face down.", style="bold")
        offered = obs.get("offered_hands") or {}
        for letter, codes in sorted(offered.items()):
            # a hand to choose from (2-player Chinese Poker): show it before the choice
            if out.cell_len:
                out.append("\n")
            out.append(f"Hand {letter}: ", style="bold")
            out.append_text(cards_text(g.sort_cards(list(codes), self.sort_by), face))
        return out

    def _render_trick(self, obs: dict[str, Any], hidden: bool) -> None:
        g = self.game
        face = g.card_face
        status = Text(obs.get("status", ""), style="dim")
        if g.family == "trick":
            view = self.query_one("#compass", CompassView)
            view.border_title = "Table"
            if hidden:
                view.show({}, Text(), "The table is hidden until the next player is at the screen.")
                return
            to_act = set(obs.get("to_act", ()))
            counts = obs.get("hand_counts") or [None] * g.players
            tags = obs.get("seat_tags") or [[] for _ in range(g.players)]
            played: dict[int, Text] = {}
            for e in obs.get("table", []):
                t = cards_text(list(e.get("cards", [])), face)
                if e.get("label"):
                    t.append(f" {e['label']}", style="italic")
                played[e.get("seat")] = t
            pos = self._positions()
            pos[self.viewer] = "south"
            seats = {}
            for seat, p in pos.items():
                seats[p] = SeatInfo(
                    g.names[seat],
                    counts[seat],
                    list(tags[seat]),
                    seat in to_act,
                    played.get(seat),
                    self.session.seats[seat].is_ai,
                )
            notes = self._variant_notes(obs)
            view.show(seats, Text.assemble(status, "\n", notes) if notes.cell_len else status)
            return
        panel = self.query_one("#trick", InfoPanel)
        panel.border_title = "Table"
        if hidden:
            update_static(
                panel,
                Text("The table is hidden until the next player is at the screen.", style="italic"),
            )
            return
        entries = obs.get("trick")
        if entries is None:
            entries = obs.get("table", [])
        out = Text()
        shown = entries[-6:]
        if len(entries) > len(shown):
            out.append(f"… {len(entries) - len(shown)} earlier\n", style="dim")
        last_play = max((i for i, e in enumerate(shown) if not e.get("pass")), default=None)
        for i, e in enumerate(shown):
            seat = e.get("seat")
            who = g.names[seat] if seat is not None else ""
            out.append(("▶ " if i == last_play else "  ") + f"{who}: ", style="bold")
            if e.get("pass"):
                out.append("pass", style="italic")
            else:
                out.append_text(cards_text(list(e.get("cards", [])), face))
                label = e.get("label") or (e.get("kind") or "").replace("-", " ")
                if label:
                    out.append(f"  {label}", style="italic")
            out.append("\n")
        if not entries:
            out.append("Nothing on the table: a new lead.\n", style="italic")
        out.append_text(status)
        notes = self._variant_notes(obs)
        if notes.cell_len:
            out.append("\n")
            out.append_text(notes)
        update_static(panel, out)

    def _render_score(self, obs: dict[str, Any]) -> None:
        g = self.game
        totals = obs.get("totals", g.totals)
        t = Text()
        t.append(f"Deal {obs.get('deal_number', g.deal_number)}\n", style="bold")
        width = max(len(n) for n in g.names)
        for seat, total in enumerate(totals):
            me = " ◀" if seat == self.viewer else ""
            t.append(f"{g.names[seat]:<{width}}  {total:>4}{me}\n")
        target = g.target_text()
        if target:
            t.append(f"\n{target}", style="dim")
        panel = self.query_one("#score", InfoPanel)
        panel.border_title = g.score_label
        update_static(panel, t)

    def _render_log(self, obs: dict[str, Any]) -> None:
        log = self.query_one("#log", RichLog)
        history = obs.get("history", [])
        if len(history) < self._log_count:
            log.clear()
            self._log_count = 0
        new = history[self._log_count :]
        # once the log has a size, scroll to the end right away (in this frame) rather
        # than after the next repaint, which would cost another frame
        now = log._size_known and bool(new)
        for entry in new:
            kind = entry.get("kind")
            style = ""
            if entry.get("bomb"):
                style = "bold red"
            elif kind in ("deal-end", "match-end"):
                style = "bold"
            elif kind == "pass":
                style = "dim"
            log.write(
                Text(str(entry.get("text", "")), style=style), scroll_end=False if now else None
            )
        if now:
            log.scroll_end(animate=False, immediate=True, x_axis=False)
        self._log_count = len(history)

    def _render_hand(self, obs: dict[str, Any] | None) -> None:
        g = self.game
        hand = self.query_one(HandView)
        prompt = self.query_one("#prompt", Static)
        if obs is None:
            self._decision = None
            hand.set_hand([], [], set(), "Hand hidden: waiting for the next player.")
            self._render_actions()
            return
        cards = g.sort_cards(list(obs.get("hand", [])), by=self.sort_by)
        self._hand_order = cards
        self.selected &= set(cards)
        v = self.viewer
        d = g.decision(v) if v in g.to_act() else None
        self._decision = d
        selectable = bool(d and d.select)
        if not selectable:
            self.selected.clear()
        hand.set_hand(cards, [g.card_face(c) for c in cards], self.selected, "", selectable)
        me = Text()
        me.append(f"{g.names[v]}", style="bold")
        tags = (obs.get("seat_tags") or [[]] * g.players)[v]
        if tags:
            me.append(" · " + " · ".join(tags), style="italic")
        me.append(" — ")
        if d is not None:
            me.append(d.prompt, style="bold yellow")
        elif g.deal_over:
            me.append(obs.get("status", "The deal is over."))
        else:
            waiting = ", ".join(g.names[s] for s in g.to_act())
            me.append(
                f"waiting for {waiting}…" if waiting else obs.get("status", ""), style="italic"
            )
        update_static(prompt, me)
        self._render_actions()

    def _render_actions(self) -> None:
        d = self._decision
        submit = self.query_one("#submit", Button)
        if d is not None and d.select:
            submit.display = True
            submit.label = (d.submit or "play").replace("-", " ").capitalize()
            legal = self.current_reason() is None
            submit.disabled = not legal
            submit.variant = "success" if legal else "default"
        else:
            submit.display = False
        sig = tuple((c.label, c.key) for c in d.choices) if d else ()
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
        if a is None:
            return "Nothing to play now."
        lo, hi = self._decision.select
        if not a.cards and lo > 0:  # the decision's own bounds: nothing selected yet
            many = f"{lo}" if lo == hi else f"at least {lo}"
            return f"Select {many} card{'s' if lo > 1 else ''} first."
        return self.game.check(self.viewer, a)

    def show_message(self, text: str, error: bool = False) -> None:
        if (text, error) == self._message:
            return  # unchanged: no repaint, no layout
        self._message = (text, error)
        m = self.query_one("#message", Static)
        m.set_class(error, "error")
        m.update(Text(("✗ " if error else "") + text))

    def _selection_changed(self) -> None:
        self.query_one(HandView).set_selected(self.selected)
        self.show_message("")
        self._render_actions()

    def action_cursor(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)

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

    def action_toggle(self) -> None:
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
        hand = self.query_one(HandView)
        current = self._hand_order[hand.cursor] if self._hand_order else None
        if self.viewer is not None:
            self._render_hand(self.game.observation(self.viewer))
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
                self.app.go_home()

        self.app.push_screen(ConfirmLeave(), answer)

    # ----- acting -----------------------------------------------------------------------
    def act(self, action: Action) -> None:
        seat = self.viewer
        if seat is None or self._decision is None:
            return
        reason = self.game.check(seat, action)
        if reason is not None:
            self.show_message(reason, error=True)
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
            self.show_message(reason, error=True)
            return
        self.act(a)

    def action_pass_turn(self) -> None:
        d = self._decision
        if d is None:
            return
        for c in d.choices:
            if c.action.kind == "pass":
                self.act(c.action)
                return
        reason = self.game.check(self.viewer, Action("pass")) or "You cannot pass now."
        self.show_message(reason, error=True)

    def on_key(self, event) -> None:
        d = self._decision
        if d is None or event.key in ("p", "space", "enter", "s", "q"):
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

    # ----- flow -------------------------------------------------------------------------
    def after_change(self) -> None:
        """After any action: announce, refresh, then hand the turn on."""
        g = self.game
        self._announce()
        if self.session.save_error:
            self.app.notify(self.session.save_error, severity="error")
        if g.deal_over:
            self.refresh_view()
            self._show_deal_end()
            return
        self.advance()

    def _announce(self) -> None:
        history = self.game.history
        for entry in history[self._log_count :]:
            if entry.get("bomb"):
                self.app.notify(
                    str(entry.get("text", "Bomb!")), title="Bomb!", severity="warning", timeout=4
                )

    def advance(self) -> None:
        s = self.session
        if s.ai_to_act() and not self._ai_running:
            self._ai_running = True
            self.ai_loop()
        humans = s.humans_to_act()
        if humans and not self._pass_pending:
            target = self.viewer if self.viewer in humans else humans[0]
            if s.hot_seat and target != self.viewer:
                self.viewer = None
                self.selected.clear()
                self._pass_pending = True
                self.refresh_view()
                from .dialogs import PassScreen

                self.app.push_screen(
                    PassScreen(self.game.names[target]), lambda _r, t=target: self._passed_to(t)
                )
                return
            self.viewer = target
        self.refresh_view()

    def _passed_to(self, seat: int) -> None:
        self._pass_pending = False
        self.viewer = seat
        self.advance()

    @work(group="ai")
    async def ai_loop(self) -> None:
        s = self.session
        try:
            while True:
                seats = s.ai_to_act()
                if not seats or self.game.deal_over:
                    return
                await asyncio.sleep(self.app.ai_pause)
                seats = s.ai_to_act()
                if not seats:
                    return
                seat = seats[0]
                inputs = s.ai_inputs(seat)
                if self.app.ai_pause > 0:
                    action = await asyncio.to_thread(s.ai_choose, seat, inputs)
                else:
                    action = s.ai_choose(seat, inputs)
                if self.game.check(seat, action) is not None:
                    continue  # a simultaneous human choice changed the state: ask again
                # the last move's autosave is on disk before the AI moves on
                if self.app.ai_pause > 0:
                    await asyncio.to_thread(s.flush)
                else:
                    s.flush()
                s.apply(seat, action)
                self.after_change()
        finally:
            self._ai_running = False

    def _show_deal_end(self) -> None:
        g = self.game
        if self._deal_end_shown == g.deal_number:
            return
        self._deal_end_shown = g.deal_number
        from .dialogs import DealEndScreen

        self.app.push_screen(DealEndScreen(self.session), self._deal_end_choice)

    def _deal_end_choice(self, choice: str | None) -> None:
        if choice == "next":
            self.session.next_deal()
            self.selected.clear()
            self.after_change()
        elif choice == "again":
            self.app.start_session(self.session.again())
        elif choice == "new":
            self.app.open_picker(self.game.variant_id)
        elif choice == "home":
            self.app.go_home()
