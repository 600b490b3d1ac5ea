"""The compiled move models of the delete games (Delete Nim, single-delete, ABO-delete)
and single-delete's compiled option index (the ``compiled_options``,
``compiled_predecessors`` and ``compiled_option_index`` hooks; imports numba, so the
rules import it only inside the hooks)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = [
    "abo_delete",
    "abo_delete_predecessors",
    "delete_nim",
    "single_delete",
    "single_delete_index_prepare",
    "single_delete_note",
    "single_delete_reaches",
]


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
