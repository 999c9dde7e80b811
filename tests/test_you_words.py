"""Sentences built from a name read right when the name is "You" (a puzzle's seat, or a
person who calls themselves that), or when several players win together: "You play
bomb 2×3", not "You plays"; "your hand", not "You's hand"; "Ann and Bob win". Every
such sentence goes through ``twos_tui.engine.words``; the tests play every game with
"You" at each seat and read every line the game writes."""

from __future__ import annotations

import random
import re

import pytest

from twos_tui.engine import VARIANT_IDS, new_game, variant_class
from twos_tui.engine.words import base_form, names_text, says, verb, whom, whose

#: the verbs the sentences put after a name, in the third person
THIRD_PERSON = [
    "bids",
    "bombs",
    "catches",
    "deals",
    "discards",
    "gains",
    "goes",
    "has",
    "holds",
    "is",
    "keeps",
    "lays",
    "leads",
    "passes",
    "plays",
    "raises",
    "sends",
    "speaks",
    "starts",
    "stays",
    "takes",
    "turns",
    "wins",
    "does",
    "was",
]


def test_the_verb_agrees_with_who_does_it():
    assert says("Ann", "plays bomb 2×3") == "Ann plays bomb 2×3"
    assert says("You", "plays bomb 2×3") == "You play bomb 2×3"
    assert says("you", "passes") == "you pass"
    assert says(["Ann"], "wins") == "Ann wins"
    assert says(["You"], "wins") == "You win"
    assert says(["Ann", "Bob"], "wins") == "Ann and Bob win"
    assert says(["Ann", "Bob", "Cleo"], "is out") == "Ann, Bob and Cleo are out"
    assert says("You", "has the rainbow") == "You have the rainbow"
    assert says("You", "is thinking") == "You are thinking"
    assert says("You", "must lead") == "You must lead"
    assert says("You", "may raise the bid") == "You may raise the bid"
    assert verb("You", "wins") == "win" and verb("Ann", "wins") == "wins"
    assert whose("You") == "your" and whose("Ann") == "Ann's"
    assert whom("You") == "you" and whom("Ann") == "Ann"
    assert names_text(["Ann", "Bob"]) == "Ann and Bob"
    # a name that only looks like the word is a name
    assert says("Youssef", "plays") == "Youssef plays"


@pytest.mark.parametrize("word", THIRD_PERSON)
def test_every_verb_has_its_other_form(word):
    other = base_form(word)
    assert other != word and not other.endswith("'s")
    assert other == {
        "catches": "catch",
        "passes": "pass",
        "goes": "go",
        "does": "do",
        "has": "have",
        "is": "are",
        "was": "were",
    }.get(word, word[:-1])


BAD = re.compile(r"\bYou (" + "|".join(THIRD_PERSON) + r")\b|\bYou's\b|\b(from|to|for) You\b")
#: several winners with a verb for one ("Ann, Bob wins", "Ann and Bob wins")
BAD_MANY = re.compile(r"\w+(,| and) \w+ wins\b")


def lines_of_a_match(variant: str, seed: int, you: int) -> list[str]:
    """Every sentence a match writes, with "You" at seat ``you``: the log, the status
    line, each prompt and each play's description, played at random to the end."""
    cls = variant_class(variant)
    players = cls.default_players
    names = ["Ada", "Bram", "Cleo", "Dev"][:players]
    names[you % players] = "You"
    game = new_game(variant, players, {}, seed, names)
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(5000):
        if game.match_over:
            break
        if game.deal_over:
            game.next_deal()
            continue
        out.append(game.status_line())
        seat = game.to_act()[0]
        d = game.decision(seat)
        if d is not None:
            out.append(d.prompt)
        action = rng.choice(game.legal_actions(seat))
        described = game.describe(seat, action) if hasattr(game, "describe") else None
        if described:
            out.append(described)
        game.apply(seat, action)
    assert game.match_over
    out.append(game.status_line())
    out += [str(e.get("text", "")) for e in game.history]
    out += [r.summary for r in game.results] + [x for r in game.results for x in r.details]
    return out


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_sentence_of_every_game_reads_right_with_you(variant):
    players = variant_class(variant).default_players
    lines = []
    for you in range(players):
        for seed in (1, 2):
            lines += lines_of_a_match(variant, seed + 10 * you, you)
    wrong = sorted({ln for ln in lines if BAD.search(ln) or BAD_MANY.search(ln)})
    assert not wrong, wrong[:10]
    assert any(re.search(r"\bYou [a-z]+", ln) for ln in lines)  # "You" did speak


#: a name put straight before a verb for one, or before "'s", in the package's sources
#: (rather than through engine/words.py): "{g.names[seat]} plays", "{name} is back",
#: "{names[s]}'s hand", names[seat] + " passes"
NAME_EXPR = r"(?:[\w.]*names\[[^\]]*\]|name|who|winner|winners|view\.name\([^)]*\)|lone_name\(g\))"
BARE = re.compile(
    r"\{" + NAME_EXPR + r"\}(?: (?:" + "|".join(THIRD_PERSON) + r")\b|'s\b)"
    r"|" + NAME_EXPR + r" \+ [\"'] (?:" + "|".join(THIRD_PERSON) + r")\b"
)


#: not a player's name: files and fields named in error messages
NOT_PLAYERS = ("ai/learn/net.py",)


def test_no_sentence_in_the_package_puts_a_name_before_a_verb_by_hand():
    import pathlib

    import twos_tui

    root = pathlib.Path(twos_tui.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "words.py" or str(path.relative_to(root)) in NOT_PLAYERS:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            # (a damaged file's or a bad argument's message: a field's name, or a seat in
            # a game that cannot be played)
            if BARE.search(line) and "raise " not in line:
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
