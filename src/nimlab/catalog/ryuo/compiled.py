"""The compiled move model of the ryuo family (the ``compiled_options`` hook; imports
numba, so the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["rgames", "ryuo"]


def ryuo(p: int, q: int | None) -> Any:
    """Ryuo Nim(p) (``q`` None: one-heap moves take any amount) and restricted Ryuo.

    Examples
    --------
    >>> sorted(set(ryuo(2, None)((1, 1))))
    [(0, 1), (1, 0)]
    """
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


# -- RGAMES: one-heap games per heap and a game on the sum ------------------------------


def _line_arrays(lines: tuple[tuple[bool, int, tuple[int, ...]], ...]) -> tuple[Any, ...]:
    """The one-heap games' lines as arrays: amounts (one row a game), their counts, the
    cofinite flags and the lags."""
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
    return amounts, counts, cof, lag


def rgames(
    lines: tuple[tuple[bool, int, tuple[int, ...]], ...], line0: tuple[bool, int, tuple[int, ...]]
) -> Any:
    """RGAMES(G0; G1, ..., Gm): heap ``i`` loses ``t`` stones when ``Gi`` allows ``t``; or
    ``G0`` takes ``t`` from the sum of all heaps, split between them in every way. Each
    one-heap game is given as its line ``(cofinite, lag, amounts)``: it allows the
    listed *amounts*, and when *cofinite* every ``t > lag``.

    Examples
    --------
    >>> nim, take1 = (True, 0, ()), (False, 0, (1,))
    >>> sorted(set(rgames((nim, nim), take1)((1, 1))))
    [(0, 1), (1, 0)]
    """
    amounts, counts, cof, lag = _line_arrays(lines)
    cof0, lag0 = bool(line0[0]), int(line0[1])
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
