"""A lean simulation path for 2v1, for search (docs/rules.md §5).

One round of the protocol game (:mod:`.two_v_one`) as a few integers, with no log, text
or JSON:

* a card is an index ``0..17`` in :data:`~.two_v_one.DECK` order (the rainbow is
  :data:`RB`, the last); a hand is a bit mask; :data:`PV` is the pair-value table;
* a *move* is an int: a bid or raise value (0, 3, 4), a card index (discard, lead,
  hide, follow, keep), or a two-card mask (exchange);
* :class:`RoundSim` is the round from bidding to the score, copied with
  :meth:`RoundSim.copy`; :meth:`RoundSim.to_act`, :meth:`RoundSim.legal` and
  :meth:`RoundSim.apply` mirror the protocol (tests check them move for move).

:func:`determinize` samples a full round consistent with one seat's observation. Secret
choices another seat has already made but this seat cannot see (a pass in the exchange,
a duo discard being made, the lone player's face-down card before it is turned over,
a face-down follow after a blindfold lead) are *taken back*: the card returns to its
owner's hand and the owner is asked again in the simulation, so a search never uses a
choice it could not know. Nothing here knows any strategy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .cards import HIDDEN as HIDDEN_CODE
from .observation import LogEntry, TwoVOneObservation, seat_card
from .protocol import Action
from .two_v_one import BLINDFOLD, CARDS, DECK, HANDS_PER_ROUND, RAINBOW, SUIT_ORDER, pair_value

if TYPE_CHECKING:
    from .two_v_one import TwoVOneGame

#: the chance the lone player secretly kept ``a`` rather than ``b``
KeepPrior = Callable[[int, int], float]

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
        if p == BID:
            return (self.bid_queue[0],)
        if p in (LEAD, HIDE, RAISE):
            return (self.lone,)
        if p == FOLLOW:
            a, b = (self.lone + 1) % N, (self.lone + 2) % N
            f = self.follows
            if self.blind:
                return tuple(s for s in (a, b) if f[s] < 0)
            return (a,) if f[a] < 0 else ((b,) if f[b] < 0 else ())
        if p == KEEP:
            return (self.keep_seat,)
        if p == EXCHANGE:
            return tuple(s for s in range(N) if not self.pending[s])
        if p == DISCARD:
            return tuple(s for s in self.duo() if self.discards[s] < 0)
        return ()

    def forced(self) -> bool:
        return self.rainbow_passes >= N

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
            if not (self.forced() and self.high_bid == 0 and self.bid_queue[-1] == seat):
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
            self._start_hand()
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
                self._start_hand()

    def holder(self) -> int:
        for s in range(N):
            if self.hands[s] & RB_BIT:
                return s
        return -1

    def start_bidding(self) -> None:
        h = self.holder()
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

    def _start_hand(self) -> None:
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
            self._start_hand()
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


def action_of(phase: str, move: int) -> Action:
    """The protocol action of a sim ``move`` in ``phase``."""
    if phase in (BID, RAISE):
        return Action(phase, value=move)
    if phase == KEEP:
        return Action("keep", value=CODES[move])
    if phase == EXCHANGE:
        return Action("exchange", tuple(CODES[c] for c in bits(move)))
    return Action(phase, (CODES[move],))


def from_game(game: TwoVOneGame) -> RoundSim:
    """An exact copy of a protocol game's current round (for tests and tools)."""
    s = RoundSim()
    s.phase = OVER if game.deal_over else game.phase
    s.hands = [mask_of(h) for h in game.hands]
    s.rainbow_passes = game.rainbow_passes
    s.bid_queue = list(game.bid_queue)
    s.high_bid = game.high_bid or 0
    s.high_seat = -1 if game.high_seat is None else game.high_seat
    s.eligible = tuple(game.eligible)
    s.pending = [mask_of(p) if p else 0 for p in game.pending]
    s.lone = -1 if game.lone is None else game.lone
    s.bid = game.bid or 0
    s.discards = [INDEX[c] if c else -1 for c in game.duo_discards]
    s.hand_no = game.hand_no
    s.up = INDEX[game.lead_up] if game.lead_up else -1
    s.down = INDEX[game.lead_down] if game.lead_down else -1
    s.follows = [INDEX[c] if c else -1 for c in game.follows]
    s.blind = game.blind
    s.keep_seat = -1 if game.keep_seat is None else game.keep_seat
    s.won = list(game.hands_won)
    s.pile = mask_of(game.pile)
    if game.deal_over and game.results:
        s.changes = list(game.results[-1].changes)
    return s


