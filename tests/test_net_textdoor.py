"""Text at the door of a hosted table: a message whose text cannot be sent on (a lone
UTF-16 surrogate, valid in JSON) is refused with a reason where it comes in, and
never reaches another connection, the table or the chat kept for later arrivals."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from net_helpers import live_server, remote_table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from twos_tui.engine import new_game
from twos_tui.play.net import messages as M
from twos_tui.play.net import protocol as P
from twos_tui.play.net.client import TableClient
from twos_tui.play.net.server import TableServer
from twos_tui.textdoor import sendable


async def join(server, table, name: str) -> TableClient:
    """A player who does not reconnect: a dropped connection stays dropped (``lost``)."""
    c = TableClient("127.0.0.1", server.port, table.code, name, retry_delays=())
    await c.open()
    return c


async def _replies(ws, until_id: int, timeout: float = 10.0) -> list[dict]:
    """What the host sent ``ws`` up to the answer (or error) of request ``until_id``."""
    got: list[dict] = []

    async def read() -> None:
        while True:
            msg = json.loads(await ws.recv())
            got.append(msg)
            if msg.get("id") == until_id and msg["type"] in ("answer", "error", "welcome"):
                return

    await asyncio.wait_for(read(), timeout)
    return got


async def test_a_lone_surrogate_in_chat_is_refused_and_the_table_stays(caplog) -> None:
    """The denial of service of the issue: before the fix the line was broadcast, every
    connection's send failed on it and every player was dropped (and every later
    arrival, as the line was replayed to them)."""
    caplog.set_level(logging.INFO)
    async with live_server(chat_rate=100, chat_burst=100) as server:
        table = server.add(remote_table("twos", seed=3))
        ana = await join(server, table, "Ana")
        bram = await join(server, table, "Bram")
        url = f"ws://127.0.0.1:{server.port}/"
        async with connect(url, compression=None) as ws:  # a spectator with the code
            await ws.send(P.encode({"type": "hello", "id": 0}))
            await ws.send(P.encode({"type": "join", "id": 1, "code": table.code, "role": "watch"}))
            await _replies(ws, 1)
            await ws.send('{"v":1,"type":"chat","id":2,"text":"hi \\ud800 there"}')
            replies = await _replies(ws, 2)
            refusal = replies[-1]
            assert refusal["type"] == "error" and refusal["code"] == P.E_BAD
            assert "text" in refusal["reason"] and "surrogate" in refusal["reason"]
            # the spectator's connection is still good
            await ws.send(P.encode({"type": "ping", "id": 3}))
            assert (await _replies(ws, 3))[-1]["result"] == "pong"
        # nothing was kept for later arrivals, and the players are all still there
        assert list(table.chat_log) == []
        for c in (ana, bram):
            assert c.connected and c.lost is None
            assert (await c.request(M.Ping())).result == "pong"
        assert all(rs.conn is not None for rs in list(table.seats.values())[:2])
        # a good line still goes round, and a newcomer is welcomed and stays
        assert await ana.send_chat("gg") is None
        carl = await join(server, table, "Carl")
        for _ in range(200):
            if carl.chat and bram.chat:
                break
            await asyncio.sleep(0.02)
        assert [c.text for c in carl.chat] == ["Chat · Ana: gg"]
        assert [c.text for c in bram.chat] == ["Chat · Ana: gg"]
        assert (await carl.request(M.Ping())).result == "pong"
        assert carl.lost is None and ana.lost is None and bram.lost is None
        for c in (ana, bram, carl):
            await c.close()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


# ----- every string field of every message ---------------------------------------------------
#: what a message of each type needs besides the field under test to reach the table
_NEEDS: dict[str, dict[str, Any]] = {
    "join": {"code": "{code}"},
    "act": {"action": {"kind": "pass", "cards": []}},
    "check": {"action": {"kind": "pass", "cards": []}},
    "describe": {"action": {"kind": "pass", "cards": []}},
    "chat": {"text": "hi"},
}


def field_targets() -> list[tuple[str, tuple[Any, ...]]]:
    """Every (message type, place of a field) the host accepts, from the protocol's own
    table of fields (``P._ALLOWED``, ``P.ACTION_FIELDS``): each field, each field of an
    action, a card of an action, the type itself and the name of a field."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    for kind in P.CLIENT_TYPES:
        for field in sorted(P._ALLOWED[kind] - {"type"}):
            if field == "action":
                out.append((kind, ("action",)))
                out += [(kind, ("action", sub)) for sub in P.ACTION_FIELDS]
                out.append((kind, ("action", "cards", 0)))
            else:
                out.append((kind, (field,)))
        out.append((kind, ("<name>",)))  # the text as the name of a field
    out.append(("ping", ("type",)))
    return out


