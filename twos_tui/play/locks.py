"""A lock per save while a table has it open, so two running apps never both write
the same game (the second one's moves would silently replace the first's).

The lock is a file ``<save id>.lock`` beside the save, created exclusively, holding
the owner's pid, host and process start time. A lock whose owner is gone (killed,
crashed, the machine restarted) is *stale* and is taken over; a lock held by a live
process on this machine (or by any process on another host sharing the folder) is
respected: :class:`SaveLocked` names the owner and the app offers to open a copy.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import stat
import time
from pathlib import Path
from typing import Any

from .saves import check_save_id, saves_dir

MAX_LOCK_BYTES = 4096


class SaveLocked(Exception):
    """The save is open in another running twos-tui."""

    def __init__(self, save_id: str, owner: dict[str, Any]) -> None:
        self.save_id = save_id
        self.owner = owner
        pid = owner.get("pid")
        host = owner.get("host")
        where = f" on {host}" if host and host != _HOST else ""
        if pid == os.getpid() and not where:
            text = "This game is already open at another table of this window."
        else:
            text = f"This game is open in another twos-tui window (process {pid}{where})."
        super().__init__(text + " Playing it here too would overwrite the other table's moves.")


_HOST = socket.gethostname()[:64]


def _proc_start(pid: int) -> str | None:
    """When process ``pid`` started (Linux: clock ticks since boot), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read(4096)
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after the last ")"
    rest = data.rpartition(b")")[2].split()
    return rest[19].decode() if len(rest) > 19 else None


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def lock_path(save_id: str) -> Path:
    return saves_dir() / f"{check_save_id(save_id)}.lock"


def read_owner(path: Path) -> dict[str, Any] | None:
    """The owner recorded in a lock file, or ``None`` if it is unreadable or garbage
    (links are not followed; at most a few kilobytes are read)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        raw = os.read(fd, MAX_LOCK_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        owner = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if type(owner) is not dict or type(owner.get("pid")) is not int:
        return None
    return owner


def owner_alive(owner: dict[str, Any] | None) -> bool:
    """Whether the process that wrote a lock still runs (the same pid reused by another
    program counts as gone when the start time tells them apart)."""
    if owner is None:
        return False
    if owner.get("host") != _HOST:
        return True  # another machine's process cannot be checked: respect it
    pid = owner["pid"]
    if not _alive(pid):
        return False
    started = owner.get("start")
    now_started = _proc_start(pid)
    return not (started and now_started and started != now_started)


def _me() -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "host": _HOST,
        "start": _proc_start(os.getpid()),
        "since": time.time(),
    }


def _is_me(owner: dict[str, Any] | None) -> bool:
    return (
        owner is not None
        and owner.get("pid") == os.getpid()
        and owner.get("host") == _HOST
        and owner.get("start") == _proc_start(os.getpid())
    )


_HELD: dict[str, Path] = {}


def acquire(save_id: str) -> None:
    """Lock ``save_id`` for this process, taking over a stale lock; raises
    :class:`SaveLocked` if a live process holds it. ``OSError`` if the folder cannot be
    written (then nothing can be saved either: the caller plays on without a lock)."""
    path = lock_path(save_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(5):
        try:
            fd = os.open(path, flags, 0o644)
        except FileExistsError:
            owner = read_owner(path)
            if _is_me(owner):
                if save_id in _HELD:  # another table of this same app has it open
                    raise SaveLocked(save_id, owner or {}) from None
                _HELD[save_id] = path  # left by this process (its table was not closed)
                return
            if owner is not None and owner_alive(owner):
                raise SaveLocked(save_id, owner) from None
            if owner is None and _young(path):
                # being written right now by its owner (or garbage): look again shortly
                time.sleep(0.05)
                if read_owner(path) is not None:
                    continue
            # stale: its owner is gone. Remove it (a link is removed, not its target).
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            continue
        try:
            os.write(fd, json.dumps(_me()).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        _HELD[save_id] = path
        return
    raise SaveLocked(save_id, read_owner(path) or {"pid": "?"})


def _young(path: Path, age: float = 2.0) -> bool:
    try:
        return time.time() - os.lstat(path).st_mtime < age
    except OSError:
        return False


def release(save_id: str) -> None:
    """Give up the lock of ``save_id`` if this process holds it."""
    path = _HELD.pop(save_id, None)
    if path is None:
        return
    if _is_me(read_owner(path)):
        with contextlib.suppress(OSError):
            os.unlink(path)


def holder(save_id: str) -> dict[str, Any] | None:
    """The live owner of ``save_id``'s lock other than this process, or ``None``."""
    try:
        path = lock_path(save_id)
    except ValueError:
        return None
    owner = read_owner(path)
    if owner is None or _is_me(owner) or not owner_alive(owner):
        return None
    return owner


def release_all() -> None:
    for save_id in list(_HELD):
        release(save_id)


atexit.register(release_all)
