"""The lobby's list of tables (:class:`TablesList`): Enter sits, a click only chooses."""

from __future__ import annotations

from textual import events

from ..chrome import SafeOptionList


class TablesList(SafeOptionList):
    """The tables of the game chosen. Enter (or a double click) sits at the table
    highlighted; a single click only highlights it, so that ``w`` can watch it."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        #: the last selection came from a single click (not a key, not a double click)
        self.single_click = False

    def on_click(self, event: events.Click) -> None:
        self.single_click = event.chain < 2
