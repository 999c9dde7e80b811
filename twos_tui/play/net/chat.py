"""The chat of a hosted table: one line to everybody at the table (the players, the
spectators and the host's screen), the last lines kept for whoever joins later."""

from __future__ import annotations

import logging
import time

from . import messages as M
from . import protocol as P
from .table_base import TableBase

log = logging.getLogger("twos_tui.net")


class ChatRole(TableBase):
    """The chat."""

    def chat(self, seat: int | None, text: str, name: str = "", watching: bool = False) -> None:
        """One chat line to everybody at the table (the players, the spectators and the
        host's screen). ``text`` is cleaned again here (the host's own lines too)."""
        clean = P.clean_chat(text)
        if not clean:
            return
        if seat is not None:
            name = self.game.names[seat]
        msg = M.ChatLine(
            seat=seat,
            name=P.clean_chat(name)[:40],
            watching=watching,
            text=clean,
            at=round(time.time(), 1),
            deal=self.game.deal_number,
        )
        try:  # only a line that can be sent is kept for those who join later
            P.encode(msg)
        except P.Unsendable as e:
            log.warning("table %s: a chat line was not sent: %s", self.code, e)
            return
        self.chat_log.append((len(self.game.history), msg))
        for c in list(self.conns):
            c.send(msg)
        for v in self.views:
            try:
                v.chat_arrived(msg)
            except Exception:  # the host's screen: the others still get the line
                log.exception("the host's screen could not take a chat line")
        loop = self.loop
        if loop is not None and not loop.is_closed():
            for v in self.views:
                loop.call_soon_threadsafe(v.changed_elsewhere)
