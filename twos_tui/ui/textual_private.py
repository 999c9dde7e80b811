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
