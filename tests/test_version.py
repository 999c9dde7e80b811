"""One version number (issue 32): pyproject.toml's ``version`` is the source; the installed
package's metadata carries it, ``twos_tui.__version__`` and ``twos-tui --version`` read it."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import twos_tui

ROOT = Path(__file__).resolve().parent.parent


def pyproject_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        version: str = tomllib.load(f)["project"]["version"]
    return version


def test_pyproject_metadata_module_and_command_line_agree():
    written = pyproject_version()
    assert importlib.metadata.version("twos-tui") == written
    assert twos_tui.__version__ == written
    out = subprocess.run(
        [sys.executable, "-m", "twos_tui", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out == f"twos-tui {written}\n"


def test_the_version_is_written_once():
    """No other file of the package spells the version out."""
    written = pyproject_version()
    spelled = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "twos_tui").rglob("*.py")
        if f'"{written}"' in p.read_text(encoding="utf-8")
    ]
    assert spelled == []


def test_a_source_tree_without_metadata_reads_pyproject(monkeypatch):
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert twos_tui.package_version() == pyproject_version()


def test_no_metadata_and_no_pyproject_is_plainly_unknown(monkeypatch, tmp_path):
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    monkeypatch.setattr(twos_tui, "__file__", str(tmp_path / "twos_tui" / "__init__.py"))
    assert twos_tui.package_version() == twos_tui.UNKNOWN_VERSION == "0+unknown"


def test_the_help_does_not_look_the_version_up():
    code = (
        "import contextlib, io, sys\nfrom twos_tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "print('importlib.metadata' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.strip() == "False"
