"""The protocol shell shared by the climbing (shedding) games: combinations as players
read them, the play log and the trick's record, passing (re-entry or locked out), the
end of a deal, the observation and the JSON.

The rules themselves live once in the integer core (:mod:`.sim`): each variant lists
its plays and classifies cards there, and :meth:`ClimbingGame._advance` takes who acts
next from the core's trick flow (:func:`.sim.core.next_to_act`).

A variant subclasses :class:`ClimbingGame` and supplies:

* ``classify_cards(cards, options)`` -> :class:`Combination` or ``None`` (classmethod);
* ``enumerate_combos(seat, top)`` -> the combinations the seat may play: every lead when
  ``top`` is ``None``, else those that beat ``top`` (a canonical suit choice is allowed
  where suits cannot change the outcome);
* ``deal_cards()``: shuffles with ``self.rng``, fills ``self.hands`` and sets
  ``self.dealer``, ``self.current`` and ``self.required_card``;
* ``score_deal(winner)`` -> :class:`DealResult` (and sets ``self.match_over``);
* ``card_sort_key`` and, where it differs, ``can_pass_lead``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Self, cast

from ._view_climbing import ClimbingLastTrick as ClimbingLastTrick_
from ._view_climbing import ClimbingView, HandChoice, TopPlay
from ._view_climbing import TrickMove as TrickMoveView
from ._view_common import Mirror, ViewCache
from ._view_common import TableEntry as TableEntryView
from .cards import CardError, display, display_cards, parse_card
from .observation import ClimbingLastTrick, ClimbingObservation, TrickMove
from .protocol import PASS, Action, Choice, DealResult, Decision, Game
from .sim.core import Move, beats, next_to_act
from .words import says, whose

#: a combination's pattern: ``("set", 2)``, ``("run", 5)``, ``("bomb", 4, 1)``, ...
Slot = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Combination:
    """A legal set of cards and how it compares.

    ``a.beats(b)`` when ``a.power > b.power`` (a bomb over a non-bomb), or when both
    have the same ``power`` and ``slot`` (the same pattern: same count, same run
    length, ...) and ``a.key > b.key``. If ``b.strict`` is set, ``a`` must carry the
    same ``strict`` mark to beat it (e.g. a same-suit run under the house rule).
    """

    kind: str
    cards: tuple[str, ...]
    slot: Slot
    key: tuple[int, ...]
    power: int = 0
    strict: str | None = None

    def beats(self, other: Combination) -> bool:
        """The core's comparison (:func:`.sim.core.beats`) over these fields."""
        return beats(
            cast(Move, (0, self.slot, self.key, self.power, self.strict)),
            cast(Move, (0, other.slot, other.key, other.power, other.strict)),
        )

    @property
    def is_bomb(self) -> bool:
        return self.power > 0

    def describe(self) -> str:
        return f"{self.kind.replace('-', ' ')} {display_cards(shown_order(self.kind, self.cards))}"


@lru_cache(maxsize=256)
def describe_kind(kind: str) -> str:
    if kind.startswith("bomb-"):
        w, ln = kind[5:].split("x")
        return f"bomb {w}×{ln}"
    return kind.replace("-", " ")


def shown_order(kind: str, cards: Sequence[str]) -> tuple[str, ...]:
    """The cards of a play in the order a player reads them: a straight's 2 first (in a
    straight the 2 is the bottom card: 2-3-4-5-6), a full house's three of a kind before
    its pair. Other plays keep their order (lowest first). Display only: the rules never
    depend on the order."""
    if kind in ("straight", "straight-flush"):
        twos = [c for c in cards if c[:-1] == "2"]
        if twos and len(twos) < len(cards):
            return tuple(twos + [c for c in cards if c[:-1] != "2"])
    elif kind == "full-house":
        count: dict[str, int] = {}
        for c in cards:
            count[c[:-1]] = count.get(c[:-1], 0) + 1
        three = [c for c in cards if count[c[:-1]] >= 3]
        return tuple(three + [c for c in cards if count[c[:-1]] < 3])
    return tuple(cards)


