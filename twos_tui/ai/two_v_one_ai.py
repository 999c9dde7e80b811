"""2v1 opponents: ``easy``, ``normal`` and ``hard`` (docs/rules.md §5).

Every agent decides from the seat's observation, its legal actions, its decision and its
own generator only. Duo partners share nothing: each reads the table for itself.

* ``easy`` (:class:`EasyTwoVOneAgent`) — rules of thumb: bid on a count of strong pairs,
  as the lone player win while it needs every remaining hand and throw otherwise, in the
  duo play high while the lone player needs hands and low once it has them.
* ``normal`` (:class:`NormalTwoVOneAgent`) — reads the unseen cards from a dozen deals
  consistent with what it knows (:class:`~twos_tui.engine.two_v_one.sampler.Sampler`: voids,
  the rainbow's holder, the cards it passed, the lone player's secret keeps). From them
  it knows, for every lead, how often a pair holds against a duo that fights and against
  one that feeds — for this hand and, with the duo's cards thinning out, for the later
  ones. :class:`LonePlan` plans the lone round to land *exactly* on the bid (a small
  dynamic programme over its own cards: which hands to win, which to throw, which card
  to keep, against a duo that always does what hurts most); bids are judged by the same
  plan. In the duo it fights while the lone player needs at least as many of the
  remaining hands as it must lose, feeds it once it needs fewer, and answers the
  partner's card on the table.
* ``hard`` (:class:`HardTwoVOneAgent`) — as the lone player and in the bidding it plans
  like ``normal`` over twice the samples, with the duo modelled by the fight/feed rule
  rather than the worst case. Every other decision (duo follows, discards, returns,
  the exchange) is a determinised search: each iteration deals the unseen cards again
  (re-weighted by what the bids said about each hand and by how a lone player usually
  keeps), lets the seats whose secret choice it cannot see choose again, then plays
  every candidate to the end of the round on the lean simulation — the lone player
  planning with :class:`LoneModel`, the duo by quick rules — all candidates on the same
  deal and random stream. Weak candidates are dropped as evidence builds up; the best
  average coin count when the time budget ends is played.

Where the code lives: the pair odds and the lone player's plan in :mod:`.two_v_one_odds`,
``easy``, ``normal`` and the seat's view in :mod:`.two_v_one_rules`, the playout
policies in :mod:`.two_v_one_playout`, ``hard`` in :mod:`.two_v_one_search`; this module
exports all of their public names, as it always did.
"""

from __future__ import annotations

from ..engine.two_v_one.core import INDEX, RB
from .two_v_one_odds import (
    BLIND,
    FIGHTS,
    KEY,
    MAXV,
    NSUITS,
    STRENGTH,
    DuoOdds,
    LonePlan,
    N,
    depleted,
    duo_discard,
    duo_extremes,
    duo_fights,
    keys_for,
    odds_key,
    plan_for,
)
from .two_v_one_playout import QUICK_BID3, QUICK_BID4, LoneModel, playout, rollout_move
from .two_v_one_rules import EasyTwoVOneAgent, NormalTwoVOneAgent, View, easy_strength
from .two_v_one_search import HardTwoVOneAgent

#: the module's names, with those that now live in its sibling modules
__all__ = [
    "BLIND",
    "DuoOdds",
    "EasyTwoVOneAgent",
    "FIGHTS",
    "HardTwoVOneAgent",
    "INDEX",
    "KEY",
    "LoneModel",
    "LonePlan",
    "MAXV",
    "N",
    "NSUITS",
    "NormalTwoVOneAgent",
    "QUICK_BID3",
    "QUICK_BID4",
    "RB",
    "STRENGTH",
    "View",
    "depleted",
    "duo_discard",
    "duo_extremes",
    "duo_fights",
    "easy_strength",
    "keys_for",
    "odds_key",
    "plan_for",
    "playout",
    "rollout_move",
]
