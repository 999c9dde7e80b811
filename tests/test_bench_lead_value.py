"""``benchmarks/lead_value.py`` (what leading a Chinese Poker deal is worth) runs on a few
deals and its figures agree with the deals it played."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from types import ModuleType

import pytest
from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "lead_value.py"


def bench_module() -> ModuleType:
    return load_script(SCRIPT)


@pytest.mark.parametrize("players", [4, 2])
def test_lead_value_is_the_leaders_standing_over_the_deals(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = bench_module()
    assert bench.main(["--players", str(players), "--deals", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = [
        bench.leader_standing("chinese-poker", players, "normal", bench.SEED_BASE + k)
        for k in range(3)
    ]
    mean = statistics.mean(s for s, _ in got)
    assert out["leader_standing"] == pytest.approx(mean, abs=1e-3)
    assert out["lead_value"] == pytest.approx(mean * players / (players - 1), abs=0.01)
    assert out["leader_won"] == pytest.approx(sum(w for _, w in got) / 3, abs=1e-3)
    assert out["deals"] == 3 and out["players"] == players
