"""Moore's Nim_k's compiled move model and its inverse (the ``compiled_options`` and
``compiled_predecessors`` hooks; imports numba, so the rules import it only inside the
hooks). ``reduce_sets``/``raise_sets`` serve every game whose moves reduce a set of
heaps that a compiled test admits (CN(n, k) too)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["moore", "moore_predecessors", "raise_sets", "reduce_sets"]


def reduce_sets(allowed: Any) -> Any:
    """Moves that strictly reduce every heap of a set of nonzero heaps (in every way), for
    each set (a bit mask over the heaps, in increasing order) that the compiled
    ``allowed(mask, n)`` admits."""

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        for mask in range(1, 1 << n):
            ok = True
            for i in range(n):
                if (mask >> i) & 1 and h[i] == 0:
                    ok = False
            if not ok or not allowed(mask, n):
                continue
            cur = h
            for i in range(n):
                if (mask >> i) & 1:
                    cur = setitem(cur, i, 0)
            while True:  # every vector below h on the set, as an odometer
                yield cur
                i = 0
                while i < n:
                    if (mask >> i) & 1:
                        if cur[i] + 1 < h[i]:
                            cur = setitem(cur, i, cur[i] + 1)
                            break
                        cur = setitem(cur, i, 0)
                    i += 1
                if i == n:
                    break

    return gen


def raise_sets(allowed: Any) -> Any:
    """The predecessors of :func:`reduce_sets`: for each set the compiled
    ``allowed(mask, n)`` admits, every way to raise each heap of the set strictly, every
    heap staying below *bound* (``gen(h, low, bound)``)."""

    @njit
    def gen(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
        n = len(h)
        for mask in range(1, 1 << n):
            ok = True
            for i in range(n):
                if (mask >> i) & 1 and h[i] + 1 >= bound:
                    ok = False
            if not ok or not allowed(mask, n):
                continue
            cur = h
            for i in range(n):
                if (mask >> i) & 1:
                    cur = setitem(cur, i, h[i] + 1)
            while True:  # every vector above h on the set, below bound, as an odometer
                yield cur
                i = 0
                while i < n:
                    if (mask >> i) & 1:
                        if cur[i] + 1 < bound:
                            cur = setitem(cur, i, cur[i] + 1)
                            break
                        cur = setitem(cur, i, h[i] + 1)
                    i += 1
                if i == n:
                    break

    return gen


def _moore_sets(k: int) -> Any:
    @njit
    def allowed(mask: int, n: int) -> bool:  # pragma: no cover - compiled
        cnt = 0
        for i in range(n):
            cnt += (mask >> i) & 1
        return cnt <= k

    return allowed


def moore(k: int) -> Any:
    """Moore's Nim_k: every nonempty set of at most k nonzero heaps, each strictly reduced.

    Examples
    --------
    >>> sorted(moore(1)((1, 1)))
    [(0, 1), (1, 0)]
    """
    return reduce_sets(_moore_sets(k))


def moore_predecessors(k: int) -> Any:
    """The predecessors in Moore's Nim_k: at most k heaps, each strictly raised."""
    return raise_sets(_moore_sets(k))
