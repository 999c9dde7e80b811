"""``tools/burn.sh``: a command beside N CPU burners, the command's exit status passed on,
``--repeat`` stopping at the first failure, and no burner left behind however it ends.
Cheap: the commands are ``true``, ``exit 3`` and a short ``sleep``."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BURN = Path(__file__).resolve().parent.parent / "tools" / "burn.sh"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not (shutil.which("bash") and shutil.which("pgrep")),
    reason="needs bash, pgrep and /proc (Linux)",
)


def burn(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(BURN), *args], capture_output=True, text=True, timeout=timeout
    )


def burner_pids(stderr: str) -> list[int]:
    found = re.search(r"burner\(s\) started \(pids ([\d ]+)\)", stderr)
    assert found, stderr
    return [int(p) for p in found.group(1).split()]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_the_command_runs_beside_the_burners_and_its_status_is_passed_on():
    # the command counts the `yes` processes of its parent (the script): 3 asked for
    count = 'test "$(pgrep -P $PPID -x yes | wc -l)" = 3'
    done = burn("-n", "3", "--", "sh", "-c", count)
    assert done.returncode == 0, done.stderr
    assert "run 1/1 passed" in done.stderr
    assert not any(alive(p) for p in burner_pids(done.stderr))


def test_repeat_runs_k_times_and_stops_at_the_first_failure():
    done = burn("-n", "1", "--repeat", "3", "--", "true")
    assert done.returncode == 0
    assert [line.split(" in ")[0] for line in done.stderr.splitlines()[1:]] == [
        f"burn: run {i}/3 passed" for i in (1, 2, 3)
    ]
    failed = burn("-n", "2", "--repeat", "3", "--", "sh", "-c", "exit 3")
    assert failed.returncode == 3
    assert "run 1/3 FAILED (exit 3)" in failed.stderr and "run 2/3" not in failed.stderr
    assert not any(alive(p) for p in burner_pids(failed.stderr))


@pytest.mark.parametrize(
    ("sig", "group", "code"),
    [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)],
    ids=["ctrl-c", "term-to-the-script"],
)
def test_a_signal_stops_the_command_and_the_burners(sig, group, code):
    """Ctrl-C reaches the whole terminal job; a TERM sent to the script alone is passed on
    to the command. Either way the command and the burners stop."""

    def as_from_a_terminal() -> None:  # a shell started with SIGINT ignored cannot trap it
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        ["bash", str(BURN), "-n", "2", "--", "sleep", "30"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal's job would be
        preexec_fn=as_from_a_terminal,
    )
    assert proc.stderr is not None
    pids = burner_pids(proc.stderr.readline())
    assert all(alive(p) for p in pids)
    deadline = time.monotonic() + 30
    while not (
        found := subprocess.run(
            ["pgrep", "-P", str(proc.pid), "-x", "sleep"], capture_output=True, text=True
        ).stdout.split()
    ):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    command = int(found[0])
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    assert proc.wait(30) == code
    assert not alive(command)
    assert not any(alive(p) for p in pids)


def test_wrong_options_are_refused():
    assert burn("-n", "x", "--", "true").returncode == 2
    assert burn("--repeat", "0", "--", "true").returncode == 2
    assert burn("-n", "1").returncode == 2  # no command
