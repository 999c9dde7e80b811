"""Issue 23 item 5: ``twos-tui serve`` gives each browser tab a player of its own, with
its own data folder (saves, history): a second tab never sees the first tab's game, nor
gets its hands by "Open a copy". ``?player=NAME`` makes tabs one player (and lets a
player come back after closing the tab); ``--shared-saves`` gives every tab the server's
own folder. Loopback only, bounded waits; the app behind each tab is a stand-in that
notes the data folder it was given."""

from __future__ import annotations

import asyncio
import shlex
import sys

import pytest
from test_hostile_serve import HAS_WEB, READ_UNTIL_QUIT, door, pong, shut

needs_web = pytest.mark.skipif(not HAS_WEB, reason="the web extra (textual-serve) is missing")

#: the stand-in app: writes where its data folder is, then reads until told to quit
STAND_IN = (
    "import os, select, time\n"
    "home = os.environ.get('TWOS_TUI_HOME', '')\n"
    "open(os.path.join(os.environ['PROBE_DIR'], str(os.getpid())), 'w').write(home)\n"
) + READ_UNTIL_QUIT
PROBE = f"{shlex.quote(sys.executable)} -c {shlex.quote(STAND_IN)}"


async def homes_seen(probe_dir, n: int) -> list[str]:
    for _ in range(400):
        found = sorted(p.read_text() for p in probe_dir.iterdir())
        if len(found) >= n and all(found):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{n} apps did not start")


@needs_web
async def test_each_tab_is_a_player_of_its_own(tmp_path, monkeypatch):
    probe = tmp_path / "probe"
    probe.mkdir()
    monkeypatch.setenv("PROBE_DIR", str(probe))
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "server-home"))
    server, client, url = await door(max_sessions=6)
    server.command = PROBE
    server.players_dir = tmp_path / "server-home" / "serve-players"
    sockets = []
    try:
        # the page tells the tab to name its player at the end of the websocket's address
        page = await (await client.get("/")).text()
        assert "sessionStorage" in page and 'getItem("twos_player")' in page
        tab1, tab2 = "t-" + "1" * 32, "t-" + "2" * 32
        for path in (f"/ws/{tab1}", f"/ws/{tab2}", "/ws/n-ann", "/ws/n-ann", "/ws"):
            ws = await client.ws_connect(path, headers={"Origin": url})
            sockets.append(ws)
            assert await pong(ws, len(sockets))
        homes = await homes_seen(probe, 5)
        players = server.players_dir
        assert sorted({h.rsplit("/", 1)[-1] for h in homes if "/c-" not in h}) == [
            "n-ann",
            tab1,
            tab2,
        ]
        assert homes.count(str(players / "n-ann")) == 2  # one player in two tabs
        assert all(h.startswith(str(players)) for h in homes)  # never the server's own
        assert sum("/c-" in h for h in homes) == 1  # named no player: one of its own
        # a name that is not a player's (a path, an escape code) gets a folder of its own
        bad = await client.ws_connect("/ws/..%2F..%2Fetc", headers={"Origin": url})
        sockets.append(bad)
        assert await pong(bad, 9)
        homes = await homes_seen(probe, 6)
        assert sum("/c-" in h for h in homes) == 2
        assert all(h.startswith(str(players) + "/") for h in homes)
    finally:
        await shut(server, client, *sockets)


@needs_web
async def test_shared_saves_give_every_tab_the_servers_folder(tmp_path, monkeypatch):
    probe = tmp_path / "probe"
    probe.mkdir()
    monkeypatch.setenv("PROBE_DIR", str(probe))
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "server-home"))
    server, client, url = await door(max_sessions=3)
    server.command = PROBE
    server.players_dir = None  # --shared-saves
    sockets = []
    try:
        page = await (await client.get("/")).text()
        assert "sessionStorage" not in page
        for path in ("/ws", "/ws/t-" + "3" * 32):
            ws = await client.ws_connect(path, headers={"Origin": url})
            sockets.append(ws)
            assert await pong(ws, len(sockets))
        assert await homes_seen(probe, 2) == [str(tmp_path / "server-home")] * 2
    finally:
        await shut(server, client, *sockets)


