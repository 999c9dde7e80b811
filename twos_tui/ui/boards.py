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

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.geometry import Size
from textual.widget import Widget

from ..engine.climbing import describe_kind
from ..engine.words import says
from ..play.seat_view import SeatView
from .cardart import CARD_H, Canvas, best_stride, chips, fan_width
from .widgets import SeatPanel

HIDDEN_NOTE = "The table is hidden until the next player is at the screen."


@dataclass
class TableView:
    """What a board needs to draw the table for the player at the screen."""

    game: SeatView
    #: the observation of ``me``, or (``public``) the public view; None: the table is
    #: hidden between hot-seat players
    obs: dict[str, Any] | None
    me: int  #: the seat drawn at the bottom (``public``: a neutral seat, no hand)
    ai: list[bool] = field(default_factory=list)
    thinking: int | None = None  #: an AI seat deciding now
    framed: bool = False  #: room for framed cards
    flash: bool = False  #: a bomb or a catch just happened: highlight it
    #: per seat, a word on who plays it beyond the AI mark ("remote", "dropped: seat
    #: held 1:40", "free: waiting for a player"...), or ""
    notes: list[str] = field(default_factory=list)
    #: ``obs`` is the public view (a spectator, no seat at this screen): every seat is
    #: drawn as an opponent's is, ``me`` included, and no hand is shown
    public: bool = False

    def tags(self, seat: int, tags: list[str]) -> list[str]:
        """A seat's tags with its note, if it has one."""
        note = self.notes[seat] if seat < len(self.notes) else ""
        return [*tags, note] if note else list(tags)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return self.game.names[seat]

    def face(self, code: str):
        return self.game.card_face(code)

    def history_entry(self, *kinds: str) -> dict[str, Any] | None:
        """The newest log entry of one of ``kinds``."""
        for entry in reversed((self.obs or {}).get("history", [])):
            if entry.get("kind") in kinds:
                return entry
        return None


def private_notes(view: TableView) -> Text:
    """Facts only the seat at the screen knows, some variants add to its observation
    (2v1: the face-down card, the cards chosen to pass, the cards received)."""
    obs = view.obs or {}
    out = Text()

    def add(label: str, codes: list[str]) -> None:
        if out.cell_len:
            out.append("  ")
        out.append(label + " ", style="dim")
        out.append_text(chips(codes, view.face))

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
    return out


