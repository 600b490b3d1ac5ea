"""The compiled walks of the local check over heap spaces (numba): how a box, sorted
multisets, sets and multisets of bounded total are enumerated, and the kernels that walk
one chunk applying the mex rule or the P/N rules (and the retrograde marks of a P-set
claim), one set of kernels per walk. :mod:`nimlab.verification.compiled` runs them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem

__all__ = ["KIND_CODES"]

_setitem: Any = tuple_setitem
KIND_CODES = {"grundy": 0, "p-set": 1, "misere-p-set": 2}


@njit(cache=True, nogil=True)
def _sorted(q: Any) -> Any:  # pragma: no cover - compiled
    n = len(q)
    for i in range(1, n):
        j = i
        while j > 0 and q[j - 1] > q[j]:
            a = q[j - 1]
            b = q[j]
            q = _setitem(q, j - 1, b)
            q = _setitem(q, j, a)
            j -= 1
    return q


@njit(cache=True, nogil=True)
def _next_sorted(h: Any, low: int) -> Any:  # pragma: no cover - compiled
    m = len(h) - 1
    top = h[m]
    i = m - 1
    while i >= 0:
        if h[i] < top:
            v = h[i] + 1
            for j in range(i, m):
                h = _setitem(h, j, v)
            return h
        i -= 1
    for j in range(m):
        h = _setitem(h, j, low)
    return _setitem(h, m, top + 1)


@njit(cache=True, nogil=True)
def _next_box(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
    i = len(h) - 1
    while i >= 0:
        if h[i] + 1 < bound:
            return _setitem(h, i, h[i] + 1)
        h = _setitem(h, i, low)
        i -= 1
    return h


@njit(cache=True, nogil=True)
def _next_distinct(h: Any, low: int) -> Any:  # pragma: no cover - compiled
    m = len(h) - 1
    top = h[m]
    i = m - 1
    while i >= 0:
        v = h[i] + 1
        if v + (m - 1 - i) < top:
            for j in range(i, m):
                h = _setitem(h, j, v + (j - i))
            return h
        i -= 1
    for j in range(m):
        h = _setitem(h, j, low + j)
    return _setitem(h, m, max(top + 1, low + m))


@njit(cache=True, nogil=True)
def _next_total(h: Any, bound: int) -> Any:  # pragma: no cover - compiled
    n = len(h)
    s = 0
    for i in range(n):
        s += h[i]
    if s + 1 < bound:
        return _setitem(h, n - 1, h[n - 1] + 1)
    pre = s - h[n - 1]
    i = n - 2
    while i >= 0:
        pre -= h[i]
        v = h[i] + 1
        if pre + v * (n - i) < bound:
            for j in range(i, n):
                h = _setitem(h, j, v)
            return h
        i -= 1
    return h


# -- the local rules at one position, shared with the index walks (indexed.py) -----------


@njit(cache=True, nogil=True)
def _mex_holds(seen: Any, f: Any, stamp: int) -> bool:  # pragma: no cover - compiled
    """Whether every value below *f* was seen among the options (the rest of the rule)."""
    for v in range(f):  # noqa: SIM110 - numba compiles no generator expression here
        if seen[v] != stamp:
            return False
    return True


@njit(cache=True, nogil=True)
def _pn_holds(f: Any, terminal: bool, found: bool, misere: bool) -> Any:  # pragma: no cover
    """The P/N rule at a position claimed P (*f* nonzero) or N, once its options are
    scanned (none at all: *terminal*; a claimed P-position among them: *found*): a
    terminal position is N in misère play; otherwise an N-position has a P option (a P
    option of a claimed P-position stops the scan as a failure before this)."""
    if misere and terminal:
        return f == 0
    return f != 0 or found


#: The compiled walks: a box, multisets (max < bound), sets (strictly increasing), and
#: multisets with total < bound.
BOX, SORTED, DISTINCT, TOTAL = 0, 1, 2, 3


def _mode(sp: Any) -> int:
    """The walk of space *sp* (its ``walk``: how the space says it is enumerated)."""
    return _HEAP_WALKS.get(getattr(sp, "walk", None), BOX)


#: The heap spaces the compiled walks enumerate, by their ``walk``.
_HEAP_WALKS: dict[Any, int] = {"box": BOX, "sorted box": SORTED, "distinct box": DISTINCT}
_HEAP_WALKS["sorted total"] = TOTAL


def _sorted_box(sp: Any) -> bool:
    return getattr(sp, "walk", None) == "sorted box"


# The walk's steps, compiled once per heap count and machine (``cache=True``) and called
# by every walk, which compiles only its own loop, the move model and the claim (LLVM
# still inlines them into the walk's machine code, from the bitcode numba keeps beside
# them). ``_advance`` and ``_canon`` only choose the step of the walk's *mode* (a
# constant of its code: the other branches are dropped before typing).


@njit(inline="always")
def _advance(h: Any, low: int, bound: int, mode: int) -> Any:  # pragma: no cover - compiled
    """The position after *h* in the walk *mode*."""
    if mode == SORTED:
        return _next_sorted(h, low)
    if mode == DISTINCT:
        return _next_distinct(h, low)
    if mode == TOTAL:
        return _next_total(h, bound)
    return _next_box(h, low, bound)


@njit(inline="always")
def _canon(q: Any, mode: int) -> Any:  # pragma: no cover - compiled
    """*q* as the walk *mode* enumerates it (sorted but in a box)."""
    if mode != BOX:
        return _sorted(q)
    return q


@njit(cache=True, nogil=True)
def _rank(h: Any, ridx: Any, mode: int) -> Any:  # pragma: no cover - compiled
    """Index of canonical *h* in the space's mark array (multiset rank, or box cell)."""
    n = len(h)
    r = 0
    if mode == SORTED:
        low = ridx[n, 0]
        for i in range(n):
            r += ridx[i, h[i] - low + i]
    else:
        low = ridx[0, 0]
        for i in range(n):
            r += (h[i] - low) * ridx[0, i + 1]
    return r


