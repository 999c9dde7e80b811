"""Shared test set-up: no test ever reads or writes the real user data directory."""

import os
import tempfile

# a per-run data directory unless a test points TWOS_TUI_HOME somewhere else itself
os.environ["TWOS_TUI_HOME"] = tempfile.mkdtemp(prefix="twos-tui-tests-")
