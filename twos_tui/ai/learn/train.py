"""Training the move scorer from self-play games (numpy, one CPU core).

1. **Games.** ``--games`` deals of the variant are played through the game protocol
   by the project's AIs: each seat of a deal is ``normal`` (probability
   ``1 - --mix``) or, for variety, ``greedy2`` or ``random`` (half of ``--mix`` each),
   and a ``normal`` seat makes a uniformly random legal move with probability
   ``--eps``. The deals are new games seeded from ``--seed`` (seeds ``SEED_BASE + k``,
   far from the arena's). At every decision of a ``normal`` seat with more than one
   legal move the trainer records that seat's view (built by the same
   :func:`.features.view_of_observation` the agents use), the legal moves, the move
   ``normal`` chose and, when the deal ends, whether that seat won it.
2. **Fitting.** ``--epochs`` passes of Adam (batches of 64 decisions): the policy
   output learns ``normal``'s choice (a softmax over the legal moves, cross-entropy)
   and the value output the outcome of the deal after the chosen move (binary
   cross-entropy).
3. **Self-play improvement** (``--rounds``): deals on the fast simulation path in which
   every seat plays the network's own policy (a random move with probability
   ``--eps``); each decision's chosen move gets the deal's outcome as a value target,
   and moves the value output rates clearly above the policy's choice (by
   ``--margin``) become the policy's new targets where they won; then ``--epochs``
   more passes over the old and new decisions.

Every draw comes from ``--seed``, so the same command gives the same file (numpy's
float sums aside). The weights go to ``--out`` (``.npz``) with a ``.json`` beside them:
the command, seeds, counts, losses and time::

    python -m twos_tui.ai.learn.train --variant twos --players 3 --out twos.npz
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import TypedDict

import numpy as np

from ...engine import new_game
from ...engine.climbing.core import Move
from ...engine.climbing.rules import rules_for
from ...engine.observer import CLIMBING
from ...jsontypes import JsonObject, JsonValue
from .. import agent_for
from ..options import OptionValue
from . import net as netmod
from .agents import sim_moves
from .features import DIM, View, move_features, view_of_observation

SEED_BASE = 7_000_000_000

#: one decision: (view, moves, chosen index, value target)
Sample = tuple[View, list[Move | None], int, float]


class TrainingInfo(TypedDict):
    """How a weight file was made: written beside it as ``<name>.json``."""

    variant: str
    players: list[int]
    options: dict[str, OptionValue]
    hidden: list[int]
    inputs: int
    command: str
    seed: int
    deal_seeds: str
    seconds: float
    python: str
    numpy: str
    log: list[JsonObject]  #: a line per phase: its figures (as printed while training)


def play_games(
    variant: str,
    counts: list[int],
    options: dict[str, OptionValue],
    games: int,
    seed: int,
    eps: float,
    mix: float,
) -> tuple[list[Sample], dict[str, int]]:
    """Games with the teacher (and a few weaker players) in the seats; the samples of
    the teacher's decisions and the counts (games, decisions)."""
    rng = random.Random(f"twos-tui-train:{seed}")
    teacher = agent_for(variant, "normal")
    others = {"greedy2": agent_for(variant, "greedy2"), "random": agent_for(variant, "random")}
    out: list[Sample] = []
    decisions = 0
    for k in range(games):
        players = counts[k % len(counts)]
        rules = rules_for(variant, players, options)
        g = new_game(variant, players, dict(options), SEED_BASE + seed * 1_000_000 + k)
        kinds = []
        for _ in range(players):
            x = rng.random()
            kinds.append("normal" if x >= mix else ("greedy2" if x < mix / 2 else "random"))
        pending: list[tuple[int, View, list[Move | None], int]] = []
        while not g.deal_over:
            for seat in g.to_act():
                legal = g.legal_actions(seat)
                if not legal:
                    continue
                obs = CLIMBING.observe(g, seat)
                d = g.decision(seat)
                assert d is not None
                kind = kinds[seat]
                if kind != "normal":
                    act = others[kind].choose(obs, legal, d, rng)
                else:
                    act = teacher.choose(obs, legal, d, rng)
                    if len(legal) > 1 and d.kind == "play":
                        if rng.random() < eps:
                            act = legal[rng.randrange(len(legal))]
                        moves, index = sim_moves(rules, legal)
                        if act in legal and legal.index(act) in index and len(moves) > 1:
                            j = index.index(legal.index(act))
                            pending.append((seat, view_of_observation(obs, rules), moves, j))
                g.apply(seat, act)
                if g.deal_over:
                    break
        winners = set(g.results[-1].winners)
        for seat, v, moves, j in pending:
            out.append((v, moves, j, float(seat in winners)))
            decisions += 1
    return out, {"games": games, "decisions": decisions}


