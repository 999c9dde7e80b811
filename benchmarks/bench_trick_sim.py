"""Speed of the trick games' lean simulation paths against the protocol games.

Random legal play from seeded deals, CPU time per move, and the time to sample a deal
from one seat's observation (what every search iteration pays):

    python benchmarks/bench_trick_sim.py [--deals N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, cast

from twos_tui.engine import new_game
from twos_tui.engine.bitmask import bits
from twos_tui.engine.tricks import knowledge
from twos_tui.engine.tricks.game import TwosTricksGame
from twos_tui.engine.two_v_one.core import OVER
from twos_tui.engine.two_v_one.game import TwoVOneGame
from twos_tui.engine.two_v_one.sampler import Sampler


def protocol_rate(variant: str, deals: int) -> float:
    rng = random.Random(0)
    moves = 0
    t = time.process_time()
    for i in range(deals):
        g = new_game(variant, seed=i)
        while not g.deal_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
            moves += 1
    return (time.process_time() - t) / moves * 1e6


def two_v_one_rate(deals: int) -> float:
    rng = random.Random(0)
    starts = [cast(TwoVOneGame, new_game("2v1", seed=i)).core.copy() for i in range(deals)]
    moves = 0
    t = time.process_time()
    for s0 in starts:
        s = s0.copy()
        while s.phase != OVER:
            seat = s.to_act()[0]
            legal = s.legal(seat)
            s.apply(seat, legal[rng.randrange(len(legal))])
            moves += 1
    return (time.process_time() - t) / moves * 1e6


def tricks_rate(deals: int) -> float:
    rng = random.Random(0)
    starts = [
        knowledge.from_game(cast(TwosTricksGame, new_game("twos-tricks", seed=i)))
        for i in range(deals)
    ]
    moves = 0
    t = time.process_time()
    for s0 in starts:
        s = s0.copy()
        while not s.over:
            legal = bits(s.legal())
            s.play(legal[rng.randrange(len(legal))])
            moves += 1
    return (time.process_time() - t) / moves * 1e6


def sample_cost(variant: str, deals: int) -> float:
    """Microseconds to deal out one seat's unseen cards, over every decision of a few
    randomly played deals."""
    rng = random.Random(1)
    observations: list[Any] = []  # the variant's own observation type
    for i in range(deals):
        g = new_game(variant, seed=i)
        while not g.deal_over:
            seat = g.to_act()[0]
            observations.append(g.observation(seat))
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
    t = time.process_time()
    for obs in observations:
        if variant == "2v1":
            Sampler(obs).sample(rng)
        else:
            knowledge.determinize(obs, rng)
    return (time.process_time() - t) / len(observations) * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    a = p.parse_args()
    n = a.deals
    rows = [
        ("2v1", protocol_rate("2v1", n), two_v_one_rate(n * 5), sample_cost("2v1", 20)),
        (
            "twos-tricks",
            protocol_rate("twos-tricks", n // 2),
            tricks_rate(n * 5),
            sample_cost("twos-tricks", 5),
        ),
    ]
    print(f"{'variant':<12} {'protocol':>12} {'sim path':>12} {'speed-up':>9} {'one sample':>11}")
    for name, proto, sim, sample in rows:
        print(f"{name:<12} {proto:>9.1f} µs {sim:>9.1f} µs {proto / sim:>8.1f}x {sample:>8.0f} µs")
    print("(CPU time per random move; a sample deals out one seat's unseen cards)")


if __name__ == "__main__":
    main()
