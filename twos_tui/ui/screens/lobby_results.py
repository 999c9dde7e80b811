"""What the lobby open under its table tells that table's screens: a rated match's rating
change for the match-over box (the state the lobby gets once the match is over carries
the new result; no message of its own), an SSH door guest's "End the session?", the
table a join opens, and what to ask again after a redirect."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text

from ...play.lobby.model import LobbyRequest, QuickMatch, Redirect, SitDown, Watch
from ..lobby_text import change_text, rating_for, rating_text
from ..typed_app import twos_app

if TYPE_CHECKING:
    from ...play.seat_view import SeatView
    from .lobby import LobbyScreen


def match_rating(lobby: LobbyScreen, game: str) -> Text | None:
    """The rating change of the rated match just played at the table ``lobby`` seated us
    at, as the lobby said it ("Rating 1207 (+207)"): the first result of ``game`` new
    since we sat down; None before the lobby says it, or for an unrated match."""
    if lobby.state is None or lobby.results_before is None:
        return None
    me = lobby.state.me
    new = [r for r in me.recent if r.game == game and r not in lobby.results_before]
    if not new or new[0].rating_change is None:
        return None
    rating = rating_for(me, game)
    if rating is None:
        return None
    change = change_text(new[0].rating_change)
    return Text(f"Rating {rating_text(rating.rating)} ({change})", style="bold")


def tell_match_end(lobby: LobbyScreen) -> None:
    """The lobby's news reaches a match-over box open over its table."""
    from .dialogs import DealEndScreen

    for screen in lobby.app.screen_stack:
        if isinstance(screen, DealEndScreen) and screen.table.match_over:
            screen.show_rating(match_rating(lobby, screen.table.variant_id))


def leave_lobby(lobby: LobbyScreen) -> None:
    """Leave the lobby (home); an SSH door's guest, whose leaving ends the session, is
    asked "End the session?" first."""
    from .lobby_dialogs import ConfirmEndSession

    if not twos_app(lobby).exit_on_leave:
        twos_app(lobby).go_home()
        return

    def answer(end: bool | None) -> None:
        waiting, lobby.waiting_table = lobby.waiting_table, None
        if end:
            if waiting is not None:
                waiting.close()  # (the seat is held for the player, as on any drop)
            if lobby.is_attached:
                twos_app(lobby).go_home()
        elif waiting is not None:
            open_joined(lobby, waiting)

    lobby.app.push_screen(ConfirmEndSession(), answer)


def open_joined(lobby: LobbyScreen, view: SeatView) -> None:
    """The table ``view`` joined opens over the lobby (leaving it comes back there). A
    dialog over the lobby (the leaderboard...) gives way to it, but not the question
    "End the session?": the table waits for its answer (the lobby seats a player back
    at a held seat as they log in, which may land while they are asked)."""
    from ..hosting import join_notice, joined_view, show_join_notice
    from .lobby_dialogs import ConfirmEndSession

    if not lobby.is_attached:
        view.close()  # the lobby was left meanwhile
        return
    app = twos_app(lobby)
    if any(isinstance(s, ConfirmEndSession) for s in app.screen_stack):
        lobby.waiting_table = view
        return
    while app.screen is not lobby and len(app.screen_stack) > 1:
        app.pop_screen()
    app.start_session(joined_view(view), over_lobby=True)
    notice = join_notice(view)
    if notice:
        show_join_notice(app, notice)


def ask_again(redirect: Redirect, last: LobbyRequest | None) -> LobbyRequest:
    """After a redirect to another server: the request to send there."""
    if isinstance(last, SitDown | Watch) and last.table_id == redirect.table_id:
        return last
    if isinstance(last, QuickMatch) and not redirect.table_id:
        # people wait for this match over there: ask there (and be kept there)
        return replace(last, redirected=True)
    return SitDown(redirect.table_id)  # a new table, made over there: sit at it
