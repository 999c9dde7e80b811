"""Big Two, five-round edition (docs/rules.md §3).

Actions: as in :mod:`.game_big_two`: ``Action("play", cards)`` with the concrete card codes
(suits matter; every suit choice is listed), or ``Action("pass")``.

Differences from Blume's Big Two:

* exactly 4 players; the holder of 3♦ starts every deal and must play it first;
* straights run 3-4-5-6-7 up to J-Q-K-A-2: the 2 may only top a straight (no
  A-2-3-4-5, no 2-3-4-5-6); straights and straight flushes compare by the top card,
  rank then suit (2 > A > ... and ♠ > ♥ > ♣ > ♦);
* flushes compare by suit first, then by the highest card;
* penalties: 1-9 cards left one point a card, 10-12 cards two points a card, all 13
  cards three points a card; exactly five deals, lowest total wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ..protocol import OptionSpec
from .game_big_two import BigTwoGame
from .game_poker import passing_spec
from .rules_big_two import TOP_TWO_WINDOWS


class BigTwoFiveRoundGame(BigTwoGame):
    variant_id: ClassVar[str] = "big-two-5r"
    name: ClassVar[str] = "Big Two (five rounds)"
    summary: ClassVar[str] = (
        "Four-player Big Two over exactly five deals; J-Q-K-A-2 is "
        "the top straight and penalties grow with cards left."
    )
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_players: ClassVar[int] = 4
    rounds: ClassVar[int] = 5

    # straights 3-4-5-6-7 ... J-Q-K-A-2 (climbing indices are already in that order)
    WINDOWS: ClassVar[tuple[tuple[int, ...], ...]] = TOP_TWO_WINDOWS

    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return (passing_spec(),)

    def target_text(self) -> str:
        return (
            f"Deal {min(self.deal_number, self.rounds)} of {self.rounds}: penalty points "
            f"for cards left; lowest total after five deals wins."
        )

    def match_ends(self, totals: list[int]) -> bool:
        return self.deal_number >= self.rounds

    def _straight_reason(self, idxs: Iterable[int]) -> str:
        ranks = {i >> 2 for i in idxs}
        if 12 in ranks:
            return (
                "A 2 can only be the top card of a straight here (J-Q-K-A-2 is the "
                "highest); A-2-3-4-5 and 2-3-4-5-6 are not straights."
            )
        return "Straights do not wrap around: they run from 3-4-5-6-7 up to J-Q-K-A-2."
