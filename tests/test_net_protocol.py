"""The message checks of the network protocol (no network)."""

from __future__ import annotations

import pytest

from twos_tui.engine import Action
from twos_tui.play.net import messages as M
from twos_tui.play.net import protocol as P
from twos_tui.play.net.status import waiting_text


def test_a_good_move_decodes_to_an_action() -> None:
    msg = P.decode_client(
        '{"v":1,"type":"act","id":7,"action":{"kind":"play","cards":["3S","3H"]},"n":4}'
    )
    assert msg == M.Act(v=1, id=7, action=Action("play", ("3S", "3H")), n=4)
    assert (msg.id, msg.n) == (7, 4)


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        (b"\x00", P.E_BAD, "binary"),
        ("x" * (P.MAX_MESSAGE_BYTES + 1), P.E_TOO_BIG, "at most"),
        ("{", P.E_BAD, "not JSON"),
        ('{"v":1,"type":"act","action":{"kind":"play","value":NaN}}', P.E_BAD, "not JSON"),
        ("[1]", P.E_BAD, "object"),
        ('{"type":"ping"}', P.E_BAD, "version"),
        ('{"v":1}', P.E_BAD, "type"),
        ('{"v":1,"type":"shout"}', P.E_BAD, "no message"),
        ('{"v":1,"type":"chat"}', P.E_BAD, "text is missing"),
        ('{"v":1,"type":"chat","text":5}', P.E_BAD, "text"),
        ('{"v":1,"type":"chat","text":"\\u0000\\u001b  \\n"}', P.E_BAD, "some text"),
        ('{"v":1,"type":"chat","text":"' + "x" * 5000 + '"}', P.E_BAD, "text"),
        ('{"v":1,"type":"join","code":"A","role":"king"}', P.E_BAD, "watch"),
        ('{"v":1,"type":"sit","name":7}', P.E_BAD, "name"),
        ('{"v":1,"type":"watch","x":1}', P.E_BAD, "no field"),
        ('{"v":1,"type":"ping","x":1}', P.E_BAD, "no field"),
        ('{"v":1,"type":"join"}', P.E_BAD, "code is missing"),
        ('{"v":1,"type":"join","code":"A","name":"' + "n" * 40 + '"}', P.E_BAD, "name"),
        ('{"v":1,"type":"act","action":{"kind":""}}', P.E_BAD, "kind"),
        ('{"v":1,"type":"act","action":{"kind":"play","cards":"3S"}}', P.E_BAD, "list"),
        ('{"v":1,"type":"act","action":{"kind":"play","cards":["3SSSS"]}}', P.E_BAD, "card"),
        ('{"v":1,"type":"act","action":{"kind":"bid","value":1.5}}', P.E_BAD, "value"),
        ('{"v":1,"type":"act","action":{"kind":"bid","value":10000000000}}', P.E_BAD, "value"),
        ('{"v":1,"type":"act","action":{"kind":"bid"},"n":-1}', P.E_BAD, "counter"),
        ('{"v":1,"type":"ready","deal":"2"}', P.E_BAD, "deal"),
        ('{"v":1,"type":"ping","id":[1]}', P.E_BAD, "id"),
        ("[" * 30_000 + "]" * 30_000, P.E_BAD, "not JSON"),
    ],
    ids=lambda x: repr(x)[:30],
)
def test_bad_messages_are_refused_with_a_reason(raw, code, words) -> None:
    with pytest.raises(P.BadMessage) as e:
        P.decode_client(raw)
    assert e.value.code == code
    assert words in str(e.value)


def test_the_request_id_comes_back_with_a_refusal() -> None:
    with pytest.raises(P.BadMessage) as e:
        P.decode_client('{"v":1,"type":"act","id":"r1","action":{"kind":""}}')
    assert e.value.req == "r1"
    assert P.peek_id('{"id": 5, "junk": true}') == 5
    assert P.peek_id("nope") is None


