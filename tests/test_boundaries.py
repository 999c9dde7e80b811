"""The layers import one way only, ``ui -> play -> ai -> engine``: the engine, the AI and
the play layer import nothing from textual, rich or the UI (and no layer imports one
above it), and nothing in the package calls the module-level ``random`` functions."""

import ast
import pathlib
import subprocess
import sys

import pytest

PKG = pathlib.Path(__file__).resolve().parents[1] / "twos_tui"
FORBIDDEN = ("textual", "rich", "twos_tui.ui")


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:  # relative: resolve against the file's package
                parts = path.relative_to(PKG.parent).with_suffix("").parts[: -node.level]
                mod = ".".join(parts + ((mod,) if mod else ()))
            yield mod


#: each layer and what it must never import (the layers above it, and the UI toolkits)
LAYERS = {
    "engine": FORBIDDEN + ("twos_tui.ai", "twos_tui.play"),
    "ai": FORBIDDEN + ("twos_tui.play",),
    "play": FORBIDDEN,
    # the puzzle data, model and solver use the engine only
    "puzzles": FORBIDDEN + ("twos_tui.ai", "twos_tui.play"),
}


@pytest.mark.parametrize("sub", sorted(LAYERS))
def test_core_imports_no_ui(sub):
    files = sorted((PKG / sub).rglob("*.py"))
    assert files
    bad = [
        (f.name, m)
        for f in files
        for m in _imports(f)
        if any(m == x or m.startswith(x + ".") for x in LAYERS[sub])
    ]
    assert bad == []


def test_engine_import_loads_no_ui_module():
    code = (
        "import sys, twos_tui.engine as e\n"
        "[e.variant_class(v) for v in e.VARIANT_IDS]\n"
        "import twos_tui.ai, twos_tui.engine.odds, twos_tui.bench\n"
        "import twos_tui.play.session, twos_tui.play.saves\n"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('textual','rich')\n"
        "     or m.startswith('twos_tui.ui')]\n"
        "print(bad); assert not bad, bad"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_global_random_calls():
    bad = []
    for f in PKG.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr not in ("Random",)
            ):
                bad.append(f"{f.name}:{node.lineno} random.{node.func.attr}")
    assert bad == []
