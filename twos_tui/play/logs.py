"""The log: what twos-tui writes down as it runs (a hosted table's comings and goings, a
certificate it could not make, an unexpected error), for a person looking into a problem.

``twos-tui.log`` in the user log folder (:func:`twos_tui.play.paths.log_dir`), or the
file given with ``--log-file PATH``; at most about 1 MB, then it rolls over (two older
files kept). Everything at INFO and above; ``--verbose`` adds the DEBUG detail. An
unexpected error's traceback also goes to ``crash.log`` beside it (:func:`write_crash`).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from .paths import CRASH_LOG_NAME, LOG_NAME, log_dir

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_BYTES = 1_000_000
BACKUPS = 2
STDERR_HANDLER = "twos-tui stderr"

#: the handler :func:`setup` put on the root logger (replaced by the next setup)
_handler: logging.Handler | None = None


class LogFileError(Exception):
    """A log file given by the player cannot be written (the message says which and why)."""


def default_log_path() -> Path:
    return log_dir() / LOG_NAME


def crash_log_path() -> Path:
    return log_dir() / CRASH_LOG_NAME


def setup(verbose: bool = False, log_file: str | Path | None = None) -> Path | None:
    """Send the log (the root logger: ours and the libraries') to ``log_file`` or the
    default log; DEBUG with ``verbose``, else INFO. The file it goes to, or None when the
    default one cannot be made (the program goes on without a log). A ``log_file`` that
    cannot be opened raises :class:`LogFileError`: the player asked for that file."""
    global _handler
    import logging.handlers

    stop()
    root = logging.getLogger()
    path = Path(log_file) if log_file else default_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path,
            maxBytes=MAX_BYTES,
            backupCount=BACKUPS,
            encoding="utf-8",
            delay=not log_file,  # (the usual log: made at its first line)
        )
    except OSError as e:
        if log_file:
            raise LogFileError(f"cannot write the log to {path}: {e.strerror or e}") from None
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    _handler = handler
    return path


def stop() -> None:
    """The log file set by :func:`setup` is closed and no longer written."""
    global _handler
    if _handler is not None:
        logging.getLogger().removeHandler(_handler)
        _handler.close()
        _handler = None


class CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to whatever ``sys.stderr`` is when a line is logged, not the
    stream it was when the handler was made: that one may be closed since (a test's
    captured stderr; every later line was then a "--- Logging error ---")."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass  # (StreamHandler sets it: always the current sys.stderr)


def also_to_stderr(fmt: str = "%(asctime)s %(message)s") -> None:
    """Also show the log's INFO lines on stderr (a headless host's running commentary);
    once, however often asked."""
    root = logging.getLogger()
    if any(h.get_name() == STDERR_HANDLER for h in root.handlers):
        return
    handler = CurrentStderr()
    handler.set_name(STDERR_HANDLER)
    handler.setFormatter(logging.Formatter(fmt))
    handler.setLevel(logging.INFO)
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)


def not_to_stderr() -> None:
    """Stop what :func:`also_to_stderr` started (the headless host has stopped: a later
    command in the same process, a test, must not meet its commentary on stderr)."""
    root = logging.getLogger()
    for h in [h for h in root.handlers if h.get_name() == STDERR_HANDLER]:
        root.removeHandler(h)
        h.close()


def write_crash(details: str) -> Path | None:
    """Add an unexpected error's details to ``crash.log`` (and to the log); the file, or
    None when it could not be written."""
    logging.getLogger("twos_tui").error("unexpected error:\n%s", details)
    path = crash_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(details + "\n")
    except OSError:
        return None
    return path
