"""The app's own files read at the door into their types (issue 28): a history record
waiting in the pending folder, a lock file's owner, a save's clock, a replayed deal's
recorded moves, a lesson's moves. What was accepted before is accepted the same; a
record of the wrong shape is kept apart instead of being written."""

from __future__ import annotations

import json
import os
import random

import pytest
from test_history_stats import A, deal, undo

from twos_tui.engine import Action
from twos_tui.play import history, locks, saves
from twos_tui.play.history import HistoryError
from twos_tui.play.lessons import LessonError, parse_lesson
from twos_tui.play.replay import DealReplay, load_replay
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    history.RECORDER.flush()


def finished_deal(monkeypatch) -> tuple[Session, list[history.HistoryRecord]]:
    """A Big Two deal played to its end (seat 0 at random, the AI at its level), with the
    records the table handed to the recorder."""
    handed: list[history.HistoryRecord] = []
    monkeypatch.setattr(history.RECORDER, "submit", lambda rec, path=None: handed.append(rec))
    seats = [SeatConfig("Ann", HUMAN)] + [SeatConfig(f"Bot{i}", AI, "easy") for i in (1, 2, 3)]
    s = Session.start("big-two", seats, seed=11, autosave=False)
    s.record_history = True
    rng = random.Random(5)
    while not s.game.deal_over:
        seat = s.game.to_act()[0]
        if s.seats[seat].is_ai:
            action = s.ai_choose(seat)
        else:
            action = rng.choice(s.game.legal_actions(seat))
        s.apply(seat, action)
    return s, handed


# ----- history records ----------------------------------------------------------------------
def test_the_tables_record_survives_the_pending_folder_whole(monkeypatch):
    s, handed = finished_deal(monkeypatch)
    (rec,) = handed
    assert rec["type"] == "deal" and rec["players"] == 4 and rec["names"][0] == "Ann"
    back = json.loads(json.dumps(rec))
    assert history.history_record(back) == back  # accepted as it is, nothing dropped
    assert back["actions"] == [[seat, a] for seat, a in s.game.actions]
    assert history.history_record(json.loads(json.dumps(undo("K", 1))))["type"] == "undo"


@pytest.mark.parametrize(
    "damage",
    [
        ("names", [1, 2, 3, 4]),  # not text
        ("changes", ["0", 5, 3, 2]),  # not whole numbers
        ("seats", [{"name": "Ann"}] * 4),  # no kind or level
        ("low_score_wins", "yes"),
        ("seed", 1.5),
        ("match_winners", "Ann"),
        ("type", "deals"),
    ],
    ids=lambda d: d[0] if isinstance(d, tuple) else str(d),
)
def test_a_pending_record_of_the_wrong_shape_is_kept_apart_not_written(data_home, damage):
    key, value = damage
    pending = data_home / "history-pending"
    history.spool(deal("GOOD", A, 1, [0], [0, 5, 3, 2]), pending)
    bad = deal("BAD", A, 1, [0], [0, 5, 3, 2])
    bad[key] = value
    pending.mkdir(exist_ok=True)
    (pending / "9.json").write_text(json.dumps(bad), encoding="utf-8")
    conn = history.open_history()  # opening writes what was kept
    keys = {r[0] for r in conn.execute("SELECT match_key FROM matches")}
    assert keys == {"GOOD"}
    assert [p.name for p in pending.iterdir()] == ["9.damaged"]
    with pytest.raises(ValueError, match="not a record"):
        history.history_record(bad)


def test_a_record_missing_a_field_is_not_a_record():
    rec = deal("K", A, 1, [0], [0, 5, 3, 2])
    del rec["first_action"]
    with pytest.raises(ValueError, match="not a record"):
        history.history_record(rec)
    rec = deal("K", A, 1, [0], [0, 5, 3, 2])
    del rec["match_winners"]  # (optional: a deal before the match's end may lack it)
    assert history.history_record(rec) is rec


# ----- reading back ---------------------------------------------------------------------------
def test_a_recorded_move_that_is_not_a_seat_and_action_cannot_be_replayed(monkeypatch):
    s, handed = finished_deal(monkeypatch)
    (rec,) = handed
    conn = history.open_history()
    history.write_record(conn, rec)
    deal_id = history.last_deal_id(conn)
    assert deal_id is not None
    assert load_replay(conn, deal_id).frames[-1].step == len(s.game.actions)
    conn.execute("UPDATE deals SET actions = ? WHERE id = ?", ('[[0, "3D"]]', deal_id))
    conn.commit()
    with pytest.raises(HistoryError, match="cannot be replayed with this version's rules"):
        load_replay(conn, deal_id)
    row = history.match_row(conn, 1)
    assert row is not None and row["names"][0] == "Ann" and row["options"] == s.game.options
    deals = history.match_deals(conn, 1)
    with pytest.raises(HistoryError, match="cannot be replayed"):
        DealReplay(row, deals, deal_id)


