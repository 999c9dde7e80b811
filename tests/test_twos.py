"""Twos (climbing), docs/rules.md §1: combinations, the worked examples of the rule text,
bomb order, house options, the two-player form, refusals, canonical legal actions
against a brute-force enumeration, full matches and JSON."""

from __future__ import annotations

import json
import random

import pytest

from twos_tui.engine import IllegalAction, classify, load_game, new_game
from twos_tui.engine.cards import full_deck
from twos_tui.engine.climbing.game_twos import TwosGame, _classify_mask, _opt_key
from twos_tui.engine.climbing.rules_twos import CODES, TEXT_BOMB_LIST, bomb_order, rarity_order
from twos_tui.engine.protocol import PASS, Action


def C(*cards, **opts):
    combo = classify("twos", list(cards), **opts)
    assert combo is not None, cards
    return combo


def state(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def position(hands, current=0, top=None, top_seat=None, **options) -> TwosGame:
    """A game with chosen hands; every other card is out of play."""
    g = TwosGame(len(hands), options, seed=0)
    g.hands = [sorted(h, key=g.card_sort_key) for h in hands]
    used = {c for h in hands for c in h}
    g.out_of_play = [c for c in full_deck() if c not in used]
    g.discards = []
    g.current = current
    g.required_card = None
    g.passed = [False] * g.players
    g.trick = []
    if top is not None:
        g.top = g.classify(tuple(top))
        g.top_seat = top_seat
    return g


def outcome(combo):
    return (combo.kind, combo.slot, combo.key, combo.strict, combo.power)


# ----- public API and kinds -----------------------------------------------------------


def test_public_classify_examples():
    bomb = classify("twos", ["3S", "3H", "4S", "4H", "5S", "5H"])
    assert bomb.kind == "bomb-2x3" and bomb.is_bomb
    run = classify("twos", ["3S", "4S", "5S"])
    assert run.kind == "run" and not run.is_bomb
    assert bomb.beats(run) and not run.beats(bomb)


@pytest.mark.parametrize(
    "cards,kind",
    [
        (["7D"], "single"),
        (["7D", "7S"], "pair"),
        (["7D", "7S", "7H"], "triple"),
        (["7D", "7S", "7H", "7C"], "bomb-4x1"),
        (["JS", "QD", "KH", "AC", "2S"], "run"),
        (["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"], "run"),
        (["8S", "8H", "8D", "9S", "9H", "9D", "10S", "10H", "10D"], "bomb-3x3"),
        (["4S", "4H", "5S", "5H", "6S", "6H", "7S", "7H"], "bomb-2x4"),
        (["QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC", "AS", "AH", "AD", "AC"], "bomb-4x3"),
        (["TH", "jh", "Q♥"], "run"),
    ],
)
def test_kinds(cards, kind):
    assert C(*cards).kind == kind


@pytest.mark.parametrize(
    "cards",
    [
        ["3S", "4S"],  # two ranks is not a run
        ["AS", "2S", "3S"],  # no wrap
        ["2S", "3S", "4S"],
        ["3S", "4S", "6S"],  # gap
        ["3S", "3H", "4S", "5S"],  # mixed widths
        ["3S", "3H", "4S", "4H"],  # 2x2 is not a bomb
        ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C"],  # 4x2 is not a bomb
    ],
)
def test_not_combinations(cards):
    assert classify("twos", cards) is None


def test_unknown_card_raises_in_classify():
    with pytest.raises(ValueError):
        classify("twos", ["3S", "ZZ"])


# ----- the worked examples of the text -------------------------------------------------


def test_pair_of_threes_beaten_by_any_other_pair():
    low = C("3S", "3D")
    assert C("3H", "3C").beats(low)  # the remaining three of hearts outvalues 3D
    assert C("3H", "3S").beats(C("3D", "3C"))
    assert C("4S", "4C").beats(low)
    assert C("2S", "2C").beats(low)
    assert not C("3C", "3S").beats(low)  # top 3C is below 3D
    assert not C("4S").beats(low) and not C("4S", "4C", "4D").beats(low)


def test_run_ending_in_six_of_diamonds():
    top = C("4S", "5C", "6D")
    assert C("4C", "5S", "6H").beats(top)  # same length, higher top suit
    assert C("5S", "6S", "7S").beats(top)  # a 7 or higher
    assert C("QS", "KS", "AS").beats(top)
    assert not C("4H", "5H", "6C").beats(top)  # 6C is below 6D
    assert not C("5S", "6S", "7S", "8S").beats(top)  # a run of four is another pattern


def test_single_then_two_of_hearts_then_only_a_bomb():
    g = position(
        [
            ["3S", "9S"],
            ["2H", "10S"],
            ["2D", "AS", "AH", "5S", "5H", "6S", "6H", "7S", "7H", "KS", "KH", "KD", "KC"],
        ]
    )
    g.apply(0, Action("play", ("3S",)))
    g.apply(1, Action("play", ("2H",)))
    legal = g.legal_actions(2)
    plays = [a for a in legal if a.kind == "play"]
    assert PASS in legal
    assert plays and all(g.classify(a.cards).is_bomb for a in plays)
    kinds = {g.classify(a.cards).kind for a in plays}
    assert kinds == {"bomb-2x3", "bomb-4x1"}
    reason = g.check(2, Action("play", ("2D",)))
    assert reason and "only a bomb" in reason
    g.apply(2, Action("play", ("5S", "5H", "6S", "6H", "7S", "7H")))
    assert g.top.kind == "bomb-2x3"


def test_double_run_of_three_beaten_by_higher_or_four_of_a_kind():
    low = C("3S", "3H", "4S", "4H", "5S", "5D")
    assert C("3D", "3C", "4D", "4C", "5H", "5C").beats(low)  # top 5H over 5D
    assert C("4S", "4H", "5S", "5H", "6S", "6D").beats(low)
    high = C("QS", "QH", "KS", "KH", "AS", "AH")
    assert C("3S", "3H", "3D", "3C").beats(high)  # 4x1 is the stronger shape
    assert not high.beats(C("3S", "3H", "3D", "3C"))
    assert not C("3D", "3C", "4D", "4C", "5C", "5S").beats(low)  # 5C is below 5D
    assert C("KS", "KH", "KD", "KC").beats(C("3S", "3H", "3D", "3C"))


def test_thirteen_card_runs_two_players():
    spades = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"]
    clubs_top = ["3H", "4H", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD", "2C"]
    a, b = C(*spades, players=2), C(*clubs_top, players=2)
    assert a.kind == b.kind == "run" and len(a.cards) == 13
    assert b.beats(a) and not a.beats(b)
    # and in play: the first leads the full run, the second answers with the 2C run
    g = position([spades + ["9H"], clubs_top + ["9C"]])
    g.apply(0, Action("play", tuple(spades)))
    assert g.check(1, Action("play", tuple(clubs_top))) is None
    plays = [a for a in g.legal_actions(1) if a.kind == "play"]
    # one canonical action for that outcome (lowest suits below the 2C: 9C, not 9D)
    assert len(plays) == 1 and plays[0].cards[-1] == "2C" and len(plays[0].cards) == 13
    assert outcome(g.classify(plays[0].cards)) == outcome(g.classify(tuple(clubs_top)))


# ----- bomb order --------------------------------------------------------------------------


def test_bomb_order_thirteen_is_the_text_list():
    assert bomb_order(13)[:12] == TEXT_BOMB_LIST
    # exact rarity reproduces the list for the shapes a 13-card hand can hold
    fits = [s for s in TEXT_BOMB_LIST if s[0] * s[1] <= 13]
    assert [s for s in rarity_order(13) if s in fits] == fits


def test_bomb_order_twenty_from_rarity_matches_the_texts_simulation():
    text = [
        (2, 3),
        (2, 4),
        (4, 1),
        (2, 5),
        (2, 6),
        (3, 3),
        (2, 7),
        (2, 8),
        (3, 4),
        (2, 9),
        (3, 5),
        (4, 3),
        (2, 10),
    ]
    order = bomb_order(20)
    assert [s for s in order if s in text] == text
    # the 2-player default classifies with this order: 4x1 beats 2x4 at 20 cards
    quad = C("3S", "3H", "3D", "3C", players=2)
    double4 = C("KS", "KH", "AS", "AH", "2S", "2H", "QS", "QH", players=2)
    assert quad.beats(double4) and not double4.beats(quad)
    # ... but not at 13 cards, where 2x4 is the rarer shape
    assert C("KS", "KH", "AS", "AH", "2S", "2H", "QS", "QH").beats(C("3S", "3H", "3D", "3C"))


def test_fixed_bomb_order_option():
    opts = dict(players=2, bomb_order="fixed")
    quad = C("3S", "3H", "3D", "3C", **opts)
    double4 = C("4S", "4H", "5S", "5H", "6S", "6H", "7S", "7H", **opts)
    assert double4.beats(quad)
    assert bomb_order(20, "fixed")[:12] == TEXT_BOMB_LIST
    # shapes off the list come after it
    assert bomb_order(20, "fixed").index((2, 8)) > bomb_order(20, "fixed").index((4, 4))


def test_every_shape_has_a_distinct_power():
    for hs in (5, 13, 17, 20, 26):
        for mode in ("rarity", "fixed"):
            order = bomb_order(hs, mode)
            assert len(order) == len(set(order)) == 34


# ----- options -----------------------------------------------------------------------------


def test_same_suit_run_option():
    suited = C("5H", "6H", "7H", run_suits="same-suit")
    mixed_high = C("8S", "9D", "10C", run_suits="same-suit")
    assert suited.strict == "same-suit"
    assert not mixed_high.beats(suited)
    assert C("6S", "7S", "8S", run_suits="same-suit").beats(suited)
    assert suited.beats(C("4S", "5D", "6C", run_suits="same-suit"))
    # default: suits do not matter
    assert C("8S", "9D", "10C").beats(C("5H", "6H", "7H"))
    g = position(
        [["5H", "6H", "7H", "2S"], ["8S", "9D", "10C", "JS", "QS", "KS"]], run_suits="same-suit"
    )
    g.apply(0, Action("play", ("5H", "6H", "7H")))
    assert (
        g.check(1, Action("play", ("8S", "9D", "10C")))
        == "Only a same-suit run beats a same-suit run (house rule)."
    )
    legal = g.legal_actions(1)
    assert Action("play", ("JS", "QS", "KS")) in legal
    assert all(g.classify(a.cards).strict == "same-suit" for a in legal if a.kind == "play")


def test_first_play_must_include_lowest_option():
    for seed in range(30):
        g = new_game("twos", seed=seed, options={"opening": "lowest"})
        seat = g.current
        low = g.hands[seat][0]
        assert low == min((h[0] for h in g.hands), key=g.card_sort_key)
        legal = g.legal_actions(seat)
        assert legal and all(low in a.cards for a in legal)
        other = next(c for c in g.hands[seat] if c != low)
        assert "must include" in g.check(seat, Action("play", (other,)))
        # the card that must open is announced to everyone (climbing base convention)
        for s in range(3):
            assert g.observation(s)["required_card"] == low
        assert "must include" in g.decision(seat).prompt
        g.apply(seat, legal[0])
        assert g.required_card is None


def test_default_first_play_is_free_and_starter_holds_lowest():
    for seed in range(30):
        g = new_game("twos", seed=seed)
        dealt = [c for h in g.hands for c in h]
        lowest = min(dealt, key=g.card_sort_key)
        assert lowest in g.hands[g.current]
        assert g.required_card is None
        assert any(lowest not in a.cards for a in g.legal_actions(g.current))


def test_passing_reentry_and_locked():
    hands = [["3S", "9S", "2S"], ["4S", "10S", "2C"], ["5S", "JS", "2D"]]
    g = position(hands)
    g.apply(0, Action("play", ("3S",)))
    g.apply(1, PASS)
    g.apply(2, Action("play", ("5S",)))
    assert g.current == 0
    g.apply(0, Action("play", ("9S",)))
    assert g.current == 1 and g.legal_actions(1)  # re-entry: seat 1 may play again
    g.apply(1, Action("play", ("10S",)))

    g = position(hands, passing="locked")
    g.apply(0, Action("play", ("3S",)))
    g.apply(1, PASS)
    g.apply(2, Action("play", ("5S",)))
    g.apply(0, Action("play", ("9S",)))
    assert g.current == 2  # seat 1 is locked out
    g.apply(2, PASS)
    assert g.current == 0 and g.top is None  # seat 0 leads a new trick


def test_trick_ends_when_everyone_else_passes():
    g = position([["3S", "9S"], ["4S", "10S"], ["5S", "JS"]])
    g.apply(0, Action("play", ("9S",)))
    g.apply(1, PASS)
    g.apply(2, PASS)
    assert g.top is None and g.current == 0
    assert PASS not in g.legal_actions(0)
    assert g.check(0, PASS) is not None


def test_option_specs_depend_on_players():
    s3 = {s.id: s for s in TwosGame.option_specs(3)}
    s2 = {s.id: s for s in TwosGame.option_specs(2)}
    assert s3["hand_size"].default == 13 and s2["hand_size"].default == 20
    assert max(v for v, _ in s3["hand_size"].choices) == 17
    assert max(v for v, _ in s2["hand_size"].choices) == 26
    assert s3["passing"].default == "reentry"
    assert {v for v, _ in s3["passing"].choices} == {"reentry", "locked"}
    with pytest.raises(ValueError):
        new_game("twos", 3, options={"hand_size": 18})


def test_two_player_form_and_hand_size_option():
    g = new_game("twos", 2, seed=4)
    assert [len(h) for h in g.hands] == [20, 20] and len(g.out_of_play) == 12
    g = new_game("twos", 3, seed=4, options={"hand_size": 17})
    assert [len(h) for h in g.hands] == [17, 17, 17] and len(g.out_of_play) == 1
    g = new_game("twos", 2, seed=4, options={"hand_size": 26})
    assert len(g.out_of_play) == 0
    with pytest.raises(ValueError):
        new_game("twos", 4)


# ----- refusals ------------------------------------------------------------------------------


def test_bad_input_is_refused_with_a_reason_and_no_change():
    g = position([["3S", "3H", "4S", "5D", "9S"], ["6S", "7S"], ["8S", "8H"]])
    before = state(g)
    cases = {
        Action("play", ("ZZ",)): "not a card",
        Action("play", ("3S", "3S")): "chosen twice",
        Action("play", ("6S",)): "not in your hand",
        Action("play", ()): "Select at least one card",
        Action("play", ("3S", "4S")): "A run needs at least three consecutive ranks",
        Action("play", ("3S", "4S", "9S")): "consecutive",
        Action("bid", ("3S",)): "not a move",
        PASS: "nothing to pass on",
    }
    for action, words in cases.items():
        reason = g.check(0, action)
        assert reason is not None and words in reason, (action, reason)
        with pytest.raises(IllegalAction):
            g.apply(0, action)
        assert state(g) == before
    reason = g.check(1, Action("play", ("6S",)))
    assert "turn" in reason
    with pytest.raises(IllegalAction):
        g.apply(1, Action("play", ("6S",)))
    assert state(g) == before


def test_wrap_and_bomb_reasons():
    g = position(
        [
            ["AS", "2S", "3S", "4S", "QS", "QH", "KS", "KH", "AH", "AD"],
            ["3D", "3H", "4D", "4H", "5D", "5H", "9D"],
            ["10S"],
        ]
    )
    assert "do not wrap past the 2" in g.check(0, Action("play", ("AS", "2S", "3S")))
    assert "do not wrap past the 2" in g.check(0, Action("play", ("2S", "3S", "4S")))
    g.apply(0, Action("play", ("QS", "QH", "KS", "KH", "AH", "AD")))
    g.current = 1
    reason = g.check(1, Action("play", ("3D", "3H", "4D", "4H", "5D", "5H")))
    assert reason.startswith("A bomb 2×3 is beaten only by a higher 2×3 or a stronger bomb shape")
    assert "Only a bomb" in g.check(1, Action("play", ("9D",)))


def test_any_concrete_selection_is_accepted():
    g = position([["4S", "4H", "5S", "5C", "5H", "6D", "6H", "9S"], ["2S"], ["2C"]])
    # non-canonical suits, shuffled order
    for sel in [("6H", "4H", "5C"), ("4H", "5H", "6D"), ("5S", "4S", "6H")]:
        assert g.check(0, Action("play", sel)) is None, sel
    # the protocol speaks canonical codes: other spellings get a reason naming the code
    assert "write 4H" in g.check(0, Action("play", ("4h", "5H", "6D")))
    assert "not a card" in g.check(0, Action("play", ("4H", "5♥", "6D")))
    g.apply(0, Action("play", ("6H", "4H", "5C")))
    assert g.hands[0] == ["4S", "5S", "5H", "6D", "9S"]
    assert g.top.cards == ("4H", "5C", "6H")


# ----- canonical legal actions against brute force ---------------------------------------


def _brute(hand_ints, opt, top=None):
    """Every distinct outcome of every subset of the hand (beating ``top``)."""
    n = len(hand_ints)
    outs = set()
    for bits in range(1, 1 << n):
        mask = 0
        for k in range(n):
            if bits >> k & 1:
                mask |= 1 << hand_ints[k]
        combo = _classify_mask(mask, opt)
        if combo is not None and (top is None or combo.beats(top)):
            outs.add(outcome(combo))
    return outs


def _random_hand(rng):
    style = rng.randrange(4)
    if style == 0:  # uniform
        pool = list(range(52))
    elif style == 1:  # two suits: long runs
        suits = rng.sample(range(4), 2)
        pool = [i for i in range(52) if i % 4 in suits]
    elif style == 2:  # a window of ranks: multi-runs and quads
        lo = rng.randrange(0, 9)
        pool = [i for i in range(52) if lo <= i // 4 < lo + 5]
    else:  # one suit plus some
        s = rng.randrange(4)
        pool = [i for i in range(52) if i % 4 == s] + rng.sample(range(52), 8)
        pool = sorted(set(pool))
    size = min(len(pool), rng.randint(6, 13))
    return sorted(rng.sample(pool, size))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"run_suits": "same-suit"},
        {"bomb_order": "fixed", "hand_size": 16},
    ],
)
def test_legal_actions_cover_every_outcome(options):
    rng = random.Random(hash(tuple(sorted(options.items()))) & 0xFFFF)
    checked = 0
    for _ in range(30):
        hand_ints = _random_hand(rng)
        hand = [CODES[i] for i in hand_ints]
        g = position([hand, [], []], **options)
        opt = _opt_key(g.options)
        others = [i for i in range(52) if i not in hand_ints]
        tops = [None]
        for _ in range(6):  # random plays to beat, made of cards the seat does not hold
            sub = _random_hand(rng)
            sub = [i for i in sub if i in others]
            m = 0
            for i in sub[: rng.randint(1, 8)]:
                m |= 1 << i
            combo = _classify_mask(m, opt) if m else None
            if combo is not None:
                tops.append(combo)
        for top in tops:
            g.top, g.top_seat = top, (None if top is None else 1)
            legal = [a for a in g.legal_actions(0) if a.kind == "play"]
            listed = []
            for a in legal:
                assert g.check(0, a) is None, a
                listed.append(outcome(g.classify(a.cards)))
            assert len(listed) == len(set(listed)), "two actions with the same outcome"
            assert set(listed) == _brute(hand_ints, opt, top)
            checked += 1
    assert checked >= 30


