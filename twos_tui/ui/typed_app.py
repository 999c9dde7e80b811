"""``twos_app(node)``: the running :class:`~twos_tui.ui.app.TwosApp` as that type.

Textual types ``Widget.app`` as a plain ``App``; screens that call this app's own methods
(``open_picker``, ``go_home``, ``start_session``...) go through this function so that
mypy checks those calls. It is a ``cast``: no cost and no check at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

if TYPE_CHECKING:
    from .app import TwosApp


def twos_app(node: DOMNode) -> TwosApp:
    """The app ``node`` runs in, typed as the twos-tui app."""
    return cast("TwosApp", node.app)
