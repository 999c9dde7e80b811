"""A lean simulation path for Twos (trick-taking), for search (docs/rules.md §6).

The protocol game (:mod:`.twos_tricks`) keeps card codes, a public log and JSON; a search
needs none of that. Here one deal is a few integers:

* a card is an index ``0..51``: ``suit * 13 + order`` with suits in :data:`SUITS` order
  and ``order`` 0 for the 3, 1 for the 4 … 11 for the ace and 12 for the 2, so within a
  suit a higher index is a higher card and the 2 is on top;
* a hand is a bit mask of those indices;
* :class:`TricksSim` is one deal in play (hands, the trick so far, points), copied with
  :meth:`TricksSim.copy` and played with :meth:`TricksSim.play`, no text built.

:func:`determinize` samples a full deal consistent with one seat's observation (its own
hand, every card played, the voids the play has revealed) using the caller's generator;
:func:`from_game` copies a protocol game exactly (tests check the two paths agree move for
move). Nothing here knows any strategy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .bitmask import bits as bits  # re-exported for the trick AIs
from .cards import SUITS, card_code
from .observation import TwosTricksObservation, seat_card

if TYPE_CHECKING:
    from .twos_tricks import TwosTricksGame

PLAYERS = 4
#: ranks in trick order within a suit: 3 low … A, then the 2 (wild) on top
ORDER = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
CODES: tuple[str, ...] = tuple(card_code(r, s) for s in SUITS for r in ORDER)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
SUIT_MASK: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
TWO_OF: tuple[int, ...] = tuple(13 * s + 12 for s in range(4))
THREE_OF: tuple[int, ...] = tuple(13 * s for s in range(4))
TWOS: int = sum(1 << c for c in TWO_OF)
THREES: int = sum(1 << c for c in THREE_OF)
HONOURS: int = sum(1 << (13 * s + o) for s in range(4) for o in (8, 9, 10, 11))
FULL: int = (1 << 52) - 1
#: 1 for an honour (A, K, Q, J), else 0
HONOUR_OF: tuple[int, ...] = tuple((HONOURS >> c) & 1 for c in range(52))


def suit(card: int) -> int:
    return card // 13


def is_two(card: int) -> bool:
    return card % 13 == 12


def mask_of(codes: Iterable[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


def legal_mask(hand: int, led: int) -> int:
    """The cards of ``hand`` that may go to a trick led in suit ``led`` (-1: leading).
    A 2 belongs to its suit, and any 2 may always be played."""
    if led < 0:
        return hand
    suited = hand & SUIT_MASK[led]
    return suited | (hand & TWOS) if suited else hand


def resolve(cards: list[int]) -> tuple[int, int, int, int]:
    """The trick ``cards`` (in play order): ``(winning position, catch points, victim
    position, victims)`` where catches are scored as in :func:`.twos_tricks.resolve_trick`:
    a 3 catching its 2 gives ``catch points`` 3 and one victim; a first 2 catching later
    2s gives 2 per victim and ``victims`` is their position bit mask. No catch: 0, -1, 0."""
    first = -1
    for i, c in enumerate(cards):
        if c % 13 == 12:
            first = i
            break
    if first >= 0:
        three = cards[first] - 12
        for i, c in enumerate(cards):
            if c == three:
                return i, 3, first, 1 << first
        victims = 0
        for i in range(first + 1, len(cards)):
            if cards[i] % 13 == 12:
                victims |= 1 << i
        return first, 2, -1, victims
    led = cards[0] // 13
    best = 0
    top = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 == led and c > top:
            best, top = i, c
    return best, 0, -1, 0


class TricksSim:
    """One deal of Twos (trick-taking) in play, as integers."""

    __slots__ = (
        "hands",
        "leader",
        "current",
        "trick",
        "points",
        "honours",
        "catches",
        "tricks_taken",
        "trick_number",
        "played",
        "over",
    )

    def __init__(self) -> None:
        self.hands: list[int] = [0] * PLAYERS
        self.leader = 0
        self.current = 0
        self.trick: list[int] = []  # cards in play order; seat of the i-th is leader + i
        self.points = [0] * PLAYERS
        self.honours = [0] * PLAYERS
        self.catches = [0] * PLAYERS
        self.tricks_taken = [0] * PLAYERS
        self.trick_number = 1
        self.played = 0  # cards of finished tricks
        self.over = False

    def copy(self) -> TricksSim:
        s = TricksSim.__new__(TricksSim)
        s.hands = self.hands[:]
        s.leader = self.leader
        s.current = self.current
        s.trick = self.trick[:]
        s.points = self.points[:]
        s.honours = self.honours[:]
        s.catches = self.catches[:]
        s.tricks_taken = self.tricks_taken[:]
        s.trick_number = self.trick_number
        s.played = self.played
        s.over = self.over
        return s

    @property
    def led(self) -> int:
        return self.trick[0] // 13 if self.trick else -1

    def legal(self) -> int:
        """The legal cards of the seat to play, as a mask."""
        return legal_mask(self.hands[self.current], self.trick[0] // 13 if self.trick else -1)

    def play(self, card: int) -> None:
        """The seat to play plays ``card`` (assumed legal)."""
        seat = self.current
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < PLAYERS:
            self.current = (seat + 1) % PLAYERS
            return
        pos, pts, _, victims = resolve(trick)
        leader = self.leader
        winner = (leader + pos) % PLAYERS
        hon = 0
        played = self.played
        for c in trick:
            hon += HONOUR_OF[c]
            played |= 1 << c
        self.played = played
        self.honours[winner] += hon
        self.points[winner] += hon
        self.tricks_taken[winner] += 1
        if pts:
            i = 0
            while victims:
                if victims & 1:
                    victim = (leader + i) % PLAYERS
                    self.points[winner] += pts
                    self.catches[winner] += pts
                    self.points[victim] -= pts
                    self.catches[victim] -= pts
                victims >>= 1
                i += 1
        self.trick = []
        self.leader = self.current = winner
        if not (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]):
            self.over = True
        else:
            self.trick_number += 1

    def seat_of(self, position: int) -> int:
        """The seat that played the ``position``-th card of the current trick."""
        return (self.leader + position) % PLAYERS


def from_game(game: TwosTricksGame) -> TricksSim:
    """An exact copy of a protocol game's current deal (for tests and tools)."""
    s = TricksSim()
    s.hands = [mask_of(h) for h in game.hands]
    s.leader = game.leader
    s.current = game.current
    s.trick = [INDEX[c] for _, c in game.trick]
    s.points = list(game.points)
    s.honours = list(game.honours)
    s.catches = list(game.catch_points)
    s.tricks_taken = list(game.tricks_taken)
    s.trick_number = game.trick_number
    s.played = mask_of(c for t in game.taken for c in t)
    s.over = game.deal_over
    return s