def hostile_message(kind: str, place: tuple[Any, ...], text: str, code: str, rid: int) -> str:
    msg: dict[str, Any] = {"v": 1, "type": kind, "id": rid}
    for key, value in _NEEDS.get(kind, {}).items():
        msg[key] = json.loads(json.dumps(value).replace("{code}", code))
    if place == ("<name>",):
        msg[text] = 1
    elif len(place) == 1:
        msg[place[0]] = text
    elif len(place) == 2:
        msg["action"][place[1]] = text
    else:
        msg["action"]["cards"] = [text]
    # ASCII JSON: a lone surrogate goes as the escape "\ud800", valid JSON in a valid frame
    return json.dumps(msg)


_PIECES = [
    "\ud800",
    "\udfff",
    "\udc80",
    "\x00",
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\u202e",
    "\u2066",
    "\u200b",
    "\ufeff",
    "\r\n",
    "\x7f",
    "\x85",
]


@st.composite
def hostile_texts(draw) -> str:
    """Texts with lone surrogates, NUL and other controls, bidirectional controls and
    escape codes among ordinary characters, some of them 64 KiB long."""
    bits = draw(
        st.lists(
            st.one_of(
                st.sampled_from(_PIECES),
                st.characters(categories=["Cs"]),
                st.characters(max_codepoint=0x1F),
                st.text(max_size=8),
            ),
            min_size=1,
            max_size=8,
        )
    )
    # at least one hostile character, somewhere among the rest
    hostile = draw(
        st.one_of(
            st.sampled_from(_PIECES),
            st.characters(categories=["Cs"]),
            st.characters(max_codepoint=0x1F),
        )
    )
    bits.insert(draw(st.integers(0, len(bits))), hostile)
    text = "".join(bits)
    size = draw(st.sampled_from([0, 0, 0, 281, P.MAX_CHAT_RAW + 1, 64 * 1024]))
    if size:
        text = (text * (size // len(text) + 1))[:size]
    return text


class _Trouble(logging.Handler):
    """The server's log records of a warning or worse, or with a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.WARNING:
            self.records.append(record)


@pytest.mark.slow
def test_every_string_field_of_every_message_takes_hostile_text() -> None:
    """A bystander (seat 0) and a sender (seat 1) at a table; the sender sends every
    message type with each of its fields (and nested action fields) holding hostile
    text. No traceback or warning in the host's log; the bystander stays connected and
    gets answers and the chat lines that were let in (cleaned), no other; a refused
    message leaves the table's ``to_json()``, its chat and its seats as they were."""
    loop = asyncio.new_event_loop()
    trouble = _Trouble()
    root = logging.getLogger()
    root.addHandler(trouble)
    old_level = root.level
    root.setLevel(logging.INFO)
    loop_errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, ctx: loop_errors.append(ctx))
    targets = field_targets()
    assert len({kind for kind, _ in targets}) == len(P.CLIENT_TYPES)
    run = loop.run_until_complete

    async def setup() -> tuple[Any, ...]:
        server = TableServer(
            rate=10**6, burst=10**6, max_bad=10**9, chat_rate=10**6, chat_burst=10**6
        )
        await server.start("127.0.0.1", 0)
        table = server.add(
            remote_table("twos", seed=7, kinds=["remote", "remote", "ai"], ai_pause=3600.0)
        )
        bystander = await join(server, table, "Ana")
        sender = await join(server, table, "Bram")
        token = sender.token
        await sender.close()  # its seat is taken back below, on a raw connection
        return server, table, bystander, token

    server, table, bystander, token = run(setup())
    url = f"ws://127.0.0.1:{server.port}/"
    state: dict[str, Any] = {"ws": None, "rid": 100, "refused": 0, "let in": 0, "too big": 0}

    async def sender_ws() -> Any:
        ws = state["ws"]
        if ws is not None and ws.state is State.OPEN:
            return ws
        ws = await connect(url, compression=None, max_size=2**22)
        await ws.send(P.encode({"type": "hello", "id": 1}))
        await ws.send(P.encode({"type": "join", "id": 2, "code": table.code, "token": token}))
        got = await _replies(ws, 2)
        assert got[-1]["type"] == "welcome" and got[-1]["seat"] == 1
        state["ws"] = ws
        return ws

    def snapshot() -> str:
        return json.dumps(
            [
                table.game.to_json(),
                [line.to_json() for _, line in table.chat_log],
                [rs.to_json() for rs in table.seats.values()],
            ],
            sort_keys=True,
        )

    async def one(kind: str, place: tuple[Any, ...], text: str) -> None:
        ws = await sender_ws()
        state["rid"] += 2
        rid = state["rid"]
        before = snapshot()
        heard = len(bystander.chat)
        raw = hostile_message(kind, place, text, table.code, rid)
        await ws.send(raw)
        await ws.send(P.encode({"type": "ping", "id": rid + 1}))
        try:
            got = await _replies(ws, rid + 1)
        except ConnectionClosed as e:  # a frame over 64 KiB: only this connection goes
            assert len(raw) > P.MAX_MESSAGE_BYTES, (kind, place, e)
            state["too big"] += 1
            got = []
        mine = [m for m in got if m.get("id") == rid and m["type"] != "chat"]
        accepted = bool(mine) and mine[0]["type"] != "error"
        state["let in" if accepted else "refused"] += 1
        if not accepted:
            assert snapshot() == before, (kind, place, text[:80], got[:3])
            assert len(bystander.chat) == heard
            if mine:
                assert mine[0]["reason"]
        else:  # let in: only a chat line with text left after cleaning
            assert (kind, place) == ("chat", ("text",)), (kind, place, text[:80])
            clean = P.clean_chat(text)
            assert clean and sendable(clean)
            for _ in range(500):
                if len(bystander.chat) > heard:
                    break
                await asyncio.sleep(0.01)
            assert bystander.chat[-1].text == f"Chat · Bram: {clean}"

    async def bystander_fine() -> None:
        assert bystander.connected and bystander.lost is None
        assert (await bystander.request(M.Ping())).result == "pong"
        assert table.seats[0].conn is not None

    @settings()
    @given(text=hostile_texts())
    def check(text: str) -> None:
        for kind, place in targets:
            run(one(kind, place, text))
        run(bystander_fine())

    try:
        check()
        # the text the issue names, in each field
        for text in ("\ud800", "a\x00b", "\u202eab", "\x1b[31mx", "x" * 65536):
            for kind, place in targets:
                run(one(kind, place, text))
        run(bystander_fine())
    finally:

        async def teardown() -> None:
            if state["ws"] is not None:
                await state["ws"].close()
            await bystander.close()
            await server.close()

        run(teardown())
        loop.close()
        root.removeHandler(trouble)
        root.setLevel(old_level)
    assert loop_errors == []
    # each way happened: refused with a reason, closed for its size, a cleaned chat let in
    assert state["refused"] > 1000 and state["too big"] and state["let in"], state
    assert [f"{r.name}: {r.getMessage()}" for r in trouble.records] == []


# ----- the other doors: the command line, the client, files --------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["join", "127.0.0.1:42201", "ABCD\udcff"],
        ["join", "127.0.0.1:42201", "ABCD-EFGH", "--name", "an\udcffa"],
        ["host", "twos", "--headless", "--name=\udc80"],
    ],
)
def test_a_command_line_word_that_is_not_utf8_is_refused_in_one_line(argv, capsys) -> None:
    """Python hands a byte that is not UTF-8 in an argument on as a lone surrogate:
    refused before anything starts, with one line that names the word."""
    from twos_tui.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("twos-tui: argument ") and "not UTF-8" in err
    assert len(err.strip().splitlines()) == 1 and sendable(err)


