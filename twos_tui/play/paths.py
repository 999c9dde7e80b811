"""Where the user's files live. ``$TWOS_TUI_HOME`` when set (the tests point it at a
temporary directory) holds them all: the data, ``config.toml`` and ``logs/``. Else the
platform's own folders for ``twos-tui`` (platformdirs; on Linux):

* the data (saves, history, keys, the app's own state): ``user_data_path``,
  ``~/.local/share/twos-tui``;
* the settings file a person edits, ``config.toml``: ``user_config_path``,
  ``~/.config/twos-tui`` (``twos-tui --config PATH`` reads another: :data:`CONFIG_ENV`);
* the log and ``crash.log``: ``user_log_path``, ``~/.local/state/twos-tui/log``.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path, user_log_path

APP = "twos-tui"
CONFIG_NAME = "config.toml"
LOG_NAME = "twos-tui.log"
CRASH_LOG_NAME = "crash.log"

#: the settings file given with ``twos-tui --config PATH`` (the command line sets it, and
#: the programs it starts inherit it: the browser's and the SSH door's apps)
CONFIG_ENV = "TWOS_TUI_CONFIG"


def _home() -> Path | None:
    env = os.environ.get("TWOS_TUI_HOME")
    return Path(env) if env else None


def data_dir() -> Path:
    home = _home()
    if home is not None:
        return home
    return user_data_path(APP, appauthor=False)


def config_path() -> Path:
    """The settings file: ``--config PATH``'s, else ``config.toml`` in the user config
    folder (in ``$TWOS_TUI_HOME`` when set)."""
    given = os.environ.get(CONFIG_ENV)
    if given:
        return Path(given)
    home = _home()
    folder = home if home is not None else user_config_path(APP, appauthor=False)
    return folder / CONFIG_NAME


def log_dir() -> Path:
    """The folder of the log and ``crash.log`` (``logs`` in ``$TWOS_TUI_HOME`` when
    set)."""
    home = _home()
    if home is not None:
        return home / "logs"
    return user_log_path(APP, appauthor=False)
