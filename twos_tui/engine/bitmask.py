"""Card sets as integer bit masks: the one helper every mask-based module shares."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first (the cards of a mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
