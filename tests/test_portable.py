"""The save locks and process checks on Windows and macOS (issue 20 item 1).

No Windows machine runs these tests: the Windows branch is exercised here on Linux by
setting ``sys.platform`` to ``"win32"`` and standing in for ``msvcrt`` (byte-range locks,
kept per open file like Windows keeps them per handle) and for kernel32 (the process
queries). ``os.kill`` is made to fail the test if it is ever called on "Windows" (there it
would terminate the process instead of checking it). ``os.name`` is left alone: pathlib
picks its path class from it.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
import types
from pathlib import Path

import pytest

from twos_tui.play import locks, procs, saves

PACKAGE = Path(__file__).resolve().parent.parent / "twos_tui"


class FakeMsvcrt(types.ModuleType):
    """``msvcrt.locking`` as Windows does it: a byte range of a file, locked by one open
    file at a time, non-blocking; locking a held range raises ``OSError``."""

    LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.held: dict[tuple[int, int, int], int] = {}  #: (dev, ino, offset) -> fd
        self.offsets: list[int] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        st = os.fstat(fd)
        offset = os.lseek(fd, 0, os.SEEK_CUR)
        self.offsets.append(offset)
        key = (st.st_dev, st.st_ino, offset)
        if mode == self.LK_UNLCK:
            if self.held.get(key) != fd:
                raise OSError(13, "Permission denied")
            del self.held[key]
            return
        if key in self.held:
            raise OSError(36, "Resource deadlock avoided")
        self.held[key] = fd


class FakeKernel32:
    """The kernel32 calls procs makes: processes by pid -> (exit code, creation time)."""

    def __init__(self) -> None:
        self.procs: dict[int, tuple[int, int]] = {}
        self.denied: set[int] = set()
        self.open_handles: set[int] = set()
        self.error = 0

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int:  # noqa: N802
        assert access == procs._PROCESS_QUERY_LIMITED_INFORMATION
        if pid in self.denied:
            self.error = procs._ERROR_ACCESS_DENIED
            return 0
        if pid not in self.procs:
            self.error = 87  # ERROR_INVALID_PARAMETER: no such process
            return 0
        handle = 1000 + pid
        self.open_handles.add(handle)
        return handle

    def GetExitCodeProcess(self, handle: int, code) -> int:  # noqa: N802
        code._obj.value = self.procs[handle - 1000][0]
        return 1

    def GetProcessTimes(self, handle: int, created, exited, kernel, user) -> int:  # noqa: N802
        created._obj.value = self.procs[handle - 1000][1]
        return 1

    def CloseHandle(self, handle: int) -> int:  # noqa: N802
        self.open_handles.remove(handle)
        return 1


def _no_kill(*a, **kw):
    raise AssertionError("os.kill was called on Windows (it would end the process)")


@pytest.fixture
def windows(monkeypatch, tmp_path):
    """This process as if on Windows: (fake msvcrt, fake kernel32)."""
    fake = FakeMsvcrt()
    kernel = FakeKernel32()
    kernel.procs[os.getpid()] = (procs._STILL_ACTIVE, 123456789)
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(procs, "_kernel32", kernel)
    monkeypatch.setattr(procs, "_last_error", lambda: kernel.error)
    monkeypatch.setattr(os, "kill", _no_kill)
    yield fake, kernel
    locks.release_all()  # (still "on Windows": released the Windows way)
    assert not kernel.open_handles, "a process handle was left open"


def test_windows_lock_names_the_owner_and_is_released(windows):
    fake, _ = windows
    locks.acquire("g1")
    path = locks.lock_path("g1")
    assert fake.held and all(o == locks.WIN_LOCK_OFFSET for (_, _, o) in fake.held)
    assert locks.WIN_LOCK_OFFSET > locks.MAX_LOCK_BYTES  # the record stays readable
    record = json.loads(path.read_bytes())
    assert record["pid"] == os.getpid() and record["lock"] == "os"
    assert record["start"] == "win:123456789"

    # another open file (as another process would) cannot take it, and learns who has it
    owner = locks.holder("g1")
    assert owner is not None and owner["pid"] == os.getpid()
    text = str(locks.SaveLocked("g1", dict(owner, host="elsewhere", user="ann")))
    assert f"process {os.getpid()}, user ann on elsewhere" in text

    locks.release("g1")
    assert not fake.held  # unlocked explicitly, not left to the close
    assert path.exists() and path.read_bytes() == b""  # (Windows cannot remove it open)
    assert locks.holder("g1") is None
    locks.acquire("g1")  # free again
    locks.release("g1")
    assert set(fake.offsets) == {locks.WIN_LOCK_OFFSET}


def test_windows_stale_record_of_a_gone_owner_is_free_even_if_its_pid_runs(windows):
    _, kernel = windows
    kernel.procs[4242] = (procs._STILL_ACTIVE, 1)  # the pid now belongs to another program
    path = locks.lock_path("g2")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": 4242, "host": locks._HOST, "lock": "os"}))
    locks.acquire("g2")  # written under the OS lock, which is free: its owner is gone
    locks.release("g2")


def test_windows_record_of_an_older_app_is_respected_while_it_runs(windows):
    _, kernel = windows
    kernel.procs[4243] = (procs._STILL_ACTIVE, 7)
    path = locks.lock_path("g3")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": 4243, "host": locks._HOST, "start": "win:7"}))
    with pytest.raises(locks.SaveLocked, match="process 4243"):
        locks.acquire("g3")
    kernel.procs[4243] = (0, 7)  # it exited
    locks.acquire("g3")
    locks.release("g3")


def test_windows_process_checks(windows):
    _, kernel = windows
    kernel.procs[10] = (procs._STILL_ACTIVE, 111)
    kernel.procs[11] = (0, 222)  # exited, handle still known
    kernel.denied.add(12)  # another user's service
    assert procs.pid_alive(10)
    assert not procs.pid_alive(11)
    assert procs.pid_alive(12)
    assert not procs.pid_alive(13)
    assert not procs.pid_alive(0) and not procs.pid_alive(-5)
    assert procs.process_start(10) == "win:111" != procs.process_start(11)
    assert procs.process_start(13) is None


def test_windows_stray_temp_files(windows):
    _, kernel = windows
    kernel.procs[501] = (procs._STILL_ACTIVE, 1)
    d = saves.saves_dir()
    d.mkdir(parents=True, exist_ok=True)
    live = d / ".game-1.501.abc.tmp"
    dead = d / ".game-2.502.abc.tmp"
    live.write_text("x")
    dead.write_text("x")
    assert saves.remove_stray_temp_files() == 1
    assert live.exists() and not dead.exists()


def test_macos_has_no_proc_and_still_locks(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    opened: list[str] = []
    real_open = open

    def spy(file, *a, **kw):
        opened.append(str(file))
        return real_open(file, *a, **kw)

    monkeypatch.setattr("builtins.open", spy)
    assert procs.process_start(os.getpid()) is None
    assert not any(p.startswith("/proc") for p in opened)
    assert procs.pid_alive(os.getpid())  # POSIX: signal 0
    locks.acquire("m1")
    try:
        assert locks.held_here("m1")
        assert json.loads(locks.lock_path("m1").read_bytes())["start"] is None
    finally:
        locks.release("m1")
    assert not locks.lock_path("m1").exists()


def test_linux_start_time_tells_processes_apart():
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    assert procs.process_start(os.getpid()) is not None
    assert procs.process_start(os.getpid()) == procs.process_start(os.getpid())


#: signals Windows' ``signal`` module lacks (SIGINT, SIGTERM, SIGABRT... it has)
POSIX_ONLY_SIGNALS = "HUP|KILL|QUIT|USR1|USR2|WINCH|CHLD|PIPE|ALRM|CONT|STOP|TSTP|TTIN|TTOU"


#: modules that only run on POSIX systems (their entry refuses elsewhere with a sentence):
#: the SSH door gives each guest a pseudo-terminal (pty, termios, fcntl)
POSIX_ONLY_MODULES = {"play/net/ssh_door.py"}


def test_no_platform_specific_call_outside_its_guard():
    """``os.kill`` and ``/proc`` only in procs (behind their platform checks); ``fcntl`` and
    ``msvcrt`` only in the lock module; a POSIX-only signal only through
    ``getattr(signal, "SIG...", None)``; asyncio's signal handlers (missing on Windows)
    only where NotImplementedError is handled."""
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(PACKAGE).as_posix()
        if rel != "play/procs.py":
            assert "os.kill(" not in text, rel
            assert "/proc/" not in text, rel
        if rel in POSIX_ONLY_MODULES:
            # the whole module is POSIX-only, and says so before anything starts
            assert 'os.name != "posix"' in text, rel
        elif rel != "play/locks.py":
            assert not re.search(r"import (fcntl|msvcrt)|\bfcntl\.|msvcrt\.", text), rel
        m = re.search(rf"signal\.SIG({POSIX_ONLY_SIGNALS})\b", text)
        assert m is None or rel in POSIX_ONLY_MODULES, (
            f"{rel}: {m and m.group()} does not exist on Windows"
        )
        if "add_signal_handler" in text:
            assert "NotImplementedError" in text, rel


def test_ctypes_pieces_work_here():
    """The ctypes values procs hands to kernel32 are real ctypes objects."""
    v = procs._ulong()
    ref = procs._byref(v)
    ref._obj.value = 259
    assert v.value == 259 and isinstance(procs._filetime(), ctypes.c_ulonglong)
