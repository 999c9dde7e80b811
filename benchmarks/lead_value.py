"""What leading a deal is worth, in penalty points: seeded first deals of fresh matches
played by one level in every seat, and the first seat to act's standing in each (the
others' mean penalty less its own). In Chinese Poker the winner of a deal deals the next
and plays first, so winning a deal is worth that much more than the penalties it saves
(``climbing_search.NEXT_LEAD``)::

    python benchmarks/lead_value.py --variant chinese-poker --players 4 --deals 20000

Standings add up to nothing over the seats, so the others' mean standing is the
leader's over ``players - 1``, and the value of leading rather than not is the leader's
standing times ``players / (players - 1)`` (printed as ``lead_value``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import agent_for, ai_rng  # noqa: E402
from twos_tui.engine import new_game  # noqa: E402

#: deal seeds of this benchmark: SEED_BASE + k (apart from the arena's)
SEED_BASE = 21_000_003


def leader_standing(variant: str, players: int, level: str, seed: int) -> tuple[float, bool]:
    """One seeded deal: the first seat to act's standing, and whether it won the deal."""
    g = new_game(variant, players, {}, seed)
    agents = [agent_for(variant, level) for _ in range(players)]
    rngs = [ai_rng(seed, i) for i in range(players)]
    leader: int | None = None
    while not g.deal_over:
        for seat in g.to_act():
            legal = g.legal_actions(seat)
            if not legal:
                continue
            if leader is None:
                leader = seat
            dec = g.decision(seat)
            assert dec is not None
            g.apply(seat, agents[seat].choose(g.observe(seat), legal, dec, rngs[seat]))
            if g.deal_over:
                break
    assert leader is not None
    res = g.results[-1]
    others = statistics.mean(res.changes[i] for i in range(players) if i != leader)
    return others - res.changes[leader], leader in res.winners


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="chinese-poker")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--level", default="normal")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    got = [leader_standing(a.variant, a.players, a.level, SEED_BASE + k) for k in range(a.deals)]
    st = [s for s, _ in got]
    m = statistics.mean(st)
    se = statistics.stdev(st) / math.sqrt(len(st)) if len(st) > 1 else 0.0
    k = a.players / (a.players - 1)
    print(
        json.dumps(
            {
                "variant": a.variant,
                "players": a.players,
                "level": a.level,
                "deals": a.deals,
                "leader_standing": round(m, 3),
                "leader_standing_ci95": [round(m - 1.96 * se, 3), round(m + 1.96 * se, 3)],
                "leader_won": round(sum(w for _, w in got) / len(got), 4),
                "lead_value": round(m * k, 2),
                "lead_value_ci95": [round((m - 1.96 * se) * k, 2), round((m + 1.96 * se) * k, 2)],
                "seconds": round(time.perf_counter() - t, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
