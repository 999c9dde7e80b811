"""The table as the seats at one screen see it: the one interface the table screen talks to.

A table screen never holds the :class:`~twos_tui.engine.Game` itself. It holds a
:class:`SeatView`, which answers what the screen may ask — each visible seat's
observation, the decision of a seat it plays for, whether a move is legal and what it
is, the public log, the scores — and takes the moves of the seats it plays for. Two
kinds implement it:

* :class:`LocalSeatView` — a match on this computer (:class:`~.session.Session`): against
  the AI, hot seat, a demo, or the host's own seat at a hosted table. The AI seats are
  driven by the screen (their turns run on a worker), and the view may show every person's
  hand at this screen (hot seat hides them between turns itself).
* ``RemoteSeatView`` (:mod:`twos_tui.play.net.client`) — one seat of a table hosted on
  another computer: everything comes from the host's messages, which hold that seat's view
  only; moves go to the host, which checks and applies them.

What does not depend on the state of play (card faces, sorting, the rules' wording, the
house rules) comes from :attr:`SeatView.rules`, a fresh game of the same variant,
players and options that never leaves its first position.

The screen cannot tell the two apart, and so cannot leak the difference: a remote view
simply has no other seat's hand to give.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from ..engine import Action, Decision, Game, new_game
from ..engine.cards import CardFace
from ..engine.observation import LogEntry
from ..engine.protocol import DealResult, OptionSpec
from ..engine.views import AnyView, LogLine
from ..jsontypes import JsonObject
from .sight import Hidden, OwnView, PublicView, Sight

if TYPE_CHECKING:
    from .session import Session
    from .turn_clock import ClockState

HUMAN = "human"
AI = "ai"
REMOTE = "remote"


class NotVisible(PermissionError):
    """A view was asked for a seat's hand it may not show."""


