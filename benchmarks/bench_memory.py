"""Memory benchmark (not a test): live widgets and RSS as deals go by.

    .venv/bin/python benchmarks/bench_memory.py [--deals 1,20,100] [--variant twos] [--json]

The real app runs headless at 80x24 on an all-AI table (a demo, AI pace instant, seeded)
and, at each deal's end, takes the deal-end dialog's default (Enter: the next deal, or
with the match over play again, a new table). After the checkpoints given it reports:

* ``widgets``: live Textual widgets (``gc`` collected first), the figure that must stay
  flat: a dialog's widgets are freed when it closes;
* ``footer_keys``: live ``FooterKey`` widgets among them (Textual's Footer makes one per
  key each time it is composed);
* ``rss_mib``: the process's resident memory (``/proc/self/status`` VmRSS; ``ru_maxrss``
  where there is no /proc), in MiB.

At "home" (0 deals) the figures are taken on the home screen before the table opens.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile


def rss_mib() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # Windows: no figure
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # bytes on macOS, else KiB
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def live_widgets() -> tuple[int, int]:
    """(live widgets, live FooterKey widgets), after a full collection."""
    from textual.widget import Widget
    from textual.widgets._footer import FooterKey

    gc.collect()
    widgets = keys = 0
    for obj in gc.get_objects():
        if isinstance(obj, Widget):
            widgets += 1
            if isinstance(obj, FooterKey):
                keys += 1
    return widgets, keys


async def play_deals(pilot, count: int) -> int:
    """Let the demo play until ``count`` more deal-end dialogs were answered."""
    from twos_tui.ui.screens.dialogs import DealEndScreen

    app = pilot.app
    done = 0
    spins = 0
    while done < count:
        await pilot.pause(0)
        spins += 1
        if spins > 200_000:
            raise RuntimeError(f"stuck after {done} deals on {app.screen!r}")
        if isinstance(app.screen, DealEndScreen) and app.screen.is_mounted:
            screen = app.screen
            await pilot.press("enter")
            while app.screen is screen:
                await pilot.pause(0)
            done += 1
    return done


async def measure(variant: str, checkpoints: list[int]) -> list[dict[str, float | int]]:
    from twos_tui.play.session import AI, SeatConfig, Session
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.home import HomeScreen

    rows: list[dict[str, float | int]] = []
    home = make_app(ai_pause=0)
    async with home.run_test(size=(80, 24)) as pilot:
        while not isinstance(home.app.screen, HomeScreen):
            await pilot.pause()
        await pilot.pause()
        w, k = live_widgets()
        rows.append({"deals": 0, "widgets": w, "footer_keys": k, "rss_mib": round(rss_mib(), 1)})
    del home
    names = ("Ada", "Bram", "Cleo", "Dev")
    seats = [SeatConfig(n, AI) for n in names[:3]]
    session = Session.start(variant, seats, 3, {}, 7, autosave=False)
    app = make_app(session=session, ai_pause=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        played = 0
        for target in checkpoints:
            played += await play_deals(pilot, target - played)
            await pilot.pause()
            w, k = live_widgets()
            rows.append(
                {"deals": played, "widgets": w, "footer_keys": k, "rss_mib": round(rss_mib(), 1)}
            )
        app.exit()
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", default="1,20,100", help="checkpoints, comma-separated")
    p.add_argument("--variant", default="twos")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    checkpoints = sorted({int(x) for x in args.deals.split(",") if x.strip()})
    os.environ.setdefault("TWOS_TUI_HOME", tempfile.mkdtemp(prefix="twos-bench-mem-"))
    rows = asyncio.run(measure(args.variant, checkpoints))
    if args.json:
        print(json.dumps({"variant": args.variant, "rows": rows}, indent=2))
        return 0
    print(f"{args.variant}, all-AI table at 80x24, instant pace (Python {sys.version.split()[0]})")
    print(f"{'deals':>6}  {'widgets':>8}  {'FooterKey':>9}  {'RSS MiB':>8}")
    for r in rows:
        label = "home" if r["deals"] == 0 else str(r["deals"])
        print(f"{label:>6}  {r['widgets']:>8}  {r['footer_keys']:>9}  {r['rss_mib']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
