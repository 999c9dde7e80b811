"""The network's inputs: one row per legal move, from one seat's view only.

A :class:`View` is what a seat knows in a climbing deal: its own hand, the cards played
this deal, every seat's card count, the play to beat and its seat, and who passed since
the last play. :func:`view_of_observation` builds it from ``observation(seat)`` (the
only way an agent builds it); the trainer and the search build the same view from their
own bookkeeping of a simulated deal. :func:`move_features` turns a view and the seat's
legal moves (sim moves, ``None`` for a pass) into a matrix, one row per move, describing
the position *after* the move: the hand left, the move itself, the unseen cards, the
others' counts and the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...engine.climbing.core import Move, Rules
from ...engine.climbing.determinize import played_this_deal
from ...engine.climbing.rules import rules_for
from ...engine.observer import ObsIn, as_climbing
from ...engine.views import TrickMove

CARDS = 52
RANKS = 13
#: opponents described (seats to the left, in order)
OPP_SLOTS = 3
_SHIFT = np.arange(CARDS, dtype=np.uint64)


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a climbing deal (masks in the sim's card encoding)."""

    seat: int
    players: int
    hand: int
    played: int
    counts: tuple[int, ...]
    top: Move | None
    top_seat: int
    #: seats (bit mask) that passed since the last play
    passes: int
    deck: int


def _passes_since_play(trick: Sequence[TrickMove]) -> int:
    out = 0
    for p in reversed(trick):
        if not p.passed:
            break
        out |= 1 << p.seat
    return out


def view_of_observation(seen: ObsIn, rules: Rules | None = None) -> View:
    """The view of the seat of ``seen`` (a climbing game in its play phase; its typed
    view, or at a JSON edge its observation dict)."""
    obs = as_climbing(seen)
    r = rules or rules_for(obs.variant, obs.players, obs.options)
    played = 0
    for _, cards in played_this_deal(obs):
        played |= r.mask_of(cards)
    top = obs.top
    mv = None
    ts = -1
    if top:
        mv = r.move_of_codes(top.cards)
        ts = -1 if top.seat is None else top.seat
    return View(
        obs.me,
        obs.players,
        r.mask_of(obs.hand),
        played,
        tuple(obs.hand_counts),
        mv,
        ts,
        _passes_since_play(obs.trick or ()) if mv is not None else 0,
        r.deck_mask,
    )


def bits(masks: Sequence[int]) -> np.ndarray:
    """Card masks -> a (len, 52) 0/1 float matrix."""
    a = np.array(masks, dtype="<u8")
    return _unpack(a.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :CARDS].astype(
        np.float32
    )


_unpack = np.unpackbits


def _size_hot(n: int) -> list[float]:
    out = [0.0] * 7
    out[min(n, 6)] = 1.0
    return out


def state_vector(v: View) -> np.ndarray:
    """The part of every row that does not depend on the move."""
    n = v.players
    unseen = v.deck & ~v.hand & ~v.played
    opp: list[float] = []
    for k in range(1, OPP_SLOTS + 1):
        if k < n:
            c = v.counts[(v.seat + k) % n]
            opp += [c / 13.0, float(c == 1), float(c == 2), float(c == 3)]
        else:
            opp += [0.0, 0.0, 0.0, 0.0]
    top = v.top
    if top is not None:
        tcards = top[0].bit_count()
        rank = ((top[0].bit_length() - 1) >> 2) / 12.0
        owner = [0.0] * 4
        owner[(v.top_seat - v.seat) % n] = 1.0
        table = _size_hot(tcards) + [rank, float(top[3] > 0)] + owner + [0.0]
    else:
        table = [0.0] * 7 + [0.0, 0.0] + [0.0] * 4 + [1.0]
    passes = [float(v.passes >> ((v.seat + k) % n) & 1) if k < n else 0.0 for k in (1, 2, 3)]
    players = [float(n == 2), float(n == 3), float(n >= 4)]
    rest = np.array(
        opp + table + passes + players + [v.played.bit_count() / 52.0], dtype=np.float32
    )
    return np.concatenate([bits([unseen])[0], rest])


STATE_DIM = CARDS + 4 * OPP_SLOTS + 14 + 3 + 3 + 1
MOVE_DIM = CARDS + RANKS + 7 + RANKS + 6
DIM = MOVE_DIM + STATE_DIM


def move_features(v: View, moves: Sequence[Move | None]) -> np.ndarray:
    """One row per move (``None``: a pass): the position after it, from ``v``'s seat."""
    m = len(moves)
    masks = [v.hand]
    masks += [0 if mv is None else mv[0] for mv in moves]
    b = bits(masks)
    mb = b[1:]
    out = np.empty((m, DIM), dtype=np.float32)
    after = out[:, :CARDS]
    np.subtract(b[0], mb, out=after)
    after_rc = after.reshape(m, RANKS, 4).sum(2)
    mv_rc = mb.reshape(m, RANKS, 4).sum(2)
    c = CARDS
    out[:, c : c + RANKS] = after_rc / 4.0
    c += RANKS
    size = mb.sum(1).astype(np.int64)
    hot = out[:, c : c + 7 + RANKS + 6]
    hot.fill(0.0)
    rows = np.arange(m)
    hot[rows, np.minimum(size, 6)] = 1.0
    left = after.sum(1)
    for i, mv in enumerate(moves):
        if mv is None:
            hot[i, 7 + RANKS] = 1.0
        else:
            r = (mv[0].bit_length() - 1) >> 2
            hot[i, 7 + r] = 1.0
            hot[i, 7 + RANKS + 1] = float(mv[3] > 0)
            hot[i, 7 + RANKS + 2] = r / 12.0
    e = 7 + RANKS
    hot[:, e + 3] = ((after_rc > 0) & (mv_rc > 0)).sum(1) / 4.0
    hot[:, e + 4] = left / 13.0
    hot[:, e + 5] = left == 0
    out[:, MOVE_DIM:] = state_vector(v)
    return out
