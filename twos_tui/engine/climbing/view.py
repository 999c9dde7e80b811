"""The climbing games' view (Twos, Big Two, Big Two five-round, Chinese Poker): see
:mod:`..views`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._view_common import GameView, Mirror, TableEntry, ViewCache, common_fields, need, slot_maker
from .._view_json import (
    JsonObj,
    ViewError,
    Where,
    as_int,
    as_int_or_none,
    as_obj,
    as_str,
    as_str_or_none,
    as_strs,
    items,
    opt,
)
from .combination import shown_order

if TYPE_CHECKING:
    from .game import ClimbingGame


@dataclass(frozen=True, slots=True)
class TrickMove:
    """One move of the current trick: a play (``cards`` and ``kind``) or a pass."""

    seat: int
    cards: tuple[str, ...] | None = None  #: the cards played (``None``: a pass)
    kind: str | None = None  #: their combination's kind
    passed: bool = False  #: a pass

    @classmethod
    def from_json(cls, d: Any, where: Where) -> TrickMove:
        o = as_obj(d, where)
        passed = o.get("pass", False)
        if type(passed) is not bool:
            raise ViewError(f"{where}.pass should be true or false")
        return cls(
            as_int(o, "seat", where),
            as_strs(o, "cards", where) if "cards" in o else None,
            as_str(o, "kind", where) if "kind" in o else None,
            passed,
        )

    def to_json(self) -> JsonObj:
        d: JsonObj = {"seat": self.seat}
        if self.cards is not None:
            d["cards"] = list(self.cards)
        if self.kind is not None:
            d["kind"] = self.kind
        if self.passed:
            d["pass"] = True
        return d


@dataclass(frozen=True, slots=True)
class TopPlay:
    """The combination to beat."""

    seat: int | None
    cards: tuple[str, ...]
    kind: str

    @classmethod
    def from_json(cls, d: Any, where: Where) -> TopPlay:
        o = as_obj(d, where)
        return cls(
            as_int_or_none(o, "seat", where), as_strs(o, "cards", where), as_str(o, "kind", where)
        )

    def to_json(self) -> JsonObj:
        return {"seat": self.seat, "cards": list(self.cards), "kind": self.kind}


@dataclass(frozen=True, slots=True)
class ClimbingLastTrick:
    """The trick finished last this deal."""

    plays: tuple[TrickMove, ...]  #: its plays and passes, in order
    winner: int  #: the seat that won it (and leads next)

    @classmethod
    def from_json(cls, d: Any, where: Where) -> ClimbingLastTrick:
        o = as_obj(d, where)
        return cls(items(o, "plays", where, TrickMove.from_json), as_int(o, "winner", where))

    def to_json(self) -> JsonObj:
        return {"plays": [p.to_json() for p in self.plays], "winner": self.winner}


@dataclass(frozen=True, slots=True)
class HandChoice:
    """Chinese Poker: the dealer's pick of a hand, while it is made."""

    chooser: int | None
    letters: tuple[str, ...]

    @classmethod
    def from_json(cls, d: Any, where: Where) -> HandChoice:
        o = as_obj(d, where)
        return cls(as_int_or_none(o, "chooser", where), as_strs(o, "letters", where))

    def to_json(self) -> JsonObj:
        return {"chooser": self.chooser, "letters": list(self.letters)}


def _offered(d: Any, where: Where) -> Mapping[str, tuple[str, ...]]:
    o = as_obj(d, where)
    return {k: as_strs(o, k, where) for k in o}


@dataclass(frozen=True, slots=True)
class ClimbingView(GameView):
    """A climbing game's view (the keys of :class:`~..observation.ClimbingObservation` and
    its variants'; a variant's own keys are ``None`` in the others)."""

    trick: tuple[TrickMove, ...]  #: the current trick's plays and passes, in order
    top: TopPlay | None  #: the combination to beat (``None``: a lead)
    required_card: str | None  #: the card the first play of the deal must include
    last_trick: ClimbingLastTrick | None  #: ``None`` until a trick of this deal is over
    #: once the deal is over (never before): the cards each seat still held
    hands_left: tuple[tuple[str, ...], ...] | None = None
    bomb_order: tuple[str, ...] | None = None  #: Twos: the bomb shapes, weakest first
    score_label: str | None = None  #: Twos
    phase: str | None = None  #: Chinese Poker: "choose" or "play"
    hand_choice: HandChoice | None = None  #: Chinese Poker, while the hands are chosen
    offered_hands: Mapping[str, tuple[str, ...]] | None = None  #: to the chooser only

    @classmethod
    def from_json(cls, d: Any, public: bool = False) -> ClimbingView:
        o = as_obj(d, "observation")
        w = "observation"
        need(o, ("trick", "top", "required_card", "last_trick"), public)
        return cls(
            **common_fields(o, public),
            trick=opt(o, "trick", public, lambda: items(o, "trick", w, TrickMove.from_json), ()),
            top=TopPlay.from_json(o["top"], f"{w}.top") if o.get("top") is not None else None,
            required_card=opt(
                o, "required_card", public, lambda: as_str_or_none(o, "required_card", w), None
            ),
            last_trick=(
                ClimbingLastTrick.from_json(o["last_trick"], f"{w}.last_trick")
                if o.get("last_trick") is not None
                else None
            ),
            hands_left=(items(o, "hands_left", w, _cards_item) if "hands_left" in o else None),
            bomb_order=as_strs(o, "bomb_order", w) if "bomb_order" in o else None,
            score_label=as_str(o, "score_label", w) if "score_label" in o else None,
            phase=as_str(o, "phase", w) if "phase" in o else None,
            hand_choice=(
                HandChoice.from_json(o["hand_choice"], f"{w}.hand_choice")
                if "hand_choice" in o
                else None
            ),
            offered_hands=(
                _offered(o["offered_hands"], f"{w}.offered_hands") if "offered_hands" in o else None
            ),
        )

    def to_json(self) -> JsonObj:
        d = self._head_json()
        d["table"] = [t.to_json() for t in self.table]
        d["trick"] = [m.to_json() for m in self.trick]
        d["top"] = None if self.top is None else self.top.to_json()
        d["required_card"] = self.required_card
        d["last_trick"] = None if self.last_trick is None else self.last_trick.to_json()
        d.update(self._tail_json())
        if self.hands_left is not None:
            d["hands_left"] = [list(h) for h in self.hands_left]
        if self.bomb_order is not None:
            d["bomb_order"] = list(self.bomb_order)
        if self.score_label is not None:
            d["score_label"] = self.score_label
        if self.phase is not None:
            d["phase"] = self.phase
        if self.hand_choice is not None:
            d["hand_choice"] = self.hand_choice.to_json()
        if self.offered_hands is not None:
            d["offered_hands"] = {k: list(v) for k, v in self.offered_hands.items()}
        return d


