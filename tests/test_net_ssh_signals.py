"""The SSH door's guest clients end with their connection even where the host ignores
SIGHUP (started under ``nohup``): an ignored signal is inherited, and a client that kept
it ignored outlived its host, reading end-of-file from its dead terminal at two thirds of
a CPU. ``default_signals`` runs in each guest before it starts."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

pytest.importorskip("asyncssh")

from twos_tui.play.net.ssh_door import GUEST_SIGNALS, default_signals  # noqa: E402

SHOW = (
    "import signal; print(' '.join(str(signal.getsignal(s) != signal.SIG_IGN) "
    f"for s in {[int(s) for s in GUEST_SIGNALS]}))"
)


def _child_sees(preexec) -> list[str]:
    old = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGHUP, signal.SIGQUIT)}
    try:
        out = subprocess.run(
            [sys.executable, "-c", SHOW],
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=preexec,
        ).stdout
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return out.split()


def test_a_guest_ends_on_sighup_even_when_its_host_ignores_it():
    assert _child_sees(default_signals) == ["True"] * len(GUEST_SIGNALS)


def test_without_it_the_ignored_sighup_is_inherited():
    # the case the door guards against: the check above can fail
    assert _child_sees(None)[0] == "False"
