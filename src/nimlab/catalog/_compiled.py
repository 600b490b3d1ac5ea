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


def ryuo(p: int, q: int | None) -> Any:
    """Ryuo Nim(p) (``q`` None: one-heap moves take any amount) and restricted Ryuo."""
    lim1 = -1 if q is None else q - 1

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        x = h[0]
        y = h[1]
        mx = x if lim1 < 0 else min(lim1, x)
        my = y if lim1 < 0 else min(lim1, y)
        for t in range(1, mx + 1):
            yield setitem(h, 0, x - t)
        for t in range(1, my + 1):
            yield setitem(h, 1, y - t)
        for t in range(1, min(p, x + y + 1)):
            for a in range(max(0, t - y), min(t, x) + 1):
                yield setitem(setitem(h, 0, x - a), 1, y - (t - a))

    return gen


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


# -- RGAMES: one-heap games per heap and a game on the sum ------------------------------


def rgames(
    lines: tuple[tuple[bool, int, tuple[int, ...]], ...], line0: tuple[bool, int, tuple[int, ...]]
) -> Any:
    """RGAMES(G0; G1, ..., Gm): heap ``i`` loses ``t`` stones when ``Gi`` allows ``t``; or
    ``G0`` takes ``t`` from the sum of all heaps, split between them in every way.

    Each one-heap game is given as its line ``(cofinite, lag, amounts)``: it allows the
    listed *amounts*, and when *cofinite* every ``t > lag``.
    """
    m = len(lines)
    width = max([1, *(len(a) for _c, _l, a in lines)])
    amounts = np.zeros((m, width), dtype=np.int64)
    counts = np.zeros(m, dtype=np.int64)
    cof = np.zeros(m, dtype=np.bool_)
    lag = np.zeros(m, dtype=np.int64)
    for i, (c, g, a) in enumerate(lines):
        counts[i] = len(a)
        amounts[i, : len(a)] = a
        cof[i] = c
        lag[i] = g
    cof0 = bool(line0[0])
    lag0 = int(line0[1])
    amounts0 = np.array(sorted(line0[2]) or [0], dtype=np.int64)
    n0 = len(line0[2])

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        total = 0
        for i in range(n):
            x = h[i]
            total += x
            j = 0
            while j < counts[i]:
                t = amounts[i, j]
                j += 1
                if t <= x:
                    yield setitem(h, i, x - t)
            if cof[i]:
                t = lag[i] + 1
                while t <= x:
                    yield setitem(h, i, x - t)
                    t += 1
        # G0 on the sum: t stones, split as c_0 + ... + c_{n-1} = t with c_i <= h_i
        j = 0
        t = 0
        while True:
            if j < n0:
                t = amounts0[j]
                j += 1
            elif cof0:
                t = max(t + 1, lag0 + 1)
            else:
                break
            if t > total:
                if j < n0:
                    continue
                break
            if t < 1:
                continue
            cur = h
            for i in range(n - 1):  # the first split takes everything from the last heap
                cur = setitem(cur, i, 0)
            left = t
            while True:  # odometer over c_0 .. c_{n-2}; c_{n-1} is what is left
                s = 0
                for i in range(n - 1):
                    s += cur[i]
                last = t - s
                if 0 <= last <= h[n - 1]:
                    out = h
                    for i in range(n - 1):
                        out = setitem(out, i, h[i] - cur[i])
                    yield setitem(out, n - 1, h[n - 1] - last)
                i = 0
                while i < n - 1:
                    if cur[i] < h[i] and cur[i] < left:
                        cur = setitem(cur, i, cur[i] + 1)
                        break
                    cur = setitem(cur, i, 0)
                    i += 1
                if i == n - 1:
                    break

    return gen
