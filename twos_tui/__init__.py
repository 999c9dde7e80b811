"""twos-tui: climbing and trick card games in the terminal."""

import sys

__version__ = "0.1.0"

#: the oldest Python twos-tui runs on (pyproject.toml's requires-python says the same)
MIN_PYTHON = (3, 11)

# Before anything imports a dependency (whose own error would name it, not the Python):
# this file is the first of the package any Python reads, so it keeps to old syntax.
if sys.version_info < MIN_PYTHON:
    _text = "twos-tui needs Python {}.{} or newer; this is Python {} ({}).".format(
        MIN_PYTHON[0], MIN_PYTHON[1], sys.version.split()[0], sys.executable or "python"
    )
    _argv0 = sys.argv[0] if sys.argv else ""
    if _argv0 == "-m" or _argv0.replace("\\", "/").rsplit("/", 1)[-1].startswith("twos-tui"):
        raise SystemExit("twos-tui: error: " + _text)  # the command: one line, no traceback
    raise ImportError(_text)
