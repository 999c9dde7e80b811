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
still choose which cards to keep. The listing is built from int-encoded cards (card
``4 * rank_index + suit_index``), per-rank suit bitmasks and precomputed tables, and it
is cached per seat until that seat's hand changes.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Self, cast

from .cards import (
    CLIMB_RANKS,
    RANK_PLURAL,
    RANK_TEXT,
    CardError,
    card_code,
    display,
    display_cards,
    parse_card,
)
from .climbing import ClimbingGame, Combination, Slot, describe_kind, show_combo
from .observation import TwosObservation
from .protocol import PASS, Action, DealResult, OptionSpec
from .words import says, verb

# ---------------------------------------------------------------------------------------
# Card encoding: card = 4 * rank_index + suit_index, rank_index 0 (3) .. 12 (2),
# suit_index S=0 < C=1 < D=2 < H=3. Higher int = higher card.

SUIT_ORDER = ("S", "C", "D", "H")
NRANKS = 13
CODES: tuple[str, ...] = tuple(card_code(r, s) for r in CLIMB_RANKS for s in SUIT_ORDER)
CODE_INT: dict[str, int] = {c: i for i, c in enumerate(CODES)}
_RANK_WORD = {i: RANK_TEXT[r] for i, r in enumerate(CLIMB_RANKS)}
_RANK_PLURAL = {i: RANK_PLURAL[r] for i, r in enumerate(CLIMB_RANKS)}

_POP = tuple(bin(m).count("1") for m in range(16))


def _lowest(m: int, k: int) -> int:
    """Mask of the lowest ``k`` suits in suit mask ``m`` (0 if it has fewer)."""
    if _POP[m] < k:
        return 0
    out = 0
    for s in range(4):
        if k == 0:
            break
        if m >> s & 1:
            out |= 1 << s
            k -= 1
    return out


_LOWK = tuple(tuple(_lowest(m, k) for k in range(5)) for m in range(16))
#: _TOPS[m][w]: ((top_suit, submask), ...) for each top suit that has w-1 suits below it
_TOPS = tuple(
    tuple(
        tuple(
            (t, (1 << t) | _LOWK[m & ((1 << t) - 1)][w - 1])
            for t in range(4)
            if m >> t & 1 and _POP[m & ((1 << t) - 1)] >= w - 1
        )
        if w
        else ()
        for w in range(5)
    )
    for m in range(16)
)
#: _CHUNK[r][sub]: the codes of suit mask ``sub`` at rank ``r``, low to high
_CHUNK = tuple(
    tuple(tuple(CODES[4 * r + s] for s in range(4) if sub >> s & 1) for sub in range(16))
    for r in range(NRANKS)
)

SET_KINDS = {1: "single", 2: "pair", 3: "triple"}
SET_SLOTS: dict[int, Slot] = {n: ("set", n) for n in (1, 2, 3)}
RUN_SLOTS: dict[int, Slot] = {n: ("run", n) for n in range(3, NRANKS + 1)}

#: Every bomb shape (width, length): four of a kind, and multi-runs.
BOMB_SHAPES: tuple[tuple[int, int], ...] = ((4, 1),) + tuple(
    (w, ln) for w in (2, 3, 4) for ln in range(3, NRANKS + 1)
)
BOMB_SLOTS: dict[tuple[int, int], Slot] = {s: ("bomb",) + s for s in BOMB_SHAPES}
#: The text's list, weakest first (the 13-card default, and the fixed-list option).
TEXT_BOMB_LIST: tuple[tuple[int, int], ...] = (
    (2, 3),
    (4, 1),
    (2, 4),
    (2, 5),
    (3, 3),
    (2, 6),
    (3, 4),
    (2, 7),
    (4, 3),
    (3, 5),
    (3, 6),
    (4, 4),
)
STRICT = "same-suit"

#: a canonical play: ``(slot, top card, strict mark, card mask)``
Outcome = tuple[Slot, int, str | None, int]
#: what collects outcomes (a list's ``append``)
Collect = Callable[[Outcome], object]
#: the options classification depends on: hand size, bomb order, same-suit runs
OptKey = tuple[int, str, bool]


