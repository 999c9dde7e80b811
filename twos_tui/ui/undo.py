"""``ctrl+z`` at the table: take back your last action (and what the AI did since).

The session decides whether an undo is allowed and rewinds the game with the engine
(:meth:`twos_tui.play.session.Session.undo`); this helper stops an AI that is thinking,
then redraws the table from the rewound game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import WorkerCancelled, WorkerState

from ..play.session import UndoRefused

if TYPE_CHECKING:
    from .screens.table import TableScreen


async def undo_at_table(screen: TableScreen) -> None:
    session = screen.table
    reason = session.can_undo()
    if reason is not None:
        screen.show_message(reason, error=True)
        return
    # an AI move that has not happened yet must not happen on the old position
    for worker in list(screen.workers):
        if worker.group == "ai" and worker.state in (WorkerState.PENDING, WorkerState.RUNNING):
            worker.cancel()
            try:
                await worker.wait()
            except WorkerCancelled:
                pass
            except Exception:
                pass  # its own failure is reported by the worker; the undo goes on
    try:
        taken = session.undo()
    except UndoRefused as e:
        screen.show_message(str(e), error=True)
        return
    except Exception as e:  # never ends the app: the game stays as it was
        screen.show_message(f"Could not take that back ({type(e).__name__}: {e})"[:200], error=True)
        return
    screen.selected.clear()
    screen.autopass.clear()  # the seat plays the turn it took back itself
    theirs = taken - 1
    screen.show_message(
        "Took back your last move"
        + (f" and {theirs} move{'s' if theirs != 1 else ''} after it." if theirs else ".")
    )
    screen.after_change()
