"""``twos-tui odds`` command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from twos_tui.cli import build_parser, main
from twos_tui.engine.odds import odds_table, shape_probability
from twos_tui.odds_cli import run_odds_cli, simulate


def _run(argv):
    args = build_parser().parse_args(["odds", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = run_odds_cli(args, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _table_lines(text):
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("-----")) + 1
    end = lines.index("", start)
    return lines[start - 2], lines[start:end]


def test_text_table_rarest_first_with_bombs_marked():
    code, out, err = _run(["--hand-size", "13"])
    assert code == 0 and err == ""
    header, rows = _table_lines(out)
    assert header.split()[:2] == ["shape", "per"]
    assert "simulated" not in header
    shapes = [r.split()[0] for r in rows]
    assert shapes == [r.label for r in odds_table(13)]
    assert shapes[-1] == "1x1" and shapes[0] == "4x3"
    marked = {r.split()[0] for r in rows if "BOMB" in r.split()}
    assert marked == {"4x3", "3x4", "2x6", "3x3", "2x5", "2x4", "4x1", "2x3"}
    row = next(r for r in rows if r.startswith("2x3 "))
    assert "918,512" in row and "0.091851" in row
    assert "Bombs, strongest (rarest) first: 4x3 > 3x4 > 2x6 > 3x3 > 2x5 > 2x4 > 4x1 > 2x3" in out


def test_json_shape_and_values():
    code, out, _ = _run(["--hand-size", "20", "--json"])
    assert code == 0
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == len(odds_table(20))
    for d in data:
        assert set(d) == {"width", "length", "probability", "per_10m", "bomb"}
        assert isinstance(d["bomb"], bool)
    probs = [d["probability"] for d in data]
    assert probs == sorted(probs)
    d23 = next(d for d in data if (d["width"], d["length"]) == (2, 3))
    assert d23["probability"] == float(shape_probability(2, 3, 20))
    assert d23["per_10m"] == pytest.approx(d23["probability"] * 1e7)
    assert d23["bomb"] is True
    assert next(d for d in data if (d["width"], d["length"]) == (3, 2))["bomb"] is False


@pytest.mark.parametrize("deck,wide", [("infinite", "9x1"), ("decks:3", "9x1"), ("chinese", None)])
def test_other_decks(deck, wide):
    code, out, _ = _run(["--hand-size", "16", "--deck", deck, "--json"])
    assert code == 0
    labels = {f"{d['width']}x{d['length']}" for d in json.loads(out)}
    if wide:
        assert wide in labels
    else:
        assert max(int(ln.split("x")[0]) for ln in labels) == 4
        assert "2x13" not in labels
        assert "1x13" in labels


def test_simulate_columns_and_reproducible():
    code, out, _ = _run(["--hand-size", "13", "--simulate", "300", "--seed", "5"])
    assert code == 0
    header, rows = _table_lines(out)
    assert "simulated /10M" in header and "diff (sd)" in header
    assert "300 random hands, seed 5" in out
    assert all(len(r.split()) >= 6 for r in rows)
    # 1x1 is certain: the simulated column is exactly 10,000,000.
    assert rows[-1].split()[0] == "1x1" and "10,000,000" in rows[-1].split()[-2]
    assert _run(["--hand-size", "13", "--simulate", "300", "--seed", "5"])[1] == out
    assert _run(["--hand-size", "13", "--simulate", "300", "--seed", "6"])[1] != out


def test_simulate_json_and_counts_are_consistent():
    code, out, _ = _run(["--hand-size", "20", "--simulate", "400", "--seed", "2", "--json"])
    data = json.loads(out)
    assert code == 0
    for d in data:
        assert {"simulated_hits", "simulated_per_10m"} <= set(d)
        assert d["simulated_per_10m"] == d["simulated_hits"] * 1e7 / 400
    hits = {(d["width"], d["length"]): d["simulated_hits"] for d in data}
    # Monotone: a longer or wider run is never seen more often.
    for (w, ln), h in hits.items():
        assert hits.get((w, ln + 1), 0) <= h and hits.get((w + 1, ln), 0) <= h
    assert hits[(1, 1)] == hits[(2, 1)] == 400  # 20 cards always hold a pair


def test_simulate_matches_exact_within_4_sd():
    n = 3000
    hits = simulate(13, "standard", n, seed=11)
    for (w, ln), h in hits.items():
        p = float(shape_probability(w, ln, 13))
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(h - n * p) <= max(4 * sd, 1e-9), (w, ln)
    hits = simulate(6, "infinite", 3000, seed=3)
    p = float(shape_probability(2, 2, 6, "infinite"))
    assert abs(hits[(2, 2)] - 3000 * p) <= 4 * (3000 * p * (1 - p)) ** 0.5


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--hand-size", "53"], "does not fit"),
        (["--hand-size", "49", "--deck", "chinese"], "does not fit"),
        (["--hand-size", "0"], "at least 1"),
        (["--hand-size", "5", "--deck", "tarot"], "unknown deck"),
        (["--hand-size", "5", "--deck", "decks:0"], "decks:K"),
        (["--hand-size", "5", "--simulate", "-3"], "--simulate"),
    ],
)
def test_errors_exit_2(argv, needle):
    code, out, err = _run(argv)
    assert code == 2 and out == ""
    assert needle in err and err.startswith("twos-tui odds: error:")


def test_main_entry_point(capsys):
    assert main(["odds", "--hand-size", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {(d["width"], d["length"]) for d in data} == {(1, 1), (1, 2), (1, 3), (2, 1), (3, 1)}


def test_plain_output_works_without_rich():
    code = (
        "import sys; sys.modules['rich'] = None; sys.modules['textual'] = None\n"
        "from twos_tui.cli import main\n"
        "sys.exit(main(['odds', '--hand-size', '13']))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "2x3" in res.stdout and "BOMB" in res.stdout
