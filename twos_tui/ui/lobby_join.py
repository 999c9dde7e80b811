"""From the lobby to the table: a ``Seated`` answer is joined as ``twos-tui join HOST
CODE`` joins (:meth:`RemoteSeatView.connect`), at the lobby server's address, with the
seat's token kept first where ``join`` keeps tokens (so the same ``join`` command, or the
lobby again, rejoins that seat after a drop)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..play.lobby.model import Seated
    from ..play.net.client import TokenStore
    from ..play.seat_view import SeatView


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
