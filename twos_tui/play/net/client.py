"""A seat at a table hosted on another computer, by role:

* :mod:`.connection` — :class:`TableClient`, the connection (asyncio): hello, join, the
  host's messages (typed at the door) kept as that seat's mirror of the table, requests
  answered by id, and reconnecting with the seat's token when the connection drops; and
  :class:`TokenStore`, the reconnect tokens kept between runs.
* :mod:`.remote_view` — :class:`RemoteSeatView`, which puts the connection on a thread
  of its own and answers the table screen's synchronous calls (a ``SeatView``).
* :mod:`.bot` — :func:`run_bot` plays a seat with the AI (``twos-tui join ... --bot``).

This module gathers their names (the one import path of the app, the command line and
the tests).
"""

from __future__ import annotations

from .bot import play_bot, run_bot
from .connection import (
    CLIENT_NAME,
    DEFAULT_PORT,
    MAX_FROM_HOST,
    REQUEST_TIMEOUT_S,
    RETRY_DELAYS,
    TOKENS_FILE,
    JoinError,
    TableClient,
    TokenStore,
)
from .remote_view import RemoteSeatView

__all__ = [
    "CLIENT_NAME",
    "DEFAULT_PORT",
    "MAX_FROM_HOST",
    "REQUEST_TIMEOUT_S",
    "RETRY_DELAYS",
    "TOKENS_FILE",
    "JoinError",
    "RemoteSeatView",
    "TableClient",
    "TokenStore",
    "play_bot",
    "run_bot",
]
