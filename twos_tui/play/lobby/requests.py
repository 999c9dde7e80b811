"""What the lobby does with each message of a lobby connection: the login (challenge and
response: a name belongs to a key), and a logged-in player's requests (create, sit,
watch, quick match, cancel). Each answers the connection (a ``seated`` or a
``refused``); the lobby's state goes to everyone after a change."""

from __future__ import annotations

import hmac
import logging
from typing import TYPE_CHECKING

from ...engine import variant_class
from ..net.seats import JoinRefused, normalize_code
from . import wire as W
from .identity import IdentityError, verify
from .model import CancelQuickMatch, CreateTable, QuickMatch, Redirect, Seated, SitDown, Watch
from .tables import LobbyTable

if TYPE_CHECKING:
    from .conn import LobbyConn
    from .server import LobbyServer

log = logging.getLogger("twos_tui.lobby")

BANNED = (
    "This account is banned from this lobby. Ask the server's operator if you think it "
    "is a mistake."
)


def handle(server: LobbyServer, conn: LobbyConn, msg: W.ClientWire) -> None:
    """Carry out one checked message (a ``refused`` says why it was not)."""
    if isinstance(msg, W.Hello):
        if conn.hello:
            conn.refuse("You said hello already.")
            return
        conn.hello = True
        conn.send(W.Challenge(conn.nonce))
        return
    if not conn.hello:
        conn.refuse("Say hello first.")
        return
    if isinstance(msg, W.Login):
        login(server, conn, msg)
        return
    if conn.account is None:
        conn.refuse("Log in first (your name, or as a guest).")
        return
    if isinstance(msg, CreateTable):
        create(server, conn, msg)
    elif isinstance(msg, SitDown):
        sit(server, conn, msg)
    elif isinstance(msg, Watch):
        watch(server, conn, msg)
    elif isinstance(msg, QuickMatch):
        quick(server, conn, msg)
    elif isinstance(msg, CancelQuickMatch):
        if not server.queues.leave(conn):
            conn.refuse("You are not waiting for a quick match.")
            return
        server.changed()
    conn.bad = max(0, conn.bad - 1)


def login(server: LobbyServer, conn: LobbyConn, msg: W.Login) -> None:
    if conn.account is not None:
        conn.refuse("You are logged in already.")
        return
    store = server.store
    if msg.key is None or msg.sig is None:
        account = store.guest()
    else:
        try:
            fp = verify(msg.key, conn.nonce, msg.sig)
        except IdentityError as e:
            conn.bye(str(e))
            return
        found = store.account_for_key(fp)
        if found is None:
            if not msg.name:
                conn.refuse("Choose a name for your first visit: it will be yours, by your key.")
                return
            try:
                found = store.claim_name(msg.name, fp)
            except ValueError as e:  # the store's NameRefused: the sentence says why
                conn.refuse(str(e))
                return
        account = found
    if account.banned:
        conn.bye(BANNED)
        return
    conn.account = account
    log.info("lobby: %s logged in%s", account.name, " (guest)" if account.guest else "")
    conn.push_state()
    # a seat the player has at an unfinished table and is not at: back to it
    for lt in server.lobby_tables.values():
        seat = lt.seat_of(account.name)
        rs = lt.hosted.seats.get(seat) if seat is not None else None
        if rs is not None and rs.conn is None and not lt.game.match_over:
            conn.send(Seated(lt.table_id, lt.hosted.code, rs.seat, rs.token))


def _check_game(game: str, players: int) -> str | None:
    counts = [str(n) for n in variant_class(game).player_counts]
    if str(players) not in counts:
        many = ", ".join(counts[:-1]) + f" or {counts[-1]}" if len(counts) > 1 else counts[0]
        return f"{variant_class(game).name} is played by {many} players."
    return None


