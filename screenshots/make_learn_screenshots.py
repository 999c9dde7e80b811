"""Make the README's Learn screenshots (issue 21), and the home screen that leads to them.

    .venv/bin/python screenshots/make_learn_screenshots.py [--size 110x36]

Writes learn.svg (a lesson step at the table, just after a wrong move was refused with
its reason), learn-list.svg (the lessons with some progress kept) and home.svg next to
this script. Settings and saves go to a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def on_lesson(pilot):
    from twos_tui.ui.screens.learn import LessonScreen

    for _ in range(50):
        await pilot.pause()
        s = pilot.app.screen
        if isinstance(s, LessonScreen) and s._decision is not None:
            return s
    raise SystemExit("no lesson on screen")


async def shoot_lesson(size: tuple[int, int]) -> Path:
    """Twos, step 3 (answer a pair): the run 5-6-7 is tried and refused."""
    from twos_tui.ui.app import make_app

    app = make_app(ai_pause=0)
    app.on_start = lambda: app.open_learn("twos", 2)
    async with app.run_test(size=size) as pilot:
        screen = await on_lesson(pilot)
        for code in ("5S", "6D", "7H"):
            target = screen._hand_order.index(code)
            while screen.query_one("HandView").cursor != target:
                await pilot.press("right")
            await pilot.press("space")
        await pilot.press("enter")
        await pilot.pause(0.2)
        app.save_screenshot("learn.svg", path=str(HERE))
    return HERE / "learn.svg"


async def shoot_list(size: tuple[int, int]) -> Path:
    from twos_tui.play import settings as settings_file
    from twos_tui.ui.app import make_app

    s = settings_file.load()
    s.lessons = {"twos": {"done": list(range(7)), "stars": 3}, "2v1": {"done": [0, 1, 2]}}
    settings_file.save(s)
    app = make_app(ai_pause=0)
    app.on_start = app.open_learn
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        app.save_screenshot("learn-list.svg", path=str(HERE))
    return HERE / "learn-list.svg"


async def main(size: tuple[int, int]) -> None:
    sys.path.insert(0, str(HERE))
    from make_screenshots import shoot

    for path in (
        await shoot_lesson(size),
        await shoot_list(size),
        await shoot("home", size, None, 0, []),
    ):
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", default="110x36")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        asyncio.run(main((w, h)))
