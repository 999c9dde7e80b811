"""Issue 12 in the UI, checked on the sources: the table never asks for the game family
(one board per family does), no Textual private attribute is used, and Chinese Poker's
help offers no passing option the picker does not have."""

from __future__ import annotations

import re
from pathlib import Path

from twos_tui.engine import new_game

UI = Path(__file__).resolve().parents[1] / "twos_tui" / "ui"


def test_table_screen_never_asks_for_the_family():
    from twos_tui.ui.boards import BOARDS
    from twos_tui.ui.variants import available_variants

    source = (UI / "screens" / "table.py").read_text(encoding="utf-8")
    assert "family" not in source.replace("game family", "")
    assert {cls.family for cls in available_variants()} <= set(BOARDS)


def test_no_textual_private_attributes_in_the_app():
    """No ``obj._name`` where ``_name`` is one of Textual's own private attributes (checked
    against the installed Textual's sources: the pinned one, and the newest 8.x in
    ``tools/newest_textual.sh``), anywhere in the UI, not even in a comment."""
    import textual

    root = Path(textual.__file__).parent
    textual_private = set()
    for f in root.rglob("*.py"):
        textual_private |= set(re.findall(r"self\.(_[a-z][a-z0-9_]*)", f.read_text("utf-8")))
    used = {}
    for f in UI.rglob("*.py"):
        for m in re.finditer(r"(\w+)\.(_[a-z][a-z0-9_]*)\b", f.read_text("utf-8")):
            obj, name = m.groups()
            if obj not in ("self", "cls") and name in textual_private:
                used.setdefault(name, []).append(f"{f.name}: {m.group(0)}")
    # on our own objects (self._x) names are ours unless Textual's base class has them
    for f in UI.rglob("*.py"):
        for name in re.findall(r"self\.(_[a-z][a-z0-9_]*)", f.read_text("utf-8")):
            if name in ("_registered_themes", "_size_known", "_shown_key", "_exception"):
                used.setdefault(name, []).append(f.name)
    assert not used, used


def test_no_private_module_of_textual_or_textual_serve_is_used():
    """Issue 32: the package reads only Textual's and textual-serve's public modules and
    names, so any Textual 8.x and textual-serve 1.x can stand beside it: no import of
    ``textual._x`` / ``textual.widgets._x`` / ``textual_serve._x``, no reach into a private
    method of theirs (``_build_environment``, ``_make_app``, ``_action_command_list``...),
    no name of Textual's private parts left (``HeaderTitle``, ``get_time``, ``__watchers``),
    and no ``textual_private`` module any more."""
    package = UI.parent
    assert not (UI / "textual_private.py").exists()
    # (a regex, not ast: in one pytest process after the deeply nested JSON of
    # test_hostile_serve, Python 3.11's ast.parse can fail with a SystemError)
    imports = re.compile(
        r"^\s*(?:from\s+(\S+)\s+import\s+([^#\n]+)|import\s+([^#\n]+))", re.MULTILINE
    )
    bad = []
    for f in sorted(package.rglob("*.py")):
        text = f.read_text("utf-8")
        for m in imports.finditer(text):
            module, names, plain = m.groups()
            found = [module] + [f"{module}.{n.strip()}" for n in names.split(",")] if module else []
            found += [n.strip().split(" ")[0] for n in (plain or "").split(",") if n.strip()]
            for name in found:
                parts = name.strip("() ").split(".")
                if parts[0] in ("textual", "textual_serve") and any(
                    p.startswith("_") for p in parts[1:]
                ):
                    bad.append(f"{f.relative_to(package)}: import {name}")
        for word in (
            "_build_environment",
            "_make_app",
            "_action_command_list",
            "_open_app_process",
            "_process_messages",
            "HeaderTitle",
            "get_time",
            "__watchers",
            "textual_private",
        ):
            if word in text:
                bad.append(f"{f.relative_to(package)}: {word}")
    assert bad == []


def test_chinese_poker_help_offers_no_passing_option():
    from twos_tui.ui.helptext import help_markdown

    text = help_markdown(new_game("chinese-poker", 4, {}, 0))
    rules = text.split("## House rules")[0]
    passing = rules.split("**Passing.**")[1].split("\n\n")[0]
    assert "default" not in passing and "house rule" not in passing
    assert not any(s.id == "passing" for s in new_game("chinese-poker", 4, {}, 0).option_specs(4))
