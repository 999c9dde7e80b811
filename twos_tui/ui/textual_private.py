"""The one place where twos-tui reads a private attribute of Textual.

Everything else in ``twos_tui/ui`` uses Textual's public API only (a test scans the
sources). What is left here has no public equivalent in the pinned Textual; the test
``tests/test_ui_structure.py`` checks each name against that version, so an upgrade that
renames one fails there first.
"""

from __future__ import annotations

import functools
from typing import Any

#: the clock of ``Message.time`` (monotonic; perf_counter on Windows): when a key was
#: pressed, comparable with the moment a screen appeared
from textual._time import get_time as event_clock

#: the title part of Textual's Header (not exported by ``textual.widgets``)
from textual.widgets._header import HeaderTitle as HeaderTitle

__all__ = [
    "HeaderTitle",
    "TEXTUAL_VERSION",
    "app_exception",
    "event_clock",
    "guarded_command_palette",
]

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


def guarded_command_palette(**kw: Any) -> Any:
    return _guarded_command_palette_class()(**kw)


@functools.cache
def _guarded_command_palette_class() -> Any:
    """Textual's command palette, with PageUp/PageDown that cannot end the app.

    In Textual 8.2.8 the palette's list pages with ``OptionList._move_page``, which
    looks the highlighted option up in the lines it has drawn; in a terminal too small
    to draw any (10x3, even 10x4) it has drawn none and raises ``KeyError: 0``. The
    palette passes the keys on in ``CommandPalette._action_command_list``: a page that
    cannot be measured goes to the first or last command instead."""
    from textual.command import CommandList, CommandPalette

    class GuardedCommandPalette(CommandPalette):
        def _action_command_list(self, action: str) -> None:
            try:
                super()._action_command_list(action)
            except (KeyError, IndexError):
                if action in ("page_up", "page_down"):
                    command_list = self.query_one(CommandList)
                    if action == "page_up":
                        command_list.action_first()
                    else:
                        command_list.action_last()
                else:
                    raise

    return GuardedCommandPalette
