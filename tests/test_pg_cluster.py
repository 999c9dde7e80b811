"""The throwaway PostgreSQL cluster the lobby's PostgreSQL tests use (``tools/pg_cluster.py``,
the ``pg_cluster``/``pg_dsn`` fixtures): it starts, a test gets a database of its own, and
the mechanism the lobby servers share their changes by (``LISTEN``/``NOTIFY``) carries a
message from one connection to another."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

psycopg = pytest.importorskip(
    "psycopg", reason="psycopg is not installed: the PostgreSQL tests are skipped"
)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))


def test_each_test_gets_an_empty_database_of_its_own(pg_dsn):
    with psycopg.connect(pg_dsn) as c:
        tables = c.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
        assert tables == (0,)
        c.execute("CREATE TABLE t (x int)")


def test_a_notify_reaches_a_listening_connection(pg_dsn):
    with (
        psycopg.connect(pg_dsn, autocommit=True) as listener,
        psycopg.connect(pg_dsn, autocommit=True) as talker,
    ):
        listener.execute("LISTEN lobby")
        talker.execute("SELECT pg_notify('lobby', 'table t1 changed')")
        got = [n.payload for n in listener.notifies(timeout=30, stop_after=1)]
        assert got == ["table t1 changed"]


def test_why_not_names_the_missing_programs(monkeypatch):
    import pg_cluster

    monkeypatch.setattr(pg_cluster, "bin_dir", lambda: None)
    assert pg_cluster.why_not() == (
        "PostgreSQL is not installed here (no initdb): the PostgreSQL tests are skipped"
    )
    with pytest.raises(RuntimeError, match="not installed"):
        pg_cluster.Cluster()
