"""What the subcommands share, below them all: the parsers' formatter and one-line
errors, the argparse types (whole numbers in a range, seeds), the subcommands' one-line
help, and ``count_words``. ``cli.py`` (the top of the command line) and every subcommand
module (``arena``, ``serve``, ``net_cli``, ``puzzles_cli``, ...) import from here; nothing
here imports a subcommand or ``cli.py``.

Kept light (no ``typing``, no game code at import): ``twos-tui --help`` imports it."""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # (not ``typing``'s: importing typing is a sixth of --help's time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, sized from ``os.get_terminal_size`` (argparse asks shutil,
    whose import costs more than the rest of ``twos-tui --help``)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _columns() - 2  # (as argparse does)
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    try:
        return max(int(os.environ["COLUMNS"]), 20)
    except (KeyError, ValueError):
        pass
    out = sys.__stdout__  # (None when Python runs without one)
    try:
        return max(os.get_terminal_size(out.fileno()).columns, 20) if out else 80
    except (AttributeError, ValueError, OSError):
        return 80


class OneLineParser(argparse.ArgumentParser):
    """Every bad command line: one line on stderr (no usage block) and exit status 2;
    the values echoed are cleaned of control characters (an escape code typed in an
    argument never reaches the terminal raw)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # (argparse's own, passed on)
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        from .play.names import clean_text

        self.exit(2, f"{self.prog}: error: {clean_text(message, 300)} (see --help)\n")


if TYPE_CHECKING:
    from typing import TypeAlias

    #: where each subcommand adds its parser (argparse makes them of the top parser's
    #: class, a :class:`OneLineParser`)
    Subcommands: TypeAlias = argparse._SubParsersAction[OneLineParser]


def int_range(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (a clear message and exit
    status 2 otherwise, as argparse does for every bad argument)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
        if lo is not None and value < lo or hi is not None and value > hi:
            if hi is None:
                raise argparse.ArgumentTypeError(f"must be at least {lo} (got {value})")
            if lo is None:
                raise argparse.ArgumentTypeError(f"must be at most {hi} (got {value})")
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi} (got {value})")
        return value

    parse.__name__ = "whole number"
    return parse


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535 (``host``, ``server``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535 (got {value})")
    return value


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
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None


def shown(text: str) -> str:
    """``text`` as an error message echoes it: cleaned, cut, quoted."""
    from .play.names import clean_text

    return repr(clean_text(text, 40))


SEED.__name__ = "seed"


def count_words(counts: tuple[int, ...] | list[int]) -> str:
    """A game's player counts in words: "4", "2 or 3", "2 to 4", "2, 4 or 6"."""
    counts = sorted(counts)
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


class RawEpilogFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`HelpFormatter` that keeps the lines of the description and epilog (a
    table stays a table)."""


#: The one-line help of every subcommand, in the order ``--help`` lists them.
COMMAND_HELP: dict[str, str] = {
    "play": "open a table of one variant directly",
    "learn": "open the lessons (with a game: start that game's lesson at once)",
    "puzzles": "positions with one best move, for each game",
    "bench": "play random games and print engine speed",
    "arena": "AI agents play seeded deals against each other (duplicate-style)",
    "odds": "exact chances of every run shape in a dealt hand",
    "stats": "your results per game, from the history",
    "replay": "watch a recorded deal again, step by step",
    "export": "export the history: one game as text, or CSV",
    "serve": "play in a web browser (needs the web extra)",
    "host": "host a table that friends join from their own computers",
    "join": "sit at a table hosted on another computer",
    "server": "run a lobby server: open tables, quick match, ratings",
    "completion": "print a shell completion script (bash, zsh or fish)",
}