def test_legal_actions_listing_is_small_for_long_runs():
    # two suits at each of 10 ranks: 1,024 card sets per 10-rank run, but one action each
    hand = [CODES[4 * r + s] for r in range(10) for s in (0, 3)]
    g = position([hand, [], []])
    runs10 = [
        a
        for a in g.legal_actions(0)
        if a.kind == "play" and len(a.cards) == 10 and g.classify(a.cards).kind == "run"
    ]
    assert len(runs10) == 2  # top 2 of rank Q: spade or heart
    assert g.check(0, Action("play", tuple(CODES[4 * r + (r % 2) * 3] for r in range(10)))) is None


# ----- matches, scores, JSON ------------------------------------------------------------


def play_out(g, rng, check_json_at=-1):
    n = 0
    while not g.deal_over:
        seat = g.to_act()[0]
        if n == check_json_at:
            g2 = load_game(json.loads(json.dumps(g.to_json())))
            assert state(g2) == state(g)
            for s in range(g.players):
                assert g2.legal_actions(s) == g.legal_actions(s)
                assert g2.observation(s) == g.observation(s)
        if n % 7 == 0:
            assert_no_leak(g)
        acts = g.legal_actions(seat)
        g.apply(seat, acts[rng.randrange(len(acts))])
        n += 1
        assert n < 5000
    return n


