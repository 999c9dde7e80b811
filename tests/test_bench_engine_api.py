"""``benchmarks/bench_engine_api.py`` runs (tiny settings, no timing asserted): both
sections, every game, this tree against a checkout given by its folder and against a git
ref it checks out itself (and removes after)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from script_helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_engine_api.py"
TINY = ["--rounds", "1", "--games", "1", "--deals", "1", "--decisions", "1"]
TINY += ["--rollouts", "2", "--worlds", "1"]


def bench_module() -> ModuleType:
    return load_script(SCRIPT)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *TINY, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_worker_plays_every_game_and_counts_the_hard_ais_playouts() -> None:
    b = bench_module()
    assert set(b.VARIANTS) == set(b.SEARCHED) and len(b.VARIANTS) == 6
    for v in b.VARIANTS:
        games = b.play_games(v, 2, seed=1, unit="deal", clock=b.clock_of("cpu"))
        assert games["games"] == 2 and games["deals"] == 2 and games["moves"] > 0
        found = b.search(v, deals=2, decisions=1, iterations=3, seed=1, clock=b.clock_of("wall"))
        assert found["decisions"] >= 1, v  # a searched decision came in two deals
        assert 0 < found["playouts"] <= found["decisions"] * 3 + 40, v  # (a world's rollouts)


def test_a_match_is_played_through_next_deal_to_its_end() -> None:
    b = bench_module()
    out = b.play_games("chinese-poker", 1, seed=3, unit="match", clock=b.clock_of("cpu"))
    assert out["games"] == 1 and out["deals"] >= 2


@pytest.mark.slow
def test_the_benchmark_against_a_checkout_folder_prints_both_sides_and_the_ratio() -> None:
    done = run("--vs", str(ROOT), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out["trees"].values()) == {str(ROOT / "twos_tui")}
    assert len(out["load_start"]) == 3 and len(out["load_end"]) == 3
    for section in ("games", "playouts"):
        rows = out[section]
        assert [r["variant"] for r in rows] == list(bench_module().VARIANTS)
        for r in rows:
            assert r["ratio"] > 0 and len(r["ratios"]) == 1, r  # one round
            for k in ("this", "ref"):
                assert 0 < r[k]["min"] <= r[k]["median"] <= r[k]["max"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_vs_a_git_ref_checks_it_out_measures_it_and_removes_it() -> None:
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("not a git checkout")
    before = subprocess.run(
        ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    done = run("--vs", "HEAD", "--variant", "big-two", "--variant", "2v1")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "load average (1, 5, 15 min) at the start" in text and "at the end" in text
    assert "ref: --vs HEAD (" in text and "games/s" in text and "playouts/s" in text
    lines = [ln for ln in text.splitlines() if ln.startswith(("big-two ", "2v1 "))]
    assert len(lines) == 4 and all(ln.rstrip().endswith("x") for ln in lines), text
    # the temporary worktree is gone again
    after = subprocess.run(
        ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert after == before


def test_a_ref_that_is_neither_a_commit_nor_a_checkout_is_refused() -> None:
    done = run("--vs", "no-such-ref-anywhere", "--section", "games", "--variant", "2v1")
    assert done.returncode != 0
    assert "neither a git ref" in done.stderr


def test_a_checkout_whose_games_fail_is_named_with_its_error(tmp_path: Path) -> None:
    """The other side's package prints as it loads (its worker still answers) and then
    fails to start a game: one line says which side and why, and the run fails."""
    pkg = tmp_path / "twos_tui"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "__init__.py").write_text('print("hello from a chatty package")\n')
    (pkg / "engine" / "__init__.py").write_text(
        "def new_game(*args, **kw):\n    raise RuntimeError('no games in this tree')\n"
    )
    done = run("--vs", str(tmp_path), "--section", "games", "--variant", "twos")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        f"bench_engine_api: --vs {tmp_path} ({tmp_path}): RuntimeError: no games in this tree"
    )
