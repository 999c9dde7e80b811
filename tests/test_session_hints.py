"""Hints asked are kept with the game: a resumed deal's summary still counts them."""

from __future__ import annotations

import json

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


def test_bad_hint_entries_are_left_out_not_fatal():
    s = Session.start("twos", default_seats(3), seed=5, autosave=False)
    deal = s.game.deal_number
    bad = [[deal, 0, 3], [deal, 9, 1], [deal, 1, -2], ["x", 0, 1], [deal, 1], {"a": 1}, 7]
    back = _round_trip(s, hints=bad)
    assert back.hints == {(deal, 0): 3}
    assert _round_trip(s, hints="nonsense").hints == {}
    assert _round_trip(s, hints=None).hints == {}
