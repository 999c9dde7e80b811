"""Replay of a recorded deal: every hand face up, the table and the log, one step at a
time forward and back. The steps come from :class:`twos_tui.play.replay.DealReplay`
(the engine replaying the recorded actions); this screen only draws them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...play.replay import DealReplay, Frame
from ..boards import play_label
from ..chrome import SafeHeader
from ..screen_css import SCREENS_CSS
from ..widgets import InfoPanel, cards_text
from .stats import KeyHints

if TYPE_CHECKING:
    from ...engine.cards import CardFace

AUTOPLAY_S = 0.8  #: seconds per step when playing on its own

NOTE_LABELS = {
    "my_face_down": "face down",
    "my_choice": "chose",
    "my_discard": "discarded",
    "received": "received",
}


class ReplayScreen(Screen[None]):
    """Steps through one deal; ``step`` is the number of actions shown as played."""

    CSS_PATH = SCREENS_CSS

    DEFAULT_CSS = """
    #replay-step { height: auto; padding: 0 1; }
    #replay-seats { height: auto; max-height: 50%; padding: 0 1; }
    #replay-hands { height: auto; }
    #replay-table { height: auto; min-height: 4; border-title-align: left; }
    #replay-log-scroll { height: 1fr; min-height: 3; border: round $panel-lighten-2; }
    #replay-log { height: auto; }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "Next", priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True),
        Binding("pageup", "step(-10)", "-10", show=False, priority=True),
        Binding("space", "autoplay", "Play", priority=True),
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, replay: DealReplay) -> None:
        super().__init__()
        self.replay = replay
        self.step = 0
        self._timer: Timer | None = None

    @property
    def frame(self) -> Frame:
        return self.replay.frames[self.step]

    @property
    def last_step(self) -> int:
        return len(self.replay.frames) - 1

    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="▶")
        yield Static(id="replay-step")
        with VerticalScroll(id="replay-seats"):
            yield Static(id="replay-hands")
        yield InfoPanel(id="replay-table")
        with VerticalScroll(id="replay-log-scroll"):
            yield Static(id="replay-log")
        yield KeyHints()

    def on_mount(self) -> None:
        r = self.replay
        self.title = f"Replay: {r.match['variant_name']}"
        word = r.game.deal_word
        self.sub_title = f"game {r.match['id']}, {word} {r.deal_number} ({word} id {r.deal_id})"
        self.query_one("#replay-table", InfoPanel).border_title = "Table"
        self.show()

    # ----- drawing ----------------------------------------------------------------------
    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return str(self.replay.names[seat])

    def show(self) -> None:
        f = self.frame
        r = self.replay
        face = r.game.card_face
        step = Text()
        step.append(f"Step {self.step} of {self.last_step}", style="bold")
        if self.step == 0:
            step.append(" · the hands as dealt")
        elif f.actor is not None and f.action is not None:
            step.append(f" · {self.seat_name(f.actor)}: {describe(f.action, face)}")
        if self.step == self.last_step:
            step.append(f" · {r.game.deal_word} over", style="bold")
        if self._timer is not None:
            step.append(" · playing (space pauses)", style="italic")
        self.query_one("#replay-step", Static).update(step)

        hands = Text()
        for seat, hand in enumerate(f.hands):
            s = r.seats[seat] if seat < len(r.seats) else {}
            marker = "▶ " if seat in f.to_act else "  "
            hands.append(marker, style="bold")
            hands.append(self.seat_name(seat), style="bold")
            kind = f"AI {s.get('level', '')}".strip() if s.get("kind") == "ai" else "human"
            hands.append(f" ({kind})", style="dim")
            tags = f.tags[seat] if seat < len(f.tags) else []
            if tags:
                hands.append(" · " + " · ".join(tags), style="italic")
            total = f.totals[seat] if seat < len(f.totals) else None
            hands.append(f" · {len(hand)} card{'s' if len(hand) != 1 else ''}")
            if total is not None:
                hands.append(f" · {r.match['score_label'].lower()} {total}", style="dim")
            hands.append("\n  ")
            hands.append_text(cards_text(hand, face) if hand else Text("(no cards)", "italic"))
            for key, val in f.notes[seat].items():
                codes = [val] if isinstance(val, str) else list(val)
                hands.append(f"  {NOTE_LABELS.get(key, key)}: ", style="dim")
                hands.append_text(cards_text(codes, face))
            if seat < len(f.hands) - 1:
                hands.append("\n")
        self.query_one("#replay-hands", Static).update(hands)

        table = Text()
        for e in f.table[-4:]:  # the latest plays: the log below has the rest
            table.append(f"{self.seat_name(e.get('seat'))}: ", style="bold")
            if e.get("pass"):
                table.append("pass", style="italic")
            else:
                table.append_text(cards_text(list(e.get("cards", [])), face))
                label = play_label(e)
                if label:
                    table.append(f"  {label}", style="italic")
            table.append("\n")
        if not f.table:
            table.append("Nothing on the table.\n", style="italic")
        table.append(f.status, style="dim")
        if self.step == self.last_step:
            table.append("\n")
            table.append(r.result.summary, style="bold")
        self.query_one("#replay-table", InfoPanel).update(table)

        log = Text()
        prev = r.frames[self.step - 1].log_len if self.step > 0 else 0
        for i, entry in enumerate(r.log[: f.log_len]):
            new = i >= prev and self.step > 0
            log.append(("▶ " if new else "  ") + str(entry.get("text", "")), "bold" if new else "")
            log.append("\n")
        log.rstrip()
        self.query_one("#replay-log", Static).update(log)
        self.query_one("#replay-log-scroll", VerticalScroll).scroll_end(animate=False)

    # ----- keys -------------------------------------------------------------------------
    def go(self, step: int) -> None:
        step = max(0, min(self.last_step, step))
        if step != self.step:
            self.step = step
        self.show()

    def action_step(self, delta: int) -> None:
        self.go(self.step + delta)

    def action_jump(self, where: int) -> None:
        self.go(self.last_step if where < 0 else where)

    def action_autoplay(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        else:
            if self.step == self.last_step:
                self.step = 0
            self._timer = self.set_interval(AUTOPLAY_S, self._tick)
        self.show()

    def _tick(self) -> None:
        if self.step >= self.last_step and self._timer is not None:
            self._timer.stop()
            self._timer = None
        else:
            self.step += 1
        self.show()

    def action_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.dismiss(None)


def describe(action: Mapping[str, object], face: Callable[[str], CardFace]) -> str:
    """An action as words: its kind, its cards' labels, its value (an action as the
    history recorded it: its fields are read as they come)."""
    parts = [str(action.get("kind", "")).replace("-", " ")]
    cards = action.get("cards") or []
    if isinstance(cards, list | tuple) and cards:
        parts.append(" ".join(face(str(c)).label for c in cards))
    if action.get("value") is not None:
        parts.append(str(action["value"]))
    return " ".join(parts)
