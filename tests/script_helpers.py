"""Loading a benchmark script (not a package module) by its path, for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path) -> ModuleType:
    """The module a script file defines, run once (its ``main`` is not called). It is in
    ``sys.modules`` while it runs, as an import would put it (a dataclass in it looks its
    module up there)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
