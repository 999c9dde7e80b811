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
from pathlib import Path


def add_history_parsers(sub) -> None:
    stats = sub.add_parser("stats", help="your results per game, from the history")
    stats.add_argument("--variant", default=None, help="one game only (twos, big-two, ...)")
    stats.add_argument("--json", action="store_true", help="the same figures as JSON")

    replay = sub.add_parser("replay", help="watch a recorded deal again, step by step")
    replay.add_argument("id", help="the deal id (shown by Stats and `stats`), or 'last'")

    export = sub.add_parser("export", help="export the history: one game as text, or CSV")
    what = export.add_subparsers(dest="what", required=True)
    log = what.add_parser("log", help="one game (every deal) as a text log")
    log.add_argument("game_id", type=int, help="the game id (shown by Stats)")
    log.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    csv = what.add_parser("csv", help="every recorded deal as CSV")
    csv.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")


def _fail(message: str, status: int = 1) -> int:
    print(f"twos-tui: {message}", file=sys.stderr)
    return status


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")


def run_stats_cli(args: argparse.Namespace) -> int:
    from .play import history, stats

    try:
        conn = history.open_history()
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        return _fail(str(e))
    try:
        if args.json:
            print(json.dumps(stats.stats_json(conn, args.variant), indent=2, ensure_ascii=False))
        else:
            sys.stdout.write(stats.stats_text(conn, args.variant))
    except ValueError as e:
        return _fail(str(e), 2)
    except sqlite3.Error as e:
        return _fail(f"cannot read the history: {e}")
    finally:
        conn.close()
    return 0


def run_replay_cli(args: argparse.Namespace) -> int:
    from .play import history
    from .play.replay import load_replay

    try:
        conn = history.open_history()
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        return _fail(str(e))
    try:
        if args.id == "last":
            deal_id = history.last_deal_id(conn)
            if deal_id is None:
                return _fail("the history has no deal yet", 2)
        else:
            try:
                deal_id = int(args.id)
            except ValueError:
                return _fail(f"a deal id is a number (or 'last'), not {args.id!r}", 2)
        try:
            load_replay(conn, deal_id)  # refuse here, before the app opens
        except (history.HistoryError, sqlite3.Error) as e:
            return _fail(str(e), 2)
    finally:
        conn.close()
    from .ui.app import run_app

    return run_app(replay=deal_id)


def run_export_cli(args: argparse.Namespace) -> int:
    from .play import history
    from .play.replay import export_csv, game_log

    try:
        conn = history.open_history()
    except (history.HistoryError, sqlite3.Error, OSError) as e:
        return _fail(str(e))
    try:
        text = game_log(conn, args.game_id) if args.what == "log" else export_csv(conn)
        _write(text, args.output)
    except (history.HistoryError, sqlite3.Error) as e:
        return _fail(str(e), 2)
    except OSError as e:
        return _fail(f"cannot write {args.output}: {e}")
    finally:
        conn.close()
    return 0
