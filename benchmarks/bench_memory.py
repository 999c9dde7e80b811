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

The deal-end dialog drops keys for its first moments (its key guard, ``KeyGuard.GUARD``,
0.6 s, started again by any key pressed meanwhile): each Enter waits until the dialog
takes keys (``keys_armed``). Progress goes to stderr (every 10 deals and at each
checkpoint), the figures to stdout.
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


def deals(n: int) -> str:
    return f"{n} deal{'' if n == 1 else 's'}"


def progress(text: str) -> None:
    """A line on stderr (stdout keeps the table or the JSON alone)."""
    print(f"bench_memory: {text}", file=sys.stderr, flush=True)


async def wait_until(pilot, condition, what: str, timeout: float = 120.0) -> None:
    """Let the app run until ``condition()`` holds; fail saying ``what`` was awaited."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise RuntimeError(f"waited {timeout:.0f} s for {what}; on {pilot.app.screen!r}")
        await pilot.pause(0)


async def play_deals(pilot, count: int, before: int = 0, every: int = 10) -> int:
    """Let the demo play until ``count`` more deal-end dialogs were answered (``before``:
    deals played so far, for the progress lines on stderr)."""
    from twos_tui.ui.screens.dialogs import DealEndScreen

    app = pilot.app
    done = 0
    while done < count:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, DealEndScreen) and app.screen.is_mounted,
            f"the end of deal {before + done + 1}",
        )
        screen = app.screen
        assert isinstance(screen, DealEndScreen)
        # the dialog drops keys for its first moments (its key guard, 0.6 s, started
        # again by each key pressed meanwhile): wait until it takes keys, then Enter
        await wait_until(pilot, lambda s=screen: s.keys_armed, "the deal-end dialog to take keys")
        await pilot.press("enter")
        await wait_until(pilot, lambda s=screen: app.screen is not s, "the dialog to close")
        done += 1
        played = before + done
        if played == 1 or played % every == 0 or done == count:
            progress(f"{deals(played)} played")
    return done


async def measure(variant: str, checkpoints: list[int]) -> list[dict[str, float | int]]:
    from twos_tui.play.session import AI, SeatConfig, Session
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.home import HomeScreen

    rows: list[dict[str, float | int]] = []
    home = make_app(ai_pause=0)
    progress("the home screen")
    async with home.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HomeScreen), "the home screen")
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
            played += await play_deals(pilot, target - played, played)
            await pilot.pause()
            w, k = live_widgets()
            rows.append(
                {"deals": played, "widgets": w, "footer_keys": k, "rss_mib": round(rss_mib(), 1)}
            )
            progress(f"measured after {deals(played)}: {rows[-1]}")
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
