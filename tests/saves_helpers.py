"""Real saves and crafted bad ones, for the hardening tests (issue 9)."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from twos_tui.play.session import AI, HUMAN, SeatConfig, Session

#: another twos-tui process holding a save open: "session" resumes it as the app does,
#: "lock" only takes its lock; each says "open", then waits to be killed
HOLDERS = {
    "session": textwrap.dedent(
        """
        import sys, time
        from twos_tui.play import saves
        from twos_tui.play.session import Session
        info = next(i for i in saves.list_saves() if i.save_id == sys.argv[1])
        s = Session.resume(info)
        print("open", flush=True)
        time.sleep(60)
        """
    ),
    "lock": textwrap.dedent(
        """
        import sys, time
        from twos_tui.play import locks
        locks.acquire(sys.argv[1])
        print("open", flush=True)
        time.sleep(60)
        """
    ),
}


@contextlib.contextmanager
def open_elsewhere(
    home: Path, save_id: str, how: str = "session"
) -> Iterator[subprocess.Popen[str]]:
    """The save ``save_id`` of the data folder ``home`` held open by another process
    (:data:`HOLDERS`) for the block; the process is killed at its end."""
    env = dict(os.environ, TWOS_TUI_HOME=str(home))
    other = subprocess.Popen(
        [sys.executable, "-c", HOLDERS[how], save_id], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        yield other
    finally:
        other.kill()
        other.wait()


def real_save(variant: str = "big-two", moves: int = 6, seed: int = 3, **kw: Any) -> dict:
    """A save exactly as the app writes it, a few moves into a game (one human, AIs)."""
    from twos_tui.engine import variant_class

    players = kw.pop("players", None) or variant_class(variant).default_players
    seats = [SeatConfig("Ann", HUMAN)] + [
        SeatConfig(n, AI, "easy") for n in ("Ada", "Bram", "Cleo")[: players - 1]
    ]
    s = Session.start(variant, seats, seed=seed, autosave=False, **kw)
    rng = random.Random(seed)
    for _ in range(moves):
        g = s.game
        if g.deal_over:
            break
        seat = g.to_act()[0]
        s.game.apply(seat, rng.choice(g.legal_actions(seat)))
    return json.loads(json.dumps(s.to_json()))


def big_two_human_lead_empty() -> dict:
    """A Big Two save where the human must lead with an empty hand (issue 9, case 4)."""
    d = real_save("big-two", moves=0)
    g = d["game"]
    cur = g["current"]
    g["discards"] += g["hands"][cur]
    g["hands"][cur] = []
    g["required_card"] = None
    return d


def crafted_saves() -> dict[str, Any]:
    """name -> the file's content: ``bytes``/``str`` written as they are, a ``dict``
    written as JSON, or a callable ``f(path)`` that makes the entry (links, FIFOs...).
    Every case of issue 9 (saves, 1-5)."""
    base = real_save()
    two_v_one = real_save("2v1", moves=2)

    def mut(src: dict, fn) -> dict:
        d = copy.deepcopy(src)
        fn(d)
        return d

    def g(fn):
        return lambda d: fn(d["game"])

    def first_card_twice(game):
        h = next(h for h in game["hands"] if len(h) > 1)
        h[1] = h[0]

    cases: dict[str, Any] = {
        # case 1: the app did not start
        "deal-infinity": json.dumps(base).replace('"deal_number": 1', '"deal_number": Infinity'),
        "deep-nesting": "[" * 100_000 + "]" * 100_000,
        "dev-zero-link": lambda p: os.symlink("/dev/zero", p),
        "fifo": lambda p: os.mkfifo(p),
        # case 2: Continue crashed
        "updated-huge": mut(base, lambda d: d.update(updated=1e308)),
        "updated-nan": json.dumps(base).replace(
            f'"updated": {json.dumps(base["updated"])}', '"updated": NaN'
        ),
        # case 3: resuming crashed
        "unknown-variant": mut(base, g(lambda x: x.update(variant="hearts"))),
        "big-two-as-tricks": mut(base, g(lambda x: x.update(variant="twos-tricks"))),
        "three-seats-for-four": mut(base, lambda d: d["seats"].pop()),
        "no-seats": mut(base, lambda d: d.pop("seats")),
        "two-names-for-four": mut(base, g(lambda x: x.update(names=x["names"][:2]))),
        "players-1000": mut(base, g(lambda x: x.update(players=1000))),
        "bad-ai-rng": mut(base, lambda d: d["ai_rngs"].update({"1": [3, [1, 2], None]})),
        "history-not-objects": mut(base, g(lambda x: x.update(history=[1, "two", None]))),
        "current-7": mut(base, g(lambda x: x.update(current=7))),
        "card-ZZ": mut(base, g(lambda x: x["hands"][0].__setitem__(0, "ZZ"))),
        "card-17": mut(base, g(lambda x: x["hands"][0].__setitem__(0, 17))),
        # case 4: loaded silently, then overwritten
        "duplicated-card": mut(base, g(first_card_twice)),
        "three-missing": mut(base, g(lambda x: x["hands"][0].__delitem__(slice(0, 3)))),
        "current-minus-1": mut(base, g(lambda x: x.update(current=-1))),
        "top-no-combination": mut(base, g(lambda x: x.update(top=[0, ["3D", "9S"]]))),
        "string-totals": mut(base, g(lambda x: x.update(totals=["0", "0", "0", "0"]))),
        "format-999": mut(base, lambda d: d.update(format=999)),
        "2v1-phase-nosuch": mut(two_v_one, g(lambda x: x.update(phase="nosuch"))),
        "lead-empty-hand": big_two_human_lead_empty(),
        # case 5: skipped without a word
        "truncated": json.dumps(base)[: len(json.dumps(base)) // 2],
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "list": "[]",
        "object": "{}",
        "null": "null",
        "fifty-mb": lambda p: _big_file(p, 50 * 2**20),
        "a-folder": lambda p: os.mkdir(p),
        "broken-link": lambda p: os.symlink(str(p) + ".nowhere", p),
        "looping-link": lambda p: os.symlink(p.name, p),
    }
    return cases


def _big_file(p: Path, size: int) -> None:
    with open(p, "wb") as f:
        f.truncate(size)  # sparse: no disk used


def place(folder: Path, name: str, content: Any) -> Path:
    path = folder / f"{name}.json"
    if callable(content):
        content(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry of ``folder``: a regular file's bytes, else what kind it is."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.iterdir()):
        if p.is_symlink():
            out[p.name] = "link:" + os.readlink(p)
        elif p.is_dir():
            out[p.name] = "dir"
        elif p.is_file() and p.stat().st_size < 2**20:
            out[p.name] = p.read_bytes()
        else:
            out[p.name] = f"other:{p.stat().st_size}"
    return out


# ----- mutations of real saves (property tests) ------------------------------------------

ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    3,
    7,
    99,
    -(10**30),
    10**30,
    0.5,
    1e308,
    -0.0,
    "",
    "x",
    "0",
    "3S",
    "3s",
    "ZZ",
    "RB",
    "play",
    "pass",
    "nosuch",
    "\x1b]2;PWNED\x07",
    [],
    [None],
    [1, 2],
    ["3S", "3S"],
    {},
    {"a": 1},
    {"kind": "play"},
    [[[]]],
]


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys/indexes) into a JSON value."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:60]):  # long lists: their start is enough
            out += _paths(v, prefix + (i,))
    return out


def _get(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def mutate(data: dict, rng: random.Random, count: int = 1) -> dict:
    """A copy of a save with ``count`` random edits: a value replaced by an odd one,
    a key deleted, a list entry removed or duplicated, two values swapped, a number
    nudged, a type changed."""
    d = copy.deepcopy(data)
    for _ in range(count):
        paths = [p for p in _paths(d) if p]
        path = rng.choice(paths)
        parent = _get(d, path[:-1])
        key = path[-1]
        old = parent[key]
        op = rng.randrange(8)
        if op == 0:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == 1:
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
        elif op == 2 and isinstance(old, list) and old:
            old.insert(rng.randrange(len(old) + 1), copy.deepcopy(rng.choice(old)))
        elif op == 3 and isinstance(old, list) and old:
            old.pop(rng.randrange(len(old)))
        elif op == 4 and type(old) is int:
            parent[key] = old + rng.choice((-1, 1, -2, 2, 13, -13))
        elif op == 5:
            other = rng.choice(paths)
            try:
                oparent = _get(d, other[:-1])
                oparent[other[-1]], parent[key] = (
                    copy.deepcopy(old),
                    copy.deepcopy(oparent[other[-1]]),
                )
            except (KeyError, IndexError, TypeError):
                pass
        elif op == 6:
            parent[key] = str(old) if not isinstance(old, str) else [old]
        else:
            parent[key] = [old] if rng.random() < 0.5 else {"v": old}
    return d


def mutate_text(text: str, rng: random.Random) -> str | bytes:
    """Damage at the byte level: cut short, a byte flipped, a span deleted or repeated."""
    raw = text.encode()
    op = rng.randrange(4)
    i = rng.randrange(len(raw))
    if op == 0:
        return raw[:i]
    if op == 1:
        return raw[:i] + bytes([rng.randrange(256)]) + raw[i + 1 :]
    j = min(len(raw), i + rng.randrange(1, 40))
    if op == 2:
        return raw[:i] + raw[j:]
    return raw[:j] + raw[i:j] + raw[j:]
