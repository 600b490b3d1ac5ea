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


#: The index of the lowest set bit of a 64-bit word ``x``:
#: ``_LOW_BIT[((x & -x) * _DE_BRUIJN) >> 58]`` (a de Bruijn sequence).
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_LOW_BIT = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _LOW_BIT[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


@numba.njit(cache=True, nogil=True)
def _full_words(bits: Any, first: int, last: int, W: int, out: Any) -> None:  # pragma: no cover
    """``out[i]``: the bitmap of the full words of ``bits[i]``, for ``first <= i < last``."""
    full = ~np.uint64(0)
    for i in range(max(first, 0), min(last, bits.shape[0])):
        for w in range(W):
            if bits[i, w] == full:
                out[i, w >> 6] |= np.uint64(1) << np.uint64(w & 63)


@numba.njit(cache=True, nogil=True)
def grundy_cols(
    F: Any,
    h0: int,
    fc: int,
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
    colfull: Any,
    rebuild: bool,
    diagbits: Any,
    rowbits: Any,
    rowfull: Any,
    lo: int,
    hi: int,
    check: bool,
    span: int,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Check the local rule of a Grundy claim (the claim's value is the mex of its
    options' values) on the columns ``lo..hi`` of rows ``a0..a1`` (one thread's share;
    ``lo, hi = 0, n``: every column): ``(0, 0)``, or ``(1, index of the first failing
    position)``. ``F[r, j]`` is the claim at row ``h0 + r``, column ``fc + j``.
    *colbits* holds those columns' bitsets of values seen (row ``b - lo``), *colfull*
    their bitmaps of full words (made again from *colbits* when *rebuild*), *diagbits*
    every diagonal's, *rowbits* and *rowfull* (row ``a - a0``) the rows' bitsets and full
    words from the columns left of *lo* (zeros for ``lo = 0``); all are updated.
    *check* False: the rows are only added to the state (chunks done earlier).
    *span*: the columns are taken in strips of *span*, each for every row of the chunk in
    turn, so that a strip's bitsets stay in a core's cache.

    Each line also has a bitmap of its full words (all 64 values seen), made here from
    the bitsets (the columns' kept by the caller between calls) and kept up to date: a position reads the words below its value only
    where no line has a full word (a few per position instead of ``value / 64`` each)."""
    lim = W * 64
    M = (W + 63) >> 6
    diagfull = np.zeros((diagbits.shape[0], M), dtype=np.uint64)
    if line_a and rebuild:
        colfull[:] = 0
        _full_words(colbits, 0, colbits.shape[0], W, colfull)
    if line_d:  # the diagonals of rows a0..a1 in columns lo..hi
        _full_words(diagbits, lo - a1 + n, hi - a0 + n - 1, W, diagfull)
    # the offset moves along a line are in that line's bitset already
    own_da = np.zeros(max(n_offs, 1), dtype=np.int64)
    own_db = np.zeros(max(n_offs, 1), dtype=np.int64)
    n_own = 0
    for j in range(n_offs):
        da = offs[j, 0]
        db = offs[j, 1]
        if not ((da == 0 and line_b) or (db == 0 and line_a) or (da == db and line_d)):
            own_da[n_own] = da
            own_db[n_own] = db
            n_own += 1
    top_da = own_da[:n_own].max() if n_own else 0  # positions past these read every offset
    top_db = own_db[:n_own].max() if n_own else 0
    gap_w = np.zeros(W, dtype=np.int64)  # words below the value no line fills alone
    gap_x = np.zeros(W, dtype=np.uint64)  # and the union of the lines' words there
    ov = np.zeros(max(n_offs, 1), dtype=np.int64)
    full = ~np.uint64(0)
    zero = np.uint64(0)
    one = np.uint64(1)
    stop_row = a1  # rows from the first failing one on are not checked in later strips
    first = -1
    for s0 in range(lo, hi, span):
        s1 = min(hi, s0 + span)
        for a in range(a0, a1):
            if a >= stop_row:
                break
            r = a - h0
            rb = rowbits[a - a0]
            rf = rowfull[a - a0]
            for b in range(s0, s1):
                f = F[r, b - fc]
                d = b - a + n - 1
                c = b - lo
                if check:
                    if f < 0 or f >= lim:
                        bad = True
                    else:
                        fw = f >> 6
                        bitf = one << np.uint64(f & 63)
                        low = bitf - one
                        # the words below fw that no line has full: their union
                        ng = 0
                        for m in range((fw >> 6) + 1):
                            cov = zero
                            if line_b:
                                cov |= rf[m]
                            if line_a:
                                cov |= colfull[c, m]
                            if line_d:
                                cov |= diagfull[d, m]
                            miss = ~cov if m < fw >> 6 else (one << np.uint64(fw & 63)) - one & ~cov
                            while miss != zero:
                                lb = miss & (~miss + one)
                                miss ^= lb
                                w = (m << 6) + _LOW_BIT[(lb * _DE_BRUIJN) >> np.uint64(58)]
                                x = zero
                                if line_b:
                                    x |= rb[w]
                                if line_a:
                                    x |= colbits[c, w]
                                if line_d:
                                    x |= diagbits[d, w]
                                if x != full:
                                    gap_w[ng] = w
                                    gap_x[ng] = x
                                    ng += 1
                        xf = zero
                        if line_b:
                            xf |= rb[fw]
                        if line_a:
                            xf |= colbits[c, fw]
                        if line_d:
                            xf |= diagbits[d, fw]
                        bad = (xf & bitf) != 0
                        if not bad and ng == 0 and (xf & low) == low:
                            # the lines hold every value below f: no offset may hold f
                            if a >= top_da and b >= top_db:
                                for j in range(n_own):
                                    if F[r - own_da[j], b - own_db[j] - fc] == f:
                                        bad = True
                            else:
                                for j in range(n_own):
                                    da = own_da[j]
                                    db = own_db[j]
                                    if da <= a and db <= b and F[r - da, b - db - fc] == f:
                                        bad = True
                        elif not bad:
                            n_ov = 0
                            for j in range(n_own):
                                da = own_da[j]
                                db = own_db[j]
                                if da <= a and db <= b:
                                    v = F[r - da, b - db - fc]
                                    if v >= 0 and (v >> 6) <= fw:
                                        if (v >> 6) == fw:
                                            xf |= one << np.uint64(v & 63)
                                        elif ng:
                                            ov[n_ov] = v
                                            n_ov += 1
                            bad = (xf & bitf) != 0 or (xf & low) != low
                            # every gap must be filled by the offsets' values
                            for g in range(ng if not bad else 0):
                                x = gap_x[g]
                                for j in range(n_ov):
                                    v = ov[j]
                                    if (v >> 6) == gap_w[g]:
                                        x |= one << np.uint64(v & 63)
                                if x != full:
                                    bad = True
                                    break
                    if bad:
                        idx = (a - a0) * n + b
                        if first < 0 or idx < first:
                            first = idx
                        stop_row = a  # this row is done: its first failure is found
                        break
                if line_a and 0 <= f < lim:
                    fw = f >> 6
                    x = colbits[c, fw] | (one << np.uint64(f & 63))
                    colbits[c, fw] = x
                    if x == full:
                        colfull[c, fw >> 6] |= one << np.uint64(fw & 63)
                if 0 <= f < lim:
                    fw = f >> 6
                    bit = one << np.uint64(f & 63)
                    if line_b:
                        x = rb[fw] | bit
                        rb[fw] = x
                        if x == full:
                            rf[fw >> 6] |= one << np.uint64(fw & 63)
                    if line_d:
                        x = diagbits[d, fw] | bit
                        diagbits[d, fw] = x
                        if x == full:
                            diagfull[d, fw >> 6] |= one << np.uint64(fw & 63)
    if first >= 0:
        return 1, first
    return 0, 0


@numba.njit(cache=True, nogil=True)
def pset_cols(
    F: Any,
    h0: int,
    fc: int,
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
    rowp: Any,
    lo: int,
    hi: int,
    check: bool,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The P-set rule (a claimed P-position has no claimed P-option, any other has one) on
    the columns ``lo..hi`` of rows ``a0..a1`` (``F`` as in :func:`grundy_cols`; *colp*
    holds those columns' flags (row ``b - lo``), *diagp* every diagonal's, *rowp* the
    rows' flags from the columns left of *lo*); *check* False: the rows are only added
    to the state."""
    for a in range(a0, a1):
        r = a - h0
        isrowp = rowp[a - a0]
        for b in range(lo, hi):
            isp = F[r, b - fc] != 0
            c = b - lo
            if check:
                reach = (
                    (line_b and isrowp) or (line_a and colp[c]) or (line_d and diagp[b - a + n - 1])
                )
                if not reach:
                    for j in range(n_offs):
                        da = offs[j, 0]
                        db = offs[j, 1]
                        if da <= a and db <= b and F[r - da, b - db - fc] != 0:
                            reach = True
                            break
                if isp == reach:
                    return 1, (a - a0) * n + b
            if isp:
                colp[c] = True
                isrowp = True
                rowp[a - a0] = True
                diagp[b - a + n - 1] = True
    return 0, 0
