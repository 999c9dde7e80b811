"""2v1's rules core (:mod:`twos_tui.engine.two_v_one.core`): the one implementation of
the rules, which the protocol game and the search both play. Checked on its own against
the frozen behaviour corpus (every position of the matches kept whole: who acts, the
legal moves, the state after each move) and against the rules' own examples
(docs/rules.md §5); and its sampler deals out only what a seat cannot see."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_frozen_corpus import corpus, rc

from twos_tui.ai import agent_for, ai_rng
from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action
from twos_tui.engine.two_v_one import core as C
from twos_tui.engine.two_v_one.core import ALL, mask_of, move_of
from twos_tui.engine.two_v_one.deck import pair_value
from twos_tui.engine.two_v_one.sampler import Sampler

LIAM, GARY, TRANG = 0, 1, 2


def m(*codes: str) -> int:
    return C.mask_of(codes)


def i(code: str) -> int:
    return C.INDEX[code]


def fields(s: C.RoundSim) -> dict[str, Any]:
    return {f: getattr(s, f) for f in C.RoundSim.__slots__}


# ----- the core against the frozen corpus ------------------------------------------------
def core_of(d: dict[str, Any]) -> C.RoundSim:
    """The core's round read from a recorded ``to_json()`` (independently of the codec)."""
    s = C.RoundSim()
    s.phase = d["phase"]
    s.hands = [m(*h) for h in d["hands"]]
    s.rainbow_passes = d["rainbow_passes"]
    s.bid_queue = list(d["bid_queue"])
    s.high_bid = d["high_bid"] or 0
    s.high_seat = -1 if d["high_seat"] is None else d["high_seat"]
    s.eligible = tuple(d["eligible"])
    s.pending = [m(*p) if p else 0 for p in d["pending"]]
    s.lone = -1 if d["lone"] is None else d["lone"]
    s.bid = d["bid"] or 0
    s.discards = [i(c) if c else -1 for c in d["duo_discards"]]
    s.hand_no = d["hand_no"]
    s.up = i(d["lead_up"]) if d["lead_up"] else -1
    s.down = i(d["lead_down"]) if d["lead_down"] else -1
    s.follows = [i(c) if c else -1 for c in d["follows"]]
    s.blind = d["blind"]
    s.keep_seat = -1 if d["keep_seat"] is None else d["keep_seat"]
    s.won = list(d["hands_won"])
    s.pile = m(*d["pile"])
    return s


def _whole_matches() -> list[dict[str, Any]]:
    return [e for e in corpus()["matches"] if e["variant"] == "2v1" and e["full"]]


def test_the_core_alone_replays_the_recorded_matches():
    """From each recorded deal, the core by itself asks the recorded seats, offers
    exactly the recorded legal moves, and reaches the recorded state after every move
    (the deal itself is the game's: the core is read from the record at each new deal)."""
    entries = _whole_matches()
    assert entries
    checked = 0
    for entry in entries:
        s = core_of(entry["positions"][0]["start"])
        for step in entry["positions"][1:]:
            action = step["action"]
            acting = s.to_act() if s.phase != C.OVER else ()
            assert list(acting) == step["to_act"]
            for seat in range(3):
                got = []
                if seat in acting:
                    got = [rc.canonical(C.action_of(s.phase, mv).to_json()) for mv in s.legal(seat)]
                assert sorted(got) == step["legal"][seat]
            if action == "end":
                break
            if action == "next_deal":
                s = core_of(step["json"])
                continue
            seat, a = action
            s.apply(seat, C.move_of(s.phase, Action.from_json(a)))
            want = fields(core_of(step["json"]))
            got_fields = fields(s)
            if s.phase == C.OVER:
                # the round's coins; the match (a play-off's bidders) is the game's
                assert step["result"]["changes"] == s.changes
                del want["eligible"], got_fields["eligible"]
            want["changes"] = got_fields["changes"]
            assert got_fields == want
            checked += 1
    assert checked > 150


