"""Issue 19, items 10-11: a save open in another app is never deleted under it; the
stale-lock takeover gives one owner at a time (an OS lock)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest
from saves_helpers import open_elsewhere
from ui_helpers import wait_for, wait_for_screen

from twos_tui.play import locks, saves
from twos_tui.play.session import Session


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    (tmp_path / "saves").mkdir()
    yield tmp_path
    locks.release_all()


def test_a_save_open_in_another_app_is_not_deleted(data_home):
    s = Session.start("twos", seed=8)
    s.close()
    path = saves.save_path(s.save_id)
    with open_elsewhere(data_home, s.save_id, "lock") as other:
        with pytest.raises(locks.SaveLocked) as err:
            locks.delete_locked_save(s.save_id)
        assert f"process {other.pid}" in err.value.who()
        assert path.exists()
    locks.delete_locked_save(s.save_id)  # nobody has it now
    assert not path.exists()


def test_a_save_open_at_a_table_of_this_app_is_not_deleted(data_home):
    s = Session.start("twos", seed=9)
    saves.WRITER.flush()
    assert s.locked and saves.save_path(s.save_id).exists()
    with pytest.raises(locks.SaveLocked, match="another table of this window"):
        locks.delete_locked_save(s.save_id)
    assert saves.save_path(s.save_id).exists()
    s.close()


RACER = textwrap.dedent(
    """
    import os, sys, time
    from twos_tui.play import locks
    go = sys.argv[2]
    while not os.path.exists(go):
        time.sleep(0.002)
    try:
        locks.acquire(sys.argv[1])
    except locks.SaveLocked:
        print("locked", flush=True)
    else:
        print("owner", flush=True)
        time.sleep(1.0)
    """
)


def test_concurrent_takeovers_of_a_stale_lock_leave_one_owner(data_home):
    env = dict(os.environ, TWOS_TUI_HOME=str(data_home))
    owners = []
    for rnd in range(4):
        save_id = f"race{rnd}"
        lock = locks.lock_path(save_id)
        # stale: written by a process that is gone
        lock.write_text(json.dumps({"pid": 999_999_999, "host": locks._HOST, "since": 0}))
        old = time.time() - 60
        os.utime(lock, (old, old))
        go = data_home / f"go{rnd}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", RACER, save_id, str(go)],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for _ in range(6)
        ]
        time.sleep(1.5)  # let them all start and wait for the signal
        go.touch()
        outs = [p.communicate(timeout=60)[0].strip() for p in procs]
        owners.append(outs.count("owner"))
    assert owners == [1, 1, 1, 1]


def test_direct_tries_never_give_two_owners(data_home):
    """Two descriptors of one process race as two apps would: the OS lock holds."""
    save_id = "direct"
    for _ in range(200):
        locks.acquire(save_id)
        fd = locks._open_lock_file(locks.lock_path(save_id))
        try:
            assert not locks._os_lock(fd)
        finally:
            os.close(fd)
        locks.release(save_id)


async def test_the_continue_list_refuses_to_delete_a_save_open_elsewhere(data_home):
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.dialogs import ConfirmDelete
    from twos_tui.ui.screens.home import ContinueScreen, HomeScreen

    s = Session.start("twos", seed=5)
    s.close()
    with open_elsewhere(data_home, s.save_id, "lock") as other:
        app = make_app(ai_pause=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for_screen(pilot, HomeScreen)
            await pilot.press("c")
            await wait_for_screen(pilot, ContinueScreen)
            await pilot.press("d")
            await wait_for_screen(pilot, ConfirmDelete)
            await pilot.press("y")
            await wait_for(pilot, lambda: list(app._notifications), "the notice")
            notes = [str(n.message) for n in app._notifications]
            assert any("Not deleted" in n and f"process {other.pid}" in n for n in notes), notes
            assert len(saves.list_saves()) == 1


# ----- item 12: saves checked as strictly as the game state ------------------------------


def good_save() -> dict:
    s = Session.start("twos", seed=11, autosave=False)
    seat = s.game.to_act()[0]
    s.apply(seat, s.game.legal_actions(seat)[0])
    s.count_hint(seat)
    return json.loads(json.dumps(s.to_json()))


def _set(path: tuple, value):
    def change(data: dict) -> dict:
        d = data
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
        return data

    return change


ODD = {
    "clock NaN as a string": (_set(("clock", "match"), "NaN"), "clock"),
    "clock infinite": (_set(("clock", "deal"), 1e308), "clock"),
    "clock a list": (_set(("clock",), [1, 2]), "clock"),
    "clock negative": (_set(("clock", "match"), -5), "clock"),
    "hints garbage": (_set(("hints",), "lots"), "hint counts"),
    "hints of no seat": (_set(("hints",), [[1, 9, 1]]), "hint counts"),
    "hints of a later deal": (_set(("hints",), [[999, 0, 1]]), "hint counts"),
    "hints count zero": (_set(("hints",), [[1, 0, 0]]), "hint counts"),
    "hints a float": (_set(("hints",), [[1, 0, 1.5]]), "hint counts"),
    "an unknown field": (_set(("surprise",), 1), "field no save has"),
    "a 401-digit seed": (_set(("game", "seed"), 10**401), "seed"),
    "app name a number": (_set(("app",), 7), "program"),
}


@pytest.mark.parametrize("case", list(ODD))
def test_odd_saves_are_refused_with_a_readable_reason(case):
    change, needle = ODD[case]
    data = change(good_save())
    with pytest.raises(saves.SaveError) as err:
        saves.load_save_data(data)
    assert needle in str(err.value), str(err.value)
    assert len(str(err.value)) < 200


def test_a_save_padded_with_blank_space_is_refused(data_home):
    raw = json.dumps(good_save()).encode()
    padded = raw[:1] + b" " * (15 * 2**20) + raw[1:]
    with pytest.raises(saves.SaveError, match="blank space"):
        saves.parse_save_bytes(padded)
    assert saves.parse_save_bytes(raw)  # the app's own compact file reads


def test_a_good_save_still_loads():
    loaded = saves.load_save_data(good_save())
    assert loaded.game.variant_id == "twos"
