"""The door every text from outside passes: a field of a network message, a name, a
chat line, a value from the command line. It comes out as valid text that can be
sent on (encoded as UTF-8), or it is refused with a reason a person can read.

Python strings may hold a *lone surrogate* (a code point from U+D800 to U+DFFF that is
half of a UTF-16 pair): JSON's ``"\\ud800"`` decodes to one, and so does a byte that is
not UTF-8 in a command-line argument (Python's ``surrogateescape``). Such a string is
not text: it cannot be encoded, so a message that carries one fails to send on every
connection it is sent to. It is refused here, in every field, never cleaned: no honest
client sends one (a terminal delivers UTF-8; a JSON encoder writes whole pairs), so one
means a broken or hostile sender, and the refusal tells it so, where cleaning would
quietly pass on something other than what was written.

Two kinds of field, two rules for the other characters:

* an **identifier** (a join code, a reconnect token, a request id, an action's kind or
  cards): printable characters only; a control character (NUL, escape codes), a
  line break or a format character (bidirectional overrides, zero-width spaces) is
  refused, as an identifier quietly changed would name something else;
* **free text** (a chat line, a name): control and format characters are for the
  caller to clean (:func:`~twos_tui.play.names.clean_name`,
  :func:`~twos_tui.play.net.protocol.clean_chat`), since a person may paste a line
  break or a tab, or bring a user name from another system.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (not ``typing``'s: the command line checks its words with this)
if TYPE_CHECKING:
    from typing import Any


class TextRefused(ValueError):
    """Text that may not come in; ``str()`` says why, in plain words."""


def broken_at(text: str) -> int | None:
    """The index of the first lone surrogate in ``text`` (it cannot be encoded), or
    ``None`` when ``text`` is valid text."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None


def sendable(text: str) -> bool:
    """Whether ``text`` can be encoded as UTF-8 (it holds no lone surrogate)."""
    return broken_at(text) is None


def checked_text(
    value: Any, what: str, limit: int | None = None, *, identifier: bool = False
) -> str:
    """``value`` as text that comes in, or :class:`TextRefused` with the reason.

    ``what`` names the field in the reason ("the code", "your name"); ``limit`` is the
    most characters it may have; ``identifier``: printable characters only (see the
    module's notes)."""
    if type(value) is not str:
        raise TextRefused(f"{_cap(what)} is a text.")
    if limit is not None and len(value) > limit:
        raise TextRefused(f"{_cap(what)} is a text of up to {limit} characters.")
    at = broken_at(value)
    if at is not None:
        raise TextRefused(
            f"{_cap(what)} holds a broken character (a lone surrogate, "
            f"U+{ord(value[at]):04X}): it is not valid text."
        )
    if identifier and not value.isprintable():
        bad = next(c for c in value if not c.isprintable())
        raise TextRefused(
            f"{_cap(what)} holds a character that cannot be part of it (U+{ord(bad):04X})."
        )
    return value


def first_broken(value: Any, limit: int = 10_000) -> str | None:
    """The place of the first string (a value or a key) in JSON data ``value`` that is
    not valid text, as a dotted path ("text", "action.cards.0", "name of a field"), or
    ``None``. Nested
    data is walked without recursion; at most ``limit`` items are looked at (a message
    is small: a host refuses larger frames before they are decoded)."""
    stack: list[tuple[str, Any]] = [("", value)]
    seen = 0
    while stack and seen < limit:
        path, v = stack.pop()
        seen += 1
        if isinstance(v, str):
            if not sendable(v):
                return path or "message"
        elif isinstance(v, dict):
            for k, item in v.items():
                if isinstance(k, str) and not sendable(k):
                    return f"name of a field in {path}" if path else "name of a field"
                name = k if isinstance(k, str) and k.isprintable() else "?"
                stack.append((f"{path}.{name}" if path else name, item))
        elif isinstance(v, list):
            stack.extend((f"{path}.{i}" if path else str(i), item) for i, item in enumerate(v))
    return None


def mended(value: Any, depth: int = 0) -> Any:
    """A copy of JSON data with every lone surrogate in its strings (keys too) replaced
    by U+FFFD, the replacement character: for text from a host, which a client shows
    as well as it can rather than refuse (nested deeper than 100: left out)."""
    if isinstance(value, str):
        if sendable(value):
            return value
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
    if depth > 100:
        return None
    if isinstance(value, list):
        return [mended(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {mended(k, depth + 1): mended(v, depth + 1) for k, v in value.items()}
    return value


def may_hold_broken(raw: str) -> bool:
    """Whether JSON text may decode to a string that is not valid text: through a
    ``\\uD800``-``\\uDFFF`` escape, or a broken character in the text itself (never in
    a WebSocket text frame, which is valid UTF-8). A quick look before the walk of
    :func:`first_broken`."""
    if not raw.isascii() and not sendable(raw):
        return True
    i = raw.find("\\u")
    while i >= 0:
        if raw[i + 2 : i + 3] in ("d", "D") and raw[i + 3 : i + 4] in tuple("89abcdefABCDEF"):
            return True
        i = raw.find("\\u", i + 2)
    return False


def checked_words(words: list[str]) -> str | None:
    """Why a command line cannot be taken (a word holds a byte that is not UTF-8: Python
    hands it on as a lone surrogate), or ``None``. Paths are words too: a file whose
    name is not UTF-8 is for a shell, not for this program."""
    for i, word in enumerate(words):
        at = broken_at(word)
        if at is not None:
            shown = word[:at].encode("ascii", "backslashreplace").decode()[:40]
            return (
                f"argument {i + 1} holds a byte that is not UTF-8 text"
                f" (after {shown!r}): type it again as text"
            )
    return None


def _cap(what: str) -> str:
    return what[:1].upper() + what[1:]
