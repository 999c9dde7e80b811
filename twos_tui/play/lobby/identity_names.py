"""The rules a lobby name follows, and how look-alike names are caught.

A name on a lobby server is an account: it must be readable by everyone, short enough for
a seat box, and impossible to mistake for someone else's. :func:`check_name` tidies a
requested name (Unicode NFC, runs of spaces made one, ends trimmed) and refuses one that
breaks the rules with :class:`NameRefused`, whose message is a sentence a player can read:

- 2 to 16 terminal cells wide;
- letters (any alphabet), digits, spaces, ``-``, ``_`` and ``.`` only, with at least one
  letter or digit, accents only on a letter;
- Latin, Cyrillic and Greek letters not mixed in one name (``Pаul`` with a Cyrillic
  ``а`` is the classic impersonation);
- not a reserved name: the AI players' names, ``guest...`` (guests get those), and the
  words that look official (``admin``, ``server``, ``host``, ...).

:func:`skeleton` is what two names are compared by: two names with the same skeleton look
too much alike to both be accounts (the store keeps the skeleton unique). It is NFKC,
case folded, accents removed, separators dropped, and a hand-made map of look-alikes
applied (Cyrillic and Greek letters that look Latin, ``0``/``o``, ``1``/``l``/``i``,
``rn``/``m``, ``vv``/``w``, ...): a deliberately small cousin of Unicode's
confusables list, covering what can be typed in a name that passes the rules above.
"""

from __future__ import annotations

import unicodedata

from ..names import cell_width
from ..session import AI_NAMES

MIN_CELLS = 2
MAX_CELLS = 16
#: besides letters and digits, the characters a name may hold (spaces only inside)
NAME_PUNCTUATION = "-_."
GUEST_PREFIX = "guest"
#: names no player may take (compared by skeleton, so look-alikes are refused too)
RESERVED = (
    *AI_NAMES,
    "admin",
    "administrator",
    "server",
    "host",
    "system",
    "root",
    "moderator",
    "lobby",
    "twos-tui",
)
#: the alphabets that share look-alike letters: a name uses letters of one of them at most
_MIXABLE_NOT = ("LATIN", "CYRILLIC", "GREEK")
_MAX_MARKS = 2  #: accents stacked on one letter


class NameRefused(ValueError):
    """A name cannot be had; ``str(e)`` (and ``e.reason``) says why in a sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: one character (after NFKC and case folding) -> the Latin letter it looks like
_LOOKALIKE = str.maketrans(
    {
        # digits and Latin letters easily taken for one another
        "0": "o",
        "1": "l",
        "i": "l",
        "5": "s",
        "ı": "l",  # dotless i
        "ɩ": "l",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ħ": "h",
        "ŧ": "t",
        "ƀ": "b",
        "ɡ": "g",
        "ſ": "f",
        # Cyrillic
        "а": "a",
        "б": "b",
        "в": "b",
        "ь": "b",
        "с": "c",
        "ԁ": "d",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "н": "h",
        "і": "l",
        "ї": "l",
        "ӏ": "l",
        "ј": "l",
        "к": "k",
        "м": "m",
        "п": "n",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "г": "r",
        "ѕ": "s",
        "т": "t",
        "ц": "u",
        "ѵ": "v",
        "ԝ": "w",
        "ш": "w",
        "х": "x",
        "у": "y",
        "ү": "y",
        "з": "3",
        # Greek
        "α": "a",
        "β": "b",
        "ϐ": "b",
        "ς": "c",
        "ϲ": "c",
        "δ": "d",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "ϰ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "ϱ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "ω": "w",
        "ζ": "z",
        # separators: "Al.ice", "Al ice" and "Alice" read as one name
        "-": None,
        "_": None,
        ".": None,
        " ": None,
    }
)
#: letter pairs that read as one letter, replaced after the single letters
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"), ("nn", "m"))


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing: two names with one skeleton are too alike.

    >>> skeleton("Alice") == skeleton("ALlCE") == skeleton("Аlicе") == skeleton("A.lice")
    True
    >>> skeleton("Bob") == skeleton("Rob")
    False
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = text.translate(_LOOKALIKE)
    for pair, one in _PAIRS:
        text = text.replace(pair, one)
    return text


def _script(ch: str) -> str | None:
    """The alphabet of a letter among those that share look-alikes, else None."""
    try:
        first = unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return None
    return first if first in _MIXABLE_NOT else None


def width(name: str) -> int:
    """How many terminal cells ``name`` takes."""
    return sum(cell_width(c) for c in name)


def check_name(requested: str) -> str:
    """The name to keep for ``requested`` (NFC, spaces tidied), or :class:`NameRefused`
    saying which rule it breaks. Reserved names are refused here too; whether another
    account already has it (or a look-alike) is the store's check."""
    if not isinstance(requested, str):
        raise NameRefused("A name must be text.")
    nfc = unicodedata.normalize("NFC", requested[:200])
    name = " ".join(part for part in nfc.split(" ") if part)
    if not name:
        raise NameRefused("Please choose a name.")
    marks = 0  # accents on the letter before
    base = ""  # the character they sit on
    for ch in name:
        cat = unicodedata.category(ch)
        if cat.startswith("M"):
            marks += 1
            if marks > _MAX_MARKS or not unicodedata.category(base or " ").startswith("L"):
                raise NameRefused("Accents are allowed on letters only, at most two on one.")
            continue
        marks, base = 0, ch
        if not (cat.startswith("L") or cat == "Nd" or ch in NAME_PUNCTUATION or ch == " "):
            raise NameRefused("A name may use letters, digits, spaces and the marks - _ . only.")
    if not any(unicodedata.category(c).startswith("L") or c.isdigit() for c in name):
        raise NameRefused("A name needs at least one letter or digit.")
    cells = width(name)
    if cells < MIN_CELLS:
        raise NameRefused(f"A name needs at least {MIN_CELLS} characters.")
    if cells > MAX_CELLS:
        raise NameRefused(f"A name can be at most {MAX_CELLS} characters wide.")
    scripts = {s for c in unicodedata.normalize("NFKC", name) if (s := _script(c))}
    if len(scripts) > 1:
        raise NameRefused(
            "A name may not mix alphabets (Latin, Cyrillic or Greek letters): "
            "please use one of them."
        )
    refuse_reserved(name)
    return name


def refuse_reserved(name: str) -> None:
    """:class:`NameRefused` if ``name`` is (or looks like) a reserved name or a guest's."""
    skel = skeleton(name)
    if skel.startswith(skeleton(GUEST_PREFIX)):
        raise NameRefused("Names starting with 'guest' are kept for guests.")
    for word in RESERVED:
        if skel == skeleton(word):
            if word in AI_NAMES:
                raise NameRefused(f"The name '{word}' belongs to one of the AI players.")
            raise NameRefused(f"The name '{word}' is kept for the server: please choose another.")