async def test_the_client_sends_only_text_that_can_be_sent(caplog) -> None:
    """A client given a broken code or name (from a hand-edited file, say) says why
    and sends nothing; a broken chat line gets a reason and the connection stays."""
    from twos_tui.play.net.client import JoinError

    async with live_server() as server:
        table = server.add(remote_table("twos", seed=3))
        for code, name, words in (
            (table.code + "\ud800", "Ana", "The code holds a broken character"),
            (table.code, "An\ud800a", "Your name holds a broken character"),
            (table.code + "\x00", "Ana", "The code holds a character that cannot"),
        ):
            c = TableClient("127.0.0.1", server.port, code, name, retry_delays=())
            with pytest.raises(JoinError) as e:
                await c.open()
            assert words in str(e.value)
        assert not any(rs.claimed for rs in table.seats.values())
        ana = await join(server, table, "Ana")
        reason = await ana.send_chat("hi \udc80")
        assert reason is not None and "broken character" in reason
        assert ana.connected and (await ana.request(M.Ping())).result == "pong"
        assert list(table.chat_log) == []
        await ana.close()


def test_a_broken_name_in_the_settings_file_is_cleaned_on_load() -> None:
    from twos_tui.play.settings import PickerChoice

    choice = PickerChoice.from_json({"seats": [{"name": "An\ud800a", "kind": "human"}]})
    assert choice.seats[0]["name"] == "Ana"
    assert PickerChoice.from_json({"seats": [{"name": "Bo"}]}).seats[0]["name"] == "Bo"


