"""The trick game's judgements, on integer cards (see :mod:`.cards`): what may be played,
who wins a trick and what it catches, the honours, and how a deal and a match end.

* Follow suit if you can; a 2 may be played at any time (it is wild). A 2 still belongs
  to its suit: a player whose only card of the led suit is its 2 must play that 2 (or
  another 2).
* If the trick holds a 2, the first 2 played wins, unless the 3 of its own suit is in
  the trick (before or after it): then that 3 wins. Otherwise the highest card of the
  led suit wins.
* Points, to the trick winner only: each A, K, Q, J in the trick is 1; a winning first
  2 catches every later 2 (+2 to the winner, −2 to each victim); a winning 3 catches its
  own 2 (+3 / −3). A catch by a card that does not win the trick scores nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import HONOUR_OF, SUIT_MASK, TWOS


def led_suit_cards(hand: int, led: int) -> int:
    """The cards of ``hand`` in the led suit ``led`` (its 2 included): while it holds
    any, the hand must follow with one of them (or a 2)."""
    return hand & SUIT_MASK[led]


def legal_mask(hand: int, led: int) -> int:
    """The cards of ``hand`` that may go to a trick led in suit ``led`` (-1: leading).
    A 2 belongs to its suit, and any 2 may always be played."""
    if led < 0:
        return hand
    suited = hand & SUIT_MASK[led]
    return suited | (hand & TWOS) if suited else hand


def resolve(cards: list[int]) -> tuple[int, int, int, int]:
    """The trick ``cards`` (in play order): ``(winning position, catch points, victim
    position, victims)``: a 3 catching its 2 gives ``catch points`` 3 and one victim; a
    first 2 catching later 2s gives 2 per victim; ``victims`` is the victims' positions
    as a bit mask. No catch: ``0, -1, 0``."""
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


def catches(
    leader: int, pos: int, points: int, victims: int, players: int = 4
) -> list[tuple[int, int, int]]:
    """A resolved trick's catches as ``(catcher seat, victim seat, points)``, the victims
    in play order (``leader`` led; ``pos`` won)."""
    winner = (leader + pos) % players
    return [(winner, (leader + i) % players, points) for i in range(players) if victims >> i & 1]


def honours(cards: Iterable[int]) -> int:
    """The honour points in ``cards``."""
    return sum(HONOUR_OF[c] for c in cards)


def deal_winners(changes: list[int]) -> list[int]:
    """The seats that won a deal: the most points."""
    best = max(changes)
    return [s for s, c in enumerate(changes) if c == best]


def match_over(game_length: int, target_score: int, deal_number: int, totals: list[int]) -> bool:
    """After a deal: a match of ``game_length`` deals ends with its last deal; a match to
    a target (length 0) ends with the deal in which someone reaches ``target_score``."""
    if game_length:
        return deal_number >= game_length
    return max(totals) >= target_score
