"""Benchmark: CPU cost of one random deal under the property tests' checks, per game.

Run:  .venv/bin/python benchmarks/bench_property_checks.py [--deals 30] [--against REV]

For each configuration, the CPU time (process time, best of two runs) of ``play_deal``
from ``tests/test_properties.py`` (every check at every step: card census, no leaks,
refusals, one deep JSON step), and of the same deals played by the engine alone (random
legal actions, no checks). ``--against REV`` also times the ``play_deal`` of
``tests/test_properties.py`` as it was at git revision REV, for a before/after figure.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twos_tui.engine import new_game  # noqa: E402

CONFIGS = [
    ("twos", 3),
    ("big-two", 4),
    ("chinese-poker", 4),
    ("chinese-poker", 2),
    ("2v1", 3),
    ("twos-tricks", 4),
]


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def checked_ms(props, variant: str, players: int, deals: int) -> float:
    t = time.process_time()
    for seed in range(deals):
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed ^ 0x5EED)
        props.play_deal(g, rng, deep_step=rng.randrange(0, 40))
    return (time.process_time() - t) / deals * 1000


def engine_ms(variant: str, players: int, deals: int) -> float:
    t = time.process_time()
    for seed in range(deals):
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed)
        while not g.deal_over:
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    return (time.process_time() - t) / deals * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--against", metavar="REV", help="also time the checks as of this revision")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    now = load("props_now", ROOT / "tests" / "test_properties.py")
    old = None
    if a.against:
        text = subprocess.run(
            ["git", "show", f"{a.against}:tests/test_properties.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(text)
        old = load("props_then", Path(f.name))
    print(f"CPU ms per deal, best of 2, {a.deals} deals each")
    for variant, players in CONFIGS:
        checked_ms(now, variant, players, 2)  # warm the caches
        row = [f"{variant}-{players}p:"]
        if old is not None:
            checked_ms(old, variant, players, 2)
            then = min(checked_ms(old, variant, players, a.deals) for _ in range(2))
            row.append(f"checked at {a.against} {then:.1f}")
        cur = min(checked_ms(now, variant, players, a.deals) for _ in range(2))
        row.append(f"checked now {cur:.1f}")
        if old is not None:
            row.append(f"({cur / then:.0%})")
        alone = min(engine_ms(variant, players, a.deals) for _ in range(2))
        row.append(f"engine alone {alone:.1f}")
        print(" ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
