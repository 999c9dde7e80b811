"""The table's button row: Play (enabled when the selection may be played), one button
per choice of the decision (a small pool, relabelled rather than re-mounted), Hint and
Sort; and the footer's bindings, redrawn only when a decision by choices only comes or
goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.widgets import Button

from .table_moves import pass_choice

if TYPE_CHECKING:
    from .table import TableScreen


class ActionButtons:
    """Keeps the buttons in step with the decision at the screen."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.choice_sig: tuple | None = None  #: the choices the pool was labelled for
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
            submit.label = (d.submit or "play").replace("-", " ").capitalize()
            legal = (screen.current_reason() if reason == "" else reason) is None
            submit.disabled = not legal
            submit.variant = "success" if legal else "default"
        else:
            submit.display = False
        screen.query_one("#hint", Button).display = d is not None
        sig: tuple[tuple[str, str | None], ...] = (
            tuple((c.label, c.key) for c in d.choices) if d else ()
        )
        if sig != self.choice_sig:
            self.choice_sig = sig
            box = screen.query_one("#choices", Horizontal)
            pool = list(box.query_children(Button))
            extra = []
            for i, (text, key) in enumerate(sig):
                label = f"{text} ({key})" if key else text
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
        screen.query_one("#sort", Button).label = f"Sort: {screen.sort_by}"
        changed = False
        if screen._choices_only() != self.footer_choices_only:
            self.footer_choices_only = screen._choices_only()
            changed = True  # space Select comes and goes with it
        if d is not None and (pass_choice(d) is not None) != self.footer_pass:
            self.footer_pass = not self.footer_pass
            changed = True  # no "p Pass" where there is no pass (a lead, a trick game)
        if changed:
            screen.refresh_bindings()
