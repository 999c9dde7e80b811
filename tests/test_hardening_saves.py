"""Issue 9, saves (cases 1-7) and issue 11 item 2 (format versions, a read-only or
full disk): every file in the saves folder is read safely and validated as a whole;
a bad one is listed apart with its reason and can be moved aside with its bytes kept;
a newer one is refused and never written over; writes never follow a planted link;
a save open in one app is locked against another."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from saves_helpers import crafted_saves, open_elsewhere, place, real_save, snapshot

from twos_tui.play import locks, saves
from twos_tui.play.saves import SaveError
from twos_tui.play.session import Session

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    (tmp_path / "saves").mkdir()
    return tmp_path


@pytest.fixture
def folder(data_home) -> Path:
    return data_home / "saves"


def within(seconds: float, fn, *args):
    """``fn(*args)``, failing the test if it has not returned after ``seconds`` (a
    FIFO once hung the listing for good)."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn(*args)
        except BaseException as e:  # handed to the test below
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn.__name__} did not return within {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


CRAFTED = crafted_saves()


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_a_bad_save_is_listed_apart_with_its_reason(folder, name):
    good = real_save("twos", moves=3)
    saves.write_save("good-one", good)
    place(folder, name, CRAFTED[name])
    before = snapshot(folder)
    infos = within(20, saves.scan_saves)
    # the good save stays reachable, first
    assert [i.save_id for i in saves.list_saves()] == ["good-one"]
    bad = [i for i in infos if i.save_id == name]
    assert len(bad) == 1, infos
    info = bad[0]
    assert info.status == ("newer" if name == "format-999" else "damaged")
    assert info.problem and len(info.problem) < 400
    assert snapshot(folder) == before  # nothing was changed or written over


def test_every_crafted_save_at_once(folder):
    for name, content in CRAFTED.items():
        place(folder, name, content)
    infos = within(60, saves.scan_saves)
    assert {i.save_id for i in infos} == set(CRAFTED)
    assert all(not i.ok for i in infos)
    reasons = {i.save_id: i.problem for i in infos}
    assert "symbolic link" in reasons["dev-zero-link"]
    assert "not a regular file" in reasons["fifo"]
    assert "folder" in reasons["a-folder"]
    assert "too large" in reasons["fifty-mb"]
    assert "empty" in reasons["empty"]
    assert "not text" in reasons["binary"]
    assert "nested too deeply" in reasons["deep-nesting"]
    assert "not valid JSON" in reasons["truncated"]
    assert "Infinity" in reasons["deal-infinity"]
    assert "NaN" in reasons["updated-nan"]
    assert "not a time" in reasons["updated-huge"]
    assert "hearts" in reasons["unknown-variant"]
    assert "seats" in reasons["three-seats-for-four"] and "seats" in reasons["no-seats"]
    assert "names" in reasons["two-names-for-four"]
    assert "players" in reasons["players-1000"]
    assert "generator" in reasons["bad-ai-rng"]
    assert "history" in reasons["history-not-objects"]
    assert "current" in reasons["current-7"] and "current" in reasons["current-minus-1"]
    assert "ZZ" in reasons["card-ZZ"] and "17" in reasons["card-17"]
    assert "held twice" in reasons["duplicated-card"]
    assert "missing" in reasons["three-missing"]
    assert "not a combination" in reasons["top-no-combination"]
    assert "totals" in reasons["string-totals"]
    assert "newer" in reasons["format-999"] and "update twos-tui" in reasons["format-999"]
    assert "nosuch" in reasons["2v1-phase-nosuch"]
    assert "no cards" in reasons["lead-empty-hand"]


def test_an_unreadable_file_is_listed_with_its_reason(folder, monkeypatch):
    path = place(folder, "locked-away", real_save())
    real_open = os.open

    def deny(p, *a, **kw):  # chmod 000 does not stop root: refuse as the system would
        if str(p) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(p))
        return real_open(p, *a, **kw)

    monkeypatch.setattr(os, "open", deny)
    (info,) = saves.scan_saves()
    assert info.status == "damaged" and "permission denied" in info.problem


@pytest.mark.parametrize("name", sorted(k for k, v in CRAFTED.items() if isinstance(v, dict)))
def test_resuming_a_bad_save_says_why(name):
    """Session.from_json validates as a whole: a SaveError with the reason, never an
    exception from deep inside the engine."""
    with pytest.raises(SaveError) as err:
        Session.from_json(CRAFTED[name], autosave=False)
    assert str(err.value)


