"""Network table benchmark (not a test): N hosted tables of bot clients on loopback.

    .venv/bin/python benchmarks/bench_net.py [--tables 200] [--variant big-two]
        [--players 4] [--pause 1.0] [--seconds 30] [--clients 2] [--autosave] [--json]

One server process hosts ``--tables`` tables (every seat remote); ``--clients``
processes join them with ``players`` bot connections per table (the ``random``
baseline, so the clients spend little CPU) that wait ``--pause`` seconds on average
(0.5x to 1.5x) before each move, as people do; ``--pause 0`` plays flat out.

Figures:

* moves per second, over the whole run, all tables together;
* the round trip of a move: from the client sending ``act`` to its ``answer`` (after
  the host checked and applied it, made and sent the new state to every seat of the
  table), p50 / p95 / p99 / max, in milliseconds;
* memory, as the server process's RSS: before any table, after the tables were made
  (per table), after every client joined (per connection), at the end (per table,
  everything included);
* the same at the server: from reading the move to writing its answer (the new states
  to the table's seats are written before it) — what the host adds, without the
  clients' own delays (on one small machine the bot processes compete with the server);
* the server's CPU time per move, and the CPU the clients used.

``--ssh N`` measures the SSH door instead: one process hosts N tables (one remote seat
each, the AI seats waiting) behind ``--ssh``; N asyncssh clients, each with a
pseudo-terminal of 100x30, type their table's code. Per connection:

* the time from the SSH handshake's start to the table drawn on its screen (the code
  typed at once: what the person waits for after pressing Enter, plus the handshake);
* a key's latency: from sending an arrow key (the hand's cursor moves) to the first
  bytes of the redrawn screen coming back, ``--keys`` times per connection;
* memory: the client process of the connection (RSS, and its PSS and private memory
  from ``/proc/PID/smaps_rollup``) and what the host process grew by per connection
  (its share: the SSH channel, the WebSocket connection, the seat).

The machine's load (``os.getloadavg``) is printed with the figures: on a shared
machine they move with it. ``--autosave`` saves every table after every move as a
hosted table does (the default for ``twos-tui host``); without it the tables play from
memory, so the figure is the network and the engine alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def rss_bytes() -> int:
    """Resident memory now (Linux's /proc); elsewhere the peak so far (``ru_maxrss``:
    bytes on macOS, KiB on the others)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return max_rss()


def max_rss() -> int:
    try:
        import resource
    except ImportError:  # Windows: no figure
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


# ----- the server process ------------------------------------------------------------------
async def serve(args: argparse.Namespace) -> None:
    from twos_tui.play.net.server import HostedTable, TableServer

    rss0 = rss_bytes()
    server = TableServer(ping_interval=None)
    server.timings = []
    codes = []
    for i in range(args.tables):
        t = HostedTable.create(
            args.variant,
            ["remote"] * args.players,
            seed=i + 1,
            autosave=args.autosave,
            ai_pause=0,
        )
        server.add(t)
        codes.append(t.code)
    rss_tables = rss_bytes()
    await server.start("127.0.0.1", 0)
    print(json.dumps({"port": server.port, "codes": codes, "rss0": rss0, "rss_tables": rss_tables}))
    sys.stdout.flush()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    cpu0 = time.process_time()
    moves0 = 0
    while True:
        line = (await reader.readline()).decode().strip()
        if not line or line == "quit":
            break
        moves = sum(len(t.game.actions) for t in server.tables.values())
        if line == "mark":
            cpu0, moves0 = time.process_time(), moves
            server.timings = []
        print(
            json.dumps(
                {
                    "rss": rss_bytes(),
                    "conns": len(server.conns),
                    "moves": moves - moves0,
                    "cpu": time.process_time() - cpu0,
                    "maxrss": max_rss(),
                    "server_ms": [round(x * 1000, 3) for x in server.timings or []],
                }
            )
        )
        sys.stdout.flush()
    await server.close()


