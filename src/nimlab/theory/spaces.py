"""Position enumerators used by theorem checks: boxes of heaps, in increasing order."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

__all__ = ["box", "sorted_box"]


def box(n_heaps: int, bound: int, low: int = 0) -> Iterator[tuple[int, ...]]:
    """All tuples of *n_heaps* heaps with ``low <= heap < bound``, by max heap then lexicographic.

    Examples
    --------
    >>> list(box(2, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    for top in range(low, bound):
        for t in itertools.product(range(low, top + 1), repeat=n_heaps):
            if max(t, default=low) == top:
                yield t


def sorted_box(n_heaps: int, bound: int, low: int = 0) -> Iterator[tuple[int, ...]]:
    """Like :func:`box`, one representative per multiset (non-decreasing tuples).

    Examples
    --------
    >>> list(sorted_box(2, 3))
    [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)]
    """
    for t in box(n_heaps, bound, low):
        if list(t) == sorted(t):
            yield t
