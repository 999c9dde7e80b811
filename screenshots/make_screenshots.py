"""Make the README's SVG screenshots from seeded games.

    .venv/bin/python screenshots/make_screenshots.py [--size 110x36]

Writes home.svg, picker.svg, climbing.svg (Twos in play), trick.svg (Twos with tricks in
play), 2v1.svg and help.svg next to this script. Saved games go to a temporary directory.
From 34 rows on the table draws framed cards; smaller windows show one-line chips.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def wait_for_human(pilot) -> None:
    from twos_tui.ui.screens.table import TableScreen

    for _ in range(300):
        await pilot.pause()
        s = pilot.app.screen
        if isinstance(s, TableScreen) and s._decision is not None and not s.ai_busy:
            break
    await pilot.pause()


async def shoot(name: str, size: tuple[int, int], variant: str | None, seed: int, steps) -> Path:
    from twos_tui.ui.app import make_app

    app = make_app(variant, seed=seed, ai_pause=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if variant is not None:
            await wait_for_human(pilot)
        for step in steps:
            if callable(step):
                await step(pilot)
            else:
                await pilot.press(step)
            await pilot.pause()
        await pilot.pause(0.2)
        path = HERE / f"{name}.svg"
        app.save_screenshot(str(path.name), path=str(HERE))
    return path


async def play_some(pilot, turns: int = 2) -> None:
    """Let the human seat play a few legal moves (the engine's first legal play)."""
    from twos_tui.ui.screens.table import TableScreen

    for _ in range(turns):
        s = pilot.app.screen
        if not isinstance(s, TableScreen) or s._decision is None:
            break
        g = s.game
        legal = [a for a in g.legal_actions(s.viewer) if a.kind != "pass"]
        if not legal or not s._decision.select:
            break
        a = legal[0]
        for code in a.cards:
            target = s._hand_order.index(code)
            while s.query_one("HandView").cursor != target:
                await pilot.press("right")
            await pilot.press("space")
        await pilot.press("enter")
        await wait_for_human(pilot)


async def main(size: tuple[int, int]) -> None:
    async def pick_trick_game(pilot):
        await pilot.press("down", "down", "down", "down", "down")

    shots = [
        ("home", None, 0, []),
        ("picker", None, 0, ["n", pick_trick_game]),
        ("climbing", "twos", 21, [play_some, "right", "space", "right", "space"]),
        ("trick", "twos-tricks", 8, [lambda p: play_some(p, 3)]),
        ("2v1", "2v1", 4, []),
        ("help", "twos", 21, ["question_mark"]),
    ]
    for name, variant, seed, steps in shots:
        path = await shoot(name, size, variant, seed, steps)
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", default="110x36")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TWOS_TUI_HOME"] = tmp
        asyncio.run(main((w, h)))
