"""What a guest sends through the SSH door: a paste is capped (per read and per second,
the excess dropped with one line in the host's log), every line typed at the ``Code:``
prompt is a try, and a guest who leaves at the prompt gets one quiet line in the log.
(The screen is read as the bytes the terminal gets, its escape codes taken out.)"""

from __future__ import annotations

import asyncio
import logging
import os
import re

import pytest
from net_helpers import (
    at_the_code_prompt,
    live_server,
    open_door,
    plain,
    remote_table,
    ssh_connect,
    until,
)
from ui_helpers import wait_for

asyncssh = pytest.importorskip("asyncssh")
if os.name != "posix":  # pragma: no cover
    pytest.skip("the SSH door needs pseudo-terminals (POSIX)", allow_module_level=True)

from twos_tui.play.net import ssh_door  # noqa: E402
from twos_tui.play.net.ssh_door import SshDoor  # noqa: E402


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def key():
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
async def test_a_1_mib_paste_is_capped_and_the_guest_game_stays_responsive(
    tmp_path, monkeypatch, key, caplog
) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    caplog.set_level(logging.INFO, logger="twos_tui.net.ssh")
    table = remote_table("twos", seed=5, kinds=["ai", "remote", "ai"], autosave=False)
    async with live_server() as server:
        server.add(table)
        door = await open_door(server)
        async with await ssh_connect(door, key, "ana") as conn:
            proc, screen = await at_the_code_prompt(conn, "xterm-256color", (100, 30))
            proc.stdin.write(table.code.encode() + b"\r")
            await screen.until(lambda s: s.has("c Chat") and s.has("ana"), timeout=90)
            (pid,) = door.children
            rss0, cpu0 = rss_kib(pid), cpu_s(pid)
            # a 1 MiB paste (a key the table does not use, over and over)
            paste = b"x" * (1 << 20)
            proc.stdin.write(paste)
            await until(lambda: door.input_seen >= len(paste), "the whole paste read", timeout=60)
            forwarded = door.input_seen - door.input_dropped
            assert forwarded <= ssh_door.INPUT_BURST + ssh_door.INPUT_PER_S * 30
            assert door.input_dropped >= len(paste) - forwarded
            # the game answers the next key: the leave question comes up (the key is sent
            # again if the cap dropped it, the paste having spent the budget a moment ago;
            # the bound is generous: the game first takes the keys that passed, and on a
            # busy machine that is slow)
            before = len(screen.data)
            sent = len(paste)
            while True:
                dropped = door.input_dropped
                proc.stdin.write(b"q")
                sent += 1
                await until(lambda n=sent: door.input_seen >= n, "the q read", timeout=60)
                if door.input_dropped == dropped:
                    break
            await screen.until(lambda s: "Leave (y)" in plain(s.data[before:]), timeout=120)
            grew = rss_kib(pid) - rss0
            spent = cpu_s(pid) - cpu0
            # before the cap: +89 MiB and 4 s of CPU with nothing on screen
            assert grew < 16 * 1024, f"the guest's game grew {grew} KiB ({spent:.1f} s CPU)"
            assert spent < 2.0, f"the guest's game spent {spent:.1f} s of CPU ({grew} KiB)"
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait_closed(), 30)
        await until(lambda: not door.children, "the guest's app gone", 30)
    # one line in the host's log for the paste (with the numbers), and the total at the end
    over = [r.getMessage() for r in caplog.records if "over the input limit" in r.getMessage()]
    assert len(over) == 1, over
    assert "ana" in over[0] and "1 KiB a second" in over[0]
    left = [r.getMessage() for r in caplog.records if "left" in r.getMessage()]
    assert left and "bytes of input dropped" in left[-1]
    assert not [r for r in caplog.records if r.exc_info]


async def test_each_line_at_the_code_prompt_is_a_try(tmp_path, monkeypatch, key) -> None:
    """Three wrong codes in one write are three tries: the third ends the connection."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    async with live_server() as server:
        server.add(remote_table("twos", seed=5, autosave=False))
        door = await open_door(server)
        async with await ssh_connect(door, key) as conn:
            proc, screen = await at_the_code_prompt(conn)
            proc.stdin.write(b"NOPE1\rNOPE2\r\nNOPE3\r")
            await asyncio.wait_for(proc.wait_closed(), 30)
            rest = await proc.stdout.read()
            text = plain(screen.data + rest)
            assert text.count("No table here has that code.") == 3, text
            assert text.rstrip().endswith("Goodbye.")
            assert proc.exit_status == 1
            for word in ("NOPE1", "NOPE2", "NOPE3"):
                assert word in text  # each was echoed as it was typed


async def test_a_good_code_after_a_wrong_one_in_one_write_opens_the_table(
    tmp_path, monkeypatch, key
) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    async with live_server() as server:
        table = server.add(remote_table("twos", seed=5, autosave=False))
        door = await open_door(server)
        async with await ssh_connect(door, key) as conn:
            proc, screen = await at_the_code_prompt(conn)
            proc.stdin.write(b"NOPE\r" + table.code.encode() + b" watch\r")
            await screen.until(lambda s: s.has("No table here has that code."))
            await until(lambda: door.children, "the guest's app started", 30)
            proc.stdin.write(b"\x03")
            conn.close()


async def test_a_guest_who_leaves_at_the_code_prompt_is_one_quiet_line(
    tmp_path, monkeypatch, key, caplog
) -> None:
    """Before: a BrokenPipeError traceback in the host's log."""
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "home"))
    caplog.set_level(logging.DEBUG)
    async with live_server() as server:
        server.add(remote_table("twos", seed=5, autosave=False))
        door = await open_door(server)
        conn = await ssh_connect(door, key, "bo")
        proc, _ = await at_the_code_prompt(conn)
        proc.stdin.write(b"AB")
        conn.abort()  # the guest's network goes: no goodbye
        await until(lambda: door.open_count == 0 and not door._sessions, "the session closed", 30)
    ours = [r for r in caplog.records if r.name.startswith("twos_tui")]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], [
        (r.name, r.getMessage()) for r in caplog.records if r.exc_info
    ]
    gone = [r.getMessage() for r in ours if "at the code prompt" in r.getMessage()]
    assert gone == ["SSH guest bo left at the code prompt"], [r.getMessage() for r in ours]


