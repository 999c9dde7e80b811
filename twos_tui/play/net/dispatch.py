"""What the host does with each client message: a table of handlers by message type.

A message arrives typed (:func:`~.protocol.decode_client` made it one of
:mod:`~.messages`); :func:`dispatch` looks up its handler by its class, checks what the
handler needs first (a hello, a table, a seat: :class:`Needs`, in that order) and runs
it. A handler either answers (an ``answer``, a ``welcome``, a ``bye``) or raises
:class:`~.protocol.BadMessage` with the reason, and nothing has changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, TypeVar

from ...engine import IllegalAction
from . import messages as M
from . import protocol as P
from .seats import JoinRefused, RemoteSeat

if TYPE_CHECKING:
    from .conn import Conn
    from .server import TableServer
    from .table import HostedTable


class Needs(IntEnum):
    """What a message needs before its handler runs (each level needs the ones below)."""

    NOTHING = 0  #: ``hello`` itself
    HELLO = 1  #: the connection said hello
    TABLE = 2  #: ... and joined a table (as a player or a spectator)
    SEAT = 3  #: ... and has a seat there (not a spectator)


_M = TypeVar("_M", bound=M.ClientMessage)
Handler = Callable[["TableServer", "Conn", Any], None]


@dataclass(frozen=True)
class Route:
    needs: Needs
    run: Handler


#: the handler of each client message type
ROUTES: dict[type[M.ClientMessage], Route] = {}


def handles(
    cls: type[_M], needs: Needs
) -> Callable[[Callable[[TableServer, Conn, _M], None]], Callable[[TableServer, Conn, _M], None]]:
    """Register the decorated function as the handler of message type ``cls``."""

    def register(
        fn: Callable[[TableServer, Conn, _M], None],
    ) -> Callable[[TableServer, Conn, _M], None]:
        ROUTES[cls] = Route(needs, fn)
        return fn

    return register


def dispatch(server: TableServer, conn: Conn, msg: M.ClientMessage) -> None:
    """Carry out ``msg`` of ``conn`` (:class:`~.protocol.BadMessage` if it is refused)."""
    route = ROUTES[type(msg)]
    rid = msg.id
    if route.needs >= Needs.HELLO and not conn.hello:
        raise P.BadMessage("Say hello first (with your protocol version).", P.E_HELLO, rid)
    if route.needs >= Needs.TABLE and conn.table is None:
        raise P.BadMessage("Join a table first.", P.E_JOIN_FIRST, rid)
    if route.needs >= Needs.SEAT and conn.seat is None:
        raise P.BadMessage("Spectators watch: take a free seat (sit) to play.", P.E_NOT_NOW, rid)
    route.run(server, conn, msg)


def _answer(msg: M.ClientMessage, result: str | None = None) -> M.Answer:
    return M.Answer(id=msg.id, kind=msg.TYPE, result=result)


def _at_table(conn: Conn) -> HostedTable:
    table = conn.table
    assert table is not None  # (checked by dispatch: Needs.TABLE)
    return table


def _seated(conn: Conn) -> tuple[HostedTable, int]:
    table, seat = conn.table, conn.seat
    assert table is not None and seat is not None  # (checked by dispatch: Needs.SEAT)
    return table, seat


# ----- before a table ------------------------------------------------------------------------
@handles(M.Hello, Needs.NOTHING)
def _hello(server: TableServer, conn: Conn, msg: M.Hello) -> None:
    if msg.v < P.MIN_VERSION:
        conn.send(
            M.Error(
                code=P.E_UPGRADE,
                reason=f"This host speaks protocol {P.PROTOCOL_VERSION}; your twos-tui is "
                "too old: update it (pip install -U twos-tui).",
                id=msg.id,
            )
        )
        conn.bye("Update twos-tui to join this table.")
        return
    if msg.v > P.PROTOCOL_VERSION:
        conn.send(
            M.Error(
                code=P.E_NEWER,
                reason=f"This host runs an older twos-tui (protocol {P.PROTOCOL_VERSION}): "
                "ask the host to update.",
                id=msg.id,
            )
        )
        conn.bye("The host's twos-tui is older than yours.")
        return
    conn.hello = True
    conn.send(_answer(msg))


@handles(M.Leave, Needs.HELLO)
def _leave(server: TableServer, conn: Conn, msg: M.Leave) -> None:
    conn.bye("Goodbye.")


@handles(M.Ping, Needs.HELLO)
def _ping(server: TableServer, conn: Conn, msg: M.Ping) -> None:
    conn.send(_answer(msg, "pong"))


@handles(M.Join, Needs.HELLO)
def _join(server: TableServer, conn: Conn, msg: M.Join) -> None:
    rid = msg.id
    if conn.table is not None:
        raise P.BadMessage("You are at a table already.", P.E_JOIN, rid)
    table = server.table_for(msg.code)
    if table is None or table.closed:
        raise P.BadMessage("No table here has that code.", P.E_JOIN, rid)
    note = None
    rs: RemoteSeat | None
    if msg.role == "watch" and not msg.token:
        rs = None
    else:
        try:
            rs = table.by_token(msg.token) if msg.token else table.claim(msg.name)
        except JoinRefused as e:
            if msg.token or str(e) != "The table is full.":
                raise P.BadMessage(str(e), P.E_JOIN, rid) from None
            rs, note = None, "The table is full: you are watching."
    if rs is None:  # a spectator
        table.watch(conn, msg.name)
        conn.send(welcome_message(table, rid, None, note))
    else:
        conn.table = table
        conn.seat = rs.seat
        conn.cursor = (-1, 0, 0)
        conn.send(welcome_message(table, rid, rs))
        table.connect(rs, conn)
    for _, line in table.chat_log:  # the recent chat, for whoever arrives
        conn.send(line)
    conn.push_state()


def welcome_message(
    table: HostedTable, rid: M.RequestId, rs: RemoteSeat | None, note: str | None = None
) -> M.Welcome:
    """The answer to a join (and to a spectator's ``sit``): the table, and the seat
    with its reconnect token (none for a spectator)."""
    g = table.game
    return M.Welcome(
        id=rid,
        role="player" if rs is not None else "watch",
        seat=rs.seat if rs is not None else None,
        code=table.code,
        table=M.TableInfo(
            variant=g.variant_id,
            players=g.players,
            options=g.options,
            names=list(g.names),
            hold_s=table.hold_s,
            can_sit=table.allow_sit,
        ),
        token=rs.token if rs is not None else None,
        note=note or None,
    )


# ----- at a table, seated or watching -------------------------------------------------------
@handles(M.Chat, Needs.TABLE)
def _chat(server: TableServer, conn: Conn, msg: M.Chat) -> None:
    if not conn.chat_bucket.take():
        raise P.BadMessage("You are chatting too fast: wait a moment.", P.E_TOO_FAST, msg.id)
    _at_table(conn).chat(conn.seat, msg.text, conn.name, conn.watching)
    conn.send(_answer(msg))


@handles(M.Watch, Needs.TABLE)
def _watch(server: TableServer, conn: Conn, msg: M.Watch) -> None:
    if conn.watching:
        raise P.BadMessage("You are watching already.", P.E_NOT_NOW, msg.id)
    _at_table(conn).leave_seat(conn)
    conn.push_state()  # the public view comes first, then the answer
    conn.send(_answer(msg))


@handles(M.Sit, Needs.TABLE)
def _sit(server: TableServer, conn: Conn, msg: M.Sit) -> None:
    if not conn.watching:
        raise P.BadMessage("You have a seat already.", P.E_NOT_NOW, msg.id)
    table = _at_table(conn)
    try:
        rs = table.sit(conn, msg.name)
    except JoinRefused as e:
        raise P.BadMessage(str(e), P.E_NOT_NOW, msg.id) from None
    conn.send(welcome_message(table, msg.id, rs))
    conn.push_state()


# ----- at a seat ---------------------------------------------------------------------------------
@handles(M.Check, Needs.SEAT)
def _check(server: TableServer, conn: Conn, msg: M.Check) -> None:
    table, seat = _seated(conn)
    result = table.NOT_STARTED if not table.started else table.game.check(seat, msg.action)
    if result is not None:
        result = table.scrub(seat, result, msg.action.cards)
    conn.send(_answer(msg, result))


@handles(M.Describe, Needs.SEAT)
def _describe(server: TableServer, conn: Conn, msg: M.Describe) -> None:
    table, seat = _seated(conn)
    g, action = table.game, msg.action
    result = None
    if table.started and g.check(seat, action) is None:
        result = g.describe(seat, action)
    if result is not None:
        result = table.scrub(seat, result, action.cards)
    conn.send(_answer(msg, result))


@handles(M.Ready, Needs.SEAT)
def _ready(server: TableServer, conn: Conn, msg: M.Ready) -> None:
    table, seat = _seated(conn)
    g, deal = table.game, msg.deal
    if not g.deal_over or g.match_over or (deal is not None and deal != g.deal_number):
        raise P.BadMessage("There is no next deal to be ready for now.", P.E_NOT_NOW, msg.id)
    table.ready(seat)
    conn.send(_answer(msg))


@handles(M.Act, Needs.SEAT)
def _act(server: TableServer, conn: Conn, msg: M.Act) -> None:
    table, seat = _seated(conn)
    g, action, rid = table.game, msg.action, msg.id
    if not table.started:
        raise P.BadMessage(table.NOT_STARTED, P.E_NOT_NOW, rid)
    if msg.n is not None and msg.n != len(g.actions):
        raise P.BadMessage("The table has moved on since that move was chosen.", P.E_STALE, rid)
    reason = g.check(seat, action)
    if reason is not None:
        raise P.BadMessage(table.scrub(seat, reason, action.cards), P.E_ILLEGAL, rid)
    try:
        table.apply(seat, action)
    except IllegalAction as e:  # checked just above: never expected
        raise P.BadMessage(table.scrub(seat, str(e), action.cards), P.E_ILLEGAL, rid) from None
    conn.push_state()
    answer = _answer(msg)
    server.note_answer(answer)
    # answered once the move is on disk: a server killed after the answer still has it
    table.when_saved(lambda: conn.send(answer))


#: every client message type has its handler (checked at import)
assert set(ROUTES) == set(M.CLIENT_MESSAGES.values()), "a client message type has no handler"
