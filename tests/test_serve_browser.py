"""``twos-tui serve``: the command line, and the whole app in a real headless browser.

The browser test starts ``python -m twos_tui serve`` and Debian's Chromium (headless, a
fresh profile, no network but this machine), opens the page, waits for the home screen,
types ``r`` into the page and sees the app answer with its rules list. It is skipped, with
the reason, when the web extra or Chromium is missing (``.ci/run`` installs both where it
can: see CONTRIBUTING.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import subprocess
import sys

import pytest

from twos_tui.cli import build_parser
from twos_tui.serve import DEFAULT_HOST, INSTALL_HINT, app_command, plan, run_serve_cli

HAS_WEB = importlib.util.find_spec("textual_serve") is not None


def test_serve_listens_on_this_computer_only_by_default():
    args = build_parser().parse_args(["serve"])
    assert args.host is None and args.port == 8000
    listen, url, message = plan(args.host, args.port)
    assert listen == DEFAULT_HOST == "127.0.0.1"
    assert url == "http://127.0.0.1:8000"
    assert "open http://127.0.0.1:8000" in message
    assert "127.0.0.1 only" in message and "--host 0.0.0.0" in message


def test_serve_says_so_when_a_host_is_given():
    listen, url, message = plan("0.0.0.0", 9000)
    assert listen == "0.0.0.0" and url.endswith(":9000")
    assert "every network interface" in message and "no password" in message
    listen, url, message = plan("::1", 9000)
    assert url == "http://[::1]:9000" and "Listening on ::1, as asked" in message
    _, url, _ = plan("0.0.0.0", 9000, "https://cards.example")
    assert url == "https://cards.example"


def test_serve_runs_the_app_module_with_this_python():
    assert app_command().endswith(" -m twos_tui")
    assert sys.executable in app_command() or "'" in app_command()


def test_serve_refuses_a_bad_port(capsys):
    assert run_serve_cli(argparse.Namespace(host=None, port=70000, public_url=None)) == 2
    assert "--port" in capsys.readouterr().err


def test_serve_without_the_web_extra_says_how_to_get_it():
    """Run with textual_serve hidden from the import system: a clear message, status 2."""
    code = (
        "import sys\n"
        "sys.modules['textual_serve'] = None\n"  # makes 'import textual_serve' fail
        "sys.modules['textual_serve.server'] = None\n"
        "from twos_tui.cli import main\n"
        "raise SystemExit(main(['serve', '--port', '8765']))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert INSTALL_HINT in r.stderr
    assert "pip install 'twos-tui[web]'" in r.stderr


def test_serve_on_a_busy_port_says_so_and_stops():
    if not HAS_WEB:
        pytest.skip("the web extra is not installed (pip install -e '.[web]')")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run(
            [sys.executable, "-m", "twos_tui", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in r.stderr
    assert "open http" not in r.stdout


# ----- the real browser --------------------------------------------------------------------


@pytest.mark.slow
async def test_the_app_plays_in_a_headless_browser(tmp_path):
    if not HAS_WEB:
        pytest.skip("the web extra is not installed (pip install -e '.[web]')")
    import web_helpers as web

    binary = web.find_chromium()
    if binary is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)")

    port = web.free_port()
    with web.served(port, str(tmp_path / "data")) as (_server, out), web.chromium(binary) as dt:
        out.seek(0)
        said = out.read()
        assert f"open http://127.0.0.1:{port}" in said, said
        assert "127.0.0.1 only" in said, said
        async with web.open_page(dt, f"http://127.0.0.1:{port}/") as page:
            # the page loads and connects: the app's first screen arrives over its websocket
            await page.wait_for(lambda p: "New game (n)" in p.text())
            text = page.text()
            for item in ("t w o s - t u i", "Rules (r)", "Odds (o)", "Quit (q)"):
                assert item in text, f"home screen lacks {item!r}"
            assert await page.evaluate(
                "document.body.classList.contains('-first-byte') && "
                "!!document.querySelector('.xterm-screen')"
            ), "the terminal in the page shows nothing"

            # a key typed into the page reaches the app: r opens the rules list
            before = len(page.received)
            await page.press("r")
            await page.wait_for(lambda p: '["stdin","r"]' in p.sent)
            await page.wait_for(
                lambda p: "Rules: pick a game" in web.screen_text(bytes(p.received[before:]))
            )
            assert "Big Two" in web.screen_text(bytes(page.received[before:]))
