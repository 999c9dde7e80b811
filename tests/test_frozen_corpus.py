"""The frozen behaviour corpus (issue 28): today's engines, recorded position by position
by ``tools/record_corpus.py``, must be what this code does, exactly; and the save files
today's app wrote (``tests/corpus/saves/``) load and play on to the end of their match.

The quick loop replays a sample (the matches kept whole and the shortest matches of each
variant); the whole corpus runs in the slow suite. Re-recording is for an intended change
of behaviour only (CONTRIBUTING.md, "The frozen behaviour corpus")."""

from __future__ import annotations

import copy
import json
import random
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import record_corpus_tool

from twos_tui.engine import VARIANT_IDS, variant_class

ROOT = Path(__file__).resolve().parent.parent
SAVES = ROOT / "tests" / "corpus" / "saves"


_tool = record_corpus_tool


rc = _tool()


@cache
def corpus() -> dict[str, Any]:
    data: dict[str, Any] = rc.load_corpus()
    return data


def _length(entry: dict[str, Any]) -> int:
    return len(entry["positions"]) - 1 if entry["full"] else len(entry["actions"])


def sample(variant: str) -> list[dict[str, Any]]:
    """The quick loop's matches of ``variant``: those kept whole and its two shortest."""
    ms = [m for m in corpus()["matches"] if m["variant"] == variant]
    full = [m for m in ms if m["full"]]
    short = sorted((m for m in ms if not m["full"]), key=_length)[:2]
    return full + short


def replay(matches: list[dict[str, Any]]) -> list[str]:
    return [str(m) for m in map(rc.replay_match, matches) if m is not None]


# ----- what the corpus holds --------------------------------------------------------------
def test_the_corpus_covers_every_variant_count_and_house_rule() -> None:
    data = corpus()
    assert data["format"] == rc.FORMAT and data["items"] == list(rc.ITEMS)
    for variant in VARIANT_IDS:
        cls = variant_class(variant)
        ms = [m for m in data["matches"] if m["variant"] == variant]
        assert len(ms) >= rc.MIN_MATCHES, variant
        assert sum(m["full"] for m in ms) == rc.FULL_PER_VARIANT, variant
        assert {m["players"] for m in ms} == set(cls.player_counts), variant
        for players in cls.player_counts:
            at = [m for m in ms if m["players"] == players]
            for spec in cls.option_specs(players):
                played = {rc.canonical(m["options"][spec.id]) for m in at}
                if spec.id in rc.SHORTEST:  # a match length: each value once per variant
                    played = {rc.canonical(m["options"][spec.id]) for m in ms}
                for value, _ in spec.choices:
                    assert rc.canonical(value) in played, (variant, players, spec.id, value)
        # the slow suite's parts hold every match once
        assert sorted(m["id"] for p in parts(variant) for m in p) == sorted(m["id"] for m in ms)
        # every match ended: its last move closed the match
        for m in ms:
            last = m["positions"][-1]["action"] if m["full"] else m["actions"][-1]
            assert last == "end", m["id"]


def test_an_options_value_counts_where_it_is_played() -> None:
    """Twos' deals to win are played in matches scored by deals, its penalty deals in
    matches scored by penalty, the trick game's target score in matches played to it."""
    for oid, (other, value) in rc.ONLY_WHEN.items():
        ms = [m for m in corpus()["matches"] if oid in m["options"]]
        assert ms
        counted = {rc.canonical(m["options"][oid]) for m in ms if m["options"][other] == value}
        variant = ms[0]["variant"]
        spec = next(s for s in variant_class(variant).option_specs(ms[0]["players"]) if s.id == oid)
        assert counted == {rc.canonical(v) for v, _ in spec.choices}, oid


# ----- replay ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_sample_of_the_corpus_replays_exactly(variant: str) -> None:
    assert replay(sample(variant)) == []


#: the whole corpus runs in this many parts per variant (the suite's workers share them)
PARTS = 4