def _fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells with an ellipsis."""
    if text.cell_len <= width:
        return text
    out = text.copy()
    out.truncate(max(1, width - 1))
    out.append("…")
    return out


class Board(Widget):
    """Base of the family boards."""

    family: ClassVar[str] = ""

    def __init__(self, game: SeatView, **kw: Any) -> None:
        super().__init__(**kw)
        self.game = game
        self.view: TableView | None = None

    def show(self, view: TableView) -> None:
        self.view = view
        self.refresh(layout=True)

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        """The last finished trick (or 2v1 hand) in full, or None if there is none."""
        return None

    @classmethod
    def trick_word(cls, obs: dict[str, Any]) -> str:
        """What the game calls what :meth:`last_trick` shows: "trick" (2v1: "hand")."""
        return "trick"

    @classmethod
    def holds_finished_trick(cls, obs: dict[str, Any]) -> bool:
        """Nothing new is on the table and the trick just finished is on show."""
        return False


# ---------------------------------------------------------------------------------------
# climbing games
# ---------------------------------------------------------------------------------------


def play_label(entry: dict[str, Any]) -> str:
    """What a play is, in the words the log uses ("bomb 2×3", "full house")."""
    return entry.get("label") or describe_kind(entry.get("kind") or "")


def climbing_caption(view: TableView, last: dict[str, Any], leads: bool = True) -> Text:
    """ "Ana won the trick with pair 9♦ 9♣" from ``last_trick``, then (``leads``)
    "Ana leads." on a line of its own; the table leaves that out, as its status line
    already says who leads. The cards end their line: no punctuation runs into the
    chips' padding."""
    plays = [p for p in last.get("plays", []) if not p.get("pass")]
    winner = last.get("winner")
    t = Text()
    t.append(f"{view.name(winner)} won the trick", style="bold")
    if plays:
        top = plays[-1]
        # the chips carry their own padding: one space before them would read as two
        t.append(f" with {play_label(top)}")
        t.append_text(chips(list(top.get("cards", [])), view.face))
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

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.view: TableView | None = None
        self.border_title = "Table"

    def show(self, view: TableView) -> None:
        self.view = view
        self.set_class(view.flash, "flash")
        self.refresh()

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        if view.obs is None:
            return Text(HIDDEN_NOTE, style="italic")
        obs = view.obs
        width = max(10, self.content_region.width)
        height = max(1, self.content_region.height)
        entries = obs.get("trick")
        if entries is None:
            entries = obs.get("table", [])
        held = False
        last = obs.get("last_trick")
        if not entries and last and not obs.get("deal_over"):
            entries = last.get("plays", [])
            held = True
        foot = Text()
        if held and last:
            foot.append_text(climbing_caption(view, last, leads=False))
            foot.append("\n")
        foot.append(obs.get("status", ""), style="dim")
        notes = private_notes(view)
        if notes.cell_len:
            foot.append("\n")
            foot.append_text(notes)
        foot_lines = len(foot.wrap(self.app.console, width))
        room = max(1, height - foot_lines)
        plays = [i for i, e in enumerate(entries) if not e.get("pass")]
        last_play = plays[-1] if plays else None
        big: Text | None = None
        if view.framed and last_play is not None and room >= CARD_H + 2:
            cards = list(entries[last_play].get("cards", []))
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
            seat = e.get("seat")
            line = Text()
            mark = "★ " if held and i == last_play else ("▶ " if i == last_play else "  ")
            line.append(mark + f"{view.name(seat)}: ", style="bold")
            if e.get("pass"):
                line.append("pass", style="italic")
            else:
                line.append_text(chips(list(e.get("cards", [])), view.face))
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
            self.call_after_refresh(self.show, self.view)

    def show(self, view: TableView) -> None:
        self.view = view
        if not self.query(TrickPlays) or len(self.query(SeatPanel)) < self.game.players:
            return  # not composed yet (shown once mounted), or being taken down
        obs = view.obs
        g = self.game
        last = self.query_one(f"#opp-{g.players - 1}", SeatPanel)
        if last.display != view.public:
            last.display = view.public
        if obs is not None:
            to_act = set(obs.get("to_act", ()))
            counts = obs.get("hand_counts") or [None] * g.players
            tags = obs.get("seat_tags") or [[] for _ in range(g.players)]
            first = 0 if view.public else 1  # the public view: ``me`` has a panel too
            order = [(view.me + k) % g.players for k in range(first, g.players)]
            for i, seat in enumerate(order):
                self.query_one(f"#opp-{i}", SeatPanel).show(
                    g.names[seat],
                    counts[seat],
                    view.tags(seat, list(tags[seat])),
                    seat in to_act,
                    [],
                    view.ai[seat] if seat < len(view.ai) else False,
                    view.thinking == seat,
                    name_first=view.public,  # every seat in the row: narrower boxes
                )
        self.query_one(TrickPlays).show(view)

    @classmethod
    def holds_finished_trick(cls, obs: dict[str, Any]) -> bool:
        return not obs.get("trick") and bool(obs.get("last_trick"))

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        obs = view.obs or {}
        trick = obs.get("trick") or []
        if view.game.deal_over and any(not e.get("pass") for e in trick):
            # the deal ended in the middle of a trick (a player went out): that trick is
            # the deal's last one
            out = cls._plays_text(view, trick)
            out_seat = [e for e in trick if not e.get("pass")][-1].get("seat")
            out.append(
                f"{view.name(out_seat)} went out; the {view.game.deal_word} is over.",
                style="bold",
            )
            return out
        last = obs.get("last_trick")
        if not last:
            return None
        out = cls._plays_text(view, last.get("plays", []))
        out.append_text(climbing_caption(view, last))
        return out

    @staticmethod
    def _plays_text(view: TableView, plays: list[dict[str, Any]]) -> Text:
        out = Text()
        for e in plays:
            out.append(f"{view.name(e.get('seat'))}: ", style="bold")
            if e.get("pass"):
                out.append("pass", style="italic")
            else:
                out.append_text(chips(list(e.get("cards", [])), view.face))
                out.append(f"  {play_label(e)}", style="italic")
            out.append("\n")
        return out


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


def held_plays(obs: dict[str, Any]) -> tuple[dict[int, list[str]], int | None, str] | None:
    """The finished trick (Twos tricks) or 2v1 hand to keep on the table while nothing
    new is on it: (cards by seat, the winning seat or None, label)."""
    if obs.get("table"):
        return None
    last = obs.get("last_trick")
    if last:
        plays = {int(s): [c] for s, c in last.get("plays", [])}
        return plays, last.get("winner"), "won"
    hand = obs.get("last_hand")
    if hand and obs.get("lone") is not None:
        plays = {int(obs["lone"]): list(hand.get("lone", []))}
        for s, c in hand.get("duo", []):
            plays[int(s)] = [c]
        winner = obs["lone"] if hand.get("winner") == "lone" else None
        return plays, winner, f"{hand.get('winner', '')} wins"
    return None


