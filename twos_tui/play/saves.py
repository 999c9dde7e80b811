"""Saved games: one JSON file per match, rewritten after every action.

The data directory is ``$TWOS_TUI_HOME`` when set (the tests point it at a temporary
directory), else the platform's user data directory (see :mod:`twos_tui.play.paths`).
A save holds the engine's own ``to_json()`` data plus what the app needs to resume (who
sits where, AI levels and the AI generators' state); games are rebuilt with the engine's
``load_game`` only.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .paths import data_dir

SAVE_FORMAT = 1
KEEP_SAVES = 30  #: older finished saves beyond this many are deleted


def saves_dir() -> Path:
    return data_dir() / "saves"


def write_save(save_id: str, data: dict[str, Any] | str) -> Path:
    """Write atomically (a crash mid-write never leaves a half file). ``data`` is the
    save or its JSON text."""
    d = saves_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{save_id}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)
    return path


class SaveWriter:
    """Writes saves on one background thread, so the disk is never waited for between
    a keypress and the redrawn table.

    The caller turns the game into JSON text at once (a snapshot: later moves cannot
    change it) and hands it over; ``submit`` first waits for the previous write, so a
    save is always on disk before the next action's save starts, and ``flush`` waits for
    the last one (the app flushes when it closes). Each write is atomic (``write_save``).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.error: str | None = None  #: the last write's failure, if it failed

    def submit(self, save_id: str, text: str, prune: bool = False) -> None:
        self.flush()
        t = threading.Thread(
            target=self._write, args=(save_id, text, prune), name="twos-tui-save", daemon=True
        )
        with self._lock:
            self._thread = t
        t.start()

    def _write(self, save_id: str, text: str, prune: bool) -> None:
        try:
            write_save(save_id, text)
            if prune:
                prune_saves()
            self.error = None
        except OSError as e:  # a read-only home must not stop the game; the UI says so
            self.error = f"Could not save the game: {e}"

    def flush(self) -> None:
        with self._lock:
            t = self._thread
        if t is not None:
            t.join()


#: the app's one writer (one thread at a time, saves in order)
WRITER = SaveWriter()


@dataclass(frozen=True)
class SaveInfo:
    path: Path
    save_id: str
    variant: str
    variant_name: str
    names: list[str]
    totals: list[int]
    deal_number: int
    match_over: bool
    updated: float

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.updated))
        scores = ", ".join(f"{n} {t}" for n, t in zip(self.names, self.totals, strict=False))
        return f"{self.variant_name} · deal {self.deal_number} · {scores} · {when}"


def read_save(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def list_saves(unfinished_only: bool = True) -> list[SaveInfo]:
    """Saved games, most recently played first."""
    d = saves_dir()
    if not d.is_dir():
        return []
    out: list[SaveInfo] = []
    for p in d.glob("*.json"):
        try:
            data = read_save(p)
            g = data["game"]
            info = SaveInfo(
                p,
                p.stem,
                g["variant"],
                data.get("variant_name", g["variant"]),
                list(g["names"]),
                list(g["totals"]),
                int(g["deal_number"]),
                bool(g["match_over"]),
                float(data.get("updated", p.stat().st_mtime)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a foreign or damaged file: not ours to resume
        if unfinished_only and info.match_over:
            continue
        out.append(info)
    out.sort(key=lambda s: (s.updated, s.save_id), reverse=True)
    return out


def prune_saves(keep: int = KEEP_SAVES) -> None:
    """Delete the oldest finished saves beyond ``keep``."""
    finished = [s for s in list_saves(unfinished_only=False) if s.match_over]
    for s in finished[keep:]:
        with contextlib.suppress(OSError):
            s.path.unlink()


def delete_save(save_id: str) -> None:
    with contextlib.suppress(OSError):
        (saves_dir() / f"{save_id}.json").unlink()
