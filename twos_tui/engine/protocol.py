"""The one game protocol every variant implements.

A *game* object is the whole state of a match (several deals). Seats are numbered
``0 .. players-1`` and play passes to the left, i.e. to ``(seat + 1) % players``.

Talking to a game:

* ``game.to_act()``: the seats that must act now. Usually one; several during a
  simultaneous hidden choice (2v1's card exchange, the duo's face-down follow after a
  led 2). Empty when the deal or the match is over.
* ``game.decision(seat)``: what that seat is being asked, as data a UI can render
  without knowing the rules: a prompt, how many cards to select from the hand and which
  action kind they make, and extra buttons (pass, bids, ...).
* ``game.legal_actions(seat)``: the legal actions. Climbing games list plays with a
  *canonical suit choice* where suits cannot change the outcome (see each variant);
  ``game.check`` and ``game.apply`` accept any concrete selection exactly (in
  canonical card codes, ``"10H"``; other spellings get a reason naming the code).
* ``game.check(seat, action)``: ``None`` if legal, else a reason a player can read.
  Whose turn it is has one check and one wording in every game,
  ``game.turn_reason(seat)``.
* ``game.apply(seat, action)``: plays it, or raises :class:`IllegalAction` (a
  ``ValueError``) with that reason and leaves the state untouched.
* ``game.observation(seat)``: a JSON-able dict of everything that seat may know and
  nothing more (see :meth:`Game.observation` for the common keys).
* ``game.deal_over`` / ``game.match_over`` / ``game.last_result`` /
  ``game.totals`` / ``game.next_deal()``.
* ``game.to_json()`` / ``Game.from_json(data)``: the whole state, exactly; a game
  also replays exactly from its seed and its action list. ``load_game(data).to_json()``
  is a fixed point: loading it again and saving gives the same data.

Errors: every public call answers a bad input with :class:`EngineError` (a
``ValueError``) and a reason: :class:`BadArgument` (a malformed argument to a query or
``new_game``), :class:`IllegalAction` (``apply``), :class:`GameDataError` (``load_game``).
No other exception escapes for bad input.

Options (house rules) are declared as :class:`OptionSpec` data, so a UI builds the rules
picker without knowing the variant.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, Unpack, cast

from .cards import CardFace, standard_face
from .observation import LogEntry, LogExtras, Observation
from .observer import Observable
from .views import AnyView
from .words import names_text, whom


class EngineError(ValueError):
    """The one error type of the engine's public calls: whatever is given to
    :func:`~twos_tui.engine.new_game`, :func:`~twos_tui.engine.load_game` or a game's
    methods, a bad input raises this (or one of its kinds below), with ``str(err)``
    saying what is wrong. It is a ``ValueError``."""


class BadArgument(EngineError):
    """A malformed argument to a query (``observation``, ``decision``,
    ``legal_actions``, ``describe``, ``card_face``...) or to ``new_game``: no such seat,
    not an :class:`Action`, not a card code, an unknown sort order, a wrong type."""


class IllegalAction(EngineError):
    """An action the rules do not allow; ``str(err)`` is the player-readable reason."""


class GameDataError(EngineError):
    """Saved game data that cannot be a game of this engine: malformed JSON data,
    impossible values or an inconsistent state. :func:`~twos_tui.engine.load_game` raises
    this (and only this) for any bad data; ``str(err)`` says what is wrong."""


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does.

    ``kind`` names it (``"play"``, ``"pass"``, ``"bid"``, ``"exchange"``, ...);
    ``cards`` are card codes from the seat's hand (order kept where it matters);
    ``value`` carries a number or a word (a bid, a chosen hand, ...).
    """

    kind: str
    cards: tuple[str, ...] = ()
    value: int | str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.cards:
            d["cards"] = list(self.cards)
        if self.value is not None:
            d["value"] = self.value
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Action:
        return cls(d["kind"], tuple(d.get("cards", ())), d.get("value"))


PASS = Action("pass")


