"""The learned move scorer (issue 22): its inputs come from one seat's observation
alone, damaged weights fail with a clear message and the AI plays as ``normal``, the
shipped weights load with their provenance beside them, and hints of a level make that
level's move."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest

from twos_tui.ai import agent_for, suggest
from twos_tui.ai.learn import net as netmod
from twos_tui.ai.learn.features import View, move_features, view_of_observation
from twos_tui.engine import new_game
from twos_tui.engine.climbing.rules import rules_for, state_from_game


def _advance(g, moves: int, seed: int = 0):
    rng = random.Random(seed)
    greedy = agent_for(g.variant_id, "greedy")
    for _ in range(moves):
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, greedy.choose(g.observation(seat), legal, g.decision(seat), rng))


def _hidden_swapped(variant: str, players: int, seed: int, moves: int):
    """Two copies of a deal, ``moves`` in, that differ only in cards the seat to act
    cannot see (one card swapped between two opponents)."""
    a = new_game(variant, players, {}, seed)
    b = new_game(variant, players, {}, seed)
    _advance(a, moves)
    _advance(b, moves)
    seat = a.to_act()[0]
    o1, o2 = [s for s in range(players) if s != seat][:2]
    h1, h2 = b.hands[o1], b.hands[o2]
    h1[0], h2[0] = h2[0], h1[0]
    b.hands[o1], b.hands[o2] = h1, h2  # (a hand is set whole: the game's state is its core)
    assert a.hands[o1] != b.hands[o1]
    return a, b, seat


@pytest.mark.parametrize("variant,players", [("twos", 3), ("big-two", 4), ("chinese-poker", 4)])
def test_the_network_sees_only_the_seats_observation(variant, players):
    for moves in (0, 4, 9):
        a, b, seat = _hidden_swapped(variant, players, 11 + moves, moves)
        oa, ob = a.observation(seat), b.observation(seat)
        assert oa == ob  # the same knowledge...
        legal = a.legal_actions(seat)
        assert legal == b.legal_actions(seat)
        r = rules_for(variant, players, a.options)
        moves_ = [None if x.kind == "pass" else r.move_of_codes(x.cards) for x in legal]
        fa = move_features(view_of_observation(oa, r), moves_)
        fb = move_features(view_of_observation(ob, r), moves_)
        assert np.array_equal(fa, fb)  # ...the same inputs...
        d = a.decision(seat)
        for level, kw in (("expert", {}), ("guided", {"iterations": 60})):
            ca = agent_for(variant, level, **kw).choose(oa, legal, d, random.Random(5))
            cb = agent_for(variant, level, **kw).choose(ob, legal, d, random.Random(5))
            assert ca == cb  # ...the same choice


@pytest.mark.parametrize("variant,players", [("twos", 3), ("big-two", 4), ("chinese-poker", 4)])
def test_the_trainers_bookkeeping_builds_the_same_view(variant, players):
    """The trainer and the search build views from a simulated deal's public play; on
    real deals they equal the view read from the observation."""
    r = rules_for(variant, players, {})
    for seed in range(3):
        g = new_game(variant, players, {}, seed)
        rng = random.Random(seed)
        rnd = agent_for(variant, "random")
        played = passes = 0
        while not g.deal_over:
            seat = g.to_act()[0]
            legal, d = g.legal_actions(seat), g.decision(seat)
            if d.kind == "play":
                s = state_from_game(g)
                view = View(
                    seat,
                    players,
                    s.hands[seat],
                    played,
                    tuple(s.counts()),
                    s.top,
                    s.top_seat,
                    passes,
                    r.deck_mask,
                )
                assert view == view_of_observation(g.observation(seat), r)
            act = rnd.choose(g.observation(seat), legal, d, rng)
            g.apply(seat, act)
            if d.kind != "play":
                continue
            if act.kind == "pass":
                top = None if g.deal_over else state_from_game(g).top
                passes = 0 if top is None else passes | 1 << seat
            else:
                played |= r.mask_of(act.cards)
                passes = 0


def _damaged(tmp_path, how: str):
    good = netmod.net_for("twos")
    arrays = {k: v.copy() for k, v in good.arrays().items()}
    path = tmp_path / f"{how}.npz"
    meta = np.array(json.dumps({"format": netmod.FORMAT}))
    if how == "garbage":
        path.write_bytes(b"not a weight file at all")
        return path
    if how == "truncated":
        np.savez(path, meta=meta, **arrays)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        return path
    if how == "missing-array":
        del arrays["w2"]
    if how == "wrong-shape":
        arrays["w1"] = arrays["w1"][:-3]
    if how == "not-finite":
        arrays["b2"][0] = np.nan
    np.savez(path, meta=meta, **arrays)
    return path


@pytest.mark.parametrize(
    "how,words",
    [
        ("garbage", "damaged"),
        ("truncated", "damaged"),
        ("missing-array", "lacks w2"),
        ("wrong-shape", "does not fit"),
        ("not-finite", "not finite"),
    ],
)
def test_damaged_weights_fail_clearly_and_the_ai_plays_as_normal(tmp_path, monkeypatch, how, words):
    path = _damaged(tmp_path, how)
    with pytest.raises(netmod.WeightsError) as e:
        netmod.load(path)
    assert path.name in str(e.value) and words in str(e.value)
    monkeypatch.setattr(netmod, "weights_path", lambda variant: path)
    monkeypatch.setattr(netmod, "_CACHE", {})
    g = new_game("twos", 3, {}, 4)
    _advance(g, 5)
    seat = g.to_act()[0]
    obs, legal, d = g.observation(seat), g.legal_actions(seat), g.decision(seat)
    normal = agent_for("twos", "normal").choose(obs, legal, d, random.Random(1))
    for level in ("expert", "guided"):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            act = agent_for("twos", level, iterations=50).choose(obs, legal, d, random.Random(1))
        assert act == normal
        assert any(words in str(w.message) and "plays as normal" in str(w.message) for w in said)


def test_a_saved_network_loads_with_its_meta_typed(tmp_path):
    """What ``save`` writes reads back the same; a file of another format is refused,
    and a meta key of the wrong type is left out (it never reaches the typed meta)."""
    net = netmod.init(np.random.default_rng(3))
    path = tmp_path / "mine.npz"
    trained = {"variant": "twos", "players": [3, 2], "hidden": [128, 64], "seed": 5}
    netmod.save(net, path, trained)
    back = netmod.load(path)
    assert back.meta == {"format": netmod.FORMAT, "inputs": back.w1.shape[0], **trained}
    assert all(np.array_equal(back.arrays()[k], net.arrays()[k]) for k in netmod.ARRAYS)
    odd = {"format": netmod.FORMAT, "inputs": "176", "variant": 7, "players": [3, "x"], "seed": 2}
    assert netmod.read_meta(odd, "odd.npz") == {"format": netmod.FORMAT, "seed": 2}
    for raw in ({"format": 2}, ["format", 1], None):
        with pytest.raises(netmod.WeightsError, match="odd.npz is of an unknown format"):
            netmod.read_meta(raw, "odd.npz")


def test_missing_weights_fail_clearly(tmp_path):
    with pytest.raises(netmod.WeightsError, match="missing"):
        netmod.load(tmp_path / "none.npz")


@pytest.mark.parametrize("variant", ["twos", "big-two", "big-two-5r", "chinese-poker"])
def test_shipped_weights_load_with_their_provenance(variant):
    net = netmod.net_for(variant)
    path = netmod.weights_path(variant)
    assert path.stat().st_size < 2_000_000
    info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert info["command"].startswith("python -m twos_tui.ai.learn.train")
    assert "seed" in info and info["log"]
    assert net.meta["variant"] == info["variant"]


def test_the_app_does_not_import_numpy_to_start():
    code = "import sys, twos_tui.cli, twos_tui.ai, twos_tui.ui.app\nprint('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("variant,players", [("twos", 3), ("big-two", 4)])
def test_a_hint_of_a_level_is_that_levels_move(variant, players):
    for moves in (0, 3, 8, 13):
        g = new_game(variant, players, {}, 40 + moves)
        _advance(g, moves)
        seat = g.to_act()[0]
        obs, legal, d = g.observation(seat), g.legal_actions(seat), g.decision(seat)
        for level in ("expert", "guided", "rollouts", "hard"):
            hint = suggest(variant, obs, legal, d, random.Random(3), level, iterations=80)
            played = agent_for(variant, level, iterations=80).choose(
                obs, legal, d, random.Random(3)
            )
            assert hint.level == level and hint.action == played and hint.reason


def test_the_hint_level_is_a_kept_setting():
    from twos_tui.play.settings import Settings

    assert Settings().hint_level == "hard"  # the strongest by default
    assert Settings.from_json({"hint_level": "normal"}).hint_level == "normal"
    assert Settings.from_json({"hint_level": "wizard"}).hint_level == "hard"
    assert Settings.from_json(Settings(hint_level="normal").to_json()).hint_level == "normal"
