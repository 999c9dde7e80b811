"""No seat ever receives a card it may not see: every message of whole matches of all
six games is checked at send time against the seat's hidden cards then, and every text
the clients received is one of the checked ones. A spectator watches every match and
chats: every message it receives is checked against the cards hidden from any seat
(what every player sees, and nothing more). The matches are played over TLS, as a hosted
table serves them (the texts checked are those sent into, and read out of, the encrypted
connection)."""

from __future__ import annotations

import pytest
from net_helpers import PLAYERS, LeakWatch, live_server, play_match

from twos_tui.play.net.client import TableClient
from twos_tui.play.net.server import HostedTable
from twos_tui.play.net.tls import host_cert

#: (variant, options, seeds): short deals where the game allows it, many of them
MATCHES = [
    ("twos", {"hand_size": 4, "scoring": "penalty", "penalty_deals": 20}, (1, 2, 3, 4, 5, 6, 7, 8)),
    ("big-two", {"target": 50}, (1,)),
    ("big-two-5r", {}, (1,)),
    ("chinese-poker", {"target": 50}, (1,)),
    ("2v1", {"coins_to_win": 5}, (1, 2)),
    ("twos-tricks", {"game_length": 8}, (1,)),
]


@pytest.mark.slow
async def test_no_message_shows_a_hidden_card(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    watch = LeakWatch()
    deals = 0
    spectators = 0
    async with live_server(rate=1000, burst=1000, cert=host_cert()) as server:
        server.send_hook = watch
        for variant, options, seeds in MATCHES:
            for seed in seeds:
                kinds = ["remote"] * PLAYERS[variant]
                kinds[-1] = "ai"  # the host's AI plays a seat too
                table = server.add(
                    HostedTable.create(
                        variant,
                        kinds,
                        options=options,
                        seed=seed,
                        level="easy",
                        autosave=False,
                        ai_pause=0.0,
                    )
                )
                spectator = TableClient(
                    "127.0.0.1", server.port, table.code, "Rail", retry_delays=(), role="watch"
                )
                await spectator.open()
                assert spectator.encrypted and spectator.uri.startswith("wss://")
                spectator.raw_hook = watch.client_hook(table, spectator)
                assert await spectator.send_chat("good luck [red]all[/red] \x1b[2J") is None
                await play_match(
                    server, table, timeout=120, hook=lambda c, t=table: watch.client_hook(t, c)
                )
                assert table.game.match_over
                await spectator.close()
                spectators += 1
                deals += table.game.deal_number
    assert watch.findings == []
    assert deals >= 200, deals
    assert watch.check_clients() > 1000
    assert spectators == 14 and watch.spectator_texts > 1000, watch.spectator_texts
    print(f"{deals} deals, {watch.messages} messages checked")


def test_the_leak_check_finds_a_hand_shown() -> None:
    """The check itself: another seat's hand in a state, a sentence naming a hidden card,
    a face label: all found; the seat's own hand is not."""
    import json

    from net_helpers import find_leaks

    from twos_tui.engine import new_game

    g = new_game("big-two", 4, {}, 3)
    other = g.observation(1)["hand"]
    mine = g.observation(0)["hand"]
    state = {"type": "state", "observation": {"hand": mine}, "log": [], "results": []}
    assert find_leaks(g, 0, json.dumps(state)) == []
    state["observation"]["x"] = other[:1]
    assert find_leaks(g, 0, json.dumps(state)) == [other[0]]
    err = {"type": "error", "reason": f"Bram holds {other[1]} and more."}
    assert find_leaks(g, 0, json.dumps(err)) == [other[1]]
    label = g.card_face(other[2]).label
    err = {"type": "error", "reason": f"Bram holds {label}."}
    assert find_leaks(g, 0, json.dumps(err, ensure_ascii=False)) == [label]
