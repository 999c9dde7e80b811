"""A lock per save while a table has it open, so two running apps never both write
the same game (the second one's moves would silently replace the first's).

The lock is an OS lock (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows) on a
file ``<save id>.lock`` beside the save, which holds the owner's pid, user, host and
process start time for the messages (see :mod:`.procs` for the portable process
checks). The kernel gives the lock back when its owner ends, however
it ends, so a *stale* lock is simply free, and two apps taking it at once can never both
get it (a lock file that only existed, as before, raced: two owners at once). A lock
held by a live process is respected: :class:`SaveLocked` names the owner and the app
offers to open a copy.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import stat
import sys
import time
from pathlib import Path
from typing import Any, NotRequired, TypedDict, TypeGuard

from ..jsontypes import JsonValue
from .procs import pid_alive, process_start
from .saves import check_save_id, saves_dir

MAX_LOCK_BYTES = 4096
#: Windows locks a byte range, and a locked range cannot be read by another process: the
#: lock is taken on one byte far past the owner's record, which stays readable
WIN_LOCK_OFFSET = 1 << 30


class LockOwner(TypedDict):
    """The owner's record in a lock file (what :func:`_me` writes). Read from a file
    that anyone could have written (an older twos-tui, or damage): only ``pid`` is
    checked (a whole number; ``"?"`` for a lock held whose record cannot be read), the
    other fields are JSON as found, narrowed where they are used."""

    pid: int | str
    user: NotRequired[JsonValue]
    host: NotRequired[JsonValue]
    start: NotRequired[JsonValue]  #: when the process started (``procs.process_start``)
    since: NotRequired[JsonValue]  #: when it took the lock (seconds since 1970)
    #: ``"os"``: written under the OS lock (a record without it: an older twos-tui)
    lock: NotRequired[JsonValue]


#: the owner of a lock held whose record cannot be read
UNKNOWN_OWNER: LockOwner = {"pid": "?"}


class SaveLocked(Exception):
    """The save is open in another running twos-tui."""

    def __init__(self, save_id: str, owner: LockOwner) -> None:
        self.save_id = save_id
        self.owner = owner
        from .names import clean_name

        pid = owner.get("pid")
        pid = pid if type(pid) is int else "?"
        host = owner.get("host")
        where = f" on {clean_name(host, '?')}" if host and host != _HOST else ""
        user = owner.get("user")
        by = f", user {clean_name(user, '?')}" if isinstance(user, str) and user else ""
        if pid == os.getpid() and not where:
            text = "This game is already open at another table of this window."
        else:
            text = f"This game is open in another twos-tui window (process {pid}{by}{where})."
        self._who = text.rstrip(".")
        super().__init__(text + " Playing it here too would overwrite the other table's moves.")

    def who(self) -> str:
        """Where the game is open, in a few words (for other refusals than opening)."""
        return self._who


_HOST = socket.gethostname()[:64]


def _proc_start(pid: int) -> str | None:
    """When process ``pid`` started (see :func:`.procs.process_start`), or ``None``."""
    return process_start(pid)


def lock_path(save_id: str) -> Path:
    return saves_dir() / f"{check_save_id(save_id)}.lock"


def read_owner(path: Path) -> LockOwner | None:
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
    record: LockOwner = {"pid": owner["pid"]}
    if "user" in owner:
        record["user"] = owner["user"]
    if "host" in owner:
        record["host"] = owner["host"]
    if "start" in owner:
        record["start"] = owner["start"]
    if "since" in owner:
        record["since"] = owner["since"]
    if "lock" in owner:
        record["lock"] = owner["lock"]
    return record


def owner_alive(owner: LockOwner | None) -> bool:
    """Whether the process that wrote a lock still runs (the same pid reused by another
    program counts as gone when the start time tells them apart)."""
    if owner is None:
        return False
    if owner.get("host") != _HOST:
        return True  # another machine's process cannot be checked: respect it
    pid = owner["pid"]
    if type(pid) is not int:
        return True  # a lock held whose record cannot be read: respect it
    if not pid_alive(pid):
        return False
    started = owner.get("start")
    now_started = _proc_start(pid)
    return not (started and now_started and started != now_started)


def _me() -> LockOwner:
    return {
        "pid": os.getpid(),
        "user": _user(),
        "host": _HOST,
        "start": _proc_start(os.getpid()),
        "since": time.time(),
        # written under the OS lock: whoever takes the lock after us knows we are gone
        # (a record without it comes from an older twos-tui that only wrote the file)
        "lock": "os",
    }


def _user() -> str:
    try:
        import getpass

        return getpass.getuser()[:32]
    except Exception:  # no user name to be had (some containers): the pid says enough
        return ""


def _is_me(owner: LockOwner | None) -> bool:
    return (
        owner is not None
        and owner.get("pid") == os.getpid()
        and owner.get("host") == _HOST
        and owner.get("start") == _proc_start(os.getpid())
    )


#: save id -> (lock path, open descriptor holding the OS lock)
_HELD: dict[str, tuple[Path, int]] = {}


def _windows() -> bool:
    return sys.platform == "win32"


def _msvcrt() -> Any:
    import importlib

    return importlib.import_module("msvcrt")  # (Windows only; typed loosely on purpose)


def _os_lock(fd: int) -> bool:
    """Take the OS lock of an open lock file without waiting: True if this process now
    holds it, False if another one does. The kernel gives it back when its owner exits,
    however it ends, so a stale lock is simply free.

    POSIX (Linux, macOS, the BSDs): ``fcntl.flock`` of the whole file. Windows:
    ``msvcrt.locking`` of one byte at :data:`WIN_LOCK_OFFSET` (a byte-range lock; past
    the record so others can still read who holds it). ``fcntl``/``msvcrt`` directly
    rather than the ``filelock`` package: the same two calls, no dependency, and the
    lock file keeps the owner's record for the messages."""
    if _windows():
        msvcrt = _msvcrt()
        try:
            os.lseek(fd, WIN_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _os_unlock(fd: int) -> None:
    """Give the OS lock back before the descriptor is closed (Windows asks for it: a lock
    left to the close is released "when resources allow"; POSIX frees it on close)."""
    if _windows():
        msvcrt = _msvcrt()
        with contextlib.suppress(OSError):
            os.lseek(fd, WIN_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _open_lock_file(path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return fd


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd`` (a releasing owner removes
    the lock file: a lock taken on the removed file is no lock)."""
    try:
        a, b = os.fstat(fd), os.lstat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def acquire(save_id: str) -> None:
    """Lock ``save_id`` for this process; raises :class:`SaveLocked` (naming the owner's
    process) if another running app holds it. One owner at a time, always: the lock is
    an OS lock on ``<save id>.lock`` (see :func:`_os_lock`), so a lock whose owner has
    gone (killed, crashed) is free, and two apps taking it over at once cannot both get
    it. ``OSError`` if the folder cannot be written (the caller plays on without a
    lock)."""
    if save_id in _HELD:  # another table of this same app has it open
        raise SaveLocked(save_id, _me())
    path = lock_path(save_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(20):
        try:
            fd = _open_lock_file(path)
        except FileNotFoundError:
            continue
        if not _os_lock(fd):
            os.close(fd)
            raise SaveLocked(save_id, read_owner(path) or UNKNOWN_OWNER.copy())
        if not _same_file(fd, path):
            _os_unlock(fd)
            os.close(fd)  # removed by its owner as we took it: take the new file
            continue
        owner = read_owner(path)
        if _legacy_owner_running(owner):
            # written by an older twos-tui (no OS lock) that still runs: respect it
            _os_unlock(fd)
            os.close(fd)
            raise SaveLocked(save_id, owner)
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, json.dumps(_me()).encode())
            os.fsync(fd)
        except OSError:
            _os_unlock(fd)
            os.close(fd)
            raise
        _HELD[save_id] = (path, fd)
        return
    raise SaveLocked(save_id, read_owner(path) or UNKNOWN_OWNER.copy())


def release(save_id: str) -> None:
    """Give up the lock of ``save_id`` if this process holds it (the lock file is
    removed while still locked, then the lock goes with the descriptor)."""
    held = _HELD.pop(save_id, None)
    if held is None:
        return
    path, fd = held
    if _windows():
        # an open file cannot be removed there: its record is emptied instead
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        _os_unlock(fd)
    elif _same_file(fd, path):
        with contextlib.suppress(OSError):
            os.unlink(path)
    with contextlib.suppress(OSError):
        os.close(fd)


def holder(save_id: str) -> LockOwner | None:
    """Who holds ``save_id``'s lock, other than a table of this process: the owner
    (pid, host...) or ``None`` if nobody does."""
    try:
        path = lock_path(save_id)
    except ValueError:
        return None
    if not os.path.lexists(path):
        return None
    try:
        fd = _open_lock_file(path)
    except OSError:
        return None
    try:
        if not _os_lock(fd):
            return read_owner(path) or UNKNOWN_OWNER.copy()
        _os_unlock(fd)
    finally:
        os.close(fd)  # (closing gives the lock back at once)
    owner = read_owner(path)
    return owner if _legacy_owner_running(owner) else None


def _legacy_owner_running(owner: LockOwner | None) -> TypeGuard[LockOwner]:
    """With the OS lock free (or just taken), whether the file's recorded owner still
    holds the save anyway: only an older twos-tui, which wrote the record without an OS
    lock, and only while its process runs. A record written under the OS lock
    (``"lock": "os"``) means its owner has gone, whatever runs under that pid now."""
    if owner is None or owner.get("lock") == "os" or _is_me(owner):
        return False
    return owner_alive(owner)


def delete_locked_save(save_id: str) -> None:
    """Delete a save nobody has open: its lock is taken for the deletion (so no app can
    open it meanwhile), the file removed, the lock given back. Raises
    :class:`SaveLocked` (naming who has it) if a table here or another app has it
    open: that game is not lost."""
    from .saves import delete_save

    try:
        acquire(save_id)
    except OSError:
        delete_save(save_id)  # a folder that cannot be written: nothing to lock
        return
    try:
        delete_save(save_id)
    finally:
        release(save_id)


def held_here(save_id: str) -> bool:
    """Whether a table of this process has ``save_id`` open."""
    return save_id in _HELD


def release_all() -> None:
    for save_id in list(_HELD):
        release(save_id)


atexit.register(release_all)
