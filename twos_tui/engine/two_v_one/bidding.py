"""The words of 2v1 bidding (docs/rules.md §5.3): pass, 3 or 4 from the player left of
the rainbow holder; a 3 may be overcalled by 4; a standing 3 may be raised to 4 by its
bidder before the duo discard. After the rainbow has gone round three times somebody
must bid (§5.4, §5.10: the last eligible player to speak). The rules are the core's
(:class:`~.core.RoundSim`); this module words them and records the bids heard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..protocol import Action, Choice, Decision
from .core import ACTIONS, BID, RAISE, action_of
from .phase import Phase, lone_name, said

if TYPE_CHECKING:
    from .game import TwoVOneGame

#: the words of a bid's button and its key
_BID_WORDS = {0: ("Pass", "p"), 3: ("Bid 3", "3"), 4: ("Bid 4", "4")}


class BidPhase(Phase):
    """Each eligible player in turn passes, bids 3 or bids 4."""

    name = "bid"
    verb = "bid or pass"

    def entered(self, g: TwoVOneGame) -> None:
        core = g.core
        holder = core.holder()
        assert holder >= 0
        g.bids = []
        text = (
            f"{said(g.names[holder], 'has the rainbow')}; "
            f"{said(g.names[core.bid_queue[0]], 'speaks first')}."
        )
        if core.forced():
            text += " The rainbow has gone round: this time somebody must bid."
        g.log(text, holder, kind="rainbow")

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        v = action.value
        if type(v) is not int or v not in (0, 3, 4):
            return "Bid 3 or 4 (hands you will take exactly), or pass (0)."
        if v in g.core.legal(seat):
            return None
        if v == 0:
            return (
                "The rainbow has been passed round three times: nobody has bid, "
                "so you must bid 3 or 4."
            )
        if v == 3 and g.core.high_bid:
            return "3 has been bid already: overcall with 4 or pass."
        return "Only the players tied for the lead may bid in this round."

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        assert type(action.value) is int
        value = action.value
        core = g.core
        g.bids.append([seat, value])
        core.apply(seat, value)
        if value == 0:
            g.log(f"{said(g.names[seat], 'passes')}.", seat, kind="bid", bid=0)
        else:
            g.log(f"{said(g.names[seat], f'bids {value}')}.", seat, kind="bid", bid=value)
        if core.phase == BID:
            return
        if core.lone < 0:  # nobody bid: the exchange
            g.RULES[core.phase].entered(g)
            return
        g.log(
            f"{said(g.names[core.lone], 'plays alone')}, bidding {core.bid}.",
            core.lone,
            kind="lone",
        )

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        choices = []
        for a in map(ACTIONS[BID].__getitem__, g.core.legal(seat)):
            assert type(a.value) is int
            text, key = _BID_WORDS[a.value]
            choices.append(Choice(text, a, key))
        core = g.core
        if not core.high_bid:
            prompt = "Bid the exact number of hands (of 5) you will take alone, or pass."
            if not core.may_pass(seat):
                prompt = "The rainbow has gone round: nobody has bid, so you must bid."
        else:
            prompt = f"{said(g.names[core.high_seat], 'bids 3')}: overcall with 4, or pass."
        return Decision(seat, "bid", prompt, None, None, tuple(choices))

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Bidding: {acting} to bid or pass."


class RaisePhase(Phase):
    """The bidder of a standing 3 keeps it or raises it to 4."""

    name = "raise"
    verb = "keep or raise the bid"

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        v = action.value
        if type(v) is not int or v not in g.core.legal(seat):
            return "Keep your bid at 3 or raise it to 4."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        assert type(action.value) is int
        g.core.apply(seat, action.value)
        if action.value == 4:
            g.raised = True
            g.log(f"{said(g.names[seat], 'raises the bid to 4')}.", seat, kind="raise")
        else:
            g.log(f"{said(g.names[seat], 'stays at 3')}.", seat, kind="raise")

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat,
            "raise",
            "Your 3 stands: keep it, or raise to 4 before the duo discard.",
            None,
            None,
            (
                Choice("Keep 3", action_of(RAISE, 3), "3"),
                Choice("Raise to 4", action_of(RAISE, 4), "4"),
            ),
        )

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"{said(lone_name(g), 'may raise the bid of 3 to 4')}."
