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
    """No ``obj._name`` where ``_name`` is one of Textual's own private attributes
    (checked against the pinned Textual's sources)."""
    import textual

    assert textual.__version__ == "8.2.8"  # the pin in pyproject.toml
    root = Path(textual.__file__).parent
    textual_private = set()
    for f in root.rglob("*.py"):
        textual_private |= set(re.findall(r"self\.(_[a-z][a-z0-9_]*)", f.read_text("utf-8")))
    used = {}
    for f in UI.rglob("*.py"):
        if f.name == "textual_private.py":
            continue  # the one module allowed to (see the next test)
        for m in re.finditer(r"(\w+)\.(_[a-z][a-z0-9_]*)\b", f.read_text("utf-8")):
            obj, name = m.groups()
            if obj not in ("self", "cls") and name in textual_private:
                used.setdefault(name, []).append(f"{f.name}: {m.group(0)}")
    # on our own objects (self._x) names are ours unless Textual's base class has them
    for f in UI.rglob("*.py"):
        for name in re.findall(r"self\.(_[a-z][a-z0-9_]*)", f.read_text("utf-8")):
            if name in ("_registered_themes", "_size_known", "_shown_key"):
                used.setdefault(name, []).append(f.name)
    assert not used, used


def test_chinese_poker_help_offers_no_passing_option():
    from twos_tui.ui.helptext import help_markdown

    text = help_markdown(new_game("chinese-poker", 4, {}, 0))
    rules = text.split("## House rules")[0]
    passing = rules.split("**Passing.**")[1].split("\n\n")[0]
    assert "default" not in passing and "house rule" not in passing
    assert not any(s.id == "passing" for s in new_game("chinese-poker", 4, {}, 0).option_specs(4))


def test_the_private_names_kept_exist_in_the_pinned_textual():
    """``twos_tui/ui/textual_private.py`` reads names Textual does not promise to keep:
    they must exist in the version pinned, with the meaning used."""
    import textual
    from textual.app import App

    from twos_tui.ui import textual_private

    assert textual.__version__ == textual_private.TEXTUAL_VERSION
    pyproject = (UI.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert f"textual=={textual_private.TEXTUAL_VERSION}" in pyproject
    import inspect

    from textual.widgets import Header

    # SafeHeader looks for the HeaderTitle part that Header composes
    assert "yield HeaderTitle()" in inspect.getsource(Header.compose)
    assert inspect.getmodule(textual_private.HeaderTitle) is inspect.getmodule(Header)
    # key guards compare a key's Message.time with this clock
    from textual import events

    before = textual_private.event_clock()
    assert before <= events.Key("enter", None).time <= textual_private.event_clock()
    # the guarded palette hands PageUp/PageDown on through this method
    from textual.command import CommandPalette

    assert "CommandList" in inspect.getsource(CommandPalette._action_command_list)
    app = App()
    assert hasattr(app, "_exception") and textual_private.app_exception(app) is None
    app._exception = ValueError("boom")
    assert isinstance(textual_private.app_exception(app), ValueError)
