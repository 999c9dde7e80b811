"""Several writers at once: two app instances (separate processes, as two terminals
would be) finishing games into one history, a burst of records from two processes while
a third holds the write lock, and a lock held for longer than a writer will wait. No
row may be lost or doubled, and nothing may fail with "database is locked"."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from twos_tui.play import history

APP_SCRIPT = r"""
import asyncio, random, sys, time
from twos_tui.play import history
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.dialogs import DealEndScreen, KeyGuard
from twos_tui.ui.screens.table import TableScreen
KeyGuard.GUARD = 0.0  # the deal-end dialog takes Enter at once (keys come every frame)

WANT, SEED = int(sys.argv[1]), int(sys.argv[2])

async def main():
    rng = random.Random(SEED)
    app = make_app("2v1", seed=SEED, ai_pause=0)
    finished = 0
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = time.monotonic() + 240  # in seconds (busy machine), within the 300 s below
        while time.monotonic() < deadline:
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, DealEndScreen):
                finished += 1
                if finished >= WANT:
                    break
                await pilot.press("enter")  # next deal, or play again at the match end
            elif isinstance(screen, TableScreen) and screen._decision is not None:
                legal = screen.session.game.legal_actions(screen.viewer)
                screen.act(rng.choice(legal))
        else:
            raise SystemExit(f"only {finished} of {WANT} deals finished in 240 s")
    history.RECORDER.flush()
    assert history.RECORDER.error is None, history.RECORDER.error
    print("finished", finished)

asyncio.run(main())
"""

BURST_SCRIPT = r"""
import sys
from twos_tui.play import history

who, n = sys.argv[1], int(sys.argv[2])
seats = [{"name": who, "kind": "human", "level": "normal"},
         {"name": "Bot", "kind": "ai", "level": "easy"}]
for i in range(n):
    history.RECORDER.submit({
        "type": "deal", "match_key": f"{who}-{i // 3}", "variant": "big-two",
        "variant_name": "Big Two", "players": 2, "options": {}, "seed": i,
        "names": [who, "Bot"], "seats": seats, "score_label": "Penalty",
        "low_score_wins": True, "deal_number": i % 3 + 1, "first_action": 0,
        "actions": [[0, {"kind": "pass"}]], "prefix": [], "changes": [i % 2, 1],
        "totals": [0, 0], "winners": [i % 2], "summary": f"{who} {i}", "details": [],
        "started": 0.0, "ended": float(i), "duration": 1.0, "match_over": i % 3 == 2,
        "match_winners": [0] if i % 3 == 2 else None, "match_started": 0.0,
        "match_duration": 3.0,
    })
history.RECORDER.flush()
assert history.RECORDER.error is None, history.RECORDER.error
print("ok", history.RECORDER.written)
"""


def _env(home) -> dict[str, str]:
    env = dict(os.environ)
    env["TWOS_TUI_HOME"] = str(home)
    return env


def test_two_app_instances_record_at_once(tmp_path):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", APP_SCRIPT, "4", str(seed)],
            env=_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-3000:]
        assert "finished 4" in out
        assert "locked" not in err
    conn = sqlite3.connect(tmp_path / "history.sqlite3")
    assert conn.execute("SELECT count(*) FROM deals").fetchone()[0] == 8
    assert (
        conn.execute("SELECT count(DISTINCT match_id || '/' || deal_number) FROM deals").fetchone()[
            0
        ]
        == 8
    )
    # one human per table: one result row per deal, none doubled
    assert conn.execute("SELECT count(*) FROM results").fetchone()[0] == 8
    keys = [r[0] for r in conn.execute("SELECT match_key FROM matches")]
    assert len(keys) == len(set(keys)) >= 2
    # every deal replays
    c = history.open_history(tmp_path / "history.sqlite3")
    from twos_tui.play.replay import load_replay

    for (deal_id,) in c.execute("SELECT id FROM deals"):
        load_replay(c, deal_id)


def test_bursts_from_two_processes_while_a_third_holds_the_lock(tmp_path):
    path = tmp_path / "history.sqlite3"
    history.open_history(path).close()
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # nobody can write until it lets go
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", BURST_SCRIPT, who, "150"],
            env=_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("Ann", "Bo")
    ]
    time.sleep(1.5)
    locker.execute("COMMIT")
    locker.close()
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        assert "ok 150" in out
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM deals").fetchone()[0] == 300
    assert conn.execute("SELECT count(*) FROM results").fetchone()[0] == 300
    assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 100
    per = dict(conn.execute("SELECT player, count(*) FROM results GROUP BY player").fetchall())
    assert per == {"Ann": 150, "Bo": 150}
    assert not (tmp_path / "history-pending").exists() or not list(
        (tmp_path / "history-pending").glob("*.json")
    )


def test_a_lock_held_too_long_keeps_the_record_for_later(tmp_path, monkeypatch):
    monkeypatch.setattr(history, "BUSY_TIMEOUT_S", 0.05)
    monkeypatch.setattr(history, "WRITE_ATTEMPTS", 2)
    path = tmp_path / "history.sqlite3"
    history.open_history(path).close()
    from test_history_stats import A, deal

    rec = history.Recorder()
    errors: list[str] = []
    rec.on_error = errors.append
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        rec.submit(deal("K", A, 1, [0], [0, 1, 1, 1]), path)
        assert rec.flush(timeout=30)
    finally:
        locker.execute("COMMIT")
        locker.close()
    assert rec.error and "kept to be written later" in rec.error and errors == [rec.error]
    pending = list((tmp_path / "history-pending").glob("*.json"))
    assert len(pending) == 1
    # the next write, once the lock is gone, writes the kept record too
    rec.submit(deal("K", A, 2, [1], [1, 0, 1, 1]), path)
    rec.flush()
    rec.close()
    assert rec.error is None
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT deal_number FROM deals ORDER BY deal_number")] == [
        1,
        2,
    ]
    assert not list((tmp_path / "history-pending").glob("*.json"))


def test_readers_do_not_wait_for_a_writer(tmp_path):
    """WAL: the Stats screen can read while another instance is writing."""
    path = tmp_path / "history.sqlite3"
    history.open_history(path).close()
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute(
        "INSERT INTO undos (match_key, deal_number, seat, taken_back, at) VALUES ('x', 1, 0, 1, 0)"
    )
    done = threading.Event()
    counts = []

    def read():
        c = history.open_history(path)
        counts.append(c.execute("SELECT count(*) FROM undos").fetchone()[0])
        c.close()
        done.set()

    t = threading.Thread(target=read)
    t.start()
    assert done.wait(timeout=history.BUSY_TIMEOUT_S / 2)
    writer.execute("COMMIT")
    t.join()
    assert counts == [0]


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
