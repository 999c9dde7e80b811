"""The table's button row: Play (enabled when the selection may be played), one button
per choice of the decision (a small pool, relabelled rather than re-mounted), Hint and
Sort; and the footer's bindings, redrawn only when a decision by choices only comes or
goes.

The row is one line and every label on it is shown whole: where the full labels do not
fit the width (2v1's bids or its two cards to keep, at 60 columns), the row's own
buttons drop their keys ("Hint", "Help": the keys help and the footer list them), then
the sort order ("Sort"), then the choices their keys, as far as needed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Button

from .table_moves import pass_choice

if TYPE_CHECKING:
    from .table import TableScreen

#: the cells a button takes beside its label: its padding (one each side) and its margin
BUTTON_CELLS = 3
#: the cells of the row not for buttons: its padding (one each side)
ROW_CELLS = 2
#: how short the labels are, tried in order until the row fits
FULL, NO_KEYS, SHORT_SORT, BARE_CHOICES = range(4)


def row_labels(
    choices: tuple[tuple[str, str | None], ...], sort_by: str, submit: str | None, level: int
) -> tuple[list[str], str, str, str]:
    """The labels of the row at ``level``: (the choices, Hint, Sort, Help); ``submit``
    (the Play button's, when it shows) is never shortened."""
    bare = level >= BARE_CHOICES
    shown = [f"{text} ({key})" if key and not bare else text for text, key in choices]
    hint = "Hint (h)" if level < NO_KEYS else "Hint"
    sort = f"Sort: {sort_by}" if level < SHORT_SORT else "Sort"
    help_ = "Help (?)" if level < NO_KEYS else "Help"
    return shown, hint, sort, help_


def row_width(labels: list[str]) -> int:
    """The cells a row of buttons with ``labels`` takes."""
    # (the last button's margin may fall on the row's padding)
    return ROW_CELLS + sum(Text(label).cell_len + BUTTON_CELLS for label in labels) - 1


def fitting_level(
    choices: tuple[tuple[str, str | None], ...],
    sort_by: str,
    submit: str | None,
    hint: bool,
    width: int,
) -> int:
    """The first level (:data:`FULL` ...) at which the row fits ``width`` cells (the
    last one if none does)."""
    for level in (FULL, NO_KEYS, SHORT_SORT):
        shown, hint_l, sort_l, help_l = row_labels(choices, sort_by, submit, level)
        labels = [
            *([submit] if submit else []),
            *shown,
            *([hint_l] if hint else []),
            sort_l,
            help_l,
        ]
        if row_width(labels) <= width:
            return level
    return BARE_CHOICES


def relabel(button: Button, label: str) -> None:
    """A new label, the button sized to it (Textual repaints a new label in the old
    size)."""
    if str(button.label) != label:
        button.label = label
        button.refresh(layout=True)


class ActionButtons:
    """Keeps the buttons in step with the decision at the screen."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        #: the choices the pool was labelled for: (label, key) of each
        self.choice_sig: tuple[tuple[str, str | None], ...] | None = None
        self.level = FULL  #: how short the labels are (:func:`fitting_level`)
        self.footer_choices_only = False  #: the footer was last drawn for choices only
        #: the footer offers "p Pass": only while the decision at the screen has a pass
        #: (kept as it was while no decision is shown, so it does not blink on AI turns)
        self.footer_pass = False

    def choice_button(self, index: int) -> Button | None:
        """The button of the decision's ``index``-th choice (None: not shown)."""
        pool = list(self.screen.query_one("#choices", Horizontal).query_children(Button))
        if index < len(pool) and pool[index].display:
            return pool[index]
        return None

    def render(self, reason: str | None = "") -> None:
        """The buttons; ``reason``: :meth:`TableScreen.current_reason` when the caller
        has it."""
        screen = self.screen
        d = screen._decision
        submit = screen.query_one("#submit", Button)
        if d is not None and d.select:
            submit.display = True
            relabel(submit, (d.submit or "play").replace("-", " ").capitalize())
            legal = (screen.current_reason() if reason == "" else reason) is None
            submit.disabled = not legal
            submit.variant = "success" if legal else "default"
        else:
            submit.display = False
        screen.query_one("#hint", Button).display = d is not None
        sig: tuple[tuple[str, str | None], ...] = (
            tuple((c.label, c.key) for c in d.choices) if d else ()
        )
        submit_label = str(submit.label) if submit.display else None
        level = fitting_level(sig, screen.sort_by, submit_label, d is not None, screen.size.width)
        choices, hint, sort, help_ = row_labels(sig, screen.sort_by, submit_label, level)
        if sig != self.choice_sig or level != self.level:
            self.choice_sig = sig
            self.level = level
            box = screen.query_one("#choices", Horizontal)
            pool = list(box.query_children(Button))
            extra = []
            for i, label in enumerate(choices):
                if i < len(pool):
                    pool[i].label = label
                    pool[i].display = True
                else:
                    extra.append(Button(label, name=str(i), classes="choice", compact=True))
            for b in pool[len(sig) :]:
                b.display = False
            if extra:
                box.mount_all(extra)
            # choices only: the first is what Enter takes, drawn as the default button
            default = bool(sig) and d is not None and not d.select
            for i, b in enumerate(pool):
                b.variant = "primary" if default and i == 0 else "default"
            for b in pool:
                b.refresh(layout=True)  # (a label is not a layout change to Textual)
            relabel(screen.query_one("#hint", Button), hint)
            relabel(screen.query_one("#help", Button), help_)
        sort_button = screen.query_one("#sort", Button)
        relabel(sort_button, sort)
        sort_button.display = not screen.spectator  # a spectator has no hand to sort
        changed = False
        if screen._choices_only() != self.footer_choices_only:
            self.footer_choices_only = screen._choices_only()
            changed = True  # space Select comes and goes with it
        if d is not None and (pass_choice(d) is not None) != self.footer_pass:
            self.footer_pass = not self.footer_pass
            changed = True  # no "p Pass" where there is no pass (a lead, a trick game)
        if changed:
            screen.refresh_bindings()
