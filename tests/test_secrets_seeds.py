"""Issue 23 item 1: a seed no one can guess from their hand.

* Seeds the app draws come from the operating system and are large enough that what one
  seat sees of a deal cannot narrow the seed below 2**40 candidates (a counting argument,
  below, checked for every game and table size).
* Every deal after the first is shuffled by a generator of its own, a keyed hash of the
  match seed and the deal's number: one deal (or the generator after it) tells nothing
  about the next.
* A match's seed is in no save's name, no network message, no export while the match is
  on (after it, the game log shows it for replay).
* ``--seed 7`` still deals the same first hands as before (hundreds of snapshots and
  golden tests rest on them).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re

import pytest

from twos_tui.engine import VARIANT_IDS, new_game, variant_class
from twos_tui.engine.protocol import deal_seed
from twos_tui.play import history, saves
from twos_tui.play import session as session_mod
from twos_tui.play.replay import export_csv, game_log
from twos_tui.play.session import SEED_BITS, SeatConfig, Session, is_drawn_seed, random_seed

CONFIGS = [(v, n) for v in VARIANT_IDS for n in variant_class(v).player_counts]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    yield tmp_path
    history.RECORDER.flush()


def _log2_multinomial(total: int, blocks: list[int]) -> float:
    rest = total - sum(blocks)
    ln = math.lgamma(total + 1) - sum(math.lgamma(k + 1) for k in blocks) - math.lgamma(rest + 1)
    return ln / math.log(2)


def _dealt(variant: str, players: int, seed: int):
    """The game at the first moment a seat holds cards (2-player Chinese Poker deals
    three face-down stacks and the dealer picks one first)."""
    g = new_game(variant, players, {}, seed)
    while not any(g.observation(s)["hand"] for s in range(players)):
        seat = g.to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    return g


# ----- the seed comes from the OS and is large ---------------------------------------------
def test_drawn_seeds_come_from_the_operating_system(monkeypatch):
    asked: list[int] = []
    real = session_mod.secrets.randbits

    def randbits(k: int) -> int:
        asked.append(k)
        return real(k)

    monkeypatch.setattr(session_mod.secrets, "randbits", randbits)
    seeds = [random_seed() for _ in range(64)]
    assert asked == [SEED_BITS] * 64
    assert len(set(seeds)) == 64
    assert all(s.bit_length() == SEED_BITS + 1 and is_drawn_seed(s) for s in seeds)
    # the low SEED_BITS bits vary all over their range (not a small number shifted up)
    low = [s & ((1 << SEED_BITS) - 1) for s in seeds]
    assert max(low).bit_length() >= SEED_BITS - 8
    # a new table with no seed chosen gets one of these
    s = Session.start("twos", seed=None, autosave=False)
    assert is_drawn_seed(s.game.seed) and asked[-1] == SEED_BITS


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_one_seats_view_cannot_narrow_the_seed_below_2_40(variant, players):
    """The counting argument, by construction.

    What a seat sees when its hand is dealt is a function of the seed with at most ``V``
    values: its hand (``C(deck, hand)``), the cards shown in the cut for the deal (at
    most ``deck`` each) and who deals and starts (``players`` each). Seeds are drawn
    uniformly from ``2**SEED_BITS`` values, so the views with fewer than ``2**40`` seeds
    behind them hold at most ``V * 2**40`` seeds together: the chance that the drawn seed
    is one of those is at most ``V * 2**40 / 2**SEED_BITS``, required here to be under
    ``2**-100``. In every other case at least ``2**40`` seeds fit everything the seat
    sees. Even seeing the whole deal (every hand, as at the end of a trick game) leaves
    that chance under ``2**-64``. (A 13-card hand alone is 39.2 bits: 64-bit seeds would
    leave about 2**25 candidates, and 128-bit ones fail the bound with the whole deal.)
    Later deals are shuffled from a keyed hash of the seed (see the next tests), so they
    add nothing to search with short of trying all ``2**SEED_BITS`` seeds."""
    g = _dealt(variant, players, random_seed())
    deck = len(g.deck_cards())
    hands = [len(g.observation(s)["hand"]) for s in range(players)]
    cut_cards = players * sum(1 for h in g.history if h["text"].startswith("Cut for the deal"))
    public = cut_cards * math.log2(deck) + 2 * math.log2(players)
    one_hand = max(math.log2(math.comb(deck, h)) for h in hands if h)
    view = one_hand + public
    assert view + 40 + 100 <= SEED_BITS, (variant, players, view)
    whole_deal = _log2_multinomial(deck, [h for h in hands if h]) + public
    assert whole_deal + 40 + 64 <= SEED_BITS, (variant, players, whole_deal)


def test_the_old_brute_force_no_longer_finds_the_deal():
    """The attack of the issue: try every seed under a million against your own hand. A
    drawn seed is never among them (and no small seed deals the same hand)."""
    seed = random_seed()
    mine = sorted(new_game("big-two", 4, {}, seed).observation(0)["hand"])
    found = [
        s
        for s in range(20_000)  # a slice of the old space: enough to show none is it
        if sorted(new_game("big-two", 4, {}, s).observation(0)["hand"]) == mine
    ]
    assert found == [] and seed >= 2**SEED_BITS


# ----- each deal from its own generator ------------------------------------------------------
def _finish_deal(g, rng: random.Random) -> None:
    while not g.deal_over:
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_the_next_deal_does_not_follow_from_the_generator_of_this_one(variant):
    """Deal 2 comes from ``deal_seed(seed, 2)`` alone: tampering with the generator left
    after deal 1 (all a seat could learn of deal 1) changes nothing; and it is not what
    the old single stream (``random.Random(seed)`` going on) would have dealt."""
    for seed in (3, 7, random_seed()):
        g = new_game(variant, None, {}, seed)
        _finish_deal(g, random.Random(seed))
        if g.match_over:
            continue
        other = type(g).from_json(json.loads(json.dumps(g.to_json())))
        other.rng = random.Random(12345)  # a different state after deal 1
        old = type(g).from_json(json.loads(json.dumps(g.to_json())))
        g.next_deal()
        other.next_deal()
        assert g.card_census() == other.card_census()
        assert g.rng.getstate() != random.Random(seed).getstate()
        expected = random.Random(deal_seed(seed, 2))
        # the shuffle used the deal's own generator: re-dealing with it gives the same
        old.rng = random.Random(12345)
        old.reseed_for_next_deal()
        assert old.rng.getstate() == expected.getstate()
    # the old single stream: deal 2 continued the generator of deal 1
    g = new_game("twos-tricks", 4, {}, 5)
    _finish_deal(g, random.Random(1))
    stream = type(g).from_json(json.loads(json.dumps(g.to_json())))
    stream.start_deal()  # what next_deal did before (no new generator)
    g.next_deal()
    assert g.card_census() != stream.card_census()


def test_deal_seeds_are_a_keyed_hash_of_seed_and_deal():
    assert deal_seed(7, 2) == int.from_bytes(
        hashlib.blake2b(b"twos-tui-deal:7:2", digest_size=32).digest(), "big"
    )
    assert len({deal_seed(7, k) for k in range(2, 50)}) == 48
    assert deal_seed(7, 2) != deal_seed(8, 2)


#: sha256 of deal 1 (every card where it lies, and the log) with ``--seed 7``, as dealt
#: before issue 23: a chosen seed's first deal is unchanged
DEAL_1_SEED_7 = {
    "twos-2": "816088fc67850dcd",
    "twos-3": "96aae95cc154703c",
    "big-two-2": "85a6214c7d2382e2",
    "big-two-3": "fef86b0d7b1d050c",
    "big-two-4": "22687cfee1fdb369",
    "big-two-5r-4": "22687cfee1fdb369",
    "chinese-poker-2": "14de506ed5af5d88",
    "chinese-poker-3": "aa7f492323aa581f",
    "chinese-poker-4": "150e37af38829923",
    "2v1-3": "c260c7b04ffa39c6",
    "twos-tricks-4": "ac0507dbaf15299b",
}


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_a_chosen_seed_deals_the_same_first_deal_as_before(variant, players):
    g = new_game(variant, players, {}, 7)
    text = json.dumps([g.card_census(), g.history], sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == DEAL_1_SEED_7[f"{variant}-{players}"]


def test_a_chosen_seed_replays_whole_matches():
    """``--seed N`` replays: the same seed and moves give the same match, deal after deal."""
    a = new_game("twos-tricks", 4, {"game_length": 4}, 42)
    rng = random.Random(9)
    for _ in range(3):
        _finish_deal(a, rng)
        a.next_deal()
    assert a.deal_number == 4
    # (saved just after a new deal was dealt: the replay deals it too)
    assert a.replay().to_json() == a.to_json()


def test_play_again_follows_a_chosen_seed_and_draws_a_new_secret_one():
    chosen = Session.start("twos", seed=7, autosave=False)
    assert chosen.again().game.seed == 8
    drawn = Session.start("twos", autosave=False)
    nxt = drawn.again().game.seed
    assert is_drawn_seed(nxt) and nxt != drawn.game.seed + 1


# ----- the seed is in nothing a seat can read while the match is on ---------------------------
def _digit_runs(seed: int) -> list[str]:
    """Pieces of the seed's decimal and hex spellings (8 digits or more find it)."""
    out = []
    for text in (str(seed), f"{seed:x}"):
        out += [text[i : i + 8] for i in range(0, len(text) - 7, 4)]
    return out


