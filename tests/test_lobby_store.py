"""The lobby's store (issue 30): accounts, bans, guests, results, the leaderboard, kept
tables, the file's settings and versions, the operator's texts, and kill -9 twenty times
with nothing acknowledged lost."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from twos_tui.play.lobby import admin
from twos_tui.play.lobby.model import MatchOutcome, TableRecord
from twos_tui.play.lobby.store import (
    DB_FILE,
    SCHEMA_VERSION,
    NameRefused,
    SqliteStore,
    StoreError,
    default_path,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The store, in a SQLite file and in a PostgreSQL database (skipped, saying why,
    where PostgreSQL cannot start): the same logic must hold in both."""
    if request.param == "sqlite":
        with SqliteStore(tmp_path / "lobby.db") as s:
            yield s
    else:
        from twos_tui.play.lobby.store_pg import PostgresStore

        with PostgresStore(request.getfixturevalue("pg_dsn")) as s:
            yield s


@pytest.fixture
def sqlite_store(tmp_path):
    with SqliteStore(tmp_path / "lobby.db") as s:
        yield s


def _four(store, names=("Alice", "Bob", "Carol", "Dora")):
    for n, name in enumerate(names):
        store.claim_name(name, f"SHA256:key-{name}-{n}")
    return list(names)


# --- accounts -----------------------------------------------------------------------------


def test_a_key_claims_a_free_name_and_gets_it_back_later(tmp_path):
    path = tmp_path / "lobby.db"
    with SqliteStore(path) as s:
        a = s.claim_name("Alice", "SHA256:aaa")
        assert (a.name, a.key, a.guest, a.banned) == ("Alice", "SHA256:aaa", False, False)
    with SqliteStore(path) as s:  # reopened: the same account, whatever case is typed
        assert s.claim_name("alice", "SHA256:aaa") == a
        assert s.account_for_key("SHA256:aaa") == a
        assert s.account("Alice") == a
        assert s.account("ALICE") == a  # looked up by what it looks like too
        assert s.account("Nobody") is None
        assert s.account_for_key("SHA256:zzz") is None


def test_a_name_is_not_taken_by_another_key_nor_a_look_alike(store):
    store.claim_name("Alice", "SHA256:aaa")
    with pytest.raises(NameRefused, match="'Alice' is taken"):
        store.claim_name("alice", "SHA256:bbb")
    for lookalike in ("A1ice", "ALlCE", "Al.ice", "Al ice", "Alicé", "Ａｌｉｃｅ"):
        with pytest.raises(NameRefused, match="looks too much like 'Alice'"):
            store.claim_name(lookalike, "SHA256:bbb")
    assert store.account_for_key("SHA256:bbb") is None
    assert store.claim_name("Alicia", "SHA256:bbb").name == "Alicia"


def test_a_key_keeps_one_name(store):
    store.claim_name("Alice", "SHA256:aaa")
    with pytest.raises(NameRefused, match="already plays as 'Alice'"):
        store.claim_name("Zed", "SHA256:aaa")
    assert store.account("Zed") is None


def test_claim_refuses_broken_names_and_bad_keys(store):
    with pytest.raises(NameRefused, match="letters, digits"):
        store.claim_name("bad\x1b[2Jname", "SHA256:aaa")
    with pytest.raises(NameRefused, match="AI players"):
        store.claim_name("Ada", "SHA256:aaa")
    for key in ("", "x" * 500, "SHA256:\x00"):
        with pytest.raises(NameRefused, match="valid key"):
            store.claim_name("Alice", key)


def test_claimed_names_are_tidied(store):
    assert store.claim_name("  Mary   Ann ", "k").name == "Mary Ann"


