"""The climbing games' rules core (``twos_tui.engine.climbing``: ``core`` and the
``rules_*`` modules) on its own, against the frozen behaviour corpus: the games'
protocol classes list their plays from this core, so the core is checked here without
them. At every recorded position of the matches kept whole, the core's state is read
from the recorded JSON, its moves must be the recorded legal actions (as sets of card
sets), and the recorded move, played by the core, must leave what the record shows next:
the hands, the seat to act, the play to beat, who passed, and the seat that went out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_frozen_corpus import corpus

from twos_tui.engine import new_game
from twos_tui.engine.climbing.core import Rules, SimState
from twos_tui.engine.climbing.rules import rules_for

CLIMBING = ("twos", "big-two", "big-two-5r", "chinese-poker")


def full_matches(variant: str) -> list[dict[str, Any]]:
    return [m for m in corpus()["matches"] if m["variant"] == variant and m["full"]]


def state_of(j: dict[str, Any], r: Rules) -> SimState:
    """The core's state of a recorded game JSON in its play phase."""
    top = None if j["top"] is None else r.move_of_codes(j["top"][1])
    return SimState(
        r,
        [r.mask_of(h) for h in j["hands"]],
        j["current"],
        top,
        -1 if j["top"] is None else j["top"][0],
        sum(1 << i for i, p in enumerate(j["passed"]) if p),
        r.mask_of([j["required_card"]]) if j["required_card"] else 0,
        j["opening"],
        j.get("open_passes", 0),
        j["dealer"],
    )


def card_sets(r: Rules, moves: Any) -> set[frozenset[str] | None]:
    return {None if m is None else frozenset(r.codes_of(m[0])) for m in moves}


def recorded_sets(legal: list[str]) -> set[frozenset[str] | None]:
    out: set[frozenset[str] | None] = set()
    for text in legal:
        a = json.loads(text)
        out.add(None if a["kind"] == "pass" else frozenset(a["cards"]))
    return out


@pytest.mark.parametrize("variant", CLIMBING)
def test_the_core_lists_and_plays_the_recorded_matches(variant: str) -> None:
    matches = full_matches(variant)
    assert matches
    checked = 0
    for m in matches:
        r = rules_for(variant, m["players"], m["options"])
        positions = m["positions"]
        before = positions[0]["start"]
        for pos in positions[1:]:
            after = pos["json"]
            action = pos["action"]
            if (
                isinstance(action, list)
                and before.get("phase", "play") == "play"
                and not before["deal_over"]
            ):
                seat, a = action
                s = state_of(before, r)
                assert pos["to_act"] == [s.cur] == [seat], (m["id"], checked)
                assert card_sets(r, s.legal()) == recorded_sets(pos["legal"][seat])
                s.play(None if a["kind"] == "pass" else r.move_of_codes(a["cards"]))
                assert s.hands == [r.mask_of(h) for h in after["hands"]]
                if after["deal_over"]:
                    assert s.over and pos["result"]["winners"] == [s.winner]
                else:
                    want = state_of(after, r)
                    assert not s.over
                    assert (s.cur, s.top_seat, s.passed, s.req, s.opening) == (
                        want.cur,
                        want.top_seat,
                        want.passed,
                        want.req,
                        want.opening,
                    ), (m["id"], checked)
                    assert s.top == want.top and s.open_passes == want.open_passes
                checked += 1
            before = after
    assert checked >= 80  # every move of the whole matches (the shortest variant: 83)


def test_the_cores_compare_as_the_rules_say() -> None:
    """The rules' own examples, asked of the cores directly."""
    t = rules_for("twos", 3)
    bomb = t.move_of_codes(["3S", "3C", "4S", "4C", "5S", "5C"])  # 334455: a 2x3 bomb
    two = t.move_of_codes(["2H"])
    assert bomb is not None and two is not None and bomb[3] > 0 == two[3]
    assert t.move_of_codes(["KS", "AS", "2S"]) is not None  # a run may end on the 2
    assert t.move_of_codes(["AS", "2S", "3S"]) is None  # ... but never wraps
    b = rules_for("big-two", 4)
    three_d, two_s = b.move_of_codes(["3D"]), b.move_of_codes(["2S"])
    assert three_d is not None and two_s is not None and two_s[2] > three_d[2]
    flush = b.move_of_codes(["3H", "5H", "7H", "9H", "JH"])
    straight = b.move_of_codes(["3D", "4C", "5H", "6S", "7D"])
    assert flush is not None and straight is not None and flush[2] > straight[2]
    assert b.move_of_codes(["JD", "QC", "KH", "AS", "2D"]) is None  # no J-Q-K-A-2 here
    f = rules_for("big-two-5r", 4)
    assert f.move_of_codes(["JD", "QC", "KH", "AS", "2D"]) is not None  # ... but here
    c = rules_for("chinese-poker", 4)
    quad = c.move_of_codes(["5D", "5C", "5H", "5S", "3D"])
    chain = c.move_of_codes(["4D", "4C", "5D", "5C", "6D", "6C"])
    assert quad is not None and quad[3] == 1 and chain is not None and chain[3] == 0
    assert c.move_of_codes(["2H"]) is None  # not in the 48-card deck


