"""The arena: duplicate seating, figures, reproducibility, bad command lines."""

import json
from dataclasses import replace

import pytest

from twos_tui.arena import parse_seats, run_arena, wilson
from twos_tui.cli import main


def test_wilson_interval_known_values():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_mean_interval():
    from twos_tui.arena import mean_ci

    lo, hi = mean_ci(total=10.0, total_sq=20.0, n=5)  # values 2,2,2,2,2 -> no spread
    assert lo == pytest.approx(2.0) and hi == pytest.approx(2.0)
    lo, hi = mean_ci(total=0.0, total_sq=4.0, n=4)  # -1, 1, -1, 1: sd 1.155
    assert hi == pytest.approx(1.96 * (4 / 3) ** 0.5 / 2) and lo == pytest.approx(-hi)


def test_every_agent_holds_every_hand():
    r = run_arena("big-two", ["greedy", "random", "random", "random"], 8, seed=3)
    assert r["deals"] == 8 and r["rotations"] == 4
    rows = {a["name"]: a for a in r["agents"]}
    assert rows["greedy"]["hands"] == 8 and rows["random"]["hands"] == 24
    # one winner per climbing deal: win shares add up to the number of deals
    total = sum(a["win_rate"] * a["hands"] for a in r["agents"])
    assert total == pytest.approx(8)


@pytest.mark.parametrize("variant", ["twos", "2v1", "twos-tricks", "chinese-poker"])
def test_arena_is_reproducible_from_the_seed(variant):
    from twos_tui.engine import variant_class

    seats = parse_seats("greedy,random", variant_class(variant).default_players)
    a = run_arena(variant, seats, 6, seed=5)
    b = run_arena(variant, seats, 6, seed=5)
    for x, y in zip(a["agents"], b["agents"], strict=True):
        x.pop("decision_ms"), y.pop("decision_ms")
        assert x == y


def test_parse_seats_fills_and_refuses():
    assert parse_seats("hard,normal", 4) == ["hard", "normal", "normal", "normal"]
    assert parse_seats("basic", 3) == ["basic"] * 3
    with pytest.raises(ValueError):
        parse_seats("hard,nobody", 3)
    with pytest.raises(ValueError):
        parse_seats("a,b,c,d,e", 4)


def test_arena_cli_json(capsys):
    assert (
        main(["arena", "--variant", "2v1", "--seats", "greedy,random", "--deals", "3", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "2v1" and out["deals"] == 3
    for a in out["agents"]:
        assert set(a) >= {"name", "win_rate", "win_ci95", "chance", "avg_score", "decision_ms"}
        assert set(a["decision_ms"]) >= {"median", "p95", "max"}


@pytest.mark.parametrize(
    "argv",
    [
        ["--variant", "nope", "--seats", "random"],
        ["--variant", "twos", "--seats", "random", "--players", "7"],
        ["--variant", "twos", "--seats", "random", "--deals", "0"],
        ["--variant", "twos", "--seats", "wizard"],
        ["--variant", "twos", "--seats", "random", "--jobs", "0"],
        ["--variant", "twos", "--seats", "random", "--option", "nosuch=1"],
    ],
)
def test_arena_cli_refuses_bad_input(argv, capsys):
    try:
        status = main(["arena", *argv])
    except SystemExit as e:  # argparse's own refusal: also status 2, one line
        status = e.code
    assert status == 2
    assert "twos-tui arena:" in capsys.readouterr().err


def test_greedy2_leads_its_lowest_whole_combination_and_never_passes():
    import random

    from twos_tui.ai import agent_for
    from twos_tui.engine import Action, new_game

    g = new_game("twos", 3, {}, 5)
    agent = agent_for("twos", "greedy2")
    rng = random.Random(1)
    led = followed = 0
    while not g.deal_over and (led < 5 or followed < 5):
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        obs = g.observation(seat)
        act = agent.choose(obs, legal, g.decision(seat), rng)
        plays = [a for a in legal if a.kind == "play"]
        if plays:
            assert act.kind == "play"  # never a pass while it can play
        if obs["top"] is None and plays:
            led += 1
            ranks = [c[:-1] for c in obs["hand"]]
            # every card of each rank it touches, and its lowest playable card
            for c in act.cards:
                if ranks.count(c[:-1]) > sum(x[:-1] == c[:-1] for x in act.cards):
                    # a split only when no whole play holds that lowest card
                    low = act.cards[0]
                    assert not any(
                        low in a.cards
                        and all(
                            ranks.count(x[:-1]) == sum(y[:-1] == x[:-1] for y in a.cards)
                            for x in a.cards
                        )
                        for a in plays
                    )
        elif plays:
            followed += 1
        g.apply(seat, act)
    assert led and followed
    # a hand 3 3 5 on a free lead: the pair, not a single three
    start = new_game("twos", 3, {}, 1).observe(0)
    obs = replace(start, hand=("3♠", "3♥", "5♦"), top=None)
    legal = [Action("play", ("3♠",)), Action("play", ("3♠", "3♥")), Action("play", ("5♦",))]
    from twos_tui.engine.protocol import Decision

    dec = Decision(seat=0, kind="play", prompt="")
    assert agent.choose(obs, legal, dec, rng).cards == ("3♠", "3♥")
