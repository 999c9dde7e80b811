"""2v1 bidding (docs/rules.md §5.3): pass, 3 or 4 from the player left of the rainbow
holder; a 3 may be overcalled by 4; a standing 3 may be raised to 4 by its bidder before
the duo discard. After the rainbow has gone round three times somebody must bid (§5.4,
§5.10: the last eligible player to speak)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..protocol import Action, Choice, Decision
from ..words import says
from .phase import Phase, lone_name

if TYPE_CHECKING:
    from .game import TwoVOneGame

#: the words of a bid's button and its key
_BID_WORDS = {0: ("Pass", "p"), 3: ("Bid 3", "3"), 4: ("Bid 4", "4")}


class BidPhase(Phase):
    """Each eligible player in turn passes, bids 3 or bids 4."""

    name = "bid"
    verb = "bid or pass"

    def enter(self, g: TwoVOneGame) -> None:
        n = g.players
        g.phase = "bid"
        holder = g.rainbow_holder()
        assert holder is not None
        g.bids = []
        g.high_bid = None
        g.high_seat = None
        g.bid_queue = [s for s in ((holder + 1) % n, (holder + 2) % n, holder) if g.eligible[s]]
        text = (
            f"{says(g.names[holder], 'has the rainbow')}; "
            f"{says(g.names[g.bid_queue[0]], 'speaks first')}."
        )
        if g.forced:
            text += " The rainbow has gone round: this time somebody must bid."
        g.log(text, holder, kind="rainbow")

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        return (g.bid_queue[0],)

    @staticmethod
    def may_pass(g: TwoVOneGame, seat: int) -> bool:
        return not (g.forced and g.high_bid is None and g.bid_queue[-1] == seat)

    def options(self, g: TwoVOneGame, seat: int) -> list[int]:
        opts = []
        if self.may_pass(g, seat):
            opts.append(0)
        if g.high_bid is None:
            opts.append(3)
        opts.append(4)
        return opts

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        v = action.value
        if type(v) is not int or v not in (0, 3, 4):
            return "Bid 3 or 4 (hands you will take exactly), or pass (0)."
        if v == 0 and not self.may_pass(g, seat):
            return (
                "The rainbow has been passed round three times: nobody has bid, "
                "so you must bid 3 or 4."
            )
        if v == 3 and g.high_bid is not None:
            return "3 has been bid already: overcall with 4 or pass."
        if v in (3, 4) and not g.eligible[seat]:
            return "Only the players tied for the lead may bid in this round."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        assert type(action.value) is int
        value = action.value
        n = g.players
        g.bids.append([seat, value])
        if value == 0:
            g.bid_queue.pop(0)
            g.log(f"{says(g.names[seat], 'passes')}.", seat, kind="bid", bid=0)
        elif value == 3:
            g.high_bid, g.high_seat = 3, seat
            g.bid_queue = [s for s in ((seat + 1) % n, (seat + 2) % n) if g.eligible[s]]
            g.log(f"{says(g.names[seat], 'bids 3')}.", seat, kind="bid", bid=3)
        else:
            g.high_bid, g.high_seat = 4, seat
            g.bid_queue = []
            g.log(f"{says(g.names[seat], 'bids 4')}.", seat, kind="bid", bid=4)
        if not g.bid_queue:
            self._end(g)

    def _end(self, g: TwoVOneGame) -> None:
        if g.high_bid is None:
            g.enter("exchange")
            return
        assert g.high_seat is not None
        g.lone, g.bid = g.high_seat, g.high_bid
        g.log(f"{says(g.names[g.lone], 'plays alone')}, bidding {g.bid}.", g.lone, kind="lone")
        g.enter("raise" if g.bid == 3 else "discard")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("bid", value=v) for v in self.options(g, seat) if v == 0 or g.eligible[seat]]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        choices = []
        for a in self.legal_actions(g, seat):
            assert type(a.value) is int
            text, key = _BID_WORDS[a.value]
            choices.append(Choice(text, a, key))
        if g.high_bid is None:
            prompt = "Bid the exact number of hands (of 5) you will take alone, or pass."
            if not self.may_pass(g, seat):
                prompt = "The rainbow has gone round: nobody has bid, so you must bid."
        else:
            assert g.high_seat is not None
            prompt = f"{says(g.names[g.high_seat], 'bids 3')}: overcall with 4, or pass."
        return Decision(seat, "bid", prompt, None, None, tuple(choices))

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"Bidding: {acting} to bid or pass."


class RaisePhase(Phase):
    """The bidder of a standing 3 keeps it or raises it to 4."""

    name = "raise"
    verb = "keep or raise the bid"

    def to_act(self, g: TwoVOneGame) -> tuple[int, ...]:
        assert g.lone is not None
        return (g.lone,)

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        if type(action.value) is not int or action.value not in (3, 4):
            return "Keep your bid at 3 or raise it to 4."
        return None

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        if action.value == 4:
            g.bid = 4
            g.raised = True
            g.log(f"{says(g.names[seat], 'raises the bid to 4')}.", seat, kind="raise")
        else:
            g.log(f"{says(g.names[seat], 'stays at 3')}.", seat, kind="raise")
        g.enter("discard")

    def legal_actions(self, g: TwoVOneGame, seat: int) -> list[Action]:
        return [Action("raise", value=3), Action("raise", value=4)]

    def decision(self, g: TwoVOneGame, seat: int) -> Decision:
        return Decision(
            seat,
            "raise",
            "Your 3 stands: keep it, or raise to 4 before the duo discard.",
            None,
            None,
            (
                Choice("Keep 3", Action("raise", value=3), "3"),
                Choice("Raise to 4", Action("raise", value=4), "4"),
            ),
        )

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return f"{says(lone_name(g), 'may raise the bid of 3 to 4')}."