class SeatInfoJson(TypedDict):
    """A :class:`SeatInfo` as JSON (a hosted table's seat list)."""

    name: str
    kind: str
    level: str
    connected: bool
    note: str


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat, as every player may know it."""

    name: str
    kind: str = HUMAN  #: "human" (at a screen of this computer), "ai" or "remote"
    level: str = ""  #: the AI's level ("" for people)
    connected: bool = True  #: a remote seat whose player is at the table now
    note: str = ""  #: e.g. "AI plays for them" when a dropped seat was taken over

    @property
    def is_ai(self) -> bool:
        return self.kind == AI

    @property
    def held(self) -> bool:
        """A person's seat held for them after they dropped ("dropped: seat held 1:40"):
        its clock is not shown meanwhile, only the hold (their own figures come back
        when they return)."""
        return self.kind != AI and not self.connected and self.note.startswith("dropped")

    def to_json(self) -> SeatInfoJson:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "connected": self.connected,
            "note": self.note,
        }


def rules_game(
    variant_id: str, players: int, options: Mapping[str, object], names: list[str]
) -> Game:
    """A game of this variant and options, only for what does not depend on the state."""
    return new_game(variant_id, players, dict(options), 0, list(names))


class SeatView(ABC):
    """One screen's view of a table (see the module's docstring).

    It looks like a game to the screen — ``names``, ``players``, ``deal_word``,
    ``card_face``... come from :attr:`rules`; ``observation``, ``decision``, ``check``,
    ``history``... from the table as these seats see it — so the boards and dialogs draw
    it without knowing where it is played."""

    rules: Game  #: the same variant, players and options, at its first position
    #: a short line about the table for the screen's title (a hosted table: its join code)
    banner: str | None = None

    # ----- who sits where ---------------------------------------------------------------
    @property
    @abstractmethod
    def seats(self) -> list[SeatInfo]:
        """Every seat, as every player may know it."""

    @property
    @abstractmethod
    def controls(self) -> tuple[int, ...]:
        """The seats whose moves are made at this screen (its people)."""

    @property
    @abstractmethod
    def visible(self) -> tuple[int, ...]:
        """The seats whose hands this screen may show."""

    @property
    def remote(self) -> bool:
        """The table is hosted elsewhere: this screen only plays its own seat."""
        return False

    @property
    def humans(self) -> list[int]:
        """The seats played by people at this screen."""
        return list(self.controls)

    @property
    def hot_seat(self) -> bool:
        """Two or more people share this screen: hands are hidden between their turns."""
        return len(self.controls) >= 2

    @property
    def people_at_table(self) -> int:
        """People at the table, at this screen or elsewhere (undo is off with two or more)."""
        return sum(1 for s in self.seats if not s.is_ai)

    # ----- what does not depend on the state: from the rules --------------------------
    @property
    def variant_id(self) -> str:
        return self.rules.variant_id

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def summary(self) -> str:
        return self.rules.summary

    @property
    def family(self) -> str:
        return self.rules.family

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def options(self) -> JsonObject:
        """The house rules in force, by option id (as JSON: they go into saves and
        messages as they are)."""
        return self.rules.options

    @property
    def names(self) -> list[str]:
        return self.rules.names

    @property
    def deal_word(self) -> str:
        return self.rules.deal_word

    @property
    def score_label(self) -> str:
        return self.rules.score_label

    @property
    def low_score_wins(self) -> bool:
        return self.rules.low_score_wins

    @property
    def hand_size(self) -> Any:
        return getattr(self.rules, "hand_size", None)

    def card_face(self, code: str) -> CardFace:
        return self.rules.card_face(code)

    def sort_cards(self, codes: list[str], by: str = "rank") -> list[str]:
        return self.rules.sort_cards(codes, by)

    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        return self.rules.card_sort_key(code, by)

    def deck_cards(self) -> list[str]:
        return self.rules.deck_cards()

    def target_text(self) -> str:
        return self.rules.target_text()

    def rules_summary(self) -> list[str]:
        return self.rules.rules_summary()

    def option_specs(self, players: int | None = None) -> tuple[OptionSpec, ...]:
        return self.rules.option_specs(self.players if players is None else players)

    # ----- the state of play, as these seats see it -------------------------------------
    @abstractmethod
    def observation(self, seat: int) -> AnyView:
        """Everything ``seat`` may know, typed (:mod:`twos_tui.engine.views`);
        :class:`NotVisible` for a seat not in :attr:`visible`."""

    def public_observation(self) -> AnyView | None:
        """The public view — what every player sees, with no hand (``seat`` None) — for
        a screen that watches the table with no seat of its own (a spectator); ``None``
        where this screen plays a seat. (A hot-seat table hidden between its players
        is not a public view: it shows nothing.)"""
        return None

    def sight(self, seat: int | None) -> Sight:
        """What this screen shows, in one of the three cases (:mod:`.sight`): ``seat``'s
        own view (a seat played at this screen), else the public view (a spectator),
        else nothing (a hot-seat table between its players)."""
        if seat is not None:
            return OwnView(self.observation(seat))
        public = self.public_observation()
        return Hidden() if public is None else PublicView(public)

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (public)."""

    @abstractmethod
    def decision(self, seat: int) -> Decision | None:
        """What ``seat`` (one this screen plays for) is asked now, or ``None``."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """The moves ``seat`` (one this screen plays for) may make now."""

    @abstractmethod
    def check(self, seat: int, action: Action) -> str | None:
        """``None`` if ``seat`` may make ``action`` now, else the reason in words."""

    @abstractmethod
    def describe(self, seat: int, action: Action) -> str | None:
        """A legal ``action`` in a few words, for the preview."""

    @abstractmethod
    def act(self, seat: int, action: Action) -> None:
        """Make ``seat``'s move (raises ``IllegalAction`` with the reason; nothing
        changes then)."""

    @property
    @abstractmethod
    def history(self) -> Sequence[LogLine]:
        """The public log, typed (each line a :class:`~twos_tui.engine.views.LogLine`)."""

    @property
    @abstractmethod
    def action_count(self) -> int:
        """How many moves the match has had: changes with every move."""

    @property
    @abstractmethod
    def deal_number(self) -> int: ...

    @property
    @abstractmethod
    def deal_over(self) -> bool: ...

    @property
    @abstractmethod
    def match_over(self) -> bool: ...

    @property
    @abstractmethod
    def totals(self) -> list[int]: ...

    @property
    @abstractmethod
    def results(self) -> list[DealResult]: ...

    @property
    def last_result(self) -> DealResult | None:
        return self.results[-1] if self.results else None

    def match_winners(self) -> list[int]:
        """The seats that won the match (when it is over)."""
        totals = self.totals
        best = min(totals) if self.low_score_wins else max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    # ----- who moves --------------------------------------------------------------------
    def ai_to_act(self) -> list[int]:
        """AI seats whose move this screen must make (none at a remote view)."""
        return []

    def humans_to_act(self) -> list[int]:
        """The seats of this screen's people that must act now."""
        mine = set(self.controls)
        return [s for s in self.to_act() if s in mine]

    # ----- between deals, undo, hints, saving -------------------------------------------
    @abstractmethod
    def next_deal(self) -> None:
        """Go on to the next deal (a remote view says it is ready; the host starts the
        deal when every person at the table is)."""

    def waiting_for(self) -> str | None:
        """Whom the table waits for before anything can happen (e.g. players to
        reconnect, others to be ready for the next deal), in words; ``None``."""
        return None

    def can_undo(self) -> str | None:
        return "Undo is not available here."

    def undo(self) -> int:
        from .tracker import UndoRefused

        raise UndoRefused(self.can_undo() or "Undo is not available here.")

    def count_hint(self, seat: int) -> None:
        """A hint was shown to ``seat`` in this deal (counted where it is kept)."""
        return None

    def hints_this_deal(self) -> dict[str, int]:
        return {}

    # ----- spectators and chat (tables with players on other computers) ----------------
    @property
    def watching(self) -> bool:
        """This screen watches the table (a spectator: no hand, no moves)."""
        return False

    @property
    def can_chat(self) -> bool:
        """Chat lines can be said at this table (players on other computers)."""
        return False

    def send_chat(self, text: str) -> str | None:
        """Say ``text`` to everybody at the table; the reason when it is refused."""
        return "Chat is for tables with players on other computers."

    @property
    def can_sit(self) -> bool:
        """A spectator may take a free seat now."""
        return False

    def sit(self) -> str | None:
        """Take a free seat (a spectator); the reason when refused."""
        return "There is no seat to take here."

    @property
    def can_leave_seat(self) -> bool:
        """This screen's player may leave the seat to watch instead."""
        return False

    def leave_seat(self) -> str | None:
        """Leave the seat and watch; the reason when refused."""
        return "You cannot leave your seat here."

    @property
    def hint_seed(self) -> str:
        """Seeds the hint's generator for one position (never the deal's own seed)."""
        return f"{self.deal_number}:{self.action_count}"

    @property
    def save_error(self) -> str | None:
        """A new failure to save, to show once."""
        return None

    def again(self) -> SeatView | None:
        """The same table with the next deal's seed, for "play again" (``None``: not
        offered here)."""
        return None

    @property
    def can_play_again(self) -> bool:
        """:meth:`again` is offered at the end of the match."""
        return False

    def clock_now(self) -> ClockState | None:
        """The table's turn clock as it stands now, every seat's (``None``: no clock;
        see :mod:`~twos_tui.play.turn_clock`)."""
        return None

    def table_info(self) -> list[str]:
        """Lines about the table for its info dialog (a hosted table: the join code, the
        addresses and the command to give friends; a joined one: the host)."""
        return []

    def close(self) -> None:
        """The screen leaves the table."""
        return None

    # ----- changes made elsewhere ---------------------------------------------------------
    def set_listener(self, listener: Callable[[], None] | None) -> None:
        """``listener`` is called (on any thread) when the table changed by a move not
        made at this screen (another computer's player, the host's AI)."""
        self._listener = listener

    def changed_elsewhere(self) -> None:
        listener = getattr(self, "_listener", None)
        if listener is not None:
            listener()


