"""Drive ``twos-tui serve`` in a real headless Chromium over the Chrome DevTools Protocol.

Used by ``tests/test_serve_browser.py`` and ``screenshots/make_web_screenshot.py``. Needs
the web extra (textual-serve, which brings aiohttp: the DevTools client here uses its
websocket client) and a Chromium binary (Debian: ``apt-get install chromium``).

The app's screen reaches the page as terminal output over the page's websocket; the
DevTools ``Network`` domain reports every frame the page receives and sends, so a test can
read what the app drew (escape sequences removed) and see the keys the page sent.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: flags for a quiet, offline, throw-away headless browser
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--mute-audio",
)

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, links
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS and other strings
    r"|\x1b[@-Z\\-_]"  # two-character escapes
)


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def screen_text(data: bytes) -> str:
    """Terminal output as plain text: escape sequences removed."""
    return _ESCAPES.sub("", data.decode("utf-8", "replace"))


def _wait_for_port(port: int, proc: subprocess.Popen[Any], limit: float) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {limit:.0f} s")


def _stop(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def served(port: int, data_dir: str, extra_args: tuple[str, ...] = ()):
    """``python -m twos_tui serve --port PORT`` running; yields (process, output file)."""
    env = dict(os.environ, TWOS_TUI_HOME=data_dir, PYTHONUNBUFFERED="1")
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "twos_tui", "serve", "--port", str(port), *extra_args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        try:
            _wait_for_port(port, proc, 60)
            yield proc, out
        finally:
            _stop(proc)


@contextlib.contextmanager
def chromium(binary: str, width: int = 1280, height: int = 800):
    """A headless Chromium with a fresh profile; yields its DevTools port."""
    # Chromium's helper processes may still write to the profile for a moment after the
    # browser is stopped: a profile left half-removed must not fail the test
    with tempfile.TemporaryDirectory(
        prefix="twos-tui-chromium-", ignore_cleanup_errors=True
    ) as profile:
        proc = subprocess.Popen(
            [
                binary,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        try:
            marker = Path(profile) / "DevToolsActivePort"
            end = time.monotonic() + 60
            while not (marker.is_file() and marker.read_text().strip()):
                if proc.poll() is not None:
                    raise RuntimeError(f"chromium exited with status {proc.returncode}")
                if time.monotonic() > end:
                    raise RuntimeError("chromium did not open its DevTools port")
                time.sleep(0.1)
            yield int(marker.read_text().split()[0])
        finally:
            _stop(proc)


class Page:
    """One browser tab over the DevTools protocol, recording the page's websocket frames."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self.received = bytearray()  #: terminal output the page got from the app
        self.sent: list[str] = []  #: messages the page sent to the server
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "id" in data:
                fut = self._waiting.pop(data["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(data)
                continue
            method, params = data.get("method"), data.get("params", {})
            if method == "Network.webSocketFrameReceived":
                frame = params["response"]
                if frame.get("opcode") == 2:
                    self.received += base64.b64decode(frame["payloadData"])
                    self.changed.set()
            elif method == "Network.webSocketFrameSent":
                self.sent.append(params["response"]["payloadData"])
                self.changed.set()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[self._next_id] = fut
        message = {"id": self._next_id, "method": method, "params": params}
        await self.ws.send_str(json.dumps(message))
        reply = await asyncio.wait_for(fut, 60)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        got = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return got.get("result", {}).get("value")

    def text(self) -> str:
        return screen_text(bytes(self.received))

    async def wait_for(self, predicate, limit: float = 60) -> None:
        """Until ``predicate(self)`` holds (a hang guard, not a speed check)."""
        end = asyncio.get_running_loop().time() + limit
        while not predicate(self):
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(
                    f"the page never showed what was expected; it sent {self.sent[-5:]} "
                    f"and shows: {self.text()[-600:]!r}"
                )
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))

    async def press(self, key: str) -> None:
        """Focus the terminal and type one printable key, as a person would."""
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        code = f"Key{key.upper()}" if key.isalpha() else ""
        vk = ord(key.upper())
        base = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        await self.send("Input.dispatchKeyEvent", type="keyDown", text=key, **base)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **base)

    async def screenshot(self) -> bytes:
        got = await self.send("Page.captureScreenshot", format="png")
        return base64.b64decode(got["data"])

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.ws.close()


@contextlib.asynccontextmanager
async def open_page(devtools_port: int, url: str) -> AsyncIterator[Page]:
    """A tab of the browser at ``devtools_port``, navigated to ``url``."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{devtools_port}"
        async with http.get(f"{base}/json/list") as r:
            targets = await r.json()
        page_ws = next(t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page")
        async with http.ws_connect(page_ws, max_msg_size=0) as ws:
            page = Page(ws)
            try:
                await page.send("Network.enable")
                await page.send("Page.enable")
                await page.send("Page.navigate", url=url)
                yield page
            finally:
                await page.close()
