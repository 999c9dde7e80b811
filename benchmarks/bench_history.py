"""History benchmark (not a test): opening Stats over a large history, and what recording
a finished deal adds to the keypress that ends it.

    .venv/bin/python benchmarks/bench_history.py [--deals 10000] [--opens 10] [--ends 20]
                                                 [--json]

* stats open: a history of ``--deals`` recorded deals (six games, or only Twos with
  ``--one-game``, the worst case for one game's figures; one or two human players,
  every AI level, an undo now and then; ~60 actions each) is written to a
  temporary data directory. Then, in the real app (headless, 80x24), ``s`` is pressed
  on the home screen and the time is taken from the key to the screen update after
  which the Stats screen showed its final state, the way ``bench_ui.py`` times keys
  (``timed_app.py``'s ``TimedApp``). ``escape`` goes back home between presses; the rules
  list (``r``) is timed the same way, alternating, as a yardstick for what opening any screen
  costs on the machine at the time. Also timed alone: ``stats.compute`` (every game's
  figures from the file) and what the Stats screen reads when it opens (one game's
  figures and its latest deals).
* deal end: positions where the human's play (Enter on a selection that empties the
  hand) ends a deal of 3-player Twos, found by the engine. Each is timed with recording
  on and off (alternating, same positions), key to final screen (the table showing the
  last play; the deal-end summary follows after the AI pace chosen, a pause the figure
  leaves out); the difference of the medians is what recording adds. Also timed:
  the recording hook's own time on the UI thread (building the record and queueing it),
  and the recorder thread's write time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timed_app import SETTLE, summary, timed_app_class  # noqa: E402

VARIANTS = [
    ("twos", "Twos", 3, "Deals won", False),
    ("big-two", "Big Two", 4, "Penalty", True),
    ("big-two-5r", "Big Two (five rounds)", 4, "Penalty", True),
    ("chinese-poker", "Chinese Poker", 4, "Penalty", True),
    ("2v1", "2v1", 3, "Coins", False),
    ("twos-tricks", "Twos (tricks)", 4, "Points", False),
]
LEVELS = ("easy", "normal", "hard")


async def settle(app) -> None:
    """Sleep until the screen has not changed for ``SETTLE`` seconds (at most 10 s): a
    busy machine may take longer than ``SETTLE`` to show the first frame."""
    end = time.perf_counter() + 10
    await asyncio.sleep(SETTLE)
    while time.perf_counter() < end:
        last = app.frames[-1][0] if app.frames else None
        if last is not None and time.perf_counter() - last >= SETTLE:
            return
        await asyncio.sleep(0.05)


def fill_history(deals: int, seed: int = 1, one_game: bool = False) -> None:
    """``deals`` synthetic deals in matches of 5, written as the recorder writes them
    (one transaction for the lot, to be quick); all of them Twos with ``one_game``."""
    from twos_tui.jsontypes import JsonValue
    from twos_tui.play import history
    from twos_tui.play.saves import SeatJson

    rng = random.Random(seed)
    conn = history.open_history()
    t0 = time.time() - deals * 60
    actions: list[JsonValue] = [[i % 3, {"kind": "play", "cards": ["3S", "3H"]}] for i in range(60)]
    with history.transaction(conn):
        match = 0
        n = 0
        while n < deals:
            match += 1
            variant, name, players, label, low = VARIANTS[0 if one_game else match % 6]
            humans = 2 if match % 17 == 0 else 1
            seats: list[SeatJson] = [
                {"name": "Ann" if i == 0 else "Bo", "kind": "human", "level": "normal"}
                if i < humans
                else {"name": f"Bot{i}", "kind": "ai", "level": LEVELS[(match + i) % 3]}
                for i in range(players)
            ]
            totals = [0] * players
            for d in range(1, 6):
                if n >= deals:
                    break
                n += 1
                key = f"bench-{match}"
                if rng.random() < 0.03:
                    history._write_undo(
                        conn,
                        {
                            "type": "undo",
                            "match_key": key,
                            "deal_number": d,
                            "seat": 0,
                            "taken_back": 2,
                            "at": 0,
                        },
                    )
                winner = rng.randrange(players)
                changes = [0 if s == winner else rng.randrange(1, 10) for s in range(players)]
                totals = [a + b for a, b in zip(totals, changes, strict=True)]
                ended = t0 + n * 60
                over = d == 5
                history._write_deal(
                    conn,
                    {
                        "type": "deal",
                        "match_key": key,
                        "variant": variant,
                        "variant_name": name,
                        "players": players,
                        "options": {},
                        "seed": match,
                        "names": [s["name"] for s in seats],
                        "seats": seats,
                        "score_label": label,
                        "low_score_wins": low,
                        "deal_number": d,
                        "first_action": 60 * (d - 1),
                        "actions": actions,
                        "prefix": [],
                        "changes": changes,
                        "totals": totals,
                        "winners": [winner],
                        "summary": f"{seats[winner]['name']} wins deal {d}.",
                        "details": [],
                        "started": ended - 50,
                        "ended": ended,
                        "duration": 50.0,
                        "match_over": over,
                        "match_winners": [min(range(players), key=totals.__getitem__)]
                        if over
                        else None,
                        "match_started": ended - 300,
                        "match_duration": 250.0,
                    },
                )
    conn.close()


async def bench_stats_open(opens: int) -> dict[str, list[float]]:
    """``s`` (Stats) on the home screen, and for comparison ``r`` (the rules list, a
    small screen with a list), alternating, timed the same way."""
    from textual import events

    from twos_tui.ui.screens.home import HomeScreen, RulesListScreen
    from twos_tui.ui.screens.stats import StatsScreen

    app = timed_app_class()(ai_pause=3600.0)
    out: dict[str, list[float]] = {"stats": [], "rules": []}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        for _ in range(opens):
            for key, screen in (("s", StatsScreen), ("r", RulesListScreen)):
                assert isinstance(app.screen, HomeScreen)
                app.post_message(events.Key(key, key))
                await settle(app)
                assert isinstance(app.screen, screen)
                if screen is StatsScreen:
                    # the history is read on a worker: timed until its figures are shown
                    for _ in range(100):
                        if app.screen.ready:
                            break
                        await app.workers.wait_for_complete()
                        await settle(app)
                    assert app.screen.deals, "the list of deals is empty"
                out["stats" if key == "s" else "rules"].append(app.updated_after())
                app.key_at = None
                await pilot.press("escape")
                await pilot.pause()
                await asyncio.sleep(0.1)
    return out


def deal_end_positions(count: int) -> list[dict]:
    """3-player Twos games (engine JSON) where seat 0 is to act and may play its whole
    hand at once, which ends the deal."""
    from twos_tui.ai import RandomAgent
    from twos_tui.engine import new_game

    found: list[dict] = []
    agent = RandomAgent()
    seed = 0
    while len(found) < count and seed < 5000:
        seed += 1
        g = new_game("twos", 3, {}, seed)
        rng = random.Random(seed)
        while not g.deal_over:
            seats = g.to_act()
            if 0 in seats:
                hand = g.observation(0)["hand"]
                win = [
                    a for a in g.legal_actions(0) if a.kind == "play" and len(a.cards) == len(hand)
                ]
                if win and len(hand) <= 4:
                    found.append({"game": g.to_json(), "cards": list(win[0].cards)})
                    break
            seat = seats[0]
            decision = g.decision(seat)
            assert decision is not None  # the seat is to act
            g.apply(seat, agent.choose(g.observation(seat), g.legal_actions(seat), decision, rng))
    return found


async def bench_deal_end(count: int) -> dict[str, list[float]]:
    from textual import events

    from twos_tui.engine import load_game
    from twos_tui.play import history
    from twos_tui.play.session import Session, default_seats
    from twos_tui.play.tracker import Tracker
    from twos_tui.ui.screens.dialogs import DealEndScreen
    from twos_tui.ui.screens.table import TableScreen

    positions = deal_end_positions(count)
    hook: list[float] = []
    original = Tracker.record

    def timed_hook(self, session):
        t = time.perf_counter()
        original(self, session)
        if session.record_history:
            hook.append(time.perf_counter() - t)

    Tracker.record = timed_hook  # type: ignore[method-assign]
    write: list[float] = []
    original_write = history.Recorder._write

    def timed_write(self, path, rec):
        t = time.perf_counter()
        original_write(self, path, rec)
        write.append(time.perf_counter() - t)

    history.Recorder._write = timed_write  # type: ignore[method-assign]
    out: dict[str, list[float]] = {"on": [], "off": []}
    app = timed_app_class()(ai_pause=3600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for i, pos in enumerate(positions):
            for mode in ("on", "off") if i % 2 else ("off", "on"):
                session = Session(load_game(pos["game"]), default_seats(3))
                session.record_history = mode == "on"
                app.start_session(session)
                await pilot.pause()
                await pilot.pause()
                s = app.screen
                assert isinstance(s, TableScreen) and s._decision is not None
                s.selected = set(pos["cards"])
                s._selection_changed()
                await pilot.pause()
                history.RECORDER.flush()
                app.post_message(events.Key("enter", "\r"))
                await settle(app)
                # the deal is over: the table shows the last play (the summary follows
                # after the pace chosen, a pause that is not part of the figure)
                assert isinstance(app.screen, (TableScreen, DealEndScreen)), app.screen
                assert s.game.deal_over
                out[mode].append(app.updated_after())
                app.key_at = None
                history.RECORDER.flush()
                app.go_home()
                await pilot.pause()
    Tracker.record = original  # type: ignore[method-assign]
    history.Recorder._write = original_write  # type: ignore[method-assign]
    out["hook"] = hook
    out["write"] = write
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--opens", type=int, default=10)
    ap.add_argument("--ends", type=int, default=20)
    ap.add_argument(
        "--one-game", action="store_true", help="every deal of the history in one game (Twos)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        from twos_tui.play import history, stats

        t = time.perf_counter()
        fill_history(args.deals, one_game=args.one_game)
        result["fill_s"] = round(time.perf_counter() - t, 2)
        conn = history.open_history()
        n = conn.execute("SELECT count(*) FROM deals").fetchone()[0]
        times = []
        for _ in range(5):
            t = time.perf_counter()
            stats.compute(conn)
            times.append(time.perf_counter() - t)
        reads = []  # what the Stats screen reads when it opens (one game's figures)
        for _ in range(5):
            t = time.perf_counter()
            stats.variant_counts(conn)
            v = history.latest_variant(conn)
            stats.compute(conn, v)
            history.recent_deals(conn, v, 15)
            reads.append(time.perf_counter() - t)
        conn.close()
        result["screen_reads_ms"] = summary(reads)
        result["recorded_deals"] = n
        result["compute_ms"] = summary(times)
        opened = asyncio.run(bench_stats_open(args.opens))
        result["first_stats_open_ms"] = round(opened["stats"][0] * 1000, 1)
        result["stats_open_ms"] = summary(opened["stats"])
        result["rules_open_ms"] = summary(opened["rules"])
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        ends = asyncio.run(bench_deal_end(args.ends)) if args.ends else None
    if ends is not None:
        on, off = summary(ends["on"]), summary(ends["off"])
        result["deal_end_key_ms"] = {
            "recording_on": on,
            "recording_off": off,
            "added_median_ms": round(on["median_ms"] - off["median_ms"], 1),
            "hook_on_ui_thread_ms": summary(ends["hook"]) if ends["hook"] else None,
            "recorder_write_ms": summary(ends["write"]) if ends["write"] else None,
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        c, s = result["compute_ms"], result["stats_open_ms"]
        print(f"history: {result['recorded_deals']} deals (written in {result['fill_s']} s)")
        print(f"stats.compute, every game: median {c['median_ms']} ms, max {c['max_ms']} ms")
        sr = result["screen_reads_ms"]
        print(
            f"what the Stats screen reads on opening (one game): median {sr['median_ms']} ms, "
            f"max {sr['max_ms']} ms"
        )
        r = result["rules_open_ms"]
        print(
            f"key 's' to Stats shown: median {s['median_ms']} ms, p90 {s['p90_ms']} ms, "
            f"max {s['max_ms']} ms ({s['n']} opens; the first {result['first_stats_open_ms']} ms)"
        )
        print(
            f"for comparison, key 'r' to the rules list: median {r['median_ms']} ms, "
            f"p90 {r['p90_ms']} ms"
        )
        d = result.get("deal_end_key_ms")
        if d is None:  # --ends 0
            return 0
        for mode in ("recording_on", "recording_off"):
            v = d[mode]
            print(
                f"deal-ending key, {mode.replace('_', ' ')}: median {v['median_ms']} ms, "
                f"p90 {v['p90_ms']} ms ({v['n']} presses)"
            )
        print(f"added by recording (difference of medians): {d['added_median_ms']} ms")
        if d["hook_on_ui_thread_ms"]:
            h = d["hook_on_ui_thread_ms"]
            print(
                f"recording hook on the UI thread: median {h['median_ms']} ms, "
                f"p90 {h['p90_ms']} ms, max {h['max_ms']} ms"
            )
        if d["recorder_write_ms"]:
            w = d["recorder_write_ms"]
            print(f"recorder thread, one deal: median {w['median_ms']} ms, max {w['max_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