def test_the_games_state_is_its_core():
    """What the protocol game asks, offers and holds is the core's, move for move (the
    translation of codes to moves and back loses nothing)."""
    for seed in range(12):
        g = new_game("2v1", seed=seed)
        rng = random.Random(seed)
        while not g.deal_over:
            acting = g.to_act()
            assert acting == g.core.to_act()
            for t in acting:
                legal = g.legal_actions(t)
                assert [C.move_of(g.phase, a) for a in legal] == g.core.legal(t)
                assert all(C.action_of(g.phase, C.move_of(g.phase, a)) == a for a in legal)
            seat = acting[rng.randrange(len(acting))]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
        assert g.core.changes == g.results[-1].changes
        # a saved game reads back into the same core
        assert fields(load_game(json.loads(json.dumps(g.to_json()))).core) == fields(g.core)


# ----- the rules' examples (docs/rules.md §5), on the core alone ----------------------------
@pytest.mark.parametrize(
    "a,b,value",
    [("4C", "5C", 9), ("4M", "4C", 8), ("6H", "1M", 6), ("5S", "RB", 10), ("RB", "5S", 10)],
)
def test_pair_values_table(a, b, value):
    assert C.PV[i(a)][i(b)] == value == pair_value(a, b)


def in_play(hands: list[list[str]], lone: int, bid: int, hand_no: int = 1) -> C.RoundSim:
    s = C.RoundSim()
    s.hands = [m(*h) for h in hands]
    used = 0
    for h in s.hands:
        used |= h
    s.pile = C.ALL & ~used
    s.lone, s.bid, s.high_bid, s.high_seat = lone, bid, bid, lone
    s.hand_no = hand_no - 1
    s.start_hand()
    return s


def test_worked_example_of_a_hand():
    # §5.6-§5.8: Liam leads 4 moons, hides 3 hearts; Gary (void) plays 6 horseshoes,
    # Trang must follow moons with 1 moon; 4 against 6, the duo win and Gary decides
    s = in_play(
        [["4M", "3H", "5M", "5S", "RB"], ["6U", "1U", "3S", "4C"], ["1M", "6H", "2H", "3C"]],
        LIAM,
        4,
        hand_no=2,
    )
    s.won = [1, 0]
    assert s.to_act() == (LIAM,) and i("RB") not in s.legal(LIAM)
    s.apply(LIAM, i("4M"))
    assert s.phase == C.HIDE and i("RB") in s.legal(LIAM)
    s.apply(LIAM, i("3H"))
    assert s.to_act() == (GARY,) and sorted(s.legal(GARY)) == sorted(
        i(c) for c in ("6U", "1U", "3S", "4C")
    )
    s.apply(GARY, i("6U"))
    assert s.to_act() == (TRANG,) and s.legal(TRANG) == [i("1M")]
    s.apply(TRANG, i("1M"))
    assert s.won == [1, 1] and s.phase == C.KEEP and s.to_act() == (GARY,)
    assert sorted(s.legal(GARY)) == sorted([i("4M"), i("3H")])
    s.apply(GARY, i("3H"))
    assert s.hands[LIAM] == m("5M", "5S", "RB", "3H") and s.pile >> i("4M") & 1
    assert s.phase == C.LEAD and s.hand_no == 3


def test_ties_go_to_the_lone_player_who_keeps_in_secret():
    s = in_play(
        [["6H", "1M", "5S", "5C", "2M"], ["6U", "1S", "3S", "4U"], ["3H", "1U", "2H", "4C"]],
        LIAM,
        3,
    )
    for seat, c in ((LIAM, "6H"), (LIAM, "1M"), (GARY, "6U"), (TRANG, "2H")):
        s.apply(seat, i(c))
    assert s.won == [1, 0] and s.phase == C.KEEP and s.to_act() == (LIAM,)


def test_follow_the_suit_even_holding_the_rainbow():
    s = in_play(
        [["4M", "5S", "5C", "6H", "1S"], ["1M", "RB", "3S", "4U"], ["2M", "2H", "3H", "1U"]],
        LIAM,
        3,
    )
    s.apply(LIAM, i("5S"))
    s.apply(LIAM, i("4M"))
    assert s.legal(GARY) == [i("3S")]  # stars held: no rainbow
    s.apply(GARY, i("3S"))
    assert sorted(s.legal(TRANG)) == sorted(i(c) for c in ("2M", "2H", "3H", "1U"))


