"""House rules given as ``ID=VALUE`` words (``--option`` of ``arena`` and of the AI's
training script, :mod:`twos_tui.ai.learn.train`): here, below both, so the training
script does not import the command line."""

from __future__ import annotations

#: a house rule's value as a command line gives it
OptionValue = str | int | bool


def parse_options(items: list[str] | None) -> dict[str, OptionValue]:
    """``["passing=locked", "target=50"]`` -> ``{"passing": "locked", "target": 50}``."""
    out: dict[str, OptionValue] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes ID=VALUE, not {item!r}")
        v: OptionValue = value
        if value.lstrip("-").isdigit():
            v = int(value)
        elif value in ("true", "false"):
            v = value == "true"
        out[key] = v
    return out
