"""Typed dataclasses from and to JSON objects, strictly: unknown keys and values of the
wrong type are refused with a ValueError, so a typo in a club's parameters is an error
and not a silent default."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")


def _coerce(name: str, value: Any, like: Any) -> Any:
    # The type comes from the current value (a default), which keeps this free of
    # annotation parsing; only bool, int, float and str fields are used.
    if isinstance(like, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false")
        return value
    if isinstance(like, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be an integer")
        return value
    if isinstance(like, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name} must be a number")
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"{name} must be finite")
        return number
    if isinstance(like, str):
        if not isinstance(value, str):
            raise ValueError(f"{name} must be a string")
        return value
    raise TypeError(f"unsupported field type for {name}")


def replace_from_json(base: D, data: Mapping[str, Any], what: str) -> D:
    """``base`` with the fields named in ``data`` replaced; the dataclass's own
    ``__post_init__`` checks the ranges."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    names = [field.name for field in dataclasses.fields(base)]
    changes: dict[str, Any] = {}
    for key in sorted(data):
        if key not in names:
            raise ValueError(f"unknown {what} field {key!r}")
        changes[key] = _coerce(f"{what}.{key}", data[key], getattr(base, key))
    return dataclasses.replace(base, **changes)


def to_json(value: Any) -> dict[str, Any]:
    """A flat dataclass as a JSON object with sorted keys."""
    names = _sorted_names.get(type(value))
    if names is None:
        names = _sorted_names[type(value)] = _flat_names(value)
    if not names:
        plain = dataclasses.asdict(value)
        return {key: plain[key] for key in sorted(plain)}
    # The fields are plain scalars: what ``asdict`` would copy, read directly (it is
    # called for every player of every rated period).
    return {name: getattr(value, name) for name in names}


_sorted_names: dict[type, tuple[str, ...]] = {}


def _flat_names(value: Any) -> tuple[str, ...]:
    """The sorted field names when every field holds a bool, int, float or str, else
    an empty tuple (then ``asdict`` does the work)."""
    names = sorted(field.name for field in dataclasses.fields(value))
    scalar = (bool, int, float, str)
    if all(type(getattr(value, name)) in scalar for name in names):
        return tuple(names)
    return ()