@pytest.mark.parametrize("field", ["code", "token"])
def test_a_hosted_table_file_with_a_broken_code_or_token_is_refused(
    tmp_path, monkeypatch, field
) -> None:
    """The code and tokens of a hosted table's file are sent to players: one that is not
    text refuses the file with a reason (and the save is not opened)."""
    from twos_tui.play.net.server import HostedTable, sidecar_path
    from twos_tui.textdoor import TextRefused

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=3)
    save_id = table.session.save_id
    table.session.save()
    table.close()
    table.session.close()
    path = sidecar_path(save_id)
    side = json.loads(path.read_text(encoding="utf-8"))
    if field == "code":
        side["code"] = "ABCD-EF\ud800H"
    else:
        side["seats"][0]["token"] = "tok\x00en"
    path.write_text(json.dumps(side), encoding="utf-8")
    with pytest.raises(TextRefused) as e:
        HostedTable.reopen(save_id)
    assert "in the table's file" in str(e.value)
    # untouched, it reopens (with the same code)
    side = json.loads(path.read_text(encoding="utf-8"))
    side["code"], side["seats"][0]["token"] = table.code, table.seats[0].token
    path.write_text(json.dumps(side), encoding="utf-8")
    again = HostedTable.reopen(save_id)
    assert again.code == table.code
    again.close()
    again.session.close()


def test_a_hosted_table_file_of_the_wrong_shape_is_refused_with_the_reason(
    tmp_path, monkeypatch
) -> None:
    """The table's file is read at the door: seats that are not a list, a seat with no
    number, a file that is not an object are refused as damaged, saying what is wrong
    (they stopped the host with a KeyError); a flag or a name of another kind reads as
    its blank, and the table reopens with its code, tokens, names and hold."""
    from twos_tui.play.net.server import HostedTable, sidecar_path
    from twos_tui.play.net.table_base import DamagedTableFile

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = remote_table("twos", seed=3, hold_s=45)
    table.claim("Ana")
    table.write_sidecar()
    save_id = table.session.save_id
    table.session.save()
    table.close()
    table.session.close()
    path = sidecar_path(save_id)
    good = json.loads(path.read_text(encoding="utf-8"))
    for bad, words in (
        ([1, 2], "it is not an object"),
        ({**good, "seats": {"0": {}}}, "its seats are not a list"),
        ({**good, "seats": [{**good["seats"][0], "seat": "0"}]}, "a seat has no number"),
    ):
        path.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(DamagedTableFile, match=words):
            HostedTable.reopen(save_id)
    odd = {**good, "seats": [{**good["seats"][0], "name": 5, "claimed": 1}, *good["seats"][1:]]}
    path.write_text(json.dumps(odd), encoding="utf-8")
    again = HostedTable.reopen(save_id)
    assert again.code == table.code and again.hold_s == 45
    assert {s: rs.token for s, rs in again.seats.items()} == {
        s: rs.token for s, rs in table.seats.items()
    }
    assert again.seats[0].claimed and again.seats[0].name == ""
    assert not again.seats[1].claimed
    again.close()
    again.session.close()


def test_text_from_the_host_is_mended_to_valid_text() -> None:
    """A host that sends a broken character (a lone surrogate) gets it shown as U+FFFD
    on the client: the screen and the client's history only ever get valid text."""
    msg = P.decode_server('{"type":"chat","name":"A\\ud800","text":"x\\udc00y","at":1}')
    assert isinstance(msg, M.ChatLine)
    assert (msg.name, msg.text) == ("A\ufffd", "x\ufffdy")
    g = new_game("twos", 3, {}, 1)
    obs = dict(g.observation(0))
    del obs["history"]  # type: ignore[misc]  # the log travels beside it
    raw = json.dumps(
        {"type": "state", "seat": 0, "observation": obs, "seats": [{"name": "@Bo"}], "\ud83d": 1}
    )
    assert '"\\ud83d": 1' in raw  # a key with a broken character (a field it ignores)
    state = P.decode_server(raw.replace("@", "\\udfff"))
    assert isinstance(state, M.State) and state.seats[0].name == "\ufffdBo"
    line = P.decode_server('{"type":"chat","name":"Ana","text":"ok \\ud83d\\ude00"}')
    assert isinstance(line, M.ChatLine)
    assert line.text == "ok \U0001f600"  # a whole pair is one character, kept
    # a valid message is handed on as it came (no walk without a surrogate escape)
    bye = P.decode_server('{"type":"bye","reason":"caf\\u00e9"}')
    assert isinstance(bye, M.Bye) and bye.reason == "café"


