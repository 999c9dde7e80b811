"""Twos, the climbing game (docs/rules.md §1; seed ``twos-climbing-swift.txt``).

Cards rank 3 < 4 < ... < K < A < 2 and, within a rank, spades < clubs < diamonds <
hearts, so 3S is the lowest card and 2H the highest. Three players get 13 cards each
(13 stay out of play, unseen); two players get 20 each (12 out). The hand size is an
option. The holder of the lowest dealt card leads the first trick.

Plays (``Combination.kind``):

* ``single``, ``pair``, ``triple``: 1-3 cards of one rank;
* ``run``: 3+ consecutive ranks, one card each, in the order 3 ... K, A, 2 (no wrap);
* ``bomb-4x1``: four of a kind; ``bomb-WxL``: a multi-run of ``W`` >= 2 cards at each of
  ``L`` >= 3 consecutive ranks (334455 is ``bomb-2x3``).

A play is beaten by the same pattern (``Combination.slot``: same count, or same run
length, or same bomb shape) with a higher top card (``Combination.key`` = the top card,
rank then suit). A bomb beats any non-bomb; bomb shapes are ranked by
``Combination.power`` (1 = weakest shape). The shape order is :func:`bomb_order`
(docs/rules.md §1.7).

Action representation
---------------------
Runs and multi-runs leave free suit choices at their lower ranks, and those explode (a
ten-rank run with two suits at each rank is 1,024 card sets) while they never change
what the play *is*. So :meth:`TwosGame.legal_actions` lists **one action per distinct
outcome**, where an outcome is ``(kind, slot, top card)`` plus, under the same-suit
house rule, whether the run is same-suit:

* sets: one action per possible top card: that card plus the lowest other suits of the
  rank below it (pair with top 7D: 7S 7D if the player holds 7S);
* runs and multi-runs: one action per (start rank, length, top card): the top rank holds
  the top card (plus the lowest ``W-1`` suits below it for multi-runs), every lower rank
  the lowest ``W`` suits the player holds there;
* under the same-suit run option, for each run top card also the same-suit run of that
  suit when the player holds it, and a mixed-suit run when one is possible (the lowest
  suits, or, when those happen to be all one suit, the first rank switched to another
  suit).

:meth:`TwosGame.check` and :meth:`TwosGame.apply` validate and play **any** concrete
selection exactly (any suits, any order, ``"TH"``/glyph spellings), so a player may
still choose which cards to keep.

The rules themselves (the card encoding, classification, the bomb order, the listing
of canonical plays and how plays compare) live once, as integers, in the rules core
:mod:`.rules_twos`, which the search plays directly. This module is the protocol shell:
it translates card codes to the core's masks and its moves back to :class:`Combination`
and :class:`Action`, words the reasons, deals, scores and writes the log and the JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any, ClassVar, Self, cast

from ..cards import (
    CLIMB_RANKS,
    RANK_PLURAL,
    RANK_TEXT,
    CardError,
    display,
    display_cards,
    parse_card,
)
from ..observation import TwosObservation
from ..protocol import PASS, Action, DealResult, OptionSpec
from ..words import says, verb
from .combination import Combination, Slot, describe_kind, show_combo, shown_order
from .core import Move, beats
from .game import ClimbingGame
from .rules_twos import (
    BOMB_SHAPES,
    CODE_INT,
    CODES,
    NRANKS,
    STRICT,
    OptKey,
    TwosRules,
    bomb_order,
    bomb_sid,
    classify_mask,
    default_hand_size,
    opt_key,
    shape_label,
)
from .view import ViewKeys

__all__ = ["TwosGame", "classify_twos"]

# ---------------------------------------------------------------------------------------
# The shell: card codes <-> the core's masks and moves (:mod:`.rules_twos` holds the rules)

_RANK_WORD = {i: RANK_TEXT[r] for i, r in enumerate(CLIMB_RANKS)}
_RANK_PLURAL = {i: RANK_PLURAL[r] for i, r in enumerate(CLIMB_RANKS)}
#: _CHUNK[r][sub]: the codes of suit mask ``sub`` at rank ``r``, low to high
_CHUNK = tuple(
    tuple(tuple(CODES[4 * r + s] for s in range(4) if sub >> s & 1) for sub in range(16))
    for r in range(NRANKS)
)

SET_KINDS = {1: "single", 2: "pair", 3: "triple"}
SET_SLOTS: dict[int, Slot] = {n: ("set", n) for n in (1, 2, 3)}
RUN_SLOTS: dict[int, Slot] = {n: ("run", n) for n in range(3, NRANKS + 1)}
BOMB_SLOTS: dict[tuple[int, int], Slot] = {s: ("bomb",) + s for s in BOMB_SHAPES}
#: the core's slot id -> (kind, the Combination's slot)
_KIND_SLOT: dict[int, tuple[str, Slot]] = {n: (SET_KINDS[n], SET_SLOTS[n]) for n in (1, 2, 3)}
_KIND_SLOT.update({10 + n: ("run", s) for n, s in RUN_SLOTS.items()})
_KIND_SLOT.update({bomb_sid(*s): (f"bomb-{s[0]}x{s[1]}", BOMB_SLOTS[s]) for s in BOMB_SHAPES})
_CACHE_LIMIT = 200_000


def _opt_key(options: dict[str, Any]) -> OptKey:
    return opt_key(options)


def _ints_of(cards: Iterable[str]) -> list[int] | None:
    out = []
    for c in cards:
        i = CODE_INT.get(c)
        if i is None:
            try:
                i = CODE_INT[parse_card(c)]
            except CardError:
                return None
        out.append(i)
    return out


def _cards_of_mask(mask: int) -> tuple[str, ...]:
    out: list[str] = []
    r = 0
    while mask:
        sub = mask & 15
        if sub:
            out.extend(_CHUNK[r][sub])
        mask >>= 4
        r += 1
    return tuple(out)


def _combination(mv: Move) -> Combination:
    kind, slot = _KIND_SLOT[mv[1]]
    return Combination(kind, _cards_of_mask(mv[0]), slot, (mv[2],), mv[3], mv[4])


def _classify_mask(mask: int, opt: OptKey) -> Combination | None:
    """The combination the cards ``mask`` make (the core's :func:`classify_mask`)."""
    mv = classify_mask(mask, opt)
    return None if mv is None else _combination(mv)


_COMBO_CACHE: dict[OptKey, dict[tuple[str, ...], Combination]] = {}


def classify_twos(
    cards: Iterable[str], options: dict[str, Any] | None = None
) -> Combination | None:
    """Classify card codes (any spelling parse_card accepts) or return ``None``."""
    return _classify_opt(cards, _opt_key(options or {}))


def _classify_opt(cards: Iterable[str], opt: OptKey) -> Combination | None:
    key = tuple(cards)
    table = _COMBO_CACHE.get(opt)
    if table is None:
        table = _COMBO_CACHE[opt] = {}
    hit = table.get(key)
    if hit is not None:
        return hit
    ints = _ints_of(key)
    if not ints or len(set(ints)) != len(ints):
        return None
    mask = 0
    for i in ints:
        mask |= 1 << i
    combo = _classify_mask(mask, opt)
    if combo is not None:
        if len(table) > _CACHE_LIMIT:
            table.clear()
        table[key] = combo
    return combo


_ACTIONS: dict[int, Action] = {}  # card mask -> the Action playing exactly those cards
_MASK_OF: dict[tuple[str, ...], int] = {}  # that Action's cards -> card mask


def _action(mask: int) -> Action:
    a = _ACTIONS.get(mask)
    if a is None:
        if len(_ACTIONS) > _CACHE_LIMIT:
            _ACTIONS.clear()
            _MASK_OF.clear()
        cards = _cards_of_mask(mask)
        a = _ACTIONS[mask] = Action("play", cards)
        _MASK_OF[cards] = mask
    return a


def _lead_order(m: Move) -> tuple[int | bool, ...]:
    """The order ``legal_actions`` lists leads in: the sets (singles, pairs, triples,
    each by top card), the runs (by lowest rank, length, top card; a same-suit run before
    the mixed one), the bombs (four of a kind by rank, then multi-runs by width, lowest
    rank, length, top card)."""
    sid = m[1]
    if sid <= 3:
        return (0, sid, m[2])
    start = ((m[0] & -m[0]).bit_length() - 1) >> 2
    if sid < 100:
        return (1, start, sid, m[2], m[4] is None)
    w, ln = divmod(sid - 100, 16)
    return (2, 0 if ln == 1 else w, start, ln, m[2])


def _follow_order(m: Move) -> tuple[int | bool, ...]:
    """The order ``legal_actions`` lists plays that beat the table in: the same pattern
    by top card (a same-suit run before the mixed one), then the bombs by power."""
    return (m[3], m[2], m[4] is None)


_LEADS: dict[tuple[OptKey, int], list[Action]] = {}


@lru_cache(maxsize=4096)
def _play_text(combo: Combination) -> str:
    """What the play log says after the player's name (:meth:`ClimbingGame._play`)."""
    shown = shown_order(combo.kind, combo.cards)
    bomb = " — BOMB!" if combo.power > 0 else ""
    return f" plays {describe_kind(combo.kind)} {display_cards(shown)}{bomb}"


# ---------------------------------------------------------------------------------------
# Option specs


@cache
def _option_specs(players: int) -> tuple[OptionSpec, ...]:
    most = 52 // players
    dflt = default_hand_size(players)
    return (
        OptionSpec(
            "hand_size",
            "Hand size",
            f"Cards dealt to each player; the rest stay out of play, face down (usual: {dflt}).",
            tuple(
                (
                    n,
                    f"{n} card{'s' if n > 1 else ''}"
                    + (f" ({52 - n * players} out of play)" if n * players < 52 else ""),
                )
                for n in range(1, most + 1)
            ),
            dflt,
        ),
        OptionSpec(
            "bomb_order",
            "Bomb strength",
            "How bomb shapes rank against each other.",
            (
                ("rarity", "Rarer shape is stronger (the text's list at 13 cards)"),
                ("fixed", "The text's list at every hand size"),
            ),
            "rarity",
        ),
        OptionSpec(
            "run_suits",
            "Same-suit runs",
            "Whether a run whose cards all share a suit needs a same-suit run to beat it.",
            (
                ("free", "Suits do not matter in runs"),
                (STRICT, "Only a same-suit run beats a same-suit run"),
            ),
            "free",
        ),
        OptionSpec(
            "opening",
            "First play",
            "Whether the first play of a deal must include the lowest dealt card.",
            (("free", "Any combination"), ("lowest", "Must include the lowest card")),
            "free",
        ),
        OptionSpec(
            "passing",
            "Passing",
            "What a pass means for the rest of the trick.",
            (
                ("reentry", "You may play again later in the trick"),
                ("locked", "A pass keeps you out until the next trick"),
            ),
            "reentry",
        ),
        OptionSpec(
            "scoring",
            "Match",
            "How the match is won.",
            (
                ("deals", "First to win a number of deals"),
                ("penalty", "Penalty: 1 point a card left; lowest after a number of deals"),
            ),
            "deals",
        ),
        OptionSpec(
            "deals_to_win",
            "Deals to win",
            "Deals a player must win to take the match (deals scoring).",
            tuple((n, str(n)) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
            5,
        ),
        OptionSpec(
            "penalty_deals",
            "Deals played",
            "Number of deals in a match (penalty scoring).",
            tuple((n, str(n)) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20)),
            5,
        ),
    )


# ---------------------------------------------------------------------------------------
# The game


class TwosGame(ClimbingGame):
    variant_id: ClassVar[str] = "twos"
    name: ClassVar[str] = "Twos"
    summary: ClassVar[str] = (
        "Shed your hand first: beat the last play with the same "
        "pattern, or drop a bomb; twos are high."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 3)
    default_players: ClassVar[int] = 3
    low_score_wins: bool = False  # instance value follows the "scoring" option
    score_label: str = "Deals won"
    _vk: ViewKeys | None = None  # the view's own keys (they follow the options)
    #: (seat, cards, core move) of the last play :meth:`check` settled on the core
    _fast: tuple[int, tuple[str, ...], Move] | None = None

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(players, options, seed, names)
        self._setup_runtime()

    def _setup_runtime(self) -> None:
        self._opt = _opt_key(self.options)
        self._rules = cast(TwosRules, self.rules_core)
        penalty = self.options["scoring"] == "penalty"
        self.low_score_wins = penalty
        self.score_label = "Penalty points" if penalty else "Deals won"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = super().from_json(data)
        g._setup_runtime()
        return g

    # ----- options ------------------------------------------------------------------------
    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return _option_specs(cls.default_players if players is None else players)

    def bomb_order(self) -> tuple[tuple[int, int], ...]:
        """Bomb shapes, weakest first, under the chosen options."""
        return bomb_order(self.options["hand_size"], self.options["bomb_order"])

    def bomb_order_text(self) -> list[str]:
        """The shapes a hand of this size can hold, weakest first (for help screens)."""
        hs = self.options["hand_size"]
        return [shape_label(s) for s in self.bomb_order() if s[0] * s[1] <= hs]

    def rules_summary(self) -> list[str]:
        unused = "deals_to_win" if self.options["scoring"] == "penalty" else "penalty_deals"
        lines = [
            f"{s.label}: {s.label_of(self.options[s.id])}"
            for s in self.option_specs(self.players)
            if s.id != unused
        ]
        order = self.bomb_order_text()
        if order:
            lines.append("Bombs, weakest to strongest: " + ", ".join(order))
        return lines

    def target_text(self) -> str:
        if self.options["scoring"] == "penalty":
            return (
                f"Lowest penalty after {self.options['penalty_deals']} deals (1 point a card left)"
            )
        return f"First to win {self.options['deals_to_win']} deals"

    # ----- cards ----------------------------------------------------------------------------
    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        i = CODE_INT.get(code)
        if i is None:
            i = CODE_INT[parse_card(code)]
        return (i & 3, i >> 2) if by == "suit" else (i >> 2, i & 3)

    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        return classify_twos(cards, options)

    def classify(self, cards: tuple[str, ...]) -> Combination | None:
        return _classify_opt(cards, self._opt)

    # ----- dealing and scoring ------------------------------------------------------------
    def deal_cards(self) -> None:
        perm = list(range(52))
        self.rng.shuffle(perm)
        hs = self.options["hand_size"]
        n = self.players
        masks = []
        for j in range(n):
            m = 0
            for i in perm[j * hs : (j + 1) * hs]:
                m |= 1 << i
            masks.append(m)
        self.out_of_play = [CODES[i] for i in sorted(perm[n * hs :])]
        self.dealer = (self.deal_number - 1) % n
        self.start_core(masks)

    def score_deal(self, winner: int) -> DealResult:
        left = self.cards_left()
        details = [
            f"{self.names[s]}: {left[s]} card{'s' if left[s] != 1 else ''} left"
            for s in range(self.players)
            if s != winner
        ]
        if self.options["scoring"] == "penalty":
            changes = [self.rules_core.penalty(n) or 0 for n in left]  # (a point a card)
            totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
            self.match_over = self.deal_number >= self.options["penalty_deals"]
            summary = (
                f"{says(self.names[winner], 'is out of cards and')} "
                f"{verb(self.names[winner], 'wins')} deal "
                f"{self.deal_number}; the others score a point a card."
            )
        else:
            changes = [1 if s == winner else 0 for s in range(self.players)]
            totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
            self.match_over = totals[winner] >= self.options["deals_to_win"]
            summary = (
                f"{says(self.names[winner], 'is out of cards and')} "
                f"{verb(self.names[winner], 'wins')} deal {self.deal_number}."
            )
        return DealResult(self.deal_number, [winner], changes, totals, summary, details)

    # ----- legal plays ----------------------------------------------------------------------
    def _listed(self, seat: int, top: Combination | None) -> list[Action]:
        """The core's canonical plays of ``seat`` (leading, or beating ``top``), as actions
        in the listing order."""
        mask = self.core.hands[seat]
        if top is None:
            key = (self._opt, mask)
            acts = _LEADS.get(key)
            if acts is None:
                moves = sorted(self._rules.leads(mask), key=_lead_order)
                if len(_LEADS) > _CACHE_LIMIT // 10:
                    _LEADS.clear()
                acts = _LEADS[key] = [_action(m[0]) for m in moves]
            return acts
        got = self.core.top if top is self.top else self._rules.move_of_codes(top.cards)
        assert got is not None
        tm = got
        moves = self._rules.follows(mask, tm)
        if self._opt[2]:  # same-suit runs: the core sorts a run's forms by their cards
            moves.sort(key=_follow_order)
        get = _ACTIONS.get
        return [get(m[0]) or _action(m[0]) for m in moves]

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        # every listed play is a combination
        return [c for a in self._listed(seat, top) if (c := self.classify(a.cards)) is not None]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat != self.core.cur:
            return []
        top = self.top
        acts = self._listed(seat, top)
        if top is None:
            acts = list(acts)
        else:
            acts.append(PASS)
        req = self.required_card
        if req is not None:
            acts = [a for a in acts if req in a.cards or a.kind == "pass"]
        return acts

    def combination_of(self, mv: Move) -> Combination:
        return _combination(mv)

    # ----- checking and playing a listed play (the core's move, no parsing) ------------------
    def check(self, seat: int, action: Action) -> str | None:
        """A play whose cards are a listed play (``legal_actions``) is settled on the
        core: its cards in the hand, the required card, the core's ``beats``; anything
        else takes :meth:`ClimbingGame.check` (the same answer, with its reasons)."""
        self._fast = None
        core = self.core
        cards = action.cards if type(action) is Action and action.kind == "play" else None
        if type(cards) is tuple and seat is core.cur and not (self.deal_over or self.match_over):
            m = _MASK_OF.get(cards)
            if m is not None and not m & ~core.hands[seat] and (not core.req or core.req & m):
                mv = classify_mask(m, self._opt)
                top = core.top
                if (
                    mv is not None
                    and (top is None or beats(mv, top))
                    and self.malformed(seat, action) is None
                ):
                    self._fast = (seat, cards, mv)
                    return None
        return super().check(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        fast, self._fast = self._fast, None
        if fast is not None and fast[0] == seat and fast[1] is action.cards:
            combo = _classify_opt(fast[1], self._opt)
            assert combo is not None
            self._play(seat, fast[2], fast[1], combo, _play_text(combo))
            return
        super()._apply(seat, action)

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        """Fast path of ``check``: a canonical play (as listed) still in the hand."""
        if type(cards) is tuple:
            m = _MASK_OF.get(cards)
            if m is not None and m & self.core.hands[seat] == m:
                return _classify_opt(cards, self._opt)
        return None

    def parse_selection(self, seat: int, cards: Iterable[object]) -> tuple[str, ...]:
        if type(cards) is tuple:
            m = _MASK_OF.get(cards)
            if m is not None and m & self.core.hands[seat] == m:
                return cards
        return super().parse_selection(seat, cards)

    # ----- reasons ----------------------------------------------------------------------------
    def why_not_combination(self, codes: tuple[str, ...]) -> str:
        ints = sorted(CODE_INT[c] for c in codes)
        counts: dict[int, int] = {}
        for i in ints:
            counts[i >> 2] = counts.get(i >> 2, 0) + 1
        ranks = sorted(counts)
        widths = set(counts.values())
        shown = display_cards(codes)
        if len(widths) > 1:
            return (
                f"{shown} is not a play: cards of several ranks must form a run (one card "
                f"a rank) or a bomb with the same number of cards at every rank."
            )
        w = widths.pop()
        if len(codes) == 2:
            return (
                f"{shown} is not a play: two cards must be a pair. "
                "A run needs at least three consecutive ranks."
            )
        if ranks[-1] - ranks[0] != len(ranks) - 1:
            if any(
                sorted((r + k) % NRANKS for r in ranks)[-1]
                - sorted((r + k) % NRANKS for r in ranks)[0]
                == len(ranks) - 1
                for k in range(1, NRANKS)
            ):
                return "Runs do not wrap past the 2: 2 is the top of a run, 3 its bottom."
            return f"{shown} is not a play: the ranks of a run must be consecutive."
        if w == 1:
            return "A run needs at least three consecutive ranks."
        if w == 4:
            return (
                f"{shown} is not a play: a multi-run bomb needs at least three "
                f"consecutive ranks (four of a kind alone is a bomb)."
            )
        return (
            f"A multi-run bomb needs at least three consecutive ranks "
            f"({w} cards at each, like "
            f"{' '.join([_RANK_WORD[0] * w, _RANK_WORD[1] * w, _RANK_WORD[2] * w])})."
        )

    def why_not_beating(self, combo: Combination, top: Combination) -> str:
        mine = display(combo.cards[-1])
        theirs = display(top.cards[-1])
        tk = describe_kind(top.kind)
        if top.is_bomb:
            shape = tk.split(" ", 1)[1]
            if not combo.is_bomb:
                return (
                    f"Only a bomb can beat the {tk} on the table: a higher {shape} "
                    f"or a stronger bomb shape."
                )
            if combo.power < top.power:
                return (
                    f"A {tk} is beaten only by a higher {shape} or a stronger bomb "
                    f"shape; {describe_kind(combo.kind)} is weaker here (weakest first: "
                    f"{', '.join(self.bomb_order_text())})."
                )
            return (
                f"A {tk} is beaten only by a higher {shape} or a stronger bomb shape: "
                f"your top card {mine} is not above {theirs}."
            )
        if combo.slot != top.slot:
            need = f"a run of {len(top.cards)}" if top.kind == "run" else f"a {top.kind}"
            return (
                f"The table holds {need}: beat it with a higher {need.split(' ', 1)[1]}"
                f" or with a bomb."
            )
        if top.strict is not None and combo.strict != top.strict:
            return "Only a same-suit run beats a same-suit run (house rule)."
        if top.key[0] == len(CODES) - 1:
            return (
                f"Nothing tops {theirs}, the highest card, in this pattern: only a bomb beats it."
            )
        return (
            f"{show_combo(combo)} does not beat {show_combo(top)}: "
            f"your top card {mine} is not above {theirs}."
        )

    # ----- observations -----------------------------------------------------------------
    def observation(self, seat: int) -> TwosObservation:
        return cast(TwosObservation, self._view(seat).to_json())

    def _view_keys(self, seat: int) -> ViewKeys:
        keys = self._vk
        if keys is None or keys[1] != self.score_label:  # (the options never change)
            keys = self._vk = (tuple(self.bomb_order_text()), self.score_label, None, None, None)
        return keys
