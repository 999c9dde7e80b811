"""Hints asked are kept with the game: a resumed deal's summary still counts them."""

from __future__ import annotations

import json

import pytest

from twos_tui.play.saves import SaveError
from twos_tui.play.session import Session, default_seats


def _round_trip(session: Session, **changes) -> Session:
    data = json.loads(json.dumps(session.to_json()))
    data.update(changes)
    return Session.from_json(data, autosave=False)


def test_hint_counts_survive_a_save_and_resume():
    s = Session.start("twos", default_seats(3), seed=5, autosave=False)
    s.count_hint(0)
    s.count_hint(0)
    assert s.hints_this_deal() == {"Player 1": 2}
    back = _round_trip(s)
    assert back.hints == {(s.game.deal_number, 0): 2}
    assert back.hints_this_deal() == {"Player 1": 2}


def test_bad_hint_entries_are_refused_with_the_reason():
    # issue 19 item 12: the save's fields are checked as strictly as the game state
    s = Session.start("twos", default_seats(3), seed=5, autosave=False)
    deal = s.game.deal_number
    assert _round_trip(s, hints=[[deal, 0, 3]]).hints == {(deal, 0): 3}
    for bad in ([deal, 9, 1], [deal, 1, -2], ["x", 0, 1], [deal, 1], {"a": 1}, 7):
        with pytest.raises(SaveError, match="hint counts are damaged"):
            _round_trip(s, hints=[[deal, 0, 3], bad])
    with pytest.raises(SaveError, match="hint counts are damaged"):
        _round_trip(s, hints="nonsense")
    assert _round_trip(s, hints=None).hints == {}
