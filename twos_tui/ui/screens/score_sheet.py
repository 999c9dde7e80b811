"""The match's score sheet (every finished deal's change per seat, and the totals) and,
at a deal's end, the cards each seat still held: both drawn from the observation's public
keys (``deal_scores``; climbing games' ``hands_left``, present only once the deal is
over)."""

from __future__ import annotations

from rich.text import Text

from ...engine.views import AnyView, ClimbingView
from ...play.seat_view import SeatView
from ..cardart import face_style

NAME_WIDTH = 8  #: a column per seat: names are cut to this


def score_sheet(g: SeatView, obs: AnyView) -> Text:
    """One row per finished deal: each seat's change; then the totals."""
    word = g.deal_word.capitalize()
    sheet = list(obs.deal_scores or [])
    names = [n[:NAME_WIDTH] for n in g.names]
    width = max([NAME_WIDTH // 2 + 2] + [len(n) for n in names])
    first = max(len(word) + 4, 7)
    t = Text()
    t.append(f"{word:<{first}}", style="bold")
    t.append("".join(f"{n:>{width + 1}}" for n in names) + "\n", style="bold")
    if not sheet:
        t.append(f"No {g.deal_word} is over yet.\n", style="italic")
    for row in sheet:
        t.append(f"{row.deal:<{first}}")
        t.append("".join(f"{c:>+{width + 1}d}" for c in row.changes) + "\n")
    totals = obs.totals
    t.append(f"{'Total':<{first}}", style="bold")
    t.append("".join(f"{v:>{width + 1}d}" for v in totals), style="bold")
    target = g.target_text().strip()
    if target:
        t.append(f"\n\n{target.rstrip('.')}.", style="dim")
    else:
        low = "lowest" if g.low_score_wins else "highest"
        t.append(f"\n\n{g.score_label}: the {low} total wins.", style="dim")
    return t


def hands_left(g: SeatView, obs: AnyView, me: int | None = None) -> Text | None:
    """The cards each seat still held when the deal ended (``None``: nothing shown, as
    in the trick games, whose hands are played out)."""
    left = obs.hands_left if isinstance(obs, ClimbingView) else None
    if not left or not any(left):
        return None
    width = max(len(n) for n in g.names)
    t = Text()
    for seat, cards in enumerate(left):
        if not cards:
            continue
        if t.cell_len:
            t.append("\n")
        name = g.names[seat] + (" (you)" if seat == me else "")
        t.append(f"{name:<{width + (6 if me is not None else 0)}} ")
        for i, code in enumerate(g.sort_cards(list(cards))):
            if i:
                t.append(" ")
            face = g.card_face(code)
            t.append(face.label, style=face_style(face))
    return t