@njit(cache=True, nogil=True)
def _inside(p: Any, low: int, bound: int, mode: int) -> bool:  # pragma: no cover - compiled
    """Whether canonical *p* is in the space of the walk *mode*."""
    ok = True
    total = 0
    for i in range(len(p)):
        if p[i] < low or p[i] >= bound:
            ok = False
        if mode == DISTINCT and i > 0 and p[i - 1] == p[i]:
            ok = False
        total += p[i]
    if mode == TOTAL and total >= bound:
        ok = False
    return ok


def _grundy_kernel(mode: int) -> Any:
    """The mex-rule kernel of one walk (*mode*, a constant of its code)."""

    @njit(nogil=True)
    def grundy(
        gen: Any, claim: Any, table: Any, radix: Any, h: Any, count: int, low: int, bound: int
    ) -> Any:  # pragma: no cover - compiled
        seen = np.zeros(64, dtype=np.int64)
        stamp = 0
        for k in range(count):
            f = np.int64(claim(h, table, radix))
            if f < 0:
                return 3, k
            if f + 1 > seen.shape[0]:
                seen = np.zeros(2 * (f + 1), dtype=np.int64)
                stamp = 0
            stamp += 1
            for q in gen(h):
                c = _canon(q, mode)
                if not _inside(c, low, bound, mode):
                    return 2, k
                g = np.int64(claim(c, table, radix))
                if g == f:
                    return 1, k
                if 0 <= g < f:
                    seen[g] = stamp
            if not _mex_holds(seen, f, stamp):
                return 1, k
            h = _advance(h, low, bound, mode)
        return 0, count

    return grundy


def _pset_kernel(mode: int) -> Any:
    """The P/N-rule kernel of one walk (*mode*), reading the retrograde marks."""

    @njit(nogil=True)
    def pset(
        gen: Any,
        claim: Any,
        table: Any,
        radix: Any,
        h: Any,
        count: int,
        low: int,
        bound: int,
        misere: bool,
        marks: Any,
        ridx: Any,
        use_marks: bool,
    ) -> Any:  # pragma: no cover - compiled
        for k in range(count):
            f = claim(h, table, radix)
            if f == 0 and use_marks and marks[_rank(h, ridx, mode)] != 0:
                # a claimed N-position that a claimed P-position's predecessors reached:
                # it has a claimed P option, the rule holds without scanning its options
                h = _advance(h, low, bound, mode)
                continue
            terminal = True
            found = False
            for q in gen(h):
                terminal = False
                c = _canon(q, mode)
                if not _inside(c, low, bound, mode):
                    return 2, k
                if claim(c, table, radix) != 0:
                    found = True
                    if f == 0:
                        break
                    return 1, k
            if not _pn_holds(f, terminal, found, misere):
                return 1, k
            h = _advance(h, low, bound, mode)
        return 0, count

    return pset


