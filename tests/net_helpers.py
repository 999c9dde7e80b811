"""Helpers of the network tests: a live server on 127.0.0.1 (an ephemeral port), bot
clients on the same loop, and an SSH door with a guest's terminal read as it comes."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from twos_tui.play.net import messages as M
from twos_tui.play.net.client import TableClient, play_bot
from twos_tui.play.net.server import HostedTable, TableServer

#: short matches: the options that make each game's match short
SHORT: dict[str, dict[str, Any]] = {
    "twos": {"deals_to_win": 1},
    "big-two": {"target": 50},
    "big-two-5r": {},
    "chinese-poker": {"target": 50},
    "2v1": {"coins_to_win": 5},
    "twos-tricks": {"game_length": 1},
}
PLAYERS = {"twos": 3, "big-two": 4, "big-two-5r": 4, "chinese-poker": 4, "2v1": 3, "twos-tricks": 4}


@contextlib.asynccontextmanager
async def live_server(**kw: Any):
    server = TableServer(**kw)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def server_elsewhere(*tables: HostedTable, **kw: Any):
    """A live server on a loop and thread of its own, as a host on another computer is:
    a screen that waits for the host's answer (the app's synchronous seat calls) does
    not hold the host up, as it does a server on the test's own loop. ``tables`` are
    added on the server's loop; read them from the test, never change them."""
    import threading

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="test-host", daemon=True)
    thread.start()
    server = TableServer(**kw)

    async def start() -> None:
        await server.start("127.0.0.1", 0)
        for table in tables:
            server.add(table)

    def on_host(coro: Any) -> Any:
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    try:
        await on_host(start())
        yield server
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(on_host(server.close()), 10)

        async def finish_the_rest() -> None:
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in rest:
                t.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

        with contextlib.suppress(Exception):
            await asyncio.wait_for(on_host(finish_the_rest()), 10)
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, 10)
        if not thread.is_alive():
            loop.close()


def remote_table(
    variant: str, seed: int = 1, kinds: list[str] | None = None, **kw: Any
) -> HostedTable:
    kinds = kinds or ["remote"] * PLAYERS[variant]
    kw.setdefault("ai_pause", 0.0)
    return HostedTable.create(variant, kinds, options=SHORT[variant], seed=seed, level="easy", **kw)


async def until(cond, what: str = "the condition", timeout: float = 60.0, step: float = 0.01):
    """Wait (polling every ``step`` seconds) until ``cond()`` holds and return its value;
    fail after ``timeout`` seconds saying ``what`` never came. The bound is in seconds and
    generous: messages between the server and its clients take longer on a busy machine,
    and the wait is only as long as the state takes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := cond()):
        if loop.time() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        await asyncio.sleep(step)
    return value


# ----- the SSH door ------------------------------------------------------------------
#: the escape codes a terminal gets (CSI, charset, keypad and OSC sequences)
ESCAPES = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07"
)


def plain(data: bytes) -> str:
    """The text of a terminal's bytes, its escape codes taken out."""
    return ESCAPES.sub(b"", data).decode("utf-8", "replace")


class SshScreen:
    """The bytes an SSH session's terminal got, read as they come."""

    def __init__(self, process: Any) -> None:
        self.process = process
        self.data = b""

    async def until(self, pred: Any, timeout: float = 60.0) -> None:
        async def read() -> None:
            while not pred(self):
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    raise AssertionError(f"the session ended; it showed {plain(self.data)[-800:]}")
                self.data += chunk

        await asyncio.wait_for(read(), timeout)

    def has(self, text: str) -> bool:
        return text in plain(self.data)


async def open_door(server: TableServer, **kw: Any) -> Any:
    """An SSH door of ``server`` on an ephemeral port (``kw`` go to ``SshDoor``), started."""
    from twos_tui.play.net.ssh_door import SshDoor

    door = SshDoor(0, **kw)
    server.doors.append(door)
    await door.start(server)
    return door


async def ssh_connect(door: Any, key: Any, username: str = "ana") -> Any:
    """An asyncssh client connection to ``door`` with ``key``, as a guest's ssh makes."""
    import asyncssh

    return await asyncssh.connect(
        "127.0.0.1",
        door.port,
        username=username,
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        password=None,
        kbdint_auth=False,
    )


async def at_the_code_prompt(
    conn: Any, term_type: str = "xterm", term_size: tuple[int, int] | None = None
) -> tuple[Any, SshScreen]:
    """A terminal session on the SSH connection ``conn`` (its process and its screen),
    read until the door asks for the table's code."""
    size = {} if term_size is None else {"term_size": term_size}
    proc = await conn.create_process(term_type=term_type, encoding=None, **size)
    screen = SshScreen(proc)
    await screen.until(lambda s: s.has("Code:"))
    return proc, screen


async def join(server: TableServer, table: HostedTable, name: str, **kw: Any) -> TableClient:
    c = TableClient("127.0.0.1", server.port, table.code, name, retry_delays=(0.05, 0.1, 0.2), **kw)
    await c.open()
    return c


