"""The host's messages as types (issue 28): a ``state``, a ``chat`` line, a welcome, an
answer, a refusal and a goodbye are made as types on the host, encoded from them, and
read back into the same types at the client's door — with the same facts on the wire as
the dicts made before, and a message of the wrong shape refused with the reason."""

from __future__ import annotations

import json
import random

import pytest
from net_helpers import PLAYERS, remote_table

from twos_tui.engine.views import LogLine
from twos_tui.play.net import messages as M
from twos_tui.play.net import protocol as P
from twos_tui.play.net.spectators import _common


def _played(variant: str, moves: int, seed: int = 3):
    table = remote_table(variant, seed=seed, autosave=False)
    g = table.game
    rng = random.Random(seed)
    for _ in range(moves):
        if g.deal_over or g.match_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return table


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_a_seats_state_carries_its_observation_and_log_as_the_engine_gives_them(
    variant: str,
) -> None:
    """On the wire, a seat's ``state`` holds the engine's observation of that seat
    (without its log) and the log beside it, key for key; read back at the door it is
    the same typed message."""
    table = _played(variant, 9)
    g = table.game
    try:
        for seat in range(g.players):
            msg, cursor = table.state_for(seat)
            wire = json.loads(P.encode(msg))
            obs = json.loads(json.dumps(g.observation(seat)))
            log = obs.pop("history")
            assert wire["observation"] == obs
            assert wire["log"] == log and wire["log_from"] == 0
            assert cursor == (g.deal_number, len(g.history), len(log))
            assert wire["legal"] == (
                [a.to_json() for a in g.legal_actions(seat)] if wire["decision"] else []
            )
            assert list(wire) == [
                "v", "type", "seat", "n", "deal", "deal_over", "match_over", "to_act",
                "decision", "legal", "observation", "log_from", "log", "totals", "results",
                "seats", "ready", "waiting", "watching",
            ]  # fmt: skip
            assert P.decode_server(P.encode(msg)) == msg
    finally:
        table.close()


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_a_spectators_state_is_the_public_view_the_seats_share(variant: str) -> None:
    table = _played(variant, 7)
    g = table.game
    try:
        msg, _ = table.public_state()
        wire = json.loads(P.encode(msg))
        views = [json.loads(json.dumps(g.observation(s))) for s in range(g.players)]
        for v in views:
            v.pop("history")
        _, common = _common(views)
        assert isinstance(common, dict)
        assert wire["observation"] == {**common, "seat": None, "hand": []}
        assert wire["seat"] is None and wire["decision"] is None and wire["legal"] == []
        assert wire["can_sit"] is True
        back = P.decode_server(P.encode(msg))
        assert back == msg and isinstance(back, M.State) and back.observation.public
    finally:
        table.close()


def test_the_hosts_other_messages_read_back_as_they_were_made() -> None:
    table = M.TableInfo(
        variant="twos", players=3, options={"a": 1}, names=["A", "B", "C"], hold_s=120.0,
        can_sit=True,
    )  # fmt: skip
    for msg in (
        M.Welcome(id=1, role="player", seat=1, code="ABCD-EFGH", table=table, token="t"),
        M.Welcome(id=None, role="watch", seat=None, code="ABCD-EFGH", table=table, note="Full."),
        M.Answer(id=1003, kind="check", result="Play a higher card."),
        M.Answer(id="r", kind="ping", result="pong"),
        M.Error(code=P.E_ILLEGAL, reason="Not your turn.", id=7),
        M.Error(code=P.E_BAD, reason="That is not JSON."),
        M.Bye(reason="Goodbye."),
        M.ChatLine(seat=None, name="Wes", watching=True, text="hi", at=12.5, deal=2),
    ):
        assert P.decode_server(P.encode(msg)) == msg


def test_the_chat_line_reads_as_a_log_line_of_the_table() -> None:
    line = M.ChatLine(seat=None, name="Wes", watching=True, text="hi [b]", at=1.0, deal=2)
    assert line.log_line(5) == LogLine(
        None, "Chat · Wes (watching): hi [b]", 2, kind="chat", anchor=5
    )
    assert line.to_json() == {
        "type": "chat", "seat": None, "name": "Wes", "watching": True, "text": "hi [b]",
        "at": 1.0, "deal": 2,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ('{"type":"nope"}', "does not know"),
        ("[1]", "does not know"),
        ("{", "not JSON"),
        ('{"type":"state","seat":0}', "observation should be an object"),
        ('{"type":"state","seat":"x","observation":{}}', "its seat is not a whole number"),
        ('{"type":"answer","id":[1],"kind":"ping"}', "its id is not a number or a text"),
        ('{"type":"error","code":5,"reason":"x"}', "its code is not what this version reads"),
        ('{"type":"welcome","seat":1,"code":"X","table":{}}', "without its token"),
        (
            '{"type":"welcome","seat":null,"role":"watch","code":"X","table":{}}',
            "does not say the game",
        ),
        ('{"type":"chat","name":3,"text":"x"}', "its name is not what this version reads"),
    ],
)
def test_a_host_message_of_the_wrong_shape_is_refused_with_the_reason(raw, words) -> None:
    with pytest.raises(P.BadMessage, match=words):
        P.decode_server(raw)


def test_a_state_of_the_wrong_shape_is_refused_at_the_door() -> None:
    table = _played("big-two", 5)
    try:
        msg, _ = table.state_for(1)
        good = json.loads(P.encode(msg))
        for key, bad, words in (
            ("n", "5", "its n is not"),
            ("to_act", [1, "2"], "its to_act is not"),
            ("legal", [{"cards": ["3S"]}], "its legal is not"),
            ("log", [{"seat": 0}], "its log is not"),
            ("seats", [{"name": "A", "connected": "yes"}], "its connected is not"),
            ("results", [{"winners": [0]}], "its results is not"),
        ):
            with pytest.raises(P.BadMessage, match=words):
                P.decode_server(json.dumps({**good, key: bad}))
        # fields it does not know are ignored; fields left out read as their blanks
        extra = P.decode_server(json.dumps({**good, "later": {"x": 1}}))
        assert extra == msg
        bare = P.decode_server(json.dumps({"type": "state", "seat": 1, **{
            "observation": good["observation"]}}))  # fmt: skip
        assert isinstance(bare, M.State)
        assert (bare.n, bare.to_act, bare.legal, bare.seats, bare.waiting) == (0, (), (), (), None)
    finally:
        table.close()