# ----- what one seat knows ---------------------------------------------------------------------
class Knowledge:
    """What one seat knows about where the cards are, read from its observation.

    ``fixed[s]``: cards known to be in seat ``s``'s hand (its hidden choices taken back
    included); ``pool_known[s]``: cards known to be with seat ``s``, in its hand or its
    face-down discard; ``either``: pairs ``(a, b)`` the lone player secretly chose
    between (one is back in its hand, the other out of play); ``out``: cards known to be
    out of play; ``void[s]``: suits (bit ``suit``) seat ``s`` has shown it lacks;
    ``room[s]``: how many cards seat ``s`` holds once its hidden choice is taken back;
    ``discard_slot[s]``: whether ``s`` has a face-down discard this seat cannot see;
    ``taken_back[s]``: whether ``s`` has a hidden choice this seat cannot see (it will
    make it again in a simulation).
    """

    def __init__(self, obs: TwoVOneObservation) -> None:
        me = obs["seat"]
        self.me = me
        self.phase = obs["phase"]
        self.lone = obs["lone"] if obs["lone"] is not None else -1
        self.hand = mask_of(obs["hand"])
        self.fixed = [0, 0, 0]
        self.fixed[me] = self.hand
        self.pool_known = [0, 0, 0]
        self.either: list[tuple[int, int]] = []
        self.out = 0
        self.void = [0, 0, 0]
        self.room = [0 if s == me else obs["hand_counts"][s] for s in range(N)]
        self.discard_slot = [False, False, False]
        self.taken_back = [False, False, False]
        my_discard, lead = obs["my_discard"], obs["lead"]
        self.my_discard = INDEX[my_discard] if my_discard else -1
        self.up = INDEX[lead] if lead else -1
        self.down = -1  # the lone's face-down card, where this seat may see it
        self.follows = [-1, -1, -1]  # follows this seat can see (its own included)
        self._read_table(obs)
        self._read_log(obs)

    def _read_table(self, obs: TwoVOneObservation) -> None:
        me, lone, phase = self.me, self.lone, self.phase
        last = obs.get("last_hand")
        if phase == KEEP and last:
            self.up, self.down = (INDEX[c] for c in last["lone"])
        if phase == FOLLOW:
            for t in obs["table"]:
                s, cards = t["seat"], t["cards"]
                if s == lone:
                    if len(cards) > 1 and cards[1] != HIDDEN_CODE:
                        self.down = INDEX[cards[1]]
                elif cards and cards[0] != HIDDEN_CODE:
                    self.follows[s] = INDEX[cards[0]]
                elif cards and s != me:
                    self.room[s] += 1  # a face-down follow: taken back
                    self.taken_back[s] = True
            if self.down < 0 and me != lone:
                self.room[lone] += 1  # the lone's face-down card: taken back
                self.taken_back[lone] = True
            led = SUIT[self.up]
            for s in range(N):
                c = self.follows[s]
                if c >= 0 and s != me and SUIT[c] != led:
                    self.void[s] |= 1 << led
        if lone >= 0 and phase not in (BID, EXCHANGE, RAISE):
            for s in range(N):
                if s in (me, lone):
                    continue
                if phase != DISCARD:
                    self.discard_slot[s] = True
                elif "discarded" in obs["seat_tags"][s]:
                    self.room[s] += 1  # its discard: taken back
                    self.taken_back[s] = True
        if phase == EXCHANGE:
            for s in range(N):
                if s != me and "ready" in obs["seat_tags"][s]:
                    self.taken_back[s] = True  # nothing has moved yet: it chooses again

    def _read_log(self, obs: TwoVOneObservation) -> None:
        me, lone = self.me, self.lone
        hand_entries: list[LogEntry] = []
        returns: list[int | None] = []  # per hand: the card back (-1: secret, None: none)
        holder = None  # who announced the rainbow last
        for h in obs.get("history", ()):
            if h.get("deal") != obs["deal_number"]:
                continue
            kind = h.get("kind")
            if kind == "rainbow":
                holder = h.get("seat")
            elif kind == "hand" and "lone_cards" in h:
                hand_entries.append(h)
                returns.append(None)
            elif kind == "return" and hand_entries:
                c = h.get("card")
                returns[-1] = INDEX[c] if c else -1
        if obs.get("rainbow_holder") is not None:
            holder = obs["rainbow_holder"]
        lone_seen: list[int] = []
        for h in hand_entries:
            a, b = (INDEX[c] for c in h["lone_cards"])
            lone_seen.append((1 << a) | (1 << b))
            led = SUIT[a]
            for pair in h["duo_cards"]:
                s, c = seat_card(pair)
                i = INDEX[c]
                self.out |= 1 << i
                if SUIT[i] != led:
                    self.void[s] |= 1 << led
        cur = 0
        if self.up >= 0:
            cur |= 1 << self.up
        if self.down >= 0:
            cur |= 1 << self.down
        current = self.phase == KEEP  # the last logged hand is the one on the table
        for k, h in enumerate(hand_entries):
            if current and k == len(hand_entries) - 1:
                break
            a, b = (INDEX[c] for c in h["lone_cards"])
            later = cur
            for m in lone_seen[k + 1 :]:
                later |= m
            ret = returns[k]
            if ret is None:  # the fifth hand: both out
                self.out |= (1 << a) | (1 << b)
                continue
            if ret >= 0:
                kept = ret
            elif me == lone:
                kept = a if (self.hand | later) >> a & 1 else b
            elif later >> a & 1:
                kept = a
            elif later >> b & 1:
                kept = b
            else:
                self.either.append((a, b))
                continue
            self.out |= ((1 << a) | (1 << b)) & ~(1 << kept)
            if not (later >> kept & 1) and not (self.hand >> kept & 1) and me != lone:
                self.fixed[lone] |= 1 << kept
        visible = cur | self.hand
        for s in range(N):
            if self.follows[s] >= 0:
                visible |= 1 << self.follows[s]
        if self.my_discard >= 0:
            visible |= 1 << self.my_discard
        self.visible = visible
        self.out &= ~visible
        in_doubt = 0
        for a, b in self.either:
            in_doubt |= (1 << a) | (1 << b)
        placed = visible | self.out | in_doubt | self.fixed[0] | self.fixed[1] | self.fixed[2]
        # the rainbow is with the seat that announced it (hand or discard), unless seen
        if holder is not None and holder != me and not placed & RB_BIT:
            self.pool_known[holder] |= RB_BIT
        # the cards this seat passed in the last exchange are with its left neighbour
        left = (me + 1) % N
        for c in obs.get("passed") or ():
            i = INDEX[c]
            if not placed >> i & 1:
                self.pool_known[left] |= 1 << i


