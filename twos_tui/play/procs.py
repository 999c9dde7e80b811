"""Is a process still running, and when did it start: the same questions on Linux, macOS
and Windows.

* :func:`pid_alive`: POSIX asks the kernel with signal 0 (``os.kill(pid, 0)`` sends
  nothing, it only checks). On Windows ``os.kill`` with any signal but the two console
  events *terminates* the process, so it is never called there: the process is opened for
  a query (``OpenProcess``) and its exit code read (``GetExitCodeProcess``: ``STILL_ACTIVE``
  while it runs), through ``ctypes``.
* :func:`process_start`: tells a process from a later one given the same pid. Linux reads
  ``/proc/<pid>/stat`` (clock ticks since boot); Windows asks ``GetProcessTimes``; other
  systems (macOS, the BSDs) have no cheap way without a subprocess, so ``None``: the pid
  alone is compared there.

Nothing here is needed for the save locks' correctness (the OS lock is the authority, see
``locks``); these only serve the messages and the clean-up of files a killed process left.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_STILL_ACTIVE = 259
_PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
_ERROR_ACCESS_DENIED = 5

#: kernel32 through ctypes, made on first use on Windows (tests put a stand-in here)
_kernel32: Any = None


def _windows() -> bool:
    return sys.platform == "win32"


def _k32() -> Any:
    global _kernel32
    if _kernel32 is None:  # pragma: no cover - Windows only
        import ctypes

        _kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    return _kernel32


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid runs now (a process of another user counts)."""
    if type(pid) is not int or pid <= 0:
        return False
    if _windows():
        return _win_alive(pid)
    try:
        os.kill(pid, 0)  # signal 0: a check only (POSIX; never reached on Windows)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    except (OSError, OverflowError):
        return False
    return True


def _win_alive(pid: int) -> bool:
    k = _k32()
    handle = k.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        # no such process, or one we may not open (another user's service): that one runs
        return _last_error() == _ERROR_ACCESS_DENIED
    try:
        code = _ulong()
        if not k.GetExitCodeProcess(handle, _byref(code)):
            return True  # opened but not readable: it exists
        return int(code.value) == _STILL_ACTIVE
    finally:
        k.CloseHandle(handle)


def process_start(pid: int) -> str | None:
    """When process ``pid`` started, as an opaque text that differs between two processes
    given the same pid one after the other; ``None`` where the system cannot say."""
    if type(pid) is not int or pid <= 0:
        return None
    if _windows():
        return _win_start(pid)
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read(4096)
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after the last ")"
    rest = data.rpartition(b")")[2].split()
    return rest[19].decode() if len(rest) > 19 else None


def _win_start(pid: int) -> str | None:
    k = _k32()
    handle = k.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        return None
    try:
        created, exited, kernel, user = (_filetime() for _ in range(4))
        if not k.GetProcessTimes(
            handle, _byref(created), _byref(exited), _byref(kernel), _byref(user)
        ):
            return None
        return f"win:{int(created.value)}"
    finally:
        k.CloseHandle(handle)


# ctypes pieces, imported only when asked (the tests stand in for kernel32 on Linux)
def _ulong() -> Any:
    import ctypes

    return ctypes.c_ulong(0)


def _filetime() -> Any:
    import ctypes

    return ctypes.c_ulonglong(0)  # a FILETIME is two 32-bit halves: one 64-bit number


def _byref(value: Any) -> Any:
    import ctypes

    return ctypes.byref(value)


def _last_error() -> int:
    import ctypes

    get = getattr(ctypes, "get_last_error", None)
    return int(get()) if get is not None else 0
