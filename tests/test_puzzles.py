"""Puzzles: every puzzle of every game loads, is legal and has exactly one answer (the
check ``twos-tui puzzles --check`` runs); the solver on hand-made positions; a puzzle
with a wrong answer is caught; the progress file; the puzzle table's refusals."""

from __future__ import annotations

import io
import json

import pytest

from twos_tui.cli import main
from twos_tui.engine import VARIANT_IDS, Action, IllegalAction
from twos_tui.engine.positions import Position, build_game
from twos_tui.play.puzzle_play import Progress, PuzzleSeatView
from twos_tui.puzzles.model import Puzzle, check_puzzle, load_puzzles
from twos_tui.puzzles.solver import Goal, count_worlds, refutation, solve, worlds
from twos_tui.puzzles_cli import check_all

MIN_PER_GAME = 30


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_puzzle_has_exactly_one_answer(variant: str) -> None:
    puzzles = load_puzzles(variant)
    assert len(puzzles) >= MIN_PER_GAME
    assert len({p.id for p in puzzles}) == len(puzzles)
    out = io.StringIO()
    assert check_all([variant], out) == 0, out.getvalue()
    assert "each has exactly one answer" in out.getvalue()
    for p in puzzles:
        assert p.text and p.hint and 1 <= p.difficulty <= 3 and p.par >= 1


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_first_puzzles_of_each_game(variant: str) -> None:
    """The quick loop's share of the check above: the first three of each game."""
    puzzles = load_puzzles(variant)
    assert len(puzzles) >= MIN_PER_GAME
    for p in puzzles[:3]:
        assert check_puzzle(p) is None


# ----- the solver ---------------------------------------------------------------------------
def _big_two(hands: list[list[str]], to_act: int, **kw) -> Position:
    return Position("big-two", hands, to_act, **kw)


def test_solver_finds_the_one_way_out() -> None:
    # You: 3♠ and a pair of aces; Ada, Bo, Cy hold five cards between them, the 2♠
    # among them (the top single). Nobody can beat the aces: lead them, then the 3♠
    # goes out. Any single first is beaten by the 2♠, whose holder goes out.
    g = build_game(_big_two([["3S", "AH", "AS"], ["KH", "KD"], ["7C", "9C"], ["2S"]], 0))
    sol = solve(g, Goal("out", 0, 1, 2))
    assert sol.worlds == count_worlds(g, 0) == 30  # 5 hidden cards in hands of 2, 2, 1
    assert sol.winners(1) == [(Action("play", ("AH", "AS")),)]
    # with the 4♠ as well, the second single is beaten too: nothing wins
    g2 = build_game(_big_two([["3S", "4S", "AH", "AS"], ["KH", "KD"], ["7C", "9C"], ["2S"]], 0))
    assert solve(g2, Goal("out", 0, 1, 4)).winners(1) == []


def test_worlds_keep_the_seat_and_the_sizes() -> None:
    g = build_game(_big_two([["3S", "4S"], ["5H", "6D"], ["7C"], ["8D"]], 0))
    ws = worlds(g, 0)
    assert len(ws) == 12
    for w in ws:
        assert w.hands[0] == ["3S", "4S"]  # type: ignore[attr-defined]
        assert [len(h) for h in w.hands] == [2, 2, 1, 1]  # type: ignore[attr-defined]
    assert len({tuple(map(tuple, w.hands)) for w in ws}) == 12  # type: ignore[attr-defined]


def test_perfect_information_endgame_unique() -> None:
    # Twos, two players, the whole pack dealt: the opponent's cards are known. You: the
    # 3♠ and a pair of kings; Ada: the ace of spades. The kings first (she cannot beat
    # them), then the 3♠; the 3♠ first, she plays the ace and is out.
    pos = Position("twos", [["3S", "KH", "KD"], ["AS"]], 0, {"hand_size": 26})
    g = build_game(pos)
    assert count_worlds(g, 0) == 1
    sol = solve(g, Goal("out", 0, 1, 2))
    assert sol.winners(1) == [(Action("play", ("KD", "KH")),)]
    # the 2♠ instead of the 3♠: the kings or the 2♠ first both win, so no puzzle
    pos2 = Position("twos", [["2S", "KH", "KD"], ["AS"]], 0, {"hand_size": 26})
    assert len(solve(build_game(pos2), Goal("out", 0, 1, 2)).winners(1)) == 2


