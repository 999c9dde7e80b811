"""A climbing game and the rules core's state read from it
(``climbing.rules.state_from_game``) stay together move for move: the same plays listed,
the same seat to act, the same end. The game lists its plays from the core, so this
holds the translation (card codes, the play to beat, passes) and both callers of the
core's trick flow together; ``test_climbing_core.py`` checks the core alone against the
frozen corpus."""

from __future__ import annotations

import random

import pytest

from twos_tui.engine import new_game
from twos_tui.engine.climbing.core import beats
from twos_tui.engine.climbing.rules import rules_for, state_from_game

CASES = [
    ("twos", 3, {}),
    ("twos", 2, {}),
    ("twos", 3, {"run_suits": "same-suit"}),
    ("twos", 3, {"passing": "locked", "opening": "lowest"}),
    ("twos", 2, {"hand_size": 26, "bomb_order": "fixed"}),
    ("twos", 3, {"hand_size": 17}),
    ("big-two", 4, {}),
    ("big-two", 3, {"straight_23456": "high", "flush_order": "suit"}),
    ("big-two", 2, {"passing": "locked"}),
    ("big-two-5r", 4, {}),
    ("big-two-5r", 4, {"passing": "locked"}),
    ("chinese-poker", 4, {}),
    ("chinese-poker", 3, {"bomb_compare": "quad"}),
    ("chinese-poker", 2, {}),
]


def card_sets(rules, moves) -> set:
    return {None if m is None else frozenset(rules.codes_of(m[0])) for m in moves}


def action_sets(actions) -> set:
    return {None if a.kind == "pass" else frozenset(a.cards) for a in actions}


def pick(legal, rng, bias_pass: float = 0.15):
    """A random legal action, passing less often than uniform (longer tricks)."""
    plays = [a for a in legal if a.kind == "play"]
    if plays and (len(plays) == len(legal) or rng.random() > bias_pass):
        return plays[rng.randrange(len(plays))]
    return legal[rng.randrange(len(legal))]


def settle_hand_choice(g, rng) -> None:
    while getattr(g, "_choosing", False):
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_sim_follows_the_protocol_move_for_move(variant, players, options):
    """On seeded deals both paths list the same plays (as sets of card sets: the
    canonical suit choices agree), move to the same seat and end alike."""
    rng = random.Random(f"{variant}{players}{options}")
    for deal in range(12):
        g = new_game(variant, players, options, seed=1000 + deal)
        settle_hand_choice(g, rng)
        s = state_from_game(g)
        r = s.rules
        while True:
            assert s.over == g.deal_over
            if g.deal_over:
                assert s.winner == g.last_result.winners[0]
                break
            seat = g.to_act()[0]
            assert s.cur == seat
            legal = g.legal_actions(seat)
            sim_legal = s.legal()
            assert card_sets(r, sim_legal) == action_sets(legal)
            assert len(sim_legal) == len(legal)  # no play listed twice
            act = pick(legal, rng)
            mv = None if act.kind == "pass" else r.move_of_codes(act.cards)
            assert mv is None or mv[0] in {m[0] for m in sim_legal if m is not None}
            before = s.copy()
            g.apply(seat, act)
            s.play(mv)
            assert before.cur == seat  # the copy was not touched
            assert s.counts() == [len(h) for h in g.hands]
            assert (s.top is None) == (g.top is None)


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_sim_state_from_any_point_matches(variant, players, options):
    """A state read from the middle of a deal lists what the protocol lists."""
    rng = random.Random(7)
    for deal in range(6):
        g = new_game(variant, players, options, seed=77 + deal)
        settle_hand_choice(g, rng)
        while not g.deal_over:
            seat = g.to_act()[0]
            s = state_from_game(g)
            assert card_sets(s.rules, s.legal()) == action_sets(g.legal_actions(seat))
            g.apply(seat, pick(g.legal_actions(seat), rng))


def test_sim_moves_compare_like_the_engine():
    """``move_of`` classifies as the engine does and refuses what it refuses."""
    r = rules_for("big-two", 4)
    assert r.move_of_codes(["3D", "3S"])[2] == r.move_of_codes(["3S"])[2]
    assert r.move_of_codes(["3D", "4D"]) is None
    t = rules_for("twos", 3)
    assert t.move_of_codes(["3S", "4S", "5S"]) is not None
    assert t.move_of_codes(["2H", "3S", "4S"]) is None  # no wrap
    c = rules_for("chinese-poker", 4)
    assert c.move_of_codes(["2H"]) is None  # not in the 48-card deck


