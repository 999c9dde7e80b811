"""``benchmarks/blunder_audit.py``'s shards (``--shard I/N``): one shard is the whole
audit as before, N shards audit disjoint deals that together are every deal from N on,
and a shard's decisions are the very ones the whole audit makes on those deals."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "blunder_audit.py"


def test_one_shard_is_the_whole_audit_and_shards_split_the_deals() -> None:
    bench = load_script(SCRIPT)
    assert list(itertools.islice(bench.shard_deals(), 4)) == [1, 2, 3, 4]
    parts = [set(itertools.islice(bench.shard_deals(i, 4), 10)) for i in range(4)]
    assert all(not (a & b) for a, b in itertools.combinations(parts, 2))
    assert set().union(*parts) == set(range(4, 44))


@pytest.mark.parametrize("bad", ["2/2", "-1/3", "1", "a/b"])
def test_a_bad_shard_is_refused_with_a_reason(bad: str, capsys) -> None:
    bench = load_script(SCRIPT)
    with pytest.raises(SystemExit) as e:
        bench.main([f"--shard={bad}", "--decisions", "1"])
    assert e.value.code == 2
    assert f"--shard {bad}" in capsys.readouterr().err


def test_a_shard_audits_the_decisions_the_whole_audit_makes_on_its_deals(monkeypatch) -> None:
    bench = load_script(SCRIPT)
    seen: list[tuple[int, int]] = []
    real = bench.new_game

    def record(variant, players, options, seed):
        seen.append((seed, len(seen)))
        return real(variant, players, options, seed)

    monkeypatch.setattr(bench, "new_game", record)
    n, _changed, _blunders = bench.audit("twos", 3, 3, 5, 2, 0.15, shard=1, shards=3)
    assert n == 3
    # the deals of shard 1 of 3: 4, 7, 10, ... (seeded 7,000,003 + the deal number)
    assert [s - 7_000_003 for s, _ in seen] == list(
        itertools.islice(bench.shard_deals(1, 3), len(seen))
    )
