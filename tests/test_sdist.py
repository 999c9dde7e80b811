"""The source distribution is complete (issue 20 item 5): built with ``python -m build
--sdist`` (the ``build`` package of the test extra; the build itself runs isolated, so it
fetches setuptools as any packager's build does), it carries the tests with their conftest,
helpers, snapshots and data, the docs, the changelog and the tested versions; unpacked, the
whole suite collects without an error and a quick subset passes against the sdist's own
copy of the package (not this checkout's).

The subset (a minute or two): one game's rules, the rules document's citations, saves and
their recorded data files, the command line's help, the Python and version checks
(``-m "not slow"``, the ``quick`` Hypothesis profile); then two screen snapshots by name.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SUBSET = [
    "tests/test_twos.py",
    "tests/test_rules_doc.py",
    "tests/test_hardening_saves.py",
    "tests/test_cli_help.py",
    "tests/test_python_version.py",
]
#: snapshot tests are all slow-marked: two of them run by name, against the sdist's SVGs
SNAPSHOTS = [
    "tests/test_ui_snapshots.py::test_snapshot_home",
    "tests/test_ui_snapshots.py::test_snapshot_keys_help_from_home[80x24]",
]

MUST_HAVE = [
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "constraints.txt",
    "docs/rules.md",
    "tests/conftest.py",
    "tests/ui_helpers.py",
    "tests/saves_helpers.py",
    "tests/engine_helpers.py",
    "tests/data/save_format_1_big_two.json",
    "twos_tui/py.typed",
    "twos_tui/ui/app.tcss",
    "twos_tui/ui/screens.tcss",
]


@pytest.mark.slow
def test_the_sdist_carries_its_tests_and_they_pass(tmp_path):
    pytest.importorskip("build", reason="the test extra's `build` is not installed")
    out = tmp_path / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (archive,) = out.glob("twos_tui-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        top = names[0].split("/")[0]
        inside = {n.removeprefix(top + "/") for n in names}
        for need in MUST_HAVE:
            assert need in inside, f"the sdist has no {need}"
        assert any(n.startswith("tests/__snapshots__/") and n.endswith(".svg") for n in inside)
        assert not [n for n in inside if "__pycache__" in n or n.endswith(".pyc")]
        tracked_tests = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / "tests").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
        }
        assert tracked_tests <= inside, sorted(tracked_tests - inside)
        tar.extractall(tmp_path / "unpacked", filter="data")
    src = tmp_path / "unpacked" / top

    env = dict(
        os.environ,
        PYTHONPATH=str(src),  # ahead of an editable install of this checkout
        HYPOTHESIS_PROFILE="quick",
        TWOS_TUI_HOME=str(tmp_path / "home"),
        PYTEST_ADDOPTS="",
    )
    env.pop("PYTEST_XDIST_WORKER", None)
    where = subprocess.run(
        [sys.executable, "-c", "import twos_tui; print(twos_tui.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=src,
        check=True,
    ).stdout.strip()
    assert Path(where).resolve().is_relative_to(src.resolve()), where

    pytest_cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0"]
    collect = subprocess.run(
        [*pytest_cmd, "--collect-only"],
        capture_output=True,
        text=True,
        env=env,
        cwd=src,
        timeout=300,
    )
    assert collect.returncode == 0, collect.stdout[-3000:] + collect.stderr[-2000:]
    assert "error" not in collect.stdout.lower().splitlines()[-1]

    for selection in (["-m", "not slow", *SUBSET], SNAPSHOTS):
        run = subprocess.run(
            [*pytest_cmd, *selection],
            capture_output=True,
            text=True,
            env=env,
            cwd=src,
            timeout=600,
        )
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
        assert " passed" in run.stdout, run.stdout[-2000:]
    assert f"{len(SNAPSHOTS)} passed" in run.stdout, run.stdout[-2000:]