def test_random_deals_end_with_one_winner():
    for variant, players, options in CASES:
        r = rules_for(variant, players, options)
        rng = random.Random(3)
        for _ in range(20):
            s = r.deal(rng)
            total = sum(s.counts())
            n = 0
            while not s.over:
                moves = s.legal()
                assert moves
                s.play(moves[rng.randrange(len(moves))])
                n += 1
                assert n < 5000
            assert s.hands[s.winner] == 0 and sum(s.counts()) < total


def rich_hand(deck, rng, size):
    """A random hand with more bombs, runs and sets than a deal usually gives."""
    by_rank: dict = {}
    for c in deck:
        by_rank.setdefault(c[:-1], []).append(c)
    hand: list = []
    ranks = list(by_rank)
    while len(hand) < size:
        cards = [c for c in by_rank[rng.choice(ranks)] if c not in hand]
        rng.shuffle(cards)
        hand += cards[: min(len(cards), rng.choice((1, 2, 4)), size - len(hand))]
    return hand


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_sim_lists_rich_hands_like_the_protocol(variant, players, options):
    """Hands full of bombs and chains, against every kind of play to beat."""
    rng = random.Random(f"rich{variant}{options}")
    g = new_game(variant, players, options, seed=5)
    settle_hand_choice(g, rng)
    r = rules_for(variant, players, options)
    deck = g.deck_cards()
    size = max(len(h) for h in g.hands)
    for _ in range(25):
        mine = rich_hand(deck, rng, size)
        rest = [c for c in deck if c not in mine]
        theirs = rich_hand(rest, rng, size)
        g.hands[0], g.hands[1] = list(g.sort_cards(mine)), list(g.sort_cards(theirs))
        g.current, g.required_card, g.opening = 0, None, False
        g.top, g.top_seat = None, None
        g.passed = [False] * players
        tops = [None] + [
            a.cards for a in g.legal_actions(0) if a.kind == "play" and rng.random() < 0.3
        ]
        g.current = 1
        theirs_plays = [a.cards for a in g.legal_actions(1) if a.kind == "play"]
        tops += rng.sample(theirs_plays, min(12, len(theirs_plays)))
        g.current = 0
        for top in tops:
            if top is not None and set(top) & set(g.hands[0]):
                continue
            g.top = None if top is None else g.classify(tuple(top))
            g.top_seat = None if top is None else 1
            s = state_from_game(g)
            assert card_sets(r, s.legal()) == action_sets(g.legal_actions(0)), top


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_move_of_classifies_like_the_engine(variant, players, options):
    """Random card sets (and many that nearly make a play): the sim's move exists
    exactly when the engine's classification does, and compares the same way."""
    from twos_tui.engine import variant_class

    cls = variant_class(variant)
    r = rules_for(variant, players, options)
    opts = dict(cls.resolve_options(players, options), _players=players)
    deck = [c for c in r.codes if r.index[c] < 52 and r.deck_mask >> r.index[c] & 1]
    rng = random.Random(f"moveof{variant}{options}")
    combos = []
    for _ in range(1500):
        if rng.random() < 0.5:
            cards = rng.sample(deck, rng.choice([1, 2, 3, 4, 5, 6, 8]))
        else:  # ranks in a row, as many cards at each
            by_rank: dict = {}
            for c in deck:
                by_rank.setdefault(r.index[c] >> 2, []).append(c)
            start = rng.randrange(13)
            width = rng.randrange(1, 5)
            cards = []
            for q in range(start, min(13, start + rng.randrange(1, 9))):
                have = by_rank.get(q, [])
                cards += rng.sample(have, min(width, len(have)))
        mv = r.move_of_codes(cards)
        combo = cls.classify_cards(tuple(cards), opts)
        assert (mv is None) == (combo is None), cards
        if mv is not None:
            combos.append((mv, combo))
    for (a, ca), (b, cb) in zip(combos, combos[1:], strict=False):
        assert beats(a, b) == ca.beats(cb) and beats(b, a) == cb.beats(ca)
