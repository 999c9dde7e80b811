"""Learn (issue 21 item 1): every game's lesson loads and checks, and is completed through
the real table with keys, one wrong move refused with its reason on the way; the
progress is kept; the list, the CLI and the help pages lead to the lessons."""

from __future__ import annotations

import json
import re

import pytest
from ui_helpers import (
    flat,
    press_hint,
    region_text,
    screen_text,
    wait_for,
    wait_for_screen,
    wait_for_text,
)

from twos_tui.engine import VARIANT_IDS, Action
from twos_tui.play import settings as settings_file
from twos_tui.play.lessons import (
    LEARNER,
    LessonError,
    LessonRun,
    all_lessons,
    check_lesson,
    load_lesson,
    parse_lesson,
    stars_for,
)
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen
from twos_tui.ui.screens.learn import LearnScreen, LessonScreen
from twos_tui.ui.widgets import HandView, MessageLine


@pytest.fixture(autouse=True)
def fresh_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))


# ----- the data --------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_game_has_a_lesson_that_checks(variant):
    lesson = load_lesson(variant)
    assert 5 <= len(lesson.steps) <= 8
    assert check_lesson(lesson) == []
    for step in lesson.steps:
        # one or two sentences of instruction, the learner to act at the start
        sentences = [x for x in re.split(r"(?<=[.!?])\s+", step.text.strip()) if x]
        assert 1 <= len(sentences) <= 2, step.text
        assert LEARNER in step.game().to_act()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_step_refuses_its_wrong_move_and_passes_by_the_right_one(variant):
    lesson = load_lesson(variant)
    for i in range(len(lesson.steps)):
        run = LessonRun(lesson, i)
        for goal in run.step.goals:
            if goal.wrong is not None:
                before = json.dumps(run.game.to_json(), sort_keys=True)
                reason = run.refusal(goal.wrong)
                assert reason, f"{variant} step {i + 1}: the wrong move passes"
                with pytest.raises(ValueError):
                    run.play(goal.wrong)
                assert json.dumps(run.game.to_json(), sort_keys=True) == before
            run.play(goal.accept[0])
        assert run.passed


def test_a_legal_move_that_is_not_the_point_is_refused_with_why():
    run = LessonRun(load_lesson("twos"), 0)
    reason = run.refusal(Action("play", ("9H",)))
    assert reason == run.step.goals[0].why
    assert "run" in reason


def test_a_lesson_file_is_checked_when_loaded():
    good = {
        "names": ["You", "Ada", "Ben"],
        "steps": [
            {
                "title": "t",
                "text": "x.",
                "done": "d",
                "position": {"hands": [["3S"], ["4S"], ["5S"]], "to_act": 0},
                "accept": [{"cards": ["3S"]}],
            }
        ],
    }
    with pytest.raises(LessonError, match="5 to 8 steps"):
        parse_lesson("twos", good)
    bad = json.loads(json.dumps(good))
    del bad["steps"][0]["accept"]
    with pytest.raises(LessonError, match="accept"):
        parse_lesson("twos", bad)
    with pytest.raises(LessonError, match="no such game"):
        load_lesson("chess")


def test_stars():
    assert [stars_for(n) for n in (0, 1, 2, 3, 9)] == [3, 2, 2, 1, 1]


def test_progress_is_kept_and_damage_is_dropped():
    s = settings_file.Settings()
    s.lessons["twos"] = {"done": [0, 1], "stars": 2}
    s.tips_seen = ["twos.lead"]
    back = settings_file.Settings.from_json(json.loads(json.dumps(s.to_json())))
    assert back.lessons == {"twos": {"done": [0, 1], "stars": 2}}
    assert back.tips_seen == ["twos.lead"] and back.tips
    damaged = settings_file.Settings.from_json(
        {"lessons": {"twos": {"done": ["x", 3, -1], "stars": 9}, "big-two": 4}, "tips": "yes"}
    )
    assert damaged.lessons == {"twos": {"done": [3], "stars": 0}}
    assert damaged.tips is True


