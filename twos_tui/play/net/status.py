"""What a hosted table waits for, in words (the host's screen and a client's both say it)."""

from __future__ import annotations


def _mmss(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def waiting_text(
    free: list[str],
    dropped: list[tuple[str, float]],
    not_ready: list[str],
    code: str,
    at_host: bool,
) -> str | None:
    """``free``: seats nobody has joined yet; ``dropped``: (name, seconds of hold
    left); ``not_ready``: people the next deal waits for."""
    parts = []
    if free:
        n = len(free)
        who = "a player" if n == 1 else f"{n} players"
        parts.append(
            f"Waiting for {who} to join (code {code})" if at_host else f"Waiting for {who} to join"
        )
    for name, left in dropped:
        if left > 0:
            parts.append(f"{name} dropped; holding the seat {_mmss(left)}")
        else:
            parts.append(f"{name} dropped")
    if not_ready:
        parts.append(f"Waiting for {_names(not_ready)} to continue")
    return "; ".join(parts) or None
