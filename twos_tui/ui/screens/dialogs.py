"""Screens between turns and deals: pass-to-player (hot-seat), deal/match end, leaving
the table, a small read-only text dialog (last trick, the log). The questions about saves
are in ``save_dialogs.py`` (re-exported here).

Player names and save reasons come from files: they are shown as plain ``Text`` (never
markup), already cleaned of control characters by the play layer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from ...engine.words import says
from ...play.seat_view import SeatView
from ..chrome import KeyBar, event_clock, focus_first
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app
from .confirm_leave import ConfirmLeave, InfoDialog
from .save_dialogs import ConfirmDelete, DamagedSaveDialog, SaveLockedDialog
from .score_sheet import hands_left, score_sheet

__all__ = [
    "ConfirmDelete",
    "ConfirmLeave",
    "DamagedSaveDialog",
    "DealEndScreen",
    "InfoDialog",
    "KeyGuard",
    "PassScreen",
    "SaveLockedDialog",
    "focus_first",
]


class KeyGuard:
    """For a screen that hides or reveals a hand, or ends a deal: it takes no key that
    was pressed before it appeared, nor any key (or click) in its first ``GUARD``
    seconds; each key pressed meanwhile starts the guard again, so a held or hammered
    key never gets through. A quick second Enter after a move (meant for the table, or
    pressed twice by habit) is dropped, and the screen then wants a deliberate key.

    Tests do not wait for the guard: they set ``GUARD`` (0: only keys pressed before the
    screen appeared are dropped) or call :meth:`arm_keys`, which the timer calls."""

    GUARD: ClassVar[float] = 0.6
    keys_armed = False
    opened_at: float | None = None  #: the event clock when the screen appeared

    def start_guard(self: Any) -> None:
        """Call from ``on_mount``."""
        self.opened_at = event_clock()
        self._guard_timer = None
        if self.GUARD <= 0:
            self.arm_keys()
        else:
            self._guard_timer = self.set_timer(self.GUARD, self.arm_keys)

    def arm_keys(self: Any) -> None:
        """From now on keys count (the guard time is over)."""
        timer = getattr(self, "_guard_timer", None)
        if timer is not None:
            timer.stop()
            self._guard_timer = None
        if self.opened_at is None:
            self.opened_at = event_clock()
        self.keys_armed = True
        self.guard_over()
        self.refresh_bindings()

    def guard_over(self) -> None:
        """The screen may show that it now takes keys."""

    def key_dropped(self: Any, event: events.Key) -> bool:
        """Whether ``event`` is dropped (and stopped); call from ``on_key``."""
        pressed_before = self.opened_at is None or event.time < self.opened_at
        if self.keys_armed and not pressed_before:
            return False
        event.stop()
        event.prevent_default()
        if not self.keys_armed and not pressed_before and self.GUARD > 0:
            timer = getattr(self, "_guard_timer", None)
            if timer is not None:
                timer.stop()
            self._guard_timer = self.set_timer(self.GUARD, self.arm_keys)
        return True


class PassScreen(KeyGuard, Screen[None]):
    """Hides the whole table until the named player is at the keyboard. It first says
    what happened since the last player took the screen (public play only), so the
    player who just moved sees how the trick ended.

    Its key guard (:class:`KeyGuard`) drops a quick second Enter of the player who just
    moved: the next hand is shown only on a deliberate Enter (or a click on the "I am
    NAME" button) once the guard is over and the button is no longer dimmed."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        # not a priority binding: a key first passes the guard's on_key, which drops a
        # key pressed before the screen appeared (the button is never focused, so the
        # binding is the one Enter reaches and the footer shows it)
        Binding("enter", "ready", "I'm ready"),
        Binding("space", "ready", show=False),
    ]
    AUTO_FOCUS = None  # nothing focused: Enter reaches the screen's guarded binding

    def __init__(self, name: str, recap: Text | None = None) -> None:
        super().__init__()
        self.player_name = name
        self.recap = recap if recap is not None else Text()

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-box"):
            yield Static(Text(f"Pass to {self.player_name}", style="bold"), id="pass-title")
            if self.recap.cell_len:
                yield Static(Text("Since the last turn:", style="bold"), classes="pass-head")
                yield Static(self.recap, id="pass-recap")
            yield Static(
                Text(
                    "The table is hidden so nobody sees another player's hand.\n"
                    f"{self.player_name}: press Enter (or the button) when only you "
                    "can see the screen."
                ),
                id="pass-text",
            )
            with Center():
                # dimmed (disabled) while the guard lasts; then Enter (the screen's
                # binding, shown in the footer) or a click takes it
                yield Button(
                    Text(f"I am {self.player_name}: show my hand"),
                    id="ready",
                    variant="primary",
                    disabled=True,
                )
        yield KeyBar()

    def on_mount(self) -> None:
        self.start_guard()

    def guard_over(self) -> None:
        if self.is_mounted:
            button = self.query_one("#ready", Button)
            button.disabled = False

    def on_key(self, event: events.Key) -> None:
        self.key_dropped(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "ready" and not self.keys_armed:
            return None  # shown dimmed until the guard is over
        return True

    def action_ready(self) -> None:
        if self.keys_armed:
            self.dismiss(None)

    @on(Button.Pressed, "#ready")
    def _ready(self) -> None:
        if self.keys_armed:
            self.dismiss(None)


class DealEndScreen(KeyGuard, ModalScreen[str]):
    """Each player's change and the totals (and the hints asked); next deal, or play
    again / new game / home. Its key guard (:class:`KeyGuard`) keeps a quick second
    Enter after the last card from skipping it unread (and, hot-seat, from running on
    into the next deal's pass screen).

    Enter takes the focused button (the next deal, or play again, at first); Esc goes on
    to the next deal too (with the match over it does nothing): it never leaves the game.
    Home (or the lobby: the key and the button say where) takes ``q``, as at the table,
    and asks first as the table does (:class:`ConfirmLeave`) while the match goes on. ``t``
    shows the deal's last trick. The dialog has its own footer: the table's keys (h Hint…)
    do not work here and must not show through."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        # priority: shown in the footer even with a button focused (which takes the
        # focused button all the same)
        Binding("enter", "default('next')", "Continue", priority=True),
        Binding("enter", "default('again')", "Play again", priority=True),
        Binding("enter", "default('watch')", "Keep watching", priority=True),  # a spectator
        Binding("escape", "next", "Continue", show=False),
        Binding("n", "choose('new')", "New game"),
        Binding("t", "last_trick('trick')", "Last trick"),
        Binding("t", "last_trick('hand')", "Last hand"),  # 2v1: the game's word
        Binding("o", "score_sheet", "Scores"),
        # q says where it goes (one of these is offered: TwosApp.leave_to)
        Binding("q", "choose('home', 'Home')", "Home"),
        Binding("q", "choose('home', 'Lobby')", "Lobby"),
        Binding("q", "choose('home', 'Quit')", "Quit"),
        Binding("left,right", "app.focus_next", show=False),
        # the buttons keep the focus: the arrows and the page keys scroll the text
        Binding("up", "scroll_body(-1)", show=False),
        Binding("down", "scroll_body(1)", show=False),
        Binding("pageup", "scroll_body(-10)", show=False),
        Binding("pagedown", "scroll_body(10)", show=False),
    ]

    #: rows the box takes besides its text: border (2), title, the buttons (3), the
    #: screen's footer and a spare row
    CHROME_ROWS = 8

    def __init__(
        self,
        table: SeatView,
        hints: dict[str, int] | None = None,
        last_trick: Callable[[], InfoDialog | None] | None = None,
        trick_word: str = "trick",
        me: int | None = None,
        watching: bool = False,
    ) -> None:
        super().__init__()
        self.table = table
        self.hints = hints or {}
        self.last_trick = last_trick
        self.trick_word = trick_word
        self.me = me  #: the seat at the screen, marked "(you)" in the hands left
        #: a spectator's: the players start the next deal (no "next" here, only "keep
        #: watching"), and the table closes the dialog when it starts
        self.watching = watching

    def compose(self) -> ComposeResult:
        g = self.table
        r = g.last_result
        over = g.match_over
        word = g.deal_word.capitalize()
        with Vertical(id="end-box"):
            title = "Match over" if over else f"{word} {r.deal_number if r else g.deal_number} over"
            yield Static(Text(title, style="bold"), id="end-title")
            #: a rated lobby match's rating change, once the lobby has said it
            yield Static("", id="end-rating")
            body = Text()
            if over:
                won = g.match_winners()
                winners = [g.names[i] for i in won]
                body.append(f"★ {says(winners, 'wins')} the match!\n\n", style="bold")
            if r is not None:
                body.append(r.summary + "\n", style="bold")
                for line in r.details:
                    body.append(f"  {line}\n")
                body.append("\n")
                width = max([6] + [len(n) for n in g.names])
                body.append(f"{'Player':<{width}}  {'change':>7}  {g.score_label}\n", style="dim")
                for seat, name in enumerate(g.names):
                    ch = r.changes[seat] if seat < len(r.changes) else 0
                    body.append(f"{name:<{width}}  {ch:>+7}  {r.totals[seat]:>5}\n")
            left = hands_left(g, g.observation(self.seen_seat()), self.me)
            if left is not None:
                body.append("\nCards left in hand:\n", style="bold")
                body.append_text(left)
                body.append("\n")
            if self.hints:
                asked = ", ".join(
                    f"{name} {n} hint{'s' if n != 1 else ''}" for name, n in self.hints.items()
                )
                body.append(f"\nHints this {word.lower()}: {asked}\n", style="italic")
            target = g.target_text()
            if target:
                body.append(f"\n{target}", style="dim")
            with VerticalScroll(id="end-scroll"):
                yield Static(body, id="end-body")
            if self.watching:
                yield Static(self.watching_line(), id="end-watching")
            with Horizontal(id="end-buttons"):
                if self.watching:
                    yield Button("Keep watching (⏎)", id="watch", variant="success")
                elif over and self.table.can_play_again:
                    yield Button("Play again (⏎)", id="again", variant="success")
                    yield Button("New game (n)", id="new")
                elif over:
                    # a joined table's match over: no next deal and no play again here;
                    # what comes next is leaving (to the lobby, home, or the end)
                    yield Button(f"{self.leave_words()} (⏎)", id="home", variant="success")
                else:
                    yield Button(f"Next {word.lower()} (⏎)", id="next", variant="success")
                if not over or self.watching or self.table.can_play_again:
                    yield Button(f"{twos_app(self).leave_to()} (q)", id="home")
        yield KeyBar()

    def leave_words(self) -> str:
        """The button that leaves once a joined table's match is over, in words."""
        return {"Lobby": "Back to the lobby", "Quit": "End the session"}.get(
            twos_app(self).leave_to(), "Home"
        )

    def show_rating(self, line: Text | None) -> None:
        """A rated lobby match's rating change under the title ("Rating 1207 (+207)"),
        once the lobby knows it (the lobby calls this when its news comes)."""
        if line is None or not self.table.match_over:
            return
        for shown in self.query("#end-rating"):
            if isinstance(shown, Static):
                shown.update(line)
                shown.display = True
        self._fit(self.app.size.height)

    def watching_line(self) -> Text:
        """A spectator's line under the summary: what the players do next."""
        g = self.table
        word = g.deal_word
        if g.match_over:
            text = "You are watching: the match is over."
        elif g.deal_over:
            text = f"Waiting for the players to start the next {word}…"
        else:
            text = f"The players have begun {word} {g.deal_number}: back to the table soon."
        return Text(text, style="italic")

    def next_deal_begun(self) -> None:
        """A spectator's players began the next deal while this summary is open."""
        for line in self.query("#end-watching"):
            if isinstance(line, Static):
                line.update(self.watching_line())

    def on_mount(self) -> None:
        focus_first(self, "#end-buttons Button")
        for rating in self.query("#end-rating"):
            rating.display = False
        if self.table.match_over:
            lobby = twos_app(self).lobby_screen()
            if lobby is not None:
                from .lobby_results import match_rating

                self.show_rating(match_rating(lobby, self.table.variant_id))
        self._fit(self.app.size.height)
        # the table's announcements (a catch, a bomb) would cover the buttons: the
        # summary above says how the deal went
        clear = getattr(self.app, "clear_announcements", None)
        if clear is not None:
            clear()
        self.start_guard()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The text scrolls in what the window leaves it: the buttons always show."""
        for scroll in self.query("#end-scroll"):
            chrome = self.CHROME_ROWS + (1 if self.watching else 0)  # the watching line
            chrome += sum(1 for r in self.query("#end-rating") if r.display)
            scroll.styles.max_height = max(3, min(15, height - chrome))

    def action_scroll_body(self, rows: int) -> None:
        for scroll in self.query("#end-scroll"):
            scroll.scroll_relative(y=rows, animate=False)

    def on_key(self, event: events.Key) -> None:
        self.key_dropped(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("default", "next", "choose") and not self.keys_armed:
            # the guard: the key goes on to on_key, which drops it
            return None if action == "default" else False
        if action == "choose" and parameters[1:]:
            return parameters[1] == twos_app(self).leave_to()  # q: where it goes
        if action == "choose" and parameters == ("new",):
            # only offered when the match is over (a spectator leaves with q), at a table
            # this computer could play again (a joined table's next is leaving)
            return self.table.match_over and not self.watching and self.table.can_play_again
        over = self.table.match_over
        if self.watching and action in ("default", "next"):
            return action == "next" or parameters == ("watch",)
        if action == "default":
            if parameters == ("watch",):
                return False  # a spectator's only
            if over and not self.table.can_play_again:
                return False  # a joined table: no "play again" (Enter takes the focused button)
            return parameters == (("again",) if over else ("next",))
        if action == "next":
            return not over
        if action == "last_trick":
            return self.last_trick is not None and parameters == (self.trick_word,)
        return True

    def action_default(self, _shown: str = "") -> None:
        focused = self.focused
        if isinstance(focused, Button) and focused.id:
            self.dismiss(focused.id)
            return
        self.action_next()

    def action_next(self) -> None:
        """The safe choice: the next deal, or (the match over) play again; a spectator
        goes back to watching."""
        if self.watching:
            self.dismiss("watch")
        elif self.table.match_over:
            self.dismiss("again" if self.table.can_play_again else "home")
        else:
            self.dismiss("next")

    def action_choose(self, choice: str, _shown: str = "") -> None:
        if choice == "home" and self.leaving_a_match():
            self.confirm_leave()
            return
        self.dismiss(choice)

    def leaving_a_match(self) -> bool:
        """Leaving from here leaves a match still in play (a player's, not a spectator's):
        the table's question is asked first."""
        return not self.watching and not self.table.match_over

    def confirm_leave(self) -> None:
        """The table's own question (:class:`ConfirmLeave`); Stay keeps this summary."""

        def answer(leave: bool | None) -> None:
            if leave and self.is_attached:
                self.dismiss("home")

        self.app.push_screen(ConfirmLeave.for_app(self), answer)

    def seen_seat(self) -> int:
        """A seat whose view this screen may read (the one at the screen, if any)."""
        if self.me is not None:
            return self.me
        return (self.table.visible or (0,))[0]

    def action_score_sheet(self) -> None:
        g = self.table
        obs = g.observation(self.seen_seat())
        self.app.push_screen(InfoDialog("Score sheet", score_sheet(g, obs), scroll_to_end=False))

    def action_last_trick(self, _word: str = "") -> None:
        dialog = self.last_trick() if self.last_trick is not None else None
        if dialog is None:
            word = self.table.deal_word
            self.notify(f"No {self.trick_word} was finished this {word}.")
            return
        self.app.push_screen(dialog)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if self.keys_armed and event.button.id:
            self.action_choose(event.button.id)
