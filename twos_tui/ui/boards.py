"""The middle of the table, one widget per game family.

The table screen knows no family: it asks :func:`board_for` for the board of its game
once, then hands it a :class:`TableView` on every refresh. A board shows the seats
around the table and what has been played, keeps a finished trick (or 2v1 hand) on the
table until the next card is played, and says what the last finished trick was for the
"last trick" view. Everything it shows comes from the observation of the seat at the
screen (``game.observation``) — or, on a spectator's screen, the public view
(``TableView.public``: every seat drawn alike, from a neutral seat) — and the engine's
own card faces.

* :class:`ClimbingBoard` — the opponents in a row, the plays of the current trick.
* :class:`TrickBoard` — the trick-taking games (Twos tricks, 2v1): the seats round a
  compass, each with the card(s) it played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget

from ..engine.climbing.combination import describe_kind
from ..engine.views import (
    AnyView,
    ClimbingLastTrick,
    ClimbingView,
    TableEntry,
    TrickMove,
)
from ..engine.words import says
from ..play.seat_view import SeatView
from .boards_base import HIDDEN_NOTE, Board, TableView, private_notes
from .boards_tricks import CompassSeat, TrickBoard, held_plays, trick_positions
from .cardart import CARD_H, Canvas, best_stride, chips, fan_width
from .widgets import SeatPanel

# ---------------------------------------------------------------------------------------
# climbing games
# ---------------------------------------------------------------------------------------


def play_label(entry: TrickMove | TableEntry | Mapping[str, Any]) -> str:
    """What a play is, in the words the log uses ("bomb 2×3", "full house"); an entry
    of a saved match's replay is its JSON."""
    if isinstance(entry, Mapping):
        return entry.get("label") or describe_kind(entry.get("kind") or "")
    label = entry.label if isinstance(entry, TableEntry) else None
    return label or describe_kind(entry.kind or "")


def climbing_caption(view: TableView, last: ClimbingLastTrick, leads: bool = True) -> Text:
    """ "Ana won the trick with pair 9♦ 9♣" from ``last_trick``, then (``leads``)
    "Ana leads." on a line of its own; the table leaves that out, as its status line
    already says who leads. The cards end their line: no punctuation runs into the
    chips' padding."""
    plays = [p for p in last.plays if not p.passed]
    winner = last.winner
    t = Text()
    t.append(f"{view.name(winner)} won the trick", style="bold")
    if plays:
        top = plays[-1]
        # the chips carry their own padding: one space before them would read as two
        t.append(f" with {play_label(top)}")
        t.append_text(chips(list(top.cards or ()), view.face))
    elif leads:
        t.append(".")
    if leads:
        t.append(f"\n{says(view.name(winner), 'leads')}.")
    return t


