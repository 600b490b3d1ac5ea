"""CN(n, k)'s compiled move model and its inverse (the ``compiled_options`` and
``compiled_predecessors`` hooks; imports numba, so the rules import it only inside the
hooks): Moore's set moves over the sets inside k consecutive heaps of the circle."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog.moore.compiled import raise_sets, reduce_sets

__all__ = ["circular", "circular_predecessors"]


def _circular_sets(k: int) -> Any:
    @njit
    def allowed(mask: int, n: int) -> bool:  # pragma: no cover - compiled
        if k >= n:
            return True
        for s in range(n):
            win = 0
            for t in range(k):
                win |= 1 << ((s + t) % n)
            if mask & ~win == 0:
                return True
        return False

    return allowed


def circular(k: int) -> Any:
    """CN(n, k): every nonempty set of nonzero heaps inside k consecutive heaps of the circle.

    Examples
    --------
    >>> sorted(circular(1)((1, 1, 0)))
    [(0, 1, 0), (1, 0, 0)]
    """
    return reduce_sets(_circular_sets(k))


def circular_predecessors(k: int) -> Any:
    """The predecessors in CN(n, k): heaps inside k consecutive ones, each strictly raised."""
    return raise_sets(_circular_sets(k))
