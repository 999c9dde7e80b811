"""Shared machinery of the poker-hand climbing games (Big Two, Big Two five-round,
Chinese Poker): integer card tables, the cut for the deal, penalty scoring, and the
shell that lists the rules core's plays as entries.

Cards are integers internally: ``idx = rank * 4 + suit`` where ``rank`` is the climbing
order ``0`` (three) ... ``11`` (ace), ``12`` (two) and ``suit`` is ``0`` diamonds,
``1`` clubs, ``2`` hearts, ``3`` spades (the Big Two suit order). So for Big Two the
integer order *is* the single-card order, and a hand sorted by rank is sorted by ``idx``.
The protocol still speaks card codes (``"3D"``); the tables below translate.

The rules (classification, the listing of a hand's plays, how plays compare) live once,
in the integer rules core (:mod:`.rules_big_two`, :mod:`.rules_chinese_poker`), which the
search plays directly. :class:`PokerClimbingGame` asks the core for a hand's moves (card
masks) and lists them as *entries* ``[key, cards, mask, kind, slot, power, action,
combo, move, text]``: the integer ``key`` (``Combination.key == (key,)``), the card
codes in ``idx`` order, their bit mask, kind, slot and power; the ``Action`` and
``Combination`` objects and the play-log text (built when first needed, then reused).
An entry depends only on its cards, the variant and the options, so entries live in a
table shared by every game of that variant and those options (by mask and by card
tuple), with each hand's lead list. Entries are listed by slot, then key, then cards.

Checking. An action whose cards are an entry of the shared table (every action that
``legal_actions`` lists) is checked with a few mask operations and played without
parsing or classifying again; any other selection takes the general path of
:class:`~.game.ClimbingGame` with the same reasons.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from ..cards import CLIMB_RANKS, RANK_TEXT, display
from ..protocol import PASS, Action, DealResult, OptionSpec
from ..words import says
from .combination import Combination, Slot, _show, describe_kind, shown_order
from .core import beats
from .game import ClimbingGame
from .poker_cards import CODE_BIT, CODE_IDX, IDX_CODE, mask_ints, penalty_50_40_30

if TYPE_CHECKING:
    from .core import Move

#: an entry (see above): ``[key, cards, mask, kind, slot, power, action, combo, move,
#: text]``. A list of mixed fields, some filled in when first needed, indexed in the
#: hottest loops of the engine: a list is the fastest record Python has for that, and
#: its one honest element type is ``Any`` (each reader names the field it takes).
Entry = list[Any]
#: a shared table of entries, by card mask and by card codes; a variant may also keep
#: whole lists of entries there (an Entry is a list too) under tuple keys of its own
EntryTable = dict[int | tuple[str | int, ...], Entry]
#: sort keys of the cards: by rank (then suit) and by suit (then rank)
RANK_SORT: dict[str, tuple[int, int]] = {c: (i >> 2, i & 3) for c, i in CODE_IDX.items()}
SUIT_SORT: dict[str, tuple[int, int]] = {c: (i & 3, i >> 2) for c, i in CODE_IDX.items()}


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    """A uniformly random order of ``cards`` drawn from ``rng`` (one float a card,
    quicker than ``rng.shuffle``)."""
    return [cards[j] for j in shuffled_positions(cards, rng)]


def shuffled_positions(cards: Sequence[str], rng: random.Random) -> list[int]:
    """The positions of ``cards`` in the order :func:`shuffled` puts them: one
    ``rng.random()`` a card, in order, sorted by that number (a tie, which practically
    never happens, is broken by the card code)."""
    rnd = rng.random
    n = len(cards)
    keys = [rnd() for _ in range(n)]
    if len(set(keys)) == n:
        return sorted(range(n), key=keys.__getitem__)
    return sorted(range(n), key=lambda j: (keys[j], cards[j]))


#: climbing rank index (0 = three ... 12 = two) -> text
RANK_LABEL = tuple(RANK_TEXT[r] for r in CLIMB_RANKS)

#: core moves list by slot, then key, then cards (a total order)
_MOVE_ORDER = itemgetter(1, 2, 0)
#: the shared table keeps each hand's lead list under ``(_LEADS, hand mask)``
_LEADS = "leads"

# entry fields
(E_KEY, E_CARDS, E_MASK, E_KIND, E_SLOT, E_POWER, E_ACTION, E_COMBO, E_MOVE, E_TEXT) = range(10)

_CODE_OF = IDX_CODE.__getitem__

#: (class, options) -> {mask: entry, cards: entry}, shared by the games of a variant
_TABLES: dict[tuple[type, tuple[tuple[str, Any], ...]], EntryTable] = {}
_TABLE_LIMIT = 150_000  # keys (about 300 bytes each); a full table starts again


def make_entry(
    tab: EntryTable | None,
    mask: int,
    key: int,
    idxs: Iterable[int],
    kind: str,
    slot: Slot,
    power: int = 0,
    move: Move | None = None,
) -> Entry:
    """A new entry for the ascending card integers ``idxs`` (bit mask ``mask``),
    remembered in the shared table ``tab`` unless it is ``None``."""
    cards = tuple(map(_CODE_OF, idxs))
    e = [key, cards, mask, kind, slot, power, None, None, move, None]
    if tab is not None:
        if len(tab) > _TABLE_LIMIT:
            tab.clear()
        tab[mask] = e
        tab[cards] = e
    return e


def action_of(e: Entry) -> Action:
    a: Action | None = e[6]
    if a is None:
        a = e[6] = Action("play", e[1])
    return a


def combo_of(e: Entry) -> Combination:
    combo: Combination | None = e[7]
    if combo is None:
        combo = e[7] = Combination(e[3], e[1], e[4], (e[0],), e[5])
    return combo


def play_text(e: Entry) -> str:
    """What the play log says after the player's name."""
    t: str | None = e[9]
    if t is None:
        t = e[9] = f" plays {describe_kind(e[3])} {_show(shown_order(e[3], e[1]))}" + (
            " — BOMB!" if e[5] > 0 else ""
        )
    return t