def shape_label(shape: tuple[int, int]) -> str:
    return f"{shape[0]}×{shape[1]}"


def default_hand_size(players: int | None) -> int:
    return 20 if players == 2 else 13


@cache
def shape_probabilities(hand_size: int) -> dict[tuple[int, int], Fraction]:
    """Exact chance that a dealt hand of ``hand_size`` holds each bomb shape."""
    from .odds import shape_probability

    return {
        s: (shape_probability(s[0], s[1], hand_size) if s[0] * s[1] <= hand_size else Fraction(0))
        for s in BOMB_SHAPES
    }


@cache
def rarity_order(hand_size: int) -> tuple[tuple[int, int], ...]:
    """Every bomb shape, weakest (most likely to be dealt) first. Exact ties (shapes
    that cannot be dealt at this size, probability 0) put fewer cards, then the
    narrower shape, first."""
    p = shape_probabilities(hand_size)
    return tuple(sorted(BOMB_SHAPES, key=lambda s: (-p[s], s[0] * s[1], s[0])))


@cache
def bomb_order(hand_size: int, mode: str = "rarity") -> tuple[tuple[int, int], ...]:
    """Every bomb shape, weakest first, for a hand size and the ``bomb_order`` option.

    ``"rarity"`` (default): at 13 cards the text's list; at other sizes the rarer shape
    is stronger (exact probability in a dealt hand). ``"fixed"``: the text's list at
    every size. Shapes not on the text's list come after it, ordered by rarity at
    the hand size.
    """
    if mode == "rarity" and hand_size != 13:
        return rarity_order(hand_size)
    rest = tuple(s for s in rarity_order(hand_size) if s not in TEXT_BOMB_LIST)
    return TEXT_BOMB_LIST + rest


@cache
def _powers(hand_size: int, mode: str) -> dict[Slot, int]:
    """Bomb slot -> Combination.power (1 = weakest shape)."""
    return {BOMB_SLOTS[s]: i + 1 for i, s in enumerate(bomb_order(hand_size, mode))}


def _opt_key(options: dict[str, Any]) -> OptKey:
    hs = options.get("hand_size")
    if hs is None:
        hs = default_hand_size(options.get("_players", 3))
    return (hs, options.get("bomb_order", "rarity"), options.get("run_suits") == STRICT)


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


# ---------------------------------------------------------------------------------------
# Classification

_COMBO_CACHE: dict[OptKey, dict[tuple[str, ...], Combination]] = {}
_CACHE_LIMIT = 200_000


def _classify_mask(mask: int, opt: OptKey) -> Combination | None:
    ranks = []
    w = 0
    for r in range(NRANKS):
        sub = (mask >> (4 * r)) & 15
        if sub:
            n = _POP[sub]
            if w and n != w:
                return None
            w = n
            ranks.append(r)
    if not ranks:
        return None
    top = mask.bit_length() - 1
    cards = _cards_of_mask(mask)
    if len(ranks) == 1:
        if w < 4:
            return Combination(SET_KINDS[w], cards, SET_SLOTS[w], (top,))
        slot = BOMB_SLOTS[(4, 1)]
        return Combination("bomb-4x1", cards, slot, (top,), _powers(opt[0], opt[1])[slot])
    length = len(ranks)
    if length < 3 or ranks[-1] - ranks[0] != length - 1:
        return None
    if w == 1:
        strict = None
        if opt[2] and len({c[-1] for c in cards}) == 1:
            strict = STRICT
        return Combination("run", cards, RUN_SLOTS[length], (top,), 0, strict)
    slot = BOMB_SLOTS[(w, length)]
    return Combination(f"bomb-{w}x{length}", cards, slot, (top,), _powers(opt[0], opt[1])[slot])


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


# ---------------------------------------------------------------------------------------
# Enumeration of canonical plays (see the module docstring)

_ACTIONS: dict[int, Action] = {}  # card mask -> the Action playing exactly those cards
_MASK_OF: dict[tuple[str, ...], int] = {}  # that Action's cards -> card mask


