"""Command line: ``twos-tui`` (the app), ``play``, ``learn``, ``bench``, ``odds``,
``arena``, ``stats``, ``replay``, ``export``, ``serve``, ``host``, ``join``."""

from __future__ import annotations

import argparse
import sys

from .cli_common import (
    COMMAND_HELP,
    SEED,
    SEED_DIGITS,
    HelpFormatter,
    OneLineParser,
    RawEpilogFormatter,
    count_words,
    int_range,
    shown,
)

TYPE_CHECKING = False  # (not ``typing``'s: see cli_common)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

    from .cli_common import Subcommands
    from .play.session import SeatConfig

__all__ = [
    "ALL",
    "COMMAND_HELP",
    "COMMAND_PARSERS",
    "SEED",
    "SEED_DIGITS",
    "SEATS",
    "HelpFormatter",
    "OneLineParser",
    "RawEpilogFormatter",
    "build_parser",
    "command_in",
    "count_words",
    "int_range",
    "main",
    "parse_seats",
    "play_seats",
]


class VersionAction(argparse.Action):
    """``--version``: "twos-tui X.Y.Z", the version from the package's metadata, looked up
    only when asked (``twos-tui --help`` does not pay for ``importlib.metadata``)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kw: Any) -> None:
        kw.setdefault("help", "show the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> NoReturn:
        from . import package_version

        print(f"twos-tui {package_version()}")  # (on stdout, as argparse's own action)
        parser.exit(0)


#: ``--seats``: what one seat may be (after an optional ``NAME=``)
SEAT_KINDS_TEXT = "human, ai or ai:LEVEL"


def parse_seats(text: str) -> list[tuple[str | None, str, str | None]]:
    """``--seats``: a comma list of ``[NAME=]human``, ``[NAME=]ai`` or
    ``[NAME=]ai:LEVEL`` -> (name or None, "human"/"ai", level or None) per seat.
    ValueError, saying which seat and why, for anything else."""
    from .ai import LEVELS
    from .play.names import MAX_NAME_CELLS, clean_name, clean_text

    if not text.strip():
        raise ValueError(f"give one seat or more, e.g. Ann=human,ai (each is {SEAT_KINDS_TEXT})")
    seats: list[tuple[str | None, str, str | None]] = []
    for i, item in enumerate(text.split(","), 1):
        word = item.strip()
        if not word:
            raise ValueError(f"seat {i} is empty: each seat is {SEAT_KINDS_TEXT}")
        name: str | None = None
        if "=" in word:
            raw, _, word = word.partition("=")
            name = " ".join(raw.split())
            word = word.strip()
            if not name:
                raise ValueError(f"seat {i}: a name goes before the = (e.g. Ann=human)")
            cleaned = clean_name(name, "")
            if cleaned != name:
                if not cleaned or " ".join(clean_text(name, 200).split()) != name:
                    raise ValueError(
                        f"seat {i}: the name {shown(name)} has characters a name cannot have"
                    )
                raise ValueError(
                    f"seat {i}: the name {shown(name)} is too long "
                    f"(at most {MAX_NAME_CELLS} characters)"
                )
        kind, colon, level = word.lower().partition(":")
        if kind == "human" and not colon:
            seats.append((name, "human", None))
        elif kind == "ai" and not colon:
            seats.append((name, "ai", None))
        elif kind == "ai" and level in LEVELS:
            seats.append((name, "ai", level))
        elif kind == "ai":
            raise ValueError(
                f"seat {i}: an AI's level is {', '.join(LEVELS[:-1])} or {LEVELS[-1]}, "
                f"not {shown(level)}"
            )
        else:
            raise ValueError(f"seat {i} must be {SEAT_KINDS_TEXT}, not {shown(word)}")
    taken: set[str] = set()
    for name, _kind, _level in seats:
        if name is not None:
            if name.casefold() in taken:
                raise ValueError(f"two seats are named {shown(name)}: give each its own name")
            taken.add(name.casefold())
    return seats


def SEATS(text: str) -> list[tuple[str | None, str, str | None]]:  # noqa: N802 (argparse type)
    try:
        return parse_seats(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


SEATS.__name__ = "seats"


def play_seats(
    variant: str, players: int | None, seats: list[tuple[str | None, str, str | None]] | None
) -> list[SeatConfig] | None:
    """The seats of ``twos-tui play`` (:class:`~.play.session.SeatConfig`), or ``None``
    for the game's usual ones: ``--seats`` checked against ``--players`` and the
    game's player counts; unnamed humans are "Player N", unnamed AIs take the usual AI
    names not already taken. ValueError with the reason."""
    from .engine import variant_class
    from .play.session import AI_NAMES, SeatConfig

    cls = variant_class(variant)
    n = len(seats) if seats is not None else players if players is not None else None
    if seats is not None and players is not None and players != len(seats):
        raise ValueError(
            f"argument --seats: it gives {len(seats)} seat{'s' if len(seats) != 1 else ''} "
            f"but --players is {players}"
        )
    if n is not None and n not in cls.player_counts:
        where = "--seats" if seats is not None else "--players"
        raise ValueError(
            f"argument {where}: {cls.name} is for {count_words(cls.player_counts)} players, not {n}"
        )
    if seats is None:
        return None
    taken = {name.casefold() for name, _, _ in seats if name}
    spare = iter([a for a in AI_NAMES if a.casefold() not in taken])
    out = []
    for i, (name, kind, level) in enumerate(seats):
        if name is None:
            name = f"Player {i + 1}" if kind == "human" else next(spare, f"AI {i + 1}")
            if name.casefold() in taken:
                raise ValueError(f"seat {i + 1} would be named {name!r} as another is: name it")
            taken.add(name.casefold())
        out.append(SeatConfig(name, kind, level) if level else SeatConfig(name, kind))
    return out


def add_play_parser(sub: Subcommands) -> None:
    from .engine import VARIANT_IDS, variant_class

    classes = [variant_class(v) for v in VARIANT_IDS]
    width = max(map(len, VARIANT_IDS))
    table = "\n".join(
        f"  {v:<{width}}  {count_words(c.player_counts)}"
        + (f" (usually {c.default_players})" if len(c.player_counts) > 1 else "")
        for v, c in zip(VARIANT_IDS, classes, strict=True)
    )
    play = sub.add_parser(
        "play",
        help=COMMAND_HELP["play"],
        formatter_class=RawEpilogFormatter,
        epilog=f"players in each game:\n{table}\n\n"
        "seats: a comma list, in order round the table, each human, ai or ai:LEVEL\n"
        "(easy, normal, hard), with NAME= before it to name the player, e.g.\n"
        '  twos-tui play twos --seats "Ann=human,Bob=human,ai:hard"\n'
        "Two humans or more play hot-seat: the screen hides each hand between turns.",
    )
    play.add_argument("variant", choices=VARIANT_IDS, help="the game to play")
    play.add_argument(
        "--players",
        type=int_range(1),
        default=None,
        help="seats at the table: each game's numbers are listed below (default: its usual number)",
    )
    play.add_argument(
        "--seats",
        type=SEATS,
        default=None,
        metavar="SEATS",
        help="who sits where, e.g. Ann=human,Bob=human,ai (see below; default: you and AIs)",
    )
    play.add_argument(
        "--seed", type=SEED, default=None, help="a whole number: the same seed, the same deals"
    )


def add_learn_parser(sub: Subcommands) -> None:
    from .engine import VARIANT_IDS

    learn = sub.add_parser("learn", help=COMMAND_HELP["learn"])
    learn.add_argument("variant", nargs="?", choices=VARIANT_IDS, help="the game to learn")
    learn.add_argument(
        "--step", type=int_range(1, 8), default=None, help="start at this step (from 1)"
    )


def add_bench_parser(sub: Subcommands) -> None:
    bench = sub.add_parser("bench", help=COMMAND_HELP["bench"])
    bench.add_argument("--variant", required=True, help="the game to time (twos, big-two, ...)")
    bench.add_argument(
        "--players", type=int_range(1, 8), default=None, help="seats (default: the game's own)"
    )
    bench.add_argument(
        "--games", type=int_range(1, 1_000_000), default=1000, help="deals to play (default 1000)"
    )
    bench.add_argument("--seed", type=SEED, default=1, help="seed of the deals (default 1)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")


def add_odds_parser(sub: Subcommands) -> None:
    odds = sub.add_parser("odds", help=COMMAND_HELP["odds"])
    # (odds checks its own sizes, naming the limits: see odds_cli.check_sizes)
    odds.add_argument("--hand-size", type=int, required=True, help="cards in the hand")
    odds.add_argument(
        "--deck",
        default="standard",
        help="standard, chinese, decks:K (K decks shuffled together) or infinite",
    )
    odds.add_argument("--json", action="store_true", help="print the table as JSON")
    odds.add_argument(
        "--simulate",
        type=int,
        default=0,
        metavar="N",
        help="also deal N random hands as a Monte Carlo cross-check",
    )
    odds.add_argument(
        "--seed", type=SEED, default=1, help="seed of the --simulate deals (default 1)"
    )


#: Who defines each subcommand's arguments: ``"module:function"``, the function taking the
#: subparsers object and adding its command(s). Only the module of the command being run
#: is imported (``twos-tui --help`` and the home screen import none of them: the start
#: stays light, see benchmarks/bench_start.py); the other commands are listed by name and
#: ``COMMAND_HELP``. A new subcommand: a line here and in ``COMMAND_HELP``, and its run in
#: ``main``.
COMMAND_PARSERS: dict[str, str] = {
    "play": "twos_tui.cli:add_play_parser",
    "learn": "twos_tui.cli:add_learn_parser",
    "puzzles": "twos_tui.puzzles_cli:add_puzzles_parser",
    "bench": "twos_tui.cli:add_bench_parser",
    "arena": "twos_tui.arena:add_arena_parser",
    "odds": "twos_tui.cli:add_odds_parser",
    "stats": "twos_tui.history_cli:add_history_parsers",
    "replay": "twos_tui.history_cli:add_history_parsers",
    "export": "twos_tui.history_cli:add_history_parsers",
    "serve": "twos_tui.serve:add_serve_parser",
    "host": "twos_tui.net_cli:add_net_parsers",
    "join": "twos_tui.net_cli:add_net_parsers",
    "server": "twos_tui.server_cli:add_server_parser",
    "completion": "twos_tui.cli:add_completion_parser",
}

#: the top level's options that take a value (``command_in`` steps over it)
TOP_OPTIONS_WITH_VALUE = ("--config", "--log-file")

#: ``build_parser``'s default: every subcommand's full parser (tests, help walkers)
ALL = "*"


def _adder(target: str) -> Callable[[Subcommands], None]:
    """The function ``"module:name"`` that adds a subcommand's parser."""
    import importlib

    module, _, name = target.partition(":")
    adder: Callable[[Subcommands], None] = getattr(importlib.import_module(module), name)
    return adder