def test_the_input_cap_per_read_and_per_second() -> None:
    now = [100.0]
    cap = ssh_door.InputCap(per_s=1000, burst=2000, per_read=800, clock=lambda: now[0])
    assert cap.allow(5000) == 800  # one read: at most per_read
    assert cap.allow(5000) == 800
    assert cap.allow(5000) == 400  # the burst is spent
    assert cap.allow(10) == 0
    now[0] += 0.5
    assert cap.allow(5000) == 500  # half a second: 500 more
    now[0] += 60
    assert cap.allow(10) == 10  # typing, long after: all of it
    # the numbers the door uses
    door = ssh_door.InputCap()
    assert (door.per_read, door.per_s, door.burst) == (1024, 1024, 2048)


def test_a_cut_splits_no_character_and_no_escape_code() -> None:
    cut = ssh_door.cut_at
    assert cut(b"abcdef", 3) == 3
    assert cut(b"ab", 5) == 2
    assert cut("aé".encode(), 2) == 1  # not inside the two bytes of é
    mouse = b"\x1b[<35;10;20M"
    assert cut(b"xy" + mouse + b"zz", 2 + len(mouse)) == 2 + len(mouse)  # whole: kept
    assert cut(b"xy" + mouse + b"zz", 8) == 2  # split: left out whole
    assert cut(b"xy\x1bOAz", 5) == 5  # an arrow key (ESC O A), whole
    assert cut(b"xy\x1bOAz", 4) == 2
    cap = ssh_door.InputCap(per_s=0, burst=8, per_read=8)
    assert cap.passed(b"ab" + mouse) == b"ab"
    assert cap.budget == 6  # what was cut back is not spent


# ----- the host key's fingerprint, shown at start ------------------------------------------
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


def ssh_keygen_fingerprint(key) -> str | None:
    """The fingerprint as OpenSSH's own ``ssh-keygen -l`` shows it (None without it)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("ssh-keygen") is None:
        return None
    with tempfile.NamedTemporaryFile("wb", suffix=".pub") as f:
        f.write(key.export_public_key())
        f.flush()
        out = subprocess.run(
            ["ssh-keygen", "-l", "-f", f.name], capture_output=True, text=True, check=True
        ).stdout
    return out.split()[1]


def test_host_with_an_ssh_door_prints_the_host_key_fingerprint(
    tmp_path, monkeypatch, capsys
) -> None:
    """``twos-tui host ... --ssh PORT`` at a screen: the fingerprint on stderr before the
    app opens (the headless host prints it too), SHA256 as ssh shows it."""
    from twos_tui.cli import main
    from twos_tui.ui import app as app_mod

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    opened = []

    def run_hosted(table, server, seat):  # the app, stood in for: nothing is drawn here
        opened.append(server)
        table.close()
        table.session.close()
        return 0

    monkeypatch.setattr(app_mod, "run_hosted", run_hosted)
    argv = ["host", "twos", "--seats", "human,remote,ai", "--port", "0", "--ssh", "0"]
    assert main(argv) == 0
    assert opened
    err = capsys.readouterr().err
    key = ssh_door.host_key(tmp_path / ssh_door.HOST_KEY_FILE)
    shown = FINGERPRINT.findall(err)
    assert shown == [key.get_fingerprint("sha256")], err
    assert err.startswith("SSH door host key: SHA256:")
    expected = ssh_keygen_fingerprint(key)
    if expected is not None:
        assert shown[0] == expected
    # a damaged key file: one line, status 2, nothing hosted
    (tmp_path / ssh_door.HOST_KEY_FILE).write_text("not a key")
    assert main(argv + ["--new"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("twos-tui: the SSH door's host key:") and len(err.splitlines()) == 1


async def test_the_host_screen_shows_the_ssh_door_fingerprint(tmp_path, monkeypatch) -> None:
    """At the host's own screen the first notice names the door's port and host key."""
    from textual.widgets._toast import Toast

    from twos_tui.play.net.server import HostedTable, TableServer
    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.table import TableScreen

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    table = HostedTable.create(
        "twos", ["human", "remote", "ai"], seed=9, level="easy", autosave=False, drive_ai=False
    )
    server = TableServer()
    door = SshDoor(0, key_path=tmp_path / "key")
    server.doors.append(door)
    app = make_app(autosave=False, ai_pause=0)
    app.on_start = lambda: app.host_table(table, server, "127.0.0.1", 0)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:

        def notice() -> str:
            if not isinstance(app.screen, TableScreen):
                return ""
            return " ".join(t.render().plain for t in app.screen.query(Toast))

        await wait_for(pilot, lambda: "host key" in notice(), "the door's notice")
        text = notice()
        fingerprint = ssh_door.host_key(tmp_path / "key").get_fingerprint("sha256")
        assert f"SSH door on port {door.port}, host key {fingerprint}." in text, text
        assert table.code in text