def assert_no_leak(g):
    """No hidden card in any observation; history of earlier deals is public record
    (those cards were dealt again since), so only this deal's entries are checked."""
    for s in range(g.players):
        obs = dict(g.observation(s))
        obs["history"] = [h for h in obs["history"] if h["deal"] == g.deal_number]
        text = json.dumps(obs, ensure_ascii=False)
        for c in g.hidden_from(s):
            assert f'"{c}"' not in text and g.card_face(c).label not in text, (s, c)


@pytest.mark.parametrize("players", [2, 3])
def test_full_match_first_to_five_deals(players):
    g = new_game("twos", players, seed=11)
    rng = random.Random(5)
    wins = [0] * players
    assert g.target_text() == "First to win 5 deals"
    assert g.score_label == "Deals won" and not g.low_score_wins
    while True:
        play_out(g, rng, check_json_at=3)
        winner = g.last_result.winners[0]
        assert g.hands[winner] == []
        assert all(g.hands[s] for s in range(players) if s != winner)
        wins[winner] += 1
        assert g.totals == wins
        if g.match_over:
            break
        assert max(wins) < 5
        g.next_deal()
    assert max(wins) == 5 and g.match_winners() == [wins.index(5)]
    assert state(g.replay()) == state(g)
    with pytest.raises(ValueError):
        g.next_deal()


