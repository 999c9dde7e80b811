"""The README's browser screenshot: ``twos-tui serve`` in headless Chromium.

Run:  .venv/bin/python screenshots/make_web_screenshot.py [--out screenshots/web.png]

Needs the web extra (``pip install -e '.[web]'``) and Chromium (Debian: ``apt-get install
chromium``). Starts the server on a free port with an empty data directory, opens the page
in a fresh headless browser, waits for the home screen, then saves a PNG of the page.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import web_helpers as web  # noqa: E402


async def shoot(out: Path, width: int, height: int) -> None:
    binary = web.find_chromium()
    if binary is None:
        raise SystemExit("no Chromium found (Debian: apt-get install chromium)")
    port = web.free_port()
    with (
        tempfile.TemporaryDirectory() as data,
        web.served(port, data),
        web.chromium(binary, width, height) as devtools,
    ):
        async with web.open_page(devtools, f"http://127.0.0.1:{port}/") as page:
            await page.wait_for(lambda p: "New game (n)" in p.text())
            # let the page's fade-in finish and the terminal paint its last frame
            await asyncio.sleep(1.5)
            out.write_bytes(await page.screenshot())
    print(f"wrote {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE / "web.png")
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--height", type=int, default=620)
    a = ap.parse_args()
    asyncio.run(shoot(a.out, a.width, a.height))
    return 0


if __name__ == "__main__":
    sys.exit(main())