def parts(variant: str) -> list[list[dict[str, Any]]]:
    """The matches of ``variant`` in :data:`PARTS` parts of about the same cost (a
    position costs time in proportion to the match so far: a match, its length squared),
    the longest first, each to the part that costs least so far."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(PARTS)]
    cost = [0] * PARTS
    ms = [m for m in corpus()["matches"] if m["variant"] == variant]
    for m in sorted(ms, key=lambda m: (-_length(m), m["id"])):
        i = cost.index(min(cost))
        out[i].append(m)
        cost[i] += _length(m) ** 2
    return out


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_the_whole_corpus_replays_exactly(variant: str, part: int) -> None:
    ms = parts(variant)[part]
    assert ms
    assert replay(ms) == []


def _full_match(variant: str = "big-two") -> dict[str, Any]:
    return next(m for m in corpus()["matches"] if m["variant"] == variant and m["full"])


def test_a_changed_reason_in_a_whole_record_is_found_at_its_place() -> None:
    entry = copy.deepcopy(_full_match())
    pos = next(i for i, p in enumerate(entry["positions"]) if i >= 5 and p["illegal"])
    entry["positions"][pos]["illegal"][0][2] = "A reason nobody gives."
    m = rc.replay_match(entry)
    assert m is not None
    assert (m.match, m.position, m.item) == (entry["id"], pos, "illegal")
    assert m.detail.startswith('[0][2]: recorded "A reason nobody gives.", now ')


def test_a_changed_digest_is_found_at_its_place() -> None:
    entry = copy.deepcopy(next(m for m in corpus()["matches"] if not m["full"]))
    pos = len(entry["digests"]) // 2
    width = 2 * rc.DIGEST_BYTES
    at = rc.ITEMS.index("observations") * width
    d = entry["digests"][pos - 1]
    entry["digests"][pos - 1] = d[:at] + ("0" if d[at] != "0" else "1") + d[at + 1 :]
    m = rc.replay_match(entry)
    assert m is not None
    assert (m.match, m.position, m.item) == (entry["id"], pos, "observations")


def test_an_engine_that_drops_a_legal_action_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Behaviour changed in the engine (one legal action fewer where there are several):
    the replay names the first such position and the item."""
    entry = _full_match("twos")
    cls = variant_class("twos")
    real = cls.legal_actions

    def fewer(self: Any, seat: int) -> Any:
        out = real(self, seat)
        return out[:-1] if len(out) > 1 else out

    monkeypatch.setattr(cls, "legal_actions", fewer)
    want = next(
        i
        for i, p in enumerate(entry["positions"])
        if i and any(len(legal) > 1 for legal in p["legal"])
    )
    seat = next(s for s, legal in enumerate(entry["positions"][want]["legal"]) if len(legal) > 1)
    m = rc.replay_match(entry)
    assert m is not None
    assert (m.match, m.position, m.item) == (entry["id"], want, "legal")
    assert m.detail.startswith(f"[{seat}]")


def test_a_changed_log_line_is_caught_in_a_digest_match(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = next(m for m in sample("big-two") if not m["full"])
    cls = variant_class("big-two")
    real = cls.log

    def louder(self: Any, text: str, seat: int | None = None, **extra: Any) -> None:
        real(self, text + "!", seat, **extra)

    monkeypatch.setattr(cls, "log", louder)
    m = rc.replay_match(entry)
    assert m is not None and m.match == entry["id"]
    assert m.position == 0 and m.item == "start"  # the deal's first line is logged at once


# ----- saves -----------------------------------------------------------------------------
SAVE_FILES = sorted(p for p in SAVES.glob("*.json") if not p.name.endswith(".table.json"))


def test_the_saves_cover_every_variant_and_hosted_tables() -> None:
    names = [p.stem for p in SAVE_FILES]
    for variant in VARIANT_IDS:
        assert any(n.startswith(f"{variant}-solo") for n in names), variant
        assert f"{variant}-hosted" in names, variant
    assert len(SAVE_FILES) == len(rc.SAVE_CASES) + len(rc.HOSTED_CASES)


def _play_to_the_end(session: Any, rng: random.Random) -> int:
    moves = 0
    g = session.game
    while not g.match_over:
        if g.deal_over and not g.to_act():
            session.next_deal()
            continue
        seat = rng.choice(g.to_act())
        if session.seats[seat].is_ai:
            action = session.ai_choose(seat)
        else:
            action = rng.choice(g.legal_actions(seat))
        session.apply(seat, action)
        moves += 1
        assert moves < 20_000
    return moves


@pytest.mark.parametrize("path", SAVE_FILES, ids=[p.stem for p in SAVE_FILES])
def test_a_save_of_today_loads_and_plays_on_to_the_end(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    from twos_tui.play import saves
    from twos_tui.play.net.server import HostedTable, sidecar_path
    from twos_tui.play.session import Session

    table_file = path.with_name(f"{path.stem}.table.json")
    if table_file.exists():  # a hosted table: its save and its table file, reopened
        side = json.loads(table_file.read_text(encoding="utf-8"))
        sid = side["save_id"]
        saves.saves_dir().mkdir(parents=True)
        shutil.copyfile(path, saves.save_path(sid))
        sidecar_path(sid).parent.mkdir(parents=True)
        shutil.copyfile(table_file, sidecar_path(sid))
        assert HostedTable.find_unfinished() == [sid]
        table = HostedTable.reopen(sid)
        assert table.code == side["code"]
        assert {s: rs.token for s, rs in table.seats.items()} == {
            d["seat"]: d["token"] for d in side["seats"]
        }
        session = table.session
    else:  # a save in the Continue list, resumed as the app does
        saves.saves_dir().mkdir(parents=True)
        shutil.copyfile(path, saves.saves_dir() / path.name)
        (info,) = saves.list_saves()
        assert info.ok, info
        session = Session.resume(info)
    saved = json.loads(path.read_text(encoding="utf-8"))["game"]
    assert len(session.game.actions) == len(saved["actions"])
    # played on without a save after every move (the autosave's cost, not what is tested),
    # then saved as the app saves the end of a match
    session.autosave = False
    assert _play_to_the_end(session, random.Random(path.stem)) > 0
    session.autosave = True
    session.save()
    session.close()
    # the match's end is on disk: it loads again, over
    again = saves.read_save(saves.save_path(session.save_id))
    assert again["game"]["match_over"] is True
    assert again["game"]["actions"][: len(saved["actions"])] == saved["actions"]