def test_the_replays_frames_carry_the_recorded_action(monkeypatch):
    s, handed = finished_deal(monkeypatch)
    conn = history.open_history()
    history.write_record(conn, handed[0])
    rep = load_replay(conn, 1)
    first_seat, first_action = s.game.actions[0]
    frame = rep.frames[1]
    assert frame.actor == first_seat and frame.action == first_action
    assert Action.from_json(frame.action) == Action.from_json(first_action)
    assert all(isinstance(e["seat"], int) for f in rep.frames for e in f.table)


# ----- lock files -----------------------------------------------------------------------------
def test_a_lock_owner_keeps_its_known_fields_and_refuses_a_record_without_a_pid(data_home):
    path = data_home / "saves" / "g1.lock"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"pid": 7, "host": 5, "user": "ann", "extra": [1]}))
    owner = locks.read_owner(path)
    assert owner == {"pid": 7, "host": 5, "user": "ann"}
    assert owner is not None and locks.owner_alive(owner)  # another machine's: respected
    text = str(locks.SaveLocked("g1", owner))
    assert "process 7, user ann" in text
    path.write_text(json.dumps({"pid": "7", "host": "here"}))
    assert locks.read_owner(path) is None
    assert locks.owner_alive(locks.UNKNOWN_OWNER.copy())  # held, record unreadable
    assert "process ?" in str(locks.SaveLocked("g1", locks.UNKNOWN_OWNER.copy()))


# ----- saves ------------------------------------------------------------------------------------
def test_a_saves_clock_is_read_typed_and_the_table_time_goes_on_from_it():
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bot", AI, "easy"), SeatConfig("Cy", AI)]
    s = Session.start("twos", seats, seed=4, autosave=False)
    data = json.loads(json.dumps(s.to_json()))
    data["clock"] = {"match": 600, "deal": 42.5}
    loaded = saves.load_save_data(data)
    assert loaded.clock == {"match": 600.0, "deal": 42.5}
    assert type(loaded.clock["match"]) is float
    again = Session.from_json(data, autosave=False)
    match_s, deal_s = again.tracker.elapsed()
    assert 600 <= match_s < 660 and 42.5 <= deal_s < 100
    del data["clock"]
    assert saves.load_save_data(data).clock is None
    data["clock"] = {"match": "long"}
    with pytest.raises(saves.SaveError, match="its clock is damaged"):
        saves.load_save_data(data)


def test_a_save_written_now_is_the_typed_shape_and_reads_back(data_home):
    seats = [SeatConfig("Ann", HUMAN), SeatConfig("Bot", AI, "easy"), SeatConfig("Cy", AI)]
    s = Session.start("twos", seats, seed=4, autosave=False)
    data = s.to_json()
    assert set(data) == saves.SAVE_FIELDS
    assert data["seats"][1] == {"name": "Bot", "kind": "ai", "level": "easy"}
    path = saves.write_save("typed", data)
    raw = saves.read_save(path)
    assert raw == json.loads(json.dumps(data))
    assert Session.from_json(raw, autosave=False).game.to_json() == s.game.to_json()
    os.unlink(path)


# ----- lessons ----------------------------------------------------------------------------------
def test_a_lesson_move_that_is_not_a_table_is_refused_with_where():
    step = {
        "title": "t",
        "text": "x",
        "done": "d",
        "position": {"hands": [["3S"], ["4S"], ["5S"]], "to_act": 0},
        "goals": ["play the 3"],
    }
    with pytest.raises(LessonError, match=r"step 1 move 1: a move is a table"):
        parse_lesson("twos", {"names": ["You", "Ada", "Ben"], "steps": [step] * 5})
    step = {**step, "goals": [{"accept": [{"cards": ["3S"]}], "then": {"seat": 1}}]}
    with pytest.raises(LessonError, match=r"then\[0\] is another seat's move"):
        parse_lesson("twos", {"names": ["You", "Ada", "Ben"], "steps": [step] * 5})
