"""Sampling full deals consistent with what one seat knows (determinization).

A :class:`Sampler` reads one seat's view (a :class:`~.view.ClimbingView`)
once — its hand, every seat's card count, the cards played this deal, the play to beat,
who passed, the card the first play must hold (announced with its holder) — and then
deals the unseen cards at random, as
often as asked, into complete :class:`~.core.SimState` objects:

* the seat's own hand, the cards played and the counts are kept exactly;
* the announced required card goes to the seat that must play it;
* every other unseen card goes to an opponent or out of play, so that each opponent
  gets exactly its count and the rest (undealt cards, Chinese Poker's third hand) stay
  out of play;
* optional per-card *weights* bias where the cards go: ``weights[s][code]`` (default 1)
  is how much likelier seat ``s`` is to hold ``code`` than an unbiased deal says; the
  key ``OUT`` weights the out-of-play pile. Each unseen card, in a random order (the
  cards ruled out somewhere first, then the other cards with uneven weights, then the
  rest), goes to a destination with probability proportional to ``weight * room
  left``, which is an exact uniform deal when every weight is 1. A weight of 0 rules a
  card out for that destination unless no destination with room is left for it.

The sampler reads nothing but the observation (and the caller's weights), so the same
observation and the same generator state give the same deals, whatever the hidden
cards really are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import SimState
from .rules import rules_for

if TYPE_CHECKING:
    import random

    from .view import ClimbingView

OUT = "out"  #: the weights key of the out-of-play pile


def played_this_deal(obs: ClimbingView) -> list[tuple[int, tuple[str, ...]]]:
    """``(seat, cards)`` of every play of the current deal, in order (from the public
    history of the view)."""
    deal = obs.deal_number
    return [(h.by, h.played) for h in obs.history if h.deal == deal and h.kind == "play"]


class Sampler:
    """Random complete deals consistent with ``obs`` (one seat's observation of a
    climbing game in its play phase)."""

    def __init__(
        self, obs: ClimbingView, weights: dict[Any, dict[str, float]] | None = None
    ) -> None:
        if obs.phase not in (None, "play") or obs.deal_over or not obs.to_act:
            raise ValueError("determinize needs a deal in its play phase")
        n = obs.players
        r = self.rules = rules_for(obs.variant, n, obs.options)
        seat = self.seat = obs.me
        own = r.mask_of(obs.hand)
        played = 0
        for _, cards in played_this_deal(obs):
            played |= r.mask_of(cards)
        self.played = played
        counts = list(obs.hand_counts)
        if counts[seat] != own.bit_count():
            raise ValueError("the observation's hand and count disagree")
        fixed = [0] * n
        fixed[seat] = own
        unknown = r.deck_mask & ~own & ~played
        cur = obs.to_act[0]
        req_code = obs.required_card
        req = r.mask_of([req_code]) if req_code else 0
        if req and not req & own:
            fixed[cur] |= req  # announced with its holder, the seat to play first
            unknown &= ~req
        self.fixed = fixed
        need = [0 if s == seat else counts[s] - fixed[s].bit_count() for s in range(n)]
        out = unknown.bit_count() - sum(need)
        if out < 0 or min(need) < 0:
            raise ValueError("the observation's counts do not fit the unseen cards")
        self.need = need
        self.out_count = out
        #: destinations: the opponents with cards to get, then the out-of-play pile
        self.dests = [s for s in range(n) if need[s] > 0] + ([n] if out else [])
        self.room = [need[s] for s in self.dests[: len(self.dests) - (1 if out else 0)]] + (
            [out] if out else []
        )
        unseen: list[int] = []
        m = unknown
        while m:
            low = m & -m
            unseen.append(low.bit_length() - 1)
            m ^= low
        self.cards = unseen
        self.unknown = unknown
        # the public state of play
        top = obs.top
        self.top = r.move_of_codes(top.cards) if top else None
        self.top_seat = top.seat if top and top.seat is not None else -1
        passed = 0
        open_passes = 0
        seen_play = False
        for e in obs.trick:
            if e.passed:
                if seen_play:
                    passed |= 1 << e.seat
                else:
                    open_passes += 1
            else:
                seen_play = True
                if not r.locked:
                    passed = 0
        self.passed = passed
        self.open_passes = open_passes if self.top is None else 0
        self.req = req
        self.opening = played == 0
        self.cur = cur
        self.dealer = obs.dealer
        self.set_weights(weights)

    def set_weights(self, weights: dict[Any, dict[str, float]] | None) -> None:
        """Per-card weights, ``{seat or OUT: {code: weight}}`` (see the module)."""
        self.weighted = False
        self.table: list[tuple[float, ...]] = []
        if not weights:
            return
        n = self.rules.players
        codes = self.rules.codes
        rows = []
        for c in self.cards:
            code = codes[c]
            row = []
            for d in self.dests:
                w = weights.get(OUT if d == n else d)
                x = 1.0 if w is None else float(w.get(code, 1.0))
                if x < 0:
                    raise ValueError("weights cannot be negative")
                row.append(x)
                if x != 1.0:
                    self.weighted = True
            rows.append(tuple(row))
        self.table = rows
        #: cards whose weights differ between destinations are dealt first, while
        #: every destination still has room: those ruled out somewhere (a weight of 0)
        #: before the rest, so that the room they need is still there
        self.forced = [j for j, row in enumerate(rows) if min(row) == 0.0 < max(row)]
        self.biased = [j for j, row in enumerate(rows) if 0.0 < min(row) != max(row)]
        self.plain = [j for j, row in enumerate(rows) if min(row) == max(row)]

    def sample(self, rng: random.Random) -> SimState:
        """One complete deal, drawn from ``rng``."""
        n = self.rules.players
        hands = self.fixed[:]
        dests = self.dests
        if not dests:
            pass
        elif not self.weighted:
            cards = self.cards[:]
            rng.shuffle(cards)
            i = 0
            for d, k in zip(dests, self.room, strict=True):
                if d < n:
                    m = 0
                    for c in cards[i : i + k]:
                        m |= 1 << c
                    hands[d] |= m
                i += k
        else:
            room = self.room[:]
            table = self.table
            cards = self.cards
            forced = self.forced[:]
            rng.shuffle(forced)
            first = self.biased[:]
            rng.shuffle(first)
            rest = self.plain[:]
            rng.shuffle(rest)
            rnd = rng.random
            nd = len(dests)
            for j in forced + first + rest:
                row = table[j]
                tot = 0.0
                for d in range(nd):
                    tot += row[d] * room[d]
                if tot <= 0.0:  # every destination with room rules the card out
                    row = (1.0,) * nd
                    tot = float(sum(room))
                x = rnd() * tot
                pick = nd - 1
                for d in range(nd):
                    x -= row[d] * room[d]
                    if x < 0.0 and room[d]:
                        pick = d
                        break
                while not room[pick]:  # rounding at the very end
                    pick -= 1
                room[pick] -= 1
                dd = dests[pick]
                if dd < n:
                    hands[dd] |= 1 << cards[j]
        s = SimState(
            self.rules,
            hands,
            self.cur,
            self.top,
            self.top_seat,
            self.passed,
            self.req,
            self.opening,
            self.open_passes,
            self.dealer,
        )
        return s


def determinize(
    obs: ClimbingView, rng: random.Random, weights: dict[Any, dict[str, float]] | None = None
) -> SimState:
    """One complete deal consistent with ``obs`` (see :class:`Sampler`, which is
    quicker when sampling many)."""
    return Sampler(obs, weights).sample(rng)
