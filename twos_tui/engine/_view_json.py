"""Reading the JSON form of an observation with its types checked (for :mod:`.views`).

Each reader takes the object, the key and where the object is (for the reason) and
returns the value typed, or raises :class:`ViewError` saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
#: a JSON object as the observation's dicts are
JsonObj = dict[str, Any]
#: where a value is, for a reason: "observation.top.cards"
Where = str


class ViewError(ValueError):
    """An observation that is not one: the reason says which key and why."""


def as_obj(v: Any, where: Where) -> JsonObj:
    if type(v) is not dict:
        raise ViewError(f"{where} should be an object")
    return v


def _key(o: JsonObj, key: str, where: Where) -> Any:
    if key not in o:
        raise ViewError(f"{where}.{key} is missing")
    return o[key]


def as_int(o: JsonObj, key: str, where: Where) -> int:
    v = _key(o, key, where)
    if type(v) is not int:
        raise ViewError(f"{where}.{key} should be a whole number")
    return v


def as_int_or_none(o: JsonObj, key: str, where: Where) -> int | None:
    v = _key(o, key, where)
    if v is not None and type(v) is not int:
        raise ViewError(f"{where}.{key} should be a whole number or null")
    return v


def as_bool(o: JsonObj, key: str, where: Where) -> bool:
    v = _key(o, key, where)
    if type(v) is not bool:
        raise ViewError(f"{where}.{key} should be true or false")
    return v


def as_str(o: JsonObj, key: str, where: Where) -> str:
    v = _key(o, key, where)
    if type(v) is not str:
        raise ViewError(f"{where}.{key} should be text")
    return v


def as_str_or_none(o: JsonObj, key: str, where: Where) -> str | None:
    v = _key(o, key, where)
    if v is not None and type(v) is not str:
        raise ViewError(f"{where}.{key} should be text or null")
    return v


def as_strs(o: JsonObj, key: str, where: Where) -> tuple[str, ...]:
    v = _key(o, key, where)
    if type(v) is not list or any(type(x) is not str for x in v):
        raise ViewError(f"{where}.{key} should be a list of card codes or words")
    return tuple(v)


def items(o: JsonObj, key: str, where: Where, read: Callable[[Any, Where], T]) -> tuple[T, ...]:
    """A list of ``o[key]``, each item read by ``read(item, where)``."""
    v = _key(o, key, where)
    if type(v) is not list:
        raise ViewError(f"{where}.{key} should be a list")
    return tuple(read(x, f"{where}.{key}[{i}]") for i, x in enumerate(v))


def as_seat_card(v: Any, where: Where) -> tuple[int, str]:
    """A ``[seat, card]`` pair."""
    if type(v) is not list or len(v) != 2 or type(v[0]) is not int or type(v[1]) is not str:
        raise ViewError(f"{where} should be a [seat, card] pair")
    return v[0], v[1]


def seat_card_json(p: tuple[int, str]) -> list[int | str]:
    return [p[0], p[1]]


def opt(o: JsonObj, key: str, public: bool, read: Callable[[], T], blank: T) -> T:
    """``read()``, or ``blank`` where a public view lacks ``key``."""
    return blank if public and key not in o else read()