def test_guests_get_fresh_names_kept_until_dropped(store):
    guests = [store.guest() for _ in range(30)]
    names = [g.name for g in guests]
    assert len(set(names)) == 30
    for g in guests:
        assert g.guest and g.key is None and not g.banned
        assert g.name.startswith("guest-") and g.name[6:].isdigit()
        assert store.account(g.name) == g
    assert store.guest("visitor").name.startswith("visitor-")
    # a player can't take a guest-looking name
    with pytest.raises(NameRefused, match="guests"):
        store.claim_name(names[0], "k")
    assert store.drop_guest(names[0]) is True
    assert store.account(names[0]) is None
    assert store.drop_guest(names[0]) is False
    store.claim_name("Alice", "k")
    assert store.drop_guest("Alice") is False  # only guests are dropped
    assert store.account("Alice") is not None


def test_ban_and_unban(store):
    names = _four(store)
    store.finish_match(
        MatchOutcome("t", "twos", True, 1.0, tuple(zip(names, (1, 2, 3, 4), strict=True)))
    )
    assert [r.name for r in store.leaderboard("twos")][0] == "Alice"
    assert store.ban("alice") is True  # by look-alike, as an operator may type it
    assert store.account("Alice").banned
    assert "Alice" not in [r.name for r in store.leaderboard("twos")]
    assert store.ratings("Alice")[0].rank is None
    # a banned name stays taken, and its key still finds it (the server turns it away)
    with pytest.raises(NameRefused):
        store.claim_name("Alice", "SHA256:other")
    assert store.claim_name("Alice", "SHA256:key-Alice-0").banned
    assert store.unban("Alice") is True
    assert not store.account("Alice").banned
    assert store.ban("Nobody") is False and store.unban("Nobody") is False


# --- results and the leaderboard ------------------------------------------------------------


def test_the_same_match_reported_twice_counts_once(tmp_path):
    path = tmp_path / "lobby.db"
    outcome = MatchOutcome("t1", "big-two", True, 123.5, (("Alice", 2), ("Bob", 1)))
    with SqliteStore(path) as s:
        _four(s)
        first = s.finish_match(outcome)
        rating = s.rating("Alice", "big-two")
    with SqliteStore(path) as s:  # a table reporting again after a restart
        assert s.finish_match(outcome) == first
        assert s.rating("Alice", "big-two") == rating
        assert rating.matches == 1
        assert len(s.recent_results("Alice")) == 1
        assert len(s.matches()) == 1
        # the same table's next match is a new one
        s.finish_match(MatchOutcome("t1", "big-two", True, 200.0, (("Alice", 1), ("Bob", 2))))
        assert s.rating("Alice", "big-two").matches == 2


def test_a_failed_finish_writes_nothing(store, monkeypatch):
    names = _four(store)
    import twos_tui.play.lobby.store as store_mod

    def boom(*a, **k):
        raise RuntimeError("the model failed")

    monkeypatch.setattr(store_mod, "rate", boom)
    with pytest.raises(RuntimeError):
        store.finish_match(
            MatchOutcome("t", "twos", True, 1.0, tuple(zip(names, (1, 2, 3, 4), strict=True)))
        )
    assert store.matches() == ()
    assert store.recent_results("Alice") == ()
    assert store.rating("Alice", "twos").matches == 0


def test_finish_match_refuses_nonsense(store):
    with pytest.raises(ValueError, match="twice"):
        store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("A", 1), ("A", 2))))
    with pytest.raises(ValueError, match="places"):
        store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("A", 0), ("B", 2))))
    with pytest.raises(ValueError, match="left"):
        store.finish_match(MatchOutcome("t", "twos", True, 1.0, (("A", 1),), left=("B",)))
    assert store.matches() == ()


def test_recent_results_newest_first_and_limited(store):
    names = _four(store)
    for i in range(12):
        places = (1, 2, 3, 4) if i % 2 else (4, 3, 2, 1)
        store.finish_match(
            MatchOutcome(f"t{i}", "twos", i < 6, float(i), tuple(zip(names, places, strict=True)))
        )
    recent = store.recent_results("Alice")
    assert len(recent) == 10
    assert [r.when for r in recent] == [float(i) for i in range(11, 1, -1)]
    assert [r.place for r in recent[:2]] == [1, 4]
    assert all(r.rating_change is None for r in recent[:6])  # unrated ones
    assert all(r.rating_change is not None for r in recent[6:])
    assert len(store.recent_results("Alice", limit=3)) == 3
    assert store.recent_results("Nobody") == ()