def command_in(argv: list[str]) -> str | None:
    """The subcommand an argument list names: its first word that is neither an option
    nor the value of a top-level option (``--config PATH``, ``--log-file PATH``, or a
    prefix of them, as argparse takes it), or ``None``."""
    value_next = False
    for i, word in enumerate(argv):
        if value_next:
            value_next = False
            continue
        if word == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        if not word.startswith("-"):
            return word
        value_next = len(word) > 2 and any(o.startswith(word) for o in TOP_OPTIONS_WITH_VALUE)
    return None


def add_top_options(p: argparse.ArgumentParser) -> None:
    """The options of the program as a whole (before any command)."""
    p.add_argument("--version", action=VersionAction)
    p.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help="the settings file to use (default: config.toml in your config folder)",
    )
    p.add_argument(
        "--verbose", action="store_true", help="write more detail to the log (debug lines)"
    )
    p.add_argument(
        "--log-file",
        metavar="PATH",
        default=None,
        help="write the log to this file (default: twos-tui.log in your log folder)",
    )
    p.add_argument(
        "--no-color",
        action="store_true",
        help="draw without colour, as the NO_COLOR environment variable does",
    )


def add_completion_parser(sub: Subcommands) -> None:
    from .completion import SHELLS, install_help

    c = sub.add_parser(
        "completion",
        help=COMMAND_HELP["completion"],
        formatter_class=RawEpilogFormatter,
        epilog=install_help(),
    )
    c.add_argument("shell", choices=SHELLS, help="the shell the script is for")


