"""Lobby server benchmark (not a test): N simulated players on loopback quick-match and
play.

    .venv/bin/python benchmarks/bench_lobby.py [--players 100] [--game big-two]
        [--seats 4] [--wait 5] [--pause 1.0] [--seconds 30] [--clients 2]
        [--processes 1] [--json]

A ``twos-tui server`` process (``--processes 2``: two, sharing a throwaway PostgreSQL
database made by ``tools/pg_cluster.py``; else its SQLite store in a temporary data
folder) and ``--clients`` client processes. Each simulated player is a guest who opens
a lobby connection (TLS, as the app does), asks for a quick match of ``--game`` for
``--seats`` (waiting at most ``--wait`` seconds for people before the AI fills the
rest), follows a redirect to another process when one comes, joins the table it is
seated at (the same port, its seat's token) and plays it with the ``random`` bot,
waiting ``--pause`` seconds on average (0.5x to 1.5x) before each move, as people do,
for ``--seconds`` after the last player was seated. The players come one by one, evenly
over ``--arrive`` seconds (20 a second by default), as people do: not all in the same
millisecond. The lobby connection stays open
while the player is at the table, as the app keeps it (``--close-lobby``: closed once
seated, to see what keeping it costs).

Figures:

* **time to seat**: from sending ``quick`` to the ``seated`` answer (a redirect's
  reconnection included), p50 / p95 / max;
* **a move's round trip**: from sending ``act`` to its answer, p50 / p95 / max;
* moves per second over the playing time, all tables together;
* each server process: its resident memory (RSS) at the start, once everyone sat, and
  at the end, and the CPU seconds it used while the players sat and played (and that as
  a share of one core).

The machine's load (``os.getloadavg``) is printed with the figures: on a shared machine
they move with it, and the client processes compete with the servers for the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


# ----- a client process --------------------------------------------------------------------
async def one_player(
    i: int, addresses: list[tuple[str, int]], a: argparse.Namespace, out: dict[str, list[float]]
) -> Any:
    from twos_tui.play.lobby.client import LobbyClient
    from twos_tui.play.lobby.model import QuickMatch, Redirect, Refused, Seated
    from twos_tui.play.net.tls import KnownHosts

    known = KnownHosts(Path(a.home) / f"known-{os.getpid()}")
    host, port = addresses[i % len(addresses)]
    await asyncio.sleep(i * a.arrive / max(1, a.players))  # people come one by one
    t0 = time.perf_counter()
    for hop in range(2):
        lobby = LobbyClient(host, port, None, None, known_hosts=known, timeout=120)
        await lobby.open()
        await lobby.send(QuickMatch(a.game, a.seats, wait_s=a.wait, redirected=hop > 0))
        while True:
            ev = await lobby.next_event(600)
            if ev is None:
                raise RuntimeError("the lobby's connection ended")
            if isinstance(ev, Refused):
                raise RuntimeError(f"refused: {ev.reason}")
            if isinstance(ev, (Seated, Redirect)):
                break
        if isinstance(ev, Seated):
            out["seat"].append(time.perf_counter() - t0)
            table = lobby.table_client(ev, timeout=120)
            await table.open()
            if a.close_lobby:  # (the app keeps it; this shows what keeping it costs)
                await lobby.close()
            return lobby, table
        await lobby.close()  # sent to another process: there, and ask again
        host, _, p = ev.address.rpartition(":")
        port = int(p)
        out["hops"].append(1.0)
    raise RuntimeError("sent on a second time (the server must keep a redirected player)")


async def clients(a: argparse.Namespace) -> None:
    from twos_tui.play.net.client import play_bot

    spec = json.loads(sys.stdin.readline())
    addresses = [(h, int(p)) for h, p in spec["addresses"]]
    mine = spec["players"]
    out: dict[str, list[float]] = {"seat": [], "rtt": [], "hops": []}
    random.seed(os.getpid())
    came = await asyncio.gather(
        *(one_player(i, addresses, a, out) for i in mine), return_exceptions=True
    )
    sat = [c for c in came if not isinstance(c, BaseException)]
    failed = [str(c) for c in came if isinstance(c, BaseException)]
    said = {"seated": len(sat), "failed": failed[:5], "failures": len(failed)}
    print(json.dumps(said), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    tasks = [
        asyncio.ensure_future(play_bot(t, "random", on_move=out["rtt"].append, pause=a.pause))
        for _, t in sat
    ]
    t0 = time.perf_counter()
    done, pending = await asyncio.wait(tasks, timeout=a.seconds)
    elapsed = time.perf_counter() - t0
    for t in pending:
        t.cancel()
    errors = sum(1 for t in done if not t.cancelled() and t.exception() is not None)
    print(json.dumps({**out, "elapsed": elapsed, "errors": errors + len(failed)}), flush=True)
    for lobby, table in sat:
        table.closing = True
        if table.ws is not None:
            table.ws.transport.abort()
        if lobby.ws is not None:
            lobby.ws.transport.abort()


# ----- the driver --------------------------------------------------------------------------
def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def proc_stats(pid: int) -> tuple[int, float]:
    """(RSS bytes, CPU seconds) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / tick


def start_server(db: str | None, home: str) -> tuple[subprocess.Popen[str], int]:
    cmd = [sys.executable, "-m", "twos_tui", "server", "--port", "0", "--tables", "100000"]
    if db:
        cmd += ["--db", db]
    proc = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "TWOS_TUI_HOME": home}, cwd=ROOT,
    )  # fmt: skip
    assert proc.stderr is not None
    for _ in range(50):
        m = re.match(r"Lobby server on 127\.0\.0\.1:(\d+)", proc.stderr.readline())
        if m:
            return proc, int(m.group(1))
    proc.kill()
    raise RuntimeError("the server did not start")


