"""Compiled kernel of take-and-break games: positions are multisets of heaps.

A position is a partition: its nonempty heaps sorted in decreasing order
``a0 >= a1 >= ... >= a(k-1) >= 1``, of total ``t``. The partitions are numbered by total
first, then in lexicographic order of their heaps (``1 1 1 < 2 1 < 3`` for ``t = 3``):
the rank of ``a`` is ``off[t] + sum Q[r_i, a_i - 1]``, with ``r_i`` the total of the
heaps from ``a_i`` on and ``Q[r, m]`` the number of partitions of ``r`` into parts at
most ``m`` (``off[t]`` counts the partitions of the totals below ``t``). The rank does
not depend on the largest total kept, so the array of values grows by appending.

A move replaces one heap ``h`` by heaps smaller than ``h`` (the game's one-heap table,
``parts[hoff[h]:hoff[h + 1]]``), so every option has a smaller total, or the same total
and a lexicographically smaller sequence of heaps: it has a smaller rank, and solving the
partitions in rank order meets every option before its position. A model whose option
is not solved yet (a move that adds tokens) stops the kernel (``NOT_ORDERED``).

These are internal functions: :mod:`nimlab.engine.splits` allocates and budgets.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__: list[str] = []

OK = 0
NOT_ORDERED = 1
TOO_MANY = 2  # a Grundy value beyond the room of the mex (grow ``seen``, run again)
NEGATIVE = 3  # an option with a negative heap


@njit(cache=True, nogil=True)
def partition_counts(top: int) -> Any:  # pragma: no cover - compiled
    """``Q[r, m]``: partitions of ``r`` into parts ``<= m`` (``r, m <= top``), and
    ``off[t]``: partitions of the totals below ``t`` (``t <= top + 1``)."""
    q = np.zeros((top + 1, top + 1), np.int64)
    for m in range(top + 1):
        q[0, m] = 1
    for r in range(1, top + 1):
        for m in range(1, top + 1):
            q[r, m] = q[r, m - 1] + (q[r - m, m] if r >= m else 0)
    off = np.zeros(top + 2, np.int64)
    for t in range(top + 1):
        off[t + 1] = off[t] + q[t, t]
    return q, off


@njit(cache=True, nogil=True)
def rank_of(a: Any, k: int, q: Any, off: Any) -> Any:  # pragma: no cover - compiled
    """The rank of the partition ``a[:k]`` (decreasing heaps)."""
    t = 0
    for i in range(k):
        t += a[i]
    r = off[t]
    left = t
    for i in range(k):
        r += q[left, a[i] - 1]
        left -= a[i]
    return r


@njit(cache=True, nogil=True)
def _option_rank(
    a: Any, k: int, skip: int, parts: Any, row: int, npart: int, t: int, q: Any, off: Any
) -> Any:  # pragma: no cover - compiled
    """Rank of ``a[:k]`` without ``a[skip]``, with ``parts[row, :npart]`` (decreasing)
    merged in, of total *t*."""
    r = off[t]
    left = t
    i = 0
    p = 0
    while True:
        if i == skip:
            i += 1
        if i < k and (p >= npart or a[i] >= parts[row, p]):
            b = a[i]
            i += 1
        elif p < npart:
            b = parts[row, p]
            p += 1
        else:
            break
        r += q[left, b - 1]
        left -= b
    return r


@njit(cache=True, nogil=True)
def _next_partition(a: Any, k: int, t: int) -> Any:  # pragma: no cover - compiled
    """The partition after ``a[:k]`` (total *t*), written into *a*: its number of heaps
    and total. The rightmost heap that can grow grows by one, ones after it; after the
    last partition of ``t`` (one heap) comes the first of ``t + 1`` (all ones)."""
    suf = 0
    i = k - 1
    while i >= 0:
        if suf >= 1 and (i == 0 or a[i] < a[i - 1]):
            break
        suf += a[i]
        i -= 1
    if i < 0:
        t += 1
        for x in range(t):
            a[x] = 1
        return t, t
    a[i] += 1
    for x in range(suf - 1):
        a[i + 1 + x] = 1
    return i + suf, t


@njit(cache=True, nogil=True)
def _last(kind: int, nopt: int, seen: Any, stamp: int) -> int:  # pragma: no cover - compiled
    """A position's value when no option decided it: P (0) in normal play, N (1) in
    misère play without any move, else the mex (-1: beyond the room of ``seen``)."""
    if kind == 2:
        return 1 if nopt == 0 else 0
    if kind == 1:
        return 0
    m = 0
    while m < seen.shape[0] and seen[m] == stamp:
        m += 1
    return -1 if m >= seen.shape[0] - 1 else m


@njit(cache=True, nogil=True, inline="always")
def _settle(
    state: Any, r: int, result: int, kind: int, nopt: int, seen: Any, stamp: int
) -> bool:  # pragma: no cover - compiled
    """Write the value of the position of rank *r* (*result*, or :func:`_last` when no
    option decided it); False when the mex is beyond the room of ``seen``."""
    if result < 0:
        result = _last(kind, nopt, seen, stamp)
        if result < 0:
            return False
    state[r] = result
    return True


@njit(cache=True, nogil=True, inline="always")
def _stop(io: Any, k: int, t: int, r: int, code: int) -> int:  # pragma: no cover - compiled
    """Leave the partition ``a[:k]`` of total *t* and rank *r* in *io*; return *code*."""
    io[0] = k
    io[1] = t
    io[2] = r
    return code


@njit(cache=True, nogil=True)
def solve_range(
    state: Any,
    kind: int,
    q: Any,
    off: Any,
    hoff: Any,
    parts: Any,
    npart: Any,
    psum: Any,
    a: Any,
    io: Any,
    first: int,
    last: int,
    seen: Any,
) -> int:  # pragma: no cover - compiled
    """Solve the partitions of ranks ``first..last - 1`` in order; ``a[:io[0]]`` (total
    ``io[1]``) is the partition of rank *first*, and is left at the partition of rank
    *last* (or of the first rank not solved, in ``io[2]``, on an error).

    ``kind``: 0 Grundy values, 1 normal outcome, 2 misère outcome (0: P, 1: N).
    """
    k = io[0]
    t = io[1]
    stamp = 0
    nseen = seen.shape[0]
    seen[:] = 0
    for r in range(first, last):
        result = -1
        nopt = 0
        stamp += 1
        for j in range(k):
            if j > 0 and a[j] == a[j - 1]:
                continue
            h = a[j]
            for row in range(hoff[h], hoff[h + 1]):
                nopt += 1
                c = _option_rank(a, k, j, parts, row, npart[row], t - h + psum[row], q, off)
                if c >= r or state[c] < 0:
                    return _stop(io, k, t, r, NOT_ORDERED)
                v = state[c]
                if kind == 0:
                    if v < nseen:
                        seen[v] = stamp
                elif v == 0:
                    result = 1
                    break
            if result >= 0:
                break
        if not _settle(state, r, result, kind, nopt, seen, stamp):
            return _stop(io, k, t, r, TOO_MANY)
        k, t = _next_partition(a, k, t)
    return _stop(io, k, t, last, OK)


@njit(cache=True, nogil=True)
def expand_box(
    out: Any, dims: Any, state: Any, q: Any, off: Any
) -> None:  # pragma: no cover - compiled
    """``out`` (flat, C order over *dims*) from the values of the sorted positions."""
    n = dims.shape[0]
    cur = np.zeros(n, np.int64)
    buf = np.zeros(n, np.int64)
    for c in range(out.shape[0]):
        k = 0
        for i in range(n):
            if cur[i] > 0:
                buf[k] = cur[i]
                k += 1
        srt = np.sort(buf[:k])
        for i in range(k):  # descending; a loop: numba compiles a slice copy's error text
            buf[i] = srt[k - 1 - i]
        out[c] = state[rank_of(buf, k, q, off)]
        i = n - 1
        while i >= 0:
            if cur[i] + 1 < dims[i]:
                cur[i] += 1
                break
            cur[i] = 0
            i -= 1


@njit(cache=True, nogil=True)
def edit_rank(
    a: Any, k: int, removed: Any, added: Any, buf: Any, q: Any, off: Any
) -> Any:  # pragma: no cover - compiled
    """Rank of ``a[:k]`` without the heaps at the indices *removed* (-1: none), with the
    heaps *added* (0: none); -1 for a negative heap, -2 beyond the ranked totals."""
    n = 0
    for i in range(k):
        keep = True
        for x in removed:
            if x == i:
                keep = False
        if keep:
            buf[n] = a[i]
            n += 1
    for x in added:
        if x < 0:
            return -1
        if x > 0:
            if n >= buf.shape[0]:
                return -2
            buf[n] = x
            n += 1
    total = 0
    for i in range(1, n):  # insertion sort, decreasing: a handful of heaps
        x = buf[i]
        j = i - 1
        while j >= 0 and buf[j] < x:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = x
    for i in range(n):
        total += buf[i]
    if total >= off.shape[0] - 1:
        return -2
    return rank_of(buf, n, q, off)


@njit(nogil=True)
def solve_range_gen(
    gen: Any,
    state: Any,
    kind: int,
    q: Any,
    off: Any,
    a: Any,
    io: Any,
    first: int,
    last: int,
    seen: Any,
    buf: Any,
) -> int:  # pragma: no cover - compiled
    """:func:`solve_range` for a model given as a compiled generator: ``gen(heaps)``
    (the nonempty heaps, decreasing) yields ``(removed, added)`` per option (see
    ``HeapRuleset.compiled_split_options``). Compiled per model (not cached: numba does
    not cache a function that receives another)."""
    k = io[0]
    t = io[1]
    seen[:] = 0
    for r in range(first, last):
        result = -1
        nopt = 0
        stamp = r - first + 1
        for opt in gen(a[:k]):
            nopt += 1
            c = edit_rank(a, k, opt[0], opt[1], buf, q, off)
            if c < 0 or c >= r or state[c] < 0:
                return _stop(io, k, t, r, NEGATIVE if c == -1 else NOT_ORDERED)
            v = state[c]
            if kind == 0:
                if v < seen.shape[0]:
                    seen[v] = stamp
            elif v == 0:
                result = 1
                break
        if not _settle(state, r, result, kind, nopt, seen, stamp):
            return _stop(io, k, t, r, TOO_MANY)
        k, t = _next_partition(a, k, t)
    return _stop(io, k, t, last, OK)