@dataclass(frozen=True, slots=True)
class Choice:
    """A button a decision offers besides submitting selected cards."""

    label: str
    action: Action
    key: str | None = None  #: suggested key binding, e.g. "p" for pass


@dataclass(frozen=True, slots=True)
class Decision:
    """What one seat is asked now, in terms a UI can render generically.

    ``select`` is ``(min, max)`` cards to pick from the hand, or ``None`` when the
    decision is made by choices only. Submitting the selection makes
    ``Action(submit, selected_cards)``. ``choices`` are further buttons.
    ``hidden`` is True when the choice is secret and simultaneous with other seats.
    """

    seat: int
    kind: str
    prompt: str
    select: tuple[int, int] | None = None
    submit: str | None = None
    choices: tuple[Choice, ...] = ()
    hidden: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "prompt": self.prompt,
            "select": list(self.select) if self.select else None,
            "submit": self.submit,
            "choices": [
                {"label": c.label, "action": c.action.to_json(), "key": c.key} for c in self.choices
            ],
            "hidden": self.hidden,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Decision:
        select = d.get("select")
        return cls(
            int(d["seat"]),
            str(d["kind"]),
            str(d["prompt"]),
            (int(select[0]), int(select[1])) if select else None,
            d.get("submit"),
            tuple(
                Choice(str(c["label"]), Action.from_json(c["action"]), c.get("key"))
                for c in d.get("choices", ())
            ),
            bool(d.get("hidden", False)),
        )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One house rule: an id, what it means, its choices (value, label) and default."""

    id: str
    label: str
    description: str
    choices: tuple[tuple[Any, str], ...]
    default: Any

    def validate(self, value: Any) -> Any:
        for v, _ in self.choices:
            if v == value:
                return v
        allowed = ", ".join(str(v) for v, _ in self.choices)
        raise ValueError(f"option {self.id!r} cannot be {value!r} (choose one of: {allowed})")

    def label_of(self, value: Any) -> str:
        for v, lab in self.choices:
            if v == value:
                return lab
        return str(value)


@dataclass
class DealResult:
    """How one deal ended: who won it, each seat's change, the totals after it."""

    deal_number: int
    winners: list[int]
    changes: list[int]
    totals: list[int]
    summary: str
    details: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "winners": self.winners,
            "changes": self.changes,
            "totals": self.totals,
            "summary": self.summary,
            "details": self.details,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DealResult:
        return cls(
            d["deal_number"],
            list(d["winners"]),
            list(d["changes"]),
            list(d["totals"]),
            d["summary"],
            list(d.get("details", [])),
        )


def deal_seed(seed: int, deal_number: int) -> int:
    """The seed of the shuffle of deal ``deal_number`` (2 on) of a match with ``seed``: a
    keyed hash (BLAKE2b, 256 bits) of the match seed and the deal's number, so knowing
    one deal (or the generator's state after it) tells nothing about the next. Deal 1 is
    shuffled by ``random.Random(seed)`` itself, as it always was: a chosen seed such as
    ``--seed 7`` deals the same first hands as before."""
    text = f"twos-tui-deal:{seed}:{deal_number}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=32).digest(), "big")


def rng_state_to_json(rng: random.Random) -> list[object]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(state: object) -> random.Random:
    """A generator in the state :func:`rng_state_to_json` wrote; a malformed state
    raises :class:`GameDataError`."""
    from .validate import rng_state

    return rng_state(state, "the random generator")


#: the public methods that take a seat first (a seat that is not a whole number from
#: 0 to players - 1 gets :class:`BadArgument`)
SEAT_QUERIES = frozenset(
    ("decision", "legal_actions", "observation", "hidden_from", "has_chosen", "describe")
)
#: every public method guarded: an unexpected exception on bad arguments becomes
#: :class:`BadArgument` with the reason
GUARDED = SEAT_QUERIES | frozenset(
    (
        "check",
        "turn_reason",
        "to_act",
        "card_face",
        "sort_cards",
        "card_sort_key",
        "next_deal",
        "match_winners",
        "target_text",
        "rules_summary",
        "card_census",
        "deck_cards",
        "malformed",
    )
)
SORT_ORDERS = ("rank", "suit")


