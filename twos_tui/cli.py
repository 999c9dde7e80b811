"""Command line: ``twos-tui`` (the app), ``play``, ``bench``, ``odds``, ``arena``,
``stats``, ``replay``, ``export``, ``serve``, ``host``, ``join``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, NoReturn

from . import __version__
from .engine import VARIANT_IDS

if TYPE_CHECKING:
    from .play.net.server import HostedTable, TableServer


class OneLineParser(argparse.ArgumentParser):
    """Every bad command line: one line on stderr (no usage block) and exit status 2;
    the values echoed are cleaned of control characters (an escape code typed in an
    argument never reaches the terminal raw)."""

    def error(self, message: str) -> NoReturn:
        from .play.names import clean_text

        self.exit(2, f"{self.prog}: error: {clean_text(message, 300)} (see --help)\n")


def int_range(lo: int | None = None, hi: int | None = None):
    """An argparse type: a whole number from ``lo`` to ``hi`` (a clear message and exit
    status 2 otherwise, as argparse does for every bad argument)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None
        if lo is not None and value < lo or hi is not None and value > hi:
            if hi is None:
                raise argparse.ArgumentTypeError(f"must be at least {lo} (got {value})")
            if lo is None:
                raise argparse.ArgumentTypeError(f"must be at most {hi} (got {value})")
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi} (got {value})")
        return value

    parse.__name__ = "whole number"
    return parse


#: a seed is any whole number of at most this many digits (what a save may hold: a game
#: started with a longer seed could never be continued)
SEED_DIGITS = 400


def SEED(text: str) -> int:  # noqa: N802 (an argparse type, named for its messages)
    digits = text.strip().lstrip("+-")
    if len(digits) > SEED_DIGITS:
        raise argparse.ArgumentTypeError(f"a seed has at most {SEED_DIGITS} digits")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None


def _shown(text: str) -> str:
    from .play.names import clean_text

    return repr(clean_text(text, 40))


SEED.__name__ = "seed"


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="twos-tui",
        description="Climbing and trick card games in the terminal. "
        "With no command, opens the home screen.",
    )
    p.add_argument("--version", action="version", version=f"twos-tui {__version__}")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open a table of one variant directly")
    play.add_argument("variant", choices=VARIANT_IDS, help="the game to play")
    play.add_argument("--players", type=int_range(1, 8), default=None)
    play.add_argument("--seed", type=SEED, default=None)

    bench = sub.add_parser("bench", help="play random games and print engine speed")
    bench.add_argument("--variant", required=True)
    bench.add_argument("--players", type=int_range(1, 8), default=None)
    bench.add_argument("--games", type=int_range(1, 1_000_000), default=1000)
    bench.add_argument("--seed", type=SEED, default=1)
    bench.add_argument("--json", action="store_true")

    from .arena import add_arena_parser

    add_arena_parser(sub)

    odds = sub.add_parser("odds", help="exact chances of every run shape in a dealt hand")
    # (odds checks its own sizes, naming the limits: see odds_cli.check_sizes)
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
    odds.add_argument("--seed", type=SEED, default=1)

    from .history_cli import add_history_parsers
    from .serve import add_serve_parser

    add_history_parsers(sub)
    add_serve_parser(sub)

    from .net_cli import add_net_parsers

    add_net_parsers(sub)
    from .puzzles_cli import add_puzzles_parser

    add_puzzles_parser(sub)
    return p


def run_hosted_ui(table: HostedTable, server: TableServer, seat: int) -> int:
    """``twos-tui host`` with a screen: the host plays ``seat`` of ``table`` in the app
    (``twos_tui.ui.app.run_hosted``), which starts ``server`` on its own loop
    (``await server.start()``: ``server.host``/``server.port`` say where; ``port`` is
    the bound one after it) and shows a :class:`~.play.net.host_view.HostSeatView` of
    the table with the join code (``table.code``; ``net_cli.announce(table, server)``
    has the lines to show)."""
    from .ui import app

    run_hosted = getattr(app, "run_hosted", None)
    if run_hosted is None:  # the app's side comes with the UI work of issue 17
        table.session.close()
        if not table.reopened:
            table.forget()
        print(
            "twos-tui: this version cannot show a hosted table yet (try --headless)",
            file=sys.stderr,
        )
        return 2
    result: int = run_hosted(table, server, seat)
    return result


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
    if args.command == "serve":
        from .serve import run_serve_cli

        return run_serve_cli(args)
    if args.command == "puzzles":
        from .puzzles_cli import run_puzzles_cli

        return run_puzzles_cli(args)
    if args.command in ("host", "join"):
        from . import net_cli

        return net_cli.run_host_cli(args) if args.command == "host" else net_cli.run_join_cli(args)
    from .ui.app import run_app

    if args.command == "play":
        return run_app(variant=args.variant, players=args.players, seed=args.seed)
    return run_app()


if __name__ == "__main__":
    sys.exit(main())
