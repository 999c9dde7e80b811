"""The table's keys: its bindings, and which of them the key bar offers now.

The bindings are the screen's (:attr:`TableScreen.BINDINGS` is :data:`TABLE_BINDINGS`);
:func:`key_offered` is its ``check_action``: it reads only the screen's public state (the
decision at the screen, the demo, the spectator, the table's own "can" questions) and
what the key bar was last drawn for (:class:`.table_buttons.ActionButtons`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from ..typed_app import twos_app

if TYPE_CHECKING:
    from ...engine import Decision
    from .table import TableScreen

#: what a spectator's keys may do (nothing that acts: no select, play, hint, pass, sort,
#: undo)
SPECTATOR_ACTIONS = frozenset(
    {"help", "show_log", "last_trick", "score_sheet", "chat", "sit", "table_info", "clear"}
    | {"leave"}
)

TABLE_BINDINGS: list[BindingType] = [
    Binding("left", "cursor(-1)", "Move", show=False),
    Binding("right", "cursor(1)", "Move", show=False),
    Binding("up", "row(-1)", "Row up", show=False),
    Binding("down", "row(1)", "Row down", show=False),
    Binding("home", "cursor_to(0)", "First card", show=False),
    Binding("end", "cursor_to(-1)", "Last card", show=False),
    Binding("space", "pick", "Select"),
    Binding("space", "demo_pause", "Pause/run"),
    Binding("n", "demo_step", "Step"),
    Binding("f", "demo_follow", "Next seat"),
    Binding("enter", "submit", "Play"),
    Binding("enter", "submit('choice')", "Choose"),  # choices only: the marked one
    Binding("p", "pass_turn", "Pass"),
    # the climbing games: pass until this trick ends (a again: off)
    Binding("a", "auto_pass('on')", "Auto-pass"),
    Binding("a", "auto_pass('off')", "Auto-pass off"),
    Binding("h", "hint", "Hint"),
    # (at a joined table chat comes before the keys the help and the screen also
    # give, so that it is never the one a short key bar leaves out)
    Binding("c", "chat", "Chat"),  # a table with players on other computers
    Binding("j", "sit", "Take a seat"),  # a spectator, where a seat is free
    Binding("t", "last_trick('trick')", "Last trick"),
    Binding("t", "last_trick('hand')", "Last hand"),  # 2v1: the game's word
    Binding("l", "show_log", "Log", show=False),
    Binding("l", "show_log('watching')", "Log"),  # a spectator: room in the key bar
    Binding("i", "table_info", "Table info", show=False),
    Binding("s", "sort", "Sort"),
    Binding("o", "score_sheet", "Scores"),
    Binding("ctrl+z", "undo", "Undo", show=False),
    Binding("w", "watch_instead", "Watch", show=False),  # leave the seat (twice)
    Binding("escape", "clear", "Clear/leave", show=False),
    Binding("question_mark", "help", "Help", key_display="?"),
    # q says where it goes (one of these is offered: TwosApp.leave_to)
    Binding("q", "leave('Home')", "Home"),
    Binding("q", "leave('Lobby')", "Lobby"),
    Binding("q", "leave('Quit')", "Quit"),
]


def choices_only(d: Decision | None) -> bool:
    """A decision made by choices only (nothing to select: a bid, 2v1's card back)."""
    return d is not None and not d.select


def key_offered(screen: TableScreen, action: str, parameters: tuple[object, ...]) -> bool | None:
    """The screen's ``check_action``: whether ``action`` is offered now."""
    if action == "leave" and parameters:
        return parameters[0] == twos_app(screen).leave_to()
    if action == "show_log":
        # shown in the key bar only to a spectator, whose bar has the room
        return bool(parameters) == screen.spectator
    if screen.spectator and action not in SPECTATOR_ACTIONS:
        return False  # a spectator has no hand and no move: no key that acts
    if action in ("demo_pause", "demo_step", "demo_follow"):
        return screen.demo
    only_choices = choices_only(screen.decision)
    if action == "pick":
        # nothing to select in a decision made by choices only: space is not offered
        return not screen.demo and not only_choices
    if action == "submit":
        # "⏎ Play", or "⏎ Choose" where Enter takes the marked choice
        return not screen.demo and bool(parameters) == only_choices
    if action == "hint":
        return not screen.demo
    if action == "last_trick" and parameters:
        return parameters[0] == screen.trick_word  # the one in the game's word
    if action == "chat":
        return screen.table.can_chat
    if action == "sit":
        return screen.table.can_sit
    if action == "watch_instead":
        return screen.table.can_leave_seat
    if action == "auto_pass":
        return screen.autopass.usable(str(parameters[0]) if parameters else "on")
    if action == "pass_turn":
        # only where the decision has a pass (the footer is redrawn when that
        # changes, not on every turn: see ActionButtons.footer_pass)
        return not screen.demo and screen.buttons.footer_pass
    return True
