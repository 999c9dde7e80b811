"""The end of a 2v1 round: coins, the play-off and the end of the match (docs/rules.md
§5.9). An exact bid earns the lone player 2 coins, otherwise each duo member earns 1.
The first to the target (option ``coins_to_win``, 7) wins; if two or three players reach
it in the same round, one more round is played in which only they may bid, and its
winner (the lone player if exact, else the other tied player) wins the match; if several
of them win that round together, it is played again among them (§5.10).

The coins of a round are the core's (:attr:`~.core.RoundSim.changes`, set when its
round ends); this module is the judge of the match: the totals, the play-off and the
winner, and the words of the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..protocol import Action, DealResult, Decision
from ..words import says, verb
from .phase import Phase

if TYPE_CHECKING:
    from .game import TwoVOneGame


class OverPhase(Phase):
    """The round is over: entering it scores the round; nobody acts."""

    name = "over"
    verb = "wait"

    def entered(self, g: TwoVOneGame) -> None:
        core = g.core
        changes = core.changes
        assert changes is not None and core.lone >= 0
        lone, bid = core.lone, core.bid
        g.deal_over = True
        took = core.won[0]
        duo = core.duo()
        if changes[lone]:  # the bid was exact
            round_winners = [lone]
            summary = (
                f"{g.names[lone]} took exactly {took} hands as bid and "
                f"{verb(g.names[lone], 'gains')} {changes[lone]} coins."
            )
        else:
            round_winners = list(duo)
            summary = (
                f"{g.names[lone]} bid {bid} but took {took}: "
                f"{g.names[duo[0]]} and {g.names[duo[1]]} "
                f"gain a coin each."
            )
        changes = list(changes)
        totals = [t + c for t, c in zip(g.totals, changes, strict=False)]
        g.totals = totals
        details = self._match_end(g, round_winners)
        g.results.append(
            DealResult(g.deal_number, round_winners, changes, list(totals), summary, details)
        )
        g.log(summary, lone, kind="deal-end")
        for d in details:
            g.log(d, None, kind="deal-end")
        if g.match_over:
            g.log(
                f"Match over: {says(g.names[g.winners[0]], 'wins')}.",
                g.winners[0],
                kind="match-end",
            )

    @staticmethod
    def _match_end(g: TwoVOneGame, round_winners: list[int]) -> list[str]:
        """End the match, start or go on with a play-off, after a round won by
        ``round_winners``; the lines to add to the round's result."""
        n = g.players
        target = g.options["coins_to_win"]
        if g.playoff:
            contenders = [s for s in round_winners if g.eligible[s]]
            if len(contenders) == 1:
                g.match_over = True
                g.winners = contenders
            else:  # several contenders won this play-off round together: play again
                g.eligible = [s in contenders for s in range(n)]
        else:
            reached = [s for s in range(n) if g.totals[s] >= target]
            if len(reached) == 1:
                g.match_over = True
                g.winners = reached
            elif len(reached) > 1:
                g.playoff = True
                g.eligible = [s in reached for s in range(n)]
        if g.playoff and not g.match_over:
            who = " and ".join(g.names[s] for s in range(n) if g.eligible[s])
            return [
                f"{who} share the lead at {target}+ coins: one more round, "
                "in which only they may bid."
            ]
        return []

    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        return "Nothing to do now."

    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        raise AssertionError("nothing is played after the round")

    def decision(self, g: TwoVOneGame, seat: int) -> Decision | None:
        return None

    def status(self, g: TwoVOneGame, acting: str) -> str:
        return ""