def hand_mask(codes: Iterable[str]) -> int:
    """Bit mask of distinct card codes."""
    return sum(map(CODE_BIT.__getitem__, set(codes)))


@cache
def passing_spec() -> OptionSpec:
    return OptionSpec(
        "passing",
        "Passing",
        "Whether a player who passes may play again later in the same trick.",
        (
            ("reentry", "A pass is for this turn only"),
            ("locked", "A pass keeps you out until the next trick"),
        ),
        "reentry",
    )


@cache
def target_spec(default: int = 100) -> OptionSpec:
    return OptionSpec(
        "target",
        "Match ends at",
        "The match ends after the deal in which someone's penalty total reaches this "
        "many points; the lowest total then wins.",
        ((50, "50 points"), (100, "100 points"), (150, "150 points"), (200, "200 points")),
        default,
    )


class PokerClimbingGame(ClimbingGame):
    """A climbing game whose plays come from the rules core (:mod:`.core`): the core lists
    a hand's moves (as card masks) and this shell turns them into entries, shared by
    every game of the variant and options, that carry the ``Action``, the
    ``Combination`` and the log text.

    Subclasses implement ``move_kind_slot`` (a core move's kind and protocol slot) and
    ``classify_cards``, and set ``bomb_slot`` if some play beats every non-bomb. The
    state is the core's (``self.core``, see :class:`~.game.ClimbingGame`).
    """

    bomb_slot: ClassVar[Slot | None] = None
    #: the core lists the plays that beat the table in the listing order already
    follows_in_order: ClassVar[bool] = False
    _tab: EntryTable | None = None  # the shared entry table of this variant and options
    _ck: tuple[int, tuple[str, ...], Entry] | None = (
        None  # (seat, cards, entry) of the last fast check
    )

    def move_kind_slot(self, mv: Move) -> tuple[str, Slot]:
        """The kind and the protocol slot of a core move."""
        raise NotImplementedError

    # ----- the core's moves as entries ----------------------------------------------------
    def _table(self) -> EntryTable:
        tab = self._tab
        if tab is None:
            tab = self._tab = _TABLES.setdefault(
                (type(self), tuple(sorted(self.options.items()))), {}
            )
        return tab

    def _entries(self, moves: Iterable[Move], ordered: bool = False) -> list[Entry]:
        """The entries of core moves, in the listing order (slot, key, cards); the
        moves are in that order already when ``ordered``."""
        tab = self._tab or self._table()
        get = tab.get
        out = []
        for mv in moves if ordered else sorted(moves, key=_MOVE_ORDER):
            e = get(mv[0])
            if e is None:
                kind, slot = self.move_kind_slot(mv)
                e = make_entry(tab, mv[0], mv[2], mask_ints(mv[0]), kind, slot, mv[3], mv)
            out.append(e)
        return out

    def clone_for_search(self) -> Self:
        g = super().clone_for_search()
        g._ck = None
        return g

    def combination_of(self, mv: Move) -> Combination:
        e = (self._tab or self._table()).get(mv[0]) or self._entries((mv,), True)[0]
        return e[7] or combo_of(e)

    def _entries_beating(self, seat: int, top: Combination | None) -> list[Entry]:
        mask = self.core.hands[seat]
        rules = self.rules_core
        if top is None:
            out = self._entries(rules.leads(mask))
            req = self.core.req
            if req:
                out = [e for e in out if e[2] & req]
            return out
        tm = self.core.top if top is self.top else rules.move_of(hand_mask(top.cards))
        assert tm is not None
        return self._entries(rules.follows(mask, tm))

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        return [e[7] or combo_of(e) for e in self._entries_beating(seat, top)]

    # ----- a variant's own phases (Chinese Poker's hand choice) -------------------------
    #: True while the variant runs a phase of its own: the methods below then hand over
    #: to the ``_other_*`` hooks (a flag, so the play phase pays no extra call)
    _choosing: bool = False

    def start_deal(self) -> None:
        self._choosing = False  # an instance attribute reads faster than the class's
        super().start_deal()

    def _to_act_other(self) -> tuple[int, ...]:
        return (self.core.cur,)

    def _legal_other(self, seat: int) -> list[Action]:
        """``legal_actions`` when it is not ``seat``'s turn to play (or in a phase of
        the variant's own)."""
        return []

    def _check_other(self, seat: int, action: Action) -> str | None:
        """``check`` for what the fast path does not settle."""
        return ClimbingGame.check(self, seat, action)

    def _apply_other(self, seat: int, action: Action) -> None:
        """``_apply`` for what the fast path does not settle."""
        ClimbingGame._apply(self, seat, action)

    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        if self._choosing:
            return self._to_act_other()
        return (self.core.cur,)

    def legal_actions(self, seat: int) -> list[Action]:
        core = self.core
        if seat != core.cur or self.deal_over or self.match_over or self._choosing:
            return self._legal_other(seat)
        moves = core.rules.legal(core)
        can_pass = bool(moves) and moves[-1] is None
        plays = cast("Sequence[Move]", moves[:-1] if can_pass else moves)
        if core.top is None:  # a lead: the whole list, remembered by hand (and rules)
            tab = self._tab or self._table()
            key = (_LEADS, core.hands[seat], core.req)
            acts: list[Action] | None = tab.get(key)
            if acts is None:
                acts = [e[6] or action_of(e) for e in self._entries(plays)]
                tab[key] = acts
            acts = list(acts)
        else:
            tab = self._tab or self._table()
            get = tab.get
            acts = []
            for mv in plays if self.follows_in_order else sorted(plays, key=_MOVE_ORDER):
                e = get(mv[0]) or self._entries((mv,), True)[0]
                acts.append(e[6] or action_of(e))
        if can_pass:
            acts.append(PASS)
        return acts

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        if type(cards) is not tuple:
            return None
        e = (self._tab or self._table()).get(cards)
        if e is None or e[2] & ~self.core.hands[seat]:
            return None
        return e[7] or combo_of(e)

    # ----- checking and playing --------------------------------------------------------
    def check(self, seat: int, action: Action) -> str | None:
        bad = self.malformed(seat, action)
        if bad is not None:
            self._ck = None
            return bad
        # fast path: a pass on a play, or a play whose cards are a known entry
        core = self.core
        if seat == core.cur and not self.deal_over and not self.match_over and not self._choosing:
            kind = action.kind
            if kind == "play":
                cards = action.cards
                tab = self._tab
                e = tab.get(cards) if tab is not None and type(cards) is tuple else None
                if e is not None:
                    m = e[2]
                    req = core.req
                    if not m & ~core.hands[seat] and (not req or req & m):
                        top = core.top
                        if top is None or beats(e[8], top):
                            self._ck = (seat, cards, e)
                            return None
            elif kind == "pass" and core.top is not None:
                return None
        self._ck = None
        return self._check_other(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        memo = self._ck
        if memo is not None:
            self._ck = None
            if memo[0] == seat and memo[1] is action.cards and action.kind == "play":
                self._play_entry(seat, memo[2])
                return
        if action.kind == "pass":
            self._pass(seat)
            return
        self._apply_other(seat, action)

    def _play_entry(self, seat: int, e: Entry) -> None:
        """Play a checked entry (what ``ClimbingGame._apply`` does, from the entry)."""
        self._play(seat, e[8], e[1], e[7] or combo_of(e), e[9] or play_text(e))

    # ----- deal helpers ----------------------------------------------------------------
    def cut_for_deal(self, deck: Sequence[str], value: Callable[[str], int]) -> int:
        """Each seat cuts one card; the highest ``value(code)`` deals (ties cut again)."""
        contenders = list(range(self.players))
        while True:
            cards = self.rng.sample(deck, len(contenders))
            shown = ", ".join(
                f"{self.names[s]} {display(c)}" for s, c in zip(contenders, cards, strict=False)
            )
            vals = [value(c) for c in cards]
            best = max(vals)
            winners = [s for s, v in zip(contenders, vals, strict=False) if v == best]
            if len(winners) == 1:
                self.log(
                    f"Cut for the deal: {shown}. {says(self.names[winners[0]], 'deals first')}.",
                    None,
                    kind="cut",
                )
                return winners[0]
            self.log(
                f"Cut for the deal: {shown}. A tie: those players cut again.", None, kind="cut"
            )
            contenders = winners

    def penalty_result(self, winner: int, changes: list[int], hand_size: int) -> DealResult:
        totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
        details = []
        for i, left in enumerate(self.cards_left()):
            if i == winner:
                details.append(f"{self.names[i]} went out.")
            else:
                details.append(
                    f"{self.names[i]}: {left} card{'s' if left != 1 else ''} "
                    f"left, +{changes[i]} (now {totals[i]})."
                )
        summary = (
            f"{says(self.names[winner], 'wins')} deal {self.deal_number}; penalties: "
            + ", ".join(
                f"{self.names[i]} +{changes[i]}" for i in range(self.players) if i != winner
            )
            + "."
        )
        return DealResult(self.deal_number, [winner], changes, totals, summary, details)

    def rank_text(self, idx: int) -> str:
        return RANK_LABEL[idx >> 2]


__all__ = [
    "PokerClimbingGame",
    "make_entry",
    "penalty_50_40_30",
    "passing_spec",
    "target_spec",
    "hand_mask",
    "shuffled",
    "shuffled_positions",
]
