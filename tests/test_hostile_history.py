"""Issue 19, items 4-9: the history database and its pending spool answer every kind of
damage with a reason and lose nothing; a property test over random damage."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history_stats import A, deal

from twos_tui.cli import main
from twos_tui.play import history


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    getattr(history, "take_notices", list)()
    yield tmp_path
    history.RECORDER.flush()


def fill(home, n: int = 3, names=None) -> None:
    """A history with ``n`` deals (one game)."""
    conn = history.open_history(home / "history.sqlite3")
    seats = [dict(s) for s in A]
    if names:
        for s, name in zip(seats, names, strict=False):
            s["name"] = name
    for i in range(1, n + 1):
        history.write_record(conn, deal("G", seats, i, [0], [0, 1, 2, 3], over=i == n))
    conn.close()


def pend(home, key: str = "P") -> None:
    """One finished deal waiting in the spool."""
    history.spool(deal(key, A, 1, [1], [1, 0, 2, 3]), home / "history-pending")


def deals_in(home) -> set[str]:
    c = sqlite3.connect(home / "history.sqlite3")
    try:
        return {r[0] for r in c.execute("SELECT m.match_key FROM matches m")}
    finally:
        c.close()


def _fifo(path):
    os.mkfifo(path)


DAMAGE = {
    "garbage": lambda p: p.write_bytes(os.urandom(4096)),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:1500]),
    "zeroed header": lambda p: p.write_bytes(b"\0" * 100 + p.read_bytes()[100:]),
    "folder": lambda p: (p.unlink(), p.mkdir()),
    "fifo": lambda p: (p.unlink(), _fifo(p)),
    "link to /dev/zero": lambda p: (p.unlink(), p.symlink_to("/dev/zero")),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_history_is_set_aside_replayed_and_said_once(data_home, capsys, kind):
    fill(data_home, 40)
    path = data_home / "history.sqlite3"
    for extra in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (data_home / f"history.sqlite3{extra}").unlink()
    DAMAGE[kind](path)
    pend(data_home)
    assert main(["stats"]) == 0
    err = capsys.readouterr().err
    assert err.count("moved to") == 1 and "new history" in err
    # a fresh database, the spool replayed into it, the damaged one kept aside
    assert path.is_file() and not path.is_symlink()
    assert deals_in(data_home) == {"P"}
    assert len(list((data_home / "history-damaged").iterdir())) >= 1
    assert main(["stats"]) == 0
    assert "moved to" not in capsys.readouterr().err  # said once


def test_the_app_recorder_recovers_a_damaged_history(data_home):
    fill(data_home)
    (data_home / "history.sqlite3").write_bytes(b"garbage " * 1000)
    rec = history.Recorder()
    said: list[str] = []
    rec.on_error = said.append
    rec.submit(deal("R", A, 1, [0], [0, 1, 1, 1]), data_home / "history.sqlite3")
    assert rec.flush(timeout=30)
    rec.close()
    assert deals_in(data_home) == {"R"}
    assert rec.error is None and len(said) == 1 and "moved to" in said[0]


def damage_rows(home) -> None:
    c = sqlite3.connect(home / "history.sqlite3", isolation_level=None)
    c.execute("UPDATE deals SET summary = X'FFFE41' WHERE deal_number = 1")
    c.execute("UPDATE deals SET changes = '{not json' WHERE deal_number = 2")
    c.execute("UPDATE deals SET actions = 'x' WHERE deal_number = 3")
    c.execute("UPDATE deals SET started = 'soon' WHERE deal_number = 4")
    c.execute("UPDATE results SET change = 'lots' WHERE rowid = 1")
    c.execute("UPDATE results SET won = X'00' WHERE rowid = 2")
    c.execute("UPDATE matches SET names = '[[[[1]]]]' WHERE match_key = 'H'")
    c.close()


def test_every_reader_skips_and_counts_bad_rows(data_home, capsys):
    fill(data_home, 6)
    conn = history.open_history()
    history.write_record(conn, deal("H", A, 1, [0], [0, 1, 1, 1]))
    conn.close()
    damage_rows(data_home)
    assert main(["stats"]) == 0
    out = capsys.readouterr()
    assert "damaged row" in out.out
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["damaged_rows_skipped"] >= 2
    assert main(["export", "csv"]) == 0
    out = capsys.readouterr()
    assert len(out.out.strip().splitlines()) >= 3
    assert "damaged rows of the history skipped" in out.err
    assert main(["export", "log", "1"]) == 0
    out = capsys.readouterr()
    assert "Deal 5" in out.out and "skipped" in out.err
    for args in (["export", "log", "2"], ["replay", "1"]):
        assert main(args) in (0, 1, 2)
        assert "Traceback" not in capsys.readouterr().err


ESC = "\x1b]2;owned\x07\x1b[2J\x9b31m"


def test_escape_codes_stored_in_the_history_never_reach_stdout(data_home, capsys):
    fill(data_home, 2, names=[f"Ann{ESC}", f"B{ESC}"])
    c = sqlite3.connect(data_home / "history.sqlite3", isolation_level=None)
    c.execute("UPDATE deals SET summary = ?, details = ?", (f"won{ESC}", json.dumps([ESC])))
    c.execute("UPDATE results SET player = ?", (f"Ann{ESC}",))
    c.close()
    for args in (["stats"], ["stats", "--json"], ["export", "csv"], ["export", "log", "1"]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "Ann" in out
        assert not any(ch in out for ch in "\x1b\x07\x9b"), args


def test_hostile_spool_entries_are_set_aside_quickly(data_home):
    fill(data_home, 1)
    pending = data_home / "history-pending"
    pending.mkdir()
    (pending / "0-zero.json").symlink_to("/dev/zero")
    os.mkfifo(pending / "1-fifo.json")
    (pending / "2-deep.json").write_text("[" * 200_000 + "]" * 200_000)
    (pending / "3-huge.json").write_bytes(b" " * (history.MAX_PENDING_BYTES + 1))
    (pending / "4-folder.json").mkdir()
    (pending / "5-deep-object.json").write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
    pend(data_home)
    t = time.monotonic()
    conn = history.open_history()
    took = time.monotonic() - t
    conn.close()
    assert took < 5
    assert deals_in(data_home) == {"G", "P"}
    left = sorted(p.name for p in pending.iterdir())
    assert not [n for n in left if n.endswith(".json")]
    assert len([n for n in left if n.endswith(".damaged")]) == 6
    assert main(["stats"]) == 0


def test_a_locked_history_holds_nothing_for_long(data_home, capsys):
    fill(data_home, 1)
    pend(data_home)
    path = data_home / "history.sqlite3"
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        t = time.monotonic()
        assert main(["stats"]) == 0  # the figures read; the spool waits
        assert time.monotonic() - t < 3.5
        rec = history.Recorder()
        t = time.monotonic()
        rec.submit(deal("L", A, 1, [0], [0, 1, 1, 1]), path)
        assert rec.flush(timeout=30)
        assert time.monotonic() - t < 4.0
        rec.close()
        assert "kept to be written later" in (rec.error or "")
    finally:
        locker.execute("COMMIT")
        locker.close()
    conn = history.open_history()
    conn.close()
    assert deals_in(data_home) == {"G", "P", "L"}


class Chunks(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, s: str) -> int:
        self.writes += 1
        return super().write(s)


def test_export_csv_is_streamed_with_progress_on_a_terminal(data_home, capsys, monkeypatch):
    from twos_tui.play.replay import write_csv

    fill(data_home, 30)
    conn = history.open_history()
    out = Chunks()
    seen: list[tuple[int, int]] = []
    assert write_csv(conn, out, lambda d, t: seen.append((d, t)), every=10) == 30
    conn.close()
    assert out.writes >= 31 and seen == [(10, 30), (20, 30), (30, 30), (30, 30)]
    assert main(["export", "csv"]) == 0
    assert "Exporting" not in capsys.readouterr().err  # not a terminal: no progress
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert main(["export", "csv"]) == 0
    assert "Exporting… 30 of 30 deals" in capsys.readouterr().err


# ----- the property test ------------------------------------------------------------------
FILE_KINDS = st.sampled_from(["bytes", "truncate", "zero", "folder", "fifo", "devzero", "none"])
SPOOL_KINDS = st.sampled_from(["good", "garbage", "deep", "fifo", "devzero", "folder", "huge"])


def damage_file(path, kind: str, data: st.DataObject) -> None:
    size = path.stat().st_size
    if kind == "bytes":
        with open(path, "r+b") as f:
            for _ in range(data.draw(st.integers(1, 8))):
                f.seek(data.draw(st.integers(0, max(0, size - 1))))
                f.write(data.draw(st.binary(min_size=1, max_size=64)))
    elif kind == "truncate":
        os.truncate(path, data.draw(st.integers(0, size)))
    elif kind == "zero":
        with open(path, "r+b") as f:
            f.write(b"\0" * 100)
    elif kind in ("folder", "fifo", "devzero"):
        path.unlink()
        if kind == "folder":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")


def add_spool(folder, i: int, kind: str, data: st.DataObject) -> str | None:
    """A spool entry; the match key of a good one."""
    folder.mkdir(exist_ok=True)
    path = folder / f"{i}-x.json"
    if kind == "good":
        history.spool(deal(f"S{i}", A, 1, [0], [0, 1, 1, 1]), folder)
        return f"S{i}"
    if kind == "garbage":
        path.write_bytes(data.draw(st.binary(max_size=200)))
    elif kind == "deep":
        path.write_text("[" * 5000 + "]" * 5000)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "devzero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge":
        path.write_bytes(b"[" + b" " * (history.MAX_PENDING_BYTES + 10) + b"]")
    return None


def kept_keys(home) -> set[str]:
    """The match keys found in the database, in set-aside databases and in kept spool
    files (every finished deal must be in one of them)."""
    keys: set[str] = set()
    dbs = [home / "history.sqlite3"] + list((home / "history-damaged").glob("*.sqlite3*"))
    for db in dbs:
        if not db.is_file() or db.is_symlink() or db.name.endswith(("-wal", "-shm")):
            continue
        with contextlib.suppress(sqlite3.Error):
            c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                keys |= {r[0] for r in c.execute("SELECT match_key FROM matches")}
            finally:
                c.close()
    for p in (home / "history-pending").glob("*"):
        if p.is_file() and not p.is_symlink() and p.stat().st_size < 1 << 20:
            with contextlib.suppress(ValueError, UnicodeDecodeError, RecursionError):
                rec = json.loads(p.read_text())
                if isinstance(rec, dict):
                    keys.add(rec.get("match_key"))
    return keys


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), file_kind=FILE_KINDS, spool_kinds=st.lists(SPOOL_KINDS, max_size=4))
def test_random_damage_never_crashes_and_loses_no_deal(
    tmp_path_factory, data, file_kind, spool_kinds
):
    home = tmp_path_factory.mktemp("h")
    os.environ["TWOS_TUI_HOME"] = str(home)
    getattr(history, "take_notices", list)()
    fill(home, 8)
    for extra in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (home / f"history.sqlite3{extra}").unlink()
    damage_file(home / "history.sqlite3", file_kind, data)
    expected = set() if file_kind == "none" else set()
    for i, kind in enumerate(spool_kinds):
        key = add_spool(home / "history-pending", i, kind, data)
        if key:
            expected.add(key)
    # the readers: never a crash (0: figures; 1 or 2: a reason on stderr)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        for args in (["stats"], ["stats", "--json"], ["export", "csv"], ["export", "log", "1"]):
            assert main(args) in (0, 1, 2), args
    assert "Traceback" not in err.getvalue()
    # play: a finished deal through the app's recorder
    rec = history.Recorder()
    rec.submit(deal("PLAY", A, 1, [0], [0, 1, 1, 1]), home / "history.sqlite3")
    assert rec.flush(timeout=60)
    rec.close()
    expected.add("PLAY")
    assert expected <= kept_keys(home)


async def test_the_stats_screen_says_what_it_skipped_and_what_it_set_aside(data_home):
    from test_ui_stats import stats_ready
    from textual.widgets import Static

    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.stats import StatsScreen

    fill(data_home, 6, names=[f"Ann{ESC}"])
    damage_rows(data_home)
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await stats_ready(pilot, app)
        assert isinstance(app.screen, StatsScreen)
        shown = str(app.screen.query_one("#stats-figures", Static).render())
        assert "damaged row" in shown and "Ann" in shown and "\x1b" not in shown
        await pilot.press("escape")
        await pilot.pause()
    (data_home / "history.sqlite3").write_bytes(b"\0" * 5000)
    for extra in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (data_home / f"history.sqlite3{extra}").unlink()
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await stats_ready(pilot, app)
        assert isinstance(app.screen, StatsScreen)
        notes = [str(n.message) for n in app._notifications]
        assert any("moved to" in n for n in notes)
        assert "cannot be read" not in str(app.screen.query_one("#stats-figures", Static).render())