async def play_match(
    server: TableServer, table: HostedTable, level: str = "easy", timeout: float = 60.0, hook=None
) -> list[M.State]:
    """Bots in every remote seat play the match to its end; their last states."""
    clients = []
    for i in range(len(table.remote_seats)):
        c = await join(server, table, f"Bot{i}")
        if hook is not None:
            c.raw_hook = hook(c)
        clients.append(c)
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(*(play_bot(c, level) for c in clients)), timeout
        )
        for c in clients:  # each client's log is its seat's, as the engine gives it
            assert c.log == list(table.game.observe(c.seat).history)
        return finals
    finally:
        for c in clients:
            await c.close()


async def play_moves(client: TableClient, moves: int, ready: bool = False) -> int:
    """Play ``client``'s seat for ``moves`` moves (its first legal move that is not a pass,
    the same each time: seeded games stop at the same point), then stop; ``ready``: also
    say ready after a deal. Returns the table's move count when it stopped."""
    made = 0
    acted_at = None
    while True:
        client.changed.clear()
        st = client.state
        if st is None:
            if made >= moves:
                return 0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(client.changed.wait(), 5.0)
            continue
        position = (st.deal, st.n)
        if made >= moves or st.match_over:
            return st.n
        mine = client.seat in st.to_act and st.legal
        if st.decision and mine and acted_at != position:
            legal = list(st.legal)
            action = ([a for a in legal if a.kind != "pass"] or legal)[0]
            acted_at = position
            reply = await client.request(M.Act(action=action))
            if not isinstance(reply, M.Error):
                made += 1
            else:
                acted_at = None
            continue
        if ready and st.deal_over and acted_at != ("ready", st.deal):
            acted_at = ("ready", st.deal)
            await client.request(M.Ready(deal=st.deal))
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.changed.wait(), 5.0)


# ----- the leak check -----------------------------------------------------------------------
_LABELS: dict[str, dict[str, str]] = {}


def labels_of(game) -> dict[str, str]:
    labels = _LABELS.get(game.variant_id)
    if labels is None:
        labels = _LABELS[game.variant_id] = {c: game.card_face(c).label for c in game.deck_cards()}
    return labels


def current_part(msg: dict[str, Any], deal: int) -> dict[str, Any]:
    """What of a message is about the deal being played: earlier deals' log entries and
    results (and the cut, from a deck shuffled again) were public when they were made,
    and their cards are dealt anew."""
    msg = dict(msg)
    if "log" in msg:
        msg["log"] = [
            h for h in msg["log"] if h.get("kind") != "cut" and h.get("deal", deal) == deal
        ]
    if "results" in msg:
        msg["results"] = [r for r in msg["results"] if r.get("deal_number") == deal]
    obs = msg.get("observation")
    if isinstance(obs, dict) and "history" in obs:
        raise AssertionError("a state carries the log in 'log', never in the observation")
    return msg


def find_leaks(game, seat: int | None, text: str) -> list[str]:
    """Hidden cards of ``seat`` (now) that ``text`` names, as a code (a JSON string, or a
    word of a sentence) or as a face label. A message to no seat yet (before the join)
    must name no card that any seat holds hidden."""
    import json
    import re

    msg = json.loads(text)
    seats = range(game.players) if seat is None else (seat,)
    hidden: set[str] = set()
    for s in seats:
        hidden |= game.hidden_from(s)
    if not hidden:
        return []
    msg = current_part(msg, game.deal_number)
    body = json.dumps(msg, ensure_ascii=False)
    pieces = set(body.split('"')[1:-1])
    words = set(re.findall(r"[0-9A-Za-z]+", " ".join(p for p in pieces if " " in p)))
    found = sorted(hidden & (pieces | words))
    labels = labels_of(game)
    found += [labels[c] for c in hidden if labels[c] in body]
    return found


class LeakWatch:
    """The server's send hook: every message checked against its seat's hidden cards at
    send time; the texts kept so the clients can show they got nothing else."""

    def __init__(self) -> None:
        self.findings: list[str] = []
        self.sent: dict[tuple[str, int | None], set[str]] = {}
        self.messages = 0
        self.deals: dict[str, int] = {}

    def __call__(self, table, seat: int | None, text: str) -> None:
        self.messages += 1
        if table is None:  # before a join: no table, no card
            self.sent.setdefault(("", None), set()).add(text)
            return
        leaks = find_leaks(table.game, seat, text)
        if leaks:
            self.findings.append(
                f"{table.game.variant_id} seat {seat}: {leaks[:3]} in {text[:200]}"
            )
        self.sent.setdefault((table.code, seat), set()).add(text)

    def client_hook(self, table, client):
        got: list[str] = []

        def hook(text: str) -> None:
            got.append(text)

        self.received = getattr(self, "received", [])
        self.received.append((table.code, client, got))
        return hook

    def check_clients(self) -> int:
        """Every text a client received was checked at send time (for its seat, or
        before it had one). The number checked."""
        n = 0
        self.spectator_texts = 0
        for code, client, got in self.received:
            # a spectator's messages were checked against every seat's hidden cards
            seat = None if getattr(client, "watching", False) else client.seat
            sent = self.sent.get((code, seat), set()) | self.sent.get(("", None), set())
            for text in got:
                assert text in sent, f"seat {seat} received an unchecked message {text[:200]}"
                n += 1
                if seat is None:
                    self.spectator_texts += 1
        return n
