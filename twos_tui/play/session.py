"""A match being played in the app: the engine game plus who sits in each seat.

Nothing here knows a rule: it asks the engine (``to_act``, ``decision``,
``legal_actions``, ``check``, ``apply``, ``observation``) and the AI
(``agent_for(...).choose``). It also autosaves after every action, records every
finished deal in the history (:mod:`.history`) and takes actions back (:meth:`Session.undo`).
"""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ..ai import DEFAULT_LEVEL, LEVEL_ALIASES, RandomAgent, agent_for, ai_rng
from ..engine import Action, Game, load_game, new_game, variant_class
from ..engine.protocol import rng_from_json, rng_state_to_json
from . import history, saves

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

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatConfig:
        level = d.get("level", DEFAULT_LEVEL)
        return cls(d["name"], d.get("kind", HUMAN), LEVEL_ALIASES.get(level, level))


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


def random_seed() -> int:
    return secrets.randbelow(1_000_000)


class UndoRefused(Exception):
    """Undo is not possible now; ``str(err)`` says why, in a player's words."""


@dataclass(frozen=True)
class _UndoPoint:
    """Where a human acted: the game had ``index`` actions, and the AI generators'
    states then (so the AI replies the same way if the same move is made again)."""

    index: int
    seat: int
    deal_number: int
    rng_states: dict[int, tuple]


def rebuild(game: Game, upto: int) -> Game:
    """The same match replayed by the engine through its first ``upto`` actions."""
    g = new_game(game.variant_id, game.players, dict(game.options), game.seed, list(game.names))
    for seat, a in game.actions[:upto]:
        if g.deal_over and not g.match_over and not g.to_act():
            g.next_deal()
        g.apply(seat, Action.from_json(a))
    return g


def current_deal_start(game: Game) -> int:
    """The index in ``game.actions`` of the current deal's first action (replayed by the
    engine when the match is past its first deal)."""
    if game.deal_number <= 1:
        return 0
    g = new_game(game.variant_id, game.players, dict(game.options), game.seed, list(game.names))
    start = 0
    for i, (seat, a) in enumerate(game.actions):
        if g.deal_over and not g.match_over and not g.to_act():
            g.next_deal()
            start = i
        g.apply(seat, Action.from_json(a))
    if g.deal_number < game.deal_number:  # saved just after next_deal: nothing played yet
        start = len(game.actions)
    return start