class Sampler:
    """Deals out what one seat cannot see, again and again: build it once from the
    observation (:class:`Knowledge` and the public state), then call :meth:`sample`.

    Each sample is a full :class:`RoundSim` consistent with what the seat knows: the
    unseen cards go at random to the other hands and face-down discards, each seat
    getting as many as it holds, respecting the voids the play has shown, the rainbow's
    announced holder and the cards this seat passed. Hidden choices the seat cannot see
    are taken back (``taken_back``: those seats act again in the sample).
    ``keep_prior(a, b) -> float`` (optional) is the chance the lone player secretly kept
    ``a`` rather than ``b`` after a hand it won (default one half)."""

    def __init__(self, obs: TwoVOneObservation, keep_prior: KeepPrior | None = None) -> None:
        k = self.knowledge = Knowledge(obs)
        me, lone = k.me, k.lone
        self.me = me
        p = obs["phase"]
        s = self.template = RoundSim()
        s.phase = OVER if obs["deal_over"] else p
        s.rainbow_passes = obs["rainbow_passes"]
        s.eligible = tuple(obs["eligible"])
        s.lone = lone
        s.bid = obs["bid"] or 0
        s.high_bid = obs["high_bid"] or 0
        s.high_seat = -1 if obs["high_seat"] is None else obs["high_seat"]
        s.hand_no = obs["hand_no"]
        s.won = [obs["hands_won"]["lone"], obs["hands_won"]["duo"]]
        s.blind = bool(obs["blindfold"])
        s.keep_seat = -1 if obs["keep_seat"] is None else obs["keep_seat"]
        s.up, s.down = k.up, k.down
        s.follows = k.follows[:]
        if p == BID:
            s.bid_queue = _bid_queue(obs)
        if p == FOLLOW and lone >= 0 and k.taken_back[lone]:
            s.phase = HIDE  # the lone player lays its face-down card again
        my_choice = obs["my_choice"]
        if p == EXCHANGE and my_choice:
            s.pending[me] = mask_of(my_choice)
        if k.my_discard >= 0:
            s.discards[me] = k.my_discard
        self.taken_back = [t for t in range(N) if k.taken_back[t]]
        self.keep_prior = keep_prior
        self.either = [(a, b, keep_prior(a, b) if keep_prior else 0.5) for a, b in k.either]
        placed = k.out | k.visible | k.fixed[0] | k.fixed[1] | k.fixed[2]
        for a, b in k.either:
            placed |= (1 << a) | (1 << b)
        for c in (s.up, s.down, *s.follows):
            if c >= 0:
                placed |= 1 << c
        self.unknown = bits(ALL & ~placed)
        self.owner = {
            c: next((t for t in range(N) if k.pool_known[t] >> c & 1), -1) for c in self.unknown
        }
        self.dslots = [1 if k.discard_slot[t] and t != me else 0 for t in range(N)]
        self.void = k.void

    def sample(self, rng: random.Random) -> RoundSim:
        k = self.knowledge
        me, lone = self.me, k.lone
        hands = k.fixed[:]
        out = k.out
        for a, b, pa in self.either:
            kept, gone = (a, b) if rng.random() < pa else (b, a)
            hands[lone] |= 1 << kept
            out |= 1 << gone
        room = [0 if t == me else max(0, k.room[t] - popcount(hands[t])) for t in range(N)]
        dslots = self.dslots
        cards = self.unknown[:]
        rng.shuffle(cards)
        total = sum(room) + sum(dslots)
        if len(cards) > total:  # a position built by hand, not in the log: the rest is out
            for c in cards[total:]:
                out |= 1 << c
            cards = cards[:total]
        owner = self.owner
        cards.sort(key=lambda c: owner[c] < 0)
        void = self.void
        for attempt in range(24):
            use_voids = attempt < 20
            h2, d2, rs, ds = hands[:], [-1, -1, -1], room[:], dslots[:]
            for c in cards:
                o = owner[c]
                su = SUIT[c]
                cands: list[tuple[int, int]] = []
                weights: list[int] = []
                for t in range(N):
                    if t == me or (o >= 0 and t != o):
                        continue
                    if rs[t] > 0 and not (use_voids and su >= 0 and void[t] >> su & 1):
                        cands.append((t, 0))
                        weights.append(rs[t])
                    if ds[t] > 0:
                        cands.append((t, 1))
                        weights.append(ds[t])
                if not cands:
                    break
                if len(cands) == 1:
                    t, is_discard = cands[0]
                else:
                    x = rng.random() * sum(weights)
                    t, is_discard = cands[-1]
                    for cand, w in zip(cands, weights, strict=True):
                        x -= w
                        if x < 0:
                            t, is_discard = cand
                            break
                if is_discard:
                    d2[t] = c
                    ds[t] -= 1
                else:
                    h2[t] |= 1 << c
                    rs[t] -= 1
            else:
                break
            rng.shuffle(cards)
            cards.sort(key=lambda c: owner[c] < 0)
        else:
            raise ValueError("the observation cannot be dealt out")
        s = self.template.copy()
        s.hands = h2
        dmask = 0
        for t in range(N):
            if d2[t] >= 0:
                s.discards[t] = d2[t]
        for c in s.discards:
            if c >= 0:
                dmask |= 1 << c
        s.pile = out & ~dmask
        return s


def determinize(
    obs: TwoVOneObservation, rng: random.Random, keep_prior: KeepPrior | None = None
) -> tuple[RoundSim, list[int]]:
    """One full round consistent with what ``obs``'s seat knows (see :class:`Sampler`),
    and the seats whose hidden choice was taken back (they act again in it)."""
    sampler = Sampler(obs, keep_prior)
    return sampler.sample(rng), sampler.taken_back


def _bid_queue(obs: TwoVOneObservation) -> list[int]:
    """Who is still to speak in the bidding, rebuilt from the public bids of this round."""
    holder = obs["rainbow_holder"]
    assert holder is not None  # announced during the bidding
    eligible = obs["eligible"]
    queue = [s for s in ((holder + 1) % N, (holder + 2) % N, holder) if eligible[s]]
    for seat, value in obs["bids"]:
        if value == 0:
            queue.pop(0)
        elif value == 3:
            queue = [s for s in ((seat + 1) % N, (seat + 2) % N) if eligible[s]]
        else:
            queue = []
    return queue
