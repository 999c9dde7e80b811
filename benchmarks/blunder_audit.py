"""Hard's blunder audit (issue 31): how often a search ten times as long picks a move
that wins clearly more often.

Seeded deals are played with ``hard`` in seat 0 and ``normal`` elsewhere. At each of
hard's decisions with more than one legal move, the decision is searched twice from
the seat's own observation: as hard plays it (``--iterations`` playouts) and ten times
as long (``--factor``). Where the two choose different moves, the long search's own
estimate of each move's share of deals won (the playouts it won after each) says how
much the short choice gave away; a decision where the long search's move wins at least
``--margin`` (15 points) more often than the short search's is a *blunder*. Printed per
game: the decisions audited, how many changed move, the blunders, and the worst ones in
words::

    python benchmarks/blunder_audit.py --decisions 200 --iterations 1000

``--shard I/N`` audits only every N-th deal (from I + N on): N processes, one a shard,
audit N times as many decisions in the time of one, on disjoint deals.

Both searches are capped in playouts, not in time, so the audit is reproducible and
does not depend on the machine's load. In Twos, ``hard`` is the guided search: its
estimates are its lines' values (the share won, from the same playouts).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import agent_for, ai_rng  # noqa: E402
from twos_tui.ai.climbing_common import show  # noqa: E402
from twos_tui.engine import new_game  # noqa: E402
from twos_tui.engine.observer import as_climbing  # noqa: E402
from twos_tui.engine.protocol import Action  # noqa: E402

GAMES = [("big-two", 4), ("big-two-5r", 4), ("chinese-poker", 4), ("twos", 3)]


@dataclass
class Blunder:
    game: str
    deal: int
    hand: tuple[str, ...]
    table: str
    short: Action
    long: Action
    short_won: float
    long_won: float

    def words(self) -> str:
        def say(a: Action) -> str:
            return "pass" if a.kind == "pass" else show(a.cards)

        return (
            f"{self.game}, deal seed {self.deal}: holding {show(self.hand)} "
            f"({len(self.hand)} cards), {self.table}; hard played {say(self.short)} "
            f"(the long search: wins {self.short_won:.0%} after it), the long search "
            f"{say(self.long)} (wins {self.long_won:.0%})"
        )


def estimates(agent: object) -> dict[int, float]:
    """The last search's estimate of each weighed move's share of deals won, by its
    index among the legal actions."""
    last = getattr(agent, "last", {}) or {}
    ranked = getattr(agent, "ranked", None)
    if "won" in last and "moves" in last:
        return {m: w for m, w in zip(last["moves"], last["won"], strict=True) if w is not None}
    if ranked:  # the guided search: (its value, index among the legal actions)
        return {i: v for v, i in ranked}
    return {}


def shard_deals(shard: int = 0, shards: int = 1) -> Iterator[int]:
    """The deal numbers shard ``shard`` of ``shards`` audits: ``shard + shards``, then
    every ``shards``-th (the whole audit, one shard: 1, 2, 3, ...). Shards run apart (one
    process each) audit disjoint deals, and their counts add up."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} of {shards}: it must be 0 to {shards - 1}")
    return itertools.count(shard + shards, shards)


def audit(
    variant: str,
    players: int,
    decisions: int,
    iterations: int,
    factor: int,
    margin: float,
    shard: int = 0,
    shards: int = 1,
) -> tuple[int, int, list[Blunder]]:
    audited = changed = 0
    blunders: list[Blunder] = []
    deals = shard_deals(shard, shards)
    while audited < decisions:
        deal = next(deals)
        g = new_game(variant, players, {}, 7_000_003 + deal)
        agents = [agent_for(variant, "hard", iterations=iterations)] + [
            agent_for(variant, "normal") for _ in range(players - 1)
        ]
        rngs = [ai_rng(deal, i) for i in range(players)]
        while not g.deal_over and audited < decisions:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            obs, dec = g.observe(seat), g.decision(seat)
            assert dec is not None
            act = agents[seat].choose(obs, legal, dec, rngs[seat])
            if seat == 0 and len(legal) > 1 and dec.kind == "play":
                audited += 1
                long = agent_for(variant, "hard", iterations=iterations * factor)
                best = long.choose(obs, legal, dec, random.Random(f"audit:{deal}:{audited}"))
                if best != act:
                    changed += 1
                    est = estimates(long)
                    i_short, i_long = legal.index(act), legal.index(best)
                    if i_short in est and i_long in est and est[i_long] - est[i_short] >= margin:
                        top = as_climbing(obs).top
                        table = f"to beat {show(top.cards)}" if top is not None else "on lead"
                        blunders.append(
                            Blunder(
                                variant,
                                7_000_003 + deal,
                                tuple(obs.hand),
                                table,
                                act,
                                best,
                                est[i_short],
                                est[i_long],
                            )
                        )
            g.apply(seat, act)
    return audited, changed, blunders


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=1000, help="hard's decisions a game")
    ap.add_argument("--iterations", type=int, default=1000, help="hard's playouts a decision")
    ap.add_argument("--factor", type=int, default=10, help="the long search's multiple")
    ap.add_argument("--margin", type=float, default=0.15)
    ap.add_argument("--game", action="append", help="only these games (default: four)")
    ap.add_argument("--worst", type=int, default=5)
    ap.add_argument(
        "--shard",
        default="0/1",
        help="I/N: audit only shard I of N (disjoint deals; run N processes and add up)",
    )
    a = ap.parse_args(argv)
    try:
        shard, shards = (int(x) for x in a.shard.split("/"))
        shard_deals(shard, shards)
    except ValueError as e:
        ap.error(f"--shard {a.shard}: {e}")
    print(f"$ python benchmarks/blunder_audit.py {' '.join(argv or sys.argv[1:])}")
    for variant, players in GAMES:
        if a.game and variant not in a.game:
            continue
        t = time.perf_counter()
        n, changed, blunders = audit(
            variant, players, a.decisions, a.iterations, a.factor, a.margin, shard, shards
        )
        print(
            f"{variant} ({players}): {n} decisions, {changed} changed by the "
            f"{a.factor}x search, {len(blunders)} blunders (>= {a.margin:.0%} more deals "
            f"won) [{time.perf_counter() - t:.0f} s]",
            flush=True,
        )
        for b in sorted(blunders, key=lambda b: b.short_won - b.long_won)[: a.worst]:
            print("  - " + b.words(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