def test_the_door_function() -> None:
    from twos_tui.textdoor import TextRefused, checked_text, may_hold_broken

    assert checked_text("Ana \x1b[31m", "your name") == "Ana \x1b[31m"  # free text
    for bad, identifier, words in (
        ("a\ud800", False, "broken character (a lone surrogate, U+D800)"),
        ("a\x00b", True, "cannot be part of it (U+0000)"),
        ("ab\u202e", True, "(U+202E)"),
        ("x" * 9, False, "up to 8 characters"),
        (5, False, "is a text"),
    ):
        with pytest.raises(TextRefused) as e:
            checked_text(bad, "the code", 8, identifier=identifier)
        assert words in str(e.value) and str(e.value).startswith("The code ")
    assert may_hold_broken('"\\ud800"') and may_hold_broken('"\\uDC00"')
    assert not may_hold_broken('"\\u00e9 \\u2603"') and not may_hold_broken('"\\u"')


def test_a_broken_character_in_the_text_itself_is_refused_too() -> None:
    """Not only as a JSON escape: a str handed to the host with a surrogate in it."""
    with pytest.raises(P.BadMessage) as e:
        P.decode_client('{"v":1,"type":"chat","text":"a\ud800"}')
    assert "The text holds a broken character" in str(e.value)


def test_broken_text_in_a_save_file_comes_in_as_valid_text(tmp_path, monkeypatch) -> None:
    """A save edited by hand with lone surrogates in its names: the game loads with
    the names cleaned, and nothing it holds is text that cannot be sent or shown."""
    from twos_tui.play import saves
    from twos_tui.play.session import SeatConfig, Session
    from twos_tui.textdoor import first_broken

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    seats = [SeatConfig("Ana", "human"), SeatConfig("Bo", "ai", "easy")]
    seats.append(SeatConfig("Cy", "ai", "easy"))
    s = Session.start("twos", seats, 3, {}, 5)
    s.save()
    saves.WRITER.flush()
    s.close()
    path = saves.save_path(s.save_id)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"Ana"', '"An\\ud800a"').replace('"Bo"', '"B\\udfffo"'))
    data = saves.read_save(path)
    assert first_broken(data) is not None  # the file holds them
    loaded = Session.from_json(data, s.save_id)
    try:
        assert loaded.game.names == ["Ana", "Bo", "Cy"]
        assert [seat.name for seat in loaded.seats] == ["Ana", "Bo", "Cy"]
        assert first_broken(loaded.game.to_json()) is None
    finally:
        loaded.close()
    info = saves.inspect_save(path)
    assert info.ok and first_broken(vars(info)) is None


def test_a_pending_history_record_with_broken_text_is_set_aside(tmp_path, monkeypatch) -> None:
    """The history's pending folder: a record whose names are not text is kept apart
    (``.damaged``), the others are written."""
    from test_history_stats import A, deal

    from twos_tui.play import history

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    seats = [dict(s) for s in A]
    seats[0]["name"] = "An\ud800a"
    folder = tmp_path / "history-pending"
    history.spool(deal("P", seats, 1, [1], [1, 0, 2, 3]), folder)
    history.spool(deal("Q", A, 1, [1], [1, 0, 2, 3]), folder)
    conn = history.open_history(tmp_path / "history.sqlite3")
    try:
        history.drain_pending(conn, folder)
        keys = [r[0] for r in conn.execute("SELECT match_key FROM matches")]
    finally:
        conn.close()
    assert keys == ["Q"]
    assert [p.suffix for p in folder.iterdir()] == [".damaged"]


async def test_a_message_that_cannot_be_sent_closes_only_its_own_connection(caplog) -> None:
    """The isolation behind the door: were a message with broken text ever queued for
    one connection, that connection alone closes (one warning, no traceback); the
    others at the table go on receiving."""
    caplog.set_level(logging.INFO)
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=3))
        ana = await join(server, table, "Ana")
        bram = await join(server, table, "Bram")
        conn = table.seats[bram.seat].conn
        assert conn is not None
        conn.send({"type": "chat", "seat": None, "name": "x", "text": "a\ud800"})
        for _ in range(500):
            if bram.lost is not None:
                break
            await asyncio.sleep(0.01)
        assert not bram.connected and bram.lost is not None
        assert ana.connected and (await ana.request(M.Ping())).result == "pong"
        assert table.seats[ana.seat].conn is not None
        assert await ana.send_chat("still here") is None
        await ana.close()
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == ["closing a connection: the text of a chat message is not valid text"]
    assert not [r for r in caplog.records if r.exc_info]
