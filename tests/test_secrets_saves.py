"""Issue 23 items 2 and 3: impossible saves are refused, undo never crashes.

* A save is accepted only if replaying its seed and moves with the engine gives exactly
  its state (a property over many seeded games; a mutation test of reversed and emptied
  move lists, cards moved or swapped between hands, a mid-game save marked finished).
* Undo then redo from any loaded position never raises; undoing your first move of a
  later deal works when ``can_undo`` allows it.
* A save marked finished that is not is listed as damaged, not hidden.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ui_helpers import wait_for, wait_for_screen

from twos_tui.engine import VARIANT_IDS, Action, variant_class
from twos_tui.play import history, saves
from twos_tui.play.session import AI, HUMAN, SeatConfig, Session, UndoRefused

CONFIGS = [(v, n) for v in VARIANT_IDS for n in variant_class(v).player_counts]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    history.RECORDER.flush()


def one_human(players: int) -> list[SeatConfig]:
    return [SeatConfig("Ann", HUMAN)] + [
        SeatConfig(f"Bot{i}", AI, "easy") for i in range(1, players)
    ]


def play(session: Session, moves: int, rng: random.Random, deal_ends: bool = True) -> None:
    """``moves`` random legal moves (every seat), dealing on at a deal's end."""
    for _ in range(moves):
        g = session.game
        if g.match_over:
            return
        if g.deal_over:
            if not deal_ends:
                return
            session.next_deal()
            continue
        seat = rng.choice(g.to_act())
        session.apply(seat, rng.choice(g.legal_actions(seat)))


def saved(session: Session) -> dict:
    return json.loads(json.dumps(session.to_json()))


# ----- the property ------------------------------------------------------------------------
@settings(max_examples=120)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**256),
    moves=st.integers(0, 160),
    rng_seed=st.integers(0, 2**32),
)
def test_every_save_that_loads_replays_and_undo_redo_never_raises(config, seed, moves, rng_seed):
    variant, players = config
    rng = random.Random(rng_seed)
    s = Session.start(variant, one_human(players), seed=seed, autosave=False)
    play(s, moves, rng)
    data = saved(s)
    loaded = Session.from_json(data, autosave=False)  # every genuine save loads
    g = loaded.game
    assert g.to_json() == s.game.to_json()
    assert g.replay().to_json() == g.to_json()
    # from the loaded position: undo is refused politely or works, never raises else
    reason = loaded.can_undo()
    if reason is not None:
        with pytest.raises(UndoRefused):
            loaded.undo()
    # the person moves, takes it back, plays it again (redo): the same states
    for _ in range(40):  # the AI seats move until the person is asked
        if g.deal_over or g.match_over or 0 in g.to_act():
            break
        seat = g.to_act()[0]
        loaded.apply(seat, rng.choice(g.legal_actions(seat)))
    if g.deal_over or g.match_over or 0 not in g.to_act():
        return
    before = json.dumps(g.to_json())
    move = rng.choice(g.legal_actions(0))
    loaded.apply(0, move)
    after = json.dumps(loaded.game.to_json())
    if loaded.game.deal_over:  # the move ended the deal: it is in the history for good
        with pytest.raises(UndoRefused):
            loaded.undo()
        return
    assert loaded.can_undo() is None
    loaded.undo()
    assert json.dumps(loaded.game.to_json()) == before
    loaded.apply(0, move)  # redo
    assert json.dumps(loaded.game.to_json()) == after


# ----- the mutation test ---------------------------------------------------------------------
def _mid_game(variant: str, deals: int = 1, moves: int = 12, seed: int = 5) -> dict:
    players = variant_class(variant).default_players
    s = Session.start(variant, one_human(players), seed=seed, autosave=False)
    rng = random.Random(seed)
    for _ in range(deals - 1):
        while not s.game.deal_over:
            play(s, 1, rng)
        s.next_deal()
    play(s, moves, rng, deal_ends=False)
    assert not s.game.deal_over
    s.close()
    return saved(s)


def _hands(data: dict) -> list[list[str]]:
    return data["game"]["hands"]


def _reverse(d: dict) -> None:
    d["game"]["actions"].reverse()


def _empty(d: dict) -> None:
    d["game"]["actions"] = []


def _cut(d: dict) -> None:
    del d["game"]["actions"][-1]


def _move_card(d: dict) -> None:
    hands = _hands(d)
    giver = max(range(len(hands)), key=lambda i: len(hands[i]))
    taker = (giver + 1) % len(hands)
    hands[taker].append(hands[giver].pop())
    hands[taker].sort()


def _swap_cards(d: dict) -> None:
    hands = _hands(d)
    a, b = [i for i, h in enumerate(hands) if h][:2]  # the first two seats holding cards
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]


def _mark_finished(d: dict) -> None:
    d["game"]["match_over"] = True
    d["game"]["deal_over"] = True


def _change_totals(d: dict) -> None:
    d["game"]["totals"][0] += 1


def _forge_log(d: dict) -> None:
    d["game"]["history"][0]["text"] = "Ann holds every two."


MUTATIONS = {
    "a log line forged": _forge_log,
    "reversed moves": _reverse,
    "no moves": _empty,
    "last move cut": _cut,
    "a card moved to another hand": _move_card,
    "cards swapped between hands": _swap_cards,
    "marked finished mid-game": _mark_finished,
    "a total changed": _change_totals,
}


