"""Start-up benchmark (not a test): ``twos-tui --help`` against ``python -c pass``, and the
app to its home screen against a bare Textual app, both headless, side by side.

    .venv/bin/python benchmarks/bench_start.py [--runs 9] [--json] [--base DIR]

Each pair is run in turn (A B A B ..., after one warm-up of each), every run a fresh
interpreter, so a drift in the machine's speed touches both alike. Per command: the
median wall time and the median CPU time of the child (user + system, from
``os.wait4``/``resource`` where the system has them). Per pair: the median of the
run-by-run ratios A/B. The load average is printed with the figures: on a shared machine
quote the ratios, not the absolute times. Bytecode is written and used (the variable
``PYTHONDONTWRITEBYTECODE`` is dropped for the runs), as for an installed package.

* ``help``: ``twos-tui --help`` (the console script next to this Python, else
  ``python -m twos_tui --help``), against ``python -c pass``.
* ``home``: the real app (``make_app``, data in a fresh temporary folder, no saves)
  until the home screen is mounted and one more message round has run, against a bare
  Textual app (one ``Static``) until mounted and one round, both
  ``run(headless=True, size=(80, 24))``.

``--base DIR``: also the home screen of another checkout of twos-tui (a worktree of an
earlier commit, run with this Python and its packages), in the same turn as the other
two (A, base, B, A, base, B ...), so that before and after are measured side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("hello")

async def pilot(p):
    await p.pause()
    p.app.exit(0)

Bare().run(headless=True, size=(80, 24), auto_pilot=pilot)
"""

HOME_APP = """
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.home import HomeScreen

async def pilot(p):
    while not isinstance(p.app.screen, HomeScreen):
        await p.pause()
    await p.pause()
    p.app.exit(0)

make_app(ai_pause=0).run(headless=True, size=(80, 24), auto_pilot=pilot)
"""


def help_command() -> list[str]:
    script = Path(sys.executable).with_name("twos-tui")
    if script.exists():
        return [str(script), "--help"]
    return [sys.executable, "-m", "twos_tui", "--help"]


PAIRS: dict[str, tuple[list[str], list[str]]] = {
    "help": (help_command(), [sys.executable, "-c", "pass"]),
    "home": ([sys.executable, "-c", HOME_APP], [sys.executable, "-c", BARE_APP]),
}


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child; NaN where the system cannot say)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if hasattr(os, "wait4"):
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
    else:  # Windows
        proc.wait()
        wall, cpu = time.perf_counter() - t0, float("nan")
    err = proc.stderr.read() if proc.stderr else b""
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:2]} failed ({proc.returncode}): {err.decode()[-500:]}")
    return wall, cpu


def base_home(checkout: str) -> list[str]:
    """The home screen of another checkout (its folder first on ``sys.path``)."""
    path = str(Path(checkout).resolve())
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {path!r})\n{HOME_APP}"]


def bench_pair(
    name: str, runs: int, env: dict[str, str], base: list[str] | None = None
) -> dict[str, object]:
    a_cmd, b_cmd = PAIRS[name]
    cmds = {"a": a_cmd, "b": b_cmd} | ({"c": base} if base else {})
    for cmd in cmds.values():
        run_once(cmd, env)  # warm-up (files in the page cache, bytecode written)
    times: dict[str, list[tuple[float, float]]] = {key: [] for key in cmds}
    for _ in range(runs):
        for key, cmd in cmds.items():
            times[key].append(run_once(cmd, env))

    def med(xs: list[float]) -> float:
        return round(statistics.median(xs), 4)

    b = times["b"]
    result: dict[str, object] = {}
    for key, t in times.items():
        result[f"{key}_wall_s"] = med([w for w, _ in t])
        result[f"{key}_cpu_s"] = med([c for _, c in t])
        if key != "b":
            ratio = "ratio" if key == "a" else "base_ratio"
            result[f"{ratio}_wall"] = med([x[0] / y[0] for x, y in zip(t, b, strict=True)])
            result[f"{ratio}_cpu"] = med([x[1] / y[1] for x, y in zip(t, b, strict=True)])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="timed runs of each command")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--only", choices=sorted(PAIRS), help="one pair only")
    ap.add_argument("--base", metavar="DIR", help="also the home screen of this checkout")
    args = ap.parse_args()
    base = base_home(args.base) if args.base else None
    home = tempfile.mkdtemp(prefix="twos-tui-bench-start-")
    env = dict(os.environ, TWOS_TUI_HOME=home)
    # as an installed twos-tui runs: from compiled bytecode (pip writes it at install; an
    # editable checkout writes it on the first run, the warm-up), not recompiling every
    # module on each start as PYTHONDONTWRITEBYTECODE=1 would
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        result: dict[str, object] = {
            name: bench_pair(name, args.runs, env, base if name == "home" else None)
            for name in PAIRS
            if args.only in (None, name)
        }
    finally:
        shutil.rmtree(home, ignore_errors=True)
    load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []
    result["runs"] = args.runs
    result["load_average"] = load
    result["python"] = sys.version.split()[0]
    if args.json:
        print(json.dumps(result))
        return 0
    labels = {
        "help": ("twos-tui --help", "python -c pass"),
        "home": ("home screen (headless)", "bare Textual app"),
    }
    for name, (a_label, b_label) in labels.items():
        r = result.get(name)
        if not isinstance(r, dict):
            continue
        print(
            f"{a_label:>24}: {r['a_wall_s'] * 1000:7.1f} ms wall {r['a_cpu_s'] * 1000:7.1f} ms CPU"
        )
        print(
            f"{b_label:>24}: {r['b_wall_s'] * 1000:7.1f} ms wall {r['b_cpu_s'] * 1000:7.1f} ms CPU"
        )
        print(f"{'ratio':>24}: {r['ratio_wall']:.2f}x wall, {r['ratio_cpu']:.2f}x CPU")
        if "c_cpu_s" in r:
            print(
                f"{'home screen at --base':>24}: {r['c_wall_s'] * 1000:7.1f} ms wall "
                f"{r['c_cpu_s'] * 1000:7.1f} ms CPU"
            )
            print(
                f"{'ratio at --base':>24}: {r['base_ratio_wall']:.2f}x wall, "
                f"{r['base_ratio_cpu']:.2f}x CPU"
            )
    print(f"{args.runs} runs each, Python {result['python']}, load average {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
