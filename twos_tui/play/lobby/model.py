"""The lobby's types, shared by the server (:mod:`.server`), the store (:mod:`.store`),
the client link and the lobby screen: what a lobby shows (:class:`LobbyState`), what a
player asks of it (:data:`LobbyRequest`), what it answers (:data:`LobbyEvent`), and what
the store keeps (:class:`Account`, :class:`Rating`, :class:`MatchOutcome`,
:class:`TableRecord`).

None of these ever holds a card: a lobby listing says who sits where and how they are
rated, never what anyone holds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

# --- what the lobby shows ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a listed table: empty (``name`` None), a player, or an AI."""

    name: str | None
    rating: float | None = None  #: the player's displayed rating in this game (None: unrated)
    ai_level: str | None = None  #: "easy"/"normal"/"hard" for an AI seat, else None
    connected: bool = True


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One table in the lobby's list."""

    table_id: str
    game: str  #: the variant id (``twos``, ``big_two``, ...)
    players: int
    rules: str  #: the house rules in short words ("" for the defaults)
    seats: tuple[SeatInfo, ...]
    spectators: int
    public: bool
    rated: bool
    clock: str  #: "20 s + 2 min", or "" for no clock
    started: bool


@dataclass(frozen=True, slots=True)
class RatingInfo:
    game: str
    rating: float  #: the displayed rating (OpenSkill ordinal, scaled)
    matches: int
    rank: int | None  #: place on the game's leaderboard, None when not on it


@dataclass(frozen=True, slots=True)
class ResultInfo:
    game: str
    when: float  #: unix time the match ended
    place: int  #: 1 = won
    players: int
    rating_change: float | None  #: None for an unrated match


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    name: str
    guest: bool
    ratings: tuple[RatingInfo, ...]
    recent: tuple[ResultInfo, ...]


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    name: str
    rating: float
    matches: int


@dataclass(frozen=True, slots=True)
class QueueInfo:
    """The player's place in a quick-match queue."""

    game: str
    players: int
    waiting: int  #: humans in this queue now, the player included
    wait_s: float  #: after this long the empty seats get AI (0: at once)
    waited_s: float


@dataclass(frozen=True, slots=True)
class LobbyState:
    """Everything the lobby screen shows, for one player."""

    me: PlayerInfo
    tables: tuple[TableInfo, ...]
    leaderboards: tuple[tuple[str, tuple[LeaderRow, ...]], ...]  #: (game, rows) per game
    queue: QueueInfo | None = None


# --- what a player asks -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateTable:
    game: str
    players: int
    rules: tuple[tuple[str, str | int | bool], ...] = ()  #: house rules by name
    public: bool = True
    ai_seats: tuple[str | None, ...] = ()  #: per seat: an AI level, or None for a person
    rated: bool = True
    clock: tuple[float, float] | None = (20.0, 120.0)  #: (per move, bank) in seconds


@dataclass(frozen=True, slots=True)
class SitDown:
    table_id: str
    seat: int | None = None  #: None: any free seat
    code: str | None = None  #: a private table's code


@dataclass(frozen=True, slots=True)
class Watch:
    table_id: str


@dataclass(frozen=True, slots=True)
class QuickMatch:
    game: str
    players: int
    wait_s: float = 30.0
    #: asked again after another server process sent the player here (a ``Redirect``
    #: without a table): seated or queued here, never sent on a second time
    redirected: bool = False


@dataclass(frozen=True, slots=True)
class CancelQuickMatch:
    pass


LobbyRequest = CreateTable | SitDown | Watch | QuickMatch | CancelQuickMatch


# --- what the lobby answers -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seated:
    """Go to the table: join it as the existing ``join`` does (the same address)."""

    table_id: str
    code: str  #: the table's join code
    seat: int | None  #: None: watching
    token: str  #: the seat's rejoin token ("" when watching)


@dataclass(frozen=True, slots=True)
class Refused:
    reason: str  #: a sentence a player can read


@dataclass(frozen=True, slots=True)
class Redirect:
    """The table lives in another server process: ask there."""

    address: str  #: host:port
    table_id: str


LobbyEvent = LobbyState | Seated | Refused | Redirect


class LobbyLink(Protocol):
    """A player's connection to a lobby, as the lobby screen sees it."""

    async def send(self, request: LobbyRequest) -> None: ...

    def events(self) -> AsyncIterator[LobbyEvent]: ...

    async def close(self) -> None: ...


# --- what the store keeps ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    key: str | None  #: the public key's fingerprint ("SHA256:..."), None for a guest
    guest: bool
    banned: bool
    created: float


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    game: str
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished (or abandoned) match, as the table reports it to the store."""

    table_id: str
    game: str
    rated: bool
    ended: float  #: unix time
    #: per seat in seat order: (account name or None for an AI, final place 1 = best)
    places: tuple[tuple[str | None, int], ...]
    left: tuple[str, ...] = ()  #: names who left before the end (see the ratings' rule)
    #: per seat in seat order: the AI's level ("easy", ...) for an AI seat, None for a
    #: person; () when not reported (AI seats then count at "normal": see ratings.py)
    ai_levels: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A lobby table as kept for a restart."""

    table_id: str
    game: str
    save_id: str  #: the table's save (play/saves) the host reopens
    public: bool
    rated: bool
    code: str
    process: str  #: the server process that owns it ("host:port")
    updated: float
