"""The total-bounded position spaces (heaps whose total is below a bound), re-exported
by :mod:`nimlab.verification.spaces`: move-closed for games whose moves never raise the
total (Lim)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from nimlab.core.ruleset import Ruleset
from nimlab.verification._spacebase import _accepted, _SuccessorChunks


def _sorted_total_count(m: int, lo: int, budget: int) -> int:
    """Non-decreasing tuples of length *m* with entries ``>= lo`` and total ``< budget``."""
    if m == 0:
        return 1 if budget > 0 else 0
    n = 0
    a = lo
    while a * m < budget:
        n += _sorted_total_count(m - 1, a, budget - a)
        a += 1
    return n


@dataclass(frozen=True)
class SortedTotalSpace(_SuccessorChunks):
    """One position per multiset of *n_heaps* heaps ``>= low`` whose total is ``< bound``
    (non-decreasing tuples, lexicographic order): move-closed for games whose moves never
    raise the total and whose heap order does not matter (Lim). Chunk ``i`` holds the
    positions of a range of first heaps.

    Examples
    --------
    >>> s = SortedTotalSpace(3, 4)
    >>> [p for i in range(s.n_chunks) for p in s.chunk(i)]
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 1, 1), (0, 1, 2), (1, 1, 1)]
    >>> s.size, s.contains((2, 1, 0)), s.contains((0, 2, 2))
    (7, True, False)
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "sorted total"

    n_heaps: int
    bound: int
    low: int = 0
    target: int = 8192
    _chunks: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def _build(self) -> list[tuple[int, ...]]:
        """Chunks as ``(first heap, count)``."""
        out: list[tuple[int, ...]] = []
        n = self.n_heaps
        a0, cnt, a = self.low, 0, self.low
        while n >= 1 and a * n < self.bound:
            cnt += _sorted_total_count(n - 1, a, self.bound - a)
            a += 1
            if cnt >= self.target or a * n >= self.bound:
                out.append((a0, cnt))
                a0, cnt = a, 0
        return out

    @property
    def size(self) -> int:
        """Number of positions."""
        return sum(c for _, c in self._table())

    def start(self, i: int) -> tuple[tuple[int, ...], int]:
        """The first position of chunk *i* and its number of positions."""
        a0, cnt = self._table()[i]
        return (a0,) * self.n_heaps, cnt

    def contains(self, position: Any) -> bool:
        return (
            type(position) is tuple
            and len(position) == self.n_heaps
            and all(type(h) is int and h >= self.low for h in position)
            and sum(position) < self.bound
        )

    def successor(self, h: tuple[int, ...]) -> tuple[int, ...]:
        """The position after *h* (:func:`total_successor`)."""
        return total_successor(h, self.bound)

    def describe(self) -> str:
        return f"{self.n_heaps} heaps >= {self.low}, total < {self.bound}, one per multiset"


def total_successor(h: tuple[int, ...], bound: int) -> tuple[int, ...]:
    """The next position of a :class:`SortedTotalSpace` (lexicographic), or *h* at the end.

    Examples
    --------
    >>> total_successor((0, 0, 3), 4), total_successor((0, 1, 2), 4)
    ((0, 1, 1), (1, 1, 1))
    """
    n = len(h)
    s = sum(h)
    if s + 1 < bound:
        return h[:-1] + (h[-1] + 1,)
    pre = s - h[-1]
    for i in range(n - 2, -1, -1):
        pre -= h[i]
        v = h[i] + 1
        if pre + v * (n - i) < bound:
            return h[:i] + (v,) * (n - i)
    return h


@dataclass(frozen=True)
class TotalSpace:
    """Positions of *n_heaps* heaps ``>= low`` whose total is ``< bound``, lexicographic order.

    Move-closed for games whose moves never increase the total (Lim). Chunk ``i`` holds
    the positions whose first heap lies in ``[low + i*rows, low + (i+1)*rows)``.

    Examples
    --------
    >>> list(TotalSpace(2, 2).chunk(0))
    [(0, 0), (0, 1)]
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "total"

    n_heaps: int
    bound: int
    low: int = 0
    rows: int = 1
    game: Ruleset[Any] | None = None

    @property
    def n_chunks(self) -> int:
        span = max(0, self.bound - self.low * self.n_heaps)
        return -(-span // self.rows) if span else 0

    def chunk(self, i: int) -> Iterator[tuple[int, ...]]:
        a0 = self.low + i * self.rows
        a1 = a0 + self.rows

        def rec(prefix: tuple[int, ...], left: int, k: int) -> Iterator[tuple[int, ...]]:
            if k == 0:
                yield prefix
                return
            for h in range(self.low, left - self.low * (k - 1)):
                yield from rec((*prefix, h), left - h, k - 1)

        def rows() -> Iterator[tuple[int, ...]]:
            for a in range(a0, a1):
                room = self.bound - a
                if room - self.low * (self.n_heaps - 1) <= 0:
                    break
                yield from rec((a,), room, self.n_heaps - 1)

        return _accepted(self.game, rows())

    def contains(self, position: Any) -> bool:
        return (
            isinstance(position, tuple)
            and len(position) == self.n_heaps
            and all(isinstance(h, int) and h >= self.low for h in position)
            and sum(position) < self.bound
        )

    def describe(self) -> str:
        return f"{self.n_heaps} heaps >= {self.low}, total < {self.bound}"

    @property
    def size(self) -> int:
        """Number of tuples (before skipping invalid ones)."""
        from math import comb

        span = max(0, self.bound - self.low * self.n_heaps)
        return comb(span + self.n_heaps - 1, self.n_heaps)
