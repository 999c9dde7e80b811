"""What the side-by-side benchmarks (``--vs REF``) share: the tree to measure against and
the load average printed with the figures (``bench_engine_api.py``, ``bench_ui.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


@contextmanager
def tree_of(ref: str, prog: str) -> Iterator[tuple[Path, str]]:
    """The checkout to measure for ``--vs REF`` and how to name it: a folder holding a
    ``twos_tui`` package as it is, else a git ref checked out with ``git worktree add``
    in a temporary folder (removed at the end). ``prog`` names the benchmark in the
    message for a REF that is neither."""
    path = Path(ref).expanduser()
    if path.is_dir() and (path / "twos_tui" / "__init__.py").is_file():
        yield path.resolve(), str(path.resolve())
        return
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(
            f"{prog}: --vs {ref!r} is neither a git ref of {ROOT} nor a "
            "folder holding a twos_tui package"
        ) from None
    tmp = Path(tempfile.mkdtemp(prefix=f"twos-{prog.replace('_', '-')}-vs-"))
    tree = tmp / "tree"
    git("worktree", "add", "--detach", "--quiet", str(tree), commit)
    try:
        yield tree, f"{ref} ({commit[:9]})"
    finally:
        with suppress(subprocess.CalledProcessError):
            git("worktree", "remove", "--force", str(tree))
        with suppress(OSError):
            tmp.rmdir()


def load() -> list[float]:
    """The load average (1, 5, 15 min), or [] where the system does not give it."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def serve(root: str, run: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """A side's worker: with ``root``'s ``twos_tui`` first on ``sys.path``, answer each
    JSON job (a line on stdin) with ``run(job)`` as one JSON line on stdout; an exception
    is answered as ``{"error": ...}`` for the driver, which stops the run. What the code
    under test prints goes to stderr, so it cannot garble an answer."""
    answers = sys.stdout
    sys.stdout = sys.stderr

    def answer(out: dict[str, Any]) -> None:
        answers.write(json.dumps(out) + "\n")
        answers.flush()

    sys.path.insert(0, root)
    import twos_tui

    where = Path(twos_tui.__file__).resolve()
    if not where.is_relative_to(Path(root).resolve()):
        answer({"error": f"twos_tui came from {where}, not from {root}"})
        return 1
    answer({"ready": str(where.parent)})
    for line in sys.stdin:
        try:
            out = run(json.loads(line))
        except Exception as e:  # said to the driver, which stops the run
            out = {"error": f"{type(e).__name__}: {e}"}
        answer(out)
    return 0
