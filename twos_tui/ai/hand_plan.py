"""Hand planning for the climbing games (Twos, Big Two, Big Two five-round, Chinese Poker).

A :class:`Planner` is built from one seat's observation (or from a hand on offer) and
knows only what that seat may know: its own cards, the cards already played this deal,
every seat's card count and the house rules. It answers three questions:

* **How strong is a combination?** :meth:`Planner.strength` gives the chance that no
  opponent can beat it, from the cards still unseen (counted from the play history) and
  how many cards each opponent holds: each opponent is taken to hold a random share of
  the unseen cards (the hypergeometric law), bombs they might hold count half. An
  opponent who passed on a play this deal is taken to beat a play of that kind as high
  or higher only half as often (a pass may be a choice). A combination nobody can beat
  except with a bomb is a *control*; so is one no opponent holds enough cards to follow.
* **What is the best way to split a hand?** :meth:`Planner.plan` splits a set of cards
  into combinations at the lowest cost, where a combination costs
  ``1 + EPS - ALPHA * strength``: fewest combinations first, and among those the split
  that keeps the strongest ones (a control costs next to nothing, a low single a whole
  turn). Per variant:

  - Twos: an exact search over card sets (memoised; which suits of a rank go together
    is fixed, lowest first), deciding at each step how the lowest card is used: single,
    pair, triple, four of a kind, a run (3+ ranks) or a multi-run
    bomb starting at it;
  - Big Two (both editions): singles, pairs and triples split rank by rank (exactly), plus
    up to two five-card hands chosen from a short list of candidates (straights, flushes
    with the cards that are not needed elsewhere, full houses, four of a kind with the
    lowest loose card, straight flushes);
  - Chinese Poker (suits never matter): an exact search over rank counts: singles, pairs
    and triples alone or in consecutive chains, full houses, straights of 5-13 with the 2
    low, four of a kind plus one.

* **What does a play cost the hand?** ``plan_cost(hand) - plan_cost(hand - play)``.

Cards are integers ``4 * rank + suit`` with ``rank`` 0 (three) ... 12 (two) and suits in
the variant's order (a higher integer is a higher single card in Twos and Big Two).

Where the code lives: :mod:`.plan_base` (combinations and :class:`Planner`, the part
every variant shares), :mod:`.plan_twos`, :mod:`.plan_big_two` and
:mod:`.plan_chinese_poker` (each variant's combinations); this module picks the planner
of a variant (:func:`planner_for`) and still exports every name it always did.
"""

from __future__ import annotations

from ..engine.observer import ObsIn, as_climbing
from .plan_base import (
    AFTER_PASS,
    ALPHA,
    BOMB_WEIGHT,
    CONTROL,
    EPS,
    INF,
    NIBBLES,
    Combo,
    Info,
    Planner,
    SlotKey,
    none_of,
    tail,
)
from .plan_big_two import BigTwoFiveRoundPlanner, BigTwoPlanner
from .plan_chinese_poker import ChinesePokerPlanner
from .plan_twos import TwosPlanner

#: the module's names, with those that now live in its sibling modules
__all__ = [
    "AFTER_PASS",
    "ALPHA",
    "BOMB_WEIGHT",
    "BigTwoFiveRoundPlanner",
    "BigTwoPlanner",
    "CONTROL",
    "ChinesePokerPlanner",
    "Combo",
    "EPS",
    "INF",
    "Info",
    "NIBBLES",
    "PLANNERS",
    "Planner",
    "SlotKey",
    "TwosPlanner",
    "none_of",
    "planner_for",
    "tail",
]


PLANNERS: dict[str, type[Planner]] = {
    "twos": TwosPlanner,
    "big-two": BigTwoPlanner,
    "big-two-5r": BigTwoFiveRoundPlanner,
    "chinese-poker": ChinesePokerPlanner,
}


def planner_for(
    obs: ObsIn,
    hand: list[str] | None = None,
    opponents: list[int] | None = None,
    known_out: list[str] | None = None,
) -> Planner:
    """The planner of ``obs.variant`` for the seat of ``obs`` (or for ``hand``, with
    ``opponents`` holding that many cards each and ``known_out`` known to be out of
    play)."""
    view = as_climbing(obs)
    return PLANNERS[view.variant](view, hand, opponents, known_out)
