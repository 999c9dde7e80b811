"""Player names and other text that reaches the screen: cleaned before it is stored or
shown.

A name typed in the picker or read from a save file could carry terminal control
sequences (``"\\x1b]2;title\\x07"`` retitles the terminal, ``"\\x1b[2J"`` blanks it),
bidirectional overrides that make text read backwards, zero-width characters, or be
thousands of characters long. :func:`clean_name` keeps the printable characters only and
limits the width; :func:`clean_text` does the same for longer text (the play log of a
loaded game). Rich markup is not touched here: the UI shows these strings as plain
``Text``, never as markup, so a name like ``[bold]x`` shows exactly so.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

MAX_NAME_CELLS = 16  #: a name is at most this many terminal cells wide
MAX_TEXT = 500  #: a line of the play log from a file is at most this long

#: categories never shown: controls, format characters (bidi overrides, zero-width
#: joiners, ...), surrogates, private use, unassigned, line and paragraph separators
_DROP = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))

#: the regular expression of characters a name may be typed with (the picker's Input)
NAME_CHARS = r"[^\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]*"


def cell_width(ch: str) -> int:
    """How many terminal cells ``ch`` takes: 0 for a combining mark, 2 for a wide one."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def clean_text(value: Any, max_len: int = MAX_TEXT) -> str:
    """``value`` as printable text: control and format characters removed (tabs and
    line breaks become spaces), at most ``max_len`` characters."""
    if not isinstance(value, str):
        value = "" if value is None else str(value)
    out = []
    for ch in value[: max_len * 4]:
        if ch in "\t\n\r\x0b\x0c\x85\u2028\u2029":
            out.append(" ")
        elif unicodedata.category(ch) not in _DROP:
            out.append(ch)
        if len(out) >= max_len:
            break
    return "".join(out)


def clean_name(value: Any, fallback: str = "Player") -> str:
    """A player name fit to show: printable characters only, runs of spaces collapsed,
    at most :data:`MAX_NAME_CELLS` cells wide; ``fallback`` if nothing is left."""
    text = " ".join(clean_text(value, 200).split())
    out = []
    width = 0
    for ch in text:
        w = cell_width(ch)
        if width + w > MAX_NAME_CELLS:
            break
        out.append(ch)
        width += w
    name = "".join(out).strip()
    # a name of combining marks alone shows as nothing
    if not name or all(unicodedata.combining(c) for c in name):
        return fallback
    return name


#: what the quick scan looks for in JSON text: the characters themselves, or the escapes
#: ``json.dumps`` writes for controls (``\u001b``, ``\n``, ...)
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
    "\ud800-\udfff\ue000-\uf8ff]"
    r"|\\(?:u00[01][0-9a-fA-F]|u007[fF]|u00[89][0-9a-fA-F]|[nrtbf])"
)


def needs_cleaning(value: Any) -> bool:
    """Whether any string in JSON data holds a character :func:`clean_text` removes
    (a quick scan of the data as text; unassigned code points are left to the
    thorough pass, which only runs when this finds something)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return True
    return _UNSAFE.search(text) is not None or not text.isprintable() and _has_odd(text)


def _has_odd(text: str) -> bool:
    return any(unicodedata.category(c) in _DROP for c in text if not c.isprintable())


def clean_strings(value: Any, depth: int = 0) -> Any:
    """A copy of JSON data with every string (keys too) passed through
    :func:`clean_text` with a generous length: what a save file holds may be shown."""
    if isinstance(value, str):
        return clean_text(value, 4_000) if not value.isascii() or not value.isprintable() else value
    if depth > 50:
        return value
    if isinstance(value, list):
        return [clean_strings(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {clean_strings(k, depth + 1): clean_strings(v, depth + 1) for k, v in value.items()}
    return value
