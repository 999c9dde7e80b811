"""How close the ``hard`` search's dealt worlds come to the true hidden hands (issue 31).

Seeded deals are played (``normal`` in every seat for even deals; ``normal`` and
``greedy2`` in turn round the table for odd ones); at decision positions picked at
random (one in ``--every`` decisions with a choice), the deciding seat's observation is
taken and its unseen cards are dealt ``--samples`` times by each method:

* ``uniform``: ``Sampler(obs, None)``, an even deal;
* ``rules``: ``Sampler(obs, rule_weights(obs, rules))``, the per-card rules of thumb;
* ``inferred``: ``Sampler(obs, inferred_weights(obs, rules, rng))``, the weights from
  how likely each opponent's plays were world by world.

Against the true hidden hands (read with ``state_from_game``, by this benchmark only):

* ``right``: the share of unseen cards a sample puts where they really are (the right
  opponent, or out of play), averaged over the samples;
* ``logp``: the mean over unseen cards of ``log p``, ``p`` the share of samples that put
  the card where it really is, smoothed with one sample's worth of an even deal
  (``(hits + even) / (samples + 1)``): a proper score, higher is better.

Each figure is a mean over positions with a 95% interval; ``vs uniform`` and
``vs rules`` are the paired differences on the same positions. ``build ms`` is the time
to make the sampler once for a decision (the inference's pool included; wall clock, and
``cpu ms`` in CPU time of the thread: on a busy machine the wall clock includes waiting
for a core), ``us/sample`` the time per world dealt afterwards::

    python benchmarks/bench_beliefs.py --positions 1000
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from twos_tui.ai import agent_for, ai_rng  # noqa: E402
from twos_tui.ai.climbing_beliefs import inferred_weights, rule_weights  # noqa: E402
from twos_tui.engine import new_game  # noqa: E402
from twos_tui.engine.climbing.core import Rules  # noqa: E402
from twos_tui.engine.climbing.determinize import Sampler  # noqa: E402
from twos_tui.engine.climbing.rules import rules_for, state_from_game  # noqa: E402
from twos_tui.engine.climbing.view import ClimbingView  # noqa: E402

GAMES = {
    "big-two": ("big-two", 4),
    "big-two-5r": ("big-two-5r", 4),
    "chinese-poker": ("chinese-poker", 4),
    "twos-3p": ("twos", 3),
}

Weights = dict[Any, dict[str, float]] | None
Method = Callable[[ClimbingView, Rules, random.Random], Weights]
METHODS: dict[str, Method] = {
    "uniform": lambda obs, rules, rng: None,
    "rules": lambda obs, rules, rng: rule_weights(obs, rules),
    "inferred": lambda obs, rules, rng: inferred_weights(obs, rules, rng),
}


def positions(variant: str, players: int, count: int, every: int, seed: int):
    """Yield (observation, true destination of each unseen card) at ``count`` positions."""
    pick = random.Random(seed)
    got = 0
    k = 0
    while got < count:
        deal_seed = seed * 1_000_003 + k
        specs = ["normal"] * players
        if k % 2:
            specs = ["normal" if (i + k // 2) % 2 else "greedy2" for i in range(players)]
        k += 1
        g = new_game(variant, players, {}, deal_seed)
        agents = [agent_for(variant, s) for s in specs]
        rngs = [ai_rng(deal_seed, i) for i in range(players)]
        while not g.deal_over and got < count:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            dec = g.decision(seat)
            assert dec is not None
            obs = g.observe(seat)
            if (
                len(legal) > 1
                and dec.kind == "play"
                and not getattr(g, "_choosing", False)
                and pick.randrange(every) == 0
            ):
                truth = state_from_game(g).hands
                yield obs, truth
                got += 1
            g.apply(seat, agents[seat].choose(obs, legal, dec, rngs[seat]))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / max(1, n - 1)
    return m, 1.96 * math.sqrt(var / n)


def score(sampler: Sampler, truth: list[int], rng: random.Random, samples: int):
    """(cards placed right, mean log p of the true placement, seconds per sample)."""
    n = sampler.rules.players
    cards = sampler.cards
    where = {}
    for c in cards:
        bit = 1 << c
        where[c] = next((s for s in range(n) if truth[s] & bit), n)
    dest_room = dict(zip(sampler.dests, sampler.room, strict=True))
    total = sum(sampler.room)
    hits = dict.fromkeys(cards, 0)
    t = time.perf_counter()
    for _ in range(samples):
        hands = sampler.sample(rng).hands
        for c in cards:
            d = where[c]
            if d < n:
                hits[c] += (hands[d] >> c) & 1
            else:
                hits[c] += not any((h >> c) & 1 for h in hands)
    dt = (time.perf_counter() - t) / samples
    right = sum(hits.values()) / (samples * len(cards))
    logp = 0.0
    for c in cards:
        even = dest_room.get(where[c], 0) / total
        logp += math.log((hits[c] + even) / (samples + 1))
    return right, logp / len(cards), dt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="of " + ", ".join(GAMES))
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--every", type=int, default=3, help="take one decision in this many")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--methods", default=",".join(METHODS))
    a = ap.parse_args(argv)
    methods = a.methods.split(",")
    print("command: python benchmarks/bench_beliefs.py " + " ".join(argv or sys.argv[1:]))
    print(f"load at start: {os.getloadavg()[0]:.2f}", flush=True)
    for game in a.games.split(","):
        variant, players = GAMES[game]
        res: dict[str, dict[str, list[float]]] = {
            m: {"right": [], "logp": [], "build": [], "cpu": [], "sample": []} for m in methods
        }
        t0 = time.perf_counter()
        for i, (obs, truth) in enumerate(positions(variant, players, a.positions, a.every, a.seed)):
            rules = rules_for(variant, players, obs.options)
            for m in methods:
                rng = random.Random(f"bench-beliefs:{a.seed}:{i}")
                t, c = time.perf_counter(), time.thread_time()
                sampler = Sampler(obs, METHODS[m](obs, rules, rng))
                build = time.perf_counter() - t
                r = res[m]
                r["cpu"].append(time.thread_time() - c)
                right, logp, dt = score(sampler, truth, rng, a.samples)
                r["right"].append(right)
                r["logp"].append(logp)
                r["build"].append(build)
                r["sample"].append(dt)
        took = time.perf_counter() - t0
        print(
            f"\n{game} ({players} players): {a.positions} positions, {a.samples} samples each, "
            f"{took:.0f} s, load {os.getloadavg()[0]:.2f}"
        )
        print(
            f"{'method':<9} {'right %':>16} {'vs uniform':>16} {'vs rules':>16} "
            f"{'logp':>16} {'vs uniform':>16} {'vs rules':>16} {'build ms':>9} "
            f"{'p95':>6} {'cpu ms':>7} {'p95':>6} {'us/sample':>9}"
        )
        for m in methods:
            r = res[m]
            cells = []
            for key, scale, fmt in (("right", 100.0, "{:6.2f}"), ("logp", 1.0, "{:6.3f}")):
                xs = [x * scale for x in r[key]]
                mm, ci = mean_ci(xs)
                cells.append(f"{fmt.format(mm)} ± {fmt.format(ci).strip():<6}")
                for base in ("uniform", "rules"):
                    if base in res and base != m:
                        d = [(x - y) * scale for x, y in zip(r[key], res[base][key], strict=True)]
                        dm, dci = mean_ci(d)
                        cells.append(f"{dm:+.3f} ± {dci:.3f}".rjust(16))
                    else:
                        cells.append(f"{'':>16}")
            builds = sorted(r["build"])
            p95 = builds[min(len(builds) - 1, int(0.95 * len(builds)))] * 1000
            cpus = sorted(r["cpu"])
            cpu95 = cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))] * 1000
            print(
                f"{m:<9} {cells[0]:>16} {cells[1]} {cells[2]} {cells[3]:>16} {cells[4]} "
                f"{cells[5]} {1000 * sum(builds) / len(builds):9.2f} {p95:6.1f} "
                f"{1000 * sum(cpus) / len(cpus):7.2f} {cpu95:6.1f} "
                f"{1e6 * sum(r['sample']) / len(r['sample']):9.1f}",
                flush=True,
            )
    print(f"\nload at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
