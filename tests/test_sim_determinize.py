"""Determinization: sampled deals respect what the seat knows and nothing else."""

from __future__ import annotations

import random

import pytest
from sim_helpers import POSITIONS, midgame, rehide

from twos_tui.engine.climbing.determinize import OUT, Sampler, determinize, played_this_deal


@pytest.mark.parametrize(("variant", "players", "options"), POSITIONS)
@pytest.mark.parametrize("moves", [0, 7, 25])
def test_samples_respect_the_observation(variant, players, options, moves):
    g = midgame(variant, players, 11 + moves, moves, options)
    rng = random.Random(5)
    for seat in range(players):
        obs = g.observe(seat)
        sampler = Sampler(obs)
        r = sampler.rules
        own = r.mask_of(obs.hand)
        played = 0
        for _, cards in played_this_deal(obs):
            played |= r.mask_of(cards)
        assert played == r.mask_of(g.discards)
        out_of_play = r.deck_mask.bit_count() - played.bit_count() - sum(obs.hand_counts)
        for _ in range(10):
            s = sampler.sample(rng)
            assert s.hands[seat] == own
            assert s.counts() == list(obs.hand_counts)
            union = 0
            for h in s.hands:
                assert not union & h
                union |= h
            assert not union & played and not union & ~r.deck_mask
            assert r.deck_mask.bit_count() - played.bit_count() - union.bit_count() == (out_of_play)
            if g.required_card:
                assert s.hands[g.current] & r.mask_of([g.required_card])
                assert s.req == r.mask_of([g.required_card])
            assert s.cur == g.current and s.top_seat == (-1 if g.top_seat is None else g.top_seat)
            assert (s.top is None) == (g.top is None)
            if s.cur == seat:  # the seat's own choices are what the protocol lists
                got = {None if m is None else frozenset(r.codes_of(m[0])) for m in s.legal()}
                want = {
                    None if a.kind == "pass" else frozenset(a.cards) for a in g.legal_actions(seat)
                }
                assert got == want


@pytest.mark.parametrize(("variant", "players", "options"), POSITIONS)
def test_samples_never_read_hidden_cards(variant, players, options):
    """Two games that look the same to a seat give the same samples."""
    g = midgame(variant, players, 3, 9, options)
    for seat in range(players):
        h = rehide(g, seat, random.Random(seat))
        assert h.observation(seat) == g.observation(seat)
        a = [determinize(g.observe(seat), random.Random(9)).hands for _ in range(3)]
        b = [determinize(h.observe(seat), random.Random(9)).hands for _ in range(3)]
        assert a == b


def test_samples_vary_and_cover_every_unseen_card():
    g = midgame("big-two", 4, 1, 5)
    obs = g.observe(0)
    sampler = Sampler(obs)
    rng = random.Random(1)
    seen = [0] * 4
    for _ in range(200):
        s = sampler.sample(rng)
        for i, h in enumerate(s.hands):
            seen[i] |= h
    for i in range(1, 4):
        assert seen[i] == sampler.unknown | sampler.fixed[i]


def test_weights_bias_the_deal():
    g = midgame("twos", 3, 2, 0)
    obs = g.observe(0)
    unseen = [c for c in g.deck_cards() if c not in obs.hand]
    card = unseen[0]
    rng = random.Random(4)
    never = Sampler(obs, {1: {card: 0.0}})
    assert all(not never.sample(rng).hands[1] & never.rules.mask_of([card]) for _ in range(100))
    likely = Sampler(obs, {1: {card: 50.0}})
    hits = sum(bool(likely.sample(rng).hands[1] & likely.rules.mask_of([card])) for _ in range(200))
    plain = Sampler(obs)
    base = sum(bool(plain.sample(rng).hands[1] & plain.rules.mask_of([card])) for _ in range(200))
    assert hits > 170 and hits > base + 60
    out = Sampler(obs, {OUT: {card: 0.0}, 2: {card: 0.0}})
    assert all(out.sample(rng).hands[1] & out.rules.mask_of([card]) for _ in range(50))


def test_sampler_refuses_a_hand_choice():
    g = midgame("chinese-poker", 2, 1, 0)
    g2 = type(g)(2, None, 8)  # a fresh deal: still choosing hands
    with pytest.raises(ValueError):
        Sampler(g2.observe(g2.to_act()[0]))
    assert g.observation(0)["phase"] == "play"
