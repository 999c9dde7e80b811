"""Property tests over thousands of seeded random games of every variant.

For every step of every deal:
* every card is accounted for (``card_census`` is a permutation of ``deck_cards``);
* no observation holds a card hidden from that seat (neither its code nor its face label);
* the action taken comes from ``legal_actions`` and is accepted;
* a random selection that ``check`` rejects raises ``IllegalAction`` on ``apply``, and so
  does any action by a seat whose turn it is not.
At one random step of each deal the whole state round-trips through JSON and a rejected
action is shown to leave the state unchanged. Every deal ends; full matches end, and a
match replays exactly from its seed and action list.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twos_tui.engine import IllegalAction, load_game, new_game
from twos_tui.engine.protocol import Action

MAX_STEPS = 5_000

#: (variant, players, seeded deals). At least 2,000 deals per variant.
CONFIGS = [
    ("twos", 3, 1600),
    ("twos", 2, 400),
    ("big-two", 4, 1400),
    ("big-two", 3, 300),
    ("big-two", 2, 300),
    ("big-two-5r", 4, 2000),
    ("chinese-poker", 4, 1200),
    ("chinese-poker", 3, 400),
    ("chinese-poker", 2, 400),
    ("2v1", 3, 2000),
    ("twos-tricks", 4, 2000),
]


def assert_census(g):
    census = g.card_census()
    assert Counter(census) == Counter(g.deck_cards()), "cards lost or duplicated"


_LABELS: dict[tuple[str, str], str] = {}


def _label(g, code: str) -> str:
    key = (g.variant_id, code)
    lab = _LABELS.get(key)
    if lab is None:
        lab = _LABELS[key] = g.card_face(code).label
    return lab


def assert_no_leak(g, seen: list[int], seats=None) -> None:
    """No observation shows a hidden card, as a code or as its face label.
    ``seen[seat]`` counts the history entries already checked for that seat (entries
    never change once logged)."""
    for seat in range(g.players) if seats is None else seats:
        hidden = g.hidden_from(seat)
        obs = g.observation(seat)
        history = obs.pop("history", [])
        # earlier deals' cards and the cut for the deal come from a deck shuffled again
        fresh = [
            h
            for h in history[seen[seat] :]
            if h.get("kind") != "cut" and h.get("deal", g.deal_number) == g.deal_number
        ]
        seen[seat] = len(history)
        if not hidden:
            continue
        blob = json.dumps([obs, fresh], ensure_ascii=False)
        for c in hidden:
            assert f'"{c}"' not in blob, f"seat {seat} sees hidden card {c}"
            lab = _label(g, c)
            assert lab not in blob, f"seat {seat} sees hidden card {lab}"


def state(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def random_attempt(g, seat, rng) -> Action | None:
    d = g.decision(seat)
    if d is None or d.select is None or d.submit is None:
        return None
    hand = g.observation(seat)["hand"]
    if not hand:
        return None
    k = rng.randint(max(1, d.select[0]), max(1, min(d.select[1], len(hand), 6)))
    cards = rng.sample(hand, min(k, len(hand)))
    if rng.random() < 0.15:  # a card from someone else's hand, or a bogus one
        other = [c for c in g.card_census() if c not in hand]
        cards[0] = rng.choice(other) if other else "ZZ"
    return Action(d.submit, tuple(cards))


def step(g, rng, deep: bool) -> None:
    seats = g.to_act()
    assert seats, "the deal is not over but nobody is to act"
    seat = rng.choice(seats)
    legal = g.legal_actions(seat)
    assert legal, f"seat {seat} must act but has no legal action"
    # somebody out of turn is always refused
    idle = [s for s in range(g.players) if s not in seats]
    if idle:
        s2 = rng.choice(idle)
        assert g.check(s2, legal[0]) is not None
    attempt = random_attempt(g, seat, rng)
    if attempt is not None and g.check(seat, attempt) is not None:
        before = state(g) if deep else None
        with pytest.raises(IllegalAction):
            g.apply(seat, attempt)
        if deep:
            assert state(g) == before, "a refused action changed the state"
    if deep:
        for s in range(g.players):
            json.dumps(g.observation(s))
        data = json.loads(json.dumps(g.to_json()))
        g2 = load_game(data)
        assert state(g2) == state(g)
        for s in range(g.players):
            assert g2.observation(s) == g.observation(s)
            assert g2.legal_actions(s) == g.legal_actions(s)
    action = rng.choice(legal)
    assert g.check(seat, action) is None, f"listed legal action refused: {action}"
    g.apply(seat, action)


def play_deal(g, rng, deep_step: int) -> int:
    n = 0
    seen = [0] * g.players
    while not g.deal_over:
        assert_census(g)
        # every step: the seat to act and one other seat; all seats at the deep step
        acting = g.to_act()[0]
        assert_no_leak(g, seen, None if n == deep_step else {acting, rng.randrange(g.players)})
        step(g, rng, deep=(n == deep_step))
        n += 1
        assert n < MAX_STEPS, "deal did not end"
    assert_census(g)
    assert_no_leak(g, seen)
    assert g.to_act() == ()
    return n


@pytest.mark.parametrize("variant,players,deals", CONFIGS, ids=[f"{v}-{p}p" for v, p, _ in CONFIGS])
def test_random_deals(variant, players, deals):
    @settings(
        max_examples=deals,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(seed=st.integers(0, 2**31 - 1))
    def run(seed):
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed ^ 0x5EED)
        play_deal(g, rng, deep_step=rng.randrange(0, 40))

    run()


MATCH_SEEDS = range(3)


@pytest.mark.parametrize("variant,players", sorted({(v, p) for v, p, _ in CONFIGS}))
def test_full_matches_end_and_replay(variant, players):
    for seed in MATCH_SEEDS:
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed)
        deals = 0
        while True:
            play_deal(g, rng, deep_step=-1)
            deals += 1
            r = g.last_result
            assert r is not None and r.totals == g.totals
            assert len(r.changes) == players
            if g.match_over:
                break
            assert deals < 500, "match did not end"
            g.next_deal()
        assert g.match_winners()
        # JSON round trip of a finished match, and exact replay from seed + actions
        assert state(load_game(json.loads(json.dumps(g.to_json())))) == state(g)
        assert state(g.replay()) == state(g)