def reading_order(cards: Sequence[str]) -> tuple[str, ...]:
    """:func:`shown_order` for cards whose kind is not at hand: five or more cards of
    different ranks holding a 2 and a 3 are a straight (no game's run goes round from
    the 2 to the 3 the other way); five cards of two ranks, three and two, a full house."""
    ranks = [c[:-1] for c in cards]
    if len(cards) >= 5 and len(set(ranks)) == len(ranks) and "2" in ranks and "3" in ranks:
        return shown_order("straight", cards)
    if len(cards) == 5 and sorted(ranks.count(r) for r in set(ranks)) == [2, 3]:
        return shown_order("full-house", cards)
    return tuple(cards)


def show_combo(combo: Combination) -> str:
    """A combination's cards as a player reads them (see :func:`shown_order`)."""
    return _show(shown_order(combo.kind, combo.cards))


_SHOWN: dict[str, str] = {}


def _show(cards: Iterable[str]) -> str:
    """``display_cards`` with a memo of each card's face (the play log is hot)."""
    out = []
    for c in cards:
        t = _SHOWN.get(c)
        if t is None:
            t = _SHOWN[c] = display(c)
        out.append(t)
    return " ".join(out)


class ClimbingGame(Game):
    family: ClassVar[str] = "climbing"
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {
        "play": (True, None),
        "pass": (False, None),
    }
    #: (seat, cards, codes, combo) of the last check
    _checked: tuple[int, tuple[str, ...], tuple[str, ...], Combination] | None = None
    #: what the views keep between calls (:meth:`_view`)
    _vc: _ClimbingCache | None = None
    #: penalty per deal unless the subclass scores otherwise
    low_score_wins: bool = True
    #: ``deal_cards`` already leaves every hand sorted by ``card_sort_key``
    hands_sorted_by_deal: ClassVar[bool] = False

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(players, options, seed, names)
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        self.dealer = 0
        self.current = 0
        self.top: Combination | None = None  # the play to beat (None: free lead)
        self.top_seat: int | None = None  # who made it
        self.passed: list[bool] = [False] * self.players
        self.trick: list[TrickMove] = []  # plays and passes of the current trick
        #: the trick finished last (its plays and passes, and who won it), public
        self.last_trick: ClimbingLastTrick | None = None
        self.required_card: str | None = None  # must be in the first play of the deal
        self.opening = True  # nobody has played yet this deal
        self.out_of_play: list[str] = []  # undealt cards (hidden from everyone)
        self.discards: list[str] = []  # cards played this deal (public)
        self.start_deal()

    # ----- variant hooks ---------------------------------------------------------------
    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        raise NotImplementedError

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        raise NotImplementedError

    def deal_cards(self) -> None:
        raise NotImplementedError

    def score_deal(self, winner: int) -> DealResult:
        raise NotImplementedError

    @property
    def locked_out(self) -> bool:
        """House rule: a pass keeps the player out until the next trick."""
        return self.options.get("passing") == "locked"

    def can_pass(self, seat: int) -> bool:
        """May ``seat`` pass now? By default only when there is a play to beat."""
        return self.top is not None

    # ----- deal flow ----------------------------------------------------------------------
    def start_deal(self) -> None:
        self.deal_number += 1
        self.deal_over = False
        self.top = None
        self.top_seat = None
        self.passed = [False] * self.players
        self.trick = []
        self.last_trick = None
        self.opening = True
        self.required_card = None
        self.discards = []
        self.deal_cards()
        if not self.hands_sorted_by_deal:
            for h in self.hands:
                h.sort(key=self.card_sort_key)
        self.log(
            f"Deal {self.deal_number}: {says(self.names[self.dealer], 'deals')}; "
            f"{says(self.names[self.current], 'starts')}."
        )

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the deal is not over" if not self.deal_over else "the match is over")
        self.reseed_for_next_deal()
        self.start_deal()

    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        return (self.current,)

    # ----- legality ------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        combos = self.enumerate_combos(seat, self.top)
        if self.required_card is not None:
            combos = [c for c in combos if self.required_card in c.cards]
        acts = [Action("play", c.cards) for c in combos]
        if self.can_pass(seat):
            acts.append(PASS)
        return acts

    def parse_selection(self, seat: int, cards: Iterable[object]) -> tuple[str, ...]:
        """Codes of a selection, or raise ValueError with the reason."""
        if not cards:
            raise ValueError("Select at least one card to play, or pass.")
        codes = []
        for c in cards:
            try:
                codes.append(parse_card(c))
            except CardError as e:
                raise ValueError(str(e)) from None
        if len(set(codes)) != len(codes):
            dup = next(c for c in codes if codes.count(c) > 1)
            raise ValueError(f"{display(dup)} is chosen twice.")
        hand = set(self.hands[seat])
        for c in codes:
            if c not in hand:
                raise ValueError(f"{display(c)} is not in your hand.")
        return tuple(codes)

    def classify(self, cards: tuple[str, ...]) -> Combination | None:
        return self.classify_cards(cards, self.options)

    def check(self, seat: int, action: Action) -> str | None:
        bad = self.malformed(seat, action)
        if bad is None and (seat != self.current or self.deal_over or self.match_over):
            bad = self.turn_reason(seat)  # (the seat to play needs no to_act() call)
        if bad is not None:
            return bad
        if action.kind == "pass":
            if not self.can_pass(seat):
                return "You lead this trick: play something (there is nothing to pass on)."
            return None
        if action.kind != "play":
            return f"'{action.kind}' is not a move in {self.name}: play cards or pass."
        combo = self.lookup_play(seat, action.cards) if action.cards else None
        if combo is not None:
            codes = combo.cards
        else:
            try:
                codes = self.parse_selection(seat, action.cards)
            except ValueError as e:
                return str(e)
            combo = self.classify(codes)
            if combo is None:
                return self.why_not_combination(codes)
        if self.required_card is not None and self.required_card not in codes:
            return f"The first play of the deal must include {display(self.required_card)}."
        if self.top is not None and not combo.beats(self.top):
            return self.why_not_beating(combo, self.top)
        # remembered for _apply, which follows at once (apply = check + _apply)
        self._checked = (seat, action.cards, codes, combo)
        return None

    def describe(self, seat: int, action: Action) -> str | None:
        if action.kind != "play" or not action.cards or self.check(seat, action) is not None:
            return None
        combo = self.lookup_play(seat, action.cards)
        if combo is None:
            try:
                combo = self.classify(self.parse_selection(seat, action.cards))
            except ValueError:
                return None
        if combo is None:
            return None
        what = f"{describe_kind(combo.kind)} {show_combo(combo)}"
        if self.top is None or self.top_seat is None:
            return f"{what} — a new lead"
        beaten = describe_kind(self.top.kind)
        how = "bombs" if combo.is_bomb and not self.top.is_bomb else "beats"
        return f"{what} — {how} {whose(self.names[self.top_seat])} {beaten}"

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        """Fast path for :meth:`check`: the combination ``cards`` make if they are
        exactly a known play from ``seat``'s hand (e.g. one listed by
        ``legal_actions``), else ``None`` (then the cards are parsed and classified)."""
        return None

    def why_not_combination(self, codes: tuple[str, ...]) -> str:
        return f"{display_cards(codes)} is not a combination you can play in {self.name}."

    def why_not_beating(self, combo: Combination, top: Combination) -> str:
        if combo.power < top.power:
            return (
                f"{describe_kind(top.kind).capitalize()} on the table "
                "can only be beaten by a stronger bomb."
            )
        if combo.slot != top.slot:
            return (
                f"The table holds a {describe_kind(top.kind)} of {len(top.cards)}: "
                f"a {describe_kind(combo.kind)} of {len(combo.cards)} does not follow that pattern."
            )
        if top.strict is not None and combo.strict != top.strict:
            return (
                f"A {top.strict} {describe_kind(top.kind)} "
                f"can only be beaten by another {top.strict} one."
            )
        return f"{show_combo(combo)} does not beat {show_combo(top)}."

    # ----- applying -------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> None:
        if action.kind == "pass":
            self.passed[seat] = True
            self.trick.append({"seat": seat, "pass": True})
            # self.log(...), inlined: passes are half the moves
            self.history.append(
                {
                    "seat": seat,
                    "text": says(self.names[seat], "passes") + ".",
                    "deal": self.deal_number,
                    "kind": "pass",
                }
            )
            self._advance(seat)
            return
        memo, self._checked = self._checked, None
        combo: Combination | None
        if memo is not None and memo[0] == seat and memo[1] is action.cards:
            codes, combo = memo[2], memo[3]
        else:
            codes = self.parse_selection(seat, action.cards)
            combo = self.classify(codes)
        assert combo is not None
        hand = self.hands[seat]
        for c in codes:
            hand.remove(c)
        self.discards.extend(codes)
        self.on_play(seat, combo)
        self.top = combo
        self.top_seat = seat
        self.required_card = None
        self.opening = False
        if not self.locked_out:
            self.passed = [False] * self.players
        shown = list(shown_order(combo.kind, combo.cards))
        self.trick.append({"seat": seat, "cards": shown, "kind": combo.kind})
        is_bomb = combo.power > 0
        bomb = " — BOMB!" if is_bomb else ""
        self.log(
            says(self.names[seat], f"plays {describe_kind(combo.kind)} {_show(shown)}{bomb}"),
            seat,
            kind="play",
            cards=list(shown),
            combo=combo.kind,
            bomb=is_bomb,
        )
        if not hand:
            self._end_deal(seat)
            return
        self._advance(seat)

    def on_play(self, seat: int, combo: Combination) -> None:
        """Hook for variants (e.g. to note bombs)."""

    def _advance(self, seat: int) -> None:
        """The trick flow after ``seat`` played or passed: the core's
        :func:`~.sim.core.next_to_act`."""
        top_seat = self.top_seat
        if top_seat is None:
            # nobody has played in this trick (an opening pass): the hook decides
            self.after_open_pass(seat)
            return
        locked = self.options.get("passing") == "locked"  # self.locked_out
        passed = 0
        if locked:
            for i, p in enumerate(self.passed):
                if p:
                    passed |= 1 << i
        nxt = next_to_act(self.players, seat, top_seat, passed, locked)
        if nxt == top_seat:
            self._new_trick(nxt)
        else:
            self.current = nxt

    def after_open_pass(self, seat: int) -> None:
        """Called after a pass with nothing on the table (variants that allow it): the
        next seat leads."""
        self.current = (seat + 1) % self.players

    def _new_trick(self, leader: int) -> None:
        self.last_trick = {"plays": self.trick, "winner": leader}
        self.top = None
        self.top_seat = None
        self.passed = [False] * self.players
        self.trick = []
        self.current = leader
        self.log(
            f"Everyone else passed: {says(self.names[leader], 'leads a new trick')}.",
            leader,
            kind="trick",
        )

    def _end_deal(self, winner: int) -> None:
        self.deal_over = True
        result = self.score_deal(winner)
        self.results.append(result)
        self.totals = list(result.totals)
        self.log(result.summary, winner, kind="deal-end")
        if self.match_over:
            won = [self.names[i] for i in self.match_winners()]
            self.log(f"Match over: {says(won, 'wins')}.", None, kind="match-end")

    # ----- card accounting -----------------------------------------------------------
    def deck_cards(self) -> list[str]:
        from .cards import full_deck

        return full_deck()

    def card_census(self) -> list[str]:
        return [c for h in self.hands for c in h] + self.discards + self.out_of_play

    def hidden_from(self, seat: int) -> set[str]:
        hidden = set(self.out_of_play)
        if self.deal_over:
            return hidden  # the hands left are shown when the deal ends (``hands_left``)
        for i, h in enumerate(self.hands):
            if i != seat:
                hidden.update(h)
        # the card that must open the deal is announced with its holder
        hidden.discard(self.required_card)
        return hidden

    # ----- decisions and observations ----------------------------------------------
    def decision(self, seat: int) -> Decision | None:
        if seat not in self.to_act():
            return None
        if self.top is None:
            prompt = "Lead any combination."
            if self.required_card:
                prompt = f"Lead: your play must include {display(self.required_card)}."
        else:
            assert self.top_seat is not None
            prompt = (
                f"Beat {whose(self.names[self.top_seat])} {describe_kind(self.top.kind)} "
                f"{show_combo(self.top)}, or pass."
            )
        choices = (Choice("Pass", PASS, "p"),) if self.can_pass(seat) else ()
        return Decision(seat, "play", prompt, (1, len(self.hands[seat])), "play", choices)

    def status_line(self) -> str:
        if self.match_over:
            return "The match is over."
        if self.deal_over:
            return "The deal is over."
        who = self.names[self.current]
        if self.top is None:
            return f"{who} to lead."
        return f"{who} to beat {describe_kind(self.top.kind)} {show_combo(self.top)}."

    def seat_tags(self, seat: int) -> list[str]:
        tags = []
        if seat == self.dealer:
            tags.append("dealer")
        if self.passed[seat] and self.top is not None:
            tags.append("passed")
        if seat == self.top_seat:
            tags.append("on top")
        return tags

    def observation(self, seat: int) -> ClimbingObservation:
        """The JSON form of :meth:`_view` (what the corpus records and the network
        sends)."""
        return cast(ClimbingObservation, self._view(seat).to_json())

    def _view_keys(self, seat: int) -> ViewKeys:
        """A variant's own keys of ``seat``'s view: ``(bomb_order, score_label, phase,
        hand_choice, offered_hands)``, ``None`` where the variant has none."""
        return _NO_KEYS

    def _view(self, seat: int) -> ClimbingView:
        """``seat``'s typed view, built from the state (the trick, the log and the
        score sheet copied once an entry, as they grow)."""
        vc = self._vc
        if vc is None:
            vc = self._vc = _ClimbingCache()
        top = self.top
        if top is None:
            top_view = None
        elif vc.top_of is top and vc.top_seat == self.top_seat:
            top_view = vc.top
        else:
            top_view = vc.top = TopPlay(self.top_seat, shown_order(top.kind, top.cards), top.kind)
            vc.top_of, vc.top_seat = top, self.top_seat
        lt = self.last_trick
        if lt is None:
            last = None
        elif vc.last_of is lt:
            last = vc.last
        else:
            last = vc.last = ClimbingLastTrick_(tuple(map(_trick_move, lt["plays"])), lt["winner"])
            vc.last_of = lt
        n = self.players
        bomb_order, score_label, phase, hand_choice, offered = self._view_keys(seat)
        return ClimbingView(
            variant=self.variant_id,
            family=self.family,
            seat=seat,
            players=n,
            names=tuple(self.names),
            hand=tuple(self.hands[seat]),
            hand_counts=tuple(map(len, self.hands)),
            to_act=self.to_act(),
            dealer=self.dealer,
            deal_number=self.deal_number,
            totals=tuple(self.totals),
            table=vc.table.of(self.trick),
            seat_tags=tuple(tuple(self.seat_tags(i)) for i in range(n)),
            history=vc.history.of(self.history),
            status=self.status_line(),
            deal_over=self.deal_over,
            match_over=self.match_over,
            options=dict(self.options),
            deal_scores=vc.scores.of(self.results),
            trick=vc.trick.of(self.trick),
            top=top_view,
            required_card=self.required_card,
            last_trick=last,
            hands_left=(
                tuple(tuple(self.sort_cards(list(h))) for h in self.hands)
                if self.deal_over
                else None
            ),
            bomb_order=bomb_order,
            score_label=score_label,
            phase=phase,
            hand_choice=hand_choice,
            offered_hands=offered,
        )

    # ----- JSON -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(
            {
                "hands": [list(h) for h in self.hands],
                "dealer": self.dealer,
                "current": self.current,
                "top": ([self.top_seat, list(self.top.cards)] if self.top else None),
                "passed": list(self.passed),
                "trick": [dict(p) for p in self.trick],
                "last_trick": (
                    None
                    if self.last_trick is None
                    else {
                        "plays": [dict(p) for p in self.last_trick["plays"]],
                        "winner": self.last_trick["winner"],
                    }
                ),
                "required_card": self.required_card,
                "opening": self.opening,
                "out_of_play": list(self.out_of_play),
                "discards": list(self.discards),
            }
        )
        d.update(self.extra_json())
        return d

    def extra_json(self) -> dict[str, Any]:
        """Variant-specific state for :meth:`to_json`."""
        return {}

    def load_extra_json(self, d: dict[str, Any]) -> None:
        """Restore what :meth:`extra_json` saved."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls._blank(data)
        g.hands = [list(h) for h in data["hands"]]
        g.dealer = data["dealer"]
        g.current = data["current"]
        if data["top"] is None:
            g.top, g.top_seat = None, None
        else:
            g.top_seat = data["top"][0]
            g.top = cls.classify_cards(tuple(data["top"][1]), g.options)
        g.passed = list(data["passed"])
        g.trick = [cast(TrickMove, dict(p)) for p in data["trick"]]  # validated
        lt = data.get("last_trick")  # saves made before it was kept have none
        g.last_trick = (
            None
            if lt is None
            else {"plays": [cast(TrickMove, dict(p)) for p in lt["plays"]], "winner": lt["winner"]}
        )
        g.required_card = data["required_card"]
        g.opening = data["opening"]
        g.out_of_play = list(data["out_of_play"])
        g.discards = list(data["discards"])
        g.load_extra_json(data)
        return g

    @classmethod
    def validate_json(cls, data: Any) -> None:
        from .validate import validate_climbing

        super().validate_json(data)
        validate_climbing(cls, data, [], False)


#: a variant's own keys of a view (see :meth:`ClimbingGame._view_keys`)
ViewKeys = tuple[
    tuple[str, ...] | None,
    str | None,
    str | None,
    HandChoice | None,
    Mapping[str, tuple[str, ...]] | None,
]
_NO_KEYS: ViewKeys = (None, None, None, None, None)


def _trick_move(d: TrickMove) -> TrickMoveView:
    cards = d.get("cards")
    return TrickMoveView(
        d["seat"], None if cards is None else tuple(cards), d.get("kind"), d.get("pass", False)
    )


def _table_entry(d: TrickMove) -> TableEntryView | None:
    if d.get("pass"):
        return None
    return TableEntryView(d["seat"], tuple(d["cards"]), None, d["kind"])


class _ClimbingCache(ViewCache):
    """A climbing game's copies between views (see :class:`~._view_common.ViewCache`)."""

    __slots__ = ("last", "last_of", "table", "top", "top_of", "top_seat", "trick")

    def __init__(self) -> None:
        super().__init__()
        self.trick: Mirror[TrickMoveView] = Mirror(_trick_move)
        self.table: Mirror[TableEntryView] = Mirror(_table_entry)
        self.top: TopPlay | None = None
        self.top_of: object = None
        self.top_seat: int | None = None
        self.last: ClimbingLastTrick_ | None = None
        self.last_of: object = None