def _action(mask: int) -> Action:
    a = _ACTIONS.get(mask)
    if a is None:
        if len(_ACTIONS) > _CACHE_LIMIT:
            _ACTIONS.clear()
            _MASK_OF.clear()
            _ACTIONS.update(_SET_ACTIONS)
            _MASK_OF.update({a.cards: m for m, a in _SET_ACTIONS.items()})
        cards = _cards_of_mask(mask)
        a = _ACTIONS[mask] = Action("play", cards)
        _MASK_OF[cards] = mask
    return a


#: _SET_OUT[n][r][m]: the canonical sets of n cards at rank r for suit mask m
_SET_OUT: dict[int, tuple[tuple[tuple[Outcome, ...], ...], ...]] = {
    n: tuple(
        tuple(
            tuple((SET_SLOTS[n], 4 * r + t, None, sub << (4 * r)) for t, sub in _TOPS[m][n])
            for m in range(16)
        )
        for r in range(NRANKS)
    )
    for n in (1, 2, 3)
}


#: per (n, rank, suit mask): the tops and the Actions of the canonical sets
SetTable = dict[int, tuple[tuple[tuple[tuple[int, ...], tuple[Action, ...]], ...], ...]]


def _set_actions() -> tuple[dict[int, Action], SetTable]:
    """Per (n, rank, suit mask): the tops and the Actions of the canonical sets (built
    once; these never leave the action cache)."""
    acts: dict[int, Action] = {}
    table: SetTable = {}
    for n in (1, 2, 3):
        table[n] = tuple(
            tuple(
                (
                    tuple(o[1] for o in _SET_OUT[n][r][m]),
                    tuple(
                        acts.setdefault(o[3], Action("play", _cards_of_mask(o[3])))
                        for o in _SET_OUT[n][r][m]
                    ),
                )
                for m in range(16)
            )
            for r in range(NRANKS)
        )
    return acts, table


_SET_ACTIONS, _SET_TABLE = _set_actions()
_ACTIONS.update(_SET_ACTIONS)
_MASK_OF.update({a.cards: m for m, a in _SET_ACTIONS.items()})


def _sets(ms: list[int], n: int, out: list[Outcome]) -> None:
    table = _SET_OUT[n]
    ext = out.extend
    for r in range(NRANKS):
        ext(table[r][ms[r]])


_SLOTS_BY_WIDTH: dict[int, dict[int, Slot]] = {
    1: RUN_SLOTS,
    **{w: {ln: BOMB_SLOTS[(w, ln)] for ln in range(3, NRANKS + 1)} for w in (2, 3, 4)},
}


def _multi(ms: list[int], w: int, app: Collect, only_length: int = 0) -> None:
    """Runs (w = 1, suits free) or multi-run bombs (w >= 2): every start, length and
    top card; ``only_length`` restricts to one length."""
    pop = _POP
    lowk = _LOWK
    tops = _TOPS
    ok = [pop[m] >= w for m in ms]
    slots = _SLOTS_BY_WIDTH[w]
    for start in range(NRANKS - 2):
        if not (ok[start] and ok[start + 1] and ok[start + 2]):
            continue
        if only_length:
            end = start + only_length - 1
            if end >= NRANKS or not all(ok[start : end + 1]):
                continue
            base = 0
            for k in range(start, end):
                base |= lowk[ms[k]][w] << (4 * k)
            sh = 4 * end
            slot = slots[only_length]
            for t, sub in tops[ms[end]][w]:
                app((slot, sh + t, None, base | (sub << sh)))
            continue
        base = (lowk[ms[start]][w] << (4 * start)) | (lowk[ms[start + 1]][w] << (4 * start + 4))
        r = start + 2
        while r < NRANKS and ok[r]:
            sh = 4 * r
            slot = slots[r - start + 1]
            for t, sub in tops[ms[r]][w]:
                app((slot, sh + t, None, base | (sub << sh)))
            base |= lowk[ms[r]][w] << sh
            r += 1


def _bombs(ms: list[int], app: Collect) -> None:
    slot = BOMB_SLOTS[(4, 1)]
    for r in range(NRANKS):
        if ms[r] == 15:
            app((slot, 4 * r + 3, None, 15 << (4 * r)))
    streak = 0
    for m in ms:  # a multi-run needs 3 consecutive ranks with 2+ cards each
        if _POP[m] >= 2:
            streak += 1
            if streak == 3:
                break
        else:
            streak = 0
    else:
        return
    for w in (2, 3, 4):
        _multi(ms, w, app)


