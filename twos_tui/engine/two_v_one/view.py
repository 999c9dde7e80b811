"""What one seat sees of a 2v1 game: its observation, the tags beside each seat and the
status line (docs/rules.md §5), read from the game's core (:class:`~.core.RoundSim`) and
its record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..observation import LastHandView, TwoVOneObservation
from ..words import says
from .core import BID, CODES, DISCARD, EXCHANGE, bits
from .deck import HANDS_PER_ROUND, card_suit

if TYPE_CHECKING:
    from .game import TwoVOneGame


def status_line(g: TwoVOneGame) -> str:
    if g.match_over:
        return f"The match is over: {says(g.names[g.winners[0]], 'wins')}."
    if g.deal_over:
        return "The round is over."
    acting = " and ".join(g.names[s] for s in g.core.to_act())
    return g.RULES[g.core.phase].status(g, acting)


def seat_tags(g: TwoVOneGame, seat: int) -> list[str]:
    core = g.core
    phase = core.phase
    return _tags(g, seat, phase, core.holder() if phase in (BID, EXCHANGE) else -1)


def _tags(g: TwoVOneGame, seat: int, phase: str, holder: int) -> list[str]:
    """The tags of ``seat``; ``holder``: the rainbow's holder where it is shown, else -1."""
    core = g.core
    tags = []
    if seat == g.dealer:
        tags.append("dealer")
    if seat == holder:
        tags.append("rainbow")
    if g.playoff and g.eligible[seat]:
        tags.append("may bid")
    lone = core.lone
    if lone >= 0:
        if seat == lone:
            tags += ("lone", f"bid {core.bid}")
        else:
            tags.append("duo")
    elif phase == BID:
        last = [v for s, v in g.bids if s == seat]
        if last:
            tags.append("passed" if last[-1] == 0 else f"bid {last[-1]}")
    if phase == EXCHANGE and g.pending[seat] is not None:
        tags.append("ready")
    if phase == DISCARD and core.discards[seat] >= 0:
        tags.append("discarded")
    return tags


def _code(i: int) -> str | None:
    return CODES[i] if i >= 0 else None


def observation(g: TwoVOneGame, seat: int) -> TwoVOneObservation:
    n = g.players
    core = g.core
    phase = core.phase
    lone = core.lone
    last: LastHandView | None = None
    lh = g.last_hand
    if lh is not None:
        last = {**lh, "duo": [list(x) for x in lh["duo"]], "lone": list(lh["lone"])}
        if not lh["returned_public"] and seat != lone:
            last["returned"] = None
    deal = g.deal_number
    history = [
        h.copy()
        for h in g.history
        if h.get("deal") == deal or h.get("kind") in ("deal-end", "match-end")
    ]
    pending = g.pending[seat]
    hand_mask = core.hands[seat]
    hand = [CODES[i] for i in bits(hand_mask)]
    holder = core.holder() if phase in (BID, EXCHANGE) else -1
    up = core.up
    lead = _code(up)
    blind = core.blind
    bid = core.bid or None
    high_seat = core.high_seat
    keep_seat = core.keep_seat
    acting = [] if g.deal_over or g.match_over else list(core.to_act())
    totals = g.totals
    return {
        "variant": g.variant_id,
        "family": g.family,
        "seat": seat,
        "players": n,
        "names": list(g.names),
        "hand": hand,
        "hand_counts": [m.bit_count() for m in core.hands],
        "to_act": acting,
        "dealer": g.dealer,
        "deal_number": deal,
        "totals": list(totals),
        "coins": list(totals),
        "coins_to_win": g.options["coins_to_win"],
        "table": g.RULES[phase].table(g, seat),
        "seat_tags": [_tags(g, s, phase, holder) for s in range(n)],
        "history": history,
        "status": status_line(g),
        "deal_over": g.deal_over,
        "match_over": g.match_over,
        "options": dict(g.options),
        "deal_scores": g.deal_scores(),
        # 2v1 keys
        "phase": phase,
        "bids": [list(b) for b in g.bids],
        "high_bid": core.high_bid or None,
        "high_seat": high_seat if high_seat >= 0 else None,
        "rainbow_holder": holder if holder >= 0 else None,
        "rainbow_passes": core.rainbow_passes,
        "forced": core.forced(),
        "eligible": list(g.eligible),
        "playoff": g.playoff,
        "lone": lone if lone >= 0 else None,
        "bid": bid,
        "duo": list(core.duo()) if lone >= 0 else [],
        "hand_no": core.hand_no,
        "hands_per_round": HANDS_PER_ROUND,
        "hands_won": {"lone": core.won[0], "duo": core.won[1]},
        "lead": lead,
        "led_suit": card_suit(lead) if lead else None,
        "blindfold": blind,
        "my_choice": list(pending) if pending else None,
        "my_discard": _code(core.discards[seat]),
        "my_face_down": _code(core.down if seat == lone else (core.follows[seat] if blind else -1)),
        "received": [c for c in g.received[seat] if c in hand],
        # what this seat passed left in the last exchange of this round
        "passed": list(g.received[(seat + 1) % n]),
        "last_hand": last,
        "keep_seat": keep_seat if keep_seat >= 0 else None,
        "winners": list(g.winners),
    }
