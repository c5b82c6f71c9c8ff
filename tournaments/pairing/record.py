"""Immutable records for the values on the pairing command's path.

They behave as frozen dataclasses do (equality and hash over the fields in order, a repr
naming them, no assignment after ``__init__``, copy and pickle) without importing
``dataclasses``: that module pulls in ``inspect`` and ``re``, and building each class
runs ``exec``, most of the command's start-up before this (issue 44).
"""

from __future__ import annotations

# Each subclass's __init__ stores its fields through this, since __setattr__ refuses.
set_field = object.__setattr__


class Record:
    """Base of a record: subclasses name their fields in ``__slots__``, in order."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record) and other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        # Rebuilt through __init__ (copy and pickle would otherwise set the slots).
        return self.__class__, self._values()
