"""The hard search's inference about the other hands (issue 31): worlds weighed by how
likely each opponent's plays were, from the observation only."""

from __future__ import annotations

import random

import pytest
from sim_helpers import POSITIONS, midgame, rehide

from twos_tui.ai import climbing_beliefs as cb
from twos_tui.engine import Action, load_game, new_game
from twos_tui.engine.climbing.determinize import OUT, Sampler
from twos_tui.engine.climbing.rules import rules_for, state_from_game

POOL = 24  # a small pool keeps the tests quick


def infer(g, seat, seed=1):
    obs = g.observe(seat)
    rules = rules_for(obs.variant, obs.players, obs.options)
    return cb.inferred_weights(obs, rules, random.Random(seed), pool=POOL)


@pytest.mark.parametrize(("variant", "players", "options"), POSITIONS)
@pytest.mark.parametrize("moves", [0, 6, 20])
def test_inferred_deals_keep_every_count_and_the_required_card(variant, players, options, moves):
    g = midgame(variant, players, 21 + moves, moves, options)
    rng = random.Random(3)
    for seat in range(players):
        obs = g.observe(seat)
        sampler = Sampler(obs, infer(g, seat))
        r = sampler.rules
        for _ in range(8):
            s = sampler.sample(rng)
            assert s.hands[seat] == r.mask_of(obs.hand)
            assert s.counts() == list(obs.hand_counts)
            union = 0
            for h in s.hands:
                assert not union & h
                union |= h
            assert not union & sampler.played
            if g.required_card:
                assert s.hands[g.current] & r.mask_of([g.required_card])


@pytest.mark.parametrize(("variant", "players", "options"), POSITIONS)
def test_the_true_deal_always_fits_the_history(variant, players, options):
    """The likelihood never rules out what really happened, and the opening facts never
    put a card a seat really holds out of play."""
    for seed in range(4):
        g = midgame(variant, players, 40 + seed, 8 + 5 * seed, options)
        truth = state_from_game(g).hands
        for seat in range(players):
            obs = g.observe(seat)
            rules = rules_for(variant, players, obs.options)
            events, played = cb.deal_events(obs, rules)
            if not events:
                continue
            start = [h | played[s] for s, h in enumerate(truth)]
            assert cb.log_likelihood(rules, start, obs.dealer, events, seat) is not None
            for s, row in cb.opening_facts(obs, rules, events, played).items():
                assert not truth[s] & rules.mask_of(list(row))


@pytest.mark.parametrize(("variant", "players", "options"), POSITIONS)
def test_inference_never_reads_hidden_cards(variant, players, options):
    """Two games that look the same to a seat give the same weights and the same deals."""
    g = midgame(variant, players, 5, 14, options)
    for seat in range(players):
        h = rehide(g, seat, random.Random(seat + 7))
        assert h.observation(seat) == g.observation(seat)
        wa, wb = infer(g, seat, 11), infer(h, seat, 11)
        assert wa == wb
        sa, sb = Sampler(g.observe(seat), wa), Sampler(h.observe(seat), wb)
        ra, rb = random.Random(2), random.Random(2)
        assert [sa.sample(ra).hands for _ in range(3)] == [sb.sample(rb).hands for _ in range(3)]


def test_without_a_generator_the_weights_come_from_the_observation():
    g = midgame("big-two", 4, 9, 12)
    obs = g.observe(1)
    rules = rules_for("big-two", 4, obs.options)
    assert cb.inferred_weights(obs, rules, pool=POOL) == cb.inferred_weights(obs, rules, pool=POOL)
    h = rehide(g, 1, random.Random(4))
    assert cb.inferred_weights(h.observe(1), rules, pool=POOL) == cb.inferred_weights(
        obs, rules, pool=POOL
    )


def late_pass_on_a_low_single():
    """A Big Two deal built by hand: 36 singles played in rising order round the table
    (3♦ first), everyone passes, Player 4 leads 4♦ and Player 1, holding four cards,
    passes on it. The game as Player 2 sees it."""
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    deck = [r + s for r in ranks for s in "DCHS"]
    left = [
        ["JS", "QS", "KS", "AS"],
        ["8D", "8C", "9D", "9C"],
        ["5D", "5C", "6D", "6C"],
        ["4D", "7D", "7C", "10D"],
    ]
    rest = [c for c in deck if not any(c in h for h in left)]
    hands = [list(h) for h in left]
    for i, c in enumerate(rest):
        hands[i % 4].append(c)
    data = new_game("big-two", 4, {}, 3).to_json()
    data["hands"] = [sorted(h, key=deck.index) for h in hands]
    data["current"] = 0
    data["required_card"] = "3D"
    for line in data["history"]:
        if line.get("kind") == "starter":
            line["seat"] = 0
            line["text"] = "Player 1 holds 3♦ and must play it in the first play."
    g = load_game(data)
    for c in rest:
        g.apply(g.current, Action("play", (c,)))
    for _ in range(3):
        g.apply(g.current, Action("pass"))
    assert g.current == 3
    g.apply(3, Action("play", ("4D",)))
    g.apply(0, Action("pass"))
    assert g.current == 1
    return g


