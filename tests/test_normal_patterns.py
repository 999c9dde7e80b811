"""Normal's recurring mistakes against a greedy player (issue 33), each in a position from
a real seeded Big Two deal.

Each position is the deal dealt from ``seed`` with the moves listed played in turn (``-``
a pass, ``3D+3C`` a play): the moves that ``normal`` (in the seat to act) and three
``greedy2`` made before the change, up to the decision where normal went wrong. The old
choice is named in each test; the check is that normal no longer makes it and that what it
does instead is sound.
"""

from __future__ import annotations

import random

import pytest

from twos_tui.ai.climbing_ai import NormalClimbingAgent
from twos_tui.ai.climbing_common import splits_a_set
from twos_tui.engine import new_game
from twos_tui.engine.cards import display
from twos_tui.engine.protocol import PASS, Action

#: normal as it was before these fixes (the new terms off, the old play threshold)
BEFORE = {"STUCK": 0.0, "SPLIT": 0.0, "BIG_TWO_PLAY_AT": -0.05}


def replay(seed: int, moves: str):
    """The Big Two deal (4 players) from ``seed`` after ``moves``; each move must be legal."""
    g = new_game("big-two", 4, {}, seed)
    for m in moves.split():
        seat = g.to_act()[0]
        act = PASS if m == "-" else Action("play", tuple(m.split("+")))
        assert act in g.legal_actions(seat), (m, g.legal_actions(seat))
        g.apply(seat, act)
    return g


def move(g, **kw) -> Action:
    seat = g.to_act()[0]
    agent = NormalClimbingAgent(**kw)
    return agent.choose(
        g.observation(seat), g.legal_actions(seat), g.decision(seat), random.Random(0)
    )


def hand(g) -> list[str]:
    return list(g.hands[g.to_act()[0]])


# ----- (a) breaking pairs and triples to follow singles -------------------------------------


@pytest.mark.parametrize(
    ("seed", "moves", "before"),
    [
        # 11 cards, Q♦ Q♠ in hand: the Q♦ went on a J♥ ("costs next to nothing")
        (5000015, "3D 3S 5D 7D 7C 9D 9S 10S JH", ("QD",)),
        # 13 cards, 7♦ 7♣ in hand: the 7♣ went on a 4♣ though a loose Q♠ beats it too
        (5000019, "3D 3S 4C", ("7C",)),
    ],
)
def test_normal_does_not_break_a_pair_to_follow_a_single(seed, moves, before):
    g = replay(seed, moves)
    assert move(g, **BEFORE).cards == before  # the old mistake
    act = move(g)
    assert act.kind == "pass" or not splits_a_set("big-two", hand(g), act.cards), act


# ----- (b) spending twos and aces as singles while the hand is long -------------------------


@pytest.mark.parametrize(
    ("seed", "moves", "before"),
    [
        # 10 cards, 2♦ 2♠ in hand: the 2♦ went on an 8♦ (the pair broken, the lead lost)
        (5000015, "3D 3H 5D 7D 8S 9D 9S 10S AD 2H - - - 3S 5S 8D", ("2D",)),
        # 11 cards, one 2 left: the 2♣ went on a 2♦ and the rest were never led
        (
            5000020,
            "3D+3S - 9D+9H AD+AS - - 2H+2S - - - 4C 5H 5S JH JS QC QH QS KC 2D -",
            ("2C",),
        ),
    ],
)
def test_normal_keeps_its_twos_while_the_hand_is_long(seed, moves, before):
    g = replay(seed, moves)
    assert len(hand(g)) >= 10
    assert move(g, **BEFORE).cards == before
    act = move(g)
    assert not any(c.startswith("2") for c in act.cards), act
    if act.kind == "play":
        # a cheaper card that beats the table, not a piece of a set
        assert not splits_a_set("big-two", hand(g), act.cards), act


# ----- (c) sitting passive on pairs it never gets to lead -----------------------------------


@pytest.mark.parametrize(
    ("seed", "moves", "pair"),
    [
        # 11 cards with 10♦ 10♥, a pair of eights to beat: it passed (and finished with 10)
        (5000038, "3D+3S 6D+6C 8H+8S -", ("10D", "10H")),
        # 13 cards with Q♥ Q♠, a pair of jacks to beat: it passed
        (5000041, "3D+3S 9H+9S - - 10H+10S JC+JH", ("QH", "QS")),
    ],
)
def test_normal_follows_with_a_pair_it_would_otherwise_sit_on(seed, moves, pair):
    g = replay(seed, moves)
    assert move(g, **BEFORE) == PASS
    assert move(g).cards == pair
    # the hint says why, truly: the pair breaks a five-card hand of the plan
    seat = g.to_act()[0]
    hint = NormalClimbingAgent().suggest(
        g.observation(seat), g.legal_actions(seat), g.decision(seat), random.Random(0)
    )
    assert hint.action.cards == pair
    assert "needs a lead you may not get" in hint.reason, hint.reason
    five = hint.reason.split(": ", 1)[1].split(" needs")[0].split()
    assert len(five) == 5 and set(five) <= set(map(display, hand(g)))
    assert set(five) & set(map(display, pair))
