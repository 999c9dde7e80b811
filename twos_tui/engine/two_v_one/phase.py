"""What every part of a 2v1 round says: the base of the phase objects.

A round moves through phases (``game.phase``, the core's): ``bid`` (and ``raise``),
``exchange`` when nobody bids, ``discard``, then five hands of ``lead``, ``hide``,
``follow`` and ``keep``, and ``over``. The rules of every phase are the core's
(:class:`~.core.RoundSim`: who acts, the legal moves, what a move changes). Each phase
has one :class:`Phase` object that words it: why a move is refused, what the seat is
asked, the log lines of a move and of the phase starting, the status line and the cards
on the table. The objects keep no state of their own: one of each serves every game.

The modules group them as the rules do: :mod:`.bidding` (docs/rules.md §5.3),
:mod:`.exchange` (the exchange and the duo discard, §5.4, §5.5), :mod:`.hand_play`
(§5.6 to §5.8) and :mod:`.scoring` (§5.9).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from ..observation import TableEntry
from ..protocol import Action, Decision
from ..words import says
from .core import INDEX
from .deck import label, parse

if TYPE_CHECKING:
    from .game import TwoVOneGame


class Phase(ABC):
    """The words of one phase of a round. Every method takes the game first; the game
    has already checked that the move is well formed, that ``seat`` is asked to act
    and (for :meth:`check`) that the move's kind is this phase's."""

    #: the value of ``game.phase`` this object words
    name: ClassVar[str]
    #: what the seats do now, for "Now is the time to ..."
    verb: ClassVar[str]

    def entered(self, g: TwoVOneGame) -> None:  # noqa: B027 (most phases say nothing)
        """The core has just started this phase: tell the table (and keep the record)."""

    def has_chosen(self, g: TwoVOneGame, seat: int) -> bool:
        """Whether ``seat`` has made its secret choice of this phase and waits for the
        other seats to make theirs."""
        return False

    @abstractmethod
    def check(self, g: TwoVOneGame, seat: int, action: Action) -> str | None:
        """``None`` if ``action`` (of this phase's kind) is legal, else the reason."""

    @abstractmethod
    def apply(self, g: TwoVOneGame, seat: int, action: Action) -> None:
        """Carry out a checked, legal action: the core plays it, the game records it."""

    @abstractmethod
    def decision(self, g: TwoVOneGame, seat: int) -> Decision | None:
        """What ``seat``, who is asked to act, is asked."""

    @abstractmethod
    def status(self, g: TwoVOneGame, acting: str) -> str:
        """One line about the state of play; ``acting`` names the seats to act."""

    def table(self, g: TwoVOneGame, seat: int) -> list[TableEntry]:
        """The cards on the table as ``seat`` sees them."""
        return []


def selection(
    g: TwoVOneGame, seat: int, raw: Iterable[object] | None, count: int, what: str
) -> tuple[str, ...] | str:
    """Codes of a selection of ``count`` cards from ``seat``'s hand, or a reason (a
    ``str``) why it is not one."""
    raw = tuple(raw or ())
    if len(raw) != count:
        need = "one card" if count == 1 else f"exactly {count} cards"
        return f"{what.capitalize()} {need} (you chose {len(raw)})."
    codes = []
    for r in raw:
        try:
            codes.append(parse(r))
        except ValueError as e:
            return str(e)
    if len(set(codes)) != len(codes):
        return f"{label(codes[0])} is chosen twice."
    hand = g.core.hands[seat]
    for c in codes:
        if not hand >> INDEX[c] & 1:
            return f"{label(c)} is not in your hand."
    return tuple(codes)


_SAID: dict[tuple[str, str], str] = {}


def said(name: str, phrase: str) -> str:
    """:func:`~twos_tui.engine.words.says` for one name, remembered (the same few
    sentences are written over and over)."""
    key = (name, phrase)
    text = _SAID.get(key)
    if text is None:
        if len(_SAID) > 4096:
            _SAID.clear()
        text = _SAID[key] = says(name, phrase)
    return text


def lone_name(g: TwoVOneGame) -> str:
    """The lone player's name (``"?"`` before there is one)."""
    return g.names[g.core.lone] if g.core.lone >= 0 else "?"


def score_text(g: TwoVOneGame) -> str:
    """The hands taken so far this round: ``"Ann (bid 3) 1 – duo 2"``."""
    won = g.core.won
    return f"{lone_name(g)} (bid {g.bid}) {won[0]} – duo {won[1]}"
