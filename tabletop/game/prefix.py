"""A snapshot of a list that only ever grows, taken in constant time.

The record and the verdicts only grow (a correction is a new line; re-deriving the verdicts makes a new list),
so the table can hand every reader the game as it stood by remembering how long they were, not by copying them:
one event then costs the same at the end of a long evening as at its start.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Prefix(Sequence[T]):
    """The first ``len(items)`` items of ``items`` as it is now, however it grows later; it must never shrink
    nor change an item."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[T]) -> None:
        self._items = items
        self._length = len(items)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[slice(*index.indices(self._length))])
        if not -self._length <= index < self._length:
            raise IndexError("line out of range")
        return self._items[index % self._length]

    def __iter__(self) -> Iterator[T]:
        return itertools.islice(self._items, self._length)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Prefix({list(self)!r})"
