"""Set a game of any variant up in a chosen position (for lessons and puzzles).

A :class:`Position` is plain data (JSON-able): the variant, the hands of every seat, who
is to act and what is on the table. :func:`build_game` returns a real game of that
variant in that position, on which ``legal_actions``, ``check``, ``apply`` and
``observation`` work as in any game. It does not go through the save loader: a position
is stacked on purpose, so it has no seed and action list that would replay to it.

What each family reads:

* **Climbing games** (``twos``, ``big-two``, ``big-two-5r``, ``chinese-poker``):
  ``top`` is the play to beat, ``{"seat": s, "cards": [...]}`` (``None``: ``to_act``
  leads); ``passes`` the seats that passed on it since (by default every seat between
  its player and ``to_act``). ``played`` are cards already played this deal (public),
  ``out_of_play`` cards nobody holds and nobody sees; a card in no hand and in neither
  list goes to ``out_of_play`` in a variant that leaves cards undealt (Twos with short
  hands), else to ``played``. ``opening`` (Twos and Big Two) makes ``to_act`` open the
  deal under the first-play rule (it must then hold the required card).
* **Twos, trick-taking** (``twos-tricks``): ``trick`` is the trick so far, a list of
  ``{"seat": s, "card": c}``; the cards in no hand and not in the trick were taken in
  earlier tricks (``extra`` may say by whom: ``taken``, ``tricks_taken``, ``points``).
* **2v1** (``2v1``): with no ``extra`` the position is the start of the bidding (the
  player left of the rainbow's holder speaks first, so ``to_act`` must be that player).
  For a later phase put the engine's state fields in ``extra`` (``phase``, ``lone``,
  ``bid``, ``hand_no``, ``hands_won``, ``duo_discards``, ``lead_up``...); cards in no
  hand and nowhere else in that state are taken to have left the round (the ``pile``).

``extra`` overrides any field of the variant's state data by name (an unknown name is
refused), for what the fields above do not cover. Every position is checked before a
game is made: every card once, hand sizes, the table state, whose turn; a bad one raises
:class:`PositionError` with a readable reason.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from . import VARIANT_IDS, new_game, variant_class
from .cards import display, display_cards
from .protocol import EngineError, Game, GameDataError

#: fields of a variant's state data a position never sets through ``extra``
_BASE_FIELDS = frozenset(
    ("variant", "players", "options", "seed", "rng", "names", "history", "actions", "results")
)


class PositionError(EngineError):
    """A position that cannot be set up; ``str(err)`` says why."""


@dataclass
class Position:
    """One game position as plain data (see the module docstring for each field)."""

    variant: str
    hands: list[list[str]]
    to_act: int
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] | None = None
    dealer: int | None = None
    top: dict[str, Any] | None = None
    passes: list[int] | None = None
    played: list[str] | None = None
    out_of_play: list[str] | None = None
    opening: bool = False
    trick: list[dict[str, Any]] | None = None
    totals: list[int] | None = None
    deal_number: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.hands)

    def to_json(self) -> dict[str, Any]:
        """The position as JSON data, leaving out fields at their defaults."""
        d = asdict(self)
        defaults = Position(self.variant, [], 0)
        return {
            k: v
            for k, v in d.items()
            if k in ("variant", "hands", "to_act") or v != getattr(defaults, k)
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from :meth:`to_json` data; malformed data raises
        :class:`PositionError`."""
        if type(data) is not dict:
            raise PositionError("a position is a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise PositionError(f"a position has no field {unknown[0]!r}")
        for key in ("variant", "hands", "to_act"):
            if key not in data:
                raise PositionError(f"a position needs {key!r}")
        try:
            return cls(**data)
        except TypeError as e:
            raise PositionError(f"bad position: {e}") from None


def _fail(text: str) -> PositionError:
    return PositionError(text)


def _faces(game: Game, codes: list[str]) -> str:
    """Cards as the game shows them (2v1's deck has faces of its own)."""
    out = []
    for c in codes:
        try:
            out.append(game.card_face(c).label)
        except Exception:  # (a code the game has no face for: shown as it is)
            out.append(c)
    return " ".join(out)


def _check_shape(p: Position) -> None:
    if type(p.variant) is not str or p.variant not in VARIANT_IDS:
        raise _fail(f"unknown game {p.variant!r}; known: " + ", ".join(VARIANT_IDS))
    if type(p.hands) is not list or not all(type(h) is list for h in p.hands):
        raise _fail("hands is a list of card lists, one per seat")
    cls = variant_class(p.variant)
    if p.players not in cls.player_counts:
        counts = ", ".join(map(str, cls.player_counts))
        raise _fail(f"{cls.name} is for {counts} players, not {p.players} hands")
    if type(p.to_act) is not int or not 0 <= p.to_act < p.players:
        raise _fail(f"to_act must be a seat from 0 to {p.players - 1}, not {p.to_act!r}")
    if type(p.options) is not dict:
        raise _fail("options is an object of house-rule ids to values")
    if type(p.extra) is not dict:
        raise _fail("extra is an object of state fields to values")
    if p.dealer is not None and (type(p.dealer) is not int or not 0 <= p.dealer < p.players):
        raise _fail(f"dealer must be a seat from 0 to {p.players - 1}")
    if type(p.deal_number) is not int or not 1 <= p.deal_number <= 1000:
        raise _fail("deal_number is a whole number from 1")
    if p.totals is not None and (
        type(p.totals) is not list
        or len(p.totals) != p.players
        or not all(type(t) is int for t in p.totals)
    ):
        raise _fail("totals is a list of whole numbers, one per seat")


def _census(game: Game, where: dict[str, list[str]]) -> list[str]:
    """Check each named group holds cards of the deck, each card once in all; return
    the deck's cards in no group."""
    deck = game.deck_cards()
    codes = set(deck)
    seen: dict[str, str] = {}
    for name, cards in where.items():
        if type(cards) is not list:
            raise _fail(f"{name} is a list of card codes")
        for c in cards:
            if type(c) is not str or c not in codes:
                raise _fail(f"{name}: {str(c)[:12]!r} is not a card of {game.name}")
            if c in seen:
                other = seen[c]
                twice = f"both in {name}" if other == name else f"in {other} and in {name}"
                raise _fail(f"{_faces(game, [c])} is {twice}: every card is in one place only")
            seen[c] = name
    return [c for c in deck if c not in seen]


def build_game(position: Position) -> Game:
    """A real game of ``position.variant`` in ``position``; a position that cannot be
    raises :class:`PositionError` with the reason."""
    p = position
    if not isinstance(p, Position):
        raise PositionError("build_game takes a Position")
    _check_shape(p)
    try:
        base = new_game(p.variant, p.players, dict(p.options), 0, p.names)
    except EngineError as e:
        raise PositionError(str(e)) from None
    data = base.to_json()
    data["history"] = []
    data["actions"] = []
    data["results"] = []
    data["deal_number"] = p.deal_number
    data["totals"] = list(p.totals) if p.totals is not None else [0] * p.players
    data["deal_over"] = False
    data["match_over"] = False
    if base.family == "climbing":
        _climbing(base, p, data)
    elif p.variant == "twos-tricks":
        _tricks(base, p, data)
    else:
        _two_v_one(base, p, data)
    for key, value in p.extra.items():
        if key in _BASE_FIELDS or key not in data:
            raise _fail(f"extra: {key!r} is not a state field of {base.name}")
        data[key] = value
    cls = type(base)
    try:
        json.dumps(data, allow_nan=False)
        cls.validate_json(data)
        game = cls.from_json(data)
        game.check_loaded()
    except GameDataError as e:
        raise PositionError(f"this {base.name} position is not possible: {e}") from None
    except (TypeError, ValueError) as e:
        raise PositionError(f"this {base.name} position is not possible: {e}") from None
    if p.to_act not in game.to_act():
        raise _fail(f"{game.names[p.to_act]} was to act, but the position asks someone else")
    return game


# ----- climbing games ---------------------------------------------------------------------
def _climbing(base: Game, p: Position, data: dict[str, Any]) -> None:
    from .climbing.combination import shown_order
    from .climbing.game import ClimbingGame

    assert isinstance(base, ClimbingGame)
    n = p.players
    top_cards: list[str] = []
    top_seat: int | None = None
    if p.top is not None:
        if type(p.top) is not dict or set(p.top) != {"seat", "cards"}:
            raise _fail('top is {"seat": s, "cards": [...]} or null')
        top_seat = p.top["seat"]
        top_cards = p.top["cards"]
        if type(top_seat) is not int or not 0 <= top_seat < n:
            raise _fail(f"top.seat must be a seat from 0 to {n - 1}")
    if p.trick is not None:
        raise _fail("a climbing game's table is 'top' (and 'passes'), not 'trick'")
    groups: dict[str, list[str]] = {f"hand {i}": h for i, h in enumerate(p.hands)}
    groups["the play on the table"] = list(top_cards)
    if p.played is not None:
        groups["played"] = p.played
    if p.out_of_play is not None:
        groups["out_of_play"] = p.out_of_play
    rest = _census(base, groups)
    undealt = len(base.card_census()) - sum(len(h) for h in base.to_json()["hands"])
    played = list(p.played or [])
    out = list(p.out_of_play or [])
    if p.out_of_play is None and p.played is not None:
        out += rest
    elif p.out_of_play is not None and p.played is None:
        played += rest
    elif p.out_of_play is None and p.played is None:
        if undealt and len(rest) != undealt:
            raise _fail(
                f"{base.name} with these rules leaves {undealt} cards out of play: say which "
                "(out_of_play) or which cards were played (played)"
            )
        if undealt:
            out += rest
        else:
            played += rest
    elif rest:
        raise _fail(f"{display_cards(rest[:4])}... are nowhere: put them in played or out_of_play")
    if len(out) != undealt:
        raise _fail(
            f"{base.name} with these rules leaves {undealt} cards out of play, not {len(out)}"
        )
    size = max(len(h) for h in base.to_json()["hands"])
    for i, h in enumerate(p.hands):
        if not h:
            raise _fail(f"seat {i} has no cards: the deal would be over")
        if len(h) > size:
            raise _fail(f"seat {i} holds {len(h)} cards; a hand here is at most {size}")
    if not p.hands[p.to_act]:
        raise _fail("the seat to act has no cards")
    passed = [False] * n
    trick: list[dict[str, Any]] = []
    top_json: list[Any] | None = None
    if top_seat is not None:
        if top_seat == p.to_act:
            raise _fail("the seat to act made the play on the table: everyone passed, so it leads")
        combo = base.classify_cards(tuple(top_cards), base.options)
        if combo is None:
            raise _fail(f"{display_cards(top_cards)} on the table is not a combination")
        top_json = [top_seat, list(combo.cards)]
        between = []
        s = (top_seat + 1) % n
        while s != p.to_act:
            between.append(s)
            s = (s + 1) % n
        passes = between if p.passes is None else list(p.passes)
        if sorted(passes) != sorted(between):
            names = ", ".join(map(str, between)) or "nobody"
            raise _fail(
                f"with seat {top_seat}'s play on the table and seat {p.to_act} to act, "
                f"the seats that passed are {names}"
            )
        trick.append(
            {
                "seat": top_seat,
                "cards": list(shown_order(combo.kind, combo.cards)),
                "kind": combo.kind,
            }
        )
        for s in between:
            passed[s] = True
            trick.append({"seat": s, "pass": True})
    elif p.passes:
        raise _fail("nobody has played in this trick, so nobody can have passed on it")
    data["hands"] = [base.sort_cards(list(h)) for h in p.hands]
    data["dealer"] = p.dealer if p.dealer is not None else data["dealer"]
    data["current"] = p.to_act
    data["top"] = top_json
    data["passed"] = passed
    data["trick"] = trick
    data["last_trick"] = None
    data["out_of_play"] = sorted(out, key=base.card_sort_key)
    data["discards"] = played + list(top_cards)
    data["opening"] = p.opening
    data["required_card"] = None
    if p.opening:
        if top_seat is not None or played:
            raise _fail("the opening play of a deal comes before any card is played")
        req = base.to_json()["required_card"]
        if req is not None:
            low = min((c for h in p.hands for c in h), key=base.card_sort_key)
            if low not in p.hands[p.to_act]:
                raise _fail(f"the deal is opened by the holder of {display(low)}")
            data["required_card"] = low
    if p.variant == "chinese-poker":
        data.update(phase="play", offered={}, chooser=None, open_passes=0, next_dealer=None)


# ----- Twos, trick-taking --------------------------------------------------------------
def _tricks(base: Game, p: Position, data: dict[str, Any]) -> None:
    n = p.players
    if p.top is not None or p.passes:
        raise _fail("a trick game's table is 'trick', not 'top' or 'passes'")
    trick = p.trick or []
    plays: list[tuple[int, str]] = []
    for i, t in enumerate(trick):
        if type(t) is not dict or set(t) != {"seat", "card"}:
            raise _fail(f'trick[{i}] is {{"seat": s, "card": c}}')
        s = t["seat"]
        if type(s) is not int or not 0 <= s < n:
            raise _fail(f"trick[{i}].seat must be a seat from 0 to {n - 1}")
        plays.append((s, t["card"]))
    if len(plays) >= n:
        raise _fail(f"a trick holds at most {n - 1} cards before the seat to act plays")
    leader = plays[0][0] if plays else p.to_act
    for i, (s, _) in enumerate(plays):
        if s != (leader + i) % n:
            raise _fail("the trick's cards are played in turn, to the left")
    if (leader + len(plays)) % n != p.to_act:
        raise _fail(f"after this trick so far it is seat {(leader + len(plays)) % n}'s turn")
    groups: dict[str, list[str]] = {f"hand {i}": h for i, h in enumerate(p.hands)}
    groups["the trick"] = [c for _, c in plays]
    rest = _census(base, groups)
    played_now = {s for s, _ in plays}
    left = {len(h) + (1 if i in played_now else 0) for i, h in enumerate(p.hands)}
    if len(left) != 1:
        raise _fail("every seat holds the same number of cards (one fewer once it has played)")
    (cards_each,) = left
    if not 1 <= cards_each <= 13:
        raise _fail("each seat holds 1 to 13 cards")
    done = 13 - cards_each
    data["hands"] = [base.sort_cards(list(h), "suit") for h in p.hands]
    data["dealer"] = p.dealer if p.dealer is not None else (leader - 1) % n
    data["current"] = p.to_act
    data["leader"] = leader
    data["trick"] = [[s, c] for s, c in plays]
    data["taken"] = [rest if i == 0 else [] for i in range(n)]
    data["tricks_taken"] = [done if i == 0 else 0 for i in range(n)]
    data["points"] = [0] * n
    data["honours"] = [0] * n
    data["catch_points"] = [0] * n
    data["trick_number"] = done + 1
    data["last_trick"] = None


# ----- 2v1 ---------------------------------------------------------------------------------
def _two_v_one(base: Game, p: Position, data: dict[str, Any]) -> None:
    from .two_v_one.deck import RAINBOW

    n = p.players
    if p.top is not None or p.passes or p.trick is not None:
        raise _fail("a 2v1 position sets its table through 'extra' (lead_up, follows...)")
    extra = p.extra
    groups: dict[str, list[str]] = {f"hand {i}": h for i, h in enumerate(p.hands)}
    for key in ("lead_up", "lead_down"):
        c = extra.get(key)
        if c is not None:
            groups[key] = [c]
    for key in ("follows", "duo_discards"):
        vals = extra.get(key)
        if vals is not None:
            if type(vals) is not list:
                raise _fail(f"extra.{key} is a list, one entry per seat")
            groups[key] = [c for c in vals if c is not None]
    if "pile" in extra:
        groups["pile"] = extra["pile"]
    rest = _census(base, groups)
    data["hands"] = [base.sort_cards(list(h)) for h in p.hands]
    data["seen"] = [sorted(h) for h in p.hands]
    phase = extra.get("phase", "bid")
    if phase == "bid":
        if rest:
            raise _fail("at the bidding every card is in a hand (six each)")
        holder = next((i for i, h in enumerate(p.hands) if RAINBOW in h), None)
        if holder is None:
            raise _fail("nobody holds the rainbow")
        if any(len(h) != 6 for h in p.hands):
            raise _fail("at the bidding every hand holds six cards")
        first = (holder + 1) % n
        if p.to_act != first:
            raise _fail(f"the bidding starts left of the rainbow's holder: seat {first}")
        data["dealer"] = p.dealer if p.dealer is not None else (holder - 1) % n
        data["rainbow_origin"] = holder
        data["bid_queue"] = [(holder + 1) % n, (holder + 2) % n, holder]
        return
    if "pile" not in extra:
        data["pile"] = rest
    elif rest:
        raise _fail(f"{_faces(base, rest[:4])} are nowhere: put them in the pile")
    # what each seat has seen: its hand and its own discard, the cards gone (shown to
    # all), the face-up lead; the lone its face-down card; the cards the duo played
    # (face down to the partner during a blindfold, until the hand is decided)
    public = set(data["pile"])
    for key in ("lead_up",):
        if extra.get(key) is not None:
            public.add(extra[key])
    last = extra.get("last_hand")
    if type(last) is dict:
        public.update(c for c in last.get("lone", []) if type(c) is str)
        public.update(x[1] for x in last.get("duo", []) if type(x) is list and len(x) == 2)
    follows = extra.get("follows") or [None] * n
    discards = extra.get("duo_discards") or [None] * n
    seen = []
    for i, h in enumerate(p.hands):
        mine = set(h) | public
        if i == extra.get("lone") and extra.get("lead_down") is not None:
            mine.add(extra["lead_down"])
        for j, c in enumerate(follows):
            if c is not None and (j == i or not extra.get("blind")):
                mine.add(c)
        if i < len(discards) and discards[i] is not None:
            mine.add(discards[i])
        seen.append(sorted(mine))
    data["seen"] = seen
    if "rainbow_origin" not in extra:
        data["rainbow_origin"] = None
    data["bid_queue"] = []
    lone, bid = extra.get("lone"), extra.get("bid")
    data["high_bid"], data["high_seat"] = bid, lone
    if "hand_no" not in extra and type(extra.get("hands_won")) is list:
        # the hand being played (its result, at "keep", is already counted)
        done = sum(x for x in extra["hands_won"] if type(x) is int)
        data["hand_no"] = done + (0 if phase in ("keep", "over") else 1)
    if p.dealer is not None:
        data["dealer"] = p.dealer