def test_full_match_penalty_scoring():
    g = new_game("twos", 3, seed=3, options={"scoring": "penalty", "penalty_deals": 3})
    assert g.low_score_wins and g.score_label == "Penalty points"
    assert "3 deals" in g.target_text()
    rng = random.Random(9)
    totals = [0, 0, 0]
    for deal in range(1, 4):
        play_out(g, rng)
        left = [len(h) for h in g.hands]
        assert g.last_result.changes == left
        totals = [t + c for t, c in zip(totals, left, strict=False)]
        assert g.totals == totals
        assert g.match_over == (deal == 3)
        if not g.match_over:
            g.next_deal()
    best = min(totals)
    assert g.match_winners() == [i for i, t in enumerate(totals) if t == best]
    g2 = load_game(json.loads(json.dumps(g.to_json())))
    assert g2.low_score_wins and g2.match_winners() == g.match_winners()


def test_json_round_trip_mid_deal_every_step():
    g = new_game("twos", 3, seed=21, options={"passing": "locked", "run_suits": "same-suit"})
    rng = random.Random(2)
    while not g.deal_over:
        data = json.loads(json.dumps(g.to_json()))
        g2 = load_game(data)
        assert state(g2) == state(g)
        seat = g.to_act()[0]
        assert g2.legal_actions(seat) == g.legal_actions(seat)
        acts = g.legal_actions(seat)
        g.apply(seat, acts[rng.randrange(len(acts))])


