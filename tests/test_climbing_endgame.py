"""Exact endgames of the hard climbing search: the solver's values, the line it finds that
the rollouts miss, its node cap, and that it reads only the worlds the sampler dealt."""

from __future__ import annotations

import random

import pytest
from sim_helpers import rehide

from twos_tui.ai import agent_for, ai_rng
from twos_tui.ai import climbing_endgame as ce
from twos_tui.ai import climbing_search as cs
from twos_tui.ai.climbing_endgame import EXACT_CARDS, Endgame, endgame_for
from twos_tui.ai.climbing_rollout import policy, rollout
from twos_tui.ai.climbing_search import HardClimbingAgent, deal_value
from twos_tui.engine import new_game
from twos_tui.engine.climbing.core import SimState
from twos_tui.engine.climbing.rules import rules_for


def naive(s: SimState, values) -> tuple[float, ...]:
    """Plain max-n over every legal move, no memo, no cuts (the reference)."""
    if s.winner >= 0:
        return tuple(v(s.hands, s.winner) for v in values)
    best = None
    for m in s.legal():
        c = s.copy()
        c.play(m)
        vec = naive(c, values)
        if best is None or vec[s.cur] > best[s.cur]:
            best = vec
    assert best is not None
    return best


def naive_minimax(s: SimState, value, seat: int) -> float:
    if s.winner >= 0:
        return value(s.hands, s.winner)
    vals = []
    for m in s.legal():
        c = s.copy()
        c.play(m)
        vals.append(naive_minimax(c, value, seat))
    return max(vals) if s.cur == seat else min(vals)


def small_position(rules, sizes, rng, cur=0):
    cards = rng.sample(range(len(rules.codes)), sum(sizes))
    hands, at = [], 0
    for k in sizes:
        hands.append(sum(1 << c for c in cards[at : at + k]))
        at += k
    return SimState(rules, hands, cur, opening=False)


@pytest.mark.parametrize(
    ("variant", "sizes"),
    [("twos", (3, 3, 3)), ("big-two", (3, 2, 3, 2)), ("chinese-poker", (3, 3, 2, 2))],
)
def test_max_n_with_memo_matches_plain_max_n(variant, sizes):
    """Three or four players: the memo and the go-out cut change no value."""
    rules = rules_for(variant, len(sizes), {})
    values = [deal_value(rules, s) for s in range(len(sizes))]
    rng = random.Random(11)
    for _ in range(12):
        s = small_position(rules, sizes, rng, cur=rng.randrange(len(sizes)))
        moves = list(s.legal())
        got = Endgame(rules, s.cur, values, node_cap=10**6).solve(s, moves, range(len(moves)))
        assert got is not None
        for i, m in enumerate(moves):
            c = s.copy()
            c.play(m)
            assert got[i] == pytest.approx(naive(c, values)[s.cur])


@pytest.mark.parametrize(("variant", "sizes"), [("twos", (4, 4)), ("big-two", (4, 3))])
def test_alpha_beta_with_memo_matches_plain_minimax(variant, sizes):
    """Two players: alpha-beta with its bounded memo gives the minimax values."""
    rules = rules_for(variant, 2, {})
    values = [deal_value(rules, s) for s in range(2)]
    rng = random.Random(12)
    for _ in range(12):
        s = small_position(rules, sizes, rng)
        moves = list(s.legal())
        got = Endgame(rules, 0, values, node_cap=10**6).solve(s, moves, range(len(moves)))
        assert got is not None
        for i, m in enumerate(moves):
            c = s.copy()
            c.play(m)
            assert got[i] == pytest.approx(naive_minimax(c, values[0], 0))


class OneWorld:
    """A sampler that always deals the same world (everything known)."""

    def __init__(self, state: SimState) -> None:
        self.rules = state.rules
        self.state = state

    def sample(self, rng: random.Random) -> SimState:
        return self.state.copy()


def test_the_solver_finds_the_winning_line_the_rollouts_miss(monkeypatch):
    """Twos for two, on lead with 3C 9H 10C QD 2C against 7C 8H KH 2S. Leading the low
    3C (the rollout policy's move) loses: the opponent wins every line after it. 9H
    wins: whatever the opponent does, the seat gets the lead back in time (solved, and
    checked by plain minimax). With rollouts only the search keeps the policy's 3C (no
    rollout after 9H does better); with the exact endgame it plays 9H."""
    rules = rules_for("twos", 2, {})
    hands = [
        rules.mask_of(["3C", "9H", "10C", "QD", "2C"]),
        rules.mask_of(["7C", "8H", "KH", "2S"]),
    ]
    world = SimState(rules, hands, 0, opening=False)
    legal = list(world.legal())
    pick = policy(world.copy(), legal)
    assert pick is not None and rules.codes_of(pick[0]) == ("3C",)
    moves = [pick] + [m for m in legal if m is not pick]
    nine = next(i for i, m in enumerate(moves) if m and rules.codes_of(m[0]) == ("9H",))
    value = deal_value(rules, 0)
    for i, m in enumerate(moves):  # the rollouts do not show 9H's win
        s = world.copy()
        s.play(m)
        if i == nine:
            assert value(s.hands, rollout(s)) <= 0.1
    for i, want in ((0, False), (nine, True)):
        s = world.copy()
        s.play(moves[i])
        assert (naive_minimax(s, value, 0) > 1.0) is want

    def search(exact: bool) -> int:
        monkeypatch.setattr(cs, "EXACT", exact)
        agent = HardClimbingAgent(iterations=200)
        index = list(range(len(moves)))
        got = agent._search(OneWorld(world), 0, moves, index, random.Random(3), cs.clock())  # type: ignore[arg-type]
        assert agent.last.get("exact", 0) == (agent.last["worlds"] if exact else 0)
        return got

    assert search(False) == 0  # 3C: the deal is lost
    assert search(True) == nine  # 9H: the deal is won


