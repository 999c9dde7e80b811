"""twos-tui: climbing and trick card games in the terminal."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    __version__: str

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


#: the version when the package has no installed metadata (a source tree on ``sys.path``
#: without ``pip install``) and no pyproject.toml beside it: plainly not a release
UNKNOWN_VERSION = "0+unknown"


def package_version() -> str:
    """twos-tui's version: the installed package's metadata is the one source
    (``importlib.metadata``, from pyproject.toml's ``version`` at install time). A source
    tree that was never installed reads pyproject.toml beside the package; else
    :data:`UNKNOWN_VERSION`. (Looked up on first use, not at import: ``importlib.metadata``
    costs ``twos-tui --help`` some 20 ms.)"""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("twos-tui")
    except PackageNotFoundError:
        pass
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        with open(pyproject, "rb") as f:
            found = tomllib.load(f).get("project", {}).get("version")
    except (OSError, ValueError):
        found = None
    return found if isinstance(found, str) else UNKNOWN_VERSION


def __getattr__(name: str) -> str:
    """``twos_tui.__version__``, read from the package metadata the first time it is
    asked for (then kept as a plain attribute)."""
    if name == "__version__":
        value = package_version()
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
