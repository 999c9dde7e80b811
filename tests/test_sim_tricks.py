"""The trick games' lean simulation paths (search's playground) agree with the protocol
games move for move, and their samplers deal out only what a seat cannot see."""

from __future__ import annotations

import json
import random

import pytest

from twos_tui.ai import agent_for, ai_rng
from twos_tui.engine import load_game, new_game
from twos_tui.engine import sim_two_v_one as V
from twos_tui.engine import sim_twos_tricks as T
from twos_tui.engine.protocol import Action


# ----- Twos (trick-taking) -------------------------------------------------------------------
def _tricks_fields(s: T.TricksSim) -> dict:
    return {f: getattr(s, f) for f in T.TricksSim.__slots__}


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
        vm = T.voids(obs)
        hidden = {T.INDEX[c] for c in g.hidden_from(seat)}
        for k in range(3):
            s = T.determinize(obs, random.Random(k))
            assert s.hands[seat] == T.mask_of(g.hands[seat])
            union = 0
            for i in range(4):
                assert bin(s.hands[i]).count("1") == len(g.hands[i])
                if i != seat:
                    assert all(c in hidden for c in T.bits(s.hands[i]))
                    for su in range(4):
                        if vm[i] >> su & 1:
                            assert not s.hands[i] & T.SUIT_MASK[su]
                union |= s.hands[i]
            assert union | s.played | T.mask_of(c for _, c in g.trick) == T.FULL
            assert s.trick == [T.INDEX[c] for _, c in g.trick] and s.current == seat
        # the voids it reads are true ones
        for i in range(4):
            for su in range(4):
                if vm[i] >> su & 1:
                    assert not T.mask_of(g.hands[i]) & T.SUIT_MASK[su]


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
        a = T.determinize(g.observation(seat), random.Random(1))
        b = T.determinize(h.observation(seat), random.Random(1))
        assert _tricks_fields(a) == _tricks_fields(b)
        checked += 1
    assert checked > 10


# ----- 2v1 -------------------------------------------------------------------------------------
def _round_fields(s: V.RoundSim) -> dict:
    return {f: getattr(s, f) for f in V.RoundSim.__slots__}


def _two_v_one_games(mode, seeds):
    agents = None if mode == "random" else [agent_for("2v1", "normal")] * 3
    for seed in seeds:
        g = new_game("2v1", seed=seed)
        yield g, random.Random(seed), agents


@pytest.mark.parametrize("mode", ["random", "normal"])
def test_two_v_one_sim_agrees_with_the_protocol_move_for_move(mode):
    rounds = 0
    for g, rng, agents in _two_v_one_games(mode, range(60 if mode == "random" else 25)):
        s = V.from_game(g)
        while not g.deal_over:
            acting = g.to_act()
            assert s.to_act() == tuple(acting)
            seat = acting[rng.randrange(len(acting))]
            for t in acting:
                want = sorted(V.move_of(g.phase, a) for a in g.legal_actions(t))
                assert sorted(s.legal(t)) == want
            act = _play_policy(g, seat, rng, agents)
            move = V.move_of(g.phase, act)
            assert V.action_of(g.phase, move) == act or g.phase == "exchange"
            g.apply(seat, act)
            s.apply(seat, move)
            assert _round_fields(s) == _round_fields(V.from_game(g))
        assert s.changes == g.results[-1].changes
        rounds += 1
    assert rounds


def _two_v_one_positions(seeds=range(8)):
    """Every decision of a few rounds played by the normal AI (``(game, seat)``)."""
    agents = [agent_for("2v1", "normal")] * 3
    for seed in seeds:
        g = new_game("2v1", seed=seed)
        rng = ai_rng(seed, 0)
        while not g.deal_over:
            acting = g.to_act()
            for seat in acting:
                yield g, seat
            seat = acting[0]
            g.apply(seat, _play_policy(g, seat, rng, agents))


