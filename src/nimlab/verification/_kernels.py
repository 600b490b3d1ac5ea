"""Numba kernels of the vectorised local check (imported only when used)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["fill_bits", "fill_p", "grundy_kernel", "pset_kernel"]


@numba.njit(cache=True, inline="always")
def _add_row_bits(
    rows: Any,
    r: int,
    a: int,
    n: int,
    lim: int,
    line_a: bool,
    line_d: bool,
    colbits: Any,
    diagbits: Any,
) -> None:  # pragma: no cover - compiled
    """OR the values of ``rows[r]`` (first heap ``a``) into the column and diagonal bitsets."""
    for b in range(n):
        v = rows[r, b]
        if 0 <= v < lim:
            bit = np.uint64(1) << np.uint64(v & 63)
            if line_a:
                colbits[b, v >> 6] |= bit
            if line_d:
                diagbits[b - a + n - 1, v >> 6] |= bit


@numba.njit(cache=True, inline="always")
def _add_row_p(
    rows: Any, r: int, a: int, n: int, colp: Any, diagp: Any
) -> None:  # pragma: no cover - compiled
    """Mark the columns and diagonals of the claimed P-positions of ``rows[r]`` (heap ``a``)."""
    for b in range(n):
        if rows[r, b] != 0:
            colp[b] = True
            diagp[b - a + n - 1] = True


@numba.njit(cache=True, nogil=True)
def fill_bits(
    blk: Any, s: int, n: int, W: int, line_a: bool, line_d: bool, colbits: Any, diagbits: Any
) -> None:  # pragma: no cover - compiled
    """OR the values of rows ``s..`` into the column and diagonal bitsets."""
    lim = W * 64
    for r in range(blk.shape[0]):
        _add_row_bits(blk, r, s + r, n, lim, line_a, line_d, colbits, diagbits)


@numba.njit(cache=True, nogil=True)
def grundy_kernel(
    F: Any,
    h0: int,
    a0: int,
    a1: int,
    n: int,
    W: int,
    line_a: bool,
    line_b: bool,
    line_d: bool,
    offs: Any,
    n_offs: int,
    colbits: Any,
    diagbits: Any,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Check rows ``a0..a1``; return (0, 0) or (1, index of the first failing position)."""
    lim = W * 64
    rowbits = np.zeros(W, dtype=np.uint64)
    tmp = np.zeros(W, dtype=np.uint64)
    full = ~np.uint64(0)
    for a in range(a0, a1):
        r = a - h0
        rowbits[:] = 0
        for b in range(n):
            f = F[r, b]
            if f < 0 or f >= lim:
                return 1, (a - a0) * n + b
            fw = f >> 6
            for w in range(fw + 1):
                x = np.uint64(0)
                if line_b:
                    x |= rowbits[w]
                if line_a:
                    x |= colbits[b, w]
                if line_d:
                    x |= diagbits[b - a + n - 1, w]
                tmp[w] = x
            for j in range(n_offs):
                da = offs[j, 0]
                db = offs[j, 1]
                if da <= a and db <= b:
                    v = F[r - da, b - db]
                    if v >= 0 and (v >> 6) <= fw:
                        tmp[v >> 6] |= np.uint64(1) << np.uint64(v & 63)
            bitf = np.uint64(1) << np.uint64(f & 63)
            bad = (tmp[fw] & bitf) != 0
            if not bad:
                for w in range(fw):
                    if tmp[w] != full:
                        bad = True
                        break
            if not bad and (tmp[fw] & (bitf - np.uint64(1))) != (bitf - np.uint64(1)):
                bad = True
            if bad:
                return 1, (a - a0) * n + b
            if line_b:
                rowbits[fw] |= bitf
        _add_row_bits(F, r, a, n, lim, line_a, line_d, colbits, diagbits)
    return 0, 0


@numba.njit(cache=True, nogil=True)
def fill_p(blk: Any, s: int, n: int, colp: Any, diagp: Any) -> None:  # pragma: no cover
    """Mark columns and diagonals that hold a claimed P-position in rows ``s..``."""
    for r in range(blk.shape[0]):
        _add_row_p(blk, r, s + r, n, colp, diagp)


@numba.njit(cache=True, nogil=True)
def pset_kernel(
    F: Any,
    h0: int,
    a0: int,
    a1: int,
    n: int,
    line_a: bool,
    line_b: bool,
    line_d: bool,
    offs: Any,
    n_offs: int,
    colp: Any,
    diagp: Any,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """P-set rule over rows ``a0..a1``: (0, 0) or (1, index of the first failure)."""
    for a in range(a0, a1):
        r = a - h0
        rowp = False
        for b in range(n):
            reach = (line_b and rowp) or (line_a and colp[b]) or (line_d and diagp[b - a + n - 1])
            if not reach:
                for j in range(n_offs):
                    da = offs[j, 0]
                    db = offs[j, 1]
                    if da <= a and db <= b and F[r - da, b - db] != 0:
                        reach = True
                        break
            isp = F[r, b] != 0
            if isp == reach:
                return 1, (a - a0) * n + b
            if isp:
                rowp = True
        _add_row_p(F, r, a, n, colp, diagp)
    return 0, 0