# ----- a client process --------------------------------------------------------------------
async def clients(args: argparse.Namespace) -> None:
    from twos_tui.play.net.client import TableClient, play_bot

    spec = json.loads(sys.stdin.readline())
    port, codes = spec["port"], spec["codes"]
    conns: list[TableClient] = []
    for code in codes:
        for p in range(args.players):
            c = TableClient("127.0.0.1", port, code, f"Bot{p}", retry_delays=(), timeout=60)
            conns.append(c)
    for i in range(0, len(conns), 50):
        await asyncio.gather(*(c.open() for c in conns[i : i + 50]))
    print(json.dumps({"joined": len(conns)}))
    sys.stdout.flush()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    rtts: list[float] = []
    tasks = [
        asyncio.ensure_future(play_bot(c, "random", on_move=rtts.append, pause=args.pause))
        for c in conns
    ]
    t0 = time.perf_counter()
    done, pending = await asyncio.wait(tasks, timeout=args.seconds)
    elapsed = time.perf_counter() - t0
    for t in pending:
        t.cancel()
    errors = sum(1 for t in done if t.exception() is not None)
    cpu = time.process_time()
    print(json.dumps({"rtts": rtts, "elapsed": elapsed, "errors": errors, "cpu": cpu}))
    sys.stdout.flush()
    for c in conns:
        c.closing = True
        if c.ws is not None:
            c.ws.transport.abort()