def _mark_kernels(mode: int) -> tuple[Any, Any]:
    """The retrograde marking kernel of one walk (*mode*) and its self-check."""

    @njit
    def marker(
        pred: Any,
        claim: Any,
        table: Any,
        radix: Any,
        h: Any,
        count: int,
        low: int,
        bound: int,
        ridx: Any,
        marks: Any,
    ) -> Any:  # pragma: no cover - compiled
        """Mark every predecessor (in the space) of the claimed P-positions among *count*
        positions from *h*; returns how many claimed P-positions there were."""
        n_p = 0
        for _k in range(count):
            if claim(h, table, radix) != 0:
                n_p += 1
                for p in pred(h, low, bound):
                    c = _canon(p, mode)
                    if _inside(c, low, bound, mode):
                        marks[_rank(c, ridx, mode)] = 1
            h = _advance(h, low, bound, mode)
        return n_p

    @njit
    def pred_check(
        gen: Any, pred: Any, h: Any, count: int, low: int, bound: int
    ) -> Any:  # pragma: no cover - compiled
        """``(0, count)`` when every predecessor the hook yields (in the space) of the
        *count* positions from *h* has that position as an option; else ``(1, index)``."""
        for k in range(count):
            for p in pred(h, low, bound):
                if not _inside(_canon(p, mode), low, bound, mode):
                    continue
                found = False
                for q in gen(p):
                    if _canon(q, mode) == h:
                        found = True
                        break
                if not found:
                    return 1, k
            h = _advance(h, low, bound, mode)
        return 0, count

    return marker, pred_check


def _make_kernels(mode: int) -> tuple[Any, Any, Any, Any]:
    """The mex-rule and P/N-rule kernels for a sorted space or a box, and the retrograde
    marking kernel and its self-check, for one walk (*mode*)."""
    return (
        _grundy_kernel(mode),
        _pset_kernel(mode),
        *_mark_kernels(mode),
    )


_KERNELS = {m: _make_kernels(m) for m in (BOX, SORTED, DISTINCT, TOTAL)}

_NO_MARKS = np.zeros(1, dtype=np.uint8)
_NO_RIDX = np.zeros((1, 1), dtype=np.int64)


def _kernel(
    gen: Any,
    claim: Any,
    table: Any,
    radix: Any,
    h: Any,
    count: int,
    mode: int,
    low: int,
    bound: int,
    kind: int,
    marks: Any = None,
) -> Any:
    """``(status, index)``: 0 all hold, 1 the rule fails at position *index*, 2 an option
    leaves the space, 3 a claimed value is not an integer >= 0. Grundy claims and P-set
    claims have kernels of their own (each compiled only when used: less to compile).
    *marks*: ``(marks, ridx)`` of :func:`_marks` for a P-set claim, or None."""
    use = marks is not None
    m, ridx = marks if marks is not None else (_NO_MARKS, _NO_RIDX)
    named = (("gen", gen), ("claim", claim))
    if kind == 0:
        return _run_kernel(0, mode, named, table, radix, h, count, low, bound)
    return _run_kernel(1, mode, named, table, radix, h, count, low, bound, kind == 2, m, ridx, use)


def _run_kernel(which: int, mode: int, named: tuple[tuple[str, Any], ...], *args: Any) -> Any:
    """Run kernel *which* of :func:`_make_kernels` for *mode* on *args*, with the compiled
    functions *named* (its first parameters, by name) bound.

    The kernel, its helpers and the functions are written into one module of the disk
    cache (:func:`nimlab.engine._diskcache.cached_module`), so numba keeps the machine
    code and every later process (workers too) loads it; when they cannot be written as
    source (a claim of a user's own module, say) or the cache cannot be used, the kernel
    compiled in memory runs, as before."""
    from nimlab.verification._walkcache import call_walk

    return call_walk((which, mode), _KERNELS[mode][which], named, *args)


def _starts(sp: Any, i: int) -> tuple[tuple[int, ...], int]:
    if _mode(sp) != BOX:
        start: tuple[tuple[int, ...], int] = sp.start(i)
        return start
    a0, a1 = sp.row_range(i)
    return (a0,) + (sp.low,) * (sp.n_heaps - 1), (a1 - a0) * (sp.bound - sp.low) ** (sp.n_heaps - 1)


def _nth(sp: Any, i: int, k: int) -> tuple[int, ...]:
    import itertools

    return next(itertools.islice(sp.chunk(i), k, None))
