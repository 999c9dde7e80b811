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


#: the command line: the top of the package (``cli`` and the subcommands' modules)
COMMAND_LINE = (
    "twos_tui.cli",
    "twos_tui.cli_common",
    "twos_tui.completion",
    "twos_tui.arena",
    "twos_tui.bench",
    "twos_tui.history_cli",
    "twos_tui.net_cli",
    "twos_tui.odds_cli",
    "twos_tui.puzzles_cli",
    "twos_tui.serve",
    "twos_tui.server_cli",
)

#: each layer and what it must never import (the layers above it, and the UI toolkits)
LAYERS = {
    "engine": FORBIDDEN + COMMAND_LINE + ("twos_tui.ai", "twos_tui.play"),
    "ai": FORBIDDEN + COMMAND_LINE + ("twos_tui.play",),
    "play": FORBIDDEN + COMMAND_LINE,
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


def test_no_subcommand_imports_back_from_cli():
    """``cli.py`` is the top: the subcommands' modules take what they share from
    ``cli_common`` below them (only ``__main__`` runs ``cli.main``)."""
    bad = [
        (f.name, m)
        for f in sorted(PKG.rglob("*.py"))
        if f.name != "__main__.py"
        for m in _imports(f)
        if m == "twos_tui.cli"
    ]
    assert bad == []
    common = [m for m in _imports(PKG / "cli_common.py") if m.startswith("twos_tui")]
    assert all(m == "twos_tui.play.names" for m in common), common


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


#: the most lines a module of the engine, the AI or the play layer may have (issue 28:
#: rooms small enough to read whole)
MAX_LINES = 700
#: modules still over it, each with its size today: they may shrink, never grow, and come
#: off this list once split
OVER_MAX_LINES: dict[str, int] = {}


def test_no_engine_ai_or_play_module_is_over_700_lines():
    over = {}
    for sub in ("engine", "ai", "play"):
        for path in sorted((PKG / sub).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            name = path.relative_to(PKG).as_posix()
            if lines > OVER_MAX_LINES.get(name, MAX_LINES):
                over[name] = lines
    assert not over, f"modules over their limit (split them by role): {over}"
    for name in OVER_MAX_LINES:
        now = len((PKG / name).read_text(encoding="utf-8").splitlines())
        assert now > MAX_LINES, f"{name} is {now} lines now: take it off OVER_MAX_LINES"


#: the most lines a module of the UI may have (issue 29: the app split by role)
MAX_UI_LINES = 500
#: UI modules still over it, each with its size today: they may shrink, never grow, and
#: come off this list once split (the table screen was, issue 29)
OVER_MAX_UI_LINES: dict[str, int] = {}


def test_no_ui_module_is_over_500_lines():
    over = {}
    for path in sorted((PKG / "ui").rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        name = path.relative_to(PKG).as_posix()
        if lines > OVER_MAX_UI_LINES.get(name, MAX_UI_LINES):
            over[name] = lines
    assert not over, f"UI modules over their limit (split them by role): {over}"
    for name in OVER_MAX_UI_LINES:
        now = len((PKG / name).read_text(encoding="utf-8").splitlines())
        assert now > MAX_UI_LINES, f"{name} is {now} lines now: take it off OVER_MAX_UI_LINES"
