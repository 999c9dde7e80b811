"""One browser tab's app under ``twos-tui serve``, in its player's own data folder.

``python -m twos_tui.serve_tab HOME PROGRAM [ARGS...]`` runs ``PROGRAM ARGS...`` with
``TWOS_TUI_HOME`` set to ``HOME`` (on POSIX it becomes that program, on Windows it runs it
and ends with its exit status). The server starts each tab's app through it, as a plain
command line: textual-serve's public API takes the command to run, not its environment.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

__all__ = ["main", "shell_line"]

USAGE = "usage: python -m twos_tui.serve_tab HOME PROGRAM [ARGS...]"


def shell_line(*words: str) -> str:
    """``words`` as one command line for the system's shell (textual-serve starts a tab's
    app with a shell): quoted for cmd.exe on Windows, for ``sh`` elsewhere."""
    return subprocess.list2cmdline(words) if os.name == "nt" else shlex.join(words)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2 or not args[0]:
        print(USAGE, file=sys.stderr)
        return 2
    home, command = args[0], args[1:]
    os.environ["TWOS_TUI_HOME"] = home
    if os.name == "nt":  # (no exec that keeps the process there)
        return subprocess.call(command)
    try:
        os.execvp(command[0], command)
    except OSError as e:
        print(f"twos-tui serve: cannot start {command[0]}: {e}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    raise SystemExit(main())