@pytest.mark.parametrize("variant", ["twos", "big-two", "twos-tricks", "chinese-poker", "2v1"])
@pytest.mark.parametrize("deals", [1, 2])
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_impossible_saves_are_refused_with_a_short_reason(variant, deals, mutation):
    good = _mid_game(variant, deals, moves=14 if variant != "2v1" else 8)
    saves.load_save_data(copy.deepcopy(good))  # the genuine one loads
    bad = copy.deepcopy(good)
    MUTATIONS[mutation](bad)
    assert bad != good
    with pytest.raises(saves.SaveError) as err:
        saves.load_save_data(bad)
    reason = str(err.value)
    assert 10 < len(reason) <= 160, reason
    assert "\n" not in reason


def test_the_reason_names_what_differs():
    good = _mid_game("twos")
    bad = copy.deepcopy(good)
    _swap_cards(bad)
    with pytest.raises(saves.SaveError, match=r"does not match a replay .*hands"):
        saves.load_save_data(bad)
    bad = copy.deepcopy(good)
    _reverse(bad)
    with pytest.raises(saves.SaveError, match="replay"):
        saves.load_save_data(bad)


def test_a_save_marked_finished_mid_game_is_listed_as_damaged():
    bad = _mid_game("twos")
    _mark_finished(bad)
    save_id = "20260101-000000-twos-abcdef012345"
    saves.write_save(save_id, bad)
    [info] = saves.scan_saves()
    assert info.save_id == save_id
    assert info.status == "damaged" and info.problem
    # a genuinely finished save is still listed as finished
    s = Session.start("twos", one_human(3), options={"deals_to_win": 1}, seed=3)
    rng = random.Random(2)
    while not s.game.match_over:
        play(s, 1, rng)
    s.close()
    ok = [i for i in saves.scan_saves() if i.ok]
    assert [i.save_id for i in ok] == [s.save_id] and ok[0].match_over


# ----- undo in a later deal (item 3) ---------------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_undoing_your_first_move_of_a_later_deal_works(variant, players):
    """When ``can_undo`` allows it, the undo happens: the first move of deal 2 (also
    when it is the deal's very first action) is taken back to the state before it. The
    person sits in every seat in turn, so some of them open deal 2."""
    firsts = 0
    for seed in range(2):
        for me in range(players):
            seats = [SeatConfig(f"Bot{i}", AI, "easy") for i in range(players)]
            seats[me] = SeatConfig("Ann", HUMAN)
            s = Session.start(variant, seats, seed=seed, autosave=False)
            rng = random.Random(seed)
            while not s.game.deal_over:
                play(s, 1, rng)
            if s.game.match_over:
                continue
            s.next_deal()
            g = s.game
            while me not in g.to_act() and not g.deal_over:
                seat = g.to_act()[0]
                s.apply(seat, s.ai_choose(seat))
                g = s.game
            if g.deal_over:
                continue
            firsts += s.tracker.deal_start == len(g.actions)
            before = json.dumps(g.to_json())
            s.apply(me, rng.choice(g.legal_actions(me)))
            assert s.can_undo() is None
            s.undo()
            assert json.dumps(s.game.to_json()) == before
    assert firsts > 0  # the case of the issue: the deal's first action was the person's


def test_undo_of_a_game_the_engine_cannot_replay_is_refused_not_raised():
    """A game whose moves no longer replay (changed under the session): undo says so
    and leaves the game as it is."""
    s = Session.start("twos", one_human(3), seed=4, autosave=False)
    g = s.game
    while 0 not in g.to_act():
        seat = g.to_act()[0]
        s.apply(seat, s.ai_choose(seat))
    s.apply(0, random.Random(1).choice(g.legal_actions(0)))
    s.game.actions[0] = (s.game.actions[0][0], Action("play", ("3S", "3S")).to_json())
    state = json.dumps(s.game.to_json())
    with pytest.raises(UndoRefused, match="cannot be replayed"):
        s.undo()
    assert json.dumps(s.game.to_json()) == state


async def test_undo_at_the_table_never_ends_the_app():
    """ctrl+z on a game whose moves cannot be replayed, then on a session whose undo
    fails in any way: a message each time, the game kept, the app running."""
    from test_ui_play import human_turn
    from test_ui_stats import message

    from twos_tui.ui.app import make_app
    from twos_tui.ui.screens.table import TableScreen

    session = Session.start("twos", None, 3, {}, seed=9)
    while 0 not in session.game.to_act():
        seat = session.game.to_act()[0]
        session.apply(seat, session.ai_choose(seat))
    app = make_app(ai_pause=30.0, session=session)  # the AI waits: the position stays
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_screen(
            pilot, TableScreen, "the human's turn", when=lambda s: s._decision is not None
        )
        n = len(screen.session.game.actions)
        await human_turn(pilot, screen, random.Random(9))
        await wait_for(pilot, lambda: len(screen.session.game.actions) > n, "the move")
        g = screen.session.game
        assert screen.session.can_undo() is None
        g.actions[0] = (g.actions[0][0], Action("play", ("3S", "3S")).to_json())
        state = json.dumps(g.to_json())
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "cannot be replayed" in message(screen), "the refusal")
        assert json.dumps(screen.session.game.to_json()) == state

        def broken_undo() -> int:
            raise RuntimeError("the disk caught fire")

        screen.session.undo = broken_undo  # whatever undo raises
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "Could not take that back" in message(screen), "refusal")
        assert app.is_running and app.return_code is None
        assert json.dumps(screen.session.game.to_json()) == state
