"""The puzzle solver: which first moves reach a goal whatever the others do and whatever
cards they hold.

The search is AND-OR over *beliefs*: a belief is the list of every deal of the hidden
cards that fits what the solver's seat sees (its hand, the table, the hand sizes, the
cards gone), each as a real game. At the seat's turn it picks one move for all of them
at once (a seat cannot play differently in deals it cannot tell apart); at another
seat's turn every move that seat could make in any of those deals is tried, and the
deals in which that move is possible go on together. Every move in these games is seen
by all once made, so the deals that stay together are exactly those the seat still
cannot tell apart. A goal is a number (1 or 0 for "go out first", points for the trick
game) read at the end; the value of a belief is the best the seat can be sure of.

The solver imports only the engine.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from ..engine import Action, Game
from ..engine.cards import display_cards
from ..jsontypes import JsonObject

#: the most deals of the hidden cards a belief may hold
MAX_WORLDS = 2_000


class TooBig(Exception):
    """The position is too large to solve within the limits."""


class GoalJson(TypedDict):
    """A :class:`Goal` in a puzzle file (its seat is the position's seat to act)."""

    kind: str
    target: int
    turns: NotRequired[int]


@dataclass(frozen=True)
class Goal:
    """What the seat must reach.

    ``kind``: ``"out"`` go out first (climbing games; within ``turns`` turns of the seat
    when set); ``"points"`` end the deal with the most points it can be sure of, at
    least ``target`` more than now (trick game); ``"tricks"`` take at least ``target``
    of the tricks left; ``"bid"`` the lone player takes exactly the tricks bid (2v1).
    """

    kind: str
    seat: int
    target: int = 1
    turns: int | None = None

    def to_json(self) -> GoalJson:
        d: GoalJson = {"kind": self.kind, "target": self.target}
        if self.turns is not None:
            d["turns"] = self.turns
        return d


#: a move of the puzzle: the seat's actions until someone else acts (2v1's lone player
#: lays two cards), usually one action
Move = tuple[Action, ...]


def move_json(move: Move) -> list[JsonObject]:
    """A move as its actions' JSON."""
    return [a.to_json() for a in move]


def move_from_json(data: object) -> Move:
    """A move read from JSON just parsed; ``ValueError`` if it is not one."""
    if type(data) is not list or not data:
        raise ValueError("a move is a list of actions")
    out = []
    for a in data:
        if type(a) is not dict or type(a.get("kind")) is not str:
            raise ValueError("an action is an object with a kind")
        out.append(Action(a["kind"], tuple(a.get("cards", ())), a.get("value")))
    return tuple(out)


def describe_move(move: Move, face: Callable[[str], str] | None = None) -> str:
    """A move in words; ``face`` gives a card's label (default: the standard pack's)."""
    show = face or (lambda c: display_cards([c]))
    parts = []
    for a in move:
        cards = " ".join(show(c) for c in a.cards)
        if a.kind == "pass":
            parts.append("pass")
        elif a.kind == "bid":
            parts.append("pass" if a.value == 0 else f"bid {a.value}")
        elif a.kind == "keep" and type(a.value) is str:
            parts.append(f"keep {show(a.value)}")
        elif a.kind == "lead":
            parts.append(f"lead {cards} face up")
        elif a.kind == "hide":
            parts.append(f"{cards} face down")
        elif a.cards:
            parts.append(cards)
        elif a.value is not None:
            parts.append(f"{a.kind} {a.value}")
        else:
            parts.append(a.kind)
    return ", then ".join(parts)


# ----- fast copies ----------------------------------------------------------------------
_SHARED = frozenset(
    (
        "_tab",
        "rng",
        "_opt",
        "options",
        "names",
        "results",
        # 2v1: the bidding's record, and what each seat has seen (read by the views
        # only, never by the play: a search copy may share it)
        "bids",
        "pending",
        "received",
        "seen",
        "eligible",
        "winners",
    )
)
#: lists whose entries are never changed in place (copied shallow)
_FLAT = frozenset(
    (
        "discards",
        "out_of_play",
        "passed",
        "totals",
        "points",
        "honours",
        "catch_points",
        "tricks_taken",
        "bid_queue",
        "follows",
        "duo_discards",
        "hands_won",
        "pile",
        "eligible",
        "winners",
        "trick",
        "_plays",
    )
)
_DROP = {"_hc": None, "_ck": None, "_checked": None}


#: per game class: how each field is copied (made on the first copy of that class)
_PLANS: dict[tuple[type, int], tuple[tuple[str, ...], ...]] = {}


def _plan(g: Game) -> tuple[tuple[str, ...], ...]:
    key = (type(g), len(g.__dict__))
    plan = _PLANS.get(key)
    if plan is None:
        drop, empty, flat, nested, other = [], [], [], [], []
        for k, v in g.__dict__.items():
            if k in _SHARED:
                continue
            if k in _DROP:
                drop.append(k)
            elif k in ("history", "actions"):
                empty.append(k)
            elif k in _FLAT:
                flat.append(k)
            elif k in ("hands", "taken"):
                nested.append(k)
            elif isinstance(v, list | dict | set):
                other.append(k)
        plan = _PLANS[key] = (
            tuple(drop),
            tuple(empty),
            tuple(flat),
            tuple(nested),
            tuple(other),
        )
    return plan


def clone(g: Game) -> Game:
    """An independent copy of ``g`` for searching (no history, no action list)."""
    fast = getattr(g, "clone_for_search", None)  # a game over an integer core copies it
    if fast is not None:
        return fast()  # type: ignore[no-any-return]
    new = object.__new__(type(g))
    d = new.__dict__
    src = g.__dict__
    d.update(src)
    drop, empty, flat, nested, other = _plan(g)
    for k in drop:
        d[k] = None
    for k in empty:
        d[k] = []
    for k in flat:
        d[k] = src[k][:]
    for k in nested:
        d[k] = [h[:] for h in src[k]]
    for k in other:
        v = src[k]
        if isinstance(v, list):
            d[k] = [_copy1(x) for x in v]
        elif isinstance(v, dict):
            d[k] = dict(v)  # (last_hand: its values are replaced, never changed in place)
        elif isinstance(v, set):
            d[k] = set(v)
    core = d.get("core")
    if core is not None and hasattr(core, "copy"):  # 2v1: its state is its integer core
        d["core"] = core.copy()
    return new


def _copy1(x: Any) -> Any:
    if isinstance(x, list):
        return list(x)
    if isinstance(x, dict):
        return dict(x)
    if isinstance(x, set):
        return set(x)
    return x


#: fields that do not change what can happen next
_NOT_STATE = frozenset(
    (
        "history",
        "actions",
        "_plays",
        "names",
        "results",
        "last_trick",
        "discards",
        "taken",
        "seen",
        "pile",
        "score_label",
        "low_score_wins",
        "options",
        "seed",
        "players",
    )
)


def state_key(g: Game) -> Any:
    """What tells two states apart for the search (not the log)."""
    key = getattr(g, "search_key", None)  # a game over an integer core says it
    if key is not None:
        return key()
    d = g.__dict__
    if "top_seat" in d:  # a climbing game (the 2-player hand choice is never searched)
        top = d["top"]
        return (
            tuple(map(tuple, d["hands"])),
            d["current"],
            d["top_seat"],
            top.cards if top is not None else None,
            tuple(d["passed"]),
            d["deal_over"],
            d["opening"],
            d.get("open_passes"),
        )
    if "hands_won" in d:  # 2v1 (the cards gone never come back)
        return (
            d["phase"],
            tuple(map(tuple, d["hands"])),
            d["lead_up"],
            d["lead_down"],
            tuple(d["follows"]),
            d["blind"],
            d["keep_seat"],
            tuple(d["hands_won"]),
            d["deal_over"],
        )
    parts = []
    for k in sorted(d):
        if k in _SHARED or k in _DROP or k in _NOT_STATE:
            continue
        v = d[k]
        parts.append((k, _freeze(v)))
    return tuple(parts)


def _freeze(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((str(k), _freeze(x)) for k, x in v.items()))
    if isinstance(v, set | frozenset):
        return tuple(sorted(map(str, v)))
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    return repr(v)


# ----- the deals the seat cannot tell apart ---------------------------------------------
def hidden_slots(g: Game, seat: int) -> dict[str, list[list[str]]]:
    """Where the cards ``seat`` cannot see lie: state field -> the lists of cards in it
    that are hidden (other seats' hands, cards out of play, 2v1's duo discards)."""
    d = g.__dict__
    slots: dict[str, list[list[str]]] = {}
    hands = g.hands  # type: ignore[attr-defined]
    slots["hands"] = [[] if i == seat else list(h) for i, h in enumerate(hands)]
    if d.get("out_of_play"):
        slots["out_of_play"] = [list(d["out_of_play"])]
    discards = getattr(g, "duo_discards", None)  # (2v1: a view of its core's state)
    if discards is not None:
        slots["duo_discards"] = [
            [c] if c is not None and i != seat else [] for i, c in enumerate(discards)
        ]
    return slots


def count_worlds(g: Game, seat: int) -> int:
    sizes = [len(x) for lists in hidden_slots(g, seat).values() for x in lists]
    total = sum(sizes)
    n = math.factorial(total)
    for s in sizes:
        n //= math.factorial(s)
    return n


def _splits(pool: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    if not sizes:
        yield []
        return
    first, rest = sizes[0], sizes[1:]
    for combo in itertools.combinations(pool, first):
        left = [c for c in pool if c not in combo]
        for tail in _splits(left, rest):
            yield [list(combo), *tail]


def worlds(g: Game, seat: int, limit: int = MAX_WORLDS) -> list[Game]:
    """Every deal of the hidden cards that fits ``seat``'s view, as games (the real one
    among them)."""
    n = count_worlds(g, seat)
    if n > limit:
        raise TooBig(f"{n} deals of the hidden cards (at most {limit})")
    slots = hidden_slots(g, seat)
    order = [(k, i) for k, lists in slots.items() for i in range(len(lists))]
    sizes = [len(slots[k][i]) for k, i in order]
    pool = sorted(c for k, i in order for c in slots[k][i])
    out = []
    by_suit = g.variant_id == "twos-tricks"
    for split in _splits(pool, sizes):
        w = clone(g)
        d = w.__dict__
        for (k, i), cards in zip(order, split, strict=True):
            if k == "hands":
                if i != seat and hasattr(w, "set_hand"):  # a game over an integer core
                    w.set_hand(i, cards)
                elif i != seat:
                    d["hands"][i] = w.sort_cards(cards, "suit" if by_suit else "rank")
            elif k == "out_of_play":
                d["out_of_play"] = w.sort_cards(cards)
            elif k == "duo_discards" and cards:
                if hasattr(w, "set_duo_discard"):  # 2v1 over its integer core
                    w.set_duo_discard(i, cards[0])
                else:
                    d["duo_discards"][i] = cards[0]
        out.append(w)
    return out


# ----- goals ------------------------------------------------------------------------------
class Searcher:
    """One solve: a goal, the seat, a budget of nodes and the memo."""

    def __init__(self, goal: Goal, start: Game, max_nodes: int = 400_000) -> None:
        self.goal = goal
        self.seat = goal.seat
        self.start_points = list(getattr(start, "points", []) or [])
        self.start_tricks = list(getattr(start, "tricks_taken", []) or [])
        self.memo: dict[Any, int] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.hi = 1 if goal.kind in ("out", "bid") else 10**6

    # the value at an end, or None while the play goes on
    def terminal(self, g: Game, turns_used: int) -> int | None:
        kind = self.goal.kind
        if kind == "out":
            if g.deal_over:
                return 1 if not g.hands[self.seat] else 0  # type: ignore[attr-defined]
            if self.goal.turns is not None and turns_used >= self.goal.turns:
                return 0
            return None
        if kind == "bid":
            if g.deal_over:
                won = g.hands_won  # type: ignore[attr-defined]
                return 1 if won[0] == g.bid else 0  # type: ignore[attr-defined]
            return None
        if not g.deal_over and (g.trick or any(g.hands)):  # type: ignore[attr-defined]
            return None
        if kind == "points":
            return int(g.points[self.seat] - self.start_points[self.seat])  # type: ignore[attr-defined]
        return int(g.tricks_taken[self.seat] - self.start_tricks[self.seat])  # type: ignore[attr-defined]

    def value(self, ws: list[Game], turns_used: int = 0) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooBig(f"more than {self.max_nodes} positions searched")
        g0 = ws[0]
        t = self.terminal(g0, turns_used)
        if t is not None:
            return t
        key = (tuple(state_key(w) for w in ws), turns_used)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        acting = g0.to_act()
        if acting == (self.seat,):
            best = -(10**9)
            for a in g0.legal_actions(self.seat):
                nxt = []
                for w in ws:
                    w2 = clone(w)
                    w2._apply(self.seat, a)  # listed by legal_actions: no check
                    nxt.append(w2)
                v = self.value(nxt, turns_used + (1 if self._ends_turn(nxt[0]) else 0))
                if v > best:
                    best = v
                    if best >= self.hi:
                        break
        elif self.seat in acting:
            raise TooBig("the seat chooses at the same time as others")
        else:
            best = 10**9
            for _, sub in self.replies(ws, acting):
                v = self.value(sub, turns_used)
                if v < best:
                    best = v
                    if best <= 0 and self.goal.kind in ("out", "bid"):
                        break
        self.memo[key] = best
        return best

    def _ends_turn(self, g: Game) -> bool:
        return g.to_act() != (self.seat,)

    @staticmethod
    def replies(ws: list[Game], acting: tuple[int, ...]) -> list[tuple[Any, list[Game]]]:
        """Each move (or joint move of several seats choosing at once) the acting seats
        could make in some of the deals, with the deals where they can, played on."""
        groups: dict[Any, list[Game]] = {}
        for w in ws:
            per_seat = [w.legal_actions(s) for s in acting]
            for joint in itertools.product(*per_seat):
                w2 = clone(w)
                for s, a in zip(acting, joint, strict=True):
                    w2._apply(s, a)
                groups.setdefault(joint, []).append(w2)
        return list(groups.items())


def first_moves(g: Game, seat: int) -> list[tuple[Move, Game]]:
    """Every move of ``seat`` now: its actions until another seat acts or the deal ends,
    with the game after them."""
    out: list[tuple[Move, Game]] = []

    def walk(cur: Game, done: Move) -> None:
        if done and (cur.to_act() != (seat,) or cur.deal_over):
            out.append((done, cur))
            return
        for a in cur.legal_actions(seat):
            nxt = clone(cur)
            nxt.apply(seat, a)
            walk(nxt, (*done, a))

    walk(g, ())
    return out


@dataclass
class Solution:
    """The value the seat can be sure of after each first move."""

    values: dict[Move, int]
    worlds: int
    nodes: int

    @property
    def best(self) -> int:
        return max(self.values.values())

    def winners(self, target: int) -> list[Move]:
        return [m for m, v in self.values.items() if v >= target]


def solve(g: Game, goal: Goal, max_nodes: int = 400_000, limit: int = MAX_WORLDS) -> Solution:
    """The value of every first move of ``goal.seat`` in ``g``."""
    ws = worlds(g, goal.seat, limit)
    s = Searcher(goal, g, max_nodes)
    values: dict[Move, int] = {}
    for move, _ in first_moves(g, goal.seat):
        nxt = []
        for w in ws:
            w2 = clone(w)
            for a in move:
                w2.apply(goal.seat, a)
            nxt.append(w2)
        values[move] = s.value(nxt, 1)
    return Solution(values, len(ws), s.nodes)


def refutation(g: Game, goal: Goal, move: Move, max_nodes: int = 400_000) -> list[tuple[int, Move]]:
    """A line that shows why ``move`` falls short: the others' replies (seat, actions)
    after it, as far as the first one after which the goal can no longer be reached.
    Empty when the move fails at once (or reaches the goal)."""
    ws = worlds(g, goal.seat)
    s = Searcher(goal, g, max_nodes)
    need = solve(g, goal, max_nodes).best
    cur = []
    for w in ws:
        w2 = clone(w)
        for a in move:
            w2.apply(goal.seat, a)
        cur.append(w2)
    line: list[tuple[int, Move]] = []
    turns = 1
    for _ in range(40):
        g0 = cur[0]
        if s.terminal(g0, turns) is not None:
            return line
        acting = g0.to_act()
        if goal.seat in acting:
            return line  # the seat is to act again: every move of its own falls short
        worst = None
        for joint, sub in s.replies(cur, acting):
            v = s.value(sub, turns)
            # the lowest value; among equals, a play rather than a pass (it shows more)
            passes = sum(a.kind == "pass" for a in joint)
            if worst is None or (v, passes) < (worst[0], worst[3]):
                worst = (v, joint, sub, passes)
        assert worst is not None
        v, joint, sub, _ = worst
        for seat_, a in zip(acting, joint, strict=True):
            line.append((seat_, (a,)))
        cur = sub
        if v < need and (cur[0].to_act() == (goal.seat,) or s.terminal(cur[0], turns) is not None):
            return line
    return line
