"""Where the user's data lives: ``$TWOS_TUI_HOME`` when set (the tests point it at a
temporary directory), else the platform's user data directory for ``twos-tui``
(``platformdirs.user_data_path``; on Linux ``~/.local/share/twos-tui``)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path


def data_dir() -> Path:
    env = os.environ.get("TWOS_TUI_HOME")
    if env:
        return Path(env)
    return user_data_path("twos-tui", appauthor=False)
