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


def test_cards_left_shares_and_the_paired_comparison_agree_with_the_deals():
    """The 10+/11+ shares count the hands each agent ended with that many cards; the
    paired comparison sets each agent's result with a hand against the other's with the
    same hand, so it equals the figures recomputed by hand from the deals."""
    from twos_tui.arena import SEED_STRIDE, format_report, play_deal

    seats = ["greedy2", "random", "random", "random"]
    r = run_arena("big-two", seats, 8, seed=4)
    per: dict[tuple[int, int], dict[str, list[tuple[int, int]]]] = {}
    left10 = {"greedy2": 0, "random": 0}
    left11 = {"greedy2": 0, "random": 0}
    for k in range(2):
        for rot in range(4):
            specs = [seats[(i - rot) % 4] for i in range(4)]
            out = play_deal("big-two", 4, specs, 4 * SEED_STRIDE + k)
            left = out["left"]
            assert sorted(left)[0] == 0 and left.count(0) == 1 and max(left) <= 13
            for seat, spec in enumerate(specs):
                left10[spec] += left[seat] >= 10
                left11[spec] += left[seat] >= 11
                won = seat in out["winners"]
                per.setdefault((k, seat), {}).setdefault(spec, []).append(
                    (won, out["changes"][seat])
                )
    rows = {a["name"]: a for a in r["agents"]}
    assert rows["greedy2"]["left_10"] == pytest.approx(left10["greedy2"] / 8, abs=1e-4)
    assert rows["random"]["left_11"] == pytest.approx(left11["random"] / 24, abs=1e-4)
    assert left10["random"] > 0  # (random players do end with many cards)
    diffs = []
    for by in per.values():
        g, rnd = by["greedy2"], by["random"]
        diffs.append(sum(c for _, c in g) / len(g) - sum(c for _, c in rnd) / len(rnd))
    (p,) = r["paired"]
    assert p["agent"] == "greedy2" and p["vs"] == "random" and p["hands"] == 8
    assert p["score_diff"] == pytest.approx(sum(diffs) / 8, abs=1e-4)
    lo, hi = p["score_diff_ci95"]
    assert lo <= p["score_diff"] <= hi
    text = format_report(r)
    assert "10+ cards" in text and "greedy2 - random over 8 hands" in text


def test_trick_games_have_no_cards_left_columns():
    r = run_arena("2v1", ["greedy", "random", "random"], 3, seed=2)
    assert all("left_10" not in a for a in r["agents"])
    assert r["paired"] and r["paired"][0]["hands"] == 3


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