class TrickPlays(Widget):
    """The plays of the current climbing trick: who played what, the newest marked ▶;
    with room, the play to beat as framed cards. A finished trick stays (dimmed, with
    who won it) until the next card is played."""

    DEFAULT_CSS = """
    TrickPlays {
        height: 1fr; min-height: 4; border: round $panel-lighten-2; padding: 0 1;
        border-title-align: left;
    }
    TrickPlays.flash { border: heavy $error; }
    """

    #: the table shown (repainted only when a view that differs comes: see
    #: :attr:`Board.view`)
    view: reactive[TableView | None] = reactive(None, init=False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.border_title = "Table"

    def show(self, view: TableView) -> None:
        self.set_class(view.flash, "flash")
        self.view = view

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        if view.obs is None:
            return Text(HIDDEN_NOTE, style="italic")
        obs = view.obs
        width = max(10, self.content_region.width)
        height = max(1, self.content_region.height)
        climbing = obs if isinstance(obs, ClimbingView) else None
        entries: tuple[TrickMove, ...] = climbing.trick if climbing is not None else ()
        held = False
        last = climbing.last_trick if climbing is not None else None
        if not entries and last and not obs.deal_over:
            entries = last.plays
            held = True
        foot = Text()
        if held and last:
            foot.append_text(climbing_caption(view, last, leads=False))
            foot.append("\n")
        foot.append(obs.status, style="dim")
        notes = private_notes(view)
        if notes.cell_len:
            foot.append("\n")
            foot.append_text(notes)
        foot_lines = len(foot.wrap(self.app.console, width))
        room = max(1, height - foot_lines)
        plays = [i for i, e in enumerate(entries) if not e.passed]
        last_play = plays[-1] if plays else None
        big: Text | None = None
        if view.framed and last_play is not None and room >= CARD_H + 2:
            cards = list(entries[last_play].cards or ())
            stride = best_stride(len(cards), width)
            if stride is not None:
                canvas = Canvas(width, CARD_H)
                x = max(0, (width - fan_width(len(cards), stride)) // 2)
                for i, code in enumerate(cards):
                    canvas.card(x + i * stride, 0, view.face(code))
                big = canvas.to_text()
                if held:
                    big.stylize("dim")
                room -= CARD_H
        lines: list[Text] = []
        for i, e in enumerate(entries):
            seat = e.seat
            line = Text()
            mark = "★ " if held and i == last_play else ("▶ " if i == last_play else "  ")
            line.append(mark + f"{view.name(seat)}: ", style="bold")
            if e.passed:
                line.append("pass", style="italic")
            else:
                line.append_text(chips(list(e.cards or ()), view.face))
                label = play_label(e)
                if label:
                    line.append(f"  {label}", style="italic")
            if held:
                line.stylize("dim")
            lines.append(line)
        if not entries:
            lines.append(Text("Nothing on the table: a new lead.", style="italic"))
        # the newest plays that fit (each may wrap)
        shown: list[Text] = []
        used = 0
        for line in reversed(lines):
            n = len(line.wrap(self.app.console, width))
            if used + n > room - (1 if len(shown) < len(lines) - 1 else 0) and shown:
                break
            shown.insert(0, line)
            used += n
        earlier = len(lines) - len(shown)
        if last_play is not None and earlier > last_play:
            # too little room for the play to beat and the passes after it (a small
            # window): the play to beat comes first, then the passes that still fit
            shown = [lines[last_play]]
            used = len(lines[last_play].wrap(self.app.console, width))
            for line in lines[last_play + 1 :]:
                n = len(line.wrap(self.app.console, width))
                if used + n > room - 1:
                    break
                shown.append(line)
                used += n
            earlier = last_play
        out = Text()
        if earlier and (used < room or earlier == len(lines) - len(shown)):
            out.append(f"… {earlier} earlier\n", style="dim")
        out.append_text(Text("\n").join(shown))
        if big is not None:
            out.append("\n")
            out.append_text(big)
        out.append("\n")
        out.append_text(foot)
        return out


class ClimbingBoard(Board):
    """The opponents in a row above the plays of the current trick."""

    family = "climbing"

    DEFAULT_CSS = """
    ClimbingBoard { height: 1fr; layout: vertical; }
    ClimbingBoard #opponents { height: auto; }
    ClimbingBoard #opponents SeatPanel { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="opponents"):
            # one panel per opponent; the last is shown only to a spectator (the public
            # view: every seat in a row, none at the bottom)
            for i in range(self.game.players):
                panel = SeatPanel(id=f"opp-{i}", classes="seat")
                panel.display = i < self.game.players - 1
                yield panel
        yield TrickPlays(id="trick")

    def on_mount(self) -> None:
        if self.view is not None:
            self.call_after_refresh(self.draw, self.view)

    def draw(self, view: TableView) -> bool:
        """The seat boxes and the trick, each handed its part (each redraws only what
        differs: a seat box its text, the trick its view); True when a seat box's text
        changed (the trick's height is the board's: it changes no size)."""
        if not self.query(TrickPlays) or len(self.query(SeatPanel)) < self.game.players:
            return False  # not composed yet (shown once mounted), or being taken down
        resized = False
        obs = view.obs
        g = self.game
        last = self.query_one(f"#opp-{g.players - 1}", SeatPanel)
        if last.display != view.public:
            last.display = view.public
            resized = True
        if obs is not None:
            to_act = set(obs.to_act)
            counts = obs.hand_counts or [None] * g.players
            tags: Sequence[Sequence[str]] = obs.seat_tags or [() for _ in range(g.players)]
            first = 0 if view.public else 1  # the public view: ``me`` has a panel too
            order = [(view.me + k) % g.players for k in range(first, g.players)]
            for i, seat in enumerate(order):
                resized |= self.query_one(f"#opp-{i}", SeatPanel).show(
                    view.names[seat],
                    counts[seat],
                    view.tags(seat, list(tags[seat])),
                    seat in to_act,
                    [],
                    view.ai[seat] if seat < len(view.ai) else False,
                    view.thinking == seat,
                    name_first=view.public,  # every seat in the row: narrower boxes
                )
        # the trick's part: what only the seat boxes show (who is an AI, thinking, a
        # seat's note) left out, so that those changing do not repaint the trick
        self.query_one(TrickPlays).show(replace(view, ai=[], thinking=None, notes=[]))
        return resized

    @classmethod
    def holds_finished_trick(cls, obs: AnyView) -> bool:
        return isinstance(obs, ClimbingView) and not obs.trick and bool(obs.last_trick)

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        obs = view.obs
        if not isinstance(obs, ClimbingView):
            return None
        trick = obs.trick
        if view.game.deal_over and any(not e.passed for e in trick):
            # the deal ended in the middle of a trick (a player went out): that trick is
            # the deal's last one
            out = cls._plays_text(view, trick)
            out_seat = [e for e in trick if not e.passed][-1].seat
            out.append(
                f"{view.name(out_seat)} went out; the {view.game.deal_word} is over.",
                style="bold",
            )
            return out
        last = obs.last_trick
        if not last:
            return None
        out = cls._plays_text(view, last.plays)
        out.append_text(climbing_caption(view, last))
        return out

    @staticmethod
    def _plays_text(view: TableView, plays: Sequence[TrickMove]) -> Text:
        out = Text()
        for e in plays:
            out.append(f"{view.name(e.seat)}: ", style="bold")
            if e.passed:
                out.append("pass", style="italic")
            else:
                out.append_text(chips(list(e.cards or ()), view.face))
                out.append(f"  {play_label(e)}", style="italic")
            out.append("\n")
        return out


BOARDS: dict[str, type[Board]] = {b.family: b for b in (ClimbingBoard, TrickBoard)}


def board_for(game: SeatView, **kw: Any) -> Board:
    """The board of ``game``'s family."""
    return BOARDS[game.family](game, **kw)


__all__ = [
    "HIDDEN_NOTE",
    "BOARDS",
    "Board",
    "ClimbingBoard",
    "CompassSeat",
    "TableView",
    "TrickBoard",
    "board_for",
    "climbing_caption",
    "held_plays",
    "play_label",
    "private_notes",
    "trick_positions",
]