# ----- through the table ------------------------------------------------------------------
async def make_move(pilot, screen: LessonScreen, action: Action) -> None:
    """Make ``action`` with keys, as a person would: cards picked with the cursor and
    space, then Enter; a pass with p; a choice (a bid, the card that goes back) with its
    key or button."""
    d = screen._decision
    assert d is not None
    if action.cards:
        hand = screen.query_one(HandView)
        for code in action.cards:
            hand.cursor = screen._hand_order.index(code)
            await pilot.press("space")
        await pilot.press("enter")
        return
    if action.kind == "pass":
        await pilot.press("p")
        return
    for c in d.choices:
        if c.action == action:
            if c.key:
                await pilot.press(c.key)
            else:
                screen.moves.choose(list(d.choices).index(c))
            return
    raise AssertionError(f"{action} is not offered: {d}")


def message(app) -> str:
    return flat(str(app.screen.query_one(MessageLine).render()))


async def on_lesson(pilot) -> LessonScreen:
    return await wait_for_screen(  # type: ignore[no-any-return]
        pilot, LessonScreen, "a lesson step", when=lambda s: s._decision is not None
    )


@pytest.mark.slow  # five to eight seconds each
@pytest.mark.parametrize("variant", VARIANT_IDS)
async def test_a_whole_lesson_through_the_table(variant):
    """Home → Learn → the game's lesson, every step with keys at the real table; the
    first step's wrong move is refused with its reason and changes nothing."""
    lesson = load_lesson(variant)
    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, HomeScreen)
        await pilot.press("l")
        await wait_for_screen(pilot, LearnScreen)
        index = [x.variant for x in all_lessons()].index(variant)
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("enter")
        wrong_done = False
        for i, step in enumerate(lesson.steps):
            screen = await on_lesson(pilot)
            assert screen.run.index == i
            assert flat(step.title) in flat(region_text(app, screen.query_one("#lesson")))
            for goal in step.goals:
                screen = await on_lesson(pilot)
                if goal.wrong is not None and not wrong_done:
                    before = json.dumps(screen.run.game.to_json(), sort_keys=True)
                    expected = screen.run.refusal(goal.wrong)
                    assert expected
                    await make_move(pilot, screen, goal.wrong)
                    # the reason is said on the message line; nothing moved
                    await wait_for(
                        pilot, lambda e=expected: flat(e)[:60] in message(app), "the refusal"
                    )
                    assert json.dumps(screen.run.game.to_json(), sort_keys=True) == before
                    assert not screen.run.passed
                    screen.selected.clear()
                    screen.selection.changed()
                    wrong_done = True
                await make_move(pilot, screen, goal.accept[0])
            await wait_for(pilot, lambda s=screen: s.run.passed, f"step {i} passed")
            await pilot.pause()
            panel = region_text(app, screen.query_one("#lesson"))
            assert "✓" in panel
            await pilot.press("enter")
        assert wrong_done
        # the lesson is done: its summary, then the list shows it done with its stars
        await wait_for_text(pilot, "lesson done")
        await pilot.press("escape")
        await wait_for_screen(pilot, LearnScreen, "the lessons list again")
        kept = settings_file.load().lessons[variant]
        assert kept["done"] == list(range(len(lesson.steps)))
        assert kept["stars"] == 2  # one wrong move
        assert "★★☆" in screen_text(app)


