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


def deck_of(g) -> tuple[int, frozenset[str]]:
    """The deck of this deal as (size, set of cards); its cards are all different."""
    deck = g.deck_cards()
    cards = frozenset(deck)
    assert len(cards) == len(deck), "the deck itself holds a card twice"
    return len(deck), cards


def assert_census(g, deck: tuple[int, frozenset[str]] | None = None) -> None:
    """``card_census`` is a permutation of ``deck_cards``. With the deck's cards all
    different, "as many cards as the deck, and the same set" says exactly that, without
    counting every card twice at every step."""
    size, cards = deck if deck is not None else deck_of(g)
    census = g.card_census()
    if len(census) != size or set(census) != cards:
        lost = Counter(cards) - Counter(census)
        extra = Counter(census) - Counter(cards)
        raise AssertionError(f"cards lost or duplicated: lost {dict(lost)}, extra {dict(extra)}")


_LABELS: dict[str, dict[str, str]] = {}


def _labels(g) -> dict[str, str]:
    """Code -> face label (``"3S"`` -> ``"3♠"``) of every card of the variant's deck."""
    labels = _LABELS.get(g.variant_id)
    if labels is None:
        labels = _LABELS[g.variant_id] = {}
        for code in g.deck_cards():
            _label(g, code)
    return labels


def _label(g, code: str) -> str:
    labels = _LABELS.setdefault(g.variant_id, {})
    lab = labels.get(code)
    if lab is None:
        lab = labels[code] = g.card_face(code).label
        # the leak check looks for labels only in text holding a non-ASCII character
        assert not lab.isascii(), f"{g.variant_id}: card label {lab!r} has no glyph"
    return lab


#: JSON text of an observation (glyphs kept as they are, so labels can be found)
_to_json = json.JSONEncoder(ensure_ascii=False).encode


def assert_no_leak(g, seen: list[int], seats=None) -> dict[int, list[str]]:
    """No observation shows a hidden card, as a code or as its face label.
    ``seen[seat]`` counts the history entries already checked for that seat (entries
    never change once logged). Returns the hand each checked seat observed.

    The observation (with the history entries not checked yet) is written as JSON once
    (which also proves it JSON-able) and cut at every quote: a hidden code must not be
    one of the pieces between two quotes (that is ``"3S"`` in the text), and a hidden
    card's label (``3♠``) must not occur inside a piece (labels hold no quote, and always
    a glyph, so only pieces with a non-ASCII character can hold one). That is exactly
    what searching the whole text twice per hidden card found, for the price of one
    split and a set intersection."""
    hands: dict[int, list[str]] = {}
    labels = _labels(g)
    for seat in range(g.players) if seats is None else seats:
        hidden = g.hidden_from(seat)
        obs = g.observation(seat)
        history = obs.pop("history", [])
        hands[seat] = obs.get("hand", [])
        # earlier deals' cards and the cut for the deal come from a deck shuffled again
        fresh = [
            h
            for h in history[seen[seat] :]
            if h.get("kind") != "cut" and h.get("deal", g.deal_number) == g.deal_number
        ]
        seen[seat] = len(history)
        if not hidden:
            continue
        pieces = set(_to_json([obs, fresh]).split('"')[1:-1])
        leaked = hidden & pieces
        assert not leaked, f"seat {seat} sees hidden card {sorted(leaked)[0]}"
        text = "\x00".join(t for t in pieces if not t.isascii())
        for c in hidden:
            lab = labels.get(c) or _label(g, c)
            assert lab not in text, f"seat {seat} sees hidden card {lab}"
    return hands


def state(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def random_attempt(g, seat, rng, hand: list[str] | None = None) -> Action | None:
    """A random selection from ``seat``'s hand (``hand``: as it observed it just now)."""
    d = g.decision(seat)
    if d is None or d.select is None or d.submit is None:
        return None
    if hand is None:
        hand = g.observation(seat)["hand"]
    if not hand:
        return None
    k = rng.randint(max(1, d.select[0]), max(1, min(d.select[1], len(hand), 6)))
    cards = rng.sample(hand, min(k, len(hand)))
    if rng.random() < 0.15:  # a card from someone else's hand, or a bogus one
        other = [c for c in g.card_census() if c not in hand]
        cards[0] = rng.choice(other) if other else "ZZ"
    return Action(d.submit, tuple(cards))


def step(g, rng, deep: bool, hands: dict[int, list[str]] | None = None) -> None:
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
    attempt = random_attempt(g, seat, rng, (hands or {}).get(seat))
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
    deck = deck_of(g)
    while not g.deal_over:
        assert_census(g, deck)
        # every step: the seat to act and one other seat; all seats at the deep step
        acting = g.to_act()[0]
        hands = assert_no_leak(
            g, seen, None if n == deep_step else {acting, rng.randrange(g.players)}
        )
        step(g, rng, deep=(n == deep_step), hands=hands)
        n += 1
        assert n < MAX_STEPS, "deal did not end"
    assert_census(g, deck)
    assert_no_leak(g, seen)
    assert g.to_act() == ()
    return n


def run_deals(variant: str, players: int, deals: int, salt: int = 0) -> None:
    """``deals`` seeded random deals of a variant, every check at every step."""

    @settings(
        max_examples=deals,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(seed=st.integers(0, 2**31 - 1))
    def run(seed):
        seed ^= salt
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed ^ 0x5EED)
        play_deal(g, rng, deep_step=rng.randrange(0, 40))

    run()


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,deals", CONFIGS, ids=[f"{v}-{p}p" for v, p, _ in CONFIGS])
def test_random_deals(variant, players, deals):
    run_deals(variant, players, deals)


#: deals per configuration in the quick loop; the full counts run in ``test_random_deals``
SAMPLE_DEALS = 12


@pytest.mark.parametrize("variant,players", [(v, p) for v, p, _ in CONFIGS])
def test_random_deals_sample(variant, players):
    """The same checks over a few deals of every configuration (other seeds than the
    full run's), so that the quick loop still plays every variant through."""
    run_deals(variant, players, SAMPLE_DEALS, salt=0x0DD5)


MATCH_SEEDS = range(3)


#: matches long enough (penalty totals to 100) to be left to the full suite
SLOW_MATCHES = {"big-two", "chinese-poker"}


@pytest.mark.parametrize(
    "variant,players",
    [
        pytest.param(v, p, marks=[pytest.mark.slow] if v in SLOW_MATCHES else [])
        for v, p in sorted({(v, p) for v, p, _ in CONFIGS})
    ],
)
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
