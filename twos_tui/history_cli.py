"""``twos-tui stats``, ``twos-tui replay ID`` and ``twos-tui export``: the history from
the command line.

* ``stats [--variant V] [--json]``: each game's figures (human seats only; watched
  all-AI games apart); a fresh data directory gets an empty history and zeros.
* ``replay ID``: opens the app on the replay of deal ``ID`` (``last``: the latest deal).
* ``export log GAME_ID [-o FILE]``: one game, every deal, as a text log.
* ``export csv [-o FILE]``: every recorded deal as CSV.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .cli_common import Subcommands


def add_history_parsers(sub: Subcommands) -> None:
    stats = sub.add_parser("stats", help="your results per game, from the history")
    stats.add_argument("--variant", default=None, help="one game only (twos, big-two, ...)")
    stats.add_argument("--json", action="store_true", help="the same figures as JSON")

    replay = sub.add_parser("replay", help="watch a recorded deal again, step by step")
    replay.add_argument("id", help="the deal id (shown by Stats and `stats`), or 'last'")

    export = sub.add_parser("export", help="export the history: one game as text, or CSV")
    what = export.add_subparsers(dest="what", required=True)
    log = what.add_parser("log", help="one game (every deal) as a text log")
    log.add_argument("game_id", type=_id, help="the game id (shown by Stats)")
    log.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    csv = what.add_parser("csv", help="every recorded deal as CSV")
    csv.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")


MAX_ID = 2**63 - 1  #: the largest id SQLite keeps


def _id(text: str) -> int:
    """A deal or game id from the command line (argparse type): a whole number SQLite
    can hold."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"an id is a whole number, not {_shown(text)}") from None
    if not 1 <= value <= MAX_ID:
        raise argparse.ArgumentTypeError(f"no id is {_shown(text)} (ids start at 1)")
    return value


def _shown(text: str) -> str:
    from .play.names import clean_text

    return repr(clean_text(text, 40))


def _fail(message: str, status: int = 1) -> int:
    from .play.names import clean_text

    print(f"twos-tui: {clean_text(message, 2000)}", file=sys.stderr)
    return status


def _say_notices(conn: sqlite3.Connection | None = None) -> None:
    """What must be said once (a damaged history set aside), and how many damaged rows
    the readers skipped: on stderr, never mixed into the output."""
    from .play import history
    from .play.names import clean_text

    for message in history.take_notices():
        print(f"twos-tui: {clean_text(message, 2000)}", file=sys.stderr)
    n = 0 if conn is None else history.skipped(conn)
    if n:
        rows = "row" if n == 1 else "rows"
        print(f"twos-tui: {n} damaged {rows} of the history skipped", file=sys.stderr)


def _clean_out(text: str) -> str:
    """Output text with every control character removed but line breaks (escape codes
    stored in the history never reach the terminal)."""
    from .play.names import clean_text

    return "\n".join(clean_text(line, len(line) + 1) for line in text.split("\n"))


def _write(text: str, output: str | None) -> None:
    text = _clean_out(text)
    if output is None:
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")


def _open() -> tuple[sqlite3.Connection, None] | tuple[None, int]:
    """The history, or (it cannot be opened: said on stderr) the exit status."""
    from .play import history

    try:
        return history.open_history(), None
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        _say_notices()
        return None, _fail(str(e))


def _damaged(conn: sqlite3.Connection, e: sqlite3.Error) -> sqlite3.Connection:
    """A damaged page met while reading: the file is set aside and a new history
    started (said on stderr); raises HistoryError if that fails too."""
    from .play import history

    if not history.is_damage(e):
        raise e
    return history.recover_damaged(conn, None, e)


def run_stats_cli(args: argparse.Namespace) -> int:
    from .play import history, stats

    conn, status = _open()
    if conn is None:
        return status or 1

    def text(c: sqlite3.Connection) -> str:
        if args.json:
            return json.dumps(stats.stats_json(c, args.variant), indent=2, ensure_ascii=False)
        return stats.stats_text(c, args.variant)

    try:
        try:
            out = text(conn)
        except sqlite3.DatabaseError as e:
            conn = _damaged(conn, e)
            out = text(conn)
        _write(out if out.endswith("\n") else out + "\n", None)
    except ValueError as e:
        return _fail(str(e), 2)
    except history.HistoryError as e:
        return _fail(str(e))
    except sqlite3.Error as e:
        return _fail(_busy(e))
    finally:
        _say_notices(conn)
        conn.close()
    return 0


def _busy(e: sqlite3.Error) -> str:
    if "locked" in str(e) or "busy" in str(e):
        return "the history is busy (another program holds it); try again in a moment"
    return f"cannot read the history: {e}"


def run_replay_cli(args: argparse.Namespace) -> int:
    from .play import history
    from .play.replay import load_replay

    if args.id != "last":
        try:
            deal_id = _id(args.id)
        except argparse.ArgumentTypeError as e:
            return _fail(str(e), 2)
    conn, status = _open()
    if conn is None:
        return status or 1
    try:
        if args.id == "last":
            try:
                last = history.last_deal_id(conn)
            except sqlite3.Error as e:
                return _fail(_busy(e))
            if last is None:
                return _fail("the history has no deal yet", 2)
            deal_id = last
        try:
            load_replay(conn, deal_id)  # refuse here, before the app opens
        except (history.HistoryError, sqlite3.Error) as e:
            return _fail(str(e), 2)
    finally:
        _say_notices(conn)
        conn.close()
    from .ui.app import run_app

    return run_app(replay=deal_id)


def _progress_printer(stream: TextIO) -> Callable[[int, int], None]:
    """Progress of a long export on a terminal (stderr), one line rewritten."""

    def show(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        stream.write(f"\rExporting… {done:,} of {total:,} deals{end}")
        stream.flush()

    return show


def run_export_cli(args: argparse.Namespace) -> int:
    from .play import history
    from .play.replay import game_log, write_csv

    conn, status = _open()
    if conn is None:
        return status or 1
    try:
        if args.what == "log":
            try:
                text = game_log(conn, args.game_id)
            except sqlite3.DatabaseError as e:
                conn = _damaged(conn, e)
                text = game_log(conn, args.game_id)
            _write(text, args.output)
        else:
            progress = None
            if sys.stderr.isatty():
                progress = _progress_printer(sys.stderr)
            if args.output is None:
                write_csv(conn, sys.stdout, progress)
            else:
                with open(args.output, "w", encoding="utf-8", newline="") as f:
                    write_csv(conn, f, progress)
    except (history.HistoryError, sqlite3.Error) as e:
        return _fail(str(e) if isinstance(e, history.HistoryError) else _busy(e), 2)
    except OSError as e:
        return _fail(f"cannot write {args.output}: {e}")
    finally:
        _say_notices(conn)
        conn.close()
    return 0