async def test_learn_from_the_command_line_opens_the_lesson_and_q_goes_back():
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("twos-tricks", 2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_lesson(pilot)
        assert screen.run.lesson.variant == "twos-tricks" and screen.run.index == 2
        await pilot.press("q")
        await wait_for_screen(pilot, LearnScreen)


async def test_hint_and_undo_in_a_lesson():
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("twos", 1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_lesson(pilot)
        await press_hint(pilot)
        assert "10♣" in message(app)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "no undo in a lesson" in message(app), "no undo")
        assert screen.run.mistakes == 0


async def test_the_hint_names_a_chosen_card_by_its_face():
    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("2v1", 4)  # the card that goes back
    async with app.run_test(size=(80, 24)) as pilot:
        await on_lesson(pilot)
        await press_hint(pilot)
        assert "keep 5☾" in message(app)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_help_page_links_its_lesson(variant):
    from twos_tui.engine import new_game
    from twos_tui.ui.helptext import help_markdown

    assert f"(learn:{variant})" in help_markdown(new_game(variant, seed=0))


@pytest.mark.slow  # the help page's Markdown takes a few seconds
async def test_l_on_a_help_page_opens_that_games_lesson():
    from twos_tui.engine import new_game
    from twos_tui.ui.screens.help import HelpScreen

    app = make_app(ai_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HelpScreen(new_game("chinese-poker", seed=0)))
        await wait_for_screen(pilot, HelpScreen)
        await pilot.press("l")
        screen = await on_lesson(pilot)
        assert screen.run.lesson.variant == "chinese-poker"
        # the link itself does the same
        await pilot.press("q")
        await wait_for_screen(pilot, LearnScreen)
        await pilot.press("escape")
        help_screen = await wait_for_screen(pilot, HelpScreen, "the help again")
        from textual.widgets import Markdown

        md = help_screen.query_one("#rules-md", Markdown)
        md.post_message(Markdown.LinkClicked(md, "learn:2v1"))
        screen = await on_lesson(pilot)
        assert screen.run.lesson.variant == "2v1"


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_lesson_table_shows_the_learner_only(variant):
    """The screen's view of a step: the learner's seat only, no other hand."""
    from twos_tui.play.lessons import lesson_view
    from twos_tui.play.seat_view import NotVisible

    lesson = load_lesson(variant)
    for i in range(len(lesson.steps)):
        view = lesson_view(LessonRun(lesson, i))
        assert view.visible == (LEARNER,) and view.controls == (LEARNER,)
        for seat in range(1, view.players):
            with pytest.raises(NotVisible):
                view.observation(seat)
            assert view.decision(seat) is None and view.legal_actions(seat) == []
            assert view.check(seat, Action("pass")) is not None
        assert view.ai_to_act() == []


def test_learn_on_the_command_line(capsys):
    from twos_tui.cli import build_parser
    from twos_tui.ui.app import run_app

    args = build_parser().parse_args(["learn", "2v1", "--step", "3"])
    assert (args.command, args.variant, args.step) == ("learn", "2v1", 3)
    assert build_parser().parse_args(["learn"]).variant is None
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args(["learn", "chess"])
    assert e.value.code == 2
    with pytest.raises(SystemExit):
        build_parser().parse_args(["learn", "twos", "--step", "0"])
    capsys.readouterr()
    # a step the lesson does not have: one line, exit status 2, no app
    assert run_app(learn="twos-tricks", learn_step=8) == 2
    err = capsys.readouterr().err
    assert "has steps 1 to 6, not 8" in err and err.count("\n") == 1


def test_a_step_of_several_moves_with_replies_between():
    """A step may ask for moves in a row; the other seats' replies in the file come
    between them (here: lead, both others pass, lead again)."""
    step = {
        "title": "Lead twice",
        "text": "Lead your 3. Then lead again.",
        "done": "Done.",
        "position": {"hands": [["3S", "9H"], 4, 4], "to_act": 0, "out_of_play_auto": True},
        "goals": [
            {
                "accept": [{"cards": ["3S"]}],
                "why": "Lead the 3 first.",
                "then": [{"seat": 1, "kind": "pass"}, {"seat": 2, "kind": "pass"}],
            },
            {"accept": [{"cards": ["9H"]}], "prompt": "Now lead 9♥."},
        ],
    }
    lesson = parse_lesson("twos", {"names": ["You", "Ada", "Ben"], "steps": [step] * 5})
    assert check_lesson(lesson) == []
    run = LessonRun(lesson, 0)
    assert run.refusal(Action("play", ("9H",))) == "Lead the 3 first."
    run.play(Action("play", ("3S",)))
    assert not run.passed and run.game.to_act() == (0,)
    assert "Now lead 9♥." in run.instruction()
    run.play(Action("play", ("9H",)))
    assert run.passed
    assert run.next_run() is not None and run.next_run().index == 1
    # a reply that is not legal is caught by the check
    bad = json.loads(json.dumps(step))
    bad["goals"][0]["then"] = [{"seat": 2, "kind": "pass"}]
    lesson = parse_lesson("twos", {"names": ["You", "Ada", "Ben"], "steps": [bad] * 5})
    assert any("not your turn" in p for p in check_lesson(lesson))


def test_the_lesson_files_ship_with_the_package():
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["twos_tui.play"]
    for variant in VARIANT_IDS:
        name = f"lesson_data/{variant}.toml"
        assert (root / "twos_tui" / "play" / name).is_file()
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name
