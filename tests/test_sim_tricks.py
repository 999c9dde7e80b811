"""The trick games' lean simulation paths (search's playground) agree with the protocol
games move for move, and their samplers deal out only what a seat cannot see. (2v1 has
one rules core that the protocol game plays too: ``tests/test_two_v_one_core.py``.)"""

from __future__ import annotations

import json
import random

from twos_tui.ai import agent_for, ai_rng
from twos_tui.engine import load_game, new_game
from twos_tui.engine.bitmask import bits
from twos_tui.engine.tricks.cards import FULL, INDEX, SUIT_MASK, mask_of
from twos_tui.engine.tricks.knowledge import determinize, voids
from twos_tui.engine.tricks.state import TricksState


# ----- Twos (trick-taking) -------------------------------------------------------------------
def _tricks_fields(s: TricksState) -> dict:
    return {f: getattr(s, f) for f in TricksState.__slots__}


def _play_policy(g, seat, rng, agents):
    legal = g.legal_actions(seat)
    if agents is None:
        return legal[rng.randrange(len(legal))]
    return agents[seat].choose(g.observation(seat), legal, g.decision(seat), rng)


def _tricks_positions(seeds=range(6), every=3):
    """Mid-deal positions of Twos (trick-taking) reached by normal play."""
    for seed in seeds:
        g = new_game("twos-tricks", seed=seed)
        agents = [agent_for("twos-tricks", "normal")] * 4
        rng = ai_rng(seed, 0)
        n = 0
        while not g.deal_over:
            (seat,) = g.to_act()
            if n % every == 0:
                yield g, seat
            g.apply(seat, _play_policy(g, seat, rng, agents))
            n += 1


def test_twos_tricks_samples_fit_what_the_seat_knows():
    for g, seat in _tricks_positions():
        obs = g.observation(seat)
        vm = voids(obs)
        hidden = {INDEX[c] for c in g.hidden_from(seat)}
        for k in range(3):
            s = determinize(obs, random.Random(k))
            assert s.hands[seat] == mask_of(g.hands[seat])
            union = 0
            for i in range(4):
                assert bin(s.hands[i]).count("1") == len(g.hands[i])
                if i != seat:
                    assert all(c in hidden for c in bits(s.hands[i]))
                    for su in range(4):
                        if vm[i] >> su & 1:
                            assert not s.hands[i] & SUIT_MASK[su]
                union |= s.hands[i]
            assert union | s.played | mask_of(c for _, c in g.trick) == FULL
            assert s.trick == [INDEX[c] for _, c in g.trick] and s.current == seat
        # the voids it reads are true ones
        for i in range(4):
            for su in range(4):
                if vm[i] >> su & 1:
                    assert not mask_of(g.hands[i]) & SUIT_MASK[su]


def _swap_hidden_tricks(g, seat, rng):
    """A copy of ``g`` where two other seats swap unseen cards of one suit: ``seat``'s
    observation is the same, the hidden cards are not."""
    d = json.loads(json.dumps(g.to_json()))
    hands = d["hands"]
    others = [i for i in range(4) if i != seat]
    for _ in range(50):
        a, b = rng.sample(others, 2)
        if not hands[a] or not hands[b]:
            continue
        ca = rng.choice(hands[a])
        same = [c for c in hands[b] if c[-1] == ca[-1] and c != ca]
        if same:
            cb = rng.choice(same)
            hands[a][hands[a].index(ca)] = cb
            hands[b][hands[b].index(cb)] = ca
            return load_game(d)
    return None


def test_twos_tricks_sampler_reads_only_the_observation():
    rng = random.Random(7)
    checked = 0
    for g, seat in _tricks_positions(seeds=range(3)):
        h = _swap_hidden_tricks(g, seat, rng)
        if h is None:
            continue
        assert h.hands != g.hands
        assert json.dumps(h.observation(seat)) == json.dumps(g.observation(seat))
        a = determinize(g.observation(seat), random.Random(1))
        b = determinize(h.observation(seat), random.Random(1))
        assert _tricks_fields(a) == _tricks_fields(b)
        checked += 1
    assert checked > 10
