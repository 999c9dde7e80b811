"""Sentences built from a player's name: the verb agrees with who does it.

A puzzle's seat is called "You", and a person may call themselves that in the picker;
several players may win a match together. Every sentence that puts a name before a
verb goes through :func:`says` (or :func:`verb`), so it reads "Ann plays", "You play",
"Ann and Bob win"; :func:`whose` and :func:`whom` do the same for "Ann's" / "your"
and "from Ann" / "from you".

>>> says("You", "plays bomb 2×3")
'You play bomb 2×3'
>>> says(["Ann", "Bob"], "wins")
'Ann and Bob win'
"""

from __future__ import annotations

from collections.abc import Sequence

#: verbs whose other form is not the third person without its "s"
IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def is_you(name: str) -> bool:
    """Whether ``name`` is the second person ("You", in any case)."""
    return name.strip().casefold() == "you"


def _plural(who: str | Sequence[str]) -> bool:
    """Whether the subject ``who`` takes the verb without its "s" (you, or several)."""
    if isinstance(who, str):
        return is_you(who)
    return len(who) != 1 or is_you(who[0])


def names_text(who: str | Sequence[str]) -> str:
    """``who`` as words: "Ann", "Ann and Bob", "Ann, Bob and Cleo"."""
    if isinstance(who, str):
        return who
    names = list(who)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def base_form(word: str) -> str:
    """A verb's form without its third-person "s": plays -> play, passes -> pass,
    catches -> catch, has -> have, is -> are. A word without one is kept (must, may)."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith(("sses", "shes", "ches", "xes", "zzes", "oes")):
        return word[:-2]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def verb(who: str | Sequence[str], phrase: str) -> str:
    """``phrase`` (its verb first, in the third person: "plays alone") agreeing with
    ``who``: "plays alone" for Ann, "play alone" for You or for Ann and Bob."""
    if not _plural(who):
        return phrase
    first, space, rest = phrase.partition(" ")
    return base_form(first) + space + rest


def says(who: str | Sequence[str], phrase: str) -> str:
    """``who`` (a name, or the names of several) then ``phrase`` agreeing with it:
    "Ann plays bomb 2×3", "You play bomb 2×3", "Ann and Bob win"."""
    return f"{names_text(who)} {verb(who, phrase)}"


def whose(name: str) -> str:
    """The possessive of a name inside a sentence: "Ann's", "your"."""
    return "your" if is_you(name) else f"{name}'s"


def whom(name: str) -> str:
    """A name as the object inside a sentence: "Ann", "you"."""
    return "you" if is_you(name) else name
