"""The SSH door of a hosted table: ``twos-tui host ... --ssh PORT``.

A friend with nothing installed runs ``ssh -p PORT NAME@HOST``, types the table's join
code, and plays in their own terminal. Each connection gets its own process: the same
client as ``twos-tui join`` (``python -m twos_tui join 127.0.0.1:WSPORT CODE
--name=NAME``) in a pseudo-terminal, its bytes relayed both ways and the window's size
followed (``TIOCSWINSZ``, then ``SIGWINCH``). The child joins the table over the host's
own WebSocket server like any other client, so it gets exactly one seat's view (or a
spectator's) and nothing more: the door adds no path to the table.

* The host key is made on first use and kept in the data directory (mode 0600).
* ``--authorized-keys FILE``: only those public keys get in; without it anyone who
  reaches the port may try a code (the code is the door key, as with ``join``).
* Connections are capped per address and in all; a connection without a terminal, and
  a code that opens no table (three tries), are refused with a sentence.
* A key's fingerprint gives the guest a home of their own on the host (their reconnect
  token): the same key, after a dropped connection, gets the same seat back.

asyncssh is imported only here (the optional ``ssh`` extra); pseudo-terminals exist on
POSIX systems only (:func:`unavailable` says why not elsewhere).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import data_dir

if TYPE_CHECKING:
    from .server import TableServer

log = logging.getLogger("twos_tui.net.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
GUESTS_DIR = "ssh-guests"
PER_ADDRESS = 3  #: connections from one address at once
MAX_CONNECTIONS = 32  #: connections in all (each is a process of its own)
LOGIN_TIMEOUT_S = 30.0
CODE_TIMEOUT_S = 120.0  #: to type the code
CODE_TRIES = 3
#: what a guest's keys may bring their game: at most this many bytes of one read (the
#: rest of it is dropped) ...
INPUT_PER_READ = 1024
#: ... and this many bytes a second on average, :data:`INPUT_BURST` at once. Typing
#: (a few bytes a key, a few keys a second), a click (about 30 bytes) and a pasted chat
#: line (280 characters) stay below; beyond it a paste is dropped. The guest's game
#: pays for every key it is sent (about 0.2 ms of work and 2.5 KiB while it waits in
#: its queue): a 1 MiB paste used to take its process from 67 to 156 MiB and 4 s of
#: work; capped, it brings about 2 KiB of keys (a few MiB), so 32 guests pasting at
#: once cannot take the host's memory.
INPUT_PER_S = 1024
INPUT_BURST = 2048
#: a guest's input dropped again after this many quiet seconds is a new line in the log
DROP_LOG_QUIET_S = 10.0
NO_TERMINAL = (
    "twos-tui: this door is a card table and needs a terminal: connect with "
    "ssh -t -p PORT NAME@HOST (no command).\r\n"
)
EXTRA = "the SSH door needs the ssh extra: pip install 'twos-tui[ssh]'"


def unavailable() -> str | None:
    """Why the SSH door cannot open on this computer, or ``None``."""
    if os.name != "posix":
        return (
            "the SSH door needs a POSIX system (Linux, macOS, BSD) for its terminals; "
            "friends on this host can still use twos-tui join"
        )
    import importlib.util

    if importlib.util.find_spec("asyncssh") is None:
        return EXTRA
    return None


def host_key(path: Path | None = None) -> Any:
    """The door's host key: read, or made on first use (Ed25519, mode 0600)."""
    import asyncssh

    path = path or data_dir() / HOST_KEY_FILE
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment="twos-tui host key")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    os.replace(tmp, path)
    log.info("made the SSH host key %s", path)
    return key


def term_name(term: str | None) -> str:
    """The guest's terminal type, if it is a plain name (it becomes ``TERM``)."""
    if term and len(term) <= 40 and all(c.isalnum() or c in "._+-" for c in term):
        return term
    return "xterm-256color"


def guest_name(username: str) -> str:
    from ..names import clean_name

    return clean_name(username, "Guest")


_ESCAPE = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^\[O])")


def cut_at(data: bytes, n: int) -> int:
    """Where to cut ``data`` to pass at most ``n`` bytes without splitting a character
    or an escape code (a key or a mouse report): a split one would reach the game as
    stray keys."""
    if n >= len(data):
        return len(data)
    while n > 0 and 0x80 <= data[n] < 0xC0:  # inside a UTF-8 character
        n -= 1
    esc = data.rfind(b"\x1b", 0, n)
    if esc >= 0 and _ESCAPE.fullmatch(data, esc, n) is None:
        n = esc  # an escape code that does not end before the cut
    return n