def test_a_newer_save_is_refused_and_never_written_over(folder):
    data = real_save()
    data["format"] = saves.SAVE_FORMAT + 1
    data["app"] = "twos-tui 9.0"
    path = place(folder, "from-the-future", data)
    raw = path.read_bytes()
    (info,) = saves.scan_saves()
    assert info.status == "newer" and "twos-tui 9.0" in info.problem
    with pytest.raises(saves.NewerSaveError):
        Session.resume(info)
    saves.prune_saves(keep=0)
    assert path.read_bytes() == raw


def test_damaged_saves_move_aside_bytes_kept_nothing_overwritten(folder):
    first = place(folder, "x", b"\x00garbage one")
    moved = saves.move_to_damaged(first)
    assert moved == folder / "damaged" / "x.json"
    assert moved.read_bytes() == b"\x00garbage one" and not first.exists()
    second = place(folder, "x", b"garbage two")
    moved2 = saves.move_to_damaged(second)
    assert moved2.name == "x.1.json" and moved2.read_bytes() == b"garbage two"
    assert moved.read_bytes() == b"\x00garbage one"
    # a folder and a link move too (the link itself, never its target)
    os.mkdir(folder / "d.json")
    assert saves.move_to_damaged(folder / "d.json").is_dir()
    os.symlink("/etc/hostname", folder / "l.json")
    assert (saves.move_to_damaged(folder / "l.json")).is_symlink()
    assert saves.scan_saves() == []  # damaged/ is not listed as saves


# ----- case 6: writes -------------------------------------------------------------------


def test_a_planted_tmp_link_is_never_followed(folder, tmp_path):
    target = tmp_path / "outside.txt"
    target.write_text("precious")
    os.symlink(target, folder / "game-1.tmp")  # the name the old writer used
    saves.write_save("game-1", real_save())
    assert target.read_text() == "precious"
    assert saves.list_saves()[0].save_id == "game-1"
    # a link in place of the save itself is not written through either
    os.symlink(target, folder / "game-2.json")
    with pytest.raises(OSError):
        saves.write_save("game-2", real_save())
    assert target.read_text() == "precious"


