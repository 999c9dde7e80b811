"""One deal of the trick game in play, as integers: the rules' state and its trick flow.

:class:`TricksState` holds the hands (bit masks), the trick so far (cards in play
order; the ``i``-th was played by ``leader + i``), the deal's points, honours, catches
and tricks taken, and the cards of finished tricks. :meth:`TricksState.play` plays a card
and, at the fourth, judges the trick (:mod:`.judger`), scores it and hands the lead to
its winner. The protocol game (:mod:`.game`) and the search both play this one state.
"""

from __future__ import annotations

from .cards import HONOUR_OF
from .judger import legal_mask, resolve

PLAYERS = 4


class TricksState:
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
        self.played = 0  # cards of finished tricks (and cards out of play)
        self.over = False

    def copy(self) -> TricksState:
        s = TricksState.__new__(TricksState)
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
        """The suit led to the trick, or -1 before the lead."""
        return self.trick[0] // 13 if self.trick else -1

    def legal(self) -> int:
        """The legal cards of the seat to play, as a mask."""
        return legal_mask(self.hands[self.current], self.trick[0] // 13 if self.trick else -1)

    def play(self, card: int) -> tuple[int, int, int, int] | None:
        """The seat to play plays ``card`` (assumed legal). At the trick's last card: the
        trick is judged and scored, its winner leads next (or the deal is over), and the
        judgement (:func:`.judger.resolve`) is returned; before it, ``None``."""
        seat = self.current
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < PLAYERS:
            self.current = (seat + 1) % PLAYERS
            return None
        result = resolve(trick)
        pos, pts, _, victims = result
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
        return result

    def seat_of(self, position: int) -> int:
        """The seat that played the ``position``-th card of the current trick."""
        return (self.leader + position) % PLAYERS