class LocalSeatView(SeatView):
    """A match on this computer: the session's game, seen by the people at this screen
    (every seat, in a demo with no person)."""

    def __init__(self, session: Session, remote_seats: tuple[int, ...] = ()) -> None:
        self.session = session
        g = session.game
        self.rules = rules_game(g.variant_id, g.players, g.options, g.names)
        #: seats played from other computers (a hosted table): never shown, never moved here
        self.remote_seats = tuple(remote_seats)
        self._seat_notes: dict[int, str] = {}
        self._connected: dict[int, bool] = {}
        #: the match's log typed, line by line as it grows (``_log_of``: the list read)
        self._log: list[LogLine] = []
        self._log_of: list[LogEntry] | None = None

    # ----- who sits where ---------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def seats(self) -> list[SeatInfo]:
        out = []
        for i, s in enumerate(self.session.seats):
            if i in self.remote_seats:
                out.append(
                    SeatInfo(
                        s.name,
                        REMOTE,
                        "",
                        self._connected.get(i, False),
                        self._seat_notes.get(i, ""),
                    )
                )
            else:
                out.append(SeatInfo(s.name, AI if s.is_ai else HUMAN, s.level if s.is_ai else ""))
        return out

    def set_remote_state(self, seat: int, connected: bool, note: str = "") -> None:
        """A hosted table's server says how a remote seat stands."""
        self._connected[seat] = connected
        self._seat_notes[seat] = note

    @property
    def controls(self) -> tuple[int, ...]:
        return tuple(
            i
            for i, s in enumerate(self.session.seats)
            if not s.is_ai and i not in self.remote_seats
        )

    @property
    def visible(self) -> tuple[int, ...]:
        if not self.controls and not self.remote_seats:
            return tuple(range(self.players))  # a demo: follow any seat
        return self.controls

    @property
    def people_at_table(self) -> int:
        return len(self.controls) + len(self.remote_seats)

    # ----- the state of play -------------------------------------------------------------
    def observation(self, seat: int) -> AnyView:
        if seat not in self.visible:
            raise NotVisible(f"seat {seat} is not shown at this screen")
        return self.game.observe(seat)

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act()

    def decision(self, seat: int) -> Decision | None:
        if seat not in self.controls:
            return None
        return self.game.decision(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.controls:
            return []
        return self.game.legal_actions(seat)

    def check(self, seat: int, action: Action) -> str | None:
        if seat not in self.controls:
            return "That seat is not played at this screen."
        return self.game.check(seat, action)

    def describe(self, seat: int, action: Action) -> str | None:
        if seat not in self.controls:
            return None
        return self.game.describe(seat, action)

    def act(self, seat: int, action: Action) -> None:
        from ..engine import IllegalAction

        if seat not in self.controls:
            raise IllegalAction("That seat is not played at this screen.")
        self.session.apply(seat, action)

    @property
    def history(self) -> Sequence[LogLine]:
        raw = self.game.history
        if self._log_of is not raw or len(self._log) > len(raw):
            # another game (a new match, an undo's replay) or a shorter log: read again
            self._log_of, self._log = raw, []
        if len(self._log) < len(raw):
            self._log.extend(LogLine.from_json(e, "log") for e in raw[len(self._log) :])
        return self._log

    @property
    def action_count(self) -> int:
        return len(self.game.actions)

    @property
    def deal_number(self) -> int:
        return self.game.deal_number

    @property
    def deal_over(self) -> bool:
        return self.game.deal_over

    @property
    def match_over(self) -> bool:
        return self.game.match_over

    @property
    def totals(self) -> list[int]:
        return self.game.totals

    @property
    def results(self) -> list[DealResult]:
        return self.game.results

    def match_winners(self) -> list[int]:
        return self.game.match_winners()

    # ----- who moves ---------------------------------------------------------------------
    def ai_to_act(self) -> list[int]:
        return [s for s in self.session.ai_to_act() if s not in self.remote_seats]

    # ----- between deals, undo, hints, saving -------------------------------------------
    def next_deal(self) -> None:
        self.session.next_deal()

    def can_undo(self) -> str | None:
        if self.remote_seats:
            return "Undo is off at a table with players on other computers."
        return self.session.can_undo()

    def undo(self) -> int:
        from .tracker import UndoRefused

        if self.remote_seats:
            raise UndoRefused("Undo is off at a table with players on other computers.")
        return self.session.undo()

    def count_hint(self, seat: int) -> None:
        self.session.count_hint(seat)

    def hints_this_deal(self) -> dict[str, int]:
        return self.session.hints_this_deal()

    @property
    def hint_seed(self) -> str:
        # the same position always gives the same hint (a hint asked twice does not
        # change, and a replayed game hints alike)
        g = self.game
        return f"{g.seed}:{g.deal_number}:{len(g.actions)}"

    @property
    def save_error(self) -> str | None:
        return self.session.save_error

    def again(self) -> SeatView | None:
        if self.remote_seats:
            return None
        return LocalSeatView(self.session.again())

    @property
    def can_play_again(self) -> bool:
        return not self.remote_seats

    def close(self) -> None:
        self.session.close()

    def hint_rng(self, seat: int) -> random.Random:
        return random.Random(f"twos-tui-hint:{self.hint_seed}:{seat}")


def with_chat(
    log: Sequence[LogLine | LogEntry], chat: Sequence[LogLine], deal: int | None
) -> list[LogLine | LogEntry]:
    """``log`` with the chat lines of ``deal`` placed where they were said (each chat
    line's ``anchor``: how long the log was then)."""
    lines = [c for c in chat if c.deal == deal]
    if not lines:
        return list(log)
    out: list[LogLine | LogEntry] = []
    i = 0
    for at, entry in enumerate(log):
        while i < len(lines) and (lines[i].anchor or 0) <= at:
            out.append(lines[i])
            i += 1
        out.append(entry)
    out.extend(lines[i:])
    return out


def log_lines(log: Sequence[LogLine | LogEntry]) -> tuple[LogLine, ...]:
    """A log with chat lines (:func:`with_chat`) as typed lines: each entry a
    :class:`~twos_tui.engine.views.LogLine` already, or its JSON (a chat line, a host's
    log entry) read into one."""
    return tuple(e if isinstance(e, LogLine) else LogLine.from_json(e, "log") for e in log)
