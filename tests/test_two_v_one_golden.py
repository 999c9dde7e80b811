"""2v1 byte for byte: a seeded set of full matches, played with random legal moves, gives
exactly the digests recorded before the engine was split by phase (docs/rules.md §5).

The digests cover the whole state (``to_json()`` after every move, key order included),
every seat's observation and decision, the legal moves and the reasons given to wrong
moves of the seat to act. A change to any of these is a change of behaviour: if it is
meant, say so in the commit and record the new digests with ``python
tests/test_two_v_one_golden.py``."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from twos_tui.engine import load_game, new_game
from twos_tui.engine.protocol import Action

#: seeds whose matches (with the moves below) include exchanges, forced bids, raises,
#: blindfold hands and three play-offs (seeds 6, 7 and 8), under all three targets. (Until
#: issue 23 the play-offs came with seeds 9, 12 and 19; each deal after the first is now
#: shuffled from a keyed hash of the seed and the deal number, so the matches changed.)
SEEDS = (0, 1, 6, 7, 8, 13, 25, 30)

#: first recorded on main before the split (commit ee066a6); "view" again when the
#: observation gained ``deal_scores`` (issue 16); all three again for issue 23's per-deal
#: shuffles and the seeds above (deal 1 of every seed is dealt as before); "view" again
#: when the exchange's status named three players "Ada, Bram and Cleo" (was "Ada and Bram
#: and Cleo"), with the words of engine/words.py; "view" again when it was taken with the
#: keys sorted (issue 28: the observation is the typed view's JSON, whose log lines list
#: their keys in one order) — the same digest from the code before and after that change
GOLDEN = {
    "state": "36cd0ba1335cb9f4e23c6f1626ce8263b3be0e8dcf2c6960231173c1256e451c",
    "view": "ef06f894a15c9283c9badb60bdd6aa6a153b6cd46e4eece9274036a379dcbb3a",
    "reasons": "2e50825a9fadf3bb173ca7f5f682dfc1d8290e2f5a89732809a28bab9b745e87",
}

#: wrong moves tried on the seat to act: every kind with no cards and no value, and
#: a few out-of-range values and cards
PROBES = (
    *(Action(k) for k in ("bid", "raise", "exchange", "discard", "lead", "hide", "follow")),
    Action("keep"),
    Action("bid", value=5),
    Action("raise", value=2),
    Action("keep", value="RB"),
    Action("lead", ("RB",)),
    Action("follow", ("1M",)),
    Action("exchange", ("1M", "1M")),
)


def _dump(x: object) -> bytes:
    return json.dumps(x, ensure_ascii=False, allow_nan=False).encode()


def _dump_view(x: object) -> bytes:
    """An observation's bytes, keys sorted: the keys inside its objects (a log line's)
    are in the typed view's order since the view is what the game builds (issue 28), and
    the order of a JSON object's keys is no part of the game."""
    return json.dumps(x, ensure_ascii=False, allow_nan=False, sort_keys=True).encode()


def digests(seeds=SEEDS) -> dict[str, str]:
    state, view, reasons = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    playoffs = 0
    for seed in seeds:
        g = new_game("2v1", seed=seed, options={"coins_to_win": (7, 5, 10)[seed % 3]})
        rng = random.Random(seed)
        moves = 0
        while not g.match_over:
            if g.deal_over:
                g.next_deal()
            for s in range(g.players):
                view.update(_dump_view(g.observation(s)))
                d = g.decision(s)
                view.update(_dump(d.to_json() if d is not None else None))
                view.update(_dump([a.to_json() for a in g.legal_actions(s)]))
            acting = g.to_act()
            seat = acting[rng.randrange(len(acting))]
            for probe in PROBES:
                reasons.update(_dump(g.check(seat, probe)))
            acts = g.legal_actions(seat)
            if acts[0] == Action("bid", value=0) and rng.random() < 0.8:
                move = acts[0]  # pass often, so the exchange and forced bids come up
            else:
                move = acts[rng.randrange(len(acts))]
            g.apply(seat, move)
            state.update(_dump(g.to_json()))
            moves += 1
            assert moves < 5_000
        for s in range(g.players):
            view.update(_dump_view(g.observation(s)))
        back = load_game(json.loads(json.dumps(g.to_json())))
        assert _dump(back.to_json()) == _dump(g.to_json())
        assert _dump(g.replay().to_json()) == _dump(g.to_json())
        playoffs += g.playoff
    assert playoffs == 3
    return {"state": state.hexdigest(), "view": view.hexdigest(), "reasons": reasons.hexdigest()}


@pytest.mark.slow  # about three seconds: the full suite runs it
def test_seeded_matches_are_byte_identical_to_the_recorded_ones():
    assert digests() == GOLDEN


if __name__ == "__main__":
    print(json.dumps(digests(), indent=4))
