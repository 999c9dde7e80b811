"""What every family's board shares: the view it draws (:class:`TableView`), the
base :class:`Board` and the seat's private notes (see :mod:`.boards`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..engine.cards import CardFace
from ..engine.views import (
    AnyView,
    LogLine,
    TwoVOneView,
)
from ..play.seat_view import SeatView
from .cardart import chips

HIDDEN_NOTE = "The table is hidden until the next player is at the screen."


@dataclass
class TableView:
    """What a board needs to draw the table for the player at the screen.

    Two views are equal when they would draw the same table (the same game, the same
    observation, the same seats' names and notes...): a board shown an equal view draws
    nothing again (see :attr:`Board.view`)."""

    game: SeatView
    #: the observation of ``me``, or (``public``) the public view; None: the table is
    #: hidden between hot-seat players
    obs: AnyView | None
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
    #: the seats' names as they are now (a joined table's can change): taken from
    #: ``game`` when left out
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.names:
            self.names = tuple(self.game.names)

    def tags(self, seat: int, tags: list[str]) -> list[str]:
        """A seat's tags with its note, if it has one."""
        note = self.notes[seat] if seat < len(self.notes) else ""
        return [*tags, note] if note else list(tags)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return self.names[seat]

    def face(self, code: str) -> CardFace:
        return self.game.card_face(code)

    def history_entry(self, *kinds: str) -> LogLine | None:
        """The newest log entry of one of ``kinds``."""
        for entry in reversed(self.obs.history if self.obs is not None else ()):
            if entry.kind in kinds:
                return entry
        return None


def private_notes(view: TableView) -> Text:
    """Facts only the seat at the screen knows, some variants add to its observation
    (2v1: the face-down card, the cards chosen to pass, the cards received)."""
    obs = view.obs
    out = Text()
    if not isinstance(obs, TwoVOneView):
        return out

    def add(label: str, codes: list[str]) -> None:
        if out.cell_len:
            out.append("  ")
        out.append(label + " ", style="dim")
        out.append_text(chips(codes, view.face))

    if obs.my_face_down:
        add("Your face-down card:", [obs.my_face_down])
    if obs.my_choice:
        add("Your choice:", list(obs.my_choice))
    if obs.received:
        add("Received:", list(obs.received))
    if obs.blindfold:
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
    """Base of the family boards.

    The screen hands the board the whole :class:`TableView` (:meth:`show`); the board
    keeps it in the reactive :attr:`view`, which Textual compares with the view shown
    (frozen observations compare by value): only a view that differs reaches
    :meth:`draw`, so an unchanged table costs no repaint."""

    family: ClassVar[str] = ""

    #: the table drawn now (None: not shown yet)
    view: reactive[TableView | None] = reactive(None, init=False, repaint=False)

    def __init__(self, game: SeatView, **kw: Any) -> None:
        super().__init__(**kw)
        self.game = game
        self.resized = False  #: the last :meth:`show` may have changed a size

    def show(self, view: TableView) -> bool:
        """Show ``view`` (drawn only when it differs from the one shown); True when what
        was drawn may have changed a size (the screen then lays itself out once)."""
        self.resized = False
        self.view = view  # (drawn by watch_view only when it differs)
        return self.resized

    def watch_view(self, view: TableView | None) -> None:
        if view is not None:
            self.resized = self.draw(view)

    def draw(self, view: TableView) -> bool:
        """Draw a view that differs from the one shown; True when a size may have
        changed. By default: repaint the board and lay it out again (its height follows
        what it shows)."""
        self.refresh(layout=True)
        return True

    @classmethod
    def last_trick(cls, view: TableView) -> Text | None:
        """The last finished trick (or 2v1 hand) in full, or None if there is none."""
        return None

    @classmethod
    def trick_word(cls, obs: AnyView) -> str:
        """What the game calls what :meth:`last_trick` shows: "trick" (2v1: "hand")."""
        return "trick"

    @classmethod
    def holds_finished_trick(cls, obs: AnyView) -> bool:
        """Nothing new is on the table and the trick just finished is on show."""
        return False
