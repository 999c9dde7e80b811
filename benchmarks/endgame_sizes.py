"""What an exact endgame solve costs, by the cards left in all hands together.

Seeded deals played by ``normal``; at each decision of seat 0 with a choice and at most
``--max-cards`` cards left in all hands, three worlds are dealt from the seat's
observation (uniformly, :class:`Sampler`) and every legal move is solved exactly in each
(:class:`twos_tui.ai.climbing_endgame.Endgame`, node cap ``--cap``). Per card count: the
worlds solved, CPU seconds of a world (median, 95th percentile, max; 99 where the cap
was hit) and the positions expanded. This is how ``EXACT_CARDS`` was chosen::

    python benchmarks/endgame_sizes.py --game big-two --deals 20 --max-cards 17
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import agent_for  # noqa: E402
from twos_tui.ai.climbing_endgame import Endgame  # noqa: E402
from twos_tui.ai.climbing_search import deal_value  # noqa: E402
from twos_tui.engine import new_game  # noqa: E402
from twos_tui.engine.climbing.core import Move  # noqa: E402
from twos_tui.engine.climbing.determinize import Sampler  # noqa: E402
from twos_tui.engine.observer import as_climbing  # noqa: E402

GAMES = {
    "twos-3": ("twos", 3, {}),
    "twos-2": ("twos", 2, {"hand_size": 20}),
    "big-two": ("big-two", 4, {}),
    "big-two-5r": ("big-two-5r", 4, {}),
    "chinese-poker": ("chinese-poker", 4, {}),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--max-cards", type=int, default=14)
    ap.add_argument("--cap", type=int, default=300_000)
    a = ap.parse_args(argv)
    variant, players, options = GAMES[a.game]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{a.game}: load {load:.2f}", flush=True)
    stats: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    for k in range(a.deals):
        g = new_game(variant, players, dict(options), 77 + k)
        normal = agent_for(variant, "normal")
        rng = random.Random(k)
        while not g.deal_over:
            seat = g.to_act()[0]
            legal, d, obs = g.legal_actions(seat), g.decision(seat), g.observation(seat)
            assert d is not None
            if seat == 0 and len(legal) > 1 and d.kind == "play":
                o = as_climbing(obs)
                total = sum(o.hand_counts)
                if total <= a.max_cards:
                    sampler = Sampler(o, None)
                    rules = sampler.rules
                    moves: list[Move | None] = [
                        None if x.kind == "pass" else rules.move_of_codes(x.cards) for x in legal
                    ][:24]
                    values = [deal_value(rules, s) for s in range(players)]
                    eg = Endgame(rules, 0, values, node_cap=a.cap)
                    wr = random.Random(k * 1000 + total)
                    for _ in range(3):
                        world = sampler.sample(wr)
                        t = time.thread_time()
                        got = eg.solve(world, moves, range(len(moves)))
                        took = time.thread_time() - t
                        stats[total].append((took, eg.nodes) if got is not None else (99.0, 10**9))
            g.apply(seat, normal.choose(obs, legal, d, rng))

    def q(v: list[float], p: float) -> float:
        return v[min(len(v) - 1, int(p * len(v)))]

    for total in sorted(stats):
        ts = sorted(x[0] for x in stats[total])
        ns = sorted(float(x[1]) for x in stats[total])
        print(
            f"{total:3d} cards: {len(ts):3d} worlds, s a world median {q(ts, 0.5):.4f} "
            f"p95 {q(ts, 0.95):.4f} max {ts[-1]:.4f}; positions median {q(ns, 0.5):.0f} "
            f"p95 {q(ns, 0.95):.0f} max {ns[-1]:.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