class InputCap:
    """How much of what a guest sends may pass to their game: at most ``per_read``
    bytes of one read, and ``per_s`` bytes a second on average with ``burst`` at once.
    ``clock`` is injectable (tests)."""

    def __init__(
        self,
        per_s: float = INPUT_PER_S,
        burst: float = INPUT_BURST,
        per_read: int = INPUT_PER_READ,
        clock: Any = time.monotonic,
    ) -> None:
        self.per_s, self.burst, self.per_read, self.clock = per_s, burst, per_read, clock
        self.budget = float(burst)
        self.last = clock()

    def allow(self, n: int) -> int:
        """How many of ``n`` bytes that came now may pass (the budget is spent)."""
        now = self.clock()
        self.budget = min(self.burst, self.budget + (now - self.last) * self.per_s)
        self.last = now
        take = min(n, self.per_read, int(self.budget))
        self.budget -= take
        return take

    def passed(self, data: bytes) -> bytes:
        """What of ``data`` (one read) passes: the allowed bytes, cut where a character
        or an escape code ends; the budget is spent on what passes only."""
        allowed = self.allow(len(data))
        if allowed >= len(data):
            return data
        n = cut_at(data, allowed)
        self.budget += allowed - n
        return data[:n]


class SshDoor:
    """The SSH server beside a :class:`~.server.TableServer` (``server.doors``): it is
    started after the WebSocket server listens and closed before it stops."""

    def __init__(
        self,
        port: int,
        bind: str = "127.0.0.1",
        authorized_keys: str | None = None,
        per_address: int = PER_ADDRESS,
        max_connections: int = MAX_CONNECTIONS,
        key_path: Path | None = None,
        code_timeout: float = CODE_TIMEOUT_S,
        login_timeout: float = LOGIN_TIMEOUT_S,
        command: list[str] | None = None,
        lobby: bool = False,
    ) -> None:
        self.port = port
        #: a lobby server's door: a guest lands in the lobby (no code asked), their SSH
        #: key their account (the client's own key lives in the key's home)
        self.lobby = lobby
        self.bind = bind
        self.authorized_keys_path = authorized_keys
        self.authorized: Any = None
        self.per_address = per_address
        self.max_connections = max_connections
        self.key_path = key_path
        self.code_timeout = code_timeout
        self.login_timeout = login_timeout
        #: the client's command line before its arguments (tests, benchmarks)
        self.command = command or [sys.executable, "-m", "twos_tui"]
        self.fingerprint = ""  #: the host key's, as ssh shows it (SHA256:...)
        self._key: Any = None
        self.by_address: Counter[str] = Counter()
        self.open_count = 0
        self.children: dict[int, asyncio.subprocess.Process] = {}  #: pid -> child
        #: bytes the guests sent their games, and of those, dropped over the cap
        self.input_seen = 0
        self.input_dropped = 0
        self.server: TableServer | None = None
        self._acceptor: Any = None
        self._sessions: set[asyncio.Task[Any]] = set()

    # ----- life ------------------------------------------------------------------------
    def load_key(self) -> str:
        """Read (or make, on first use) the host key now, before the door opens; its
        fingerprint as ``ssh`` shows it (``SHA256:...``), for the host to show friends.
        ``OSError`` or ``ValueError`` (an unreadable key file)."""
        if self._key is None:
            self._key = host_key(self.key_path)
            self.fingerprint = self._key.get_fingerprint("sha256")
        return self.fingerprint

    async def start(self, server: TableServer) -> None:
        """Listen (``port`` 0: any free port; :attr:`port` says which). Raises
        ``OSError`` (cannot bind) or ``ValueError`` (an unreadable key file)."""
        import asyncssh

        why = unavailable()
        if why:
            raise ValueError(why)
        self.server = server
        logging.getLogger("asyncssh").setLevel(logging.WARNING)  # one line per packet else
        if self.authorized_keys_path:
            try:
                self.authorized = asyncssh.read_authorized_keys(self.authorized_keys_path)
            except (OSError, ValueError, asyncssh.KeyImportError) as e:
                raise ValueError(
                    f"cannot read the authorized keys {self.authorized_keys_path}: {e}"
                ) from None
        if self._key is None:
            self._key = await asyncio.to_thread(host_key, self.key_path)
        key = self._key
        self.fingerprint = key.get_fingerprint("sha256")
        server_class = type("DoorServerOfThisDoor", (_server_class(),), {"door": self})
        try:
            self._acceptor = await self._listen(asyncssh, server_class, key)
        except OSError as e:
            raise OSError(e.errno, f"the SSH door's port {self.port}: {e.strerror or e}") from None
        sockets = self._acceptor.sockets
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("SSH door on %s:%d (host key %s)", self.bind, self.port, self.fingerprint)

    async def _listen(self, asyncssh: Any, server_class: type, key: Any) -> Any:
        return await asyncssh.create_server(
            server_class,
            self.bind,
            self.port,
            server_host_keys=[key],
            process_factory=self._session,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            login_timeout=self.login_timeout,
            keepalive_interval=30,
            keepalive_count_max=4,
        )

    async def close(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
            with contextlib.suppress(Exception):
                await self._acceptor.wait_closed()
            self._acceptor = None
        for child in list(self.children.values()):
            _signal(child, signal.SIGHUP)
        for task in list(self._sessions):
            task.cancel()
        if self._sessions:
            await asyncio.wait(self._sessions, timeout=5)

    def key_line(self) -> str:
        """The host key's fingerprint in one sentence (the host shows it at start)."""
        return (
            f"SSH door host key: {self.fingerprint} (ssh shows it to a friend who "
            "connects the first time: it should be this one)"
        )

    def lines(self, hosts: list[str]) -> list[str]:
        """What to tell friends with nothing installed."""
        out = []
        for h in hosts:
            shown = f"[{h}]" if ":" in h else h
            out.append(f"Or with nothing installed: ssh -p {self.port} YOURNAME@{shown}")
        what = "the lobby" if self.lobby else "then type the code"
        out.append(f"  ({what}; SSH host key {self.fingerprint})")
        return out

    # ----- one connection ------------------------------------------------------------
    def _ws_address(self) -> str:
        server = self.server
        assert server is not None
        host = server.host
        if host in ("0.0.0.0", ""):
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        shown = f"[{host}]" if ":" in host else host
        return f"{shown}:{server.port}"

    async def _session(self, process: Any) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._sessions.add(task)
        try:
            await self._serve(process)
        except Exception:  # never expected: this connection goes, the door stays
            log.exception("SSH session failed")
            with contextlib.suppress(Exception):
                process.exit(1)
        finally:
            if task is not None:
                self._sessions.discard(task)

    async def _serve(self, process: Any) -> None:
        conn = process.channel.get_connection()
        owner = conn.get_owner()
        refused = getattr(owner, "refused", None)
        if refused:
            process.stdout.write(f"twos-tui: {refused}\r\n".encode())
            process.exit(1)
            return
        if process.get_terminal_type() is None or process.command:
            process.stderr.write(NO_TERMINAL.replace("PORT", str(self.port)).encode())
            process.exit(1)
            return
        name = guest_name(process.get_extra_info("username") or "")
        key = getattr(owner, "fingerprint", "")
        found = ("", False) if self.lobby else await self._ask_code(process, name)
        if found is None:
            return
        code, watch = found
        home, keep = self._guest_home(key)
        try:
            status = await self._run_client(process, name, code, watch, home, keep)
        finally:
            if not keep:
                shutil.rmtree(home, ignore_errors=True)
        with contextlib.suppress(Exception):
            process.exit(status)

    async def _ask_code(self, process: Any, name: str) -> tuple[str, bool] | None:
        """The code, typed at a small prompt (echoed, Backspace, Ctrl-C leaves); a code
        that opens no table is asked again, :data:`CODE_TRIES` times. Every line is a
        try, several lines in one write too. A guest who leaves here (their connection
        gone) is one line in the log."""
        import asyncssh

        try:
            return await self._prompt(process, name)
        except (OSError, asyncssh.Error):  # the channel closed under a write (BrokenPipe)
            log.info("SSH guest %s left at the code prompt", name)
            with contextlib.suppress(Exception):
                process.exit(1)
            return None

    async def _prompt(self, process: Any, name: str) -> tuple[str, bool] | None:
        import asyncssh

        out = process.stdout
        out.write(
            f"\r\nHello {name}: this is a twos-tui table.\r\n"
            "Type the join code the host gave you and press Enter\r\n"
            "(add ' watch' to watch; Ctrl-C leaves).\r\n".encode()
        )
        assert self.server is not None
        pending = b""  #: keys read and not yet taken (those after an Enter)
        after_cr = False  #: the last line ended with CR: an LF next is the same Enter
        for _ in range(CODE_TRIES):
            out.write(b"Code: ")
            typed = bytearray()
            done = False
            while not done:
                if not pending:
                    try:
                        pending = await asyncio.wait_for(process.stdin.read(256), self.code_timeout)
                    except asyncssh.TerminalSizeChanged:
                        continue
                    except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                        pending = b"\x03"
                    except TimeoutError:
                        out.write(b"\r\nNo code came: goodbye.\r\n")
                        process.exit(1)
                        return None
                    if not pending:  # the guest's side closed
                        log.info("SSH guest %s left at the code prompt", name)
                        process.exit(0)
                        return None
                taken = 0
                for byte in pending:
                    taken += 1
                    if byte == 10 and after_cr:
                        after_cr = False
                        continue
                    after_cr = False
                    if byte in (3, 4):  # Ctrl-C, Ctrl-D
                        out.write(b"\r\nGoodbye.\r\n")
                        log.info("SSH guest %s left at the code prompt", name)
                        process.exit(0)
                        return None
                    if byte in (13, 10):
                        after_cr = byte == 13
                        done = True
                        break
                    if byte in (8, 127):
                        if typed:
                            typed.pop()
                            out.write(b"\b \b")
                    elif 32 <= byte < 127 and len(typed) < 40:
                        typed.append(byte)
                        out.write(bytes([byte]))
                pending = pending[taken:]
            out.write(b"\r\n")
            words = typed.decode("ascii", "replace").split()
            watch = len(words) > 1 and words[-1].lower() == "watch"
            code = " ".join(words[:-1] if watch else words)
            table = self.server.table_for(code) if code else None
            if table is not None and not table.closed:
                return table.code, watch
            out.write(b"No table here has that code.\r\n")
        out.write(b"Goodbye.\r\n")
        process.exit(1)
        return None

    def _guest_home(self, fingerprint: str) -> tuple[str, bool]:
        """The data directory of the guest's client: one per key (their reconnect token
        is kept there), else a temporary one; (path, kept?)."""
        if fingerprint:
            digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:32]
            path = data_dir() / GUESTS_DIR / digest
            with contextlib.suppress(OSError):
                path.mkdir(parents=True, exist_ok=True, mode=0o700)
                return str(path), True
        return tempfile.mkdtemp(prefix="twos-tui-ssh-"), False

    async def _run_client(
        self, process: Any, name: str, code: str, watch: bool, home: str, keyed: bool = True
    ) -> int:
        """The client in a pseudo-terminal, relayed until either side ends."""
        import fcntl
        import termios

        import asyncssh

        width, height, _, _ = process.get_terminal_size()
        master, slave = os.openpty()
        _set_size(slave, width, height)
        env = {
            "TERM": term_name(process.get_terminal_type()),
            "TWOS_TUI_HOME": home,
            "HOME": home,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "COLORTERM": "truecolor",
        }
        if os.environ.get("PYTHONPATH"):
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        where = [self._ws_address()] + ([] if self.lobby else [code])
        args = [*self.command, "join", *where, f"--name={name}", "--guest"]
        if self.lobby and not keyed:  # the lobby: an account by SSH key, else a guest
            args.append("--no-key")
        if watch:
            args.append("--watch")

        def make_controlling() -> None:  # in the child, after setsid
            default_signals()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        try:
            child = await asyncio.create_subprocess_exec(
                *args,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=home,
                start_new_session=True,
                preexec_fn=make_controlling,
            )
        finally:
            os.close(slave)
        self.children[child.pid] = child
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**20)
        read_t, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(master, "rb", 0)
        )
        write_t, _ = await loop.connect_write_pipe(
            asyncio.Protocol, os.fdopen(os.dup(master), "wb", 0)
        )
        log.info("SSH guest %s: client %d for %s", name, child.pid, code or "the lobby")

        async def to_guest() -> None:
            while True:
                try:
                    data = await reader.read(65536)
                except OSError:  # EIO: the client closed its terminal
                    return
                if not data:
                    return
                process.stdout.write(data)
                await process.stdout.drain()

        cap = InputCap()
        dropped = 0  #: bytes of this guest's input dropped over the cap
        dropped_at = -DROP_LOG_QUIET_S  #: when the last was

        async def from_guest() -> None:
            nonlocal dropped, dropped_at
            while True:
                try:
                    data = await process.stdin.read(65536)
                except asyncssh.TerminalSizeChanged as e:
                    _set_size(master, e.width, e.height)
                    _signal(child, signal.SIGWINCH)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    return
                self.input_seen += len(data)
                passed = cap.passed(data)
                if len(passed) < len(data):  # a paste or a flood: the rest is dropped
                    self.input_dropped += len(data) - len(passed)
                    dropped += len(data) - len(passed)
                    now = time.monotonic()
                    if now - dropped_at >= DROP_LOG_QUIET_S:
                        log.warning(
                            "SSH guest %s: over the input limit (%d KiB a second, %d bytes "
                            "at once): the rest is dropped",
                            name,
                            INPUT_PER_S // 1024,
                            INPUT_PER_READ,
                        )
                    dropped_at = now
                    data = passed
                if data and not write_t.is_closing():
                    write_t.write(data)

        out_task = loop.create_task(to_guest())
        in_task = loop.create_task(from_guest())
        try:
            await asyncio.wait({out_task, in_task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not out_task.done():  # the guest left: the client is told to stop
                _signal(child, signal.SIGHUP)
            try:
                await asyncio.wait_for(child.wait(), 5)
            except TimeoutError:
                _signal(child, signal.SIGKILL)
                await child.wait()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(out_task, 2)  # the last bytes of its screen
            in_task.cancel()
            out_task.cancel()
            await asyncio.gather(in_task, out_task, return_exceptions=True)
            read_t.close()
            write_t.close()
            self.children.pop(child.pid, None)
        rc = child.returncode or 0
        extra = f"; {dropped} bytes of input dropped" if dropped else ""
        log.info("SSH guest %s left (client %d ended with %d%s)", name, child.pid, rc, extra)
        return rc if rc >= 0 else 1


def _set_size(fd: int, width: int, height: int) -> None:
    import fcntl
    import termios

    width = max(1, min(int(width or 80), 1000))
    height = max(1, min(int(height or 24), 500))
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


#: signals a guest's client must end on, whatever its host ignores (an ignored signal is
#: inherited: a host started under ``nohup`` ignores SIGHUP)
GUEST_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)


def default_signals() -> None:
    """In a guest's client, before it runs: the default action for :data:`GUEST_SIGNALS`.
    A client that inherited an ignored SIGHUP outlived its connection when the host went
    away (its terminal gone, it read end-of-file over and over at two thirds of a CPU)."""
    for sig in GUEST_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


def _signal(child: asyncio.subprocess.Process, sig: int) -> None:
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, sig)