def test_observation_hides_other_hands_and_out_of_play():
    g = new_game("twos", 3, seed=8)
    for seat in range(3):
        text = json.dumps(g.observation(seat))
        for c in g.hidden_from(seat):
            assert f'"{c}"' not in text
    assert g.observation(0)["bomb_order"][:2] == ["2×3", "4×1"]


def test_card_sort_keys():
    g = new_game("twos", seed=0)
    assert g.sort_cards(["2S", "3H", "AC", "3S", "10D"]) == ["3S", "3H", "10D", "AC", "2S"]
    assert g.sort_cards(["3H", "2S", "3S", "4D"], by="suit") == ["3S", "2S", "4D", "3H"]


def test_rules_summary_describes_the_chosen_rules():
    lines = new_game("twos", 2, seed=0).rules_summary()
    text = "\n".join(lines)
    assert "Hand size: 20 cards (12 out of play)" in text
    assert "Deals to win: 5" in text and "Deals played" not in text
    assert lines[-1].startswith("Bombs, weakest to strongest: 2×3, 2×4, 4×1, 2×5")
    pen = new_game("twos", 3, seed=0, options={"scoring": "penalty"}).rules_summary()
    assert any(line.startswith("Deals played: 5") for line in pen)
    assert not any(line.startswith("Deals to win") for line in pen)