def build_parser(command: str | None = ALL) -> argparse.ArgumentParser:
    """The command line. ``command``: the subcommand to define fully (``ALL``: every one);
    the others get a light stand-in that only lists them in ``--help``."""
    p = OneLineParser(
        prog="twos-tui",
        description="Climbing and trick card games in the terminal. "
        "With no command, opens the home screen.",
    )
    add_top_options(p)
    sub = p.add_subparsers(dest="command")

    wanted = (
        {COMMAND_PARSERS.get(command or "")} if command != ALL else set(COMMAND_PARSERS.values())
    )
    added: set[str] = set()
    for name, target in COMMAND_PARSERS.items():
        if target in wanted:
            if target not in added:
                _adder(target)(sub)
                added.add(target)
        else:
            sub.add_parser(name, help=COMMAND_HELP[name], add_help=False)
    return p


def _command_parser(command: str) -> argparse.ArgumentParser:
    """The parser of one subcommand (for its one-line errors)."""
    sub = next(
        a for a in build_parser(command)._actions if isinstance(a, argparse._SubParsersAction)
    )
    parser: argparse.ArgumentParser = sub.choices[command]
    return parser


def apply_top_options(args: argparse.Namespace) -> str | None:
    """``--no-color``, ``--config`` and the log (``--verbose``, ``--log-file``), for the
    command about to run and the programs it starts (through the environment); None, or
    why the command cannot run."""
    import os

    if args.no_color:
        os.environ["NO_COLOR"] = "1"  # (Textual and Rich read it: every screen, no colour)
    if args.config is not None:
        from .play.paths import CONFIG_ENV

        os.environ[CONFIG_ENV] = os.path.abspath(args.config)
    from .play.logs import LogFileError, setup

    try:
        setup(verbose=args.verbose, log_file=args.log_file)
    except LogFileError as e:
        return str(e)
    return None


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    from .textdoor import checked_words

    problem = checked_words(words)
    if problem is not None:
        print(f"twos-tui: {problem}", file=sys.stderr)
        return 2
    args = build_parser(command_in(words)).parse_args(words)
    if args.command == "completion":
        from .completion import completion_script

        sys.stdout.write(completion_script(build_parser(ALL), args.shell))
        return 0
    problem = apply_top_options(args)
    if problem is not None:
        print(f"twos-tui: error: {problem}", file=sys.stderr)
        return 2
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
    if args.command == "server":
        from .server_cli import run_server_cli

        return run_server_cli(args)
    if args.command in ("host", "join"):
        from . import net_cli

        return net_cli.run_host_cli(args) if args.command == "host" else net_cli.run_join_cli(args)
    from .ui.app import run_app

    if args.command == "learn":
        return run_app(learn=args.variant or "", learn_step=args.step)
    if args.command == "play":
        try:
            seats = play_seats(args.variant, args.players, args.seats)
        except ValueError as e:
            _command_parser(args.command).error(str(e))
        return run_app(variant=args.variant, players=args.players, seed=args.seed, seats=seats)
    return run_app()


if __name__ == "__main__":
    sys.exit(main())
