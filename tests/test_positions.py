"""The position-setup API (twos_tui/engine/positions.py): every variant builds, plays a
legal move, refuses an illegal one with a reason, keeps every card once, hides what it
must; bad positions are refused with a readable reason."""

from __future__ import annotations

from collections import Counter

import pytest

from twos_tui.engine import Action, IllegalAction
from twos_tui.engine.positions import Position, PositionError, build_game

TWOS_OUT = ["4C", "5C", "5D", "5H", "6D", "6H", "6S", "7D", "8D", "8H", "8S", "9C", "9D"]

POSITIONS = {
    "twos": Position(
        "twos",
        [["3S", "4S", "5S", "9H"], ["KH", "KD"], ["7C"]],
        0,
        top={"seat": 2, "cards": ["6C"]},
        out_of_play=TWOS_OUT,
    ),
    "twos-2p": Position("twos", [["3S", "4S", "5S", "9H"], ["KH", "KD"]], 1, {"hand_size": 26}),
    "big-two": Position(
        "big-two", [["3S", "4S"], ["KH", "KD"], ["7C"], ["2S"]], 1, top={"seat": 0, "cards": ["5S"]}
    ),
    "big-two-5r": Position("big-two-5r", [["3S", "4S"], ["KH", "KD"], ["7C"], ["2S"]], 1),
    "chinese-poker": Position(
        "chinese-poker",
        [["3S", "4S"], ["KH", "KD"], ["7C"], ["2S"]],
        2,
        top={"seat": 0, "cards": ["5S"]},
    ),
    "twos-tricks": Position(
        "twos-tricks",
        [["3S", "4S"], ["KH"], ["7C"], ["2S"]],
        0,
        trick=[{"seat": 1, "card": "5S"}, {"seat": 2, "card": "6S"}, {"seat": 3, "card": "7S"}],
    ),
    "2v1-bid": Position(
        "2v1",
        [
            ["1M", "2S", "3H", "6H", "6U", "RB"],
            ["5M", "3S", "3C", "5C", "1U", "4U"],
            ["2M", "4M", "1S", "5S", "2H", "4C"],
        ],
        1,
    ),
    "2v1-play": Position(
        "2v1",
        [["1M", "2S", "3H"], ["5M", "3S"], ["2M", "4M"]],
        0,
        extra={
            "phase": "lead",
            "lone": 0,
            "bid": 3,
            "hands_won": [2, 1],
            "duo_discards": [None, "3C", "4C"],
        },
    ),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_builds_plays_and_refuses(name: str) -> None:
    pos = POSITIONS[name]
    g = build_game(pos)
    seat = pos.to_act
    assert seat in g.to_act()
    census = g.card_census()
    assert Counter(census) == Counter(g.deck_cards())
    obs = g.observation(seat)
    assert sorted(obs["hand"]) == sorted(pos.hands[seat])
    # nothing hidden from the seat is in its view
    text = str(obs)
    for c in g.hidden_from(seat):
        assert f"'{c}'" not in text
    # an illegal move is refused with a reason and changes nothing
    before = g.to_json()
    other = next(s for s in range(g.players) if s not in g.to_act())
    reason = g.check(other, g.legal_actions(seat)[0])
    assert reason and "not your turn" in reason
    with pytest.raises(IllegalAction):
        g.apply(seat, Action("play", ("AS",)) if g.family != "climbing" else Action("bogus"))
    assert g.to_json() == before
    # a legal move plays
    legal = g.legal_actions(seat)
    g.apply(seat, legal[0])
    assert Counter(g.card_census()) == Counter(g.deck_cards())
    assert g.actions


def test_climbing_table_state() -> None:
    g = build_game(POSITIONS["twos"])
    assert g.observation(0)["top"] == {"seat": 2, "cards": ["6C"], "kind": "single"}
    legal = g.legal_actions(0)
    assert Action("play", ("9H",)) in legal and Action("pass") in legal
    assert g.check(0, Action("play", ("5S",))) is not None
    # passes since the play were made by the seats between
    g2 = build_game(
        Position("big-two", [["3S"], ["KH"], ["7C"], ["2S"]], 3, top={"seat": 0, "cards": ["5S"]})
    )
    assert "passed" in g2.observation(3)["seat_tags"][1]
    assert "passed" in g2.observation(3)["seat_tags"][2]


def test_tricks_and_2v1_state() -> None:
    g = build_game(POSITIONS["twos-tricks"])
    assert g.legal_actions(0) == [Action("play", ("3S",)), Action("play", ("4S",))]
    g.apply(0, Action("play", ("4S",)))
    assert g.to_act() == (3,)  # seat 3 won with the 7♠
    g2 = build_game(POSITIONS["2v1-play"])
    assert {a.kind for a in g2.legal_actions(0)} == {"lead"}
    obs = g2.observation(1)
    assert sorted(obs["hand"]) == ["3S", "5M"]
    assert "4C" not in str(obs)  # the other duo player's discard stays unseen


@pytest.mark.parametrize(
    ("pos", "words"),
    [
        (Position("nope", [["3S"]], 0), "unknown game"),
        (Position("twos", [["3S"], ["3S"], ["4S"]], 0), "every card is in one place"),
        (Position("twos", [["3S"], ["4S"], ["5S"]], 0), "out of play"),
        (Position("twos", [["3S"], ["4S"], ["5S"], ["6S"]], 0), "players"),
        (Position("big-two", [["3S"], ["4S"], ["5S"], ["6S"]], 7), "to_act"),
        (
            Position(
                "big-two", [["3S"], ["4S"], ["5S"], ["6S"]], 1, top={"seat": 1, "cards": ["7S"]}
            ),
            "leads",
        ),
        (
            Position(
                "big-two",
                [["3S"], ["4S"], ["5S"], ["6S"]],
                2,
                top={"seat": 0, "cards": ["7S", "8S"]},
            ),
            "not a combination",
        ),
        (
            Position(
                "big-two",
                [["3S"], ["4S"], ["5S"], ["6S"]],
                2,
                top={"seat": 0, "cards": ["7S"]},
                passes=[],
            ),
            "passed",
        ),
        (Position("big-two", [["3S"], [], ["5S"], ["6S"]], 0), "no cards"),
        (Position("big-two", [["XX"], ["4S"], ["5S"], ["6S"]], 0), "not a card"),
        (Position("twos-tricks", [["3S", "4S"], ["KH"], ["7C"], ["2S"]], 0), "same number"),
        (Position("2v1", [["1M"], ["5M"], ["2M"]], 0), "six"),
        (Position("big-two", [["3S"], ["4S"], ["5S"], ["6S"]], 0, extra={"zzz": 1}), "zzz"),
    ],
)
def test_bad_positions_refused(pos: Position, words: str) -> None:
    with pytest.raises(PositionError) as err:
        build_game(pos)
    assert words in str(err.value)


def test_json_round_trip() -> None:
    for pos in POSITIONS.values():
        data = pos.to_json()
        assert Position.from_json(data) == pos
        build_game(Position.from_json(data))
    with pytest.raises(PositionError):
        Position.from_json({"variant": "twos", "hands": [], "to_act": 0, "zz": 1})
    with pytest.raises(PositionError):
        Position.from_json([1])


def test_a_2v1_card_twice_or_left_out_is_named_by_its_face():
    """2v1's own cards (codes like 1M) in a refusal: named as the game shows them, never
    a KeyError from the standard deck's names."""
    from twos_tui.engine import new_game
    from twos_tui.engine.positions import Position, PositionError, build_game

    g = new_game("2v1", seed=1)
    deck = g.deck_cards()
    hands = [deck[0:6], deck[6:12], deck[12:18]]
    twice = [list(h) for h in hands]
    twice[1][0] = twice[0][0]
    for bad, word in ((twice, "one place only"), ([h[:5] for h in hands], "nowhere")):
        extra = {"pile": [], "phase": "lead"} if word == "nowhere" else {}
        with pytest.raises(PositionError, match=word) as e:
            build_game(Position("2v1", bad, to_act=0, extra=extra))
        assert "KeyError" not in str(e.value)