def test_the_leaderboard_lists_rated_account_holders_best_first(store):
    names = _four(store, ("Alice", "Bob", "Carol", "Dora", "Eve"))
    guest = store.guest()
    for i in range(3):
        store.finish_match(
            MatchOutcome(
                f"t{i}",
                "big-two",
                True,
                float(i),
                (("Alice", 1), ("Bob", 2), ("Carol", 3), (guest.name, 4)),
            )
        )
    store.finish_match(MatchOutcome("u", "big-two", False, 9.0, (("Dora", 1), ("Eve", 2))))
    rows = store.leaderboard("big-two")
    assert [r.name for r in rows] == ["Alice", "Bob", "Carol"]  # no guest, no unrated-only
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[0].rating > rows[1].rating > rows[2].rating
    assert all(r.matches == 3 for r in rows)
    assert [r.name for r in store.leaderboard("big-two", limit=2)] == ["Alice", "Bob"]
    assert store.leaderboard("twos") == ()
    # the rank on the player's own ratings is the place among all, not only the shown rows
    assert [i.rank for i in store.ratings("Carol")] == [3]
    assert store.ratings("Carol")[0].rating == rows[2].rating
    assert names  # (all five claimed)


# --- tables -------------------------------------------------------------------------------


def _rec(table_id, process="a:1", updated=1.0, **kw):
    base = dict(
        table_id=table_id,
        game="twos",
        save_id=f"s-{table_id}",
        public=True,
        rated=True,
        code="ABCD",
        process=process,
        updated=updated,
    )
    base.update(kw)
    return TableRecord(**base)


def test_tables_are_kept_updated_filtered_and_dropped(tmp_path):
    path = tmp_path / "lobby.db"
    with SqliteStore(path) as s:
        s.save_table(_rec("t1", updated=3.0))
        s.save_table(_rec("t2", process="b:2", updated=1.0, public=False))
        s.save_table(_rec("t1", updated=5.0, save_id="s-new"))  # an update, not a second
    with SqliteStore(path) as s:
        assert s.tables() == (
            _rec("t2", process="b:2", updated=1.0, public=False),
            _rec("t1", updated=5.0, save_id="s-new"),
        )
        assert s.tables("a:1") == (_rec("t1", updated=5.0, save_id="s-new"),)
        assert s.tables("c:3") == ()
        s.drop_table("t1")
        s.drop_table("t1")  # again: nothing
        s.drop_table("never")
        assert [t.table_id for t in s.tables()] == ["t2"]


# --- the file -----------------------------------------------------------------------------


def test_the_file_is_wal_synchronous_full_and_versioned(sqlite_store):
    store = sqlite_store
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert [tuple(r) for r in conn.execute("SELECT version FROM schema_version")] == [
        (SCHEMA_VERSION,)
    ]
    assert store.integrity_check() == "ok"


def test_the_default_file_is_in_the_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / DB_FILE
    with SqliteStore() as s:
        s.claim_name("Alice", "k")
    assert (tmp_path / "home" / DB_FILE).is_file()


