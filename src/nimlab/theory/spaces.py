"""Position enumerators used by theorem checks: boxes of heaps, in increasing order."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

__all__ = ["box", "box_space", "sorted_box", "sorted_space"]


def _few(n_heaps: int, bound: int, low: int) -> Iterator[tuple[int, ...]]:
    """The positions of no heap or of one heap (one order: a box's and a sorted box's)."""
    if n_heaps == 0:
        if bound > low:
            yield ()
        return
    yield from ((h,) for h in range(low, bound))


def box(n_heaps: int, bound: int, low: int = 0) -> Iterator[tuple[int, ...]]:
    """All tuples of *n_heaps* heaps with ``low <= heap < bound``, by max heap then lexicographic.

    Examples
    --------
    >>> list(box(2, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    if n_heaps < 2:
        yield from _few(n_heaps, bound, low)
        return
    for top in range(low, bound):
        # lexicographic within one max: a prefix without top must end in top
        values = range(low, top + 1)
        for prefix in itertools.product(values, repeat=n_heaps - 1):
            if top in prefix:
                for v in values:
                    yield (*prefix, v)
            else:
                yield (*prefix, top)


def sorted_box(n_heaps: int, bound: int, low: int = 0) -> Iterator[tuple[int, ...]]:
    """Like :func:`box`, one representative per multiset (non-decreasing tuples).

    Examples
    --------
    >>> list(sorted_box(2, 3))
    [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)]
    """
    if n_heaps < 2:
        yield from _few(n_heaps, bound, low)
        return
    for top in range(low, bound):
        # non-decreasing with max top: the last heap is top, the others any multiset
        for prefix in itertools.combinations_with_replacement(range(low, top + 1), n_heaps - 1):
            yield (*prefix, top)


#: Positions per chunk of the spaces below (the compiled local check walks a chunk in
#: one call; the Python path, when a game has no compiled model, takes longer per chunk).
SPACE_CHUNK = 1 << 16


def sorted_space(n_heaps: int, bound: int, low: int = 0) -> Any:
    """:func:`sorted_box` as a chunked space the compiled local check can walk.

    Examples
    --------
    >>> s = sorted_space(2, 3)
    >>> [p for i in range(s.n_chunks) for p in s.chunk(i)] == list(sorted_box(2, 3))
    True
    """
    from nimlab.verification.spaces import SortedBoxSpace

    return SortedBoxSpace(n_heaps, bound, low, SPACE_CHUNK)


def box_space(n_heaps: int, bound: int, low: int = 0) -> Any:
    """Every tuple of :func:`box` (lexicographic order) as a chunked space.

    Examples
    --------
    >>> s = box_space(2, 3)
    >>> sorted(p for i in range(s.n_chunks) for p in s.chunk(i)) == sorted(box(2, 3))
    True
    """
    from nimlab.verification.spaces import BoxSpace, rows_per_chunk

    span = max(1, bound - low)
    return BoxSpace(n_heaps, bound, low, rows_per_chunk(span, span ** (n_heaps - 1), SPACE_CHUNK))
