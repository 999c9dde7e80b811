"""The settings (``twos_tui/play/settings.py``): defaults, a round trip through the two
files (config.toml for what a person sets, state.json for the app's records), atomic
writes, damaged records, and what the app keeps (theme, sort, picker choices). The
settings file's own tests: tests/test_config.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from twos_tui.play import settings as st


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    return tmp_path


def test_defaults_without_a_file():
    s = st.load()
    assert s.ai_pace == "normal" and s.theme is None and s.picker == {}
    assert s.pace() == st.PACES["normal"]
    assert s.sort_for("twos-tricks") == "suit"  # you follow suit there
    assert s.sort_for("big-two") == "rank"


def test_round_trip(data_home):
    s = st.Settings(theme="nord", ai_pace="slow", sort={"twos": "suit"}, last_variant="2v1")
    s.picker["2v1"] = st.PickerChoice(
        3, [{"name": "Sam", "kind": "human", "level": "normal"}], {"coins_to_win": 5}
    )
    assert st.save(s) is None
    assert json.loads((data_home / "state.json").read_text())["last_variant"] == "2v1"
    config = (data_home / "config.toml").read_text()
    assert 'theme = "nord"' in config and 'ai_pace = "slow"' in config
    assert "[sort]" in config and 'twos = "suit"' in config
    assert "Sam" not in config  # (the picker's records are not the person's settings)
    back = st.load()
    assert back == s
    assert back.choice_for("2v1").options == {"coins_to_win": 5}


def test_written_atomically(data_home, monkeypatch):
    """Each file is written next to the old one and swapped in with os.replace."""
    calls = []
    real = os.replace

    def spy(src, dst):
        calls.append((str(src), str(dst)))
        text = Path(src).read_text(encoding="utf-8")
        assert "instant" in text if dst.name == "config.toml" else "twos" in text
        return real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert st.save(st.Settings(ai_pace="instant", last_variant="twos")) is None
    assert [Path(dst).name for _, dst in calls] == ["state.json", "config.toml"]
    assert not list(data_home.glob("*.tmp"))


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        json.dumps({"ai_pace": "warp", "sort": {"twos": "colour"}, "picker": {"x": 3}}),
    ],
)
def test_damaged_or_strange_records_give_defaults(data_home, content):
    (data_home / "state.json").write_text(content, encoding="utf-8")
    s = st.load()
    assert s.ai_pace == "normal"
    assert s.sort == {}
    assert all(isinstance(c, st.PickerChoice) for c in s.picker.values())


def test_an_unwritable_place_is_reported_not_raised(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("TWOS_TUI_HOME", str(blocker / "inside"))
    problem = st.save(st.Settings())
    assert problem is not None and problem.startswith("Settings not saved")


@pytest.mark.slow
async def test_sort_choice_is_kept_per_game(data_home):
    from ui_helpers import wait_for_human

    from twos_tui.ui.app import make_app

    app = make_app("twos", seed=2, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        assert screen.sort_by == "rank"
        await pilot.press("s")
    assert st.load().sort == {"twos": "suit"}
    app = make_app("twos", seed=3, ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_human(pilot)
        assert screen.sort_by == "suit"