def test_the_command_line_chooses_per_tab_players_unless_shared():
    from twos_tui.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.shared_saves is False
    args = build_parser().parse_args(["serve", "--shared-saves"])
    assert args.shared_saves is True


async def test_two_players_folders_never_share_a_game(tmp_path, monkeypatch):
    """What the folders mean in the app: a game saved in one tab's folder is not listed in
    another's, so "Open a copy" can never give the second tab the first tab's hands."""
    from twos_tui.play import saves
    from twos_tui.play.session import Session

    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "t-a"))
    first = Session.start("big-two", seed=None)
    first.close()
    assert [i.save_id for i in saves.list_saves()] == [first.save_id]
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path / "t-b"))
    assert saves.list_saves() == []


NODE_SHIM = """
const results = [];
function tab(search, storage) {
  const el = {dataset: {sessionWebsocketUrl: "ws://127.0.0.1:8000/ws"}};
  globalThis.location = {search: search};
  globalThis.sessionStorage = {
    getItem: (k) => (k in storage ? storage[k] : null),
    setItem: (k, v) => { storage[k] = String(v); },
  };
  globalThis.document = {querySelectorAll: () => [el]};
  eval(SCRIPT);
  return el.dataset.sessionWebsocketUrl;
}
const one = {}, two = {};
results.push(tab("", one), tab("", one), tab("", two), tab("?player=ann", {}),
             tab("?player=../../etc", {}));
console.log(JSON.stringify(results));
"""


def test_the_page_names_one_player_per_tab_kept_across_reloads(tmp_path):
    """The script the page gets, run in Node with a stand-in for the browser's page: a
    tab keeps its player across reloads (sessionStorage), another tab is another player,
    ``?player=ann`` is ``n-ann``, a name that is not one is ignored."""
    import json
    import re
    import shutil
    import subprocess

    from twos_tui.serve import PLAYER_RE, PLAYER_SCRIPT

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    body = PLAYER_SCRIPT.removeprefix("<script>").removesuffix("</script>")
    program = f"const SCRIPT = {json.dumps(body)};\n{NODE_SHIM}"
    (tmp_path / "page.js").write_text(program, encoding="utf-8")
    out = subprocess.run(
        [node, str(tmp_path / "page.js")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    urls = json.loads(out.stdout)
    players = [u.rsplit("/", 1)[1] for u in urls]
    assert all(u.startswith("ws://127.0.0.1:8000/ws/") for u in urls)
    assert all(PLAYER_RE.fullmatch(p) for p in players), players
    assert players[0] == players[1]  # the same tab, reloaded
    assert players[2] != players[0]  # another tab
    assert players[3] == "n-ann"
    assert re.fullmatch(r"t-[0-9a-f]{32}", players[4])


def test_a_tabs_app_gets_its_players_folder_through_its_command_line(tmp_path):
    """Issue 32: the player's folder reaches the tab's app through the command the server
    starts (textual-serve's public API), not through textual-serve's private environment
    method: ``python -m twos_tui.serve_tab HOME PROGRAM...`` runs PROGRAM with
    ``TWOS_TUI_HOME=HOME``, whatever the folder's name holds (spaces, quotes, ``$``)."""
    import subprocess

    from twos_tui.serve import app_command, tab_command

    assert tab_command(app_command(), None) == app_command()  # --shared-saves
    home = tmp_path / "serve-players" / "it's a $HOME; `x`"
    show = f"{shlex.quote(sys.executable)} -c 'import os; print(os.environ[\"TWOS_TUI_HOME\"])'"
    line = tab_command(show, home)
    assert line.endswith(show) and "twos_tui.serve_tab" in line
    out = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip("\n") == str(home)
    # the real app's command: the tab's app is twos-tui, in that folder
    assert tab_command(app_command(), home).endswith(f"{shlex.quote(sys.executable)} -m twos_tui")


def test_serve_tab_says_how_to_use_it_and_why_it_failed(capsys):
    from twos_tui import serve_tab

    assert serve_tab.main([]) == 2 and "usage" in capsys.readouterr().err
    assert serve_tab.main(["/tmp/x", "/no/such/program"]) == 127
    assert "cannot start /no/such/program" in capsys.readouterr().err
