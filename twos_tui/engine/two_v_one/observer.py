"""What one seat sees of a 2v1 game: its observation, the tags beside each seat and the
status line (docs/rules.md §5), read from the game's core (:class:`~.core.RoundSim`) and
its record."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .._view_common import LogLine, Mirror, ViewCache, log_line, slot_maker
from .._view_common import TableEntry as TableEntryView
from ..observation import TableEntry, TwoVOneObservation
from ..words import says
from .core import BID, CODES, DISCARD, EXCHANGE, bits
from .deck import HANDS_PER_ROUND, card_suit
from .view import HandsWon, LastHandView, TwoVOneView

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
    """The JSON form of :func:`typed_view`."""
    return cast(TwoVOneObservation, typed_view(g, seat).to_json())


def _table_entry(d: TableEntry) -> TableEntryView:
    return TableEntryView(d["seat"], tuple(d["cards"]), d.get("label"), d.get("kind"))


class ViewCopies(ViewCache):
    """A 2v1 game's copies between views: the log of the round shown (its lines and the
    round's end lines of every round), the score sheet."""

    __slots__ = ("deal",)

    def __init__(self) -> None:
        super().__init__()
        self.deal = -1

    def round_log(self, g: TwoVOneGame) -> tuple[LogLine, ...]:
        deal = g.deal_number
        if self.deal != deal:
            self.deal = deal
            self.history = Mirror(
                lambda h: (
                    log_line(h)
                    if h.get("deal") == deal or h.get("kind") in ("deal-end", "match-end")
                    else None
                )
            )
        return self.history.of(g.history)


_new_view = slot_maker(TwoVOneView)


def typed_view(g: TwoVOneGame, seat: int) -> TwoVOneView:
    """``seat``'s typed view, built from the core's state."""
    vc = g._vc
    if vc is None:
        vc = g._vc = ViewCopies()
    n = g.players
    core = g.core
    phase = core.phase
    lone = core.lone
    last: LastHandView | None = None
    lh = g.last_hand
    if lh is not None:
        last = LastHandView(
            lh["hand"],
            tuple(lh["lone"]),
            tuple((x[0], x[1]) for x in lh["duo"]),
            lh["lone_value"],
            lh["duo_value"],
            lh["lone_reason"],
            lh["duo_reason"],
            lh["winner"],
            lh["returned"] if lh["returned_public"] or seat == lone else None,
            lh["returned_public"],
        )
    pending = g.pending[seat]
    hand = tuple(CODES[i] for i in bits(core.hands[seat]))
    holder = core.holder() if phase in (BID, EXCHANGE) else -1
    up = core.up
    lead = _code(up)
    high_seat = core.high_seat
    keep_seat = core.keep_seat
    totals = tuple(g.totals)
    return _new_view(
        variant=g.variant_id,
        family=g.family,
        seat=seat,
        players=n,
        names=tuple(g.names),
        hand=hand,
        hand_counts=tuple(map(int.bit_count, core.hands)),
        to_act=() if g.deal_over or g.match_over else tuple(core.to_act()),
        dealer=g.dealer,
        deal_number=g.deal_number,
        totals=totals,
        table=tuple(map(_table_entry, g.RULES[phase].table(g, seat))),
        seat_tags=tuple(tuple(_tags(g, s, phase, holder)) for s in range(n)),
        history=vc.round_log(g),
        status=status_line(g),
        deal_over=g.deal_over,
        match_over=g.match_over,
        options=dict(g.options),
        deal_scores=vc.scores.of(g.results),
        coins=totals,
        coins_to_win=g.options["coins_to_win"],
        phase=phase,
        bids=tuple((b[0], b[1]) for b in g.bids),
        high_bid=core.high_bid or None,
        high_seat=high_seat if high_seat >= 0 else None,
        rainbow_holder=holder if holder >= 0 else None,
        rainbow_passes=core.rainbow_passes,
        forced=core.forced(),
        eligible=tuple(g.eligible),
        playoff=g.playoff,
        lone=lone if lone >= 0 else None,
        bid=core.bid or None,
        duo=tuple(core.duo()) if lone >= 0 else (),
        hand_no=core.hand_no,
        hands_per_round=HANDS_PER_ROUND,
        hands_won=HandsWon(core.won[0], core.won[1]),
        lead=lead,
        led_suit=card_suit(lead) if lead else None,
        blindfold=core.blind,
        my_choice=tuple(pending) if pending else None,
        my_discard=_code(core.discards[seat]),
        my_face_down=_code(
            core.down if seat == lone else (core.follows[seat] if core.blind else -1)
        ),
        received=tuple(c for c in g.received[seat] if c in hand),
        # what this seat passed left in the last exchange of this round
        passed=tuple(g.received[(seat + 1) % n]),
        last_hand=last,
        keep_seat=keep_seat if keep_seat >= 0 else None,
        winners=tuple(g.winners),
    )