class Session:
    """A game, its seats, the AI generators and the save file."""

    def __init__(
        self,
        game: Game,
        seats: list[SeatConfig],
        save_id: str | None = None,
        ai_rngs: dict[int, random.Random] | None = None,
        autosave: bool = True,
        clock: dict[str, float] | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError("one seat configuration per player")
        self.game = game
        self.seats = seats
        self.autosave = autosave
        self.save_id = save_id or (
            time.strftime("%Y%m%d-%H%M%S")
            + f"-{game.variant_id}-{game.seed}-{secrets.token_hex(2)}"
        )
        self.ai_rngs = ai_rngs or {i: ai_rng(game.seed, i) for i, s in enumerate(seats) if s.is_ai}
        self._agents: dict[int, Any] = {}
        self.save_error: str | None = None  #: the last autosave failure, for the UI
        # history and undo
        self.record_history = autosave  #: finished deals go to the history
        self._clock_t0 = time.monotonic()
        self._match_time = float((clock or {}).get("match", 0.0))  #: seconds before t0
        self._deal_time = float((clock or {}).get("deal", 0.0))
        self._undo_points: list[_UndoPoint] = []
        self._recorded_deal: int | None = None
        try:
            self._deal_first_action = current_deal_start(game)
        except (ValueError, KeyError, TypeError, IndexError):
            # a save the engine cannot replay: its deals are recorded with the whole list
            self._deal_first_action = 0
        if game.deal_over and game.actions:
            self._record_deal()  # at a deal end (resumed): recorded once, whatever happens

    # ----- construction -------------------------------------------------------------
    @classmethod
    def start(
        cls,
        variant: str,
        seats: list[SeatConfig] | None = None,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        autosave: bool = True,
    ) -> Session:
        vcls = variant_class(variant)
        players = players or (len(seats) if seats else vcls.default_players)
        seats = seats or default_seats(players)
        seed = random_seed() if seed is None else seed
        game = new_game(variant, players, options or {}, seed, [s.name for s in seats])
        session = cls(game, seats, autosave=autosave)
        session.save()
        return session

    def again(self) -> Session:
        """The same table, rules and seats with the next seed."""
        return Session.start(
            self.game.variant_id,
            [SeatConfig(**s.to_json()) for s in self.seats],
            self.game.players,
            dict(self.game.options),
            self.game.seed + 1,
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

    def agent(self, seat: int):
        if seat not in self._agents:
            level = self.seats[seat].level
            try:
                self._agents[seat] = agent_for(self.game.variant_id, level)
            except ImportError:
                # this variant's AI module is not installed: play legal moves at random
                self._agents[seat] = RandomAgent()
        return self._agents[seat]

    def ai_inputs(self, seat: int):
        """What the AI of ``seat`` sees: its observation, legal actions and decision."""
        g = self.game
        return g.observation(seat), g.legal_actions(seat), g.decision(seat)

    def ai_choose(self, seat: int, inputs=None) -> Action:
        obs, legal, decision = inputs or self.ai_inputs(seat)
        rng = self.ai_rngs.setdefault(seat, ai_rng(self.game.seed, seat))
        return self.agent(seat).choose(obs, legal, decision, rng)

    # ----- acting -------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Apply through the engine (raises IllegalAction, state unchanged), record the
        deal if it ended, and save."""
        g = self.game
        index = len(g.actions)
        g.apply(seat, action)
        if not self.seats[seat].is_ai and not self.hot_seat:
            rngs = {s: r.getstate() for s, r in self.ai_rngs.items()}
            self._undo_points.append(_UndoPoint(index, seat, g.deal_number, rngs))
        if g.deal_over:
            self._record_deal()
        self.save()

    def next_deal(self) -> None:
        self.game.next_deal()
        self._match_time, _ = self._elapsed()
        self._deal_time = 0.0
        self._clock_t0 = time.monotonic()
        self._undo_points.clear()
        self._deal_first_action = len(self.game.actions)
        self.save()

    # ----- undo ---------------------------------------------------------------------
    def can_undo(self) -> str | None:
        """``None`` if :meth:`undo` would take something back, else why not."""
        g = self.game
        if self.hot_seat:
            return "No undo at a shared table: the other players have already seen your move."
        if g.deal_over:
            return "This deal is over and in the history: it cannot be taken back."
        if not any(p.deal_number == g.deal_number for p in self._undo_points):
            humans = set(self.humans)
            if any(s in humans for s, _ in g.actions[self._deal_first_action :]):
                return "Undo reaches back only to moves made since this game was opened."
            return "Nothing to undo yet in this deal."
        return None

    def undo(self) -> int:
        """Take back this seat's last action and everything the AI did after it: the
        game goes back to the human's previous turn, replayed by the engine from the
        seed, and the AI generators go back to their state then (the AI answers the same
        move the same way). Raises :class:`UndoRefused` with the reason when another
        human is at the table, the deal is over, or there is nothing to take back.
        The undo is written to the history and the save. Returns the number of actions
        taken back."""
        reason = self.can_undo()
        if reason is not None:
            raise UndoRefused(reason)
        g = self.game
        while self._undo_points[-1].deal_number != g.deal_number:
            self._undo_points.pop()
        point = self._undo_points.pop()
        rebuilt = rebuild(g, point.index)
        if rebuilt.deal_number != g.deal_number:  # never crosses into another deal
            raise UndoRefused("That move belongs to another deal.")
        taken = len(g.actions) - point.index
        self.game = rebuilt
        # new generator objects: an AI still thinking on a worker thread keeps the old
        rngs = {}
        for s, state in point.rng_states.items():
            r = random.Random()
            r.setstate(state)
            rngs[s] = r
        self.ai_rngs = rngs
        self._agents = {}
        if self.record_history:
            history.RECORDER.submit(
                {
                    "type": "undo",
                    "match_key": self.save_id,
                    "deal_number": g.deal_number,
                    "seat": point.seat,
                    "taken_back": taken,
                    "at": time.time(),
                }
            )
        self.save()
        return taken

    # ----- history ------------------------------------------------------------------
    def _elapsed(self) -> tuple[float, float]:
        """Seconds at this table: in the match, in the current deal."""
        d = time.monotonic() - self._clock_t0
        return self._match_time + d, self._deal_time + d

    def _record_deal(self) -> None:
        """Hand the finished deal to the history's recorder (written on its thread)."""
        g = self.game
        r = g.last_result
        if r is None or self._recorded_deal == g.deal_number:
            return
        self._recorded_deal = g.deal_number
        if not self.record_history:
            return
        start = self._deal_first_action
        match_s, deal_s = self._elapsed()
        now = time.time()
        history.RECORDER.submit(
            {
                "type": "deal",
                "match_key": self.save_id,
                "variant": g.variant_id,
                "variant_name": g.name,
                "players": g.players,
                "options": dict(g.options),
                "seed": g.seed,
                "names": list(g.names),
                "seats": [s.to_json() for s in self.seats],
                "score_label": g.score_label,
                "low_score_wins": bool(g.low_score_wins),
                "deal_number": r.deal_number,
                "first_action": start,
                "actions": g.actions[start:],
                "prefix": g.actions[:start],
                "changes": list(r.changes),
                "totals": list(r.totals),
                "winners": list(r.winners),
                "summary": r.summary,
                "details": list(r.details),
                "started": now - deal_s,
                "ended": now,
                "duration": deal_s,
                "match_over": g.match_over,
                "match_winners": g.match_winners() if g.match_over else None,
                "match_started": now - match_s,
                "match_duration": match_s,
            }
        )

    # ----- saving -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": saves.SAVE_FORMAT,
            "updated": time.time(),
            "variant_name": self.game.name,
            "seats": [s.to_json() for s in self.seats],
            "ai_rngs": {str(k): rng_state_to_json(r) for k, r in self.ai_rngs.items()},
            "clock": dict(zip(("match", "deal"), self._elapsed(), strict=True)),
            "game": self.game.to_json(),
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], save_id: str | None = None, autosave: bool = True
    ) -> Session:
        game = load_game(data["game"])
        seats = [SeatConfig.from_json(s) for s in data["seats"]]
        rngs = {int(k): rng_from_json(v) for k, v in data.get("ai_rngs", {}).items()}
        return cls(game, seats, save_id, rngs, autosave=autosave, clock=data.get("clock"))

    @classmethod
    def resume(cls, info: saves.SaveInfo) -> Session:
        return cls.from_json(saves.read_save(info.path), info.save_id)

    def save(self) -> None:
        """Autosave: the JSON text is made now, the file is written on the save thread
        (``saves.WRITER``; the previous save is on disk before this one starts)."""
        if not self.autosave:
            return
        writer = saves.WRITER
        writer.flush()
        self.save_error = writer.error  # the previous write's outcome
        writer.submit(self.save_id, json.dumps(self.to_json()), prune=self.game.match_over)

    def flush(self) -> None:
        """Wait until the last save is on disk (and note whether it failed)."""
        saves.WRITER.flush()
        if self.autosave:
            self.save_error = saves.WRITER.error
