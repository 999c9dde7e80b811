"""Command line: ``twos-tui`` (the app), ``play``, ``bench``, ``odds``, ``arena``,
``stats``, ``replay``, ``export``."""

from __future__ import annotations

import argparse
import sys

from . import __version__


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="twos-tui",
        description="Climbing and trick card games in the terminal. "
        "With no command, opens the home screen.",
    )
    p.add_argument("--version", action="version", version=f"twos-tui {__version__}")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open a table of one variant directly")
    play.add_argument("variant", help="twos, big-two, big-two-5r, chinese-poker, 2v1, twos-tricks")
    play.add_argument("--players", type=int, default=None)
    play.add_argument("--seed", type=int, default=None)

    bench = sub.add_parser("bench", help="play random games and print engine speed")
    bench.add_argument("--variant", required=True)
    bench.add_argument("--players", type=int, default=None)
    bench.add_argument("--games", type=int, default=1000)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--json", action="store_true")

    from .arena import add_arena_parser

    add_arena_parser(sub)

    odds = sub.add_parser("odds", help="exact chances of every run shape in a dealt hand")
    odds.add_argument("--hand-size", type=int, required=True)
    odds.add_argument(
        "--deck",
        default="standard",
        help="standard, chinese, decks:K (K decks shuffled together) or infinite",
    )
    odds.add_argument("--json", action="store_true")
    odds.add_argument(
        "--simulate",
        type=int,
        default=0,
        metavar="N",
        help="also deal N random hands as a Monte Carlo cross-check",
    )
    odds.add_argument("--seed", type=int, default=1)

    from .history_cli import add_history_parsers

    add_history_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "bench":
        from .bench import run_bench_cli

        return run_bench_cli(args)
    if args.command == "arena":
        from .arena import run_arena_cli

        return run_arena_cli(args)
    if args.command == "odds":
        from .odds_cli import run_odds_cli

        return run_odds_cli(args)
    if args.command in ("stats", "replay", "export"):
        from . import history_cli

        run = {
            "stats": history_cli.run_stats_cli,
            "replay": history_cli.run_replay_cli,
            "export": history_cli.run_export_cli,
        }[args.command]
        return run(args)
    from .ui.app import run_app

    if args.command == "play":
        return run_app(variant=args.variant, players=args.players, seed=args.seed)
    return run_app()


if __name__ == "__main__":
    sys.exit(main())
