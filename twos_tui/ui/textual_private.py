"""The one place where twos-tui reads a private attribute of Textual.

Everything else in ``twos_tui/ui`` uses Textual's public API only (a test scans the
sources). What is left here has no public equivalent in the pinned Textual; the test
``tests/test_ui_structure.py`` checks each name against that version, so an upgrade that
renames one fails there first.
"""

from __future__ import annotations

from typing import Any

#: the clock of ``Message.time`` (monotonic; perf_counter on Windows): when a key was
#: pressed, comparable with the moment a screen appeared
from textual._time import get_time as event_clock

#: the title part of Textual's Header (not exported by ``textual.widgets``)
from textual.widgets._header import HeaderTitle as HeaderTitle

__all__ = ["HeaderTitle", "TEXTUAL_VERSION", "app_exception", "event_clock"]

#: the Textual version these names were checked against (pinned in pyproject.toml)
TEXTUAL_VERSION = "8.2.8"


def app_exception(app: Any) -> BaseException | None:
    """The exception that ended ``app.run()`` (Textual keeps it as ``App._exception``;
    ``App.return_code`` says only that there was one)."""
    found = getattr(app, "_exception", None)
    return found if isinstance(found, BaseException) else None


def forget_closed_watchers(obj: Any) -> int:
    """Drop the watchers of closed widgets from ``obj``'s reactive watchers (the app's
    ``title`` / ``sub_title``: each ``Header`` adds one on mount). Textual 8.2.8 keeps
    them in ``obj.__watchers`` and drops dead ones only when that attribute next
    changes, so each header of a closed screen stayed alive (four widgets a table).
    Returns how many were dropped."""
    watchers = getattr(obj, "__watchers", None)
    dropped = 0
    if not isinstance(watchers, dict):
        return 0
    for entries in watchers.values():
        keep = [(node, cb) for node, cb in entries if not getattr(node, "_closing", False)]
        dropped += len(entries) - len(keep)
        entries[:] = keep
    return dropped