def _make_server_class() -> type:
    import asyncssh

    class DoorServer(asyncssh.SSHServer):
        door: SshDoor

        def __init__(self) -> None:
            self.conn: Any = None
            self.address = ""
            self.refused = ""
            self.fingerprint = ""
            self.counted = False

        def connection_made(self, conn: Any) -> None:
            self.conn = conn
            peer = conn.get_extra_info("peername") or ("?",)
            self.address = str(peer[0])
            door = self.door
            if door.open_count >= door.max_connections:
                self.refused = "The table's SSH door is full: try again later."
            elif door.by_address[self.address] >= door.per_address:
                self.refused = (
                    f"Too many connections from your address ({door.per_address} at most)."
                )
            else:
                self.counted = True
                door.open_count += 1
                door.by_address[self.address] += 1

        def connection_lost(self, exc: Exception | None) -> None:
            if self.counted:
                self.counted = False
                door = self.door
                door.open_count -= 1
                door.by_address[self.address] -= 1
                if door.by_address[self.address] <= 0:
                    del door.by_address[self.address]

        def begin_auth(self, username: str) -> bool:
            if self.refused and self.conn is not None:
                self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refused)
            return True  # a key, when there is one, names the guest (their own home)

        def public_key_auth_supported(self) -> bool:
            return True

        def validate_public_key(self, username: str, key: Any) -> bool:
            allowed = self.door.authorized
            if allowed is not None and allowed.validate(key, self.address, self.address) is None:
                return False
            self.fingerprint = key.get_fingerprint()
            return True

        def kbdint_auth_supported(self) -> bool:
            return self.door.authorized is None  # anyone may try a code

        def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
            return self.door.authorized is None

        def password_auth_supported(self) -> bool:
            return self.door.authorized is None

        def validate_password(self, username: str, password: str) -> bool:
            return self.door.authorized is None

    return DoorServer


_SERVER_CLASS: list[type] = []


def _server_class() -> type:
    """The asyncssh server class, made when first needed (asyncssh imported then)."""
    if not _SERVER_CLASS:
        _SERVER_CLASS.append(_make_server_class())
    return _SERVER_CLASS[0]