# ----- what one seat knows -----------------------------------------------------------------
def plays_of_deal(obs: TwosTricksObservation) -> list[tuple[int, int]]:
    """Every card played this deal as ``(seat, card)`` in order, from the public log."""
    deal = obs.get("deal_number")
    out = []
    for h in obs.get("history", ()):
        if h.get("kind") == "play" and h.get("deal") == deal and "card" in h:
            seat = h["seat"]
            assert seat is not None  # a play names its player
            out.append((seat, INDEX[h["card"]]))
    return out


def voids(obs: TwosTricksObservation) -> list[int]:
    """Per seat, a mask of the suits (bit ``s``) it has shown it no longer holds: it
    played a card of another suit, not a 2, to a trick led in that suit."""
    out = [0] * obs["players"]
    trick: list[int] = []
    for seat, card in plays_of_deal(obs):
        if len(trick) == obs["players"]:
            trick = []
        if trick:
            led = trick[0] // 13
            if card // 13 != led and card % 13 != 12:
                out[seat] |= 1 << led
        trick.append(card)
    return out


def unseen_mask(obs: TwosTricksObservation) -> int:
    """The cards ``obs``'s seat has not seen: in the other hands."""
    seen = (
        mask_of(obs["hand"])
        | mask_of(obs.get("played", ()))
        | mask_of(seat_card(p)[1] for p in obs["trick"])
    )
    return FULL & ~seen


def determinize(
    obs: TwosTricksObservation,
    rng: random.Random,
    weight: Callable[[int, int], float] | None = None,
    void_masks: list[int] | None = None,
) -> TricksSim:
    """A full deal consistent with what ``obs``'s seat knows: its hand, the cards played,
    the trick on the table, each seat's card count and revealed voids. The unseen cards
    go to the other seats at random (``rng``); ``weight(seat, card) -> float`` (optional)
    makes a card likelier in one hand than another (a soft read of the play).

    Cards are placed most-constrained first, each to a seat with room, chosen with odds
    proportional to the room left (times ``weight``); a dead end restarts, and after a
    few restarts the voids are dropped (an observation built by hand may contradict them).
    """
    me = obs["seat"]
    n = obs["players"]
    s = TricksSim()
    s.hands[me] = mask_of(obs["hand"])
    s.trick = [INDEX[seat_card(p)[1]] for p in obs["trick"]]
    s.leader = obs["leader"]
    s.current = obs["to_act"][0] if obs["to_act"] else me
    s.points = list(obs["points"])
    s.honours = list(obs["honours"])
    s.catches = list(obs["catch_points"])
    s.tricks_taken = list(obs["tricks_taken"])
    s.trick_number = obs["trick_number"]
    s.played = mask_of(obs.get("played", ()))
    s.over = obs["deal_over"]
    unseen = bits(unseen_mask(obs))
    need = [0 if i == me else obs["hand_counts"][i] for i in range(n)]
    vm = voids(obs) if void_masks is None else void_masks
    others = [i for i in range(n) if i != me]
    for attempt in range(12):
        use_voids = attempt < 10
        allowed = {}
        for c in unseen:
            su = c // 13
            allowed[c] = [i for i in others if not (use_voids and vm[i] >> su & 1)]
        order = unseen[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        room = need[:]
        hands = [0] * n
        ok = True
        for c in order:
            cands = [i for i in allowed[c] if room[i] > 0]
            if not cands:
                ok = False
                break
            if len(cands) == 1:
                pick = cands[0]
            else:
                ws = [room[i] * (weight(i, c) if weight else 1.0) for i in cands]
                total = sum(ws)
                x = rng.random() * total
                pick = cands[-1]
                for i, w in zip(cands, ws, strict=True):
                    x -= w
                    if x < 0:
                        pick = i
                        break
            hands[pick] |= 1 << c
            room[pick] -= 1
        if ok:
            for i in others:
                s.hands[i] = hands[i]
            return s
    raise ValueError("the observation cannot be dealt out: card counts do not add up")
