"""What one seat sees of a 2v1 game: its observation, the tags beside each seat and the
status line (docs/rules.md §5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..observation import LastHandView, TwoVOneObservation
from ..words import says
from .deck import HANDS_PER_ROUND, card_suit

if TYPE_CHECKING:
    from .game import TwoVOneGame


def status_line(g: TwoVOneGame) -> str:
    if g.match_over:
        return f"The match is over: {says(g.names[g.winners[0]], 'wins')}."
    if g.deal_over:
        return "The round is over."
    acting = " and ".join(g.names[s] for s in g.to_act())
    return g.RULES[g.phase].status(g, acting)


def seat_tags(g: TwoVOneGame, seat: int) -> list[str]:
    tags = []
    phase = g.phase
    if seat == g.dealer:
        tags.append("dealer")
    if phase in ("bid", "exchange") and seat == g.rainbow_holder():
        tags.append("rainbow")
    if g.playoff and g.eligible[seat]:
        tags.append("may bid")
    if g.lone is not None:
        tags.append("lone" if seat == g.lone else "duo")
        if seat == g.lone:
            tags.append(f"bid {g.bid}")
    elif phase == "bid":
        last = [v for s, v in g.bids if s == seat]
        if last:
            tags.append("passed" if last[-1] == 0 else f"bid {last[-1]}")
    if phase == "exchange" and g.pending[seat] is not None:
        tags.append("ready")
    if phase == "discard" and g.duo_discards[seat] is not None:
        tags.append("discarded")
    return tags


def observation(g: TwoVOneGame, seat: int) -> TwoVOneObservation:
    n = g.players
    last: LastHandView | None = None
    lh = g.last_hand
    if lh is not None:
        last = {**lh, "duo": [list(x) for x in lh["duo"]], "lone": list(lh["lone"])}
        if not lh["returned_public"] and seat != g.lone:
            last["returned"] = None
    history = [
        h.copy()
        for h in g.history
        if h.get("deal") == g.deal_number or h.get("kind") in ("deal-end", "match-end")
    ]
    pending = g.pending[seat]
    return {
        "variant": g.variant_id,
        "family": g.family,
        "seat": seat,
        "players": n,
        "names": list(g.names),
        "hand": list(g.hands[seat]),
        "hand_counts": [len(h) for h in g.hands],
        "to_act": list(g.to_act()),
        "dealer": g.dealer,
        "deal_number": g.deal_number,
        "totals": list(g.totals),
        "coins": list(g.totals),
        "coins_to_win": g.options["coins_to_win"],
        "table": g.RULES[g.phase].table(g, seat),
        "seat_tags": [seat_tags(g, s) for s in range(n)],
        "history": history,
        "status": status_line(g),
        "deal_over": g.deal_over,
        "match_over": g.match_over,
        "options": dict(g.options),
        "deal_scores": g.deal_scores(),
        # 2v1 keys
        "phase": g.phase,
        "bids": [list(b) for b in g.bids],
        "high_bid": g.high_bid,
        "high_seat": g.high_seat,
        "rainbow_holder": g.rainbow_holder() if g.phase in ("bid", "exchange") else None,
        "rainbow_passes": g.rainbow_passes,
        "forced": g.forced,
        "eligible": list(g.eligible),
        "playoff": g.playoff,
        "lone": g.lone,
        "bid": g.bid,
        "duo": list(g.duo()),
        "hand_no": g.hand_no,
        "hands_per_round": HANDS_PER_ROUND,
        "hands_won": {"lone": g.hands_won[0], "duo": g.hands_won[1]},
        "lead": g.lead_up,
        "led_suit": card_suit(g.lead_up) if g.lead_up else None,
        "blindfold": g.blind,
        "my_choice": list(pending) if pending else None,
        "my_discard": g.duo_discards[seat],
        "my_face_down": (g.lead_down if seat == g.lone else (g.follows[seat] if g.blind else None)),
        "received": [c for c in g.received[seat] if c in g.hands[seat]],
        # what this seat passed left in the last exchange of this round
        "passed": list(g.received[(seat + 1) % n]),
        "last_hand": last,
        "keep_seat": g.keep_seat,
        "winners": list(g.winners),
    }