def create(server: LobbyServer, conn: LobbyConn, req: CreateTable) -> None:
    full = server.full()
    if full:
        conn.refuse(full)
        return
    problem = _check_game(req.game, req.players)
    if problem:
        conn.refuse(problem)
        return
    people = [i for i in range(req.players) if i >= len(req.ai_seats) or req.ai_seats[i] is None]
    if not people:
        conn.refuse("Leave at least one seat for a person (you).")
        return
    try:
        lt = LobbyTable.create(req, {people[0]: conn.name}, **server.table_kw)
    except (ValueError, TypeError) as e:
        conn.refuse(f"That table cannot be made: {str(e)[:200]}")
        return
    server.add_table(lt)
    rs = lt.hosted.seats[people[0]]
    conn.send(Seated(lt.table_id, lt.hosted.code, rs.seat, rs.token))


def _table(server: LobbyServer, conn: LobbyConn, table_id: str) -> LobbyTable | None:
    lt = server.lobby_tables.get(table_id)
    if lt is None or lt.hosted.closed:
        elsewhere = server.shared.where(table_id) if server.shared is not None else None
        if elsewhere is not None:  # another server process holds it: go there
            conn.send(Redirect(elsewhere, table_id))
            return None
        conn.refuse("There is no such table now (it may have ended).")
        return None
    return lt


def sit(server: LobbyServer, conn: LobbyConn, req: SitDown) -> None:
    lt = _table(server, conn, req.table_id)
    if lt is None:
        return
    mine = lt.seat_of(conn.name)
    if mine is not None:  # their own seat again (a rejoin)
        rs = lt.hosted.seats[mine]
        conn.send(Seated(lt.table_id, lt.hosted.code, mine, rs.token))
        return
    if not lt.public:
        given = normalize_code(req.code or "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), lt.hosted.code.encode()):
            conn.refuse("That table is private: ask its players for the code.")
            return
    if lt.game.match_over:
        conn.refuse("That table's match is over.")
        return
    try:
        rs = lt.seat(conn.name, req.seat)
    except JoinRefused as e:
        conn.refuse(str(e))
        return
    server.save_table(lt)
    server.changed()
    conn.send(Seated(lt.table_id, lt.hosted.code, rs.seat, rs.token))


def watch(server: LobbyServer, conn: LobbyConn, req: Watch) -> None:
    lt = _table(server, conn, req.table_id)
    if lt is None:
        return
    if not lt.public and lt.seat_of(conn.name) is None:
        conn.refuse("That table is private: ask its players for the code.")
        return
    conn.send(Seated(lt.table_id, lt.hosted.code, None, ""))


def quick(server: LobbyServer, conn: LobbyConn, req: QuickMatch) -> None:
    problem = _check_game(req.game, req.players) or server.full()
    if problem:
        conn.refuse(problem)
        return
    if any(w.name == conn.name and w.who is not conn for w in server.queues.waiting()):
        conn.refuse("You are waiting for a quick match already (in another window).")
        return
    shared = server.shared
    if shared is not None and not req.redirected:
        here = bool(server.queues.queues.get((req.game, req.players)))
        elsewhere = shared.queue_elsewhere(req.game, req.players, here)
        if elsewhere is not None:  # people wait for this match in another process: there
            conn.send(Redirect(elsewhere, ""))
            return
    server.queues.join(conn, conn.name, req.game, req.players, req.wait_s)
    server.run_queues()
    server.changed()


def seat_group(server: LobbyServer, game: str, players: int, group: list[LobbyConn]) -> None:
    """Seat a quick match's people together (the AI at "normal" in the empty seats)."""
    names = {i: c.name for i, c in enumerate(group)}
    ai = (None,) * len(group) + ("normal",) * (players - len(group))
    req = CreateTable(game, players, ai_seats=ai, rated=True, public=True)
    try:
        lt = LobbyTable.create(req, names, **server.table_kw)
    except (ValueError, TypeError) as e:
        for c in group:
            c.refuse(f"The quick match could not start: {str(e)[:200]}")
        return
    server.add_table(lt)
    for i, c in enumerate(group):
        rs = lt.hosted.seats[i]
        c.send(Seated(lt.table_id, lt.hosted.code, i, rs.token))