def _guard(name: str, fn: Any) -> Any:
    seat_first = name in SEAT_QUERIES
    sorting = name in ("sort_cards", "card_sort_key")

    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        if seat_first:
            seat = args[0] if args else kwargs.get("seat")
            if type(seat) is not int or not 0 <= seat < self.players:
                raise BadArgument(
                    f"{name}: there is no seat {_short(seat)} at this table "
                    f"(seats 0 to {self.players - 1})"
                )
            if name == "describe":
                action = args[1] if len(args) > 1 else kwargs.get("action")
                reason = self.malformed(seat, action)
                if reason is not None:
                    raise BadArgument(f"describe: {reason}")
        elif sorting:
            by = args[1] if len(args) > 1 else kwargs.get("by", "rank")
            if by not in SORT_ORDERS:
                raise BadArgument(f"{name}: sort by 'rank' or 'suit', not {_short(by)}")
        try:
            return fn(self, *args, **kwargs)
        except EngineError:
            raise
        except RecursionError:
            raise BadArgument(f"{name}: an argument is nested too deeply") from None
        except Exception as e:
            raise BadArgument(
                f"{name}: bad arguments ({type(e).__name__}: {_short(str(e), 120)})"
            ) from e

    # name, docstring, annotations (the observation types are read from them) and
    # ``__wrapped__`` of the variant's own method
    functools.update_wrapper(guarded, fn)
    return guarded


def _short(value: Any, n: int = 40) -> str:
    try:
        text = value if isinstance(value, str) and n > 40 else repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= n else text[: n - 3] + "..."


