"""The rules of 2v1, once, as integers: the core that the protocol game
(:class:`~.game.TwoVOneGame`) and the search AI both play (docs/rules.md §5).

One round from the bidding to the coins, with no log, text or JSON:

* a card is an index ``0..17`` in :data:`~.deck.DECK` order (the rainbow is :data:`RB`,
  the last); a hand is a bit mask, and since the deck order is the order a hand is kept
  in (by suit, then value), the cards of a mask lowest first are the hand as shown;
  :data:`PV` is the pair-value table;
* a *move* is an int: a bid or raise value (0, 3, 4), a card index (discard, lead,
  hide, follow, keep), or a two-card mask (exchange);
* :class:`RoundSim` is the round: who acts (:meth:`~RoundSim.to_act`), the legal moves
  (:meth:`~RoundSim.legal`), a move carried out (:meth:`~RoundSim.apply`: the bidding,
  the exchange, the discard, the trick flow of the five hands, the coins of the round),
  copied with :meth:`~RoundSim.copy`;
* :func:`move_of` and :func:`action_of` translate moves and protocol actions.

The protocol game holds one :class:`RoundSim` as its state and only translates, words
and records; the match (totals, the play-off) is :mod:`.scoring`'s; what a seat may
infer about the hidden cards is :mod:`.sampler`'s. Nothing here knows any strategy.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..protocol import Action
from .deck import BLINDFOLD, CARDS, DECK, HANDS_PER_ROUND, RAINBOW, SUIT_ORDER, pair_value

N = 3
NCARDS = len(DECK)
CODES: tuple[str, ...] = DECK
INDEX: dict[str, int] = {c: i for i, c in enumerate(DECK)}
RB: int = INDEX[RAINBOW]
RB_BIT: int = 1 << RB
VALUE: tuple[int, ...] = tuple(CARDS[c][0] for c in DECK)
#: suit number (index in SUIT_ORDER), -1 for the rainbow
SUIT: tuple[int, ...] = tuple(SUIT_ORDER.index(CARDS[c][1]) if CARDS[c][1] else -1 for c in DECK)
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i in range(NCARDS) if SUIT[i] == s) for s in range(len(SUIT_ORDER))
)
PV: tuple[tuple[int, ...], ...] = tuple(
    tuple(pair_value(a, b) if a != b else 0 for b in DECK) for a in DECK
)
ALL: int = (1 << NCARDS) - 1

# phases
BID, RAISE, EXCHANGE, DISCARD, LEAD, HIDE, FOLLOW, KEEP, OVER = (
    "bid",
    "raise",
    "exchange",
    "discard",
    "lead",
    "hide",
    "follow",
    "keep",
    "over",
)


_LOW9: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(9) if m >> i & 1) for m in range(512)
)
_HIGH9: tuple[tuple[int, ...], ...] = tuple(tuple(i + 9 for i in t) for t in _LOW9)


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    return [*_LOW9[mask & 511], *_HIGH9[mask >> 9 & 511]]


def mask_of(codes: Iterable[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def follow_mask(hand: int, led: int) -> int:
    """The cards of ``hand`` a duo member may play to a lead of suit ``led``."""
    suited = hand & SUIT_MASK[led]
    return suited if suited else hand


class RoundSim:
    """One round of 2v1 from the bidding to the score, as integers."""

    __slots__ = (
        "phase",
        "hands",
        "rainbow_passes",
        "bid_queue",
        "high_bid",
        "high_seat",
        "eligible",
        "pending",
        "lone",
        "bid",
        "discards",
        "hand_no",
        "up",
        "down",
        "follows",
        "blind",
        "keep_seat",
        "won",
        "pile",
        "changes",
    )

    def __init__(self) -> None:
        self.phase = BID
        self.hands = [0, 0, 0]
        self.rainbow_passes = 0
        self.bid_queue: list[int] = []
        self.high_bid = 0  # 0: nobody has bid
        self.high_seat = -1
        self.eligible: tuple[bool, ...] = (True, True, True)
        self.pending = [0, 0, 0]  # exchange choices (masks), 0 while not chosen
        self.lone = -1
        self.bid = 0
        self.discards = [-1, -1, -1]
        self.hand_no = 0
        self.up = -1
        self.down = -1
        self.follows = [-1, -1, -1]
        self.blind = False
        self.keep_seat = -1
        self.won = [0, 0]  # lone, duo
        self.pile = 0
        self.changes: list[int] | None = None  # coins when the round is over

    def copy(self) -> RoundSim:
        s = RoundSim.__new__(RoundSim)
        s.phase = self.phase
        s.hands = self.hands[:]
        s.rainbow_passes = self.rainbow_passes
        s.bid_queue = self.bid_queue[:]
        s.high_bid = self.high_bid
        s.high_seat = self.high_seat
        s.eligible = self.eligible
        s.pending = self.pending[:]
        s.lone = self.lone
        s.bid = self.bid
        s.discards = self.discards[:]
        s.hand_no = self.hand_no
        s.up = self.up
        s.down = self.down
        s.follows = self.follows[:]
        s.blind = self.blind
        s.keep_seat = self.keep_seat
        s.won = self.won[:]
        s.pile = self.pile
        s.changes = self.changes
        return s

    # ----- who acts, what is legal ------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def duo(self) -> tuple[int, int]:
        return ((self.lone + 1) % N, (self.lone + 2) % N)

    def to_act(self) -> tuple[int, ...]:
        p = self.phase
        if p in (FOLLOW, DISCARD):
            a, b = (self.lone + 1) % N, (self.lone + 2) % N
            if p == FOLLOW:
                f = self.follows
                if not self.blind:  # in turn, the lone's left neighbour first
                    return (a,) if f[a] < 0 else ((b,) if f[b] < 0 else ())
            else:
                f = self.discards
            if f[a] < 0:  # at once
                return (a, b) if f[b] < 0 else (a,)
            return (b,) if f[b] < 0 else ()
        if p in (LEAD, HIDE, RAISE):
            return (self.lone,)
        if p == KEEP:
            return (self.keep_seat,)
        if p == BID:
            return (self.bid_queue[0],)
        if p == EXCHANGE:
            return tuple(s for s in range(N) if not self.pending[s])
        return ()

    def forced(self) -> bool:
        """The rainbow has gone round: the bidding may not end without a bid."""
        return self.rainbow_passes >= N

    def may_pass(self, seat: int) -> bool:
        """Whether ``seat``, asked to bid, may pass (not the last to speak of a forced
        bidding where nobody has bid)."""
        return not (self.rainbow_passes >= N and self.high_bid == 0 and self.bid_queue[-1] == seat)

    def legal(self, seat: int) -> list[int]:
        """Legal moves of ``seat`` (which must be one of :meth:`to_act`)."""
        p = self.phase
        hand = self.hands[seat]
        if p == FOLLOW:
            return bits(follow_mask(hand, SUIT[self.up]))
        if p in (HIDE, DISCARD):
            return bits(hand)
        if p == LEAD:
            return bits(hand & ~RB_BIT)
        if p == KEEP:
            return [self.up, self.down]
        if p == BID:
            opts = []
            if self.may_pass(seat):
                opts.append(0)
            if self.eligible[seat]:
                if self.high_bid == 0:
                    opts.append(3)
                opts.append(4)
            return opts
        if p == RAISE:
            return [3, 4]
        if p == EXCHANGE:
            cards = bits(hand)
            if hand & RB_BIT:
                return [RB_BIT | (1 << c) for c in cards if c != RB]
            return [(1 << a) | (1 << b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
        return []

    # ----- moves ---------------------------------------------------------------------------
    def apply(self, seat: int, move: int) -> None:
        """Carry out a legal ``move`` of ``seat``."""
        p = self.phase
        if p == FOLLOW:
            self.hands[seat] &= ~(1 << move)
            self.follows[seat] = move
            a, b = (self.lone + 1) % N, (self.lone + 2) % N
            if self.follows[a] >= 0 and self.follows[b] >= 0:
                self._resolve()
        elif p == HIDE:
            self.hands[seat] &= ~(1 << move)
            self.down = move
            self.phase = FOLLOW
            self.blind = VALUE[self.up] == BLINDFOLD
        elif p == LEAD:
            self.hands[seat] &= ~(1 << move)
            self.up = move
            self.phase = HIDE
        elif p == KEEP:
            other = self.down if move == self.up else self.up
            self.hands[self.lone] |= 1 << move
            self.pile |= 1 << other
            self.start_hand()
        elif p == BID:
            self._bid(seat, move)
        elif p == RAISE:
            self.bid = move
            self._start_discard()
        elif p == EXCHANGE:
            self.pending[seat] = move
            if all(self.pending):
                moving = self.pending
                hands = self.hands
                for s in range(N):
                    hands[s] &= ~moving[s]
                for s in range(N):
                    hands[(s + 1) % N] |= moving[s]
                self.pending = [0, 0, 0]
                self.rainbow_passes += 1
                self.start_bidding()
        elif p == DISCARD:
            self.hands[seat] &= ~(1 << move)
            self.discards[seat] = move
            a, b = self.duo()
            if self.discards[a] >= 0 and self.discards[b] >= 0:
                self.start_hand()

    def holder(self) -> int:
        for s in range(N):
            if self.hands[s] & RB_BIT:
                return s
        return -1

    def start_bidding(self, holder: int = -1) -> None:
        """Start a bidding: the player left of the rainbow's holder speaks first (the
        holder is found in the hands unless given)."""
        h = self.holder() if holder < 0 else holder
        self.phase = BID
        self.high_bid, self.high_seat = 0, -1
        self.bid_queue = [s for s in ((h + 1) % N, (h + 2) % N, h) if self.eligible[s]]

    def _bid(self, seat: int, value: int) -> None:
        if value == 0:
            self.bid_queue.pop(0)
        elif value == 3:
            self.high_bid, self.high_seat = 3, seat
            self.bid_queue = [s for s in ((seat + 1) % N, (seat + 2) % N) if self.eligible[s]]
        else:
            self.high_bid, self.high_seat = 4, seat
            self.bid_queue = []
        if not self.bid_queue:
            if self.high_bid == 0:
                self.phase = EXCHANGE
                self.pending = [0, 0, 0]
                return
            self.lone, self.bid = self.high_seat, self.high_bid
            if self.bid == 3:
                self.phase = RAISE
            else:
                self._start_discard()

    def _start_discard(self) -> None:
        self.phase = DISCARD
        self.discards = [-1, -1, -1]

    def start_hand(self) -> None:
        """Start the next of the five hands: the lone player leads."""
        self.phase = LEAD
        self.hand_no += 1
        self.up = self.down = -1
        self.follows = [-1, -1, -1]
        self.blind = False
        self.keep_seat = -1

    def _resolve(self) -> None:
        up, down = self.up, self.down
        a, b = (self.lone + 1) % N, (self.lone + 2) % N
        d1, d2 = self.follows[a], self.follows[b]
        lone_wins = PV[up][down] >= PV[d1][d2]
        self.won[0 if lone_wins else 1] += 1
        self.pile |= (1 << d1) | (1 << d2)
        self.follows = [-1, -1, -1]
        if self.hand_no >= HANDS_PER_ROUND:
            self.pile |= (1 << up) | (1 << down)
            self.up = self.down = -1
            self._end()
        elif up == RB or down == RB:
            back = up if down == RB else down
            self.pile |= RB_BIT
            self.hands[self.lone] |= 1 << back
            self.start_hand()
        else:
            self.phase = KEEP
            self.keep_seat = self.lone if lone_wins else a

    def _end(self) -> None:
        self.phase = OVER
        self.keep_seat = -1
        ch = [0, 0, 0]
        if self.won[0] == self.bid:
            ch[self.lone] = 2
        else:
            a, b = self.duo()
            ch[a] = ch[b] = 1
        self.changes = ch

    def lone_needs(self) -> tuple[int, int]:
        """(hands the lone player still needs, hands left counting the current one)."""
        return self.bid - self.won[0], HANDS_PER_ROUND - self.hand_no + 1


# ----- moves <-> protocol actions --------------------------------------------------------------
def move_of(phase: str, action: Action) -> int:
    """The sim move of a protocol :class:`~.protocol.Action` in ``phase``."""
    value = action.value
    if phase in (BID, RAISE):
        assert value is not None
        return int(value)
    if phase == KEEP:
        assert type(value) is str
        return INDEX[value]
    if phase == EXCHANGE:
        return mask_of(action.cards)
    return INDEX[action.cards[0]]


def _make_action(phase: str, move: int) -> Action:
    if phase in (BID, RAISE):
        return Action(phase, value=move)
    if phase == KEEP:
        return Action("keep", value=CODES[move])
    if phase == EXCHANGE:
        return Action("exchange", tuple(CODES[c] for c in bits(move)))
    return Action(phase, (CODES[move],))


#: every move of every phase as its protocol action, made once (an action is immutable):
#: ``ACTIONS[phase][move]``
ACTIONS: dict[str, dict[int, Action]] = {
    BID: {v: _make_action(BID, v) for v in (0, 3, 4)},
    RAISE: {v: _make_action(RAISE, v) for v in (3, 4)},
    EXCHANGE: {
        (1 << a) | (1 << b): _make_action(EXCHANGE, (1 << a) | (1 << b))
        for a in range(NCARDS)
        for b in range(a + 1, NCARDS)
    },
    **{
        p: {c: _make_action(p, c) for c in range(NCARDS)}
        for p in (DISCARD, LEAD, HIDE, FOLLOW, KEEP)
    },
}
#: the (phase, move) of each action of :data:`ACTIONS`, by the action's identity: an
#: action a game handed out is known at once, without reading its cards again
KNOWN: dict[int, tuple[str, int]] = {
    id(a): (p, mv) for p, table in ACTIONS.items() for mv, a in table.items()
}


def action_of(phase: str, move: int) -> Action:
    """The protocol action of a sim ``move`` in ``phase``."""
    return ACTIONS[phase][move]
