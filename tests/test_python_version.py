"""Which Pythons and which versions of the dependencies (issue 20 items 2 and 6): an older
Python is told so before any dependency is imported; the classifiers name the Pythons
tested; the install requirements are ranges (Textual exact), with the tested versions
pinned in constraints.txt."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import twos_tui

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "twos_tui" / "__init__.py"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _run_init(monkeypatch, version: tuple[int, int, int], argv0: str) -> None:
    monkeypatch.setattr(sys, "version_info", version)
    monkeypatch.setattr(sys, "version", ".".join(map(str, version)) + " (old)")
    monkeypatch.setattr(sys, "argv", [argv0])
    exec(compile(INIT.read_text(encoding="utf-8"), str(INIT), "exec"), {"__name__": "x"})


def test_an_older_python_is_named_on_import(monkeypatch):
    with pytest.raises(ImportError, match=r"needs Python 3\.11 or newer; this is Python 3\.10\.2"):
        _run_init(monkeypatch, (3, 10, 2), "some_script.py")


@pytest.mark.parametrize("argv0", ["/usr/local/bin/twos-tui", "-m", r"C:\Py\Scripts\twos-tui.exe"])
def test_an_older_python_running_the_command_gets_one_line(monkeypatch, argv0):
    with pytest.raises(SystemExit) as e:
        _run_init(monkeypatch, (3, 9, 18), argv0)
    assert str(e.value).startswith("twos-tui: error: twos-tui needs Python 3.11 or newer")


def test_this_python_passes(monkeypatch):
    _run_init(monkeypatch, (3, 11, 0), "twos-tui")  # (no error)


def test_the_check_is_readable_by_old_pythons():
    ast.parse(INIT.read_text(encoding="utf-8"), feature_version=(3, 6))
    first = [n for n in ast.parse(INIT.read_text(encoding="utf-8")).body if isinstance(n, ast.If)]
    imports = [
        n.names[0].name
        for n in ast.parse(INIT.read_text(encoding="utf-8")).body
        if isinstance(n, ast.Import | ast.ImportFrom)
    ]
    assert imports == ["sys"] and first  # nothing else is imported before the check


def _old_python() -> str | None:
    for name in ("python3.10", "python3.9"):
        found = shutil.which(name)
        if found and subprocess.run([found, "-c", "pass"], capture_output=True).returncode == 0:
            return found
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for p in sorted(root.glob("3.10*/bin/python3")) + sorted(root.glob("3.9*/bin/python3")):
        return str(p)
    return None


def test_a_real_older_python():
    old = _old_python()
    if old is None:
        pytest.skip("no Python 3.9 or 3.10 on this machine")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [old, "-m", "twos_tui", "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    assert r.returncode == 1
    assert (
        r.stderr.strip().splitlines() == [r.stderr.strip().splitlines()[0]]
        and "needs Python 3.11 or newer" in r.stderr
    )


def test_classifiers_and_requires_python():
    project = PYPROJECT["project"]
    assert project["requires-python"] == ">={}.{}".format(*twos_tui.MIN_PYTHON)
    minors = sorted(
        int(c.rsplit(".", 1)[1])
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert minors == [11, 12, 13]


def _name(req: str) -> str:
    return re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0].lower().replace("_", "-")


def test_ranges_with_no_exact_pin_and_the_tested_versions_pinned():
    """Issue 32: the package's requirements are ranges (Textual too: twos-tui installs
    beside another Textual app wanting another 8.x); the exact versions CI tests,
    snapshots included, are in constraints.txt alone."""
    project = PYPROJECT["project"]
    deps = project["dependencies"]
    assert "textual>=8.2.8,<9" in deps
    assert all("==" not in d for d in deps), deps
    for d in deps:
        assert ">=" in d and "<" in d, d  # a floor and a ceiling (the next major)
    for extra in ("web", "test"):
        serve = [r for r in project["optional-dependencies"][extra] if "textual-serve" in r]
        assert [r.split("#")[0].strip() for r in serve] == ["textual-serve>=1.1.3,<2"], extra
    pinned = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned exactly"
            pinned[_name(name)] = version
    wanted = deps + [r for extra in project["optional-dependencies"].values() for r in extra]
    missing = sorted({_name(r) for r in wanted} - set(pinned))
    assert not missing, f"not pinned in constraints.txt: {missing}"
    assert pinned["textual"] == "8.2.8"
