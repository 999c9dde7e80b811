"""``.ci/run`` runs every step even after a failure, then names the failed steps and exits
non-zero. Checked on a copy of the script in a scratch tree where every tool (python3,
pip, ruff, mypy, pytest, the newer Python) is a stand-in that logs its call and fails on
demand: cheap, and the real suite never runs inside a test."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

# A stand-in tool: logs "<venv>/<name> ARGS" (or "<name> ARGS" off a venv) and exits 3
# when its log name is in CI_FAIL (space-separated).
TOOL = """#!/bin/sh
dir=$(basename "$(dirname "$(dirname "$0")")")
case "$dir" in .venv*) me="$dir/$(basename "$0")" ;; *) me=$(basename "$0") ;; esac
echo "$me $*" >> "$CI_LOG"
case " $CI_FAIL " in *" $me "*) exit 3 ;; esac
exit 0
"""

# A stand-in Python: `-m venv DIR` makes DIR/bin with stand-in tools; `-c` (the version
# check of the newer-Python loop) passes only for the newer Python when CI_NEWER is set.
PYTHON = """#!/bin/sh
me=$(basename "$0")
echo "$me $*" >> "$CI_LOG"
case " $CI_FAIL " in *" $me "*) exit 3 ;; esac
case "$1" in
  -m) mkdir -p "$3/bin"
      for t in pip ruff mypy pytest; do cp "$STUB_TOOL" "$3/bin/$t"; chmod +x "$3/bin/$t"; done ;;
  -c) [ "$me" = python3.13 ] && [ -n "$CI_NEWER" ] || exit 1 ;;
  --version) echo "Python 3.13.0" ;;
esac
exit 0
"""


# A stand-in tools/newest_textual.sh: logs "newest_textual.sh ARGS", fails on demand.
NEWEST = """#!/bin/sh
echo "newest_textual.sh $*" >> "$CI_LOG"
case " $CI_FAIL " in *" newest_textual.sh "*) exit 1 ;; esac
exit 0
"""


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def run_ci(tmp_path: Path, fail: str = "", newer: bool = True) -> tuple[int, str, list[str]]:
    tree = tmp_path / "clone"
    (tree / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", tree / ".ci" / "run")
    # the newest-Textual check (it installs from PyPI): a stand-in that logs its call
    (tree / "tools").mkdir()
    _write(tree / "tools" / "newest_textual.sh", NEWEST)
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    _write(stubs / "tool", TOOL)
    for name in ("python3", "python3.13", "python3.12"):
        _write(stubs / name, PYTHON)
    _write(stubs / "chromium", "#!/bin/sh\nexit 0\n")  # so that apt is never asked
    log = tmp_path / "log"
    log.touch()
    env = {
        "PATH": f"{stubs}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(tmp_path),
        "PYENV_ROOT": str(tmp_path / "no-pyenv"),
        "CI_LOG": str(log),
        "CI_FAIL": fail,
        "CI_NEWER": "1" if newer else "",
        "STUB_TOOL": str(stubs / "tool"),
    }
    done = subprocess.run(
        ["bash", str(tree / ".ci" / "run")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    calls = log.read_text(encoding="utf-8").splitlines()
    return done.returncode, done.stdout + done.stderr, calls


def _tools(calls: list[str]) -> list[str]:
    """The lint, type and test calls, in order (the installs and version checks left out)."""
    keep = (".venv/ruff", ".venv/mypy", ".venv/pytest", "newest_textual.sh", ".venv-newer/pytest")
    return [c for c in calls if c.startswith(keep)]


def test_every_step_passing_exits_0_and_runs_the_readmes_test_command(tmp_path):
    rc, out, calls = run_ci(tmp_path)
    assert rc == 0, out
    assert "ci: every step passed" in out
    tools = _tools(calls)
    assert tools[:4] == [
        ".venv/ruff check .",
        ".venv/ruff format --check .",
        ".venv/mypy ",
        ".venv/pytest ",  # exactly the README's test command: no options added
    ]
    assert len(tools) == 6
    assert tools[4] == "newest_textual.sh python3"  # after the suite (issue 32)
    assert tools[5].startswith(".venv-newer/pytest -m not slow tests/test_twos.py ")


def test_a_failed_step_does_not_stop_the_later_ones_and_fails_at_the_end(tmp_path):
    rc, out, calls = run_ci(tmp_path, fail=".venv/ruff .venv/pytest")
    assert rc == 1, out
    tools = [c.split()[0] for c in _tools(calls)]
    # ruff check and ruff format both ran (and failed), then mypy, the suite and the
    # newer-Python loop all the same
    assert tools == [
        ".venv/ruff",
        ".venv/ruff",
        ".venv/mypy",
        ".venv/pytest",
        "newest_textual.sh",
        ".venv-newer/pytest",
    ]
    summary = out[out.index("ci: FAILED") :]
    assert "3 step(s) failed" in summary
    for name in ("ruff check", "ruff format", "tests"):
        assert f"- {name}\n" in summary
    assert "- mypy" not in summary and "- newer Python loop" not in summary
    assert "ci: -- mypy: passed" in out


def test_a_failing_newest_textual_check_fails_the_run(tmp_path):
    rc, out, calls = run_ci(tmp_path, fail="newest_textual.sh")
    assert rc == 1, out
    assert "1 step(s) failed" in out and "- newest Textual" in out
    assert "ci: -- newest Textual: FAILED" in out
    assert calls.index("newest_textual.sh python3") > calls.index(".venv/pytest ")


def test_a_failing_newer_python_loop_fails_the_run(tmp_path):
    rc, out, _ = run_ci(tmp_path, fail=".venv-newer/pytest")
    assert rc == 1, out
    assert "1 step(s) failed" in out and "- newer Python loop" in out


def test_a_failed_install_is_named_and_the_rest_still_run(tmp_path):
    rc, out, calls = run_ci(tmp_path, fail=".venv/pip", newer=False)
    assert rc == 1, out
    assert "- install" in out
    assert ".venv/pytest " in calls  # the suite still ran (and would say what is missing)
    assert "no Python 3.12 or 3.13 here" in out