def test_temporary_files_are_exclusive_and_synced_before_the_rename(folder, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    real_mkstemp = saves.tempfile.mkstemp

    def mkstemp(*a, **kw):
        fd, name = real_mkstemp(*a, **kw)
        calls.append(("create", Path(name).parent))
        return fd, name

    monkeypatch.setattr(saves.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync",)), real_fsync(fd)))
    monkeypatch.setattr(
        os, "replace", lambda a, b: (calls.append(("replace",)), real_replace(a, b))
    )
    saves.write_save("g", real_save())
    assert calls[0] == ("create", folder)  # in the saves folder (same file system)
    assert calls.index(("fsync",)) < calls.index(("replace",))
    assert [p.name for p in folder.iterdir()] == ["g.json"]


def test_stray_temporary_files_are_removed_at_start(folder):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    (folder / f".g.{dead}.abcd.tmp").write_text("half a save")
    (folder / "g.tmp").write_text("the old writer's leftover")
    mine = folder / f".h.{os.getpid()}.abcd.tmp"
    mine.write_text("being written")
    assert saves.remove_stray_temp_files() == 2
    assert [p.name for p in folder.iterdir()] == [mine.name]


def test_ids_that_could_escape_the_folder_are_refused():
    for bad in ("../x", "a/b", "", ".hidden", "x" * 200, "a\nb"):
        with pytest.raises(ValueError):
            saves.write_save(bad, "{}")


def test_a_300_digit_seed_saves(folder):
    s = Session.start("twos", seed=10**300 + 7)
    s.flush()
    assert saves.WRITER.error is None
    (info,) = saves.list_saves()
    assert len(info.path.name) < 100
    assert Session.resume(info, copy=True).game.seed == 10**300 + 7


# ----- issue 11, item 2: formats, read-only and full disks -----------------------------


@pytest.mark.parametrize("name", ["save_format_1_big_two.json", "save_format_1_2v1.json"])
def test_a_format_1_save_migrates(folder, name):
    """Saves exactly as twos-tui 0.1 wrote them (``Session.to_json()`` with format 1)."""
    old = json.loads((DATA / name).read_text())
    assert old["format"] == 1 and "created" not in old
    path = place(folder, "old", old)
    (info,) = saves.list_saves()
    assert info.ok and info.updated == old["updated"]
    s = Session.resume(info)
    now = s.game.to_json()
    # keys the game gained since format 1 come in empty (a climbing game's last trick)
    assert now.pop("last_trick", None) is None
    assert now == old["game"]
    assert [x.level for x in s.seats] == [
        {"basic": "normal"}.get(x["level"], x["level"]) for x in old["seats"]
    ]
    assert s.created == old["updated"]
    seat = s.game.to_act()[0]
    s.apply(seat, s.game.legal_actions(seat)[0])
    s.close()
    new = json.loads(path.read_text())
    assert new["format"] == saves.SAVE_FORMAT == 2
    assert new["app"].startswith("twos-tui") and new["created"] == old["updated"]
    assert new["game"]["actions"][: len(old["game"]["actions"])] == old["game"]["actions"]


def test_a_save_without_a_format_is_damaged(folder):
    data = real_save()
    del data["format"]
    place(folder, "nofmt", data)
    (info,) = saves.scan_saves()
    assert info.status == "damaged" and "format" in info.problem


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk_gives_one_notice_and_play_goes_on(monkeypatch, code):
    s = Session.start("twos", seed=4)
    s.flush()
    real_mkstemp = saves.tempfile.mkstemp

    def broken(*a, **kw):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(saves.tempfile, "mkstemp", broken)
    notices = []
    for _ in range(6):
        g = s.game
        if g.deal_over:
            break
        seat = g.to_act()[0]
        s.apply(seat, g.legal_actions(seat)[0])  # play goes on
        s.flush()
        if s.save_error:
            notices.append(s.save_error)
    assert len(notices) == 1, notices  # once, not after every move
    assert ("full" if code == errno.ENOSPC else "cannot be written") in notices[0]
    assert "Play on" in notices[0] and "[" not in notices[0]
    monkeypatch.setattr(saves.tempfile, "mkstemp", real_mkstemp)
    seat = s.game.to_act()[0]
    s.apply(seat, s.game.legal_actions(seat)[0])
    s.flush()
    s.save()
    assert s.save_failing is None
    (info,) = saves.list_saves()
    assert Session.resume(info, copy=True).game.to_json() == s.game.to_json()
    s.close()


# ----- case 7: two apps on one save ----------------------------------------------------


def test_a_save_open_in_another_app_is_locked_and_offered_as_a_copy(folder, data_home):
    first = Session.start("twos", seed=8)
    first.close()
    with open_elsewhere(data_home, first.save_id) as other:
        (info,) = saves.list_saves()
        assert locks.holder(info.save_id)["pid"] == other.pid
        with pytest.raises(locks.SaveLocked) as err:
            Session.resume(info)
        assert "another twos-tui window" in str(err.value) and str(other.pid) in str(err.value)
        copy = Session.resume(info, copy=True)
        assert copy.save_id != info.save_id
        seat = copy.game.to_act()[0]
        copy.apply(seat, copy.game.legal_actions(seat)[0])
        copy.close()
    # the other app was killed: its lock is stale and the save opens again
    original = next(i for i in saves.list_saves() if i.save_id == info.save_id)
    assert locks.holder(original.save_id) is None
    again = Session.resume(original)
    assert again.locked
    again.close()
    assert not (folder / f"{info.save_id}.lock").exists()
    assert len(saves.list_saves()) == 2  # the copy is a save of its own


def test_a_lock_of_a_reused_pid_is_stale(folder):
    """A lock whose pid now belongs to another program (another start time) is stale."""
    s = Session.start("twos", seed=1)
    s.close()
    lock = locks.lock_path(s.save_id)
    lock.write_text(json.dumps({"pid": 1, "host": locks._HOST, "start": "0", "since": 0}))
    (info,) = saves.list_saves()
    resumed = Session.resume(info)
    assert resumed.locked
    resumed.close()


def test_garbage_in_a_lock_file_is_stale(folder):
    s = Session.start("twos", seed=1)
    s.close()
    lock = locks.lock_path(s.save_id)
    lock.write_bytes(b"\xff" * 10)
    old = time.time() - 60
    os.utime(lock, (old, old))
    resumed = Session.resume(saves.list_saves()[0])
    assert resumed.locked
    resumed.close()


def test_one_app_cannot_open_a_save_at_two_tables(folder):
    s = Session.start("twos", seed=2)
    s.flush()
    (info,) = saves.list_saves()
    with pytest.raises(locks.SaveLocked, match="another table of this window"):
        Session.resume(info)
    s.close()
    again = Session.resume(info)
    assert again.locked
    again.close()
