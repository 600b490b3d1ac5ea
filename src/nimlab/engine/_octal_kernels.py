"""Compiled kernels of the rare-value octal engine (:mod:`nimlab.engine.octal_rare`).

Every kernel is a top-level ``njit(cache=True)`` function whose parameters are all
run-time arrays and integers, so numba keeps its machine code on disk and a fresh process
compiles nothing. The values array ``out`` is ``uint16`` while the values stay below
``2**16`` and ``int32`` after (the caller converts it); ``stamp[v] == h`` marks the value
``v`` as an option of the heap ``h``.

Classes of heaps (the sparse space of Winning Ways, ch. 4): under a mask ``m``, the parity
of a value is ``par[v] = popcount(v & m) & 1``. In the *range* form (``dom = 0``) a heap is
common when its value has odd parity; in the *domain* form (``dom = 1``, Flammenkamp's
"position" sparse space, allowed when every split takes a number of tokens of the parity
of ``tpar``) it is common when ``par[G(n)] ^ ((n + tpar) & 1)`` is 1. In both forms an
option of a split of ``h`` whose value has the parity ``pt(h)`` of a common value has
exactly one part in the rare class, so the loop over the rare heaps finds all of them.

Only the small helpers of a block's heap-by-heap loop (``_ctz``, ``_bit_single``,
``_bit_parts``, ``_missing_below``) are inlined by numba (``inline="always"``): the others
are called, so numba types them once instead of again in every kernel (LLVM still inlines
them): a fresh process compiles ``rare_fill`` in about 9.5 s of CPU instead of 11.4-12.9,
with the same run time (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["rare_fill"]


@njit(cache=True, nogil=True)
def _mark_single(
    ends: Any, ones: Any, out: Any, h: int, stamp: Any, tag: Any
) -> None:  # pragma: no cover - compiled
    """Options leaving no heap or one heap."""
    for i in range(ends.shape[0]):
        if ends[i] == h:
            stamp[0] = tag
    for i in range(ones.shape[0]):
        k = ones[i]
        if k < h:
            stamp[out[h - k]] = tag


@njit(cache=True, nogil=True)
def _mark_parts(
    splits: Any, uneq: Any, out: Any, h: int, parts: Any, lo: int, hi: int, stamp: Any, tag: Any
) -> None:  # pragma: no cover - compiled
    """Stamp (``stamp[v] = tag``) the values of the splits of *h* whose part is one of
    ``parts[lo:hi]`` (rows ``(heap, its value)``): a tight loop of loads and stores, no
    branch taken in the common case (the other part exists), so the CPU overlaps the
    iterations. The indices are unsigned (numba then leaves out its test for negative
    indices: a quarter of the time of this loop)."""
    one = np.uint64(1)
    for j in range(splits.shape[0]):
        r = h - splits[j]
        if r < 2:
            continue
        ur = np.uint64(r)
        if uneq[j]:
            for i in range(lo, hi):
                a = np.uint64(parts[i, 0])
                c = ur - a  # the other part; wraps around when a >= r
                if c - one < ur - one and c != a:
                    stamp[np.uint64(parts[i, 1]) ^ np.uint64(out[c])] = tag
        else:
            for i in range(lo, hi):
                c = ur - np.uint64(parts[i, 0])
                if c - one < ur - one:
                    stamp[np.uint64(parts[i, 1]) ^ np.uint64(out[c])] = tag


@njit(cache=True, nogil=True)
def _keep_missing(miss: Any, nm: int, stamp: Any, tag: Any) -> int:  # pragma: no cover
    """Drop from ``miss[:nm]`` (ascending) the values now stamped; the new count."""
    k = 0
    for i in range(nm):
        v = miss[i]
        if stamp[np.uint64(v)] != tag:
            miss[k] = v
            k += 1
    return k


@njit(cache=True, nogil=True)
def _from_parts(
    splits: Any, uneq: Any, out: Any, h: int, miss: Any, nm: int, orders: Any, stamp: Any, tag: Any
) -> Any:  # pragma: no cover - compiled
    """The first step of :func:`_witnesses`: the splits of *h* whose small part is one of
    *orders*, stamped a block at a time (about four splits per missing value), the list
    ``miss[:nm]`` filtered after each. Returns ``(values left, splits tried)``."""
    tried = 0
    k = 0
    no = orders.shape[0]
    while nm > 0 and k < no:
        e = min(no, k + max(32, 4 * nm))
        _mark_parts(splits, uneq, out, h, orders, k, e, stamp, tag)
        tried += e - k
        k = e
        nm = _keep_missing(miss, nm, stamp, tag)
    return nm, tried


@njit(cache=True, nogil=True)
def _witnesses(
    splits: Any, uneq: Any, out: Any, h: int, miss: Any, nm: Any, orders: Any, stamp: Any, tag: Any
) -> Any:  # pragma: no cover - compiled
    """Look for splits of *h* that give the values ``miss[:nm]`` (ascending), not options
    yet: the small parts *orders* first (rows ``(heap, value)``: heaps of the most frequent
    values, the values taken in turn), then every split in order of its smaller part. The
    splits are stamped a block at a time and the list of values still missing is then
    filtered (a block of about four splits per missing value: the filter costs little
    next to the splits). Returns ``(left, splits tried)``: ``left`` is 0 when every value
    was found, else the scan saw every split of *h* and ``miss[:left]`` have no witness."""
    nm, tried = _from_parts(splits, uneq, out, h, miss, nm, orders, stamp, tag)
    if nm == 0:
        return 0, tried
    smin = splits[0]
    for j in range(splits.shape[0]):
        smin = min(smin, splits[j])
    amax = (h - smin) // 2
    a = 1
    while nm > 0 and a <= amax:
        e = min(amax + 1, a + max(32, 4 * nm))
        for j in range(splits.shape[0]):
            r = h - splits[j]
            for b in range(a, e):
                c = r - b
                if c >= 1 and not (uneq[j] and c == b):
                    stamp[np.uint64(out[np.uint64(b)]) ^ np.uint64(out[np.uint64(c)])] = tag
        tried += e - a
        a = e
        nm = _keep_missing(miss, nm, stamp, tag)
    return nm, tried


#: Heaps whose splits with a large rare part are marked together (one read of each rare
#: heap's row and of one line of values serves four heaps: the loop takes about 0.6 of the
#: time of four separate ones).
GROUP = 4


@njit(cache=True, nogil=True)
def _mark_group(
    splits: Any, uneq: Any, out: Any, h: int, rare: Any, lo: int, hi: int, stamps: Any
) -> None:  # pragma: no cover - compiled
    """Mark, in ``stamps[j]`` with the tag ``h + j``, the splits of the heaps ``h + j``
    (``j < GROUP``) with a part in ``rare[lo:hi]`` (ascending), every such part at least
    ``GROUP`` tokens (so the other part is below *h*)."""
    for k in range(splits.shape[0]):
        r = h - splits[k]
        if uneq[k]:
            for j in range(GROUP):
                _mark_parts(
                    splits[k : k + 1], uneq[k : k + 1], out, h + j, rare, lo, hi, stamps[j], h + j
                )
            continue
        # rows whose part is below r: every heap of the group has its split
        safe = hi
        if hi > lo and rare[hi - 1, 0] >= r:  # the first row at r or above (bisection)
            a, b = lo, hi - 1
            while a < b:
                mid = (a + b) // 2
                if rare[mid, 0] < r:
                    a = mid + 1
                else:
                    b = mid
            safe = a
        ur = np.uint64(r)
        t0, t1, t2, t3 = h, h + 1, h + 2, h + 3
        for i in range(lo, safe):
            c = ur - np.uint64(rare[i, 0])
            x = np.uint64(rare[i, 1])
            stamps[0, x ^ np.uint64(out[c])] = t0
            stamps[1, x ^ np.uint64(out[c + np.uint64(1)])] = t1
            stamps[2, x ^ np.uint64(out[c + np.uint64(2)])] = t2
            stamps[3, x ^ np.uint64(out[c + np.uint64(3)])] = t3
        for j in range(GROUP):
            _mark_parts(
                splits[k : k + 1], uneq[k : k + 1], out, h + j, rare, safe, hi, stamps[j], h + j
            )


#: Heaps computed together by :func:`_block` (the bits of one ``uint64``).
BLOCK = 64
#: The block method starts this many heaps after the last rare heap (a rare heap found in
#: a block is added and the block goes on; Grundy's game 4!.0 to 2^16: 0.20 s against
#: 0.24 s with 1,024, 0.6 the same within noise).
BLOCK_AFTER = 128
#: Blocks are also used where fewer than one heap in this many is rare, even just after a
#: rare heap (0.6 to 2^15: 58 ms against 75 ms; Dawson's chess, a third of its heaps rare,
#: stays heap by heap: twice as fast as in blocks).
BLOCK_SPARSE = 8
#: Small parts of the witness lists whose splits are marked for a whole block.
BLOCK_PARTS = 1024
#: Blocks are used when there are at least this many rare heaps (with fewer, as in Kayles,
#: the heap-by-heap loop is faster: 0.26 s against 0.53 s for 0.77 to 2^20).
BLOCK_MIN_RARE = 64

_DEBRUIJN = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def _ctz(m: Any) -> Any:  # pragma: no cover - compiled
    """The index of the lowest set bit of the nonzero ``uint64`` *m*."""
    low = m & (~m + np.uint64(1))
    return _DEBRUIJN[(low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58)]


@njit(cache=True, nogil=True)
def _transpose64(a: Any) -> None:  # pragma: no cover - compiled
    """Transpose in place the 64 x 64 bit matrix ``a`` (``uint64[64]``): bit ``j`` of
    ``a[i]`` becomes bit ``i`` of ``a[j]``."""
    j = 32
    m = np.uint64(0x00000000FFFFFFFF)
    while j != 0:
        uj = np.uint64(j)
        k = 0
        while k < 64:
            t = ((a[k] >> uj) ^ a[k + j]) & m
            a[k] ^= t << uj
            a[k + j] ^= t
            k = (k + j + 1) & ~j
        j >>= 1
        m ^= m << np.uint64(j)


@njit(cache=True, nogil=True, inline="always")
def _bit_single(ends: Any, ones: Any, out: Any, h: int, hw: Any) -> None:  # pragma: no cover
    """:func:`_mark_single` into the bit set *hw* (bit ``v`` of the words: value ``v``)."""
    one = np.uint64(1)
    for i in range(ends.shape[0]):
        if ends[i] == h:
            hw[0] |= one
    for i in range(ones.shape[0]):
        k = ones[i]
        if k < h:
            v = np.uint64(out[h - k])
            hw[v >> np.uint64(6)] |= one << (v & np.uint64(63))


@njit(cache=True, nogil=True, inline="always")
def _bit_parts(
    splits: Any, uneq: Any, out: Any, h: int, parts: Any, lo: int, hi: int, hw: Any
) -> None:  # pragma: no cover - compiled
    """:func:`_mark_parts` into the bit set *hw*."""
    one = np.uint64(1)
    six = np.uint64(6)
    low = np.uint64(63)
    for j in range(splits.shape[0]):
        r = h - splits[j]
        if r < 2:
            continue
        ur = np.uint64(r)
        for i in range(lo, hi):
            a = np.uint64(parts[i, 0])
            c = ur - a
            if c - one < ur - one and not (uneq[j] and c == a):
                v = np.uint64(parts[i, 1]) ^ np.uint64(out[c])
                hw[v >> six] |= one << (v & low)


@njit(cache=True, nogil=True)
def _by_value(rare: Any, nr: int, orders: Any, nparts: int) -> Any:  # pragma: no cover
    """Rows ``(heap, value, 1 for a witness part)`` of the rare heaps ``rare[:nr]`` and
    the first *nparts* witness parts, those of at least ``BLOCK`` tokens, ordered by value,
    then by heap from the largest (:func:`_block_rows`)."""
    k = min(nparts, orders.shape[0])
    rows = np.empty((nr + k, 3), np.int64)
    m = 0
    for i in range(nr + k):
        row = rare[i] if i < nr else orders[i - nr]
        if row[0] >= BLOCK:
            rows[m, 0], rows[m, 1], rows[m, 2] = row[0], row[1], int(i >= nr)
            m += 1
    key = np.empty(m, np.int64)
    for i in range(m):
        key[i] = rows[i, 1] * (np.int64(1) << 32) - rows[i, 0]
    return rows[:m][_argsort(key)]


@njit(cache=True, nogil=True)
def _argsort(key: Any) -> Any:  # pragma: no cover - compiled
    """The indices of *key* in increasing order of their key (a heap sort: numba compiles
    ``np.argsort``'s quicksort in about 1.3 s, this in a tenth of it)."""
    n = key.shape[0]
    idx = np.arange(n)
    for start in range(n // 2 - 1, -1, -1):
        _sift(key, idx, start, n)
    for end in range(n - 1, 0, -1):
        idx[0], idx[end] = idx[end], idx[0]
        _sift(key, idx, 0, end)
    return idx


@njit(cache=True, nogil=True)
def _sift(key: Any, idx: Any, i: Any, n: Any) -> None:  # pragma: no cover - compiled
    """Move ``idx[i]`` down the max-heap ``idx[:n]`` (by *key*) to its place."""
    while True:
        c = 2 * i + 1
        if c >= n:
            return
        if c + 1 < n and key[idx[c + 1]] > key[idx[c]]:
            c += 1
        if key[idx[c]] <= key[idx[i]]:
            return
        idx[i], idx[c] = idx[c], idx[i]
        i = c


@njit(cache=True, nogil=True)
def _block_rows(
    splits: Any, out: Any, h0: int, rows: Any, bits: Any, plim: int
) -> int:  # pragma: no cover - compiled
    """Set bit ``j`` of ``bits[v]`` for the value ``v`` of every split of the heap
    ``h0 + j`` (``j < BLOCK``) with a part in *rows* (:func:`_by_value`) of at most *plim*
    tokens: below ``h0 - s`` (``s`` every take of the splits), or below half of it with
    unequal splits (the other part is then larger, never equal; the other rows are
    skipped): the other
    part is below ``h0``, known (a split with two such parts is marked twice, which
    changes nothing). The rows of one value go together: the splits
    of the block with the parts ``p`` of the value ``x`` read the values
    ``out[h0 - s - p + j]``, ``j < BLOCK``, windows that overlap when two such parts are
    less than ``BLOCK`` apart. Each value of the union of the windows is read once and its
    bits set at once (``mk``: bit ``j`` for each part whose window holds it, shifted by one
    from a value to the next): about a third fewer stores for 0.6. Returns the witness
    parts used."""
    used = 0
    one = np.uint64(1)
    n = rows.shape[0]
    for k in range(splits.shape[0]):
        base = h0 - splits[k]
        q = 0
        while q < n:
            x = rows[q, 1]
            ux = np.uint64(x)
            i = 0
            mk = np.uint64(0)
            while q < n and rows[q, 1] == x:
                p = rows[q, 0]
                if p <= plim:  # the other part is a heap below h0
                    if k == 0:
                        used += rows[q, 2]
                    c = base - p  # ascending in the value's rows
                    if mk != 0:  # the values up to this window (or 64 after the last)
                        for t in range(i, min(c, i + BLOCK)):
                            bits[ux ^ np.uint64(out[np.uint64(t)])] |= mk
                            mk <<= one
                    i = c
                    mk |= one
                q += 1
            if mk != 0:
                for t in range(i, i + BLOCK):
                    bits[ux ^ np.uint64(out[np.uint64(t)])] |= mk
                    mk <<= one
    return used


@njit(cache=True, nogil=True)
def _scan8(out: Any, ur: Any, a0: Any, a1: Any, vals: Any) -> Any:  # pragma: no cover
    """Which of the eight values *vals* (of the type of *out*) the splits
    ``(a, ur - a)``, ``a0 <= a < a1``, give: a bit a value. No branch and no store in the
    loop: numba's LLVM reads both ends of the heap with vector loads and compares in the
    values' own width (under 0.1 ns a split)."""
    v0, v1, v2, v3 = vals[0], vals[1], vals[2], vals[3]
    v4, v5, v6, v7 = vals[4], vals[5], vals[6], vals[7]
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = False
    for a in range(a0, a1):
        u = out[a] ^ out[ur - a]
        f0 |= u == v0
        f1 |= u == v1
        f2 |= u == v2
        f3 |= u == v3
        f4 |= u == v4
        f5 |= u == v5
        f6 |= u == v6
        f7 |= u == v7
    low = int(f0) | (int(f1) << 1) | (int(f2) << 2) | (int(f3) << 3)
    return low | (int(f4) << 4) | (int(f5) << 5) | (int(f6) << 6) | (int(f7) << 7)


@njit(cache=True, nogil=True)
def _scan2(out: Any, ur: Any, a0: Any, a1: Any, v0: Any, v1: Any) -> Any:  # pragma: no cover
    """:func:`_scan8` for two values (bits 0 and 1; *v1* may be one of the type's
    impossible values): a quarter of its compares."""
    f0 = f1 = False
    for a in range(a0, a1):
        u = out[a] ^ out[ur - a]
        f0 |= u == v0
        f1 |= u == v1
    return int(f0) | (int(f1) << 1)


@njit(cache=True, nogil=True)
def _scan4(out: Any, ur: Any, a0: Any, a1: Any, vals: Any) -> Any:  # pragma: no cover
    """:func:`_scan8` for the first four values of *vals*."""
    v0, v1, v2, v3 = vals[0], vals[1], vals[2], vals[3]
    f0 = f1 = f2 = f3 = False
    for a in range(a0, a1):
        u = out[a] ^ out[ur - a]
        f0 |= u == v0
        f1 |= u == v1
        f2 |= u == v2
        f3 |= u == v3
    return int(f0) | (int(f1) << 1) | (int(f2) << 2) | (int(f3) << 3)


@njit(cache=True, nogil=True)
def _scan(out: Any, ur: Any, a0: Any, a1: Any, vals: Any, want: int) -> Any:  # pragma: no cover
    """The values of *vals* still wanted (bits of *want*; the others hold an impossible
    value) that the splits ``(a, ur - a)``, ``a0 <= a < a1``, give, compared as few at a
    time as the highest wanted bit allows: most heaps of 0.6 miss one value after the
    marks of a block, and comparing it alone costs an eighth of :func:`_scan8`'s compares
    (0.6's block kernel 0.95 µs a heap against 1.04)."""
    if want < 4:
        return _scan2(out, ur, a0, a1, vals[0], vals[1])
    if want < 16:
        return _scan4(out, ur, a0, a1, vals)
    return _scan8(out, ur, a0, a1, vals)


#: Splits compared by :func:`_cover` before the values found are dropped (the first
#: time; twice as many each time after).
COVER_CHUNK = 256


@njit(cache=True, nogil=True)
def _cover(
    splits: Any, uneq: Any, out: Any, h: int, miss: Any, nm: Any, vals: Any
) -> Any:  # pragma: no cover - compiled
    """Look for a split of *h* of each value ``miss[:nm]`` (ascending) among every split,
    in order of its smaller part, up to eight values at a time (:func:`_scan`), so a value not
    found has no witness at all (*vals*: eight values of work space, of the type of
    *out*). Returns
    ``(left, splits compared)``: ``miss[:left]`` (ascending) are the values without a
    witness. The callers pass *nm* as ``np.int64``: a count that starts at the constant 0
    is first typed ``Literal[int](0)``, and numba would compile this function twice."""
    left = 0
    tried = 0
    none = ~(out[0] ^ out[0])  # all ones: no value (values stay below half the type)
    for q in range(0, nm, 8):
        want = 0
        for t in range(8):
            if q + t < nm:
                vals[t] = miss[q + t]
                want |= 1 << t
            else:
                vals[t] = none
        top = 0  # the largest smaller part of any split
        for j in range(splits.shape[0]):
            top = max(top, (h - splits[j]) // 2)
        a = 1
        step = COVER_CHUNK
        while want != 0 and a <= top:  # the takes side by side, a chunk of parts at a time
            e = min(top + 1, a + step)
            got = 0
            for j in range(splits.shape[0]):
                r = h - splits[j]
                tj = r // 2
                if uneq[j] and 2 * tj == r:
                    tj -= 1
                ej = min(e, tj + 1)
                if a < ej:
                    got |= _scan(out, np.uint64(r), np.uint64(a), np.uint64(ej), vals, want)
                    tried += ej - a
            for t in range(8):
                if got & want & (1 << t):
                    want &= ~(1 << t)
                    vals[t] = none
            a = e
            step *= 2
        for t in range(8):
            if want & (1 << t):
                miss[left] = miss[q + t]
                left += 1
    return left, tried


@njit(cache=True, nogil=True)
def _block_marks(
    splits: Any,
    uneq: Any,
    out: Any,
    h0: int,
    rare: Any,
    nr: int,
    rows: Any,
    bits: Any,
    hws: Any,
) -> Any:  # pragma: no cover - compiled
    """The first step of :func:`_block`: mark the splits of the block ``h0 .. h0 + BLOCK
    - 1`` whose part is a rare heap ``rare[lo:hi]`` (ascending: ``BLOCK <= r`` and ``r +
    max(splits) < h0``, ``2r`` with unequal splits) or one of the first witness parts
    (*rows*: :func:`_by_value`), in
    the bit table *bits*, then transpose it into *hws* (row ``j``: the bit set of the heap
    ``h0 + j``).
    Returns ``(lo, hi, splits marked)``."""
    smax = 0
    for k in range(splits.shape[0]):
        smax = max(smax, splits[k])
    lo = 0
    while lo < nr and rare[lo, 0] < BLOCK:
        lo += 1
    hi = lo
    two = 1  # equal splits only: a rare part larger than the other is marked here too
    for k in range(uneq.shape[0]):
        two = 2 if uneq[k] else two  # with unequal splits, only the smaller part
    plim = (h0 - smax - 1) // two  # the largest part marked for the block
    top = nr  # the first rare heap above plim (bisection: a scan of 1,583 rows a block
    while hi < top:  # of 0.6 cost about 1 % of its run)
        mid = (hi + top) // 2
        if rare[mid, 0] <= plim:
            hi = mid + 1
        else:
            top = mid
    bits[:] = 0
    used = _block_rows(splits, out, h0, rows, bits, plim)
    for c in range(bits.shape[0] // 128):  # the values below half the tables
        col = bits[c * BLOCK : (c + 1) * BLOCK]
        _transpose64(col)
        for i in range(BLOCK):
            hws[i, c] = col[i]
    return lo, hi, used


@njit(cache=True, nogil=True, inline="always")
def _missing_below(hw: Any, cm: Any, w: int, miss: Any) -> int:  # pragma: no cover
    """Write into *miss* the values below *w* not set in the bit set *hw* and not of the
    common parity (bits of *cm*), ascending; return how many."""
    nm = 0
    for c in range(w // 64 + 1):
        m = ~hw[c] & ~cm[c]
        if c == w // 64:
            m &= (np.uint64(1) << np.uint64(w & 63)) - np.uint64(1)
        while m != 0:
            miss[nm] = c * 64 + _ctz(m)
            nm += 1
            m &= m - np.uint64(1)
    return nm


@njit(cache=True, nogil=True)
def _block(
    rules: Any,
    out: Any,
    h0: int,
    cmask: Any,
    dom: int,
    tpar: int,
    rare: Any,
    nr: int,
    rows: Any,
    bits: Any,
    hws: Any,
    stamp: Any,
    miss: Any,
    vals: Any,
    state: Any,
) -> Any:  # pragma: no cover - compiled
    """Compute the heaps ``h0 .. h0 + BLOCK - 1`` (exactly), a block at a time.

    First, for the whole block, the splits whose part is a rare heap or one of the first
    witness parts (*rows*: :func:`_by_value`), of at least ``BLOCK`` tokens and less than half the heap (the
    other part is then below ``h0``, known): bit ``j`` of ``bits[v]`` says that the heap
    ``h0 + j`` has an option of value ``v`` (:func:`_block_rows`); the bit matrix is
    then transposed, a row of words per heap. Then each heap in turn: its one-heap options
    and the splits with the other rare heaps; the smallest value of the common parity not
    an option is ``w``; the values of the rare parity below ``w`` not options yet are
    looked for among every split, in order of the smaller part, eight values at a time
    (:func:`_cover`): a value without any witness is the heap's value (the heap is rare).
    A rare heap found is added to *rare* and the block goes on: the first step read only
    values below ``h0``, and the heaps after it take its splits with the rare heaps of
    ``rare[hi:]`` (``2r + max(splits) >= h0``) one by one. Returns ``(first heap not
    done, rare heaps added, status)``: status 0, or 1 when the common value of that heap
    reached ``len(bits) // 2`` (the caller enlarges the tables) or the rare list is full.
    """
    ends, ones, splits, uneq = rules
    half = bits.shape[0] // 2
    nw = half // 64  # words of a heap's bit set (the values below half)
    lo, hi, used = _block_marks(splits, uneq, out, h0, rare, nr, rows, bits, hws)
    nr0 = nr
    for j in range(BLOCK):
        h = h0 + j
        hw = hws[j]
        _bit_single(ends, ones, out, h, hw)
        _bit_parts(splits, uneq, out, h, rare, 0, lo, hw)
        _bit_parts(splits, uneq, out, h, rare, hi, nr, hw)
        flip = dom & ((h + tpar) & 1)
        cm = cmask[flip]  # bit v: v has the common parity of the heap h
        w = -1
        for c in range(nw):
            free = ~hw[c] & cm[c]
            if free != 0:
                w = c * 64 + _ctz(free)
                break
        if w < 0 or w >= half or nr + 1 >= rare.shape[0]:
            return h, nr - nr0, 1
        nm = _missing_below(hw, cm, w, miss)
        g = w
        state[1] += used
        if nm > 0:  # the rest among every split (exact)
            left, tried = _cover(splits, uneq, out, h, miss, np.int64(nm), vals)
            state[1] += tried
            if left > 0:
                g = miss[0]
        out[h] = g
        if cmask[flip][g // 64] & (np.uint64(1) << np.uint64(g & 63)) == 0:
            rare[nr, 0] = h
            rare[nr, 1] = g
            nr += 1
    return h0 + BLOCK, nr - nr0, 0


@njit(cache=True, nogil=True)
def rare_fill(
    rules: Any,
    out: Any,
    start: int,
    cls: Any,
    rare: Any,
    orders: Any,
    state: Any,
    stamps: Any,
    miss: Any,
    blocks: Any,
) -> Any:  # pragma: no cover - compiled
    """Fill ``out[start:]`` exactly by the rare-value method.

    *rules* is ``(ends, ones, splits, uneq)``; *cls* is ``(par, dom, tpar)``: the parity
    table of the mask (length ``stamps.shape[1]``, a power of two, so a XOR of two values
    stays below it), the domain flag and the parity of the takes of the splits.
    ``rare[:state[0]]`` lists the rare heaps (rows ``(heap, value)``, ascending);
    ``state[1]`` adds the splits tried in witness searches; *stamps* (``GROUP`` rows) and
    *miss* (``stamps.shape[1]`` int32) are work space. The heaps go by groups of
    ``GROUP``: the splits with a rare part of ``GROUP`` tokens or more first, for the
    whole group (:func:`_mark_group`), then each heap in turn (its other options, the rare
    heaps found in the group, the witnesses). Far enough from the last rare heap, the
    heaps go by blocks of ``BLOCK`` (:func:`_block`); *blocks* is
    ``(bits, rows, nparts, after, min_rare)``: work space (``uint64`` arrays of
    ``stamps.shape[1]`` and ``(BLOCK, stamps.shape[1] // 64)``), the number of witness parts
    marked for a whole block (0: no blocks), the distance to the last rare heap from which
    blocks are used (:data:`BLOCK_AFTER`) and the fewest rare heaps for blocks
    (:data:`BLOCK_MIN_RARE`). Returns the first heap not done: the caller enlarges the tables
    (a value reached ``stamps.shape[1] // 2``) or the rare list (full), then calls again.
    """
    par, dom, tpar = cls
    n = out.shape[0]
    nr = state[0]
    big = 0  # rare[big:]: the rare heaps of GROUP tokens or more
    while big < nr and rare[big, 0] < GROUP:
        big += 1
    bits, hws, nparts, after, min_rare = blocks
    cmask = np.zeros((2, hws.shape[1]), np.uint64)  # bit v of row f: par[v] == 1 ^ f
    for v in range(min(par.shape[0], 64 * hws.shape[1])):
        cmask[1 - par[v], v // 64] |= np.uint64(1) << np.uint64(v % 64)
    vals = np.empty(8, out.dtype)  # work space of _cover
    rows = _by_value(rare, nr, orders, nparts)  # the rows marked for a whole block
    built = nr
    h0 = start
    while h0 < n:
        if nr + GROUP >= rare.shape[0]:
            state[0] = nr
            return h0
        last = rare[nr - 1, 0] if nr > 0 else 0
        sparse = h0 - last >= after or BLOCK_SPARSE * nr < h0  # few rare heaps, or none lately
        if nparts > 0 and nr >= min_rare and h0 + BLOCK <= n and sparse:
            if built != nr:
                rows = _by_value(rare, nr, orders, nparts)
                built = nr
            got, found, status = _block(
                rules, out, h0, cmask, dom, tpar, rare, nr, rows, bits, hws,
                stamps[0], miss, vals, state,
            )  # fmt: skip
            nr += found  # the rare heaps found in the block (in rare[nr:])
            if status == 1:  # a value reached half the tables, or the rare list is full
                state[0] = nr
                return got
            h0 = got
            continue
        nr, stop = _group(rules, cls, out, h0, rare, big, nr, orders, state, stamps, miss, vals)
        if stop >= 0:  # a value reached half the tables
            state[0] = nr
            return stop
        h0 += GROUP
    state[0] = nr
    return n


@njit(cache=True, nogil=True)
def _group(
    rules: Any,
    cls: Any,
    out: Any,
    h0: int,
    rare: Any,
    big: int,
    nr: int,
    orders: Any,
    state: Any,
    stamps: Any,
    miss: Any,
    vals: Any,
) -> Any:  # pragma: no cover - compiled
    """The heaps ``h0 .. h0 + GROUP - 1`` (below ``len(out)``) of :func:`rare_fill`, heap
    by heap: the splits with the rare heaps ``rare[big:nr]`` for the whole group, then each
    heap's other options, the rare heaps found in the group and the witnesses. Returns
    ``(nr, stop)``: the rare heaps now listed, and ``-1`` or the heap whose common value
    reached half the tables."""
    ends, ones, splits, uneq = rules
    par, dom, tpar = cls
    n = out.shape[0]
    uhalf = np.uint64(stamps.shape[1] // 2)
    nr0 = nr
    if h0 + GROUP <= n:
        _mark_group(splits, uneq, out, h0, rare, big, nr0, stamps)
    else:
        for j in range(n - h0):
            _mark_parts(splits, uneq, out, h0 + j, rare, big, nr0, stamps[j], h0 + j)
    for h in range(h0, min(n, h0 + GROUP)):
        stamp = stamps[h - h0]
        _mark_single(ends, ones, out, h, stamp, h)
        _mark_parts(splits, uneq, out, h, rare, 0, big, stamp, h)
        _mark_parts(splits, uneq, out, h, rare, nr0, nr, stamp, h)  # found in the group
        flip = dom & ((h + tpar) & 1)
        pt = 1 ^ flip
        # one pass: the values not options yet, up to the first of the common parity (w)
        w = np.uint64(0)
        nm = 0
        while w < uhalf:
            if stamp[w] != h:
                if par[w] == pt:
                    break
                miss[nm] = w
                nm += 1
            w += np.uint64(1)
        if w >= uhalf:
            return nr, h
        g = np.int64(w)
        if nm > 0:
            left, tried = _from_parts(splits, uneq, out, h, miss, nm, orders, stamp, h)
            if left > 0:  # the rest among every split, eight values at a time (exact)
                left, more = _cover(splits, uneq, out, h, miss, np.int64(left), vals)
                tried += more
            state[1] += tried
            if left > 0:
                g = miss[0]
        out[h] = g
        if par[g] ^ flip == 0:
            rare[nr, 0] = h
            rare[nr, 1] = g
            nr += 1
    return nr, -1