def test_token_bucket() -> None:
    b = P.TokenBucket(rate=2, burst=3)
    assert [b.take(10.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(10.5) is True  # half a second: one more
    assert b.take(10.5) is False


def test_waiting_words() -> None:
    assert (
        waiting_text([], [("Bram", 105)], [], "C", False) == "Bram dropped; holding the seat 1:45"
    )
    assert waiting_text([], [], ["Bram"], "C", False) == "Waiting for Bram to continue"
    text = waiting_text(["x"], [], ["Ana", "Bram"], "ABCD-EFGH", True)
    assert (
        text
        == "Waiting for a player to join (code ABCD-EFGH); Waiting for Ana and Bram to continue"
    )
    assert waiting_text([], [], [], "C", True) is None


def test_encode_is_compact_and_versioned() -> None:
    assert P.encode({"type": "bye", "reason": "é"}) == '{"v":1,"type":"bye","reason":"é"}'


def test_chat_lines_are_cleaned_and_cut() -> None:
    assert P.clean_chat("  hi\x1b[31m there\n\x00 [bold]x[/bold] ") == (
        "hi [31m there [bold]x[/bold]"
    )
    assert P.clean_chat("a\u202eb\u200bc") == "a b c"
    assert len(P.clean_chat("y" * 1000)) == P.MAX_CHAT
    msg = P.decode_client('{"v":1,"type":"chat","text":"gg\\u0007 wp"}')
    assert isinstance(msg, M.Chat) and msg.text == "gg wp"
    join = P.decode_client('{"v":1,"type":"join","code":"A","role":"watch"}')
    assert isinstance(join, M.Join) and join.role == "watch"
    sit = P.decode_client('{"v":1,"type":"sit"}')
    assert isinstance(sit, M.Sit) and sit.name is None


@pytest.mark.parametrize(
    "msg",
    [
        M.Hello(v=1, id="h", client="twos-tui 1.0"),
        M.Hello(v=2),
        M.Join(v=1, id=3, code="ABCD-EFGH", name="Ana"),
        M.Join(v=1, code="ABCD-EFGH", token="tok_en-1", role="watch"),
        M.Act(v=1, id="m1", action=Action("play", ("3S", "10H")), n=12),
        M.Act(v=1, action=Action("bid", (), 5)),
        M.Check(v=1, id=9, action=Action("pass", ())),
        M.Describe(v=1, action=Action("choose", ("2C",), "trumps")),
        M.Ready(v=1, deal=3),
        M.Ready(v=1),
        M.Ping(v=1, id=1),
        M.Leave(v=1),
        M.Chat(v=1, id="c", text="gg [wp]"),
        M.Watch(v=1),
        M.Sit(v=1, name="Bo"),
        M.Sit(v=1),
    ],
    ids=lambda m: type(m).__name__,
)
def test_every_client_message_type_goes_through_the_door_unchanged(msg) -> None:
    """What the client's types put on the wire, the door decodes back into the same
    typed message (each type its own class, with its own fields)."""
    assert P.decode_client(P.encode(msg.to_json())) == msg


def test_every_client_message_type_has_a_type_and_a_handler() -> None:
    from twos_tui.play.net.dispatch import ROUTES

    assert sorted(M.CLIENT_MESSAGES) == sorted(P.CLIENT_TYPES)
    assert set(ROUTES) == set(M.CLIENT_MESSAGES.values())
    for kind, cls in M.CLIENT_MESSAGES.items():
        raw = _NEEDS_FIELDS.get(kind, f'{{"v":1,"type":"{kind}"}}')
        assert type(P.decode_client(raw)) is cls, kind


_NEEDS_FIELDS = {
    "join": '{"v":1,"type":"join","code":"A"}',
    "chat": '{"v":1,"type":"chat","text":"hi"}',
    "act": '{"v":1,"type":"act","action":{"kind":"pass"}}',
    "check": '{"v":1,"type":"check","action":{"kind":"pass"}}',
    "describe": '{"v":1,"type":"describe","action":{"kind":"pass"}}',
}


def test_the_hosts_typed_messages_go_on_the_wire_as_before() -> None:
    """The host's answers, refusals, goodbyes and welcomes are types now: the text on the
    wire is what the dicts made before, key for key and in the same order."""
    assert P.encode(M.Error(code=P.E_JOIN, reason="No.", id="r1")) == P.encode(
        P.error(P.E_JOIN, "No.", "r1")
    )
    assert P.encode(M.Error(code=P.E_BAD, reason="No.")) == P.encode(P.error(P.E_BAD, "No."))
    assert P.encode(M.Bye(reason="Goodbye.")) == '{"v":1,"type":"bye","reason":"Goodbye."}'
    assert P.encode(M.Answer(id=None, kind="ping", result="pong")) == (
        '{"v":1,"type":"answer","id":null,"kind":"ping","result":"pong"}'
    )
    table = M.TableInfo(
        variant="twos",
        players=3,
        options={"a": 1},
        names=["A", "B", "C"],
        hold_s=120.0,
        can_sit=True,
    )
    player = M.Welcome(id=4, role="player", seat=1, code="ABCD-EFGH", table=table, token="t")
    watcher = M.Welcome(
        id=None, role="watch", seat=None, code="ABCD-EFGH", table=table, note="Full."
    )
    assert P.encode(player) == (
        '{"v":1,"type":"welcome","id":4,"role":"player","seat":1,"code":"ABCD-EFGH",'
        '"table":{"variant":"twos","players":3,"options":{"a":1},"names":["A","B","C"],'
        '"hold_s":120.0,"can_sit":true},"token":"t"}'
    )
    assert P.encode(watcher) == (
        '{"v":1,"type":"welcome","id":null,"role":"watch","seat":null,"code":"ABCD-EFGH",'
        '"table":{"variant":"twos","players":3,"options":{"a":1},"names":["A","B","C"],'
        '"hold_s":120.0,"can_sit":true},"note":"Full."}'
    )
    with pytest.raises(P.Unsendable):
        P.encode(M.Bye(reason="a\ud800"))