class Game(Observable, ABC):
    """Base class of every variant. Subclasses set the class attributes and implement
    the abstract methods; the base keeps the shared bookkeeping (seed, rng, names,
    history, totals, deal results, JSON of those)."""

    variant_id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]  #: one line for the picker
    family: ClassVar[str]  #: "climbing" or "trick"
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    # (these two are class values a variant may set per game, as Twos does by option)
    low_score_wins: bool = False  #: penalty games: lowest total wins
    deal_word: ClassVar[str] = "deal"  #: what the game calls one deal ("round" in 2v1)
    score_label: str = "Score"  #: "Deals won", "Penalty", "Coins", ...
    #: every action kind of the variant: kind -> (carries cards?, what its value is:
    #: ``None`` (no value), ``"int"``, ``"word"`` (a short string) or ``"card"`` (a code))
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {}
    _deck_codes: ClassVar[frozenset[str] | None] = None  # the codes of deck_cards()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every public method a variant defines answers bad arguments with
        :class:`BadArgument` (see :data:`GUARDED`)."""
        super().__init_subclass__(**kwargs)
        for name in GUARDED:
            fn = cls.__dict__.get(name)
            if callable(fn) and not getattr(fn, "__wrapped__", None):
                setattr(cls, name, _guard(name, fn))

    # ----- construction -------------------------------------------------------------
    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        players = self.default_players if players is None else players
        if players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise ValueError(f"{self.name} is for {counts} players, not {players}")
        self.players = players
        self.options = self.resolve_options(players, options or {})
        self.seed = seed
        self.rng = random.Random(seed)
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(players)]
        if len(self.names) != players:
            raise ValueError("one name per seat")
        self.history: list[LogEntry] = []  #: the public log
        self.actions: list[tuple[int, dict[str, Any]]] = []  #: every applied action
        self.totals = [0] * players
        self.results: list[DealResult] = []
        self.deal_number = 0
        self.deal_over = False
        self.match_over = False

    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        """The house rules of this variant (for ``players`` seats, where it matters)."""
        return ()

    @classmethod
    def resolve_options(cls, players: int, options: dict[str, Any]) -> dict[str, Any]:
        specs = {s.id: s for s in cls.option_specs(players)}
        unknown = set(options) - set(specs)
        if unknown:
            raise ValueError(f"{cls.name} has no option {sorted(unknown)[0]!r}")
        return {
            i: (s.validate(options[i]) if i in options else s.default) for i, s in specs.items()
        }

    # ----- the protocol ---------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several for simultaneous hidden choices)."""

    @abstractmethod
    def decision(self, seat: int) -> Decision | None:
        """What ``seat`` is asked now, or ``None`` if it is not that seat's turn."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions for ``seat`` (empty if it need not act)."""

    @abstractmethod
    def check(self, seat: int, action: Action) -> str | None:
        """``None`` if ``action`` is legal for ``seat`` now, else the reason it is not.
        Every variant asks :meth:`malformed`, then :meth:`turn_reason`, first."""

    def turn_reason(self, seat: int) -> str | None:
        """``None`` if ``seat`` is asked to act now, else why not, in the one wording
        every game uses: the match is over, the deal is over, the seat has made its
        secret choice and waits for the others (:meth:`has_chosen`), or it is another
        seat's turn (naming the seats asked)."""
        if self.match_over:
            return "The match is over."
        if self.deal_over:
            return f"The {self.deal_word} is over."
        if type(seat) is not int or not 0 <= seat < self.players:
            return f"There is no seat {seat!r} at this table (seats 0 to {self.players - 1})."
        acting = self.to_act()
        if seat in acting:
            return None
        who = names_text([whom(self.names[s]) for s in acting])
        if self.has_chosen(seat):
            return f"You have already made your choice: waiting for {who}."
        return f"It is not your turn: waiting for {who}."

    def has_chosen(self, seat: int) -> bool:
        """Whether ``seat`` has made a choice that several seats make at once, in
        secret, and now waits for the others (2v1's exchange, for one)."""
        return False

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Carry out a checked, legal action."""

    def apply(self, seat: int, action: Action) -> None:
        reason = self.check(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        self._apply(seat, action)
        self.actions.append((seat, action.to_json()))

    def malformed(self, seat: Any, action: Any) -> str | None:
        """Why ``(seat, action)`` is not even a well-formed move of this variant (not an
        :class:`Action`, no such seat, an unknown kind, cards that are no card codes of
        this deck or not a tuple, a pass carrying cards, a value of the wrong type), or
        ``None``. Every variant's :meth:`check` asks this first, so ``check`` answers
        with a reason and ``apply`` raises :class:`IllegalAction` for any input, and
        nothing accepted can break :meth:`to_json`."""
        if not isinstance(action, Action):
            return f"{type(action).__name__} is not an action: make an Action(kind, cards, value)."
        if type(seat) is not int or not 0 <= seat < self.players:
            return f"There is no seat {seat!r} at this table (seats 0 to {self.players - 1})."
        kind = action.kind
        if type(kind) is not str or not 0 < len(kind) <= 40:
            kinds = ", ".join(sorted(self.ACTION_SHAPES))
            return f"{kind!r:.40} is not a move in {self.name} (moves: {kinds})."
        shape = self.ACTION_SHAPES.get(kind)
        if shape is None:
            return None  # a word that names no move: the variant says what to do instead
        takes_cards, value_type = shape
        cards = action.cards
        if type(cards) is not tuple:
            return "The cards of an action must be a tuple of card codes."
        if cards:
            if not takes_cards:
                return f"A {kind} carries no cards."
            codes = self._deck_codes
            if codes is None:
                codes = type(self)._deck_codes = frozenset(self.deck_cards())
            for c in cards:
                if type(c) is not str or c not in codes:
                    return self._card_code_reason(c)
        value: Any = action.value
        if value is None:
            return None
        t = type(value)
        if t is str:
            if len(value) > 40:
                return "The value of an action is a short word or a number."
        elif t is int:
            if not -(10**9) <= value <= 10**9:
                return "The value of an action is a short word or a number."
        elif t is float:
            if not math.isfinite(value):
                return "The value of an action is a short word or a number."
        elif t is not bool:
            return (
                f"A value of type {t.__name__} cannot go with an action (a word or a number can)."
            )
        if value_type is None:
            return f"A {kind} carries no value."
        if value_type == "card" and t is str:
            codes = self._deck_codes
            if codes is None:
                codes = type(self)._deck_codes = frozenset(self.deck_cards())
            if value not in codes:
                return self._card_code_reason(value)
        return None

    def _card_code_reason(self, c: Any) -> str:
        if type(c) is str:
            for fix in (c.strip().upper(), c.strip().upper().replace("T", "10")):
                if fix != c and fix in (self._deck_codes or ()):
                    return f"{c[:12]!r} is not a card code: write {fix}."
            return f"{c[:12]!r} is not a card of {self.name}."
        return f"{c!r:.40} is not a card: cards are codes like 3S or 10H."

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know, JSON-able (typed in :mod:`.observation`; each
        variant returns its own subclass of :class:`~.observation.Observation`).
        Common keys, used by the UI:

        ``variant``, ``seat``, ``players``, ``names``, ``hand`` (codes),
        ``hand_counts`` (per seat), ``to_act``, ``dealer``, ``deal_number``,
        ``totals``, ``table`` (list of ``{"seat", "cards", "label"}``; hidden cards
        are ``"??"``), ``seat_tags`` (per seat, a list of short words such as
        "passed", "dealer", "lone", "duo"), ``history`` (public log),
        ``status`` (one line about the state of play), ``deal_over``, ``match_over``.
        Variants add their own keys.
        """

    @abstractmethod
    def _view(self, seat: int) -> AnyView:
        """``seat``'s typed view (:meth:`observe`), built from the state by each family;
        :meth:`observation` is its JSON."""

    @abstractmethod
    def next_deal(self) -> None:
        """Start the next deal after ``deal_over`` (not after ``match_over``). Each variant
        calls :meth:`reseed_for_next_deal` first: every deal after the first is shuffled
        by a generator of its own (:func:`deal_seed`)."""

    def reseed_for_next_deal(self) -> None:
        """The generator of the next deal (``deal_number + 1``), from :func:`deal_seed`."""
        self.rng = random.Random(deal_seed(self.seed, self.deal_number + 1))

    # ----- card accounting (used by the property tests) ----------------------------
    @abstractmethod
    def deck_cards(self) -> list[str]:
        """Every card of the deck in use this deal."""

    @abstractmethod
    def card_census(self) -> list[str]:
        """Every card where it is now (hands, table, tricks, discards, out of play...),
        concatenated: always a permutation of :meth:`deck_cards`."""

    @abstractmethod
    def hidden_from(self, seat: int) -> set[str]:
        """Cards ``seat`` must not be able to see now (other hands, face-down cards,
        undealt cards, others' secret choices). ``observation(seat)`` holds none of them,
        neither as a code nor as its face label."""

    # ----- helpers the UI asks the engine for -----------------------------------------
    def card_face(self, code: str) -> CardFace:
        return standard_face(code)

    def sort_cards(self, codes: list[str], by: str = "rank") -> list[str]:
        """Hand order for display: ``by="rank"`` (low to high) or ``by="suit"``."""
        return sorted(codes, key=lambda c: self.card_sort_key(c, by))

    @abstractmethod
    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        """Sort key of one card in this variant's order."""

    def describe(self, seat: int, action: Action) -> str | None:
        """A legal ``action`` in a few words, for a preview while it is being chosen
        (e.g. "run 5♠ 6♣ 7♦ — beats Ana's run"); ``None`` when the variant has nothing
        to add or the action is not legal (``check`` says why)."""
        return None

    @property
    def last_result(self) -> DealResult | None:
        return self.results[-1] if self.results else None

    def match_winners(self) -> list[int]:
        """The seats that won the match (when ``match_over``)."""
        best = min(self.totals) if self.low_score_wins else max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    def target_text(self) -> str:
        """One line about how the match is won, for the score panel."""
        return ""

    def rules_summary(self) -> list[str]:
        """The chosen house rules as player-readable lines (for help and the picker)."""
        specs = self.option_specs(self.players)
        return [f"{s.label}: {s.label_of(self.options[s.id])}" for s in specs]

    def log(self, text: str, seat: int | None = None, **extra: Unpack[LogExtras]) -> None:
        entry: LogEntry = {"seat": seat, "text": text, "deal": self.deal_number, **extra}
        self.history.append(entry)

    # ----- loading saved data ------------------------------------------------------------
    @classmethod
    def validate_json(cls, data: Any) -> None:
        """Raise :class:`GameDataError` unless ``data`` has the shape of this variant's
        ``to_json()`` and describes a consistent state (card census, seats, whose turn,
        totals, ...). Subclasses extend it with their own state."""
        from .validate import validate_base

        validate_base(cls, data)

    def check_loaded(self) -> None:
        """After a load: every seat asked to act has a legal move, every seat's view and
        the whole state can be made, the state is JSON (the engine's own consistency
        check); raise :class:`GameDataError` otherwise."""
        try:
            acting = self.to_act()
            if not self.deal_over and not self.match_over and not acting:
                raise GameDataError("the deal is not over but nobody is asked to act")
            for s in acting:
                if type(s) is not int or not 0 <= s < self.players:
                    raise GameDataError(f"seat {s!r} is asked to act but does not exist")
                if not self.legal_actions(s):
                    raise GameDataError(f"{self.names[s]} is asked to act but has no legal move")
                if self.decision(s) is None:
                    raise GameDataError(f"{self.names[s]} is asked to act but has no decision")
            for s in range(self.players):
                self.observation(s)
            json.dumps(self.to_json(), allow_nan=False)
        except GameDataError:
            raise
        except Exception as e:  # whatever the state breaks is a damaged state
            raise GameDataError(
                f"the saved {self.name} game is inconsistent ({type(e).__name__}: {e})"[:300]
            ) from e

    # ----- JSON -----------------------------------------------------------------------
    def _base_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant_id,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "rng": rng_state_to_json(self.rng),
            "names": self.names,
            "history": self.history,
            "actions": [[s, a] for s, a in self.actions],
            "totals": self.totals,
            "results": [r.to_json() for r in self.results],
            "deal_number": self.deal_number,
            "deal_over": self.deal_over,
            "match_over": self.match_over,
        }

    def _load_base(self, d: dict[str, Any]) -> None:
        self.rng = rng_from_json(d["rng"])
        # entries of a log this engine wrote (validate_base checks each text and seat)
        self.history = [cast(LogEntry, dict(h)) for h in d["history"]]
        self.actions = [(s, dict(a)) for s, a in d["actions"]]
        self.totals = list(d["totals"])
        self.results = [DealResult.from_json(r) for r in d["results"]]
        self.deal_number = d["deal_number"]
        self.deal_over = d["deal_over"]
        self.match_over = d["match_over"]

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (start from ``self._base_json()``)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a game from :meth:`to_json` output (use ``_load_base``)."""

    @classmethod
    def _blank(cls, data: dict[str, Any]) -> Self:
        """A game object with the base fields of ``data`` and no deal run yet."""
        g = cls.__new__(cls)
        Game.__init__(g, data["players"], data["options"], data["seed"], data["names"])
        g._load_base(data)
        return g

    def replay(self) -> Self:
        """A fresh game from the same seed and options with every action re-applied
        (and a deal this game has dealt after its last action dealt too)."""
        g = type(self)(self.players, dict(self.options), self.seed, list(self.names))
        for seat, a in self.actions:
            if g.deal_over and not g.match_over and not g.to_act():
                g.next_deal()
            g.apply(seat, Action.from_json(a))
        while g.deal_number < self.deal_number and g.deal_over and not g.match_over:
            g.next_deal()
        return g


# the base class's own public methods are guarded too (the abstract ones are, in each
# variant, by ``__init_subclass__``)
for _name in GUARDED:
    _fn = Game.__dict__.get(_name)
    if callable(_fn) and not getattr(_fn, "__isabstractmethod__", False):
        setattr(Game, _name, _guard(_name, _fn))
