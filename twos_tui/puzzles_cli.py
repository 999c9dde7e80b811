"""``twos-tui puzzles [VARIANT]``: the puzzles screen (of one game), or ``--check``: prove
every puzzle loads, is legal and has exactly one answer (what ``tests/test_puzzles.py``
runs)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .cli_common import COMMAND_HELP
from .engine import VARIANT_IDS


def add_puzzles_parser(sub: Any) -> None:
    p = sub.add_parser("puzzles", help=COMMAND_HELP["puzzles"])
    p.add_argument("variant", nargs="?", choices=VARIANT_IDS, help="open this game's puzzles")
    p.add_argument(
        "--check",
        action="store_true",
        help="prove every puzzle loads, is legal and has exactly one answer, and exit",
    )


def check_all(variants: list[str], out: Any = None) -> int:
    """Check the puzzles of ``variants``; print a line per game and each problem; the
    number of problems."""
    from .puzzles.model import PuzzleError, check_puzzle, load_puzzles

    out = out or sys.stdout
    problems = 0
    for v in variants:
        t0 = time.perf_counter()
        try:
            puzzles = load_puzzles(v)
        except PuzzleError as e:
            print(f"{v}: cannot load: {e}", file=out)
            problems += 1
            continue
        bad = [r for r in (check_puzzle(p) for p in puzzles) if r is not None]
        for r in bad:
            print(f"  {r}", file=out)
        problems += len(bad)
        dt = time.perf_counter() - t0
        verdict = "each has exactly one answer" if not bad else f"{len(bad)} wrong"
        print(f"{v}: {len(puzzles)} puzzles, {verdict} ({dt:.1f} s)", file=out)
    return problems


def run_puzzles_cli(args: argparse.Namespace) -> int:
    if args.check:
        variants = [args.variant] if args.variant else list(VARIANT_IDS)
        problems = check_all(variants)
        if problems:
            print(f"twos-tui: {problems} puzzle problem(s)", file=sys.stderr)
            return 1
        return 0
    from .ui.app import make_app, run_built
    from .ui.screens.puzzles import PuzzlesScreen

    app = make_app()
    app.on_start = lambda: app.push_screen(PuzzlesScreen(args.variant))
    return run_built(app)
