"""The variants the app offers, in the engine's registry order."""

from __future__ import annotations

from ..engine import VARIANT_IDS, Game, variant_class


def available_variants() -> list[type[Game]]:
    out = []
    for vid in VARIANT_IDS:
        try:
            out.append(variant_class(vid))
        except (ImportError, AttributeError):
            continue  # not installed in this build
    return out


def player_counts_text(cls: type[Game]) -> str:
    counts = list(cls.player_counts)
    if len(counts) == 1:
        return f"{counts[0]} players"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]} players"
    return ", ".join(map(str, counts)) + " players"
