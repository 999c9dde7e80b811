"""What one 2v1 seat may infer about the cards it cannot see, and deals consistent with
it, for search (docs/rules.md §5).

:class:`Knowledge` reads one seat's observation (its hand, the table, the log of this
round); :class:`Sampler` deals out the unseen cards again and again as full rounds of
the core (:class:`~.core.RoundSim`); :func:`determinize` is one such deal. Secret
choices another seat has already made but this seat cannot see (a pass in the exchange,
a duo discard being made, the lone player's face-down card before it is turned over, a
face-down follow after a blindfold lead) are *taken back*: the card returns to its
owner's hand and the owner is asked again in the simulation, so a search never uses a
choice it could not know. Nothing here knows any strategy.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import HIDDEN as HIDDEN_CODE
from ..observation import LogEntry, TwoVOneObservation, seat_card
from .core import (
    ALL,
    BID,
    DISCARD,
    EXCHANGE,
    FOLLOW,
    HIDE,
    INDEX,
    KEEP,
    OVER,
    RAISE,
    RB_BIT,
    SUIT,
    N,
    RoundSim,
    bits,
    mask_of,
    popcount,
)

#: the chance the lone player secretly kept ``a`` rather than ``b``
KeepPrior = Callable[[int, int], float]


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
    """Who is still to speak in the bidding: the core's bidding, started again and told
    the public bids of this round."""
    holder = obs["rainbow_holder"]
    assert holder is not None  # announced during the bidding
    s = RoundSim()
    s.eligible = tuple(obs["eligible"])
    s.rainbow_passes = obs["rainbow_passes"]
    s.start_bidding(holder)
    for seat, value in obs["bids"]:
        s.apply(seat, value)
    return s.bid_queue
