"""A throwaway PostgreSQL cluster for the lobby's tests and benchmarks.

``with Cluster() as pg: pg.dsn`` runs ``initdb`` into a temporary folder, starts the
server on a free port of 127.0.0.1 (its socket in that folder too), makes a database and
gives its address (``postgresql://...``); leaving the ``with`` stops the server and
deletes the folder. Nothing is installed and nothing outside the folder is touched.

PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user
(made by the distribution's package) and its programs run as that user (``runuser``).

:func:`why_not` says in one line why no cluster can start here (no PostgreSQL programs,
root without a ``postgres`` user), or ``None``. The tests skip with that line.

Run on its own, ``python tools/pg_cluster.py`` starts one, prints its address and keeps it
until Ctrl-C (for trying ``twos-tui server --db ...`` by hand).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

START_TIMEOUT_S = 60.0
DB_NAME = "twos"


def bin_dir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's versioned
    folder (``/usr/lib/postgresql/N/bin``, the newest)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent

    def version(p: str) -> int:
        name = Path(p).parent.parent.name
        return int(name) if name.isdigit() else 0

    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    return Path(versions[-1]).parent if versions else None


def _run_as() -> str | None:
    """The user the cluster runs as: ``None`` for this one, ``postgres`` under root."""
    if os.geteuid() != 0:
        return None
    return "postgres"


def why_not() -> str | None:
    """Why no throwaway cluster can start here, in one line; ``None`` when one can."""
    if bin_dir() is None:
        return "PostgreSQL is not installed here (no initdb): the PostgreSQL tests are skipped"
    user = _run_as()
    if user is not None:
        try:
            pwd.getpwnam(user)
        except KeyError:
            return "running as root without a 'postgres' user: the PostgreSQL tests are skipped"
        if shutil.which("runuser") is None:
            return "running as root without runuser: the PostgreSQL tests are skipped"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """One throwaway cluster (see the module text)."""

    def __init__(self) -> None:
        reason = why_not()
        if reason is not None:
            raise RuntimeError(reason)
        self.bin = bin_dir()
        assert self.bin is not None
        self.user = _run_as()
        self.root = Path(tempfile.mkdtemp(prefix="twos-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        role = self.user or pwd.getpwuid(os.geteuid()).pw_name
        self.dsn = f"postgresql://{role}@127.0.0.1:{self.port}/{DB_NAME}"
        self.started = False

    def _cmd(self, *args: str) -> list[str]:
        head = ["runuser", "-u", self.user, "--"] if self.user else []
        return [*head, *args]

    def _check(self, *args: str) -> None:
        out = subprocess.run(self._cmd(*args), capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed: {(out.stderr or out.stdout).strip()}")

    def start(self) -> Cluster:
        if self.user:
            shutil.chown(self.root, user=self.user)
        assert self.bin is not None
        self._check(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-E", "UTF8",
            "--no-locale", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=on -c max_connections=200"
        )
        self._check(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
            "-o", options, "-w", "-t", str(int(START_TIMEOUT_S)), "start",
        )  # fmt: skip
        self.started = True
        self._check(
            str(self.bin.parent / "bin" / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
            DB_NAME,
        )  # fmt: skip
        return self

    def stop(self) -> None:
        if self.started:
            assert self.bin is not None
            pg_ctl = str(self.bin / "pg_ctl")
            subprocess.run(
                self._cmd(pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"),
                capture_output=True,
                check=False,
            )
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def main() -> int:
    reason = why_not()
    if reason is not None:
        print(reason, file=sys.stderr)
        return 2
    with Cluster() as pg:
        print(pg.dsn, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
