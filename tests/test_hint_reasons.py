"""Hint reasons are true of the move they suggest (issue 16, item 9).

Seeded games of every variant are played (the hint's move most of the time, a random
legal move otherwise); at every decision the hint is asked for and each claim its reason
makes is checked against the position — the seat's hand, the legal moves and, where a
claim is about the other players ("nobody can beat it"), their real hands. One small
checker per claim; a reason may make several. The hint line on the table never names the
move twice."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

import pytest

from twos_tui.ai import suggest
from twos_tui.engine import VARIANT_IDS, Action, Game, new_game
from twos_tui.engine.cards import display
from twos_tui.ui.screens.table_hints import hint_line

CLIMBING = ("twos", "big-two", "big-two-5r", "chinese-poker")


class Spot:
    """One decision: the game, the seat asked, its legal moves and the hint."""

    def __init__(self, g: Game, seat: int, legal: list[Action], action: Action, reason: str):
        self.g, self.seat, self.legal, self.action, self.reason = g, seat, legal, action, reason

    @property
    def hand(self) -> list[str]:
        return list(self.g.observation(self.seat)["hand"])

    @property
    def plays(self) -> list[Action]:
        return [a for a in self.legal if a.kind == "play"]

    def combo(self, cards):
        return self.g.classify(tuple(cards))

    def opponents(self) -> list[int]:
        counts = self.g.observation(self.seat)["hand_counts"]
        return [s for s in range(self.g.players) if s != self.seat and counts[s]]

    def seat_named(self, name: str) -> int:
        return list(self.g.names).index(name)


def _rank(code: str) -> str:
    return code[:-1]


def splits_a_set(hand: list[str], cards) -> bool:
    """Takes some but not all cards of a rank held two or more times."""
    held = Counter(_rank(c) for c in hand)
    used = Counter(_rank(c) for c in cards)
    return any(held[r] >= 2 and u < held[r] for r, u in used.items())


def _cards_in(text: str) -> list[str]:
    return text.split(" ")


# ----- the checkers: (pattern, check(spot, match) -> None or what is wrong) ---------------
def _empties(s: Spot, m) -> str | None:
    return None if len(s.action.cards) == len(s.hand) else "the move does not empty the hand"


def _only(s: Spot, m) -> str | None:
    return None if len(s.legal) == 1 else f"{len(s.legal)} legal moves"


def _nothing_beats(s: Spot, m) -> str | None:
    return None if not s.plays else "a legal play exists"


def _cards_left(s: Spot, m) -> str | None:
    seat = s.seat_named(m.group(1))
    n = s.g.observation(s.seat)["hand_counts"][seat]
    return None if n == int(m.group(2)) else f"{m.group(1)} holds {n}"


def _cannot_follow(s: Spot, m) -> str | None:
    counts = s.g.observation(s.seat)["hand_counts"]
    seat = s.seat_named(m.group(1))
    return None if counts[seat] < len(s.action.cards) else "they hold enough cards to follow"


def _lowest(s: Spot, m) -> str | None:
    mine = s.combo(s.action.cards)
    for a in s.plays:
        other = s.combo(a.cards)
        if len(a.cards) == len(s.action.cards) and other.kind == mine.kind and mine.beats(other):
            return f"{' '.join(a.cards)} is lower"
    return None


def _intact(s: Spot, m) -> str | None:
    return "it splits a set" if splits_a_set(s.hand, s.action.cards) else None


def _all_break(s: Spot, m) -> str | None:
    whole = [a for a in s.plays if not splits_a_set(s.hand, a.cards)]
    return f"{' '.join(whole[0].cards)} breaks nothing" if whole else None


def _beaten_by(s: Spot, seats: list[int], bombs_too: bool) -> str | None:
    mine = s.combo(s.action.cards)
    for seat in seats:
        for c in s.g.enumerate_combos(seat, mine):
            if bombs_too or not c.is_bomb:
                return f"{s.g.names[seat]} can beat it with {' '.join(c.cards)}"
    return None


def _nobody(s: Spot, m) -> str | None:
    return _beaten_by(s, s.opponents(), True)


def _only_bomb(s: Spot, m) -> str | None:
    return _beaten_by(s, s.opponents(), False)


def _they_cannot(s: Spot, m) -> str | None:
    return _beaten_by(s, [s.seat_named(m.group(1))], True)


def _keep(s: Spot, m) -> str | None:
    hand = {display(c) for c in s.hand}
    played = {display(c) for c in s.action.cards}
    kept = _cards_in(m.group(1))
    if not set(kept) <= hand - played:
        return f"{m.group(1)} is not kept in the hand"
    return None


def _gets_out(s: Spot, m) -> str | None:
    return None if len(s.action.cards) == int(m.group(1)) else "wrong card count"


def _gone(s: Spot, m) -> str | None:
    held = {display(c) for seat in range(s.g.players) for c in s.g.hands[seat]}
    return f"{m.group(1)} is still held" if m.group(1) in held else None


def _not_yours(s: Spot, m) -> str | None:
    """ "cannot win" / "not yours": the card does not win the trick as it stands."""
    from twos_tui.engine.tricks.game import resolve_trick

    plays = list(s.g.trick) + [(s.seat, s.action.cards[0])]
    win, _ = resolve_trick(plays)
    return "the card wins the trick as it stands" if win == len(plays) - 1 else None


def _plays_low(s: Spot, m) -> str | None:
    """ "Play low with X" (Twos trick-taking): no plain card of X's suit that could be
    played is lower (the 2s and the 3s that catch them are cards apart)."""
    from twos_tui.engine.cards import rank_of, suit_of

    c = s.action.cards[0]
    lower = [
        a.cards[0]
        for a in s.legal
        if suit_of(a.cards[0]) == suit_of(c) and 3 < rank_of(a.cards[0]) < rank_of(c)
    ]
    return f"{lower[0]} is lower" if lower else None


def _weakest(s: Spot, m) -> str | None:
    """2v1's "your weakest": no card kept is weaker than one given up (the rainbow,
    which must go, apart)."""
    from twos_tui.ai.two_v_one_ai import INDEX, RB, STRENGTH

    hand = s.hand
    gone = [c for c in s.action.cards if INDEX[c] != RB]
    kept = [c for c in hand if c not in s.action.cards and INDEX[c] != RB]
    if gone and kept:
        worst = max(STRENGTH[INDEX[c]] for c in gone)
        if any(STRENGTH[INDEX[c]] < worst for c in kept):
            return "a weaker card is kept"
    return None


CHECKS: list[tuple[str, Callable[[Spot, re.Match], str | None]]] = [
    (r"^Play low with", _plays_low),
    (r"your weakest", _weakest),
    (r"empties your hand", _empties),
    (r"only (legal card|move)", _only),
    (r"nothing you hold beats", _nothing_beats),
    (r"(Player \d+|\w+) has (\d+) cards? left", _cards_left),
    (r"(Player \d+|\w+) has \d+ cards? left and cannot follow", _cannot_follow),
    (r"your lowest |the lowest play that beats", _lowest),
    (r"without breaking up your hand", _intact),
    (r"would mean breaking up your hand", _all_break),
    (r"nobody can beat it", _nobody),
    (r"only a bomb can beat it", _only_bomb),
    (r"(Player \d+|\w+) has \d+ cards? left, and nothing they could hold beats it", _they_cannot),
    (r"keep ((?:\S+[♠♥♦♣] ?)+) for the end", _keep),
    (r"gets (\d+) cards out", _gets_out),
    (r"the (\S+) is gone", _gone),
    (r"cannot win this trick|this trick is not yours", _not_yours),
]
#: claims made by a template whatever the position: none may remain
FORBIDDEN = ("high enough",)


def _positions(variant: str, seeds: range, level: str = "normal", **kw):
    """Every decision of seeded deals: (game, seat, legal, hint of ``level``)."""
    for seed in seeds:
        g = new_game(variant, seed=seed)
        rng = random.Random(f"hint-reasons:{variant}:{seed}")
        for _ in range(400):
            if g.deal_over:
                break
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            d = g.decision(seat)
            assert d is not None
            hint = suggest(
                g.variant_id, g.observation(seat), legal, d, random.Random(seed), level, **kw
            )
            assert hint.level == level
            yield Spot(g, seat, legal, hint.action, hint.reason)
            g.apply(seat, hint.action if rng.random() < 0.7 else rng.choice(legal))


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_claim_of_a_hint_holds(variant):
    _claims_hold(_positions(variant, range(10)))


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_claim_of_a_hard_hint_holds(variant):
    """Hints from ``hard`` (the app's default), capped in rollouts to stay quick."""
    _claims_hold(_positions(variant, range(2), "hard", iterations=60))


def _claims_hold(spots) -> None:
    wrong: list[str] = []
    seen: Counter[str] = Counter()
    for s in spots:
        assert s.action in s.legal
        for word in FORBIDDEN:
            if word in s.reason:
                wrong.append(f"{s.reason!r}: says {word!r}")
        for pattern, check in CHECKS:
            m = re.search(pattern, s.reason)
            if m is None:
                continue
            seen[pattern] += 1
            what = check(s, m)
            if what is not None:
                wrong.append(f"{s.reason!r}: {what}")
        # the hint line names the move once
        cards = " ".join(s.g.card_face(c).label for c in s.action.cards)
        move = f"{s.action.kind} {cards}".strip()
        line = hint_line(move, s.reason, cards)
        if cards:
            first = cards.split(" ")[0]
            assert line.count(first) == max(1, s.reason.count(first)), line
        else:
            kind = s.action.kind
            assert line.lower().count(kind) <= max(1, s.reason.lower().count(kind)), line
    assert not wrong, "\n".join(wrong[:20])
    assert seen, "no claim checked"


def test_the_claims_are_met_in_the_climbing_games():
    """The checkers run: the claims the issue names are made (and so checked) somewhere."""
    seen: Counter[str] = Counter()
    for variant in CLIMBING:
        for s in _positions(variant, range(6)):
            for pattern, _check in CHECKS:
                if re.search(pattern, s.reason):
                    seen[pattern] += 1
    for pattern in (
        r"your lowest |the lowest play that beats",
        r"without breaking up your hand",
        r"nobody can beat it",
        r"nothing you hold beats",
    ):
        assert seen[pattern], pattern


def test_hint_line_does_not_repeat_the_move():
    assert hint_line("play K♥ A♣ 2♠", "Play K♥ A♣ 2♠: it empties your hand.", "K♥ A♣ 2♠") == (
        "Play K♥ A♣ 2♠: it empties your hand."
    )
    assert hint_line("Pass (p)", "Pass: nothing you hold beats 2♠.", "") == (
        "Pass: nothing you hold beats 2♠."
    )
    assert hint_line("Bid 3", "Your cards should take 3 hands.", "") == (
        "Bid 3 — Your cards should take 3 hands."
    )