def test_a_played_rainbow_is_spent_and_the_other_card_returns_at_once():
    s = in_play(
        [["RB", "4M", "5S", "5C", "6H"], ["1M", "6U", "3S", "4U"], ["2M", "2H", "3H", "1U"]],
        LIAM,
        3,
    )
    for seat, c in ((LIAM, "5S"), (LIAM, "RB"), (GARY, "3S"), (TRANG, "1U")):
        s.apply(seat, i(c))
    assert s.won == [1, 0]  # 5 stars doubled against 3
    assert s.phase == C.LEAD and s.hand_no == 2  # no choice to make
    assert s.hands[LIAM] == m("4M", "5C", "6H", "5S") and s.pile >> C.RB & 1


def test_a_blindfold_lead_asks_both_duo_members_at_once():
    s = in_play(
        [["2M", "4M", "5S", "5C", "6H"], ["1M", "6U", "3S", "4U"], ["5M", "2H", "3H", "1U"]],
        LIAM,
        3,
    )
    s.apply(LIAM, i("2M"))
    s.apply(LIAM, i("6H"))
    assert s.blind and s.to_act() == (GARY, TRANG)
    s.apply(TRANG, i("5M"))
    assert s.to_act() == (GARY,)


def test_the_fifth_hand_returns_nothing_and_an_exact_bid_pays_two_coins():
    s = in_play([["6H", "6U"], ["1M"], ["2M"]], LIAM, 3, hand_no=5)
    s.won = [2, 2]
    for seat, c in ((LIAM, "6H"), (LIAM, "6U"), (GARY, "1M"), (TRANG, "2M")):
        s.apply(seat, i(c))
    assert s.phase == C.OVER and s.to_act() == () and s.hands == [0, 0, 0]
    assert s.pile == C.ALL and s.changes == [2, 0, 0]
    missed = in_play([["6H", "6U"], ["1M"], ["2M"]], LIAM, 4, hand_no=5)
    missed.won = [2, 2]
    for seat, c in ((LIAM, "6H"), (LIAM, "6U"), (GARY, "1M"), (TRANG, "2M")):
        missed.apply(seat, i(c))
    assert missed.changes == [0, 1, 1]


def dealt(eligible: tuple[bool, ...] = (True, True, True)) -> C.RoundSim:
    s = C.RoundSim()
    s.hands = [
        m("4M", "5M", "5S", "6H", "4C", "5C"),
        m("1M", "1S", "2S", "3S", "6U", "4U"),
        m("2M", "2H", "3H", "3C", "1U", "RB"),
    ]
    s.eligible = eligible
    s.start_bidding()
    return s


def test_bidding_from_the_left_of_the_rainbow_4_overcalls_3_and_3_may_be_raised():
    s = dealt()
    assert s.holder() == TRANG and s.to_act() == (LIAM,) and s.legal(LIAM) == [0, 3, 4]
    s.apply(LIAM, 0)
    s.apply(GARY, 3)
    assert s.to_act() == (TRANG,) and s.legal(TRANG) == [0, 4]
    s.apply(TRANG, 0)
    assert s.to_act() == (LIAM,)  # passed before the 3, may still overcall
    s.apply(LIAM, 0)
    assert (s.phase, s.lone, s.bid) == (C.RAISE, GARY, 3) and s.legal(GARY) == [3, 4]
    s.apply(GARY, 4)
    assert s.bid == 4 and s.phase == C.DISCARD and s.to_act() == (TRANG, LIAM)


def test_nobody_bids_the_pairs_go_left_and_the_third_pass_forces_a_bid():
    s = dealt()
    for _ in range(3):
        for seat in s.bid_queue[:]:
            s.apply(seat, 0)
        assert s.phase == C.EXCHANGE and s.to_act() == (0, 1, 2)
        holder = s.holder()
        assert all(mv & C.RB_BIT for mv in s.legal(holder))
        assert len(s.legal((holder + 1) % 3)) == 15
        passed = [s.legal(seat)[0] for seat in range(3)]
        before = s.hands[:]
        for seat in range(3):
            s.apply(seat, passed[seat])
        for seat in range(3):
            assert (
                s.hands[(seat + 1) % 3]
                == before[(seat + 1) % 3] & ~passed[(seat + 1) % 3] | (passed[seat])
            )
    assert s.forced() and s.phase == C.BID
    last = s.bid_queue[-1]
    for seat in s.bid_queue[:-1]:
        s.apply(seat, 0)
    assert s.to_act() == (last,) and s.legal(last) == [3, 4] and not s.may_pass(last)