# ----- the driver --------------------------------------------------------------------------
def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, TWOS_TUI_HOME=tempfile.mkdtemp(prefix="bench-net-"))
    me = [sys.executable, str(Path(__file__).resolve())]
    common = ["--variant", args.variant, "--players", str(args.players)]
    common += ["--pause", str(args.pause), "--seconds", str(args.seconds)]
    common += ["--tables", str(args.tables)] + (["--autosave"] if args.autosave else [])
    srv = subprocess.Popen(
        me + ["--role", "server"] + common,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert srv.stdin and srv.stdout

    def ask(cmd: str) -> dict[str, Any]:
        assert srv.stdin and srv.stdout
        srv.stdin.write(cmd + "\n")
        srv.stdin.flush()
        return dict(json.loads(srv.stdout.readline()))

    head = json.loads(srv.stdout.readline())
    codes = head["codes"]
    k = max(1, args.clients)
    procs = []
    for i in range(k):
        part = codes[i::k]
        p = subprocess.Popen(
            me + ["--role", "clients"] + common,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        assert p.stdin
        p.stdin.write(json.dumps({"port": head["port"], "codes": part}) + "\n")
        p.stdin.flush()
        procs.append(p)
    joined = sum(json.loads(p.stdout.readline())["joined"] for p in procs if p.stdout)
    time.sleep(0.5)
    after_join = ask("rss")
    ask("mark")
    for p in procs:
        assert p.stdin
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [json.loads(p.stdout.readline()) for p in procs if p.stdout]
    end = ask("rss")
    assert srv.stdin
    srv.stdin.write("quit\n")
    srv.stdin.flush()
    srv.wait(30)
    for p in procs:
        p.wait(30)
    rtts = [x * 1000 for o in outs for x in o["rtts"]]
    elapsed = max(o["elapsed"] for o in outs)
    n, c = args.tables, joined
    mib = 2**20
    return {
        "tables": n,
        "connections": c,
        "variant": args.variant,
        "pause_s": args.pause,
        "autosave": args.autosave,
        "seconds": round(elapsed, 1),
        "moves": end["moves"],
        "moves_per_s": round(end["moves"] / elapsed, 1),
        "rtt_ms": {
            "p50": round(pct(rtts, 50), 2),
            "p95": round(pct(rtts, 95), 2),
            "p99": round(pct(rtts, 99), 2),
            "max": round(max(rtts), 2) if rtts else None,
            "mean": round(statistics.fmean(rtts), 2) if rtts else None,
            "count": len(rtts),
        },
        "server_ms": {
            "p50": round(pct(end["server_ms"], 50), 2),
            "p95": round(pct(end["server_ms"], 95), 2),
            "p99": round(pct(end["server_ms"], 99), 2),
            "max": round(max(end["server_ms"]), 2) if end["server_ms"] else None,
        },
        "client_cpu_share": round(sum(o["cpu"] for o in outs) / elapsed, 2),
        "server_cpu_ms_per_move": round(1000 * end["cpu"] / max(1, end["moves"]), 3),
        "server_cpu_share": round(end["cpu"] / elapsed, 2),
        "mem_MiB": {
            "server_start": round(head["rss0"] / mib, 1),
            "per_table_made": round((head["rss_tables"] - head["rss0"]) / n / mib, 3),
            "per_connection": round((after_join["rss"] - head["rss_tables"]) / max(1, c) / mib, 3),
            "per_table_at_end": round((end["rss"] - head["rss0"]) / n / mib, 3),
            "server_end": round(end["rss"] / mib, 1),
        },
        "client_errors": sum(o["errors"] for o in outs),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }


# ----- the SSH door ------------------------------------------------------------------------
def smaps(pid: int) -> dict[str, float]:
    """RSS, PSS and private memory of a process in MiB (``smaps_rollup``)."""
    out = {"rss": 0.0, "pss": 0.0, "private": 0.0}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2 or not parts[1].isdigit():
                continue
            kib = int(parts[1]) / 1024
            if parts[0] == "Rss:":
                out["rss"] += kib
            elif parts[0] == "Pss:":
                out["pss"] += kib
            elif parts[0] in ("Private_Clean:", "Private_Dirty:"):
                out["private"] += kib
    return out


async def ssh_bench(args: argparse.Namespace) -> dict[str, Any]:
    rss_bare = rss_bytes()
    import asyncssh

    from twos_tui.play.net.server import HostedTable, TableServer
    from twos_tui.play.net.ssh_door import SshDoor

    home = tempfile.mkdtemp(prefix="bench-ssh-")
    os.environ["TWOS_TUI_HOME"] = home
    server = TableServer(ping_interval=None)
    tables = [
        server.add(
            HostedTable.create(
                "twos", ["remote", "ai", "ai"], seed=i + 1, autosave=False, ai_pause=3600.0
            )
        )
        for i in range(args.ssh)
    ]
    door = SshDoor(0, per_address=args.ssh + 1, max_connections=args.ssh + 1)
    server.doors.append(door)
    await server.start("127.0.0.1", 0)
    rss_before = rss_bytes()
    key = asyncssh.generate_private_key("ssh-ed25519")
    to_table: list[float] = []
    key_ms: list[float] = []
    conns = []

    async def read_until(proc: Any, needle: bytes, buf: bytearray) -> None:
        while needle not in buf:
            chunk = await proc.stdout.read(65536)
            if not chunk:
                raise RuntimeError("the session ended")
            buf += chunk

    for i, table in enumerate(tables):
        t0 = time.perf_counter()
        conn = await asyncssh.connect(
            "127.0.0.1",
            door.port,
            username=f"guest{i}",
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
        )
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        buf = bytearray()
        await read_until(proc, b"Code: ", buf)
        proc.stdin.write(table.code.encode() + b"\r")
        await asyncio.wait_for(read_until(proc, b"Chat", buf), 120)
        to_table.append(time.perf_counter() - t0)
        conns.append((conn, proc))
    await asyncio.sleep(1.0)  # the screens settle (their last frames drawn)
    for _conn, proc in conns:
        for k in range(args.keys):
            with contextlib.suppress(asyncio.TimeoutError):
                while True:  # nothing left over from before
                    await asyncio.wait_for(proc.stdout.read(65536), 0.05)
            t0 = time.perf_counter()
            proc.stdin.write(b"\x1b[C" if k % 2 == 0 else b"\x1b[D")
            await asyncio.wait_for(proc.stdout.read(65536), 30)
            key_ms.append((time.perf_counter() - t0) * 1000)
    children = [smaps(pid) for pid in list(door.children)]
    rss_after = rss_bytes()
    for conn, proc in conns:
        proc.stdin.write(b"\x03")
        conn.close()
    await server.close()
    import shutil

    shutil.rmtree(home, ignore_errors=True)
    n = len(children)
    return {
        "connections": n,
        "to_table_s": {
            "p50": round(statistics.median(to_table), 2),
            "max": round(max(to_table), 2),
        },
        "key_ms": {
            "p50": round(pct(key_ms, 50), 1),
            "p95": round(pct(key_ms, 95), 1),
            "max": round(max(key_ms), 1),
            "count": len(key_ms),
        },
        "client_MiB": {
            k: round(statistics.mean(c[k] for c in children), 1) for k in ("rss", "pss", "private")
        },
        "host_MiB_per_connection": round((rss_after - rss_before) / 2**20 / max(1, n), 2),
        "host_MiB_door": round((rss_before - rss_bare) / 2**20, 1),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }


def print_ssh(out: dict[str, Any]) -> None:
    t, k, c = out["to_table_s"], out["key_ms"], out["client_MiB"]
    print(f"SSH door: {out['connections']} connections (100x30 terminals), twos")
    print(f"  to the table     p50 {t['p50']} s  max {t['max']} s  (handshake, code, first screen)")
    print(
        f"  a key's latency  p50 {k['p50']} ms  p95 {k['p95']} ms  max {k['max']} ms"
        f"  ({k['count']} keys: arrow -> first bytes of the new screen)"
    )
    print(
        f"  memory MiB       client process: RSS {c['rss']}, PSS {c['pss']}, private "
        f"{c['private']}; host +{out['host_MiB_per_connection']} per connection "
        f"(+{out['host_MiB_door']} for the door: asyncssh, the tables, the servers)"
    )
    print(f"  load {out['load_avg']} on {out['cpus']} CPUs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--variant", default="big-two")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--pause", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--clients", type=int, default=2, help="client processes")
    ap.add_argument("--autosave", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--role", choices=("driver", "server", "clients"), default="driver")
    ap.add_argument("--ssh", type=int, default=0, metavar="N", help="measure N SSH connections")
    ap.add_argument("--keys", type=int, default=20, help="keys timed per SSH connection")
    args = ap.parse_args()
    if args.ssh:
        sys.path.insert(0, str(ROOT))
        result = asyncio.run(ssh_bench(args))
        if args.json:
            print(json.dumps(result))
        else:
            print_ssh(result)
        return
    if args.role == "server":
        asyncio.run(serve(args))
        return
    if args.role == "clients":
        asyncio.run(clients(args))
        return
    out = run(args)
    if args.json:
        print(json.dumps(out))
        return
    r, m = out["rtt_ms"], out["mem_MiB"]
    print(
        f"{out['tables']} tables x {args.players} "
        f"= {out['connections']} connections, {out['variant']}, pause {out['pause_s']} s, "
        f"autosave {'on' if out['autosave'] else 'off'}, {out['seconds']} s"
    )
    print(f"  moves/s          {out['moves_per_s']}  ({out['moves']} moves)")
    print(
        f"  round trip ms    p50 {r['p50']}  p95 {r['p95']}  p99 {r['p99']}  max {r['max']}"
        f"  ({r['count']} moves timed)"
    )
    sm = out["server_ms"]
    print(
        f"  at the server ms p50 {sm['p50']}  p95 {sm['p95']}  p99 {sm['p99']}  max {sm['max']}"
        "  (a move read -> its answer written, the table's states sent before it)"
    )
    print(
        f"  CPU              server {out['server_cpu_ms_per_move']} ms a move, "
        f"{out['server_cpu_share']} of a core; clients {out['client_cpu_share']} of a core"
    )
    print(
        f"  memory MiB       per table made {m['per_table_made']}, per connection "
        f"{m['per_connection']}, per table at the end (all in) {m['per_table_at_end']}; "
        f"server {m['server_start']} -> {m['server_end']}"
    )
    print(
        f"  client errors    {out['client_errors']}   load {out['load_avg']} on {out['cpus']} CPUs"
    )


if __name__ == "__main__":
    main()