def test_a_pass_on_a_low_single_moves_the_low_cards_away_from_the_passer():
    """Seen from Player 2, Player 1's pass on 4♦ with four cards makes it less likely
    than either other opponent to hold the unseen low singles (5s to 7s), and the
    deals give it fewer of them than even deals do; the rules of thumb (a flat 0.35
    for every card above 4♦) could not tell a 5 from a king."""
    g = late_pass_on_a_low_single()
    obs = g.observe(1)
    rules = rules_for("big-two", 4, obs.options)
    w = cb.inferred_weights(obs, rules, random.Random(0), pool=400)
    low = ["5D", "5C", "6D", "6C", "7D", "7C"]
    mean = {s: sum(w[s][c] for c in low) / len(low) for s in (0, 2, 3)}
    assert mean[0] < 0.9 and mean[0] + 0.15 < min(mean[2], mean[3])
    rng = random.Random(5)
    mask = rules.mask_of(low)
    inferred = Sampler(obs, w)
    even = Sampler(obs)
    got = sum((inferred.sample(rng).hands[0] & mask).bit_count() for _ in range(400))
    base = sum((even.sample(rng).hands[0] & mask).bit_count() for _ in range(400))
    assert got < 0.9 * base


def test_a_starter_shows_that_the_cards_below_its_lowest_were_not_dealt():
    """Twos for three (13 cards each, 13 out of play): the holder of the lowest dealt
    card leads, so seen from the starter every unseen card below its own lowest card is
    out of play, and the inferred deals never give one to an opponent."""
    g = new_game("twos", 3, {}, 12)
    starter = g.current
    obs = g.observe(starter)
    rules = rules_for("twos", 3, obs.options)
    own = rules.mask_of(obs.hand)
    below = rules.deck_mask & ((own & -own) - 1)
    legal = [a for a in g.legal_actions(starter) if a.kind == "play"]
    g.apply(starter, legal[0])
    nxt = g.current
    g.apply(nxt, g.legal_actions(nxt)[-1])  # a pass or a play: evidence either way
    while g.current != starter:
        g.apply(g.current, g.legal_actions(g.current)[-1])
    obs = g.observe(starter)
    w = cb.inferred_weights(obs, rules, random.Random(2), pool=POOL)
    if not below:
        pytest.skip("the starter holds the lowest card of the deck")
    for s in range(3):
        if s != starter:
            assert all(w[s][rules.codes[c]] == 0.0 for c in range(64) if below >> c & 1)
    assert all(w[OUT][rules.codes[c]] > 0.0 for c in range(64) if below >> c & 1)
    sampler = Sampler(obs, w)
    rng = random.Random(3)
    for _ in range(50):
        hands = sampler.sample(rng).hands
        assert not any(h & below for s, h in enumerate(hands) if s != starter)


def test_softened_follow_model_prefers_cheap_plays_and_passes_on_dear_ones():
    rules = rules_for("big-two", 4, {})
    top = rules.move_of_codes(["3D"])
    assert top is not None

    def log_p(hand_codes, played):
        hand = rules.mask_of(hand_codes)
        moves = list(rules.follows(hand, top)) + [None]
        mv = None if played is None else rules.move_of_codes(played)
        return cb.follow_log_p(hand, moves, mv)

    # a pass is likelier from a hand whose only beaters are aces and twos
    assert log_p(["AS", "2S"], None) > log_p(["4C", "2S"], None)
    # beating with a king is likelier when nothing cheaper would do
    assert log_p(["KS", "AS"], ["KS"]) > log_p(["4C", "KS"], ["KS"])
    # breaking a pair costs: a lone 6 is likelier played than one out of a pair of 5s
    assert log_p(["5C", "5H", "6S"], ["6S"]) > log_p(["5C", "5H", "6S"], ["5C"])


def test_belief_weights_follow_the_flag(monkeypatch):
    g = midgame("big-two", 4, 9, 12)
    obs = g.observe(2)
    rules = rules_for("big-two", 4, obs.options)
    monkeypatch.setattr(cb, "POOL", POOL)
    monkeypatch.setattr(cb, "INFERENCE", True)
    assert cb.belief_weights(obs, rules, random.Random(1)) == cb.inferred_weights(
        obs, rules, random.Random(1)
    )
    monkeypatch.setattr(cb, "INFERENCE", False)
    assert cb.belief_weights(obs, rules) == cb.rule_weights(obs, rules)