def enumerate_outcomes(ms: list[int], same_suit: bool) -> list[Outcome]:
    """Canonical plays of a hand given as 13 per-rank suit masks (rank 0 = the 3s).

    Returns ``(slot, top_card, strict, card_mask)`` tuples: one per distinct outcome.
    """
    out: list[Outcome] = []
    app = out.append
    for n in (1, 2, 3):
        _sets(ms, n, out)
    if same_suit:
        _suited_runs(ms, app)
    else:
        _multi(ms, 1, app)
    _bombs(ms, app)
    return out


def _suited_runs(ms: list[int], app: Collect, only_length: int = 0) -> None:
    """Runs under the same-suit house rule: per top card, the same-suit run (if held)
    and a mixed-suit run (if possible)."""
    for start in range(NRANKS - 2):
        if not (ms[start] and ms[start + 1] and ms[start + 2]):
            continue
        r = start
        base = 0  # lowest suit at each rank so far
        common = 15  # suits held at every rank so far
        while r < NRANKS and ms[r]:
            m = ms[r]
            sh = 4 * r
            if r - start >= 2 and (not only_length or r - start + 1 == only_length):
                slot = RUN_SLOTS[r - start + 1]
                for t, sub in _TOPS[m][1]:
                    line = 0
                    for k in range(start, r + 1):
                        line |= (1 << t) << (4 * k)
                    if common >> t & 1:
                        app((slot, sh + t, STRICT, line))
                    mixed = base | (sub << sh)
                    if mixed == line:
                        # the lowest suits are all suit t: switch the first rank that
                        # holds another suit to its lowest other suit
                        mixed = 0
                        for k in range(start, r):
                            other = ms[k] & ~(1 << t)
                            if other:
                                mixed = line ^ ((1 << t) << (4 * k)) ^ (_LOWK[other][1] << (4 * k))
                                break
                    if mixed:
                        app((slot, sh + t, None, mixed))
            common &= m
            base |= _LOWK[m][1] << sh
            r += 1


