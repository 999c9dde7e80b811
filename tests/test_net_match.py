"""Whole matches of every game with remote bot seats, over a real server on 127.0.0.1."""

from __future__ import annotations

import pytest
from net_helpers import SHORT, live_server, play_match, remote_table

#: the long ones (15 deals or so, each move saved to disk) run with the slow tests
LONG = ("big-two", "chinese-poker")


@pytest.mark.parametrize(
    "variant",
    [pytest.param(v, marks=pytest.mark.slow) if v in LONG else v for v in sorted(SHORT)],
)
async def test_whole_match_with_remote_bots(variant: str) -> None:
    async with live_server() as server:
        table = server.add(remote_table(variant, seed=7))
        finals = await play_match(server, table)
        g = table.game
        assert g.match_over
        for st in finals:
            assert st.match_over
            assert list(st.totals) == g.totals
            assert st.n == len(g.actions)
        # the host's save holds the same match
        assert table.session.to_json()["game"]["actions"] == [[s, a] for s, a in g.actions]
