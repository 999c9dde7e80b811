"""Helpers shared by the engine tests."""

import json

import pytest

from twos_tui.engine import IllegalAction


def state(g) -> str:
    """The whole state of a game as canonical JSON text."""
    return json.dumps(g.to_json(), sort_keys=True)


def refused(g, seat, action, *words):
    """``action`` is refused with a reason naming ``words`` and changes nothing."""
    before = state(g)
    reason = g.check(seat, action)
    assert reason is not None
    for w in words:
        assert w.lower() in reason.lower(), reason
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert state(g) == before
    return reason


def assert_leads_match_brute_force(g, rng, hands: int = 12, sizes=(1, 2, 3, 5)) -> None:
    """For random 13-card hands of seat 0, the listed leads are exactly the plays found by
    classifying every subset of ``sizes`` cards (poker-hand variants: concrete cards)."""
    import itertools

    from twos_tui.engine.climbing.poker_cards import CODE_IDX

    deck = sorted(CODE_IDX, key=CODE_IDX.get)
    for _ in range(hands):
        hand = sorted(rng.sample(deck, 13), key=CODE_IDX.get)
        g.hands[0] = hand
        g.top, g.required_card = None, None
        got = {(x.cards, x.kind, x.key) for x in g.enumerate_combos(0, None)}
        brute = set()
        for n in sizes:
            for sub in itertools.combinations(hand, n):
                x = type(g).classify_cards(sub, g.options)
                if x:
                    brute.add((x.cards, x.kind, x.key))
        assert got == brute


def record_corpus_tool():
    """``tools/record_corpus.py`` as a module (loaded once): the frozen corpus's reader."""
    import importlib.util
    import sys
    from pathlib import Path

    name = "record_corpus"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent.parent / "tools" / "record_corpus.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