class _HandPlays:
    """A seat's canonical plays for one hand, built lazily and cached until the hand
    changes: the full list when leading, one pattern plus the bombs when following."""

    __slots__ = ("hand", "mask", "ms", "opt", "_leads", "_slots", "_bomb_keys", "_bomb_acts")

    def __init__(self, hand: tuple[str, ...], opt: OptKey) -> None:
        self.hand = hand
        self.opt = opt
        ms = [0] * NRANKS
        mask = 0
        ci = CODE_INT
        for c in hand:
            i = ci[c]
            ms[i >> 2] |= 1 << (i & 3)
            mask |= 1 << i
        self.mask = mask
        self.ms = ms
        self._leads: list[Action] | None = None
        self._slots: dict[Slot, tuple[list[int], list[Action], list[str | None]]] = {}
        self._bomb_keys: list[tuple[int, int]] | None = None
        self._bomb_acts: list[Action] = []

    @property
    def leads(self) -> list[Action]:
        if self._leads is None:
            ms = self.ms
            pop = _POP
            acts: list[Action] = []
            for n in (1, 2, 3):  # the same order as enumerate_outcomes
                table = _SET_TABLE[n]
                for r in range(NRANKS):
                    if pop[ms[r]] >= n:
                        acts.extend(table[r][ms[r]][1])
            out: list[Outcome] = []
            if self.opt[2]:
                _suited_runs(ms, out.append)
            else:
                _multi(ms, 1, out.append)
            _bombs(ms, out.append)
            get = _ACTIONS.get
            acts.extend([get(o[3]) or _action(o[3]) for o in out])
            self._leads = acts
        return self._leads

    def _slot(self, slot: Slot) -> tuple[list[int], list[Action], list[str | None]]:
        entry = self._slots.get(slot)
        if entry is None:
            out: list[Outcome] = []
            if slot[0] == "set":
                n = slot[1]
                assert type(n) is int
                table = _SET_TABLE[n]
                tops: list[int] = []
                acts: list[Action] = []
                pop = _POP
                for r, m in enumerate(self.ms):
                    if pop[m] >= n:
                        t, a = table[r][m]
                        tops.extend(t)
                        acts.extend(a)
                entry = self._slots[slot] = (tops, acts, [None] * len(tops))
                return entry
            length = slot[1]
            assert type(length) is int
            if self.opt[2]:
                _suited_runs(self.ms, out.append, length)
            else:
                _multi(self.ms, 1, out.append, length)
            get = _ACTIONS.get
            entry = self._slots[slot] = (
                [o[1] for o in out],
                [get(o[3]) or _action(o[3]) for o in out],
                [o[2] for o in out],
            )
        return entry

    def _load_bombs(self) -> None:
        out: list[Outcome] = []
        _bombs(self.ms, out.append)
        powers = _powers(self.opt[0], self.opt[1])
        get = _ACTIONS.get
        bombs = sorted(
            (((powers[o[0]], o[1]), get(o[3]) or _action(o[3])) for o in out), key=lambda b: b[0]
        )
        self._bomb_keys = [b[0] for b in bombs]
        self._bomb_acts = [b[1] for b in bombs]

    def beating(self, top: Combination) -> list[Action]:
        if self._bomb_keys is None:
            self._load_bombs()
            assert self._bomb_keys is not None
        topcard = top.key[0]
        if top.power:
            return self._bomb_acts[bisect_right(self._bomb_keys, (top.power, topcard)) :]
        tops, acts, stricts = self._slot(top.slot)
        i = bisect_right(tops, topcard)
        if top.strict is None:
            return acts[i:] + self._bomb_acts
        return [
            a for a, s in zip(acts[i:], stricts[i:], strict=False) if s == top.strict
        ] + self._bomb_acts


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
        self._plays: list[_HandPlays | None] = [None] * self.players
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
        hands = [sorted(perm[i * hs : (i + 1) * hs]) for i in range(n)]
        self.hands = [[CODES[i] for i in h] for h in hands]
        self.out_of_play = [CODES[i] for i in sorted(perm[n * hs :])]
        lows = [h[0] for h in hands]
        starter = min(range(n), key=lambda s: lows[s])
        self.dealer = (self.deal_number - 1) % n
        self.current = starter
        if self.options["opening"] == "lowest":
            self.required_card = CODES[lows[starter]]
        if getattr(self, "_plays", None) is not None:
            self._plays = [None] * n

    def score_deal(self, winner: int) -> DealResult:
        left = [len(h) for h in self.hands]
        details = [
            f"{self.names[s]}: {left[s]} card{'s' if left[s] != 1 else ''} left"
            for s in range(self.players)
            if s != winner
        ]
        if self.options["scoring"] == "penalty":
            changes = left
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
    def _hand_plays(self, seat: int) -> _HandPlays:
        hand = tuple(self.hands[seat])
        hp = self._plays[seat]
        if hp is None or hp.hand != hand:
            hp = self._plays[seat] = _HandPlays(hand, self._opt)
        return hp

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        hp = self._hand_plays(seat)
        acts = hp.leads if top is None else hp.beating(top)
        # every listed play is a combination
        return cast(list[Combination], [self.classify(a.cards) for a in acts])

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat != self.current:
            return []
        hp = self._hand_plays(seat)
        top = self.top
        if top is None:
            acts = list(hp.leads)
        else:
            acts = hp.beating(top)
            acts.append(PASS)
        req = self.required_card
        if req is not None:
            acts = [a for a in acts if req in a.cards or a.kind == "pass"]
        return acts

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        """Fast path of ``check``: a canonical play (as listed) still in the hand."""
        if type(cards) is tuple:
            m = _MASK_OF.get(cards)
            if m is not None and m & self._hand_plays(seat).mask == m:
                return _classify_opt(cards, self._opt)
        return None

    def parse_selection(self, seat: int, cards: Iterable[object]) -> tuple[str, ...]:
        if type(cards) is tuple:
            m = _MASK_OF.get(cards)
            if m is not None and m & self._hand_plays(seat).mask == m:
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
        return {
            **super().observation(seat),
            "bomb_order": self.bomb_order_text(),
            "score_label": self.score_label,
        }