def _batch(samples: list[Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    xs = [move_features(v, moves) for v, moves, _, _ in samples]
    sizes = np.array([len(x) for x in xs])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([j for _, _, j, _ in samples])
    y = np.array([t for _, _, _, t in samples], dtype=np.float32)
    return np.concatenate(xs).astype(np.float32), starts, chosen, y


class Adam:
    def __init__(self, net: netmod.Net, lr: float) -> None:
        self.net, self.lr = net, lr
        self.m = {k: np.zeros_like(getattr(net, k)) for k in netmod.ARRAYS}
        self.v = {k: np.zeros_like(getattr(net, k)) for k in netmod.ARRAYS}
        self.t = 0

    def step(self, grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            w = getattr(self.net, k)
            w -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def fit(
    net: netmod.Net,
    opt: Adam,
    samples: list[Sample],
    epochs: int,
    gen: np.random.Generator,
    value_weight: float = 1.0,
) -> tuple[float, float, float]:
    """Passes over ``samples``; (policy loss, value loss, agreement with the targets) of
    the last pass."""
    pl = vl = agree = 0.0
    for _ in range(epochs):
        order = gen.permutation(len(samples))
        pl = vl = agree = 0.0
        for a in range(0, len(order), 64):
            batch = [samples[i] for i in order[a : a + 64]]
            x, starts, chosen, y = _batch(batch)
            b = len(batch)
            z1 = x @ net.w1 + net.b1
            h1 = np.maximum(z1, 0.0)
            z2 = h1 @ net.w2 + net.b2
            h2 = np.maximum(z2, 0.0)
            out = h2 @ net.w3 + net.b3
            pol = out[:, 0]
            seg = np.repeat(np.arange(b), np.diff(np.append(starts, len(x))))
            mx = np.maximum.reduceat(pol, starts)
            e = np.exp(pol - mx[seg])
            ssum = np.add.reduceat(e, starts)
            p = e / ssum[seg]
            pl += float(-np.log(p[chosen] + 1e-9).sum())
            agree += float((np.maximum.reduceat(pol, starts) == pol[chosen]).sum())
            dpol = p.copy()
            dpol[chosen] -= 1.0
            dpol /= b
            vz = out[chosen, 1]
            vp = 1.0 / (1.0 + np.exp(-vz))
            vl += float(-(y * np.log(vp + 1e-7) + (1 - y) * np.log(1 - vp + 1e-7)).sum())
            dval = np.zeros(len(x), dtype=np.float32)
            dval[chosen] = value_weight * (vp - y) / b
            d = np.stack([dpol, dval], axis=1).astype(np.float32)
            g = {"w3": h2.T @ d, "b3": d.sum(0)}
            dh2 = (d @ net.w3.T) * (z2 > 0)
            g["w2"] = h1.T @ dh2
            g["b2"] = dh2.sum(0)
            dh1 = (dh2 @ net.w2.T) * (z1 > 0)
            g["w1"] = x.T @ dh1
            g["b1"] = dh1.sum(0)
            opt.step(g)
        n = max(1, len(samples))
        pl, vl, agree = pl / n, vl / n, agree / n
    return pl, vl, agree


def self_play(
    net: netmod.Net,
    variant: str,
    counts: list[int],
    options: dict[str, OptionValue],
    deals: int,
    rng: random.Random,
    eps: float,
    margin: float,
) -> tuple[list[Sample], dict[str, int]]:
    """Deals on the sim with the network's policy in every seat (see the module text)."""
    out: list[Sample] = []
    changed = 0
    for k in range(deals):
        n = counts[k % len(counts)]
        rules = rules_for(variant, n, options)
        deck = rules.deck_mask
        s = rules.deal(rng)
        played = passes = 0
        pending: list[tuple[int, View, list[Move | None], int, int]] = []
        while s.winner < 0:
            moves = list(s.legal())
            seat = s.cur
            if len(moves) == 1:
                m = moves[0]
            else:
                v = View(
                    seat,
                    n,
                    s.hands[seat],
                    played,
                    tuple(s.counts()),
                    s.top,
                    s.top_seat,
                    passes,
                    deck,
                )
                o = net.outputs(move_features(v, moves))
                i = int(np.argmax(o[:, 0]))
                alt = int(np.argmax(o[:, 1]))
                i_play = alt if alt != i and o[alt, 1] - o[i, 1] > margin else i
                if rng.random() < eps:
                    i_play = rng.randrange(len(moves))
                pending.append((seat, v, moves, i_play, i))
                m = moves[i_play]
            s.play(m)
            if m is None:
                passes = 0 if s.top is None else passes | 1 << seat
            else:
                played |= m[0]
                passes = 0
        for seat, v, moves, j, i in pending:
            won = float(seat == s.winner)
            if j != i and not won:
                continue  # a departure that lost teaches the policy nothing sure
            changed += j != i
            out.append((v, moves, j, won))
    return out, {"deals": deals, "decisions": len(out), "new_targets": changed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument(
        "--players", required=True, help="player count(s), comma-separated: games alternate"
    )
    ap.add_argument("--option", action="append", default=[], metavar="ID=VALUE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--eps", type=float, default=0.05)
    ap.add_argument("--mix", type=float, default=0.2)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--deals", type=int, default=2000, help="deals of a self-play round")
    ap.add_argument("--margin", type=float, default=0.5)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", default="128,64")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    from ..options import parse_options

    options = parse_options(a.option)
    counts = [int(x) for x in a.players.split(",")]
    gen = np.random.default_rng(a.seed)
    h1, h2 = (int(x) for x in a.hidden.split(","))
    net = netmod.init(gen, (h1, h2))
    opt = Adam(net, a.lr)
    start = time.perf_counter()
    log: list[JsonObject] = []

    def note(**kw: JsonValue) -> None:
        kw["seconds"] = round(time.perf_counter() - start, 1)
        log.append(kw)
        print(json.dumps(kw), file=sys.stderr, flush=True)

    data, info = play_games(a.variant, counts, options, a.games, a.seed, a.eps, a.mix)
    note(phase="games", **info)
    for ep in range(a.epochs):
        pl, vl, ag = fit(net, opt, data, 1, gen)
        note(
            phase="fit",
            epoch=ep + 1,
            policy_loss=round(pl, 4),
            value_loss=round(vl, 4),
            agree=round(ag, 4),
        )
    rng = random.Random(f"twos-tui-self-play:{a.seed}")
    for r in range(a.rounds):
        new, info = self_play(net, a.variant, counts, options, a.deals, rng, a.eps, a.margin)
        data = data[len(new) :] + new
        for _ep in range(a.epochs):
            pl, vl, ag = fit(net, opt, data, 1, gen)
        note(
            phase="self-play",
            round=r + 1,
            policy_loss=round(pl, 4),
            value_loss=round(vl, 4),
            agree=round(ag, 4),
            **info,
        )
    out = Path(a.out)
    meta: TrainingInfo = {
        "variant": a.variant,
        "players": counts,
        "options": options,
        "hidden": [h1, h2],
        "inputs": DIM,
        "command": "python -m twos_tui.ai.learn.train " + " ".join(argv or sys.argv[1:]),
        "seed": a.seed,
        "deal_seeds": f"{SEED_BASE + a.seed * 1_000_000} + k, k < {a.games}; player "
        f"count {counts}[k % {len(counts)}]",
        "seconds": round(time.perf_counter() - start, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "log": log,
    }
    trained: netmod.TrainedFor = {
        "variant": a.variant,
        "players": counts,
        "hidden": [h1, h2],
        "seed": a.seed,
    }
    netmod.save(net, out, trained)
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size:,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
