"""The host's own screen at a hosted table: a :class:`LocalSeatView` whose moves and
"next deal" go through the :class:`~.server.HostedTable` (so every remote player gets
the new state at once), whose seats show the remote players' connections, and which
hears of moves made elsewhere (``changed_elsewhere``, from the loop, never inside a
call the screen made)."""

from __future__ import annotations

from dataclasses import replace

from ...engine import Action, Decision, IllegalAction
from ...engine.views import AnyView, LogLine
from ..seat_view import LocalSeatView, SeatInfo, SeatView, log_lines, rules_game, with_chat
from ..turn_clock import ClockState
from . import messages as M
from . import protocol as P
from .server import HostedTable


class HostSeatView(LocalSeatView):
    def __init__(self, table: HostedTable) -> None:
        super().__init__(table.session, remote_seats=table.remote_seats)
        self.hosted = table
        table.views.append(self)
        self.chat_lines: list[LogLine] = []

    # ----- chat ------------------------------------------------------------------------------
    @property
    def can_chat(self) -> bool:
        return True

    def send_chat(self, text: str) -> str | None:
        if not P.clean_chat(text):
            return "A chat line needs some text."
        seat = self.controls[0] if self.controls else None
        self.hosted.chat(seat, text, "Host")
        return None

    def chat_arrived(self, msg: M.ChatLine) -> None:
        """A chat line at the table (on the loop): kept where the log is now."""
        seat = (self.controls or (0,))[0]
        anchor = len(self.game.observation(seat)["history"])
        self.chat_lines.append(msg.log_line(anchor))
        del self.chat_lines[: -P.CHAT_KEPT]

    def observation(self, seat: int) -> AnyView:
        obs = super().observation(seat)
        if self.chat_lines:
            log = with_chat(list(obs.history), self.chat_lines, self.game.deal_number)
            obs = replace(obs, history=log_lines(log))
        return obs

    @property
    def code(self) -> str:
        """The join code to give friends."""
        return self.hosted.code

    def names_changed(self) -> None:
        """A remote player's name replaced the seat's (before the first move)."""
        g = self.game
        self.rules = rules_game(g.variant_id, g.players, g.options, g.names)

    @property
    def seats(self) -> list[SeatInfo]:
        return self.hosted.seat_infos(None)

    def decision(self, seat: int) -> Decision | None:
        if not self.hosted.started:
            return None  # nobody moves before every seat has a player
        return super().decision(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        return super().legal_actions(seat) if self.hosted.started else []

    def ai_to_act(self) -> list[int]:
        return super().ai_to_act() if self.hosted.started else []

    def humans_to_act(self) -> list[int]:
        return super().humans_to_act() if self.hosted.started else []

    def check(self, seat: int, action: Action) -> str | None:
        if not self.hosted.started:
            return self.hosted.NOT_STARTED
        return super().check(seat, action)

    def act(self, seat: int, action: Action) -> None:
        if seat not in self.controls:
            raise IllegalAction("That seat is not played at this screen.")
        if not self.hosted.started:
            raise IllegalAction(self.hosted.NOT_STARTED)
        self.hosted.apply(seat, action, remote=False)

    def next_deal(self) -> None:
        """The host's people are ready; the deal starts when every connected player is
        (at once when nobody else is at the table)."""
        self.hosted.ready(None)
        # the table decides on the loop; when everybody else was ready it deals now
        self.hosted._maybe_next_deal()

    def waiting_for(self) -> str | None:
        return self.hosted.waiting(None)

    def clock_now(self) -> ClockState | None:
        return self.hosted.clock_state()

    def again(self) -> SeatView | None:
        return None

    def close(self) -> None:
        if self in self.hosted.views:
            self.hosted.views.remove(self)
        super().close()
