"""The rollout policy of the climbing games' ``hard`` search (:mod:`.climbing_search`):
the cheap move every seat makes in a simulated deal, on integer masks, and the playouts
that use it (Twos, Big Two, Big Two five-round, Chinese Poker).

The policy is described in the docstring of :mod:`.climbing_search` ("Rollout policy").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.climbing.core import Move, SimState

#: rank index of a card int (every sim encoding is 4 * rank + suit, 3 lowest, 2 highest)
ACE, TWO = 11, 12
_M1 = 0x5555555555555
_M2 = 0x3333333333333


#: the rollout policy looks for a winning last two plays with this many cards or fewer
ENDGAME_CARDS = 10


# ---------------------------------------------------------------------------------------
# The rollout policy


def policy(s: SimState, moves: Sequence[Move | None]) -> Move | None:
    """The move the cheap rollout policy makes for the seat to act (``None``: pass)."""
    h = s.hands[s.cur]
    if h.bit_count() <= ENDGAME_CARDS:
        # two combinations left, one nobody else can beat: play that one first (in a
        # simulated world the seats know where the cards are: good players count)
        r = s.rules
        move_of = r.move_of
        cur = s.cur
        for m in moves:
            if m is None:
                continue
            rest = h & ~m[0]
            if not rest:
                return m
            if move_of(rest) is not None and _unbeatable(s, m, cur):
                return m
    return _policy(s, moves)


def _unbeatable(s: SimState, m: Move, cur: int) -> bool:
    """Can no other seat beat the move ``m`` (in this world)?"""
    follows = s.rules.follows
    return not any(j != cur and x and follows(x, m) for j, x in enumerate(s.hands))


def _policy(s: SimState, moves: Sequence[Move | None]) -> Move | None:
    """:func:`policy` before its end-of-deal rule."""
    cur = s.cur
    hands = s.hands
    h = hands[cur]
    mn = 99  # the fewest cards an opponent holds
    for j, x in enumerate(hands):
        if j != cur:
            c = x.bit_count()
            if c < mn:
                mn = c
    top = s.top
    if top is None:
        low = h & -h
        best = None
        best_n = 0
        best_k = 0
        bomb = None
        alt = None  # danger: the best lead that is not a single
        alt_n = 0
        alt_k = 0
        hi_single = None
        danger = mn == 1
        for m in moves:
            if m is None:
                continue
            mm = m[0]
            if mm == h:
                return m
            if m[3]:
                if bomb is None or m[2] < bomb[2]:
                    bomb = m
                continue
            if mm & low:
                k = mm.bit_count()
                if k > best_n or (k == best_n and m[2] < best_k):
                    best = m
                    best_n = k
                    best_k = m[2]
            if danger:
                k = mm.bit_count()
                if k == 1:
                    if hi_single is None or m[2] > hi_single[2]:
                        hi_single = m
                elif alt is None or k > alt_n or m[2] < alt_k:
                    alt = m
                    alt_n = k
                    alt_k = m[2]
        if danger:
            if alt is not None:
                return alt
            if hi_single is not None:
                return hi_single
        if best is not None and (best[0].bit_length() - 1) >> 2 >= ACE and best_n > 1:
            # the biggest lead with the lowest card would spend an ace or a two: a
            # smaller one with the lowest card that keeps them, if there is one
            keep = None
            for m in moves:
                if m is not None and not m[3] and m[0] & low:
                    mm = m[0]
                    if (mm.bit_length() - 1) >> 2 < ACE and (
                        keep is None
                        or mm.bit_count() > keep[0].bit_count()
                        or (mm.bit_count() == keep[0].bit_count() and m[2] < keep[2])
                    ):
                        keep = m
            if keep is not None:
                return keep
        if best is not None:
            return best
        if bomb is not None:
            return bomb
        return moves[0]
    best = None
    bomb = None
    hi = None
    tm = top[0]
    tk = tm.bit_count()
    # following a single (a pair, a triple): prefer a card (cards) of a rank held
    # exactly that often, so as not to break a pair, triple or four
    same = 0
    if tk <= 3 and (tk == 1 or (tm.bit_length() - 1) >> 2 == ((tm & -tm).bit_length() - 1) >> 2):
        x = (h & _M1) + ((h >> 1) & _M1)
        cnt = (x & _M2) + ((x >> 2) & _M2)  # cards a rank, a nibble a rank
        same = tk
    bk = 0
    hk = -1
    for m in moves:
        if m is None:
            continue
        mm = m[0]
        if mm == h:
            return m
        if m[3]:
            if bomb is None or (m[3], m[2]) < (bomb[3], bomb[2]):
                bomb = m
            continue
        k = m[2]
        if same:
            key = k if (cnt >> (((mm.bit_length() - 1) >> 2) << 2)) & 15 == same else k + 100000
            if best is None or key < bk:
                best = m
                bk = key
        elif best is None or k < bk:
            best = m
            bk = k
        if k > hk:
            hi = m
            hk = k
    if best is None:
        if bomb is not None and (mn <= 3 or top[3] or h.bit_count() <= 5):
            return bomb
        return None
    if mn == 1 and tk == 1:
        return hi
    if mn > 4 and len(hands) > 2:  # (with two players a pass hands over the lead)
        n = h.bit_count()
        if n > 6:
            r = (best[0].bit_length() - 1) >> 2
            if r == TWO or (r == ACE and n > 9):
                return None
    return best


def rollout_erratic(s: SimState, rng: random.Random, eps: Sequence[float]) -> int:
    """Play ``s`` out with :func:`policy`, except that seat ``j`` makes a uniformly
    random legal move with probability ``eps[j]``; the winner."""
    legal = s.rules.legal
    play = s.play
    rnd = rng.random
    while s.winner < 0:
        moves = legal(s)
        if len(moves) == 1:
            play(moves[0])
        else:
            e = eps[s.cur]
            if e and rnd() < e:
                play(moves[int(rnd() * len(moves))])
            else:
                play(policy(s, moves))
    return s.winner


def rollout(s: SimState, rng: random.Random | None = None, eps: float = 0.0) -> int:
    """Play ``s`` out with :func:`policy` for every seat; the winner. With ``rng``, a
    move is a uniformly random legal one with probability ``eps``."""
    legal = s.rules.legal
    play = s.play
    if rng is None or eps <= 0.0:
        while s.winner < 0:
            moves = legal(s)
            play(moves[0] if len(moves) == 1 else policy(s, moves))
        return s.winner
    rnd = rng.random
    while s.winner < 0:
        moves = legal(s)
        if len(moves) == 1:
            play(moves[0])
        elif rnd() < eps:
            play(moves[int(rnd() * len(moves))])
        else:
            play(policy(s, moves))
    return s.winner
