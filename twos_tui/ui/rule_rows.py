"""The house-rule rows of a game, as the rules picker shows them (a list per rule, its
description under it, a rule set away from its usual value marked in words): built once
here for the picker (``screens/picker.py``) and the lobby's create-a-table dialog
(``screens/lobby_create.py``)."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Label, Select, Static

from ..engine.protocol import OptionSpec
from ..jsontypes import JsonObject

#: each house rule and its list (the value: the index of the rule's choice)
RuleSelects = list[tuple[OptionSpec, Select[int]]]


def house_rule_rows(
    specs: tuple[OptionSpec, ...], chosen: JsonObject
) -> tuple[list[Widget], RuleSelects]:
    """The rows for ``specs`` (each list set to the value in ``chosen``, else to the
    rule's usual value) and the lists, to read back with :func:`chosen_rules`."""
    rows: list[Widget] = []
    selects: RuleSelects = []
    for spec in specs:
        choices = [(Text(label), i) for i, (_, label) in enumerate(spec.choices)]
        default = next(i for i, (v, _) in enumerate(spec.choices) if v == spec.default)
        for i, (v, _) in enumerate(spec.choices):
            if spec.id in chosen and chosen[spec.id] == v:
                default = i
        sel = Select(
            choices, value=default, allow_blank=False, compact=True, classes="option-select"
        )
        selects.append((spec, sel))
        rows.append(
            Vertical(
                Horizontal(Label(spec.label, classes="option-label"), sel, classes="row"),
                Static(Text(spec.description, style="dim"), classes="option-desc"),
                classes="option",
            )
        )
    if not specs:
        rows.append(Static(Text("This game has no house-rule options.", style="dim")))
    return rows, selects


def mark_house_rules(selects: RuleSelects) -> None:
    """Mark each rule set away from its usual value: a "•" before its name and a line
    saying what the usual is (not by colour alone)."""
    for spec, sel in selects:
        row = sel.parent
        box = row.parent if row is not None else None
        if box is None:
            continue
        usual = spec.label_of(spec.default)
        changed = isinstance(sel.value, int) and spec.choices[sel.value][0] != spec.default
        desc = Text(spec.description, style="dim")
        if changed:
            desc.append(f"\n• House rule: the usual is {usual}.", style="italic")
        try:
            box.query_one(".option-label", Label).update(
                f"• {spec.label}" if changed else spec.label
            )
            box.query_one(".option-desc", Static).update(desc)
        except NoMatches:  # a row being taken down or not yet up
            continue


def chosen_rules(selects: RuleSelects) -> JsonObject:
    """The house rules chosen, by rule id (JSON values: the engine checks them)."""
    out: JsonObject = {}
    for spec, sel in selects:
        if isinstance(sel.value, int):
            out[spec.id] = spec.choices[sel.value][0]
    return out
