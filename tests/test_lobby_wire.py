"""The lobby's messages on the wire (no network): every request and event goes out and
comes back as itself; a bad request is refused with a sentence; a listing never holds a
card."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twos_tui.engine import VARIANT_IDS, new_game
from twos_tui.play.lobby import door as D
from twos_tui.play.lobby import wire as W
from twos_tui.play.lobby.model import (
    CancelQuickMatch,
    CreateTable,
    LeaderRow,
    LobbyState,
    PlayerInfo,
    QueueInfo,
    QuickMatch,
    RatingInfo,
    Redirect,
    Refused,
    ResultInfo,
    Seated,
    SeatInfo,
    SitDown,
    TableInfo,
    Watch,
)

REQUESTS = [
    W.Hello(client="twos-tui"),
    W.Login(name="Ana", key="a2V5", sig="c2ln"),
    W.Login(),
    CreateTable("big-two", 4, (("target", 50),), False, (None, "easy", None, "hard"), False, None),
    CreateTable("twos", 3),
    SitDown("t-1", 2, "ABCD-EFGH"),
    SitDown("t-1"),
    Watch("t-9"),
    QuickMatch("2v1", 3, 0.0),
    CancelQuickMatch(),
]


@pytest.mark.parametrize("msg", REQUESTS, ids=lambda m: type(m).__name__)
def test_every_request_comes_back_as_itself(msg) -> None:
    assert D.decode_request(W.encode_request(msg)) == msg


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{}", "binary"),
        ("x" * (W.MAX_MESSAGE_BYTES + 1), "at most"),
        ("{", "not JSON"),
        ("[1]", "object"),
        ('{"type":"cancel"}', "version"),
        ('{"v":9,"type":"cancel"}', "older"),
        ('{"v":1}', "type"),
        ('{"v":1,"type":"dance"}', "no lobby message"),
        ('{"v":1,"type":"cancel","x":1}', "no field"),
        ('{"v":1,"type":"hello"}', "lobby"),
        ('{"v":1,"type":"watch"}', "table is missing"),
        ('{"v":1,"type":"watch","table":7}', "table"),
        ('{"v":1,"type":"watch","table":"' + "t" * 80 + '"}', "table"),
        ('{"v":1,"type":"watch","table":"a\\u0007b"}', "cannot be part"),
        ('{"v":1,"type":"watch","table":"\\ud800"}', "broken"),
        ('{"v":1,"type":"sit","table":"t","seat":-1}', "seat"),
        ('{"v":1,"type":"sit","table":"t","seat":true}', "seat"),
        ('{"v":1,"type":"quick","game":"chess","players":2}', "no game"),
        ('{"v":1,"type":"quick","game":"twos","players":99}', "players"),
        ('{"v":1,"type":"quick","game":"twos","players":3,"wait_s":-1}', "wait"),
        ('{"v":1,"type":"quick","game":"twos","players":3,"wait_s":"5"}', "wait"),
        ('{"v":1,"type":"quick","game":"twos","players":3,"wait_s":1e400}', "wait"),
        ('{"v":1,"type":"quick","game":"twos","players":3,"wait_s":' + "9" * 400 + "}", "wait"),
        ('{"v":1,"type":"create","game":"twos","players":3,"public":"yes"}', "public"),
        ('{"v":1,"type":"create","game":"twos","players":3,"rules":[1]}', "rules"),
        ('{"v":1,"type":"create","game":"twos","players":3,"rules":{"a":[1]}}', "rule's value"),
        ('{"v":1,"type":"create","game":"twos","players":3,"ai_seats":["god"]}', "level"),
        (
            '{"v":1,"type":"create","game":"twos","players":3,"ai_seats":[null,null,null,null]}',
            "AI",
        ),
        ('{"v":1,"type":"create","game":"twos","players":3,"clock":[5]}', "clock"),
        ('{"v":1,"type":"create","game":"twos","players":3,"clock":[5,1e9]}', "bank"),
        ('{"v":1,"type":"login","key":"a2V5"}', "signature"),
        ('{"v":1,"type":"login","name":5}', "name"),
        ("[" * 8_000 + "]" * 8_000, "not JSON"),
    ],
    ids=lambda x: repr(x)[:40],
)
def test_bad_requests_are_refused_with_a_sentence(raw, words) -> None:
    with pytest.raises(W.WireError) as e:
        D.decode_request(raw)
    assert words in str(e.value)
    assert str(e.value)[0].isupper() or str(e.value).startswith('"')


def test_the_lobby_hello_is_told_from_a_tables() -> None:
    assert D.is_lobby_hello(W.encode_request(W.Hello(client="x")))
    assert not D.is_lobby_hello('{"v":1,"type":"hello","client":"twos-tui"}')
    assert not D.is_lobby_hello('{"v":1,"type":"join","code":"lobby"}')
    assert not D.is_lobby_hello(b'{"v":1,"type":"hello","lobby":true}')
    assert not D.is_lobby_hello("{nope")


# ----- every string field, any text -------------------------------------------------------
anytext = st.text(max_size=40)


@given(name=anytext, table=anytext, code=anytext, client=anytext, rule=anytext, value=anytext)
def test_any_text_in_any_field_is_taken_or_refused_with_a_sentence(
    name, table, code, client, rule, value
) -> None:
    raws = [
        {"type": "hello", "lobby": True, "client": client},
        {"type": "login", "name": name, "key": table, "sig": code},
        {"type": "sit", "table": table, "code": code},
        {"type": "watch", "table": table},
        {"type": "quick", "game": name, "players": 3},
        {"type": "create", "game": "twos", "players": 3, "rules": {rule: value}},
        {"type": "create", "game": value, "players": 3},
    ]
    for d in raws:
        raw = json.dumps({"v": 1, **d})
        try:
            msg = D.decode_request(raw)
        except W.WireError as e:
            assert str(e) and len(str(e)) < 300
            continue
        # what is taken is the same text, and goes out again as the same message
        assert D.decode_request(W.encode_request(msg)) == msg


#: any text but the letters a card's code or the words "hand"/"card" need (so what the
#: listing's texts hold is never a card, and the check below sees only the message's own)
names = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="SHDChc♠♥♦♣"),
    max_size=24,
)
floats = st.floats(-1e6, 1e6, allow_nan=False)
ints = st.integers(0, 10**6)
seat_infos = st.builds(
    SeatInfo, st.none() | names, st.none() | floats, st.sampled_from([None, "easy", "hard"])
)
tables = st.builds(
    TableInfo,
    names,
    st.sampled_from(VARIANT_IDS),
    st.integers(2, 4),
    names,
    st.lists(seat_infos, max_size=4).map(tuple),
    ints,
    st.booleans(),
    st.booleans(),
    names,
    st.booleans(),
)
states = st.builds(
    LobbyState,
    st.builds(
        PlayerInfo,
        names,
        st.booleans(),
        st.lists(st.builds(RatingInfo, names, floats, ints, st.none() | ints), max_size=3).map(
            tuple
        ),
        st.lists(
            st.builds(ResultInfo, names, floats, ints, ints, st.none() | floats), max_size=3
        ).map(tuple),
    ),
    st.lists(tables, max_size=4).map(tuple),
    st.lists(
        st.tuples(names, st.lists(st.builds(LeaderRow, ints, names, floats, ints)).map(tuple)),
        max_size=3,
    ).map(tuple),
    st.none() | st.builds(QueueInfo, names, ints, ints, floats, floats),
)


@given(states)
def test_a_listing_comes_back_as_itself(state) -> None:
    assert W.decode_event(W.encode_event(state)) == state


#: the words a card could be written in: a code (3S, 10H, the jokers) or a face
CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b|[♠♥♦♣]|\bhand\b|\bcards?\b")


@given(states)
def test_a_listing_has_no_place_for_a_card(state) -> None:
    """Whatever a listing holds (names, rules, ratings), its message adds no card and
    no field for one: the texts in it are the listing's own."""
    text = W.encode_event(state)
    assert not CARD.search(text)
    keys: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            keys.update(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(json.loads(text))
    assert keys <= {
        "v", "type", "me", "name", "guest", "ratings", "recent", "tables", "id", "game",
        "players", "rules", "seats", "spectators", "public", "rated", "clock", "started",
        "leaderboards", "queue",
    }  # fmt: skip


def test_a_card_in_a_name_would_be_seen() -> None:
    """The check above finds a card when there is one (a name that is a card code, a
    face label)."""
    g = new_game("big-two", 4, {}, 1)
    code = g.observation(1)["hand"][0]
    assert CARD.search(f"Bram {code}")
    assert CARD.search(g.card_face(code).label)


EVENTS = [
    W.Challenge("bm9uY2U="),
    Seated("t-1", "ABCD-EFGH", 2, "tok"),
    Seated("t-1", "ABCD-EFGH", None, ""),
    Refused("No."),
    Redirect("10.0.0.2:7417", "t-1"),
]


@pytest.mark.parametrize("msg", EVENTS, ids=lambda m: type(m).__name__)
def test_every_event_comes_back_as_itself(msg) -> None:
    assert W.decode_event(W.encode_event(msg)) == msg


def test_an_event_the_client_cannot_read_is_said() -> None:
    for raw in ('{"type":"tea"}', '{"type":"seated"}', "[]"):
        with pytest.raises(W.WireError):
            W.decode_event(raw)
