"""JSON as it crosses a boundary (a file, a socket): values to narrow before use."""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
#: a JSON object just parsed, before its fields are checked
JsonObject: TypeAlias = dict[str, JsonValue]