# ----- the core is the game's state ---------------------------------------------------------
SHELL_COPIES = ("hands", "current", "top", "top_seat", "passed", "required_card", "opening")


@pytest.mark.parametrize(
    ("variant", "players"), [("twos", 3), ("big-two", 4), ("chinese-poker", 3)]
)
def test_a_game_keeps_its_rules_state_only_in_its_core(variant: str, players: int) -> None:
    """No copy of the rules state beside the core: what the game shows is read from it,
    and setting it (as the puzzles do) sets the core."""
    g = new_game(variant, players, seed=4)
    assert not set(SHELL_COPIES) & set(vars(g)), "the shell keeps its own copy"
    r = g.rules_core
    rng = random.Random(4)
    for _ in range(12):
        (seat,) = g.to_act()
        c = g.core
        assert c.cur == seat == g.current
        assert g.hands == [list(r.codes_of(h)) for h in c.hands]
        assert g.observe(seat).hand == r.codes_of(c.hands[seat])
        assert g.to_json()["passed"] == [bool(c.passed >> i & 1) for i in range(players)]
        assert (g.top is None) == (c.top is None) and g.top_seat == (
            None if c.top_seat < 0 else c.top_seat
        )
        assert (
            g.can_pass(seat) == c.can_pass() == any(a.kind == "pass" for a in g.legal_actions(seat))
        )
        acts = g.legal_actions(seat)
        g.apply(seat, acts[rng.randrange(len(acts))])
    seat = g.to_act()[0]
    low = g.deck_cards()[0] if variant == "twos" else "3D"
    held = [s for s in range(players) if low in g.hands[s]]
    for s in held:  # puzzles set hands by hand: the core holds what was set
        g.hands[s] = [x for x in g.hands[s] if x != low]
    g.hands[seat] = [*g.hands[seat], low]
    assert g.core.hands[seat] & r.mask_of([low]) and low in g.observe(seat).hand
    g.top, g.top_seat = None, None
    assert any(a.cards == (low,) for a in g.legal_actions(seat))  # a lead, from the core


def test_who_starts_and_the_card_that_must_open_come_from_the_core() -> None:
    """``Rules.start`` decides a deal's first seat and required card; the games' deals
    use it (and so do the search's random deals)."""
    b = rules_for("big-two", 3)
    hands = [b.mask_of(["4D", "9S"]), b.mask_of(["3C", "KH"]), b.mask_of(["5D", "6D"])]
    s = b.start(hands, 2)
    assert (s.cur, b.codes_of(s.req), s.dealer) == (1, ("3C",), 2)  # lowest dealt: 3♣
    t = rules_for("twos", 3, {"opening": "lowest"})
    s = t.start([t.mask_of(["5S"]), t.mask_of(["4H"]), t.mask_of(["4S"])], 0)
    assert (s.cur, t.codes_of(s.req)) == (2, ("4S",))  # 4♠ is below 4♥ in Twos
    assert rules_for("twos", 3).start([t.mask_of(["5S"]), t.mask_of(["4S"]), 0], 1).req == 0
    c = rules_for("chinese-poker", 4)
    s = c.start([c.mask_of(["3D"]), c.mask_of(["4D"]), c.mask_of(["5D"]), c.mask_of(["6D"])], 2)
    assert (s.cur, s.req, s.can_pass()) == (2, 0, True)  # the dealer opens, and may pass
    for variant, players in (("big-two", 4), ("twos", 3), ("chinese-poker", 4)):
        for seed in range(5):
            g = new_game(variant, players, {"opening": "lowest"} if variant == "twos" else {}, seed)
            want = g.rules_core.start(list(g.core.hands), g.dealer)
            assert (g.current, g.core.req) == (want.cur, want.req), (variant, seed)


def test_a_search_copy_has_its_own_core() -> None:
    g = new_game("big-two", 4, seed=2)
    w = g.clone_for_search()
    assert not w.history and w.search_key() == g.search_key()  # no log, the same state
    (seat,) = w.to_act()
    w.apply(seat, w.legal_actions(seat)[0])
    assert w.core is not g.core and g.core.hands[seat] != w.core.hands[seat]
    assert g.search_key() != w.search_key() and g.to_act() == (seat,)
