"""``benchmarks/bench_ui.py`` runs (tiny settings, no timing asserted): one key timed in
the app, the positions it needs found, and (slow) every key at both sizes, this tree
against a checkout folder and against a git ref it checks out itself (and removes after)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from script_helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_ui.py"
TINY = ["--rounds", "1", "--keys", "1", "--runs", "1"]


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


def test_a_cursor_key_is_timed_to_the_screen_updated() -> None:
    b = bench_module()
    got = asyncio.run(b.bench_keys((80, 24), ["cursor"], 1, seed=1))
    assert list(got) == ["cursor"] and len(got["cursor"]) == 1
    wall, cpu = got["cursor"][0]
    assert 0 < wall < 60 and 0 < cpu < 60


def test_the_positions_are_what_each_sample_needs() -> None:
    b = bench_module()
    lead = b.position(1000, "lead")
    g = lead.game
    plays = {tuple(a.cards) for a in g.legal_actions(0) if a.kind == "play"}
    assert 0 in g.to_act() and all((c,) in plays for c in g.observe(0).hand)
    passing = b.position(1001, "pass")
    assert any(a.kind == "pass" for a in passing.game.legal_actions(0))
    ai = b.position(1050, "ai")
    assert tuple(ai.game.to_act()) == (2,) and ai.seats[2].is_ai and not ai.seats[0].is_ai
    ai.game.apply(2, ai.ai_choose(2))  # the move the app's AI will make
    assert 0 in ai.game.to_act() and not ai.game.deal_over
    for s in (lead, passing, ai):
        s.close()


def test_a_bad_size_and_a_bad_ref_are_refused() -> None:
    done = run("--size", "80by24")
    assert done.returncode == 2 and "WIDTHxHEIGHT" in done.stderr
    done = run("--vs", "no-such-ref-anywhere", "--key", "cursor")
    assert done.returncode != 0 and "neither a git ref" in done.stderr


@pytest.mark.slow
def test_every_key_at_both_sizes_against_a_checkout_folder() -> None:
    done = run("--vs", str(ROOT), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out["trees"].values()) == {str(ROOT / "twos_tui")}
    assert len(out["load_start"]) == 3 and len(out["load_end"]) == 3
    assert set(out["startup_s"]) == {"this", "ref"}
    rows = {(r["size"], r["key"]): r for r in out["rows"]}
    keys = ("cursor", "select", "sort", "play", "pass", "ai")
    assert set(rows) == {(s, k) for s in ("80x24", "200x60") for k in keys}
    for r in rows.values():
        for side in ("this", "ref"):
            f = r[side]
            assert f["n"] == 1 and 0 < f["p50_ms"] <= f["p95_ms"], r
        assert r["ratio_p50"] > 0 and r["ratio_p95"] > 0, r


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_vs_a_git_ref_checks_it_out_measures_it_and_removes_it() -> None:
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("not a git checkout")

    def worktrees() -> str:
        return subprocess.run(
            ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True
        ).stdout

    before = worktrees()
    done = run("--vs", "HEAD", "--key", "ai", "--size", "80x24", "--runs", "0")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "load average (1, 5, 15 min) at the start" in text and "at the end" in text
    assert "ref: --vs HEAD (" in text and "ratio p50 / p95" in text
    assert "wall clock" in text and "CPU time" in text
    lines = [ln for ln in text.splitlines() if ln.startswith("80x24 ")]
    assert len(lines) == 2, text  # one row in each table
    assert all("AI move lands" in ln and ln.endswith("x") for ln in lines), text
    assert worktrees() == before  # the temporary worktree is gone again
