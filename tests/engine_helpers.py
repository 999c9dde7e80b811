"""Helpers shared by the engine tests."""

import json

import pytest

from twos_tui.engine import IllegalAction


def state(g) -> str:
    """The whole state of a game as canonical JSON text."""
    return json.dumps(g.to_json(), sort_keys=True)


def refused(g, seat, action, *words):
    """``action`` is refused with a reason naming ``words`` and changes nothing."""
    before = state(g)
    reason = g.check(seat, action)
    assert reason is not None
    for w in words:
        assert w.lower() in reason.lower(), reason
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert state(g) == before
    return reason