OPTION_MIXES = [
    (3, {"passing": "locked", "run_suits": "same-suit", "opening": "lowest"}),
    (3, {"hand_size": 17, "bomb_order": "fixed"}),
    (3, {"hand_size": 5, "scoring": "penalty"}),
    (2, {"hand_size": 26, "passing": "locked"}),
    (2, {"run_suits": "same-suit", "opening": "lowest", "bomb_order": "fixed"}),
]


@pytest.mark.parametrize("players,options", OPTION_MIXES)
def test_random_deals_under_house_rules(players, options):
    from collections import Counter

    for seed in range(20):
        g = new_game("twos", players, options=options, seed=seed)
        rng = random.Random(seed)
        deep = rng.randrange(30)
        n = 0
        while not g.deal_over:
            assert Counter(g.card_census()) == Counter(g.deck_cards())
            seat = g.to_act()[0]
            for s in range(players):
                hidden = g.hidden_from(s)
                obs = dict(g.observation(s))
                obs["history"] = [h for h in obs["history"] if h["deal"] == g.deal_number]
                text = json.dumps(obs, ensure_ascii=False)
                for c in hidden:
                    assert f'"{c}"' not in text and g.card_face(c).label not in text
            legal = g.legal_actions(seat)
            for a in legal:
                assert g.check(seat, a) is None, a
            if n == deep:
                assert state(load_game(json.loads(json.dumps(g.to_json())))) == state(g)
                hand = g.hands[seat]
                bogus = Action("play", tuple(rng.sample(hand, min(len(hand), 4))))
                if g.check(seat, bogus) is not None:
                    before = state(g)
                    with pytest.raises(IllegalAction):
                        g.apply(seat, bogus)
                    assert state(g) == before
            g.apply(seat, legal[rng.randrange(len(legal))])
            n += 1
            assert n < 3000
        assert g.to_act() == ()
