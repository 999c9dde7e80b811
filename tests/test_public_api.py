"""The public API as the README documents it, and the bench command's output."""

import json

import pytest

from twos_tui.cli import main
from twos_tui.engine import VARIANT_IDS, classify, load_game, new_game, variant_class


def test_readme_classify_examples():
    assert classify("big-two", ["3D", "4D", "5D", "6D", "7D"]).kind == "straight-flush"
    assert classify("twos", ["3S", "3H", "4S", "4H", "5S", "5H"]).kind == "bomb-2x3"
    pair = classify("twos", ["8S", "8D"])
    assert classify("twos", ["8C", "8H"]).beats(pair)
    assert not pair.beats(classify("twos", ["8C", "8H"]))
    assert classify("twos", ["9S", "9H", "9D", "9C"]).beats(pair)
    assert classify("chinese-poker", ["4S", "4H", "4D", "4C", "8S"]).kind == "four-of-a-kind"
    assert classify("twos", ["3S", "5S"]) is None
    assert classify("twos", ["TH", "JH", "QH"]).kind == "run"
    assert classify("twos", ["3S", "3S"]) is None
    with pytest.raises(ValueError):
        classify("twos", ["1Z"])


def test_every_variant_declares_itself_for_a_ui():
    for v in VARIANT_IDS:
        cls = variant_class(v)
        assert cls.name and cls.summary and cls.family in ("climbing", "trick")
        assert cls.default_players in cls.player_counts
        for p in cls.player_counts:
            for spec in cls.option_specs(p):
                assert spec.description and spec.label
                assert spec.default in [c for c, _ in spec.choices]
        g = new_game(v, seed=5)
        assert load_game(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


def test_unknown_variant_and_bad_options_are_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        new_game("hearts")
    with pytest.raises(ValueError):
        new_game("big-two", players=7)
    with pytest.raises(ValueError):
        new_game("big-two", options={"no_such_rule": 1})


def test_bench_json(capsys):
    assert main(["bench", "--variant", "twos", "--games", "20", "--seed", "3", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert {"variant", "games", "games_per_s", "moves_per_s", "enum_us_median"} <= set(r)
    assert r["variant"] == "twos" and r["games"] == 20 and r["games_per_s"] > 0


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_bench_text_every_variant(variant, capsys):
    assert main(["bench", "--variant", variant, "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "enum µs median" in out


@pytest.mark.parametrize("variant", ["twos", "big-two", "big-two-5r", "chinese-poker"])
def test_empty_or_bogus_selection_gets_a_reason(variant):
    from twos_tui.engine.protocol import Action

    g = new_game(variant, seed=1)
    while g.decision(g.to_act()[0]).kind != "play":  # 2-player Chinese Poker: choose hands
        seat = g.to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    seat = g.to_act()[0]
    before = g.to_json()
    for cards in [(), ("ZZ",), ("3S", "3S")]:
        reason = g.check(seat, Action("play", cards))
        assert isinstance(reason, str) and reason
    assert g.to_json() == before