def run(a: argparse.Namespace, db: str | None) -> dict[str, Any]:
    home = tempfile.mkdtemp(prefix="bench-lobby-")
    servers = [start_server(db, home) for _ in range(a.processes)]
    pids = [p.pid for p, _ in servers]
    start = [proc_stats(pid) for pid in pids]
    me = [sys.executable, str(Path(__file__).resolve()), "--role", "clients"]
    opts = ["--game", a.game, "--seats", str(a.seats), "--wait", str(a.wait)]
    opts += ["--pause", str(a.pause), "--seconds", str(a.seconds), "--home", home]
    opts += ["--arrive", str(a.arrive), "--players", str(a.players)]
    opts += ["--close-lobby"] if a.close_lobby else []
    k = max(1, a.clients)
    procs = []
    t0 = time.perf_counter()
    for c in range(k):
        p = subprocess.Popen(
            me + opts, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "TWOS_TUI_HOME": home},
        )  # fmt: skip
        assert p.stdin is not None
        spec = {
            "addresses": [["127.0.0.1", port] for _, port in servers],
            "players": list(range(c, a.players, k)),
        }
        p.stdin.write(json.dumps(spec) + "\n")
        p.stdin.flush()
        procs.append(p)
    for p in procs:
        assert p.stdout is not None
        json.loads(p.stdout.readline())  # every player of it is seated
    seated_s = time.perf_counter() - t0
    sat = [proc_stats(pid) for pid in pids]
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        assert p.stdout is not None
        results.append(json.loads(p.stdout.readline()))
        p.wait(timeout=60)
    end = [proc_stats(pid) for pid in pids]
    for proc, _ in servers:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    seat = [x for r in results for x in r["seat"]]
    rtt = [x for r in results for x in r["rtt"]]
    elapsed = max(r["elapsed"] for r in results)
    return {
        "players": a.players,
        "processes": a.processes,
        "store": "postgresql" if db else "sqlite",
        "lobby_kept": not a.close_lobby,
        "arrive_s": a.arrive,
        "seated_all_s": round(seated_s, 2),
        "seat_ms": [round(pct(seat, q) * 1000, 1) for q in (50, 95, 100)],
        "redirects": sum(len(r["hops"]) for r in results),
        "rtt_ms": [round(pct(rtt, q) * 1000, 1) for q in (50, 95, 100)],
        "moves_per_s": round(len(rtt) / elapsed, 1),
        "errors": sum(r["errors"] for r in results),
        "servers": [
            {
                "rss_mib": [round(s[0] / 2**20, 1) for s in (st, si, en)],
                "cpu_s_seating": round(si[1] - st[1], 2),
                "cpu_s_playing": round(en[1] - si[1], 2),
                "cpu_share_playing": round((en[1] - si[1]) / elapsed, 2),
            }
            for st, si, en in zip(start, sat, end, strict=True)
        ],
        "load": [round(x, 2) for x in os.getloadavg()],
    }


def show(r: dict[str, Any]) -> None:
    print(
        f"{r['players']} players, {r['processes']} server process(es), {r['store']}, "
        f"lobby connection {'kept' if r['lobby_kept'] else 'closed'} at the table: "
        f"coming over {r['arrive_s']} s, all seated {r['seated_all_s']} s after the first; "
        f"redirects {r['redirects']}; errors {r['errors']}"
    )
    print(
        "  time to seat p50 / p95 / max: {} / {} / {} ms".format(*r["seat_ms"])
        + "\n  move round trip p50 / p95 / max: {} / {} / {} ms".format(*r["rtt_ms"])
        + f"\n  moves/s: {r['moves_per_s']}"
    )
    for i, s in enumerate(r["servers"]):
        print(
            f"  server {i + 1}: RSS start / seated / end {s['rss_mib'][0]} / {s['rss_mib'][1]} / "
            f"{s['rss_mib'][2]} MiB; CPU seating {s['cpu_s_seating']} s, playing "
            f"{s['cpu_s_playing']} s ({s['cpu_share_playing']:.0%} of a core)"
        )
    print(f"  load average at the end: {r['load']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--game", default="big-two")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--wait", type=float, default=5.0, help="quick match: AI after this long")
    ap.add_argument("--pause", type=float, default=1.0, help="seconds before each move (mean)")
    ap.add_argument("--seconds", type=float, default=30.0, help="playing time")
    ap.add_argument("--clients", type=int, default=2, help="client processes")
    ap.add_argument(
        "--arrive",
        type=float,
        default=None,
        help="the players come over this many seconds, evenly (default: 20 a second)",
    )
    ap.add_argument("--processes", type=int, default=1, help="server processes (2: PostgreSQL)")
    ap.add_argument(
        "--close-lobby",
        action="store_true",
        help="a seated player closes its lobby connection (the app keeps it open)",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--role", default="driver", help=argparse.SUPPRESS)
    ap.add_argument("--home", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.arrive is None:
        a.arrive = a.players / 20
    if a.role == "clients":
        asyncio.run(clients(a))
        return 0
    if a.processes > 1:
        from pg_cluster import Cluster, why_not  # type: ignore[import-not-found]

        reason = why_not()
        if reason:
            print(reason, file=sys.stderr)
            return 2
        with Cluster() as pg:
            r = run(a, pg.dsn)
    else:
        r = run(a, None)
    if a.json:
        print(json.dumps(r))
    else:
        show(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
