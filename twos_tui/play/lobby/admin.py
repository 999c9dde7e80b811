"""What the operator's commands print (``twos-tui server leaderboard``, ``server tables``,
``server ban NAME``): plain text made from the store, nothing printed here."""

from __future__ import annotations

import time
from collections.abc import Sequence

from ...engine import VARIANT_IDS
from .store import Store


def _table(
    header: tuple[str, ...], rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()
) -> list[str]:
    """Columns padded to their widest cell; the columns numbered in ``right`` (numbers)
    aligned to the right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = []
    for r in [header, *rows]:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def leaderboard_text(store: Store, game: str | None = None, limit: int = 20) -> str:
    """The leaderboard of ``game`` (every game when None) as a plain text table."""
    games = VARIANT_IDS if game is None else (game,)
    blocks = []
    for g in games:
        rows = store.leaderboard(g, limit)
        lines = [f"{g}:"]
        if rows:
            body = [(f"{r.rank}.", r.name, f"{r.rating:.0f}", str(r.matches)) for r in rows]
            lines += [
                "  " + line
                for line in _table(("#", "name", "rating", "matches"), body, right=(0, 2, 3))
            ]
        else:
            lines.append("  no rated matches yet")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _ago(when: float, now: float) -> str:
    secs = max(0, int(now - when))
    if secs < 60:
        return f"{secs} s ago"
    if secs < 3600:
        return f"{secs // 60} min ago"
    if secs < 86400:
        return f"{secs // 3600} h ago"
    return f"{secs // 86400} d ago"


def tables_text(store: Store, now: float | None = None) -> str:
    """The tables the store keeps for a restart, one a line (codes left out: they let
    anyone in)."""
    recs = store.tables()
    if not recs:
        return "No tables are open."
    at = time.time() if now is None else now
    body = [
        (
            r.table_id,
            r.game,
            "public" if r.public else "private",
            "rated" if r.rated else "unrated",
            r.process,
            _ago(r.updated, at),
        )
        for r in recs
    ]
    head = ("table", "game", "access", "rated", "process", "last saved")
    count = f"{len(recs)} table{'s' if len(recs) != 1 else ''} open:"
    return "\n".join([count, *_table(head, body)])


def ban_text(store: Store, name: str) -> str:
    """Ban ``name`` and say what happened, in a sentence."""
    found = store.account(name)
    if found is None:
        return f"No player is called {name!r}; nobody was banned."
    if found.banned:
        return f"{found.name!r} was already banned."
    store.ban(found.name)
    kind = "guest" if found.guest else "player"
    return f"Banned the {kind} {found.name!r}: off the leaderboards, and refused at login."