def test_in_a_play_off_only_the_tied_players_bid():
    s = dealt(eligible=(False, True, True))
    assert s.bid_queue == [GARY, TRANG]
    assert LIAM not in s.bid_queue


# ----- the sampler: what one seat may infer --------------------------------------------------
def _play_policy(g, seat, rng, agents):
    legal = g.legal_actions(seat)
    if agents is None:
        return legal[rng.randrange(len(legal))]
    return agents[seat].choose(g.observation(seat), legal, g.decision(seat), rng)


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
        sampler = Sampler(obs)
        for k in range(2):
            s = sampler.sample(random.Random(k))
            assert s.hands[seat] == mask_of(g.hands[seat])
            # every card once: hands, discards, table, out of play
            mask = s.pile
            for t in range(3):
                assert not mask & s.hands[t]
                mask |= s.hands[t]
            for c in (*s.discards, s.up, s.down, *s.follows):
                if c >= 0:
                    assert not mask >> c & 1
                    mask |= 1 << c
            assert mask == ALL
            for t in range(3):
                extra = 1 if t in sampler.taken_back and g.phase in ("follow", "discard") else 0
                assert bin(s.hands[t]).count("1") == len(g.hands[t]) + extra
                if t == seat:
                    continue
                # no other hand holds a card this seat knows is elsewhere: its own
                # cards, the face-up cards on the table, the duo cards already played
                known_out = mask_of(obs["hand"])
                for h in obs["history"]:
                    if h.get("kind") == "hand":
                        known_out |= mask_of(c for _, c in h["duo_cards"])
                for e in obs["table"]:
                    known_out |= mask_of(c for c in e["cards"] if c != "??")
                assert not s.hands[t] & known_out
            # the seats whose hidden choice was taken back are asked again; then this one
            while seat not in s.to_act():
                t = s.to_act()[0]
                assert t in sampler.taken_back
                s.apply(t, s.legal(t)[0])
            want = sorted(move_of(g.phase, a) for a in g.legal_actions(seat))
            assert sorted(s.legal(seat)) == want
            checked += 1
    assert checked > 200


def _swap_hidden_two_v_one(g, seat, rng):
    """A copy of ``g`` where two unseen cards held by the other seats (hands, face-down
    discards) change places: ``seat``'s observation stays the same (the swap is made in
    the saved game, which is then loaded)."""
    data = json.loads(json.dumps(g.to_json()))
    hidden = g.hidden_from(seat)
    spots = []
    for t in range(3):
        if t == seat:
            continue
        for k, c in enumerate(data["hands"][t]):
            if c in hidden:
                spots.append(("hands", t, k))
        c = data["duo_discards"][t]
        if c is not None and c in hidden:
            spots.append(("duo_discards", t, None))

    def get(spot):
        key, t, k = spot
        return data[key][t][k] if k is not None else data[key][t]

    def put(spot, c):
        key, t, k = spot
        if k is not None:
            data[key][t][k] = c
        else:
            data[key][t] = c

    if len(spots) < 2:
        return None
    want = json.dumps(g.observation(seat), sort_keys=True)
    for _ in range(30):
        a, b = rng.sample(spots, 2)
        if a[1] == b[1]:
            continue
        ca, cb = get(a), get(b)
        put(a, cb)
        put(b, ca)
        h = load_game(json.loads(json.dumps(data)))
        if json.dumps(h.observation(seat), sort_keys=True) == want:
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
        a = Sampler(g.observation(seat)).sample(random.Random(1))
        b = Sampler(h.observation(seat)).sample(random.Random(1))
        assert fields(a) == fields(b)
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
    s = Sampler(g.observation(0)).sample(random.Random(3))
    assert s.hands[1] & mask_of(picks[0]) == mask_of(picks[0])
