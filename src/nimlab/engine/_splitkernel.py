"""Compiled kernel of the delete-and-split games (Single-delete Nim) on 2 to 6 heaps.

A move removes one heap and splits one of the others into two positive heaps. The
options of a position that remove heap ``i`` and split heap ``j`` do not depend on the
size of heap ``i``: they are the positions ``K + {u, x - u}`` (``K`` the multiset of the
``n - 2`` heaps kept, ``x`` the heap split, ``1 <= u <= x // 2``). So the set of their
Grundy values is one bitset per cell ``(K, x)``, built once and shared by every position
that keeps ``K`` and splits ``x`` (about ``N`` of them), and the value of a position is
the mex of the union of at most ``n (n - 1)`` bitsets. The positions are solved in colex
order of their sorted heaps (compare the largest heap first), in which every option comes
before its position (an option replaces two heaps by pieces smaller than the larger of
them); a cell's bitset is built the first time a position asks for it, when all of its
positions are solved.

These are internal functions: :func:`nimlab.engine.table` checks sizes and allocates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

from nimlab.engine import _fastload

_fastload.install()  # load cached kernels without numba's compiler set-up

__all__: list[str] = []

trailing_zeros: Any = _trailing_zeros


@njit(cache=True, nogil=True)
def colex_terms(n: int, size: int) -> Any:  # pragma: no cover - compiled
    """``T[i, x] = C(x + i, i + 1)``: the colex rank of sorted heaps ``h`` is
    ``sum(T[i, h[i]])``."""
    t = np.zeros((max(n, 1), size), np.int64)
    for x in range(size):
        t[0, x] = x
    for i in range(1, n):
        for x in range(size):
            # C(x + i, i + 1) = C(x + i - 1, i) * (x + i) / (i + 1)
            c = np.int64(1)
            for k in range(i + 1):
                c = c * (x + i - k) // (k + 1)
            t[i, x] = c
    return t


@njit(cache=True, nogil=True)
def _mex(acc: Any, used: int) -> int:  # pragma: no cover - compiled
    for w in range(used):
        free = ~acc[w]
        if free != 0:
            return 64 * w + int(trailing_zeros(free))
    return 64 * used


@njit(cache=True, nogil=True)
def _fill_cell(bits: Any, cell: int, kept: Any, x: int, v: Any, t: Any) -> None:  # pragma: no cover
    """Bitset of the values of ``kept + {u, x - u}``, ``1 <= u <= x // 2``."""
    m = kept.shape[0]
    q = np.empty(m + 2, np.int64)
    for u in range(1, x // 2 + 1):
        a = u
        b = x - u
        # merge the sorted kept heaps with a <= b
        r = 0
        k = 0
        for s in range(m + 2):
            if a >= 0 and (k == m or a <= kept[k]):
                q[s] = a
                a = b
                b = -1
            else:
                q[s] = kept[k]
                k += 1
        for s in range(m + 2):
            r += t[s, q[s]]
        g = v[r]
        bits[cell, g >> 6] |= np.uint64(1) << np.uint64(g & 63)


@njit(cache=True, nogil=True)
def split_values(n: int, size: int, words: int) -> Any:  # pragma: no cover - compiled
    """Grundy values of every sorted position of *n* heaps ``0..size-1``, by colex rank
    (0 where a heap is 0: no position)."""
    t = colex_terms(n, size)
    total = 0
    for i in range(n):
        total += t[i, size - 1]
    v = np.zeros(total + 1, np.int32)
    m = n - 2
    ncells = 1
    for i in range(m):
        ncells += t[i, size - 1]
    bits = np.zeros((ncells * size, words), np.uint64)
    done = np.zeros(ncells * size, np.bool_)
    h = np.zeros(n, np.int64)
    kept = np.empty(m, np.int64)
    acc = np.zeros(words, np.uint64)
    r = 0
    used = 1  # words that hold a value so far (the bits above the largest value are 0)
    while True:
        if h[0] >= 1:
            for w in range(used):
                acc[w] = 0
            for i in range(n):  # the heap removed
                if i > 0 and h[i] == h[i - 1]:
                    continue
                for j in range(n):  # the heap split
                    if j == i or h[j] < 2 or (j > 0 and j - 1 != i and h[j] == h[j - 1]):
                        continue
                    k = 0
                    kr = 0
                    for s in range(n):
                        if s != i and s != j:
                            kept[k] = h[s]
                            kr += t[k, h[s]]
                            k += 1
                    cell = kr * size + h[j]
                    if not done[cell]:
                        _fill_cell(bits, cell, kept, h[j], v, t)
                        done[cell] = True
                    for w in range(used):
                        acc[w] |= bits[cell, w]
            g = _mex(acc, used)
            v[r] = g
            used = max(used, g // 64 + 1)
        i = 0  # colex successor: the first heap below the next one grows, those before it are 0
        while i < n - 1 and h[i] == h[i + 1]:
            i += 1
        if i == n - 1 and h[i] == size - 1:
            break
        h[i] += 1
        for s in range(i):
            h[s] = 0
        r += 1
    return v


@njit(cache=True, nogil=True)
def split_fill(out: Any, dims: Any, v: Any, mode: int) -> None:  # pragma: no cover
    """Fill the bytes *out* of the C-ordered box of shape *dims* from the values *v* by
    colex rank: ``mode`` 0 a value per byte, 1 a value per two bytes (little-endian), 2
    ``value == 0`` per byte (outcomes); 0 where a heap is 0. One compiled signature
    serves every output dtype (the caller views the bytes as uint8, uint16 or bool)."""
    n = dims.shape[0]
    size = 0
    for i in range(n):
        size = max(size, dims[i])
    t = colex_terms(n, size)
    idx = np.zeros(n, np.int64)
    p = np.empty(n, np.int64)
    pre = np.zeros(n + 1, np.int64)
    suf = np.zeros(n + 1, np.int64)
    last = dims[n - 1]
    c = 0
    while True:
        # the first n - 1 heaps sorted, then the last one inserted as it grows
        for s in range(n - 1):
            p[s] = idx[s]
        for s in range(1, n - 1):
            y = p[s]
            k = s - 1
            while k >= 0 and p[k] > y:
                p[k + 1] = p[k]
                k -= 1
            p[k + 1] = y
        pre[0] = 0
        for s in range(n - 1):
            pre[s + 1] = pre[s] + t[s, p[s]]
        suf[n - 1] = 0
        for s in range(n - 2, -1, -1):
            suf[s] = suf[s + 1] + t[s + 1, p[s]]
        k = 0
        low = p[0] if n > 1 else 1
        for y in range(last):
            while k < n - 1 and p[k] < y:
                k += 1
            g = 0
            if low != 0 and y != 0:
                g = v[pre[k] + t[k, y] + suf[k]]
            if mode == 1:
                out[2 * c] = g & 255
                out[2 * c + 1] = g >> 8
            elif mode == 2:
                out[c] = 1 if g == 0 and low != 0 and y != 0 else 0
            else:
                out[c] = g
            c += 1
        s = n - 2
        while s >= 0:
            idx[s] += 1
            if idx[s] < dims[s]:
                break
            idx[s] = 0
            s -= 1
        if s < 0:
            break