def _cards_item(v: Any, where: Where) -> tuple[str, ...]:
    if type(v) is not list or any(type(x) is not str for x in v):
        raise ViewError(f"{where} should be a list of card codes")
    return tuple(v)


# ----- building a view from a game's state ------------------------------------------------
#: a variant's own keys of a view: ``(bomb_order, score_label, phase, hand_choice,
#: offered_hands)``, ``None`` where the variant has none
ViewKeys = tuple[
    tuple[str, ...] | None,
    str | None,
    str | None,
    HandChoice | None,
    Mapping[str, tuple[str, ...]] | None,
]
NO_KEYS: ViewKeys = (None, None, None, None, None)


def _trick_move(d: Any) -> TrickMove:
    cards = d.get("cards")
    return TrickMove(
        d["seat"], None if cards is None else tuple(cards), d.get("kind"), d.get("pass", False)
    )


def _table_entry(d: Any) -> TableEntry | None:
    if d.get("pass"):
        return None
    return TableEntry(d["seat"], tuple(d["cards"]), None, d["kind"])


class ClimbingCache(ViewCache):
    """A climbing game's copies between views (see :class:`~.._view_common.ViewCache`)."""

    __slots__ = ("last", "last_of", "table", "top", "top_of", "top_seat", "trick")

    def __init__(self) -> None:
        super().__init__()
        self.trick: Mirror[TrickMove] = Mirror(_trick_move)
        self.table: Mirror[TableEntry] = Mirror(_table_entry)
        self.top: TopPlay | None = None
        self.top_of: object = None
        self.top_seat: int | None = None
        self.last: ClimbingLastTrick | None = None
        self.last_of: object = None


_new_view = slot_maker(ClimbingView)


def view_of(game: ClimbingGame, seat: int) -> ClimbingView:
    """``seat``'s typed view of a climbing game, built from its core state (hands,
    counts, the play to beat, the required card, who passed) and its records (the trick,
    the log and the score sheet copied once an entry, as they grow)."""
    vc = game._vc
    if vc is None:
        vc = game._vc = ClimbingCache()
    core = game.core
    mv = core.top
    if mv is None:
        top_view = None
    elif vc.top_of is mv and vc.top_seat == core.top_seat:
        top_view = vc.top
    else:
        top = game.top
        assert top is not None
        top_view = vc.top = TopPlay(core.top_seat, shown_order(top.kind, top.cards), top.kind)
        vc.top_of, vc.top_seat = mv, core.top_seat
    lt = game.last_trick
    if lt is None:
        last = None
    elif vc.last_of is lt:
        last = vc.last
    else:
        last = vc.last = ClimbingLastTrick(tuple(map(_trick_move, lt["plays"])), lt["winner"])
        vc.last_of = lt
    n = game.players
    over = game.deal_over
    bomb_order, score_label, phase, hand_choice, offered = game._view_keys(seat)
    return _new_view(
        variant=game.variant_id,
        family=game.family,
        seat=seat,
        players=n,
        names=tuple(game.names),
        hand=game.hand_codes(seat),
        hand_counts=tuple([h.bit_count() for h in core.hands]),
        to_act=game.to_act(),
        dealer=core.dealer,
        deal_number=game.deal_number,
        totals=tuple(game.totals),
        table=vc.table.of(game.trick),
        seat_tags=game.all_seat_tags(),
        history=vc.history.of(game.history),
        status=game.status_line(),
        deal_over=over,
        match_over=game.match_over,
        options=dict(game.options),
        deal_scores=vc.scores.of(game.results),
        trick=vc.trick.of(game.trick),
        top=top_view,
        required_card=game.required_card,
        last_trick=last,
        hands_left=(
            tuple([tuple(game.sort_cards(list(game.hand_codes(i)))) for i in range(n)])
            if over
            else None
        ),
        bomb_order=bomb_order,
        score_label=score_label,
        phase=phase,
        hand_choice=hand_choice,
        offered_hands=offered,
    )
