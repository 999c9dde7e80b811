"""A spectator's screen for each of the six games: the public view draws (the board,
the scores, the log) while the players' bots play, with no hand and no card any seat
holds hidden on the screen."""

from __future__ import annotations

import asyncio

import pytest
from net_helpers import PLAYERS, join, live_server, remote_table

from twos_tui.play.net.client import RemoteSeatView, play_bot
from twos_tui.ui.app import make_app
from twos_tui.ui.screens.table import TableScreen


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PLAYERS))
async def test_a_spectator_watches_every_game(variant, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    kinds = ["remote"] + ["ai"] * (PLAYERS[variant] - 1)
    table = remote_table(variant, seed=3, kinds=kinds, autosave=False, ai_pause=0.05)
    async with live_server() as server:
        server.add(table)
        view = await asyncio.to_thread(
            RemoteSeatView.connect, "127.0.0.1", server.port, table.code, "Eve", False, watch=True
        )
        bot = await join(server, table, "Bot")
        playing = asyncio.ensure_future(play_bot(bot, "easy", pause=0.05))
        app = make_app(autosave=False, ai_pause=None)
        from twos_tui.ui.hosting import joined_view

        app.on_start = lambda: app.start_session(joined_view(view))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(3000):
                    if isinstance(app.screen, TableScreen) and view.action_count >= 6:
                        break
                    await pilot.pause(0.02)
                screen = app.screen
                assert isinstance(screen, TableScreen), type(screen)
                assert screen.viewer is None and view.watching
                # the bot stops: the table waits for its seat (or the deal is over)
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
                g = table.game
                for _ in range(3000):
                    still = g.deal_over or 0 in g.to_act()
                    if still and view.action_count == len(g.actions):
                        break
                    await pilot.pause(0.02)
                screen.refresh_view()
                await pilot.pause()
                shown = "\n".join(
                    str(w.render()) for w in screen.query("*") if hasattr(w, "render")
                )
                assert "Watching" in shown and g.names[1] in shown  # drawn, and read here
                hidden: set[str] = set()
                for seat in range(g.players):
                    hidden |= g.hidden_from(seat)
                for code in hidden:
                    assert view.card_face(code).label not in shown, code
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await bot.close()
            await asyncio.to_thread(view.close)
