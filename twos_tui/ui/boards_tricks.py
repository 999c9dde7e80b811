"""The trick-taking games' board (Twos tricks, 2v1): see :mod:`.boards`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.geometry import Size

from ..engine.views import (
    AnyView,
    TricksView,
    TwoVOneView,
)
from ..play.seat_view import SeatView
from .boards_base import HIDDEN_NOTE, Board, TableView, _fit, private_notes
from .cardart import CARD_H, Canvas, best_stride, chips, chips_width, fan_width

# ---------------------------------------------------------------------------------------
# trick-taking games
# ---------------------------------------------------------------------------------------


@dataclass
class CompassSeat:
    """What the compass shows of one seat."""

    name: str
    count: int | None
    tags: list[str]
    turn: bool
    cards: list[str]
    label: str
    ai: bool
    thinking: bool = False
    mark: str = ""  #: "▶" the newest card, "★" the winner of a finished trick

    def title(self) -> Text:
        t = Text()
        if self.turn:
            t.append("▶ ", style="bold yellow")
        t.append(self.name, style="bold reverse" if self.turn else "bold")
        if self.ai:
            t.append(" (AI)", style="dim")
        return t

    def info(self) -> Text:
        bits = []
        if self.count is not None:
            bits.append(f"{self.count} card{'s' if self.count != 1 else ''}")
        bits.extend(self.tags)
        if self.thinking:
            bits.append("thinking…")
        elif self.turn:
            bits.append("to play")
        return Text(" · ".join(bits), style="italic")


def trick_positions(players: int, me: int) -> dict[int, str]:
    """Seat -> compass position (you sit south; play passes to your left: west)."""
    order = [(me + k) % players for k in range(1, players)]
    names = {1: ["north"], 2: ["west", "east"], 3: ["west", "north", "east"]}[len(order)]
    out = dict(zip(order, names, strict=False))
    out[me] = "south"
    return out


def held_plays(obs: AnyView) -> tuple[dict[int, list[str]], int | None, str] | None:
    """The finished trick (Twos tricks) or 2v1 hand to keep on the table while nothing
    new is on it: (cards by seat, the winning seat or None, label)."""
    if obs.table:
        return None
    last = obs.last_trick if isinstance(obs, TricksView) else None
    if last:
        plays = {s: [c] for s, c in last.plays}
        return plays, last.winner, "won"
    hand = obs.last_hand if isinstance(obs, TwoVOneView) else None
    if hand and isinstance(obs, TwoVOneView) and obs.lone is not None:
        plays = {obs.lone: list(hand.lone)}
        for s, c in hand.duo:
            plays[s] = [c]
        winner = obs.lone if hand.winner == "lone" else None
        return plays, winner, f"{hand.winner} wins"
    return None


def _widen(canvas: Canvas, extra: int) -> Canvas:
    """``canvas`` with ``extra`` blank columns on its right."""
    wider = Canvas(canvas.width + extra, canvas.height)
    for y in range(canvas.height):
        wider.chars[y][: canvas.width] = canvas.chars[y]
        wider.styles[y][: canvas.width] = canvas.styles[y]
    return wider


@dataclass
class Played:
    """A seat's played cards as drawn: the rows (a framed card's four, a chip line or
    the dot of no card) with what goes beside them (the newest card's mark, "led", your
    name); ``anchor``: the width of the cards themselves, which are centred, ``at``: the
    column they start at (after a chip line's mark)."""

    rows: list[Text]
    anchor: int
    at: int = 0

    @property
    def width(self) -> int:
        return max((r.cell_len for r in self.rows), default=0)

    def centred(self, width: int) -> list[Text]:
        """The rows with the cards centred in ``width`` columns: all moved right by the
        same padding (less, if need be, so that what hangs beside them fits), so that a
        framed card stays whole, and cut to ``width``."""
        pad = max(0, min((width - self.anchor) // 2 - self.at, width - self.width))
        return [Text(" " * pad) + _fit(r, width - pad) for r in self.rows]


class TrickBoard(Board):
    """The trick-taking table: opponents around the trick, you at the bottom.

    Positions are "north", "west", "east" (the seats after yours, to your left first)
    and "south" (you; a spectator's screen: seat 0, drawn as the others are, with its
    cards left and tags); each shows its name, cards left, tags and the card(s) it
    played, framed when there is room.
    """

    family = "trick"

    DEFAULT_CSS = """
    TrickBoard {
        height: 1fr; min-height: 8; border: round $panel-lighten-2; padding: 0 1;
        border-title-align: left;
    }
    TrickBoard.flash { border: heavy $error; }
    """

    def __init__(self, game: SeatView, **kw: Any) -> None:
        super().__init__(game, **kw)
        self.border_title = "Table"

    def show(self, view: TableView) -> bool:
        self.set_class(view.flash, "flash")
        return super().show(view)  # repainted and laid out only when the view differs

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        lines = self._lines(max(20, self.content_region.width))
        spare = self.content_region.height - len(lines)
        if spare > 2:  # a roomy table: the seats sit round its middle
            lines = [Text("")] * (spare // 3) + lines
        return Text("\n").join(lines)

    def seats(self) -> tuple[dict[str, CompassSeat], Text]:
        """The seats by position, and the caption of a finished trick kept on show."""
        view = self.view
        assert view is not None and view.obs is not None
        obs = view.obs
        g = self.game
        to_act = set(obs.to_act)
        counts = obs.hand_counts or [None] * g.players
        tags: Sequence[Sequence[str]] = obs.seat_tags or [() for _ in range(g.players)]
        played: dict[int, tuple[list[str], str]] = {}
        table = obs.table
        for e in table:
            played[e.seat] = (list(e.cards), e.label or "")
        newest = table[-1].seat if table else None
        caption = Text()
        winner = None
        held = held_plays(obs)
        if held is not None:
            by_seat, winner, _ = held
            played = {s: (c, "") for s, c in by_seat.items()}
            entry = view.history_entry("trick", "hand")
            if entry is not None:
                caption = Text(entry.text, style="bold")
        out = {}
        for seat, pos in trick_positions(g.players, view.me).items():
            cards, label = played.get(seat, ([], ""))
            mark = "★" if held is not None and seat == winner else ""
            if held is None and seat == newest:
                mark = "▶"
            out[pos] = CompassSeat(
                view.names[seat],
                counts[seat],
                view.tags(seat, list(tags[seat])),
                seat in to_act,
                cards,
                label,
                view.ai[seat] if seat < len(view.ai) else False,
                view.thinking == seat,
                mark,
            )
        return out, caption

    def _play(self, s: CompassSeat, dim: bool) -> Text:
        if not s.cards:
            return Text("·", style="dim")
        t = Text()
        if s.mark:
            t.append(s.mark + " ", style="bold yellow")
        t.append_text(chips(s.cards, self.view.face if self.view else self.game.card_face))
        if s.label:
            t.append(f" {s.label}", style="italic")
        if dim:
            t.stylize("dim")
        return t

    def _lines(self, w: int) -> list[Text]:
        view = self.view
        if view is None:
            return [Text()]
        if view.obs is None:
            return [Text(HIDDEN_NOTE, style="italic")]
        seats, caption = self.seats()
        dim = bool(caption.cell_len)
        framed = view.framed and w >= 40
        half = max(8, (w - 3) // 2)  # west and east each; at least 3 columns apart
        canvas_rows: list[Text] = []

        def centred(t: Text) -> Text:
            t = _fit(t, w)
            pad = max(0, (w - t.cell_len) // 2)
            return Text(" " * pad) + t

        def cards_block(s: CompassSeat, width: int) -> Played:
            """A seat's played cards: framed (4 rows) or a chip line."""
            if not framed:
                at = len(s.mark) + 1 if s.mark and s.cards else 0
                return Played([self._play(s, dim)], chips_width(s.cards, view.face) or 1, at)
            if not s.cards:
                return Played([Text("")] * (CARD_H // 2) + [Text("·", style="dim"), Text("")], 1)
            stride = best_stride(len(s.cards), width) or 3
            cw = fan_width(len(s.cards), stride)
            canvas = Canvas(cw + 2, CARD_H)
            for i, code in enumerate(s.cards):
                canvas.card(i * stride, 0, view.face(code), "cursor" if s.mark else "plain")
            if s.mark:
                canvas.put(cw + 1, 1, s.mark, None)
            if s.label:
                canvas = _widen(canvas, len(s.label) + 1)
                canvas.put(cw + 3, 2, s.label, None)
            t = canvas.to_text()
            if dim:
                t.stylize("dim")
            return Played(list(t.split("\n")), cw)

        n = seats.get("north")
        if n is not None:
            canvas_rows += [centred(n.title()), centred(n.info())]
            canvas_rows += cards_block(n, w).centred(w)
        we, ea = seats.get("west"), seats.get("east")
        if we is not None or ea is not None:

            def pair(left: Text | None, right: Text | None, at_left: int = 0) -> Text:
                line = Text()
                if left is not None:
                    left = _fit(left, half)
                    line.append(" " * at_left)
                    line.append_text(left)
                if right is not None:
                    right = _fit(right, half)
                    gap = w - line.cell_len - right.cell_len
                    line.append(" " * max(3, gap))
                    line.append_text(right)
                return line

            canvas_rows.append(pair(we.title() if we else None, ea.title() if ea else None))
            # the cards-and-tags lines wrap inside their half rather than run together
            winfo = list(we.info().wrap(self.app.console, half)) if we else []
            einfo = list(ea.info().wrap(self.app.console, half)) if ea else []
            for r in range(max(len(winfo), len(einfo))):
                canvas_rows.append(
                    pair(
                        winfo[r] if r < len(winfo) else (Text("") if we else None),
                        einfo[r] if r < len(einfo) else (Text("") if ea else None),
                    )
                )
            wb = cards_block(we, half) if we else Played([], 0)
            eb = cards_block(ea, half) if ea else Played([], 0)
            # each block keeps one left edge for all its rows (a card stays whole), west
            # centred on the left quarter, east on the right one, never running together
            lpad = max(0, w // 4 - wb.anchor // 2 - wb.at)
            lend = lpad + min(half, wb.width)
            rpos = max(lend + 1, min(3 * w // 4 - eb.anchor // 2 - eb.at, w - eb.width))
            for r in range(max(len(wb.rows), len(eb.rows))):
                left = wb.rows[r] if r < len(wb.rows) else Text("")
                right = eb.rows[r] if r < len(eb.rows) else Text("")
                line = Text(" " * lpad) + _fit(left, half)
                if right.cell_len:
                    line.append(" " * (rpos - line.cell_len))
                    line.append_text(_fit(right, w - rpos))
                canvas_rows.append(line)
        s = seats.get("south")
        if s is not None and view.public:
            # a spectator: the bottom seat is a player like the others, drawn as north
            # is (its name, cards left and tags under the card it played)
            canvas_rows += cards_block(s, w).centred(w)
            canvas_rows += [centred(s.title()), centred(s.info())]
        elif s is not None:
            block = cards_block(s, w // 2)
            me = Text(s.name, style="bold")
            if s.turn:
                me = Text("▶ ", style="bold yellow") + Text(s.name, style="bold reverse")
            # your name beside the middle row of your card, the card in line with north's
            mid = len(block.rows) // 2
            block.rows[mid] = (
                block.rows[mid] + Text(" " * (block.width - block.rows[mid].cell_len + 2)) + me
            )
            canvas_rows += block.centred(w)
        if caption.cell_len:
            canvas_rows += list(caption.wrap(self.app.console, w))
        obs = view.obs
        status = Text(obs.status, style="dim")
        canvas_rows += list(status.wrap(self.app.console, w))
        notes = private_notes(view)
        if notes.cell_len:
            canvas_rows += list(notes.wrap(self.app.console, w))
        return canvas_rows

    @classmethod
    def holds_finished_trick(cls, obs: AnyView) -> bool:
        return held_plays(obs) is not None

    @classmethod
    def trick_word(cls, obs: AnyView) -> str:
        # 2v1 is played in hands (its observation has a last hand, never a last trick)
        return "hand" if isinstance(obs, TwoVOneView) else "trick"

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        obs = view.obs
        last = obs.last_trick if isinstance(obs, TricksView) else None
        out = Text()
        if last:
            out.append(f"Trick {last.number}\n", style="bold")
            for s, c in last.plays:
                mark = "★ " if s == last.winner else "  "
                out.append(f"{mark}{view.names[s]}: ")
                out.append_text(chips([c], view.face))
                out.append("\n")
        hand = obs.last_hand if isinstance(obs, TwoVOneView) else None
        if not last and hand and isinstance(obs, TwoVOneView) and obs.lone is not None:
            lone = obs.lone
            out.append(f"Hand {hand.hand}\n", style="bold")
            out.append(f"{view.names[lone]} (lone): ")
            out.append_text(chips(list(hand.lone), view.face))
            out.append(f"  = {hand.lone_value} ({hand.lone_reason})\n")
            duo = hand.duo
            out.append("The duo: ")
            out.append_text(chips([c for _, c in duo], view.face))
            out.append(f"  = {hand.duo_value} ({hand.duo_reason})\n")
        if not out.cell_len:
            return None
        entry = view.history_entry("trick", "hand")
        if entry is not None:
            out.append(entry.text, style="bold")
        return out