@pytest.mark.parametrize("seed", [None, 123456789, 7])
def test_no_save_name_carries_the_seed(seed):
    s = Session.start("big-two", seed=seed)
    s.flush()
    names = sorted(p.name for p in saves.saves_dir().iterdir())
    assert f"{s.save_id}.json" in names
    for name in names:  # the save and its lock
        assert name.startswith(s.save_id)
    assert re.fullmatch(r"\d{8}-\d{6}-big-two-[0-9a-f]{12}", s.save_id)
    for name in names:
        if seed is None:
            assert not any(run in name for run in _digit_runs(s.game.seed))
        else:
            assert f"-big-two-{seed}-" not in name  # the old names: ...-big-two-7-1a2b
    s.close()


def _play_to_deal_end(s: Session, rng: random.Random) -> None:
    while not s.game.deal_over:
        seat = s.game.to_act()[0]
        s.apply(
            seat,
            s.ai_choose(seat) if s.seats[seat].is_ai else rng.choice(s.game.legal_actions(seat)),
        )


def test_exports_hide_the_seed_until_the_match_is_over():
    seats = [SeatConfig("Ann"), SeatConfig("Bob", "ai"), SeatConfig("Cy", "ai")]
    s = Session.start("twos", seats, options={"deals_to_win": 2}, seed=None)
    seed = s.game.seed
    rng = random.Random(1)
    _play_to_deal_end(s, rng)
    assert not s.game.match_over
    history.RECORDER.flush()
    conn = history.open_history()
    log, csv_text = game_log(conn, 1), export_csv(conn)
    assert "kept secret until the match is over" in log
    for text in (log, csv_text):
        assert not any(run in text for run in _digit_runs(seed)), text[:300]
    while not s.game.match_over:
        s.next_deal()
        _play_to_deal_end(s, rng)
    history.RECORDER.flush()
    assert f"Seed {seed};" in game_log(conn, 1)
    assert str(seed) in export_csv(conn)
    s.close()


async def test_no_network_message_carries_the_seed():
    from net_helpers import live_server, play_match

    from twos_tui.play.net.server import HostedTable

    sent: list[str] = []
    async with live_server(rate=1000, burst=1000) as server:
        server.send_hook = lambda table, seat, text: sent.append(text)
        table = server.add(
            HostedTable.create(
                "twos",
                ["remote", "remote", "ai"],
                options={"deals_to_win": 2},
                level="easy",
                autosave=False,
                ai_pause=0.0,
            )
        )
        seed = table.game.seed
        assert is_drawn_seed(seed)
        await play_match(server, table, timeout=60)
        assert table.game.deal_number >= 2
    assert len(sent) > 20
    runs = _digit_runs(seed) + [table.session.save_id]
    assert [t[:200] for t in sent if any(r in t for r in runs)] == []
