"""The table's button row: Play (enabled when the selection may be played), one button
per choice of the decision (a small pool, relabelled rather than re-mounted), Hint and
Sort; and the footer's bindings, redrawn only when a decision by choices only comes or
goes.

The row is one line and every label on it is shown whole: where the full labels do not
fit the width (2v1's bids or its two cards to keep, at 60 columns), the row's own
buttons drop their keys ("Hint", "Help": the keys help and the footer list them), then
the sort order ("Sort"), then the choices their keys, as far as needed.

The row is a widget (:class:`ActionRow`): a pressed button posts a message up
(:class:`ActionRow.PlayRequested`, :class:`ActionRow.ChoiceRequested`,
:class:`ActionRow.HintAsked`, :class:`ActionRow.SortRequested`,
:class:`ActionRow.HelpAsked`) that the screen handles, as it handles the same keys; it is
told what to show (:meth:`ActionRow.show`) and keeps its own labels. :class:`ActionButtons`
keeps the row and the key bar in step with the decision at the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button

from .table_keys import choices_only
from .table_moves import pass_choice

if TYPE_CHECKING:
    from ...engine import Decision
    from .table import TableScreen

CHOICE_POOL = 4  #: choice buttons mounted up front (more are mounted if ever needed)

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


class ActionRow(Horizontal):
    """The button row: Play, the decision's choices, Hint, Sort and Help. Each button
    posts its message up; what the row shows comes from :meth:`show`."""

    class PlayRequested(Message):
        """Play (or confirm) the selection: what Enter does."""

    class ChoiceRequested(Message):
        """The decision's ``index``-th choice was pressed."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class HintAsked(Message):
        """A hint, please (``h``)."""

    class SortRequested(Message):
        """Sort the hand the other way (``s``)."""

    class HelpAsked(Message):
        """The game's help (``?``)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: the choices the pool was labelled for: (label, key) of each
        self.choice_sig: tuple[tuple[str, str | None], ...] | None = None
        self.level = FULL  #: how short the labels are (:func:`fitting_level`)

    def compose(self) -> ComposeResult:
        yield Button("Play", id="submit", variant="success", compact=True)
        with Horizontal(id="choices"):
            # a small pool of choice buttons, relabelled and shown as decisions come
            # (re-mounting buttons on every turn cost extra layout passes)
            for i in range(CHOICE_POOL):
                b = Button("", name=str(i), classes="choice", compact=True)
                b.display = False
                yield b
        yield Button("Hint (h)", id="hint", compact=True)
        yield Button("Sort: rank", id="sort", compact=True)
        yield Button("Help (?)", id="help", compact=True)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()  # the row says what the press means
        button = event.button
        if button.has_class("choice"):
            if button.name is not None:
                self.post_message(self.ChoiceRequested(int(button.name)))
            return
        message = {
            "submit": self.PlayRequested,
            "hint": self.HintAsked,
            "sort": self.SortRequested,
            "help": self.HelpAsked,
        }.get(button.id or "")
        if message is not None:
            self.post_message(message())

    def choice_button(self, index: int) -> Button | None:
        """The button of the decision's ``index``-th choice (None: not shown)."""
        pool = list(self.query_one("#choices", Horizontal).query_children(Button))
        if index < len(pool) and pool[index].display:
            return pool[index]
        return None

    def show(
        self, d: Decision | None, legal: bool, sort_by: str, spectator: bool, width: int
    ) -> None:
        """Show the buttons for decision ``d``: ``legal``, the selection may be played;
        ``sort_by``, the hand's order; ``spectator``, no hand (no Sort); ``width``, the
        screen's."""
        submit = self.query_one("#submit", Button)
        if d is not None and d.select:
            submit.display = True
            relabel(submit, (d.submit or "play").replace("-", " ").capitalize())
            submit.disabled = not legal
            submit.variant = "success" if legal else "default"
        else:
            submit.display = False
        self.query_one("#hint", Button).display = d is not None
        sig: tuple[tuple[str, str | None], ...] = (
            tuple((c.label, c.key) for c in d.choices) if d else ()
        )
        submit_label = str(submit.label) if submit.display else None
        level = fitting_level(sig, sort_by, submit_label, d is not None, width)
        choices, hint, sort, help_ = row_labels(sig, sort_by, submit_label, level)
        if sig != self.choice_sig or level != self.level:
            self.choice_sig = sig
            self.level = level
            box = self.query_one("#choices", Horizontal)
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
            default = bool(sig) and choices_only(d)
            for i, b in enumerate(pool):
                b.variant = "primary" if default and i == 0 else "default"
            for b in pool:
                b.refresh(layout=True)  # (a label is not a layout change to Textual)
            relabel(self.query_one("#hint", Button), hint)
            relabel(self.query_one("#help", Button), help_)
        sort_button = self.query_one("#sort", Button)
        relabel(sort_button, sort)
        sort_button.display = not spectator  # a spectator has no hand to sort


class ActionButtons:
    """Keeps the button row (:class:`ActionRow`) and the key bar in step with the
    decision at the screen; it owns what the key bar was last drawn for."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.footer_choices_only = False  #: the footer was last drawn for choices only
        #: the footer offers "p Pass": only while the decision at the screen has a pass
        #: (kept as it was while no decision is shown, so it does not blink on AI turns)
        self.footer_pass = False

    def choice_button(self, index: int) -> Button | None:
        """The button of the decision's ``index``-th choice (None: not shown)."""
        return self.screen.query_one(ActionRow).choice_button(index)

    def render(self, reason: str | None = "") -> None:
        """The buttons; ``reason``: why the selection may not be played (None: it may),
        when the caller has it (``""``: ask the selection)."""
        screen = self.screen
        d = screen.decision
        legal = False
        if d is not None and d.select:
            legal = (screen.selection.reason() if reason == "" else reason) is None
        row = screen.query_one(ActionRow)
        row.show(d, legal, screen.sort_by, screen.spectator, screen.size.width)
        if self.keys_changed(d):
            screen.refresh_bindings()

    def keys_changed(self, d: Decision | None) -> bool:
        """Whether the key bar must be redrawn for ``d``: space Select comes and goes
        with a decision by choices only, "p Pass" with a pass on offer (a lead, a trick
        game have none)."""
        changed = False
        if choices_only(d) != self.footer_choices_only:
            self.footer_choices_only = choices_only(d)
            changed = True
        if d is not None and (pass_choice(d) is not None) != self.footer_pass:
            self.footer_pass = not self.footer_pass
            changed = True
        return changed
