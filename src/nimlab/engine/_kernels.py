"""Compiled (numba) kernels for Grundy and outcome tables of heap games.

Every kernel fills a C-ordered array in dependency order (lexicographic order of the
positions, or increasing total for games whose moves may add stones) and computes each
mex with a bitset: a row of 64-bit words per *line* of cofinite moves ("take any amount
from heap i"), filled as the line is swept, plus a small scratch bitset for the explicit
moves of the cell. Two-heap tables are computed as three-dimensional ones with a first
axis of length 1, so that each kernel is compiled once per output dtype.

Each kernel takes a last argument ``stop``, a one-element ``uint8`` array that another
thread sets to 1 to make it return early (the table is then incomplete and dropped): a
table watched by a progress bar runs in a worker thread, and Ctrl-C stops it for good.

These are internal functions: :func:`nimlab.engine.table` chooses, checks sizes and
bounds, and allocates.
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

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)


@njit(cache=True, nogil=True)
def _setbit(bits: Any, i: int, v: int) -> None:  # pragma: no cover - compiled
    bits[i, v >> 6] |= np.uint64(1) << np.uint64(v & 63)


@njit(cache=True, nogil=True)
def wythoff_kernel(out: Any, stop: Any) -> None:  # pragma: no cover - compiled
    """Wythoff Grundy table ``out[x, y]`` with row, column and diagonal bitsets.

    Each bitset also keeps the number of its leading all-ones words: the union of the
    three is all ones below the largest of those counts, so the mex scan starts there.
    """
    n0, n1 = out.shape
    v = n0 + n1 + min(n0, n1) + 64
    w_ = v // 64 + 1
    col = np.zeros((n1, w_), np.uint64)
    dia = np.zeros((n0 + n1, w_), np.uint64)
    row = np.zeros(w_, np.uint64)
    fc = np.zeros(n1, np.int64)
    fd = np.zeros(n0 + n1, np.int64)
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    for x in range(n0):
        if stop[0]:
            return
        row[:] = 0
        fr = 0
        for y in range(n1):
            d = y - x + n0
            w = max(fr, fc[y], fd[d])
            m = row[w] | col[y, w] | dia[d, w]
            while m == ones:
                w += 1
                m = row[w] | col[y, w] | dia[d, w]
            g = w * 64 + trailing_zeros(~m)
            out[x, y] = g
            bit = np.uint64(1) << np.uint64(g & 63)
            k = g >> 6
            row[k] |= bit
            col[y, k] |= bit
            dia[d, k] |= bit
            while row[fr] == ones:
                fr += 1
            while col[y, fc[y]] == ones:
                fc[y] += 1
            while dia[d, fd[d]] == ones:
                fd[d] += 1


@njit(cache=True, nogil=True, inline="always")
def _axis_words(shape: Any, cof: Any, diag: bool, k_: int) -> int:  # pragma: no cover
    """Words of a bitset of :func:`axis_kernel` (room for every option value and the mex)."""
    n0, n1, n2 = shape
    v = k_ + 2
    if cof[0]:
        v += n0
    if cof[1]:
        v += n1
    if cof[2]:
        v += n2
    if diag:
        v += min(n1, n2)
    return v // 64 + 1


@njit(cache=True, nogil=True, inline="always")
def _line_add(line: Any, flags: Any, a: int, g: Any) -> None:  # pragma: no cover - compiled
    """Option value *g* into the bitset of line *a*; its misère flags get 1 (an option)
    and 2 when the option is a misère P-position."""
    line[a, g >> 6] |= np.uint64(1) << np.uint64(g & 63)
    flags[a] |= 1 | (2 * (g == 1))


@njit(cache=True, nogil=True, inline="always")
def _explicit(
    out: Any, offs: Any, x: int, y: int, z: int, misere: bool, tmp: Any, vals: Any
) -> Any:  # pragma: no cover - compiled
    """The explicit moves of cell ``(x, y, z)`` (rows of *offs*): ``(nv, has, win)``.

    Normal play: their values go into the scratch bitset *tmp* and ``vals[:nv]``.
    Misère: *has* says whether there is one, *win* whether one is a P-position (1)."""
    has = False
    win = False
    nv = 0
    for k in range(offs.shape[0]):
        xx = x - offs[k, 0]
        yy = y - offs[k, 1]
        zz = z - offs[k, 2]
        if xx >= 0 and yy >= 0 and zz >= 0:
            g = out[xx, yy, zz]
            if misere:
                has = True
                if g == 1:
                    win = True
            else:
                tmp[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                vals[nv] = g
                nv += 1
    return nv, has, win


@njit(cache=True, nogil=True, inline="always")
def _misere_value(has: bool, win: bool, f: int) -> int:  # pragma: no cover - compiled
    """The misère cell: 1 (P) when it has an option (*has*, or flag 1 of its lines' *f*)
    and none is P (*win*, or flag 2). Terminal positions are N in misère play."""
    if f & 1:
        has = True
    if f & 2:
        win = True
    return 1 if (has and not win) else 0


@njit(cache=True, nogil=True, inline="always")
def _mex_lines(
    tmp: Any, l0: Any, l1: Any, l2: Any, ld: Any, a: Any, cof: Any, diag: bool
) -> Any:  # pragma: no cover - compiled
    """The mex of the union of *tmp* and the cell's lines (``a``: their rows), by words."""
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    a0, a1, a2, ad = a
    w = 0
    while True:
        m = tmp[w]
        if cof[0]:
            m |= l0[a0, w]
        if cof[1]:
            m |= l1[a1, w]
        if cof[2]:
            m |= l2[a2, w]
        if diag:
            m |= ld[ad, w]
        if m != ones:
            break
        w += 1
    return w * 64 + trailing_zeros(~m)


@njit(cache=True, nogil=True)
def axis_kernel(
    out: Any, cof: Any, lag: Any, diag: bool, offs: Any, misere: bool, stop: Any
) -> None:  # pragma: no cover
    """Grundy (or misère P/N) table of a game given by lines and explicit moves.

    ``out`` has three axes (the first of length 1 for two heaps). A move either takes
    ``s > lag[i]`` stones from heap ``i`` when ``cof[i]`` (the small amounts allowed go
    in ``offs``), or takes the same ``s >= 1`` from heaps 1 and 2 when ``diag``, or
    subtracts one row of ``offs`` (non-negative vectors) from the position.

    With ``misere`` the kernel stores 1 at misère P-positions and 0 elsewhere.
    """
    n0, n1, n2 = out.shape
    w_ = _axis_words(out.shape, cof, diag, offs.shape[0])
    l0 = np.zeros((n1 * n2 if cof[0] else 1, w_), np.uint64)
    l1 = np.zeros((n0 * n2 if cof[1] else 1, w_), np.uint64)
    l2 = np.zeros((n0 * n1 if cof[2] else 1, w_), np.uint64)
    ld = np.zeros((n0 * (n1 + n2) if diag else 1, w_), np.uint64)
    # misère: per line, whether it holds an option, and whether one option is P
    h0 = np.zeros(l0.shape[0], np.uint8)
    h1 = np.zeros(l1.shape[0], np.uint8)
    h2 = np.zeros(l2.shape[0], np.uint8)
    hd = np.zeros(ld.shape[0], np.uint8)
    tmp = np.zeros(w_, np.uint64)
    vals = np.zeros(offs.shape[0], np.int64)
    for x in range(n0):
        for y in range(n1):
            if stop[0]:
                return
            for z in range(n2):
                a0 = y * n2 + z
                a1 = x * n2 + z
                a2 = x * n1 + y
                ad = x * (n1 + n2) + (z - y + n1)
                if cof[0] and x - lag[0] - 1 >= 0:
                    _line_add(l0, h0, a0, out[x - lag[0] - 1, y, z])
                if cof[1] and y - lag[1] - 1 >= 0:
                    _line_add(l1, h1, a1, out[x, y - lag[1] - 1, z])
                if cof[2] and z - lag[2] - 1 >= 0:
                    _line_add(l2, h2, a2, out[x, y, z - lag[2] - 1])
                if diag and y >= 1 and z >= 1:
                    _line_add(ld, hd, ad, out[x, y - 1, z - 1])
                nv, has, win = _explicit(out, offs, x, y, z, misere, tmp, vals)
                if misere:
                    f = 0
                    if cof[0]:
                        f |= h0[a0]
                    if cof[1]:
                        f |= h1[a1]
                    if cof[2]:
                        f |= h2[a2]
                    if diag:
                        f |= hd[ad]
                    out[x, y, z] = _misere_value(has, win, f)
                    continue
                out[x, y, z] = _mex_lines(tmp, l0, l1, l2, ld, (a0, a1, a2, ad), cof, diag)
                for i in range(nv):
                    tmp[vals[i] >> 6] = 0


@njit(cache=True, nogil=True)
def moore_kernel(out: Any, k: int, misere: bool, stop: Any) -> None:  # pragma: no cover - compiled
    """Grundy table of Moore's Nim_k on up to three heaps (moves change at most k heaps).

    Options changing one heap lie on lines, options changing two heaps fill the lower
    rectangle of a coordinate plane, and options changing three heaps fill the lower box;
    each union is kept as running bitsets (prefix unions) in C order.

    With ``misere`` the table holds 1 at misère P-positions, 0 elsewhere: a position is
    P when it has an option and none of its options is P (bit 1 of the union).
    """
    n0, n1, n2 = out.shape
    v = 2 if misere else n0 + n1 + n2 + 2
    w_ = v // 64 + 1
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    big = k >= 2 and n0 > 1
    # plane (y, z) at the current x: cy[z] = union over y' < y, z' <= z
    cy = np.zeros((n2, w_), np.uint64)
    # plane (x, z) at fixed y: cxz[y, z] = union over x' < x, z' <= z
    cxz = np.zeros((n1 if big else 1, n2 if big else 1, w_), np.uint64)
    # plane (x, y) at fixed z: cxy[z, y] = union over x' < x, y' <= y
    cxy = np.zeros((n2 if big else 1, n1 if big else 1, w_), np.uint64)
    rpz = np.zeros((n2 if big else 1, w_), np.uint64)  # union over y' <= y at (x, ., z)
    box = np.zeros((n1 if big else 1, n2 if big else 1, w_), np.uint64)
    # lines for k == 1
    one = k == 1
    lx = np.zeros((n1 * n2 if one else 1, w_), np.uint64)
    ly = np.zeros((n0 * n2 if one else 1, w_), np.uint64)
    lz = np.zeros((n0 * n1 if one else 1, w_), np.uint64)
    row = np.zeros(w_, np.uint64)  # union over z' < z at (x, y, .)
    for x in range(n0):
        cy[:, :] = 0
        if big:
            rpz[:, :] = 0
        for y in range(n1):
            if stop[0]:
                return
            row[:] = 0
            for z in range(n2):
                w = 0
                while True:
                    if k == 1:
                        m = lx[y * n2 + z, w] | ly[x * n2 + z, w] | lz[x * n1 + y, w]
                    else:
                        m = row[w] | cy[z, w]
                        if big:
                            m |= cxz[y, z, w] | cxy[z, y, w] | rpz[z, w]
                            if k >= 3:
                                m |= box[y, z, w]
                    if misere or m != ones:
                        break
                    w += 1
                if misere:
                    g = 1 if (m != 0 and not (m & np.uint64(2))) else 0
                else:
                    g = w * 64 + trailing_zeros(~m)
                out[x, y, z] = g
                bit = np.uint64(1) << np.uint64(g & 63)
                q = g >> 6
                if k == 1:
                    lx[y * n2 + z, q] |= bit
                    ly[x * n2 + z, q] |= bit
                    lz[x * n1 + y, q] |= bit
                    continue
                row[q] |= bit  # now union over z' <= z
                if big:
                    rpz[z, q] |= bit  # union over y' <= y at (x, ., z)
                    for t in range(w_):
                        cxz[y, z, t] |= row[t]
                        cxy[z, y, t] |= rpz[z, t]
                        if k >= 3:
                            box[y, z, t] |= cy[z, t] | row[t]
                for t in range(w_):
                    cy[z, t] |= row[t]


@njit(cache=True, nogil=True)
def lim_kernel(out: Any, misere: bool, stop: Any) -> None:  # pragma: no cover - compiled
    """Lim Grundy values on the simplex ``a + b + c <= s`` (an (s+1)^3 array).

    A move takes ``t`` from two heaps and adds ``t`` to the third: the total drops by
    ``t`` and no heap exceeds the total, so the simplex is closed under moves.
    Positions are visited by increasing total.
    """
    s_ = out.shape[0] - 1
    w_ = (3 * s_ + 2) // 64 + 1
    tmp = np.zeros(w_, np.uint64)
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    for s in range(s_ + 1):
        for a in range(s + 1):
            if stop[0]:
                return
            for b in range(s - a + 1):
                c = s - a - b
                for t in range(1, min(a, b) + 1):
                    g = out[a - t, b - t, c + t]
                    tmp[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                for t in range(1, min(a, c) + 1):
                    g = out[a - t, b + t, c - t]
                    tmp[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                for t in range(1, min(b, c) + 1):
                    g = out[a + t, b - t, c - t]
                    tmp[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                if misere:  # 1 at misère P-positions: an option, and no option P
                    out[a, b, c] = 1 if (tmp[0] != 0 and not (tmp[0] & np.uint64(2))) else 0
                    tmp[0] = 0
                    continue
                w = 0
                while tmp[w] == ones:
                    w += 1
                out[a, b, c] = w * 64 + trailing_zeros(~tmp[w])
                tmp[:] = 0


@njit(cache=True, nogil=True)
def delete_nim_kernel(out: Any, misere: bool, stop: Any) -> None:  # pragma: no cover - compiled
    """Delete Nim ([S19] form) on a square ``out``: G(a, b) = mex(D[a-1] | D[b-1]).

    ``D[s]`` is the set of values on the anti-diagonal of total ``s``: removing heap a
    and splitting ``b - 1`` gives every position of total ``b - 1``.
    """
    n = out.shape[0]
    w_ = 1
    while 64 * w_ < 2 * n + 2:
        w_ += 1
    dia = np.zeros((2 * n, w_), np.uint64)
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    m_ = np.zeros(w_, np.uint64)
    for s in range(2 * n - 1):
        if stop[0]:
            return
        for a in range(max(0, s - n + 1), min(s, n - 1) + 1):
            b = s - a
            m_[:] = 0
            if a >= 1:
                for t in range(w_):
                    m_[t] |= dia[a - 1, t]
            if b >= 1:
                for t in range(w_):
                    m_[t] |= dia[b - 1, t]
            if misere:  # 1 at misère P-positions: an option, and no option P
                g = 1 if (m_[0] != 0 and not (m_[0] & np.uint64(2))) else 0
            else:
                w = 0
                while m_[w] == ones:
                    w += 1
                g = w * 64 + trailing_zeros(~m_[w])
            out[a, b] = g
            dia[s, g >> 6] |= np.uint64(1) << np.uint64(g & 63)


@njit(cache=True, nogil=True)
def lines2_kernel(
    out: Any, cof0: bool, cof1: bool, lag0: int, lag1: int, offs: Any, stop: Any
) -> None:  # pragma: no cover
    """Two-heap Grundy table: cofinite moves along each heap (with lags) + explicit moves.

    The lines are a row bitset (heap 2) and one column bitset per ``y`` (heap 1), each
    with the count of its leading all-ones words; the explicit options (rows of
    ``offs``) are few, so the mex is the first zero bit of the lines' union that is not
    one of them.
    """
    n0, n1 = out.shape
    k_ = offs.shape[0]
    v = k_ + 2
    if cof0:
        v += n0
    if cof1:
        v += n1
    w_ = v // 64 + 2
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    col = np.zeros((n1 if cof0 else 1, w_), np.uint64)
    fc = np.zeros(n1 if cof0 else 1, np.int64)
    row = np.zeros(w_, np.uint64)
    ex = np.zeros(k_ + 1, np.int64)
    for x in range(n0):
        if stop[0]:
            return
        row[:] = 0
        fr = 0
        for y in range(n1):
            if cof1 and y - lag1 - 1 >= 0:
                g = out[x, y - lag1 - 1]
                row[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                while row[fr] == ones:
                    fr += 1
            cy = 0
            full = fr
            if cof0:
                cy = y
                if x - lag0 - 1 >= 0:
                    g = out[x - lag0 - 1, y]
                    col[cy, g >> 6] |= np.uint64(1) << np.uint64(g & 63)
                    while col[cy, fc[cy]] == ones:
                        fc[cy] += 1
                full = max(fr, fc[cy])
            ne = 0
            for k in range(k_):
                xx = x - offs[k, 0]
                yy = y - offs[k, 1]
                if xx >= 0 and yy >= 0:
                    ex[ne] = out[xx, yy]
                    ne += 1
            start = 64 * full
            while True:
                w = start >> 6
                m = row[w] | ((np.uint64(1) << np.uint64(start & 63)) - np.uint64(1))
                if cof0:
                    m |= col[cy, w]
                while m == ones:
                    w += 1
                    m = row[w]
                    if cof0:
                        m |= col[cy, w]
                g = w * 64 + trailing_zeros(~m)
                hit = False
                for i in range(ne):
                    if ex[i] == g:
                        hit = True
                        break
                if not hit:
                    break
                start = g + 1
            out[x, y] = g