def test_the_node_cap_gives_up_and_the_search_rolls_out(monkeypatch):
    """A solve that would expand more positions than the cap returns None, and the
    search then rolls that world (and the rest) out: every world is still counted."""
    rules = rules_for("twos", 3, {})
    world = small_position(rules, (4, 4, 3), random.Random(2))
    values = [deal_value(rules, s) for s in range(3)]
    moves = list(world.legal())
    tiny = Endgame(rules, 0, values, node_cap=3)
    assert tiny.solve(world, moves, range(len(moves))) is None and tiny.gave_up == 1
    assert Endgame(rules, 0, values, node_cap=10**6).solve(world, moves, range(len(moves)))
    monkeypatch.setattr(ce, "NODE_CAP", 3)
    agent = HardClimbingAgent(iterations=60)
    agent._search(OneWorld(world), 0, moves, list(range(len(moves))), random.Random(1), 0.0)  # type: ignore[arg-type]
    assert agent.last["exact"] == 0 and agent.last["rollouts"] >= 60


def test_a_solve_past_the_search_deadline_gives_up():
    """With a deadline already passed, a solve gives up at its first look at the clock
    (the search then rolls out); without one it runs to the end."""
    rules = rules_for("twos", 3, {})
    world = small_position(rules, (4, 4, 3), random.Random(3))
    moves = list(world.legal())
    late = endgame_for(world, 0, deal_value, deadline=0.0)
    assert late is not None
    assert late.solve(world, moves, range(len(moves))) is None
    assert late.nodes == ce.CLOCK_EVERY
    free = endgame_for(world, 0, deal_value)
    assert free is not None and free.deadline == float("inf")
    assert free.solve(world, moves, range(len(moves))) is not None
    assert free.expanded > ce.CLOCK_EVERY


def test_exact_play_starts_at_the_measured_card_count():
    rules = rules_for("big-two", 4, {})
    limit = EXACT_CARDS[("big-two", 4)]
    rng = random.Random(4)
    small = small_position(rules, (3, 3, 3, limit - 9), rng)
    big = small_position(rules, (3, 3, 3, limit - 8), rng)
    assert endgame_for(small, 0, deal_value) is not None
    assert endgame_for(big, 0, deal_value) is None
    twos = small_position(rules_for("twos", 3, {}), (4, 4, 3), rng)
    assert endgame_for(twos, 0, deal_value) is not None  # the Twos rules have no id set


def endgame_game(seed: int):
    """A Twos game for two played by normal until few cards are left, hard's seat to
    act with a choice."""
    g = new_game("twos", 2, {"hand_size": 7}, seed=seed)
    normal = agent_for("twos", "normal")
    rngs = [ai_rng(seed, s) for s in range(2)]
    while not g.deal_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if sum(len(h) for h in g.hands) <= 10 and len(legal) > 2:
            return g, seat
        g.apply(seat, normal.choose(g.observation(seat), legal, g.decision(seat), rngs[seat]))
    return None, -1


def test_solving_reads_only_the_worlds_the_sampler_dealt(monkeypatch):
    """Every world the solver is given is one the Sampler dealt from the seat's
    observation: the same for two games that differ only in the hidden cards, and so
    the same decision."""
    dealt: list[SimState] = []
    solved: list[SimState] = []
    sample = cs.Sampler.sample
    solve = Endgame.solve

    def spy_sample(self, rng):
        s = sample(self, rng)
        dealt.append(s)
        return s

    def spy_solve(self, world, moves, active):
        solved.append(world)
        return solve(self, world, moves, active)

    monkeypatch.setattr(cs.Sampler, "sample", spy_sample)
    monkeypatch.setattr(Endgame, "solve", spy_solve)
    checked = 0
    for seed in range(30):
        g, seat = endgame_game(seed)
        if g is None:
            continue
        h = rehide(g, seat, random.Random(seed))
        assert h.observation(seat) == g.observation(seat)
        if h.hands == g.hands:
            continue
        seen = []
        picks = []
        for game in (g, h):
            dealt.clear()
            solved.clear()
            agent = HardClimbingAgent(iterations=80)
            legal = game.legal_actions(seat)
            picks.append(
                agent.choose(game.observation(seat), legal, game.decision(seat), random.Random(5))
            )
            assert solved and all(any(w is d for d in dealt) for w in solved)
            seen.append([w.hands for w in solved])
        assert picks[0] == picks[1] and seen[0] == seen[1]
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3
