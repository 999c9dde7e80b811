"""Every refusal is a sentence a learner understands (issue 21 item 4).

Walks seeded deals of every game and, at every step, tries each class of illegal move a
newcomer makes (the wrong pattern, too low, the wrong suit, not your turn, a card not in
the hand, a pass when leading, a bid out of range...). Each must be refused with a
reason that names what is wrong for that class, never a bare "illegal move", and must
change nothing."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from engine_helpers import refused

from twos_tui.engine import Action, new_game
from twos_tui.engine.protocol import Game

#: (variant, players) walked, with the number of seeded deals each
CONFIGS = [
    ("twos", 3, 4),
    ("twos", 2, 2),
    ("big-two", 4, 4),
    ("big-two", 3, 2),
    ("big-two-5r", 4, 4),
    ("chinese-poker", 2, 3),
    ("chinese-poker", 4, 3),
    ("2v1", 3, 12),
    ("twos-tricks", 4, 3),
]

#: what each class of mistake must be told (a regular expression, case-insensitive)
EXPECT: dict[str, str] = {
    "not your turn": r"^It is not your turn: waiting for \w|^You have already made your choice",
    "not in hand": r" is not in your hand\.$",
    "chosen twice": r" is chosen twice\.$",
    "no such card": r"is not a card",
    "no such move": r"is not a move in|^Now is the time to |^Play one card \("
    r"|^First choose one of the hands on offer\.",
    "wrong count": r"\(you chose \d+\)\.$",
    "empty selection": r"^Select at least one card",
    "pass when leading": r"^You lead this trick: play something",
    "not a combination": r"is not a (play|straight|poker hand)|must be|must form|needs"
    r"|must be played with|do not wrap|has no four-card play|plays are 1, 2, 3 or 5|straights are",
    "wrong pattern": r"holds|only|does not follow that pattern|beat",
    "too low": r"does not beat|not above|Nothing tops|only by a higher|the higher|only be beaten",
    "missing the starting card": r"^The first play of the deal must include ",
    "hand not on offer": r"is not on offer: choose ",
    "must follow suit": r"^You must follow |^The rainbow has no suit: you may play it only when",
    "bid out of range": r"^Bid 3 or 4 \(hands you will take exactly\), or pass",
    "overcall too low": r"^3 has been bid already: overcall with 4 or pass\.",
    "raise out of range": r"^Keep your bid at 3 or raise it to 4\.",
    "exchange without the rainbow": r"^You hold the rainbow: it must be one of the two",
    "rainbow led face up": r"^The rainbow may not be led face up",
}

#: wording that tells a learner nothing about what is wrong
GENERIC = re.compile(
    r"^(illegal|invalid|not allowed|not legal|bad move|error)\b|illegal move|invalid move"
    r"|is not a combination you can play",
    re.IGNORECASE,
)

#: classes every walk of that variant must meet at least once
REQUIRED: dict[str, set[str]] = {
    "climbing": {
        "not your turn",
        "not in hand",
        "chosen twice",
        "no such card",
        "no such move",
        "empty selection",
        "not a combination",
        "wrong pattern",
        "too low",
    },
    "twos-tricks": {
        "not your turn",
        "not in hand",
        "no such card",
        "no such move",
        "wrong count",
        "must follow suit",
    },
    "2v1": {
        "not your turn",
        "not in hand",
        "chosen twice",
        "no such card",
        "no such move",
        "wrong count",
        "must follow suit",
        "bid out of range",
        "overcall too low",
        "exchange without the rainbow",
        "rainbow led face up",
    },
}
EXTRA_REQUIRED = {
    "twos": {"pass when leading"},
    "big-two": {"pass when leading", "missing the starting card"},
    "big-two-5r": {"pass when leading", "missing the starting card"},
    "chinese-poker": {"hand not on offer"},
}


def family(g: Game) -> str:
    if g.variant_id in ("2v1", "twos-tricks"):
        return g.variant_id
    return "climbing"


def hand(g: Game, seat: int) -> list[str]:
    return list(g.observation(seat)["hand"])


def others_cards(g: Game, seat: int) -> list[str]:
    return [c for s in range(g.players) if s != seat for c in hand(g, s)]


def attempts(g: Game, rng: random.Random) -> Iterator[tuple[str, int, Action]]:
    """(class, seat, action) for illegal moves in the present state."""
    acting = g.to_act()
    seat = acting[0]
    dec = g.decision(seat)
    assert dec is not None
    mine = hand(g, seat)
    legal = g.legal_actions(seat)
    idle = [s for s in range(g.players) if s not in acting]
    if idle:
        yield "not your turn", rng.choice(idle), rng.choice(legal)
    yield "no such move", seat, Action("dance")
    submit = dec.submit
    if dec.select is not None and submit is not None and mine:
        lo, hi = dec.select
        theirs = others_cards(g, seat)
        if theirs:
            n = max(lo, 1)
            picked = rng.sample(mine, min(n, len(mine)))[: n - 1] + [rng.choice(theirs)]
            yield "not in hand", seat, Action(submit, tuple(picked))
        yield "no such card", seat, Action(submit, ("1X",))
        if hi >= 2:
            c = rng.choice(mine)
            yield "chosen twice", seat, Action(submit, (c, c) + tuple(mine[: max(lo - 2, 0)]))
        if lo == hi and len(mine) > lo:
            yield "wrong count", seat, Action(submit, tuple(rng.sample(mine, lo + 1)))
    fam = family(g)
    if fam == "climbing":
        yield from climbing_attempts(g, seat, mine, rng)
    elif fam == "twos-tricks":
        yield from tricks_attempts(g, seat, mine)
    else:
        yield from two_v_one_attempts(g, seat, mine)


def climbing_attempts(g, seat, mine, rng) -> Iterator[tuple[str, int, Action]]:
    if getattr(g, "phase", "play") == "choose":
        yield "hand not on offer", seat, Action("choose-hand", value="Z")
        return
    yield "empty selection", seat, Action("play", ())
    if g.top is None and not g.can_pass(seat):
        yield "pass when leading", seat, Action("pass")
    # a few selections that make no combination
    sizes = [n for n in (2, 3, 4, 5, 6) if n <= len(mine)]
    for _ in range(6):
        if not sizes:
            break
        sub = tuple(rng.sample(mine, rng.choice(sizes)))
        if g.classify(sub) is None:
            yield "not a combination", seat, Action("play", sub)
    combos = g.enumerate_combos(seat, None)
    rng.shuffle(combos)
    req = g.required_card
    if req is not None:
        other = [c for c in mine if c != req]
        if other:  # a single is always a combination
            yield "missing the starting card", seat, Action("play", (rng.choice(other),))
    top = g.top
    if top is None:
        return
    pattern = [c for c in combos if c.slot != top.slot and not c.beats(top)]
    low = [c for c in combos if c.slot == top.slot and not c.beats(top)]
    for c in pattern[:3]:
        yield "wrong pattern", seat, Action("play", c.cards)
    for c in low[:3]:
        yield "too low", seat, Action("play", c.cards)


def tricks_attempts(g, seat, mine) -> Iterator[tuple[str, int, Action]]:
    led = g.led_suit
    if led is None:
        return
    if any(c[-1] == led and c[:-1] != "2" for c in mine):
        for c in mine:
            if c[-1] != led and c[:-1] != "2":
                yield "must follow suit", seat, Action("play", (c,))
                break


def two_v_one_attempts(g, seat, mine) -> Iterator[tuple[str, int, Action]]:
    from twos_tui.engine.two_v_one.deck import RAINBOW

    phase = g.phase
    if phase != "bid":
        yield "no such move", seat, Action("bid", value=3)
    if phase == "bid":
        for v in (1, 2, 5, -1, "three"):
            yield "bid out of range", seat, Action("bid", value=v)
        if g.high_bid is not None:
            yield "overcall too low", seat, Action("bid", value=3)
        yield "no such move", seat, Action("lead", ("1M",))
    elif phase == "raise":
        yield "raise out of range", seat, Action("raise", value=5)
    elif phase == "exchange" and RAINBOW in mine:
        others = [c for c in mine if c != RAINBOW]
        yield "exchange without the rainbow", seat, Action("exchange", tuple(others[:2]))
    elif phase == "lead" and RAINBOW in mine:
        yield "rainbow led face up", seat, Action("lead", (RAINBOW,))
    elif phase == "follow":
        legal = {a.cards for a in g.legal_actions(seat)}
        for c in mine:
            if (c,) not in legal:
                yield "must follow suit", seat, Action("follow", (c,))
                break


def walk(variant: str, players: int, deals: int) -> Counter[str]:
    """Play ``deals`` seeded deals, trying every mistake at every step; the classes met."""
    met: Counter[str] = Counter()
    for seed in range(deals):
        g = new_game(variant, players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.deal_over:
            for cls, seat, action in attempts(g, rng):
                reason = g.check(seat, action)
                where = f"{variant} seed {seed} step {steps}: {cls} {action}"
                assert reason is not None, f"{where} was accepted"
                assert not GENERIC.search(reason), f"{where}: generic reason {reason!r}"
                assert re.search(EXPECT[cls], reason, re.IGNORECASE), (
                    f"{where}: reason {reason!r} does not say {cls!r}"
                )
                assert reason.rstrip()[-1] in ".)", f"{where}: not a sentence: {reason!r}"
                if met[cls] < 2:  # apply refuses the same way and changes nothing
                    assert refused(g, seat, action) == reason
                met[cls] += 1
            seat = rng.choice(g.to_act())
            moves = g.legal_actions(seat)
            if variant == "2v1" and seed % 2 and Action("bid", value=0) in moves:
                moves = [Action("bid", value=0)]  # nobody bids: the exchange follows
            g.apply(seat, rng.choice(moves))
            steps += 1
    return met


@pytest.mark.parametrize(
    ("variant", "players", "deals"), CONFIGS, ids=[f"{v}-{p}" for v, p, _ in CONFIGS]
)
def test_every_mistake_gets_a_specific_reason(variant, players, deals):
    met = walk(variant, players, deals)
    g = new_game(variant, players)
    need = REQUIRED[family(g)] | EXTRA_REQUIRED.get(variant, set())
    if (variant, players) in {("chinese-poker", 4)}:
        need = need - {"hand not on offer"}  # only two players choose hands
    missing = need - set(met)
    assert not missing, f"{variant}: never tried {sorted(missing)} (met {dict(met)})"


def test_the_walk_meets_many_mistakes():
    """The walk is not vacuous: thousands of refusals over all the games."""
    total = sum(sum(walk(v, p, 1).values()) for v, p, _ in CONFIGS)
    assert total > 2000


@pytest.mark.parametrize("variant", ["twos", "big-two", "big-two-5r", "chinese-poker"])
def test_every_wrong_shape_of_two_to_five_cards_is_explained(variant):
    """Exhaustively: every 2-5 card selection of a dealt hand that is no play gets a
    reason naming the shape rule (not the catch-all)."""
    g = new_game(variant, 4 if variant != "twos" else 3, seed=11)
    if getattr(g, "phase", "play") == "choose":
        g.apply(g.to_act()[0], g.legal_actions(g.to_act()[0])[0])
    seat = g.to_act()[0]
    mine = hand(g, seat)[:9]
    seen = 0
    for n in (2, 3, 4, 5):
        for sub in itertools.combinations(mine, n):
            if g.classify(sub) is not None:
                continue
            reason = g.why_not_combination(sub)
            assert not GENERIC.search(reason), reason
            assert re.search(EXPECT["not a combination"], reason, re.IGNORECASE), reason
            seen += 1
    assert seen > 50
