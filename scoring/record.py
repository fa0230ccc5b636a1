"""`Record`: the base of the hand model's small immutable value classes.

What `@dataclass(frozen=True, slots=True)` gives them (equality and hashing by their fields
in order, a repr naming each field, no assignment after `__init__`, `__match_args__`, and
`replace` for a copy with some fields changed), without the dataclasses module: importing
it (with `inspect`) and generating each class's methods from source at every start of the
scorer costs more than a stream of a few thousand hands spends scoring them.

A subclass lists its fields in order in `FIELDS`, which are also its `__slots__`, and sets
each in its `__init__` with `object.__setattr__`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, Self


class Record:
    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()  # a subclass's fields, in order (its __slots__)

    _getter: ClassVar[Callable[[object], tuple[object, ...]]]  # set per subclass

    def _values(self) -> tuple[object, ...]:
        """The fields' values in order (read in C by an attrgetter)."""
        return type(self)._getter(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __init_subclass__(cls) -> None:
        setattr(cls, "__match_args__", cls.FIELDS)  # noqa: B010 (a class attribute mypy lacks)
        if len(cls.FIELDS) < 2:
            raise TypeError(f"{cls.__name__}: a Record has two fields or more")
        cls._getter = attrgetter(*cls.FIELDS)  # a tuple, for two fields or more

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Copies and pickles are built by `__init__` from the fields, in order."""
        return (self.__class__, self._values())

    def replace(self, **changes: Any) -> Self:
        """A copy with `changes` (field name: value), as dataclasses.replace makes one."""
        values: dict[str, Any] = {name: getattr(self, name) for name in self.FIELDS}
        for name in changes:
            if name not in values:
                raise TypeError(f"{self.__class__.__qualname__} has no field {name!r}")
        values.update(changes)
        return self.__class__(**values)