def test_refutation_names_the_reply() -> None:
    pos = Position("twos", [["3S", "KH", "KD"], ["AS", "4H"]], 0, {"hand_size": 26})
    g = build_game(pos)
    goal = Goal("out", 0, 1, 2)
    move = (Action("play", ("3S",)),)
    line = refutation(g, goal, move)
    assert line and line[0][0] == 1


def test_a_wrong_answer_is_caught() -> None:
    variant = next(v for v in VARIANT_IDS if load_puzzles(v))
    p = load_puzzles(variant)[0]
    assert check_puzzle(p) is None
    other = next(
        (a,) for a in p.game().legal_actions(p.seat) if (a,) != p.answer[:1] and len(p.answer) == 1
    )
    bad = Puzzle.from_json({**p.to_json(), "answer": [a.to_json() for a in other]})
    problem = check_puzzle(bad)
    assert problem is not None and "does not reach the goal" in problem


def test_puzzle_file_errors() -> None:
    with pytest.raises(ValueError, match="puzzle needs an id"):
        Puzzle.from_json({"id": ""})
    p = load_puzzles("big-two")[0].to_json()
    with pytest.raises(ValueError, match="theme"):
        Puzzle.from_json({**p, "theme": "nonsense"})
    with pytest.raises(ValueError, match="difficulty"):
        Puzzle.from_json({**p, "difficulty": 9})


def test_cli_check(monkeypatch, capsys) -> None:
    import twos_tui.puzzles.model as model

    good = load_puzzles("big-two")[:1]
    monkeypatch.setattr(model, "load_puzzles", lambda v: good if v == "big-two" else [])
    assert main(["puzzles", "--check", "big-two"]) == 0
    assert "1 puzzles, each has exactly one answer" in capsys.readouterr().out
    wrong = Puzzle.from_json({**good[0].to_json(), "answer": [{"kind": "pass"}]})
    monkeypatch.setattr(model, "load_puzzles", lambda v: [wrong])
    assert main(["puzzles", "--check", "big-two"]) == 1
    captured = capsys.readouterr()
    assert "1 wrong" in captured.out and "puzzle problem" in captured.err


# ----- progress and the puzzle's table ----------------------------------------------------
def test_progress_round_trip_and_damage(tmp_path) -> None:
    path = tmp_path / "puzzles.json"
    pr = Progress(path)
    pr.note_try("a", False)
    pr.note_solved("a", False)
    pr.note_solved("b", True)
    again = Progress(path)
    assert again.get("a").star and again.get("a").solved and again.get("a").tries == 1
    assert again.get("b").solved and not again.get("b").star
    path.write_text("{not json", encoding="utf-8")
    broken = Progress(path)
    assert broken.problem and "set aside" in broken.problem
    assert not broken.records and (tmp_path / "puzzles.json.bad").exists()
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    assert Progress(path).problem


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_puzzle_table_refuses_wrong_and_takes_the_answer(variant: str) -> None:
    p = load_puzzles(variant)[0]
    view = PuzzleSeatView(p)
    seat = p.seat
    before = view.game.to_json()
    wrong = next(a for a in view.legal_actions(seat) if a != p.answer[0])
    with pytest.raises(IllegalAction) as err:
        view.act(seat, wrong)
    assert "Try again" in str(err.value)
    assert view.game.to_json() == before and not view.solved
    # the others' cards never show: the seat's view only
    obs = view.observation(seat)
    for c in view.game.hidden_from(seat):
        assert f"'{c}'" not in str(obs.hand)
    for a in p.answer:
        view.act(seat, a)
    assert view.solved
