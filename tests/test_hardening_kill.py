"""Issue 9, tests and figures: kill -9 at random moments of a twos-tui process playing.

A driver process plays AI-only games through the play layer (``Session``: autosave
after every move, the save lock, the start-up clean-up of temporary files, exactly what
the app does) and prints each move once its save is on disk. The test kills it with
SIGKILL at a random moment, checks the saves folder, and starts the next driver, which
resumes the game. After every kill: no unreadable save, no move lost beyond the one in
flight (the save holds at least every move reported as saved), and after the next start
no temporary file of a dead process is left.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from twos_tui.play import saves

KILLS = 30

DRIVER = textwrap.dedent(
    """
    import sys
    from twos_tui.play import saves
    from twos_tui.play.session import Session, default_seats

    VARIANTS = ("twos", "2v1", "big-two", "twos-tricks", "chinese-poker")
    saves.remove_stray_temp_files()  # what the app does when it starts
    infos = saves.list_saves()
    n = len(saves.scan_saves())
    s = Session.resume(infos[0]) if infos else None
    print("started", flush=True)
    while True:
        if s is None or s.game.match_over:
            v = VARIANTS[n % len(VARIANTS)]
            n += 1
            from twos_tui.engine import variant_class
            players = variant_class(v).default_players
            s = Session.start(v, default_seats(players, humans=0), seed=n)
        s.flush()  # a new game's first save is on disk before it is reported
        print("id", s.save_id, len(s.game.actions), flush=True)
        while not s.game.deal_over:
            seat = s.ai_to_act()[0]
            s.apply(seat, s.ai_choose(seat))
            s.flush()  # on disk: only now is the move reported as saved
            print("saved", s.save_id, len(s.game.actions), flush=True)
        if not s.game.match_over:
            s.next_deal()
            s.flush()
        else:
            s.close()
    """
)


def tmp_files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_nothing(tmp_path, monkeypatch):
    env = dict(os.environ, TWOS_TUI_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))  # this process checks the same folder
    folder = tmp_path / "saves"
    folder.mkdir()
    rng = random.Random(2024)
    reported: dict[str, int] = {}  # save id -> most moves reported as saved
    kills = unreadable = lost = mid_write = 0
    stray_after_start = []
    finished: set[str] = set()  # saves seen on disk with their match over
    for _ in range(KILLS):
        p = subprocess.Popen([sys.executable, "-c", DRIVER], stdout=subprocess.PIPE, env=env)
        fd = p.stdout.fileno()  # read with os.read only (no buffer hides a line)
        out = b""
        while b"\n" not in out:
            chunk = os.read(fd, 65536)
            assert chunk, "the driver did not start"
            out += chunk
        first, _, out = out.partition(b"\n")
        assert first == b"started"
        # the previous driver was killed: after this start none of its temp files is left
        stray_after_start += [f for f in tmp_files(folder) if f".{p.pid}." not in f]
        deadline = time.monotonic() + rng.uniform(0.05, 0.8)
        os.set_blocking(fd, False)
        while time.monotonic() < deadline:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                chunk = b""
            out += chunk or b""
            if not chunk:
                time.sleep(0.002)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        kills += 1
        mid_write += bool(tmp_files(folder))  # killed while a save was being written
        os.set_blocking(fd, True)
        while chunk := os.read(fd, 65536):
            out += chunk
        lines = out.decode().splitlines(keepends=True)  # what it printed before it died
        for line in lines:
            parts = line.split()
            # only whole lines count: a line cut by the kill reported nothing
            if line.endswith("\n") and len(parts) == 3 and parts[0] in ("saved", "id"):
                sid, n = parts[1], int(parts[2])
                reported[sid] = max(reported.get(sid, 0), n)
        # every save on disk is whole and valid, and holds every move reported saved
        on_disk_finished = 0
        for info in saves.scan_saves():
            if not info.ok:
                unreadable += 1
                continue
            if info.match_over:
                finished.add(info.save_id)
                on_disk_finished += 1
            data = saves.read_save(info.path)
            have = len(data["game"]["actions"])
            want = reported.get(info.save_id, 0)
            if have < want:
                lost += 1
            assert have <= want + 1, "a move was saved that was never made"
        for sid in reported:
            if (folder / f"{sid}.json").exists():
                continue
            # only a finished game's save may go, and only by the pruning of old finished
            # saves (the newest saves.KEEP_SAVES finished ones stay)
            assert sid in finished, "a reported save of an unfinished game is missing"
            assert on_disk_finished >= saves.KEEP_SAVES, "a finished save went too early"
    # one more start (as the app would): no temporary file is left behind
    subprocess.run(
        [sys.executable, "-c", "from twos_tui.play import saves; saves.remove_stray_temp_files()"],
        env=env,
        check=True,
    )
    print(
        f"\nkill -9: {kills} kills, {len(reported)} games, "
        f"{sum(reported.values())} moves reported saved, {len(finished)} matches finished, "
        f"{mid_write} kills mid-write, "
        f"{unreadable} unreadable saves, "
        f"{lost} lost moves, {len(stray_after_start)} stray temp files after a start"
    )
    assert kills >= 30
    assert unreadable == 0 and lost == 0
    assert stray_after_start == []
    assert tmp_files(folder) == []
    assert sum(reported.values()) > 0
