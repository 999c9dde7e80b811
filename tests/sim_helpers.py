"""Helpers for the sim and hard-AI tests: positions in the middle of a deal, and the same
position with the hidden cards dealt differently."""

from __future__ import annotations

import random

from twos_tui.engine import load_game, new_game

#: a climbing game of every variant, player count and the house rules that change the
#: deal (the sampler and the beliefs are tested on each)
POSITIONS = [
    ("twos", 3, {}),
    ("twos", 2, {}),
    ("twos", 3, {"opening": "lowest", "passing": "locked"}),
    ("big-two", 4, {}),
    ("big-two", 3, {}),
    ("big-two-5r", 4, {}),
    ("chinese-poker", 4, {}),
    ("chinese-poker", 2, {}),
]


def settle_hand_choice(g, rng) -> None:
    """Chinese Poker for two: make the hand choice at random."""
    while getattr(g, "_choosing", False):
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[rng.randrange(len(legal))])


def midgame(variant, players, seed, moves, options=None):
    """A game ``moves`` random actions (passing less often) into its first deal."""
    rng = random.Random(seed)
    g = new_game(variant, players, dict(options or {}), seed=seed)
    settle_hand_choice(g, rng)
    for _ in range(moves):
        if g.deal_over:
            break
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        plays = [a for a in legal if a.kind == "play"]
        act = plays[rng.randrange(len(plays))] if plays and rng.random() < 0.8 else legal[-1]
        g.apply(seat, act)
        if g.deal_over:  # keep a deal in play
            g = new_game(variant, players, dict(options or {}), seed=seed + 1)
            settle_hand_choice(g, rng)
    return g


def rehide(g, seat, rng):
    """The same game as seen from ``seat``, with every card hidden from it dealt again
    at random among the other hands and the out-of-play cards (same counts; the
    announced required card stays with its holder)."""
    data = g.to_json()
    others = [s for s in range(g.players) if s != seat]
    req = g.required_card
    pool = [c for s in others for c in data["hands"][s] if c != req] + list(data["out_of_play"])
    rng.shuffle(pool)
    key = g.card_sort_key
    for s in others:
        keep = [c for c in data["hands"][s] if c == req]
        k = len(data["hands"][s]) - len(keep)
        data["hands"][s] = sorted(keep + pool[:k], key=key)
        pool = pool[k:]
    data["out_of_play"] = sorted(pool, key=key)
    return load_game(data)
