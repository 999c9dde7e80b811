"""A match being played in the app: the engine game plus who sits in each seat.

Nothing here knows a rule: it asks the engine (``to_act``, ``decision``,
``legal_actions``, ``check``, ``apply``, ``observation``) and the AI
(``agent_for(...).choose``). It also autosaves after every action, and holds the lock of
its save while it is open (see :mod:`twos_tui.play.locks`): a second app resuming the
same game is told, and offered a copy. Finished deals go to the history and
:meth:`Session.undo` takes actions back (both in :mod:`.tracker`).
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..ai import DEFAULT_LEVEL, Agent, RandomAgent, agent_for, ai_rng
from ..engine import Action, Game, new_game, variant_class
from ..engine.protocol import Decision, rng_state_to_json
from ..engine.views import AnyView
from ..jsontypes import JsonObject, JsonValue
from . import locks, saves
from .names import clean_name
from .save_data import is_hint_entry
from .tracker import Tracker
from .tracker import UndoRefused as UndoRefused  # raised by Session.undo

HUMAN = "human"
AI = "ai"
AI_NAMES = ("Ada", "Bram", "Cleo", "Dev", "Esme", "Finn")


@dataclass
class SeatConfig:
    """One seat: its player's name, human or AI, and the AI's level."""

    name: str
    kind: str = HUMAN
    level: str = DEFAULT_LEVEL

    @property
    def is_ai(self) -> bool:
        return self.kind == AI

    def __post_init__(self) -> None:
        self.name = clean_name(self.name)

    def to_json(self) -> saves.SeatJson:
        return {"name": self.name, "kind": self.kind, "level": self.level}


def default_seats(players: int, humans: int = 1) -> list[SeatConfig]:
    """Seat 0 (and the next ``humans - 1`` seats) human, the rest AI."""
    seats = []
    for i in range(players):
        if i < humans:
            name = f"Player {i + 1}"
            seats.append(SeatConfig(name, HUMAN))
        else:
            seats.append(SeatConfig(AI_NAMES[i - 1 if humans else i], AI))
    return seats


#: a seed this app draws has this many bits, from the operating system (``secrets``):
#: whatever a seat sees of a deal (at most the whole deal, under 2**100 possibilities)
#: leaves more than 2**40 seeds it could have come from (tests/test_secrets_seeds.py)
SEED_BITS = 255
#: seeds from here on are the app's own drawn ones (every drawn seed is); smaller ones
#: are seeds a person chose (``--seed 7``), replayed as chosen and followed by the next
DRAWN_SEED_MIN = 1 << SEED_BITS


def random_seed() -> int:
    """A new match's seed: :data:`SEED_BITS` random bits from the operating system (the
    top bit set, so a drawn seed is never one a person would type)."""
    return DRAWN_SEED_MIN | secrets.randbits(SEED_BITS)


def is_drawn_seed(seed: int) -> bool:
    """Whether ``seed`` was drawn by the app (secret until the match is over) rather
    than chosen by a person."""
    return seed >= DRAWN_SEED_MIN


def new_save_id(variant_id: str, seed: int | None = None) -> str:
    """A new save's name: when it was started, the game and random letters. Never the
    seed (anyone who can list the saves folder could read it): ``seed`` is ignored."""
    return time.strftime("%Y%m%d-%H%M%S") + f"-{variant_id}-{secrets.token_hex(6)}"


class Session:
    """A game, its seats, the AI generators and the save file."""

    def __init__(
        self,
        game: Game,
        seats: list[SeatConfig],
        save_id: str | None = None,
        ai_rngs: dict[int, random.Random] | None = None,
        autosave: bool = True,
        created: float | None = None,
        clock: saves.ClockJson | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError("one seat configuration per player")
        self.game = game
        self.seats = seats
        self.autosave = autosave
        self.save_id = saves.check_save_id(save_id or new_save_id(game.variant_id))
        self.ai_rngs = ai_rngs or {i: ai_rng(game.seed, i) for i, s in enumerate(seats) if s.is_ai}
        self.created = time.time() if created is None else created
        self._agents: dict[int, Agent] = {}
        #: a new autosave failure, for the UI to show once (``None`` while nothing new)
        self.save_error: str | None = None
        self._failing: str | None = None  # the failure being reported, if any
        self.locked = False  #: this session holds its save's lock
        self.closed = False
        self.record_history = autosave  #: finished deals go to the history
        #: seats played from other computers (a hosted table): their people's results are
        #: kept by their own computers, not in this one's history
        self.remote_seats: tuple[int, ...] = ()
        self.tracker = Tracker(game, clock)  #: time, undo points, recording
        #: hints asked, (deal number, seat) -> how many: shown in the deal's summary and
        #: kept in the save, so a resumed deal still counts the hints taken before
        self.hints: dict[tuple[int, int], int] = {}
        #: called (no arguments, on the thread that made the change) after every
        #: apply, next deal and undo: a hosted table tells its players
        self.listeners: list[Callable[[], None]] = []
        if autosave:
            try:
                locks.acquire(self.save_id)  # raises SaveLocked if another app has it
                self.locked = True
            except OSError:
                pass  # the folder cannot be written: the first autosave will say so

    def count_hint(self, seat: int) -> None:
        """A hint was shown to ``seat`` in this deal (and the count saved)."""
        key = (self.game.deal_number, seat)
        self.hints[key] = self.hints.get(key, 0) + 1
        self.save()

    def hints_this_deal(self) -> dict[str, int]:
        """Hints asked in the current deal, by player name."""
        g = self.game
        return {g.names[seat]: n for (deal, seat), n in self.hints.items() if deal == g.deal_number}

    # ----- construction -------------------------------------------------------------
    @classmethod
    def start(
        cls,
        variant: str,
        seats: list[SeatConfig] | None = None,
        players: int | None = None,
        options: JsonObject | None = None,
        seed: int | None = None,
        autosave: bool = True,
    ) -> Session:
        vcls = variant_class(variant)
        if players is None:
            players = len(seats) if seats else vcls.default_players
        seats = seats or default_seats(players)
        seed = random_seed() if seed is None else seed
        names = [clean_name(s.name, f"Player {i + 1}") for i, s in enumerate(seats)]
        game = new_game(variant, players, options or {}, seed, names)
        session = cls(game, seats, autosave=autosave)
        session.save()
        return session

    def again(self) -> Session:
        """The same table, rules and seats with a new seed: the next one after a seed a
        person chose (``--seed 7`` then 8, to replay a series), else a new drawn one (a
        drawn seed is shown once its match is over: the next must not follow from it)."""
        seed = self.game.seed
        return Session.start(
            self.game.variant_id,
            [SeatConfig(**s.to_json()) for s in self.seats],
            self.game.players,
            dict(self.game.options),
            random_seed() if is_drawn_seed(seed) else seed + 1,
            autosave=self.autosave,
        )

    # ----- who plays ----------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_ai]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    def ai_to_act(self) -> list[int]:
        return [s for s in self.game.to_act() if self.seats[s].is_ai]

    def humans_to_act(self) -> list[int]:
        return [s for s in self.game.to_act() if not self.seats[s].is_ai]

    def agent(self, seat: int) -> Agent:
        if seat not in self._agents:
            level = self.seats[seat].level
            try:
                self._agents[seat] = agent_for(self.game.variant_id, level)
            except ImportError:
                # this variant's AI module is not installed: play legal moves at random
                self._agents[seat] = RandomAgent()
        return self._agents[seat]

    def ai_inputs(self, seat: int) -> tuple[AnyView, list[Action], Decision]:
        """What the AI of ``seat`` sees: its typed view, legal actions and decision (it is
        asked only when ``seat`` is to act: it has a decision)."""
        g = self.game
        decision = g.decision(seat)
        assert decision is not None, f"seat {seat} is not asked to act"
        return g.observe(seat), g.legal_actions(seat), decision

    def ai_choose(
        self, seat: int, inputs: tuple[AnyView, list[Action], Decision] | None = None
    ) -> Action:
        obs, legal, decision = inputs or self.ai_inputs(seat)
        rng = self.ai_rngs.setdefault(seat, ai_rng(self.game.seed, seat))
        return self.agent(seat).choose(obs, legal, decision, rng)

    # ----- acting -------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Apply through the engine (raises IllegalAction, state unchanged), record the
        deal if it ended, and save."""
        index = len(self.game.actions)
        self.game.apply(seat, action)
        self.tracker.applied(self, seat, index)
        self.save()
        self._notify()

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    def next_deal(self) -> None:
        self.game.next_deal()
        self.tracker.new_deal(self.game)
        self.save()
        self._notify()

    # ----- undo ---------------------------------------------------------------------
    def can_undo(self) -> str | None:
        """``None`` if :meth:`undo` would take something back, else why not."""
        return self.tracker.can_undo(self)

    def undo(self) -> int:
        """Take back this seat's last action and everything the AI did after it: the
        game goes back to the human's previous turn, replayed by the engine from the
        seed, and the AI generators go back to their state then (the AI answers the same
        move the same way). Raises :class:`UndoRefused` with the reason when another
        human is at the table, the deal is over, or there is nothing to take back. The
        undo goes to the history and the save. Returns the number of actions taken back."""
        taken = self.tracker.undo(self)
        self.save()
        self._notify()
        return taken

    # ----- saving -------------------------------------------------------------------
    def to_json(self) -> saves.SaveJson:
        return {
            "format": saves.SAVE_FORMAT,
            "app": saves.APP_TAG,
            "created": self.created,
            "updated": time.time(),
            "variant_name": self.game.name,
            "seats": [s.to_json() for s in self.seats],
            "ai_rngs": {str(k): rng_state_to_json(r) for k, r in self.ai_rngs.items()},
            "clock": self.tracker.clock_json(),
            "hints": [[deal, seat, n] for (deal, seat), n in sorted(self.hints.items())],
            "game": self.game.to_json(),
        }

    @classmethod
    def from_json(cls, data: object, save_id: str | None = None, autosave: bool = True) -> Session:
        """A session from a save's data (any format this version reads), validated as a
        whole: :class:`saves.SaveError` with the reason if it is damaged or newer,
        :class:`locks.SaveLocked` if another app has ``save_id`` open."""
        loaded = saves.load_save_data(data)
        seats = [SeatConfig(s["name"], s["kind"], s["level"]) for s in loaded.seats]
        session = cls(
            loaded.game,
            seats,
            save_id,
            loaded.ai_rngs,
            autosave=autosave,
            created=loaded.created,
            clock=loaded.clock,
        )
        session.hints = _hints_from_json(loaded.data.get("hints"), loaded.game.players)
        return session

    @classmethod
    def resume(cls, info: saves.SaveInfo, copy: bool = False) -> Session:
        """Open a listed save (read and validated again: it may have changed since it
        was listed). ``copy``: as a new save of its own (when another app has it open)."""
        data = saves.read_save(info.path)
        session = cls.from_json(data, None if copy else info.save_id)
        session.tracker.record(session)  # saved at a deal's end: in the history (once)
        return session

    def save(self) -> None:
        """Autosave: the JSON text is made now, the file is written on the save thread
        (``saves.WRITER``; the previous save is on disk before this one starts)."""
        if not self.autosave or self.closed:
            return
        writer = saves.WRITER
        writer.flush()
        self._note(writer.error)  # the previous write's outcome
        try:
            text = json.dumps(self.to_json(), allow_nan=False)
        except (TypeError, ValueError) as e:  # never expected: say so, play on
            self._note(f"Could not save the game: {e}")
            return
        writer.submit(self.save_id, text, prune=self.game.match_over)

    def _note(self, error: str | None) -> None:
        """``save_error`` holds a failure for the UI once per run of failures (the first
        save after it), not after every move while the disk stays full."""
        if error is None:
            self._failing = None
            self.save_error = None
        elif error != self._failing:
            self._failing = error
            self.save_error = error
        else:
            self.save_error = None

    def flush(self) -> None:
        """Wait until the last save is on disk (the next ``save`` notes the outcome)."""
        saves.WRITER.flush()

    @property
    def save_failing(self) -> str | None:
        """The last autosave's failure, if the last one failed (a state, not a notice)."""
        return self._failing

    def close(self) -> None:
        """The table is left: the last save goes to disk and the lock is given up."""
        if self.closed:
            return
        saves.WRITER.flush()
        self.closed = True
        if self.locked:
            locks.release(self.save_id)
            self.locked = False


def _hints_from_json(raw: JsonValue, players: int) -> dict[tuple[int, int], int]:
    """The hint counts of a save; entries that are not ``[deal, seat, count]`` with
    plausible numbers are left out (a count is a courtesy, never a reason to refuse a
    save)."""
    out: dict[tuple[int, int], int] = {}
    if not isinstance(raw, list):
        return out
    for entry in raw[:10_000]:
        if (
            is_hint_entry(entry)
            and 0 <= entry[0] <= 1_000_000
            and 0 <= entry[1] < players
            and 0 < entry[2] <= 1_000_000
        ):
            out[(entry[0], entry[1])] = entry[2]
    return out
