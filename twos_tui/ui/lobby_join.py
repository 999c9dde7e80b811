"""Into the lobby and from the lobby to a table.

* :func:`run_lobby`: ``twos-tui join HOST[:PORT]`` (no code): the app opens on the lobby
  of the lobby server there, logged in with this install's key (a
  :class:`~twos_tui.play.lobby.client.LobbyClient` on the app's own loop).
* :func:`connect_seated`: a ``Seated`` answer is joined as ``twos-tui join HOST CODE``
  joins (:meth:`RemoteSeatView.connect`), at the lobby server's address, with the seat's
  token kept first where ``join`` keeps tokens (so the same ``join`` command, or the
  lobby again, rejoins that seat after a drop).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..play.lobby.client import LobbyClient
    from ..play.lobby.model import LobbyLink, Seated
    from ..play.net.client import TokenStore
    from ..play.seat_view import SeatView
    from .app import TwosApp
    from .screens.lobby import LobbyConnect


def connect_seated(
    host: str,
    port: int,
    seated: Seated,
    name: str | None = None,
    store: TokenStore | None = None,
) -> SeatView:
    """Join the table the lobby seated us at (blocks; raises ``JoinError`` with the
    reason). A ``Seated`` without a seat watches the table."""
    from ..play.net.client import RemoteSeatView, TokenStore

    store = store if store is not None else TokenStore()
    watch = seated.seat is None
    if not watch and seated.token:
        store.put(TokenStore.key(host, port, seated.code), seated.token)
    return RemoteSeatView.connect(
        host, port, seated.code, name=name, token_store=store, watch=watch
    )


def run_lobby(
    host: str, port: int, name: str | None = None, guest: bool = False, keyless: bool = False
) -> int:
    """``twos-tui join HOST[:PORT]``: the app on the lobby at ``host:port``; the exit
    status. A lobby that cannot be reached, or that refuses us, ends the app with one
    line on stderr and status 2, as ``join`` does for a table. ``guest``: leaving the
    lobby ends the app (an SSH door's guest); ``keyless``: log in without a key, as a
    guest (an SSH guest who came without a key)."""
    from ..play.lobby.identity import IdentityError

    try:
        app, failed = lobby_app(host, port, name, keyless)
        app.exit_on_leave = guest
    except (IdentityError, OSError) as e:
        print(f"twos-tui: {e}", file=sys.stderr)
        return 2
    from .app import run_built

    status = run_built(app)
    if failed:
        print(f"twos-tui: {failed[0]}", file=sys.stderr)
        return 2
    return status


async def open_lobby_client(
    host: str, port: int, name: str | None = None, keyless: bool = False
) -> tuple[LobbyClient, LobbyConnect]:
    """Log in to the lobby at ``host:port`` with this install's key (made now at the
    first use): the client, with its first listing as its ``state``, and how to open
    another (a redirect). ``LobbyError`` / ``IdentityError`` with the reason."""
    from ..play.lobby.client import LobbyClient
    from ..play.lobby.identity import Identity

    identity = None if keyless else Identity.load()

    async def connect(to_host: str, to_port: int) -> LobbyLink:
        client = LobbyClient(to_host, to_port, identity, name)
        await client.open()
        return client

    client = LobbyClient(host, port, identity, name)
    await client.open()
    return client, connect


def say_security(app: TwosApp, client: LobbyClient, first_visit: bool) -> None:
    """What the lobby's connection is: a first visit pinned the server's certificate,
    and the player should compare its fingerprint (as ``join`` shows it)."""
    from ..play.net.tls import address_key

    if client.security:
        app.notify(
            client.security,
            title=f"Lobby at {address_key(client.host, client.port)}",
            severity="warning" if first_visit else "information",
            timeout=20 if first_visit else 5,
        )


def lobby_app(
    host: str, port: int, name: str | None = None, keyless: bool = False
) -> tuple[TwosApp, list[str]]:
    """The app that opens on the lobby at ``host:port`` (:func:`open_lobby_client`),
    and the list where it puts the reason if the lobby cannot be reached or refuses us
    (the app then ends, and :func:`run_lobby` says why). ``name``: the name asked for on
    a first visit (the server keeps it for this install's key)."""
    from ..play.lobby.client import LobbyError
    from ..play.lobby.identity import Identity
    from ..play.net.tls import KnownHosts
    from .app import make_app

    if not keyless:
        Identity.load()  # (a key that cannot be used: IdentityError, before any screen)
    app = make_app(ai_pause=None, tips=True)
    failed: list[str] = []

    async def start() -> None:
        first_visit = KnownHosts().get(host, port) is None
        try:
            client, connect = await open_lobby_client(host, port, name, keyless)
        except LobbyError as e:
            failed.append(str(e))
            app.exit()  # (run_lobby says why; a return code would read as a crash)
            return
        app.open_lobby(client, (host, port), connect)
        if not app.exit_on_leave:  # (an SSH door's guest knows the door's key, not this)
            say_security(app, client, first_visit)

    app.on_start = lambda: app.run_worker(start(), group="lobby-open", exclusive=True)
    return app, failed
