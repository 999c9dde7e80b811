"""The views the table opens over itself: help, the last trick, the deal's log, and the
"leave this game?" question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..playlog import PlayLog
from ..typed_app import twos_app

if TYPE_CHECKING:
    from .dialogs import InfoDialog
    from .table import TableScreen


class TableViews:
    """Opens the table's dialogs."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        #: the last-trick view opened from the table while it is up (it follows play)
        self.open_trick: InfoDialog | None = None

    def help(self) -> None:
        from .help import HelpScreen

        self.screen.app.push_screen(HelpScreen(self.screen.table.rules))

    def leave(self) -> None:
        from .dialogs import ConfirmLeave

        screen = self.screen

        def answer(leave: bool | None) -> None:
            if leave:
                twos_app(screen).go_home()

        screen.app.push_screen(ConfirmLeave.for_app(screen), answer)

    def last_trick(self) -> None:
        screen = self.screen
        view = screen.table_view()
        if view.obs is None:
            return
        dialog = self.last_trick_dialog()
        if dialog is None:
            word = screen.game.deal_word
            screen.show_message(f"No {screen.trick_word} has been finished yet this {word}.", "")
            return
        self.open_trick = dialog
        screen.app.push_screen(dialog)

    def follow_last_trick(self) -> None:
        """The last-trick view opened from the table stays true while it is up: the
        table plays on under it (a spectator's or a remote player's table, or the AI's
        moves), so when another trick (2v1: hand) is finished it shows that one, as the
        log does. (Until the next one is finished, the one shown is still the last.)"""
        dialog = self.open_trick
        if dialog is None:
            return
        if not dialog.is_attached:
            self.open_trick = None  # closed
            return
        screen = self.screen
        view = screen.table_view()
        if view.obs is None:
            return  # a hot-seat table hidden between its players: nothing is redrawn
        text = type(screen.board).last_trick(view)
        if text is not None and text.plain != dialog.body.plain:
            dialog.show_body(text)

    def last_trick_dialog(self) -> InfoDialog | None:
        """The last-trick view (an :class:`InfoDialog`), or None before the first trick
        ends. Only public play is shown, so it needs no seat at the screen (the deal-end
        dialog asks for it while a hot-seat table is hidden)."""
        from .dialogs import InfoDialog

        screen = self.screen
        view = screen.table_view()
        if view.obs is None:
            view.obs = screen.game.observation(view.me)
        text = type(screen.board).last_trick(view)
        if text is None:
            return None
        return InfoDialog(f"Last {screen.trick_word}", text)

    def show_log(self) -> None:
        """The log of the deal being played (or just finished): its own lines only. The
        engine's history runs on from deal to deal (the panel shows the newest lines
        whatever their deal); each entry says its deal."""
        from .dialogs import InfoDialog
        from .table_panels import log_line

        screen = self.screen
        g = screen.game
        view = screen.table_view()
        obs = view.obs if view.obs is not None else g.observation(view.me)
        number = obs.deal_number
        entries = [log_line(e) for e in obs.history if e.deal == number]
        if not entries:  # an engine whose entries carry no deal: the panel's lines
            entries = list(screen.query_one(PlayLog).entries)
        title = f"Log of {g.deal_word} {number}"
        screen.app.push_screen(InfoDialog(title, Text("\n").join(entries)))

    def score_sheet_dialog(self) -> InfoDialog:
        """The match's score sheet so far (public: it needs no seat at the screen)."""
        from .dialogs import InfoDialog
        from .score_sheet import score_sheet

        screen = self.screen
        g = screen.game
        view = screen.table_view()
        obs = view.obs if view.obs is not None else g.observation(view.me)
        return InfoDialog("Score sheet", score_sheet(g, obs), scroll_to_end=False)

    def score_sheet(self) -> None:
        self.screen.app.push_screen(self.score_sheet_dialog())