def _widen(canvas: Canvas, extra: int) -> Canvas:
    """``canvas`` with ``extra`` blank columns on its right."""
    wider = Canvas(canvas.width + extra, canvas.height)
    for y in range(canvas.height):
        wider.chars[y][: canvas.width] = canvas.chars[y]
        wider.styles[y][: canvas.width] = canvas.styles[y]
    return wider


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

    def show(self, view: TableView) -> None:
        self.set_class(view.flash, "flash")
        super().show(view)

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
        to_act = set(obs.get("to_act", ()))
        counts = obs.get("hand_counts") or [None] * g.players
        tags = obs.get("seat_tags") or [[] for _ in range(g.players)]
        played: dict[int, tuple[list[str], str]] = {}
        table = obs.get("table", [])
        for e in table:
            played[e.get("seat")] = (list(e.get("cards", [])), e.get("label") or "")
        newest = table[-1].get("seat") if table else None
        caption = Text()
        winner = None
        held = held_plays(obs)
        if held is not None:
            by_seat, winner, _ = held
            played = {s: (c, "") for s, c in by_seat.items()}
            entry = view.history_entry("trick", "hand")
            if entry is not None:
                caption = Text(str(entry.get("text", "")), style="bold")
        out = {}
        for seat, pos in trick_positions(g.players, view.me).items():
            cards, label = played.get(seat, ([], ""))
            mark = "★" if held is not None and seat == winner else ""
            if held is None and seat == newest:
                mark = "▶"
            out[pos] = CompassSeat(
                g.names[seat],
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

        def cards_block(s: CompassSeat, width: int) -> list[Text]:
            """A seat's played cards: framed (4 rows) or a chip line."""
            if not framed:
                return [self._play(s, dim)]
            if not s.cards:
                return [Text("")] * (CARD_H // 2) + [Text("·", style="dim")] + [Text("")]
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
            return list(t.split("\n"))

        n = seats.get("north")
        if n is not None:
            canvas_rows += [centred(n.title()), centred(n.info())]
            canvas_rows += [centred(x) for x in cards_block(n, w)]
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
            wb = cards_block(we, half) if we else []
            eb = cards_block(ea, half) if ea else []
            rows = max(len(wb), len(eb))
            for r in range(rows):
                left = wb[r] if r < len(wb) else Text("")
                right = eb[r] if r < len(eb) else Text("")
                lpad = max(0, w // 4 - max(1, left.cell_len) // 2)
                line = Text(" " * lpad) + _fit(left, half)
                rpos = max(line.cell_len + 1, 3 * w // 4 - max(1, right.cell_len) // 2)
                line.append(" " * (rpos - line.cell_len))
                line.append_text(_fit(right, w - rpos))
                canvas_rows.append(line)
        s = seats.get("south")
        if s is not None and view.public:
            # a spectator: the bottom seat is a player like the others, drawn as north
            # is (its name, cards left and tags under the card it played)
            canvas_rows += [centred(x) for x in cards_block(s, w)]
            canvas_rows += [centred(s.title()), centred(s.info())]
        elif s is not None:
            block = cards_block(s, w // 2)
            me = Text(s.name, style="bold")
            if s.turn:
                me = Text("▶ ", style="bold yellow") + Text(s.name, style="bold reverse")
            mid = len(block) // 2
            for r, row in enumerate(block):
                canvas_rows.append(centred(row + (Text("  ") + me if r == mid else Text(""))))
        if caption.cell_len:
            canvas_rows += list(caption.wrap(self.app.console, w))
        obs = view.obs
        status = Text(obs.get("status", ""), style="dim")
        canvas_rows += list(status.wrap(self.app.console, w))
        notes = private_notes(view)
        if notes.cell_len:
            canvas_rows += list(notes.wrap(self.app.console, w))
        return canvas_rows

    @classmethod
    def holds_finished_trick(cls, obs: dict[str, Any]) -> bool:
        return held_plays(obs) is not None

    @classmethod
    def trick_word(cls, obs: dict[str, Any]) -> str:
        # 2v1 is played in hands (its observation has a last hand, never a last trick)
        return "hand" if "last_hand" in obs and "last_trick" not in obs else "trick"

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        obs = view.obs or {}
        g = view.game
        last = obs.get("last_trick")
        out = Text()
        if last:
            out.append(f"Trick {last.get('number', '')}\n", style="bold")
            for s, c in last.get("plays", []):
                mark = "★ " if s == last.get("winner") else "  "
                out.append(f"{mark}{g.names[s]}: ")
                out.append_text(chips([c], view.face))
                out.append("\n")
        hand = obs.get("last_hand")
        if not last and hand and obs.get("lone") is not None:
            lone = obs["lone"]
            out.append(f"Hand {hand.get('hand', '')}\n", style="bold")
            out.append(f"{g.names[lone]} (lone): ")
            out.append_text(chips(list(hand.get("lone", [])), view.face))
            out.append(f"  = {hand.get('lone_value')} ({hand.get('lone_reason')})\n")
            duo = hand.get("duo", [])
            out.append("The duo: ")
            out.append_text(chips([c for _, c in duo], view.face))
            out.append(f"  = {hand.get('duo_value')} ({hand.get('duo_reason')})\n")
        if not out.cell_len:
            return None
        entry = view.history_entry("trick", "hand")
        if entry is not None:
            out.append(str(entry.get("text", "")), style="bold")
        return out


BOARDS: dict[str, type[Board]] = {b.family: b for b in (ClimbingBoard, TrickBoard)}


def board_for(game: SeatView, **kw: Any) -> Board:
    """The board of ``game``'s family."""
    return BOARDS[game.family](game, **kw)


__all__ = [
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
