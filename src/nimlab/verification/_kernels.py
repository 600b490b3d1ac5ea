"""Numba kernels of the vectorised local check (imported only when used)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["fill_bits", "fill_p", "grundy_cols", "pset_cols"]


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
def fill_p(blk: Any, s: int, n: int, colp: Any, diagp: Any) -> None:  # pragma: no cover
    """Mark columns and diagonals that hold a claimed P-position in rows ``s..``."""
    for r in range(blk.shape[0]):
        _add_row_p(blk, r, s + r, n, colp, diagp)


@numba.njit(cache=True, nogil=True)
def grundy_cols(
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
    k: int,
    step: int,
    check: bool,
    span: int,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Check the local rule of a Grundy claim (the claim's value is the mex of its
    options' values) on the columns ``b = k, k + step, ...`` of rows ``a0..a1`` (one
    thread's share; ``k=0, step=1``: every column): ``(0, 0)``, or ``(1, index of the
    first failing position)``. *colbits* holds those columns' bitsets of values seen (row
    ``(b - k) // step``), *diagbits* every diagonal's (filled from every column); both are
    updated. *check* False: the rows are only added to the state (chunks done earlier).
    *span*: the columns are taken in strips of *span* (a multiple of *step*), each for
    every row of the chunk in turn, so that a strip's bitsets stay in a core's cache."""
    lim = W * 64
    rows = a1 - a0
    rowbits = np.zeros((max(rows, 1), W), dtype=np.uint64)
    tmp = np.zeros(W, dtype=np.uint64)
    ov = np.zeros(max(n_offs, 1), dtype=np.int64)
    full = ~np.uint64(0)
    zero = np.uint64(0)
    stop_row = a1  # rows from the first failing one on are not checked in later strips
    first = -1
    for s0 in range(0, n, span):
        s1 = min(n, s0 + span)
        c0 = (s0 - k + step - 1) // step if s0 > k else 0  # first own column >= s0
        for a in range(a0, a1):
            if a >= stop_row:
                break
            r = a - h0
            rb = rowbits[a - a0]
            own = k + c0 * step
            c = c0 - 1
            for b in range(s0, s1):
                f = F[r, b]
                if b == own:
                    own += step
                    c += 1
                    if check:
                        if f < 0 or f >= lim:
                            bad = True
                        else:
                            fw = f >> 6
                            bitf = np.uint64(1) << np.uint64(f & 63)
                            low = bitf - np.uint64(1)
                            d = b - a + n - 1
                            # every word below fw full, bit f absent and the bits below
                            # it present in the union of the lines, then the offsets
                            acc = full
                            for w in range(fw):
                                x = zero
                                if line_b:
                                    x |= rb[w]
                                if line_a:
                                    x |= colbits[c, w]
                                if line_d:
                                    x |= diagbits[d, w]
                                acc &= x
                            xf = zero
                            if line_b:
                                xf |= rb[fw]
                            if line_a:
                                xf |= colbits[c, fw]
                            if line_d:
                                xf |= diagbits[d, fw]
                            m = 0
                            for j in range(n_offs):
                                da = offs[j, 0]
                                db = offs[j, 1]
                                if da <= a and db <= b:
                                    v = F[r - da, b - db]
                                    if v >= 0 and (v >> 6) <= fw:
                                        if (v >> 6) == fw:
                                            xf |= np.uint64(1) << np.uint64(v & 63)
                                        else:
                                            ov[m] = v
                                            m += 1
                            bad = (xf & bitf) != 0 or (xf & low) != low
                            if not bad and acc != full:
                                # a word below fw has a gap: fill it from the offsets
                                for w in range(fw):
                                    x = zero
                                    if line_b:
                                        x |= rb[w]
                                    if line_a:
                                        x |= colbits[c, w]
                                    if line_d:
                                        x |= diagbits[d, w]
                                    tmp[w] = x
                                for j in range(m):
                                    v = ov[j]
                                    tmp[v >> 6] |= np.uint64(1) << np.uint64(v & 63)
                                for w in range(fw):
                                    if tmp[w] != full:
                                        bad = True
                                        break
                        if bad:
                            idx = (a - a0) * n + b
                            if first < 0 or idx < first:
                                first = idx
                            stop_row = a  # this row is done: its first failure is found
                            break
                    if line_a and 0 <= f < lim:
                        colbits[c, f >> 6] |= np.uint64(1) << np.uint64(f & 63)
                if 0 <= f < lim:
                    bit = np.uint64(1) << np.uint64(f & 63)
                    if line_b:
                        rb[f >> 6] |= bit
                    if line_d:
                        diagbits[b - a + n - 1, f >> 6] |= bit
    if first >= 0:
        return 1, first
    return 0, 0


@numba.njit(cache=True, nogil=True)
def pset_cols(
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
    k: int,
    step: int,
    check: bool,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The P-set rule (a claimed P-position has no claimed P-option, any other has one) on
    the columns ``b = k, k + step, ...`` of rows ``a0..a1``
    (*colp* holds those columns' flags, *diagp* every diagonal's); *check* False: the
    rows are only added to the state."""
    for a in range(a0, a1):
        r = a - h0
        rowp = False
        own = k
        c = -1
        for b in range(n):
            isp = F[r, b] != 0
            if b == own:
                own += step
                c += 1
                if check:
                    reach = (
                        (line_b and rowp)
                        or (line_a and colp[c])
                        or (line_d and diagp[b - a + n - 1])
                    )
                    if not reach:
                        for j in range(n_offs):
                            da = offs[j, 0]
                            db = offs[j, 1]
                            if da <= a and db <= b and F[r - da, b - db] != 0:
                                reach = True
                                break
                    if isp == reach:
                        return 1, (a - a0) * n + b
                if isp:
                    colp[c] = True
            if isp:
                rowp = True
                diagp[b - a + n - 1] = True
    return 0, 0