def test_two_v_one_samples_fit_what_the_seat_knows():
    checked = 0
    for g, seat in _two_v_one_positions():
        obs = g.observation(seat)
        sampler = V.Sampler(obs)
        for k in range(2):
            s = sampler.sample(random.Random(k))
            assert s.hands[seat] == V.mask_of(g.hands[seat])
            # every card once: hands, discards, table, out of play
            m = s.pile
            for i in range(3):
                assert not m & s.hands[i]
                m |= s.hands[i]
            for c in (*s.discards, s.up, s.down, *s.follows):
                if c >= 0:
                    assert not m >> c & 1
                    m |= 1 << c
            assert m == V.ALL
            for i in range(3):
                extra = 1 if i in sampler.taken_back and g.phase in ("follow", "discard") else 0
                assert bin(s.hands[i]).count("1") == len(g.hands[i]) + extra
                if i == seat:
                    continue
                # no other hand holds a card this seat knows is elsewhere: its own
                # cards, the face-up cards on the table, the duo cards already played
                known_out = V.mask_of(obs["hand"])
                for h in obs["history"]:
                    if h.get("kind") == "hand":
                        known_out |= V.mask_of(c for _, c in h["duo_cards"])
                for t in obs["table"]:
                    known_out |= V.mask_of(c for c in t["cards"] if c != "??")
                assert not s.hands[i] & known_out
            # the seats whose hidden choice was taken back are asked again; then this one
            while seat not in s.to_act():
                t = s.to_act()[0]
                assert t in sampler.taken_back
                s.apply(t, s.legal(t)[0])
            want = sorted(V.move_of(g.phase, a) for a in g.legal_actions(seat))
            assert sorted(s.legal(seat)) == want
            checked += 1
    assert checked > 200


def _swap_hidden_two_v_one(g, seat, rng):
    """A copy of ``g`` where two unseen cards held by the other seats (hands, face-down
    discards) change places: ``seat``'s observation stays the same."""
    h = load_game(json.loads(json.dumps(g.to_json())))
    hidden = h.hidden_from(seat)
    spots = []
    for i in range(3):
        if i == seat:
            continue
        for k, c in enumerate(h.hands[i]):
            if c in hidden:
                spots.append(("hand", i, k))
        c = h.duo_discards[i]
        if c is not None and c in hidden:
            spots.append(("discard", i, None))
    if len(spots) < 2:
        return None

    def get(spot):
        kind, i, k = spot
        return h.hands[i][k] if kind == "hand" else h.duo_discards[i]

    def put(spot, c):
        kind, i, k = spot
        if kind == "hand":
            h.hands[i][k] = c
        else:
            h.duo_discards[i] = c

    for _ in range(30):
        a, b = rng.sample(spots, 2)
        if a[1] == b[1]:
            continue
        ca, cb = get(a), get(b)
        put(a, cb)
        put(b, ca)
        if json.dumps(h.observation(seat), sort_keys=True) == json.dumps(
            g.observation(seat), sort_keys=True
        ):
            return h
        put(a, ca)
        put(b, cb)
    return None


def test_two_v_one_sampler_reads_only_the_observation():
    rng = random.Random(5)
    checked = 0
    for g, seat in _two_v_one_positions(seeds=range(4)):
        h = _swap_hidden_two_v_one(g, seat, rng)
        if h is None:
            continue
        assert h.hands != g.hands or h.duo_discards != g.duo_discards
        a = V.Sampler(g.observation(seat)).sample(random.Random(1))
        b = V.Sampler(h.observation(seat)).sample(random.Random(1))
        assert _round_fields(a) == _round_fields(b)
        checked += 1
    assert checked > 20


def test_two_v_one_log_names_every_hands_cards_for_the_sampler():
    g = new_game("2v1", seed=2)
    agents = [agent_for("2v1", "normal")] * 3
    rng = random.Random(1)
    while not g.deal_over:
        seat = g.to_act()[0]
        g.apply(seat, _play_policy(g, seat, rng, agents))
    hands = [h for h in g.history if h.get("kind") == "hand"]
    assert len(hands) == 5
    for h in hands:
        assert len(h["lone_cards"]) == 2 and len(h["duo_cards"]) == 2


def test_two_v_one_a_seat_remembers_only_its_own_pass():
    g = new_game("2v1", seed=5)
    g.set_deal(
        [
            ["4M", "5M", "5S", "6H", "4C", "5C"],
            ["1M", "1S", "2S", "3S", "6U", "4U"],
            ["2M", "2H", "3H", "3C", "1U", "RB"],
        ]
    )
    for _ in range(3):
        (seat,) = g.to_act()
        g.apply(seat, Action("bid", value=0))
    picks = {0: ("4M", "5M"), 1: ("1M", "1S"), 2: ("RB", "1U")}
    for seat, cards in picks.items():
        assert g.observation(seat)["passed"] == []
        g.apply(seat, Action("exchange", cards))
    for seat, cards in picks.items():
        assert sorted(g.observation(seat)["passed"]) == sorted(cards)
    # the sampler puts what a seat passed in its left neighbour's hand
    s = V.Sampler(g.observation(0)).sample(random.Random(3))
    assert s.hands[1] & V.mask_of(picks[0]) == V.mask_of(picks[0])