def test_a_newer_schema_or_a_non_database_is_refused_plainly(tmp_path):
    path = tmp_path / "lobby.db"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer twos-tui"):
        SqliteStore(path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a lobby database"):
        SqliteStore(junk)


def test_close_twice_and_reopen(tmp_path):
    path = tmp_path / "lobby.db"
    s = SqliteStore(path)
    s.claim_name("Alice", "k")
    s.close()
    s.close()
    with SqliteStore(path) as again:
        assert again.account("Alice") is not None


def test_a_store_is_used_from_the_thread_that_opened_it(sqlite_store):
    store = sqlite_store
    errors = []

    def other():
        try:
            store.account("Alice")
        except sqlite3.ProgrammingError as e:
            errors.append(e)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert len(errors) == 1


def test_two_stores_on_one_file_see_each_others_writes(tmp_path):
    """The operator's ``server ban`` opens the file while the server holds it."""
    path = tmp_path / "lobby.db"
    with SqliteStore(path) as server, SqliteStore(path) as operator:
        server.claim_name("Alice", "k")
        assert operator.ban("Alice")
        assert server.account("Alice").banned


# --- the operator's texts -----------------------------------------------------------------


def test_leaderboard_text(store):
    names = _four(store)
    store.finish_match(
        MatchOutcome("t", "twos", True, 1.0, tuple(zip(names, (1, 2, 3, 4), strict=True)))
    )
    text = admin.leaderboard_text(store, "twos", 20)
    lines = text.splitlines()
    assert lines[0] == "twos:"
    assert lines[1].split() == ["#", "name", "rating", "matches"]
    first = store.leaderboard("twos")[0]
    assert lines[2].split() == ["1.", "Alice", f"{first.rating:.0f}", "1"]
    # numbers are right-aligned under their headings
    shown = f"{first.rating:.0f}"
    assert lines[1].index("rating") + 6 == lines[2].index(shown) + len(shown)
    assert lines[1].endswith("matches") and lines[2].endswith("      1")
    assert len(lines) == 6
    everything = admin.leaderboard_text(store, None, 20)
    assert "big-two:\n  no rated matches yet" in everything
    assert "twos-tricks:" in everything and "  1.  Alice" in everything
    assert len(admin.leaderboard_text(store, "twos", 2).splitlines()) == 4


def test_tables_text(store):
    assert admin.tables_text(store) == "No tables are open."
    store.save_table(_rec("t1", updated=1000.0))
    store.save_table(_rec("t2", process="b:2", updated=1100.0, public=False, rated=False))
    text = admin.tables_text(store, now=1130.0)
    lines = text.splitlines()
    assert lines[0] == "2 tables open:"
    assert lines[1].split() == ["table", "game", "access", "rated", "process", "last", "saved"]
    assert lines[2].split() == ["t1", "twos", "public", "rated", "a:1", "2", "min", "ago"]
    assert lines[3].split() == ["t2", "twos", "private", "unrated", "b:2", "30", "s", "ago"]
    assert "ABCD" not in text  # join codes stay secret


def test_ban_text(store):
    store.claim_name("Alice", "k")
    g = store.guest()
    assert admin.ban_text(store, "Nobody") == "No player is called 'Nobody'; nobody was banned."
    assert admin.ban_text(store, "alice").startswith("Banned the player 'Alice'")
    assert store.account("Alice").banned
    assert admin.ban_text(store, "Alice") == "'Alice' was already banned."
    assert admin.ban_text(store, g.name).startswith(f"Banned the guest '{g.name}'")


# --- kill -9, twenty times --------------------------------------------------------------------

#: the child: claims eight names, then loops over rated 4-player matches (one seat an AI
#: every third, a leaver every fifth), saving each match's table and dropping every other,
#: printing an acknowledgement after each commit
CHILD = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from twos_tui.play.lobby.model import MatchOutcome, TableRecord
    from twos_tui.play.lobby.store import SqliteStore

    NAMES = ["Ann", "Ben", "Cat", "Dan", "Eli", "Fay", "Gus", "Hal"]
    store = SqliteStore(Path(sys.argv[1]))
    for n, name in enumerate(NAMES):
        store.claim_name(name, f"key{n}")
    i = int(sys.argv[2])
    print("ready", flush=True)
    while True:
        seated = [NAMES[(i * 3 + k * (1 + i % 3)) % 8] for k in range(4)]
        seated = list(dict.fromkeys(seated)) + [None] * 4
        seated = seated[:4]
        if i % 3 == 0:
            seated[i % 4] = None
        order = [(i + k * 3) % 4 + 1 for k in range(4)]
        levels = tuple(("easy", "normal", "hard")[i % 3] if s is None else None for s in seated)
        left = (seated[1],) if i % 5 == 0 and seated[1] is not None else ()
        out = store.finish_match(
            MatchOutcome(f"m{i}", "big-two", True, float(i), tuple(zip(seated, order)),
                         left=left, ai_levels=levels)
        )
        print("match", i, json.dumps(out), flush=True)
        store.save_table(TableRecord(f"t{i}", "big-two", f"s{i}", True, True, "C", "p:1", float(i)))
        print("save", i, flush=True)
        if i % 2:
            store.drop_table(f"t{i - 1}")
            print("drop", i - 1, flush=True)
        i += 1
    """
)


def _next_op(op):
    """The write the child does after ``op`` (an acknowledgement's words)."""
    kind, i = op
    if kind == "match":
        return ("save", i)
    if kind == "save" and i % 2:
        return ("drop", i - 1)
    return ("match", i + 1 if kind == "save" else i + 2)


def _apply(tables, op):
    kind, i = op
    if kind == "save":
        return tables | {f"t{i}"}
    if kind == "drop":
        return tables - {f"t{i}"}
    return tables


def test_kill_9_twenty_times_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / "lobby.db"
    replay_path = tmp_path / "replay.db"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    tables: set[str] = set()
    replayed = 0
    acked_changes: dict[int, dict] = {}
    with SqliteStore(replay_path) as replay:
        for n, name in enumerate(["Ann", "Ben", "Cat", "Dan", "Eli", "Fay", "Gus", "Hal"]):
            replay.claim_name(name, f"key{n}")
        for round_no in range(20):
            with SqliteStore(path) as s:
                start = len(s.matches()) if path.exists() else 0
            err = (tmp_path / f"child{round_no}.err").open("w")
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(path), str(start)],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                env=env,
            )
            lines: list[str] = []
            try:
                first = child.stdout.readline()
                assert first == "ready\n", (tmp_path / f"child{round_no}.err").read_text()
                acks = (round_no * 7) % 23 + 1  # 1 to 23 acknowledgements, then kill
                lines += [child.stdout.readline() for _ in range(acks)]
            finally:
                os.kill(child.pid, signal.SIGKILL)
                child.wait()
                # what it acknowledged between our last read and the kill counts too; a
                # line cut short by the kill is not an acknowledgement
                lines += child.stdout.read().splitlines(keepends=True)
                child.stdout.close()
                err.close()
            last = None
            for line in lines:
                if not line.endswith("\n"):
                    break
                words = line.split(" ", 2)
                op = (words[0], int(words[1]))
                if op[0] == "match":
                    acked_changes[op[1]] = json.loads(words[2])
                tables = _apply(tables, op)
                last = op
            assert child.returncode == -signal.SIGKILL
            with SqliteStore(path) as s:
                assert s.integrity_check() == "ok"
                stored = s.matches()
                # every acknowledged match is there, at most the one in flight besides
                assert [m.table_id for m in stored] == [f"m{i}" for i in range(len(stored))]
                acked_max = max(acked_changes)
                in_flight = _next_op(last)
                allowed = {acked_max + 1} | ({acked_max + 2} if in_flight[0] == "match" else set())
                assert len(stored) in allowed
                # the tables: what was acknowledged, or that and the write in flight
                kept = {t.table_id for t in s.tables()}
                assert kept in (tables, _apply(tables, in_flight))
                tables = kept
                # ratings: a replay of the recorded matches gives exactly what is stored,
                # and each acknowledged match's changes are what the replay returns
                for m in stored[replayed:]:
                    again = replay.finish_match(m)
                    i = int(m.table_id[1:])
                    if i in acked_changes:
                        assert {k: list(v) for k, v in again.items()} == acked_changes[i]
                replayed = len(stored)
                for name in ["Ann", "Ben", "Cat", "Dan", "Eli", "Fay", "Gus", "Hal"]:
                    assert s.rating(name, "big-two") == replay.rating(name, "big-two")
                    assert s.recent_results(name, 1000) == replay.recent_results(name, 1000)
                assert s.leaderboard("big-two") == replay.leaderboard("big-two")
    assert replayed >= 20
