"""Compiled move models of the catalog's heap games (the ``compiled_options`` hook).

Nested ``for ... in range`` loops make slow numba generators (about 30 ns per option
against 5-8 ns for ``while`` loops, measured on single-delete), so the hot ones use
``while``.

Each factory returns a numba generator ``gen(h)`` over a tuple of ``int64`` heaps that
yields the options of ``h`` as tuples of the same length (see
:meth:`nimlab.core.ruleset.HeapRuleset.compiled_options` for the contract). This module
imports numba at the top: the catalog imports it only inside the hook methods, so
``import nimlab.catalog`` stays free of numba.

:func:`register_replace` teaches numba :func:`nimlab.core.ruleset.replace` (a tuple with
one heap set to a new size), so that users' move functions written with it compile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import overload

from nimlab.core.ruleset import replace

__all__ = ["compiled", "register_replace"]

_CACHE: dict[Hashable, Any] = {}
_REPLACE_DONE = False

setitem: Any = tuple_setitem


def register_replace() -> None:
    """Make :func:`nimlab.core.ruleset.replace` callable from numba-compiled code."""
    global _REPLACE_DONE
    if _REPLACE_DONE:
        return
    _REPLACE_DONE = True

    @overload(replace, inline="always")
    def _replace_impl(h: Any, i: Any, v: Any) -> Any:
        if isinstance(h, types.UniTuple):

            def impl(h: Any, i: Any, v: Any) -> Any:  # pragma: no cover - compiled
                return setitem(h, i, v)

            return impl
        return None


def compiled(key: Hashable, factory: Callable[[], Any]) -> Any:
    """The generator built by *factory*, built once per *key* (a family and parameters)."""
    gen = _CACHE.get(key)
    if gen is None:
        gen = _CACHE[key] = factory()
    return gen


# -- one heap changes ----------------------------------------------------------------


# -- several heaps change ------------------------------------------------------------


# -- delete games --------------------------------------------------------------------


def delete_nim() -> Any:
    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        a = h[0]
        b = h[1]
        for side in range(2):
            keep = a if side == 0 else b
            if side == 1 and a == b:
                break
            for c in range(keep):
                yield setitem(setitem(h, 0, c), 1, keep - 1 - c)

    return gen


def single_delete() -> Any:
    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        k = 0
        while k < n * n:  # remove heap i, split heap j (while loops: fastest generators)
            i = k // n
            j = k - i * n
            k += 1
            x = h[j]
            if j == i or x < 2:
                continue
            u = 1
            while 2 * u <= x:
                yield setitem(setitem(h, i, u), j, x - u)
                u += 1

    return gen


def single_delete_index_prepare(n: int, low: int, bound: int) -> tuple[int, Any]:
    """Cells and look-up array of Single-delete's option index (see
    :meth:`nimlab.core.ruleset.HeapRuleset.compiled_option_index`): one cell per split
    heap ``s`` in ``[low, bound)`` and multiset ``K`` of the ``n - 2`` heaps kept, set when
    ``s`` splits into two heaps that make a recorded position with ``K``.

    ``aux[i, c] = C(c, i + 1)`` ranks ``K`` (colex); row ``n - 2`` holds ``low``, the
    span ``bound - low`` and the number of multisets ``K``.
    """
    from math import comb

    m = max(n - 2, 0)
    span = bound - low
    width = max(span + m, 3)
    aux = np.zeros((m + 1, width), dtype=np.int64)
    for i in range(m):
        for c in range(width):
            aux[i, c] = comb(c, i + 1)
    n_kept = comb(span + m - 1, m) if m else 1
    aux[m, 0], aux[m, 1], aux[m, 2] = low, span, n_kept
    return span * n_kept, aux


@njit(cache=True)
def single_delete_note(q: Any, index: Any, aux: Any) -> None:  # pragma: no cover - compiled
    """Record the sorted position *q*: every pair of its heaps is a split of their sum."""
    n = len(q)
    m = n - 2
    low = aux[m, 0]
    span = aux[m, 1]
    n_kept = aux[m, 2]
    for i in range(n):
        for j in range(i + 1, n):
            s = q[i] + q[j] - low
            if s >= span:
                continue
            r = 0
            t = 0
            for k in range(n):
                if k != i and k != j:
                    r += aux[t, q[k] - low + t]
                    t += 1
            index[s * n_kept + r] = 1


@njit(cache=True)
def single_delete_reaches(h: Any, index: Any, aux: Any) -> bool:  # pragma: no cover - compiled
    """Whether some option of the sorted position *h* (delete heap i, split heap j) was
    recorded by :func:`single_delete_note`."""
    n = len(h)
    m = n - 2
    low = aux[m, 0]
    n_kept = aux[m, 2]
    for i in range(n):
        if i > 0 and h[i] == h[i - 1]:
            continue  # the same multiset kept as for heap i - 1
        for j in range(n):
            if j == i or h[j] < 2 or (j > 0 and j - 1 != i and h[j] == h[j - 1]):
                continue
            r = 0
            t = 0
            for k in range(n):
                if k != i and k != j:
                    r += aux[t, h[k] - low + t]
                    t += 1
            if index[(h[j] - low) * n_kept + r] != 0:
                return True
    return False


def abo_delete() -> Any:
    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        for src in range(n):
            total = h[src]
            if total < n:
                continue
            seen = False
            for i in range(src):
                if h[i] == total:
                    seen = True
            if seen:  # each heap size once, as moves() does
                continue
            cur = h
            for i in range(n - 1):
                cur = setitem(cur, i, 1)
            while True:
                s = 0
                for i in range(n - 1):
                    s += cur[i]
                last = total - s
                if last >= cur[n - 2]:
                    yield setitem(cur, n - 1, last)
                k = n - 2
                while k >= 0:
                    pre = 0
                    for i in range(k):
                        pre += cur[i]
                    v = cur[k] + 1
                    if pre + v * (n - k) <= total:
                        for i in range(k, n - 1):
                            cur = setitem(cur, i, v)
                        break
                    k -= 1
                if k < 0:
                    break

    return gen


def abo_delete_predecessors() -> Any:
    """The predecessors in ABO-delete Nim: ``h`` (n positive heaps) is a split of a heap
    of ``sum(h)``; the n - 1 other heaps of the predecessor are any, in ``[max(low, 1),
    bound)`` (yielded once per multiset, the split heap last)."""

    @njit
    def gen(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
        n = len(h)
        total = 0
        for i in range(n):
            if h[i] < 1:
                return
            total += h[i]
        if total >= bound:
            return
        lo = max(low, 1)
        if lo >= bound:
            return
        cur = setitem(h, n - 1, total)
        for i in range(n - 1):
            cur = setitem(cur, i, lo)
        while True:  # non-decreasing cur[0..n-2] in [lo, bound), as an odometer
            yield cur
            k = n - 2
            while k >= 0 and cur[k] + 1 >= bound:
                k -= 1
            if k < 0:
                break
            v = cur[k] + 1
            for i in range(k, n - 1):
                cur = setitem(cur, i, v)

    return gen
