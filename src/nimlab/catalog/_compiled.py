"""Compiled move models of the catalog's heap games (the ``compiled_options`` hook).

Nested ``for ... in range`` loops make slow numba generators (about 30 ns per option
against 5-8 ns for ``while`` loops, measured on single-delete), so the hot ones use
``while``.

Each factory returns a numba generator ``gen(h)`` over a tuple of ``int64`` heaps that
yields the options of ``h`` as tuples of the same length (see
:meth:`nimlab.core.ruleset.HeapRuleset.compiled_options` for the contract). This module
imports numba at the top: the catalog imports it only inside the hook methods, so
``import nimlab.catalog`` stays free of numba.

:func:`register_replace` teaches numba :func:`nimlab.core.ruleset.replace` (a tuple with
one heap set to a new size), so that users' move functions written with it compile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import overload

from nimlab.core.ruleset import replace

__all__ = ["compiled", "register_replace"]

_CACHE: dict[Hashable, Any] = {}
_REPLACE_DONE = False

setitem: Any = tuple_setitem


def register_replace() -> None:
    """Make :func:`nimlab.core.ruleset.replace` callable from numba-compiled code."""
    global _REPLACE_DONE
    if _REPLACE_DONE:
        return
    _REPLACE_DONE = True

    @overload(replace, inline="always")
    def _replace_impl(h: Any, i: Any, v: Any) -> Any:
        if isinstance(h, types.UniTuple):

            def impl(h: Any, i: Any, v: Any) -> Any:  # pragma: no cover - compiled
                return setitem(h, i, v)

            return impl
        return None


def compiled(key: Hashable, factory: Callable[[], Any]) -> Any:
    """The generator built by *factory*, built once per *key* (a family and parameters)."""
    gen = _CACHE.get(key)
    if gen is None:
        gen = _CACHE[key] = factory()
    return gen


# -- one heap changes ----------------------------------------------------------------


# -- several heaps change ------------------------------------------------------------


def ryuo(p: int, q: int | None) -> Any:
    """Ryuo Nim(p) (``q`` None: one-heap moves take any amount) and restricted Ryuo."""
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


# -- delete games --------------------------------------------------------------------


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


# -- RGAMES: one-heap games per heap and a game on the sum ------------------------------


def rgames(
    lines: tuple[tuple[bool, int, tuple[int, ...]], ...], line0: tuple[bool, int, tuple[int, ...]]
) -> Any:
    """RGAMES(G0; G1, ..., Gm): heap ``i`` loses ``t`` stones when ``Gi`` allows ``t``; or
    ``G0`` takes ``t`` from the sum of all heaps, split between them in every way.

    Each one-heap game is given as its line ``(cofinite, lag, amounts)``: it allows the
    listed *amounts*, and when *cofinite* every ``t > lag``.
    """
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
    cof0 = bool(line0[0])
    lag0 = int(line0[1])
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


# -- index models (positions that are not tuples of heaps) ------------------------------
#
# Module-level functions over a tuple of parameters (``params``), so that one compiled
# kernel serves every region of a game (numba compiles per function and argument types,
# not per region).


@njit(cache=True)
def turtles_decode(params: Any, i: Any) -> Any:  # pragma: no cover - compiled
    """Turning Turtles: the code ``(mask,)`` of index *i* (the mask itself)."""
    return (np.int64(i),)


@njit(cache=True)
def turtles_encode(params: Any, q: Any) -> Any:  # pragma: no cover - compiled
    m = q[0]
    return m if 0 <= m < params[2] else np.int64(-1)


@njit  # a generator: numba cannot reload a cached one for another kernel (KeyError)
def turtles_options(params: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """Options of the board ``params = (rows, cols, 2^(rows*cols))``: bit
    ``(a-1)*cols + (b-1)`` is the coin ``(a, b)`` (row-major). A move turns a head and
    the set ``{(a', b), (a, b'), (a', b')}``, all before it in row-major order, so the mask
    decreases."""
    rows = params[0]
    cols = params[1]
    m = q[0]
    a = 0
    while a < rows:
        b = 0
        while b < cols:
            head = np.int64(1) << (a * cols + b)
            if m & head:
                a2 = 0
                while a2 <= a:
                    b2 = 0
                    while b2 <= b:
                        flip = (
                            head
                            | (np.int64(1) << (a2 * cols + b))
                            | (np.int64(1) << (a * cols + b2))
                            | (np.int64(1) << (a2 * cols + b2))
                        )
                        yield (m ^ flip,)
                        b2 += 1
                    a2 += 1
            b += 1
        a += 1


def emperor_params(bound: int, sizes: tuple[int, ...], k: int) -> tuple[int, Any]:
    """k-Emperor Nim on ranges of *sizes* (non-decreasing), every heap below *bound*: the
    number of canonical positions and the parameters of the ``emperor_*`` functions, or
    ``(size, None)`` when the region is too large for int64 ranks.

    Codes are int64 arrays: the heaps of the ranges one after the other (equal sizes
    together, smaller sizes first). The index of a canonical code (each range sorted;
    ranges of one size sorted by rank) is mixed radix over the groups of equal sizes, the
    last group least significant; a group's rank is the colex rank of the multiset of its
    ranges' ranks, and a range's rank the colex rank of its sorted heaps. Every rank
    grows with each heap, so an option (heaps only decrease) has a smaller index.
    """
    import itertools
    from math import comb

    mult: list[int] = []
    groups: list[int] = []
    for s in sizes:
        if groups and groups[-1] == s:
            mult[-1] += 1
        else:
            groups.append(s)
            mult.append(1)
    per_range = [comb(bound + s - 1, s) for s in groups]
    counts = [comb(r + m - 1, m) for r, m in zip(per_range, mult, strict=True)]
    size = 1
    for c in counts:
        size *= c
    rows = max([bound + max(sizes), *(r + m for r, m in zip(per_range, mult, strict=True))]) + 2
    cols = max(max(sizes), max(mult)) + 2
    if size >= 1 << 62 or rows * cols > 1 << 24 or max(per_range) >= 1 << 40:
        return size, None
    binom = np.zeros((rows, cols), dtype=np.int64)
    for n in range(rows):
        for t in range(min(n, cols - 1) + 1):
            binom[n, t] = comb(n, t)
    starts = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
    gfirst = np.cumsum([0, *mult[:-1]]).astype(np.int64)
    big = max(sizes)
    perm_l = {s: list(itertools.permutations(range(s))) for s in set(sizes)}
    perms = np.zeros((big + 1, max(len(v) for v in perm_l.values()), big), dtype=np.int64)
    nperm = np.zeros(big + 1, dtype=np.int64)
    for s, ps in perm_l.items():
        nperm[s] = len(ps)
        for i, p in enumerate(ps):
            perms[s, i, :s] = p
    # the assignments of y's ranges to x's ranges of the same size
    blocks = [
        list(itertools.permutations(range(int(gfirst[g]), int(gfirst[g]) + mult[g])))
        for g in range(len(mult))
    ]
    assign_l = [[r for b in combo for r in b] for combo in itertools.product(*blocks)]
    params = (
        np.array(sizes, dtype=np.int64),
        starts,
        gfirst,
        np.array(mult, dtype=np.int64),
        np.array(counts, dtype=np.int64),
        np.array(per_range, dtype=np.int64),
        binom,
        perms,
        nperm,
        np.array(assign_l, dtype=np.int64).reshape(len(assign_l), len(sizes)),
        np.int64(bound),
        np.int64(k),
        np.int64(sum(sizes)),
    )
    return size, params


@njit(cache=True)
def _unrank_multiset(binom: Any, r: Any, m: Any, vals: Any, out: Any, at: Any) -> None:
    # pragma: no cover - compiled
    # colex: from the top, the largest c with C(c + u, u + 1) <= r
    for u in range(m - 1, -1, -1):
        lo = 0
        hi = vals - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if binom[mid + u, u + 1] <= r:
                lo = mid
            else:
                hi = mid - 1
        out[at + u] = lo
        r -= binom[lo + u, u + 1]


@njit(cache=True)
def emperor_decode(params: Any, i: Any) -> Any:  # pragma: no cover - compiled
    sizes, starts, gfirst, gmult, gcount, gvals, binom = params[:7]
    bound = params[10]
    n = sizes.shape[0]
    ranks = np.zeros(n, dtype=np.int64)
    rest = i
    for g in range(gmult.shape[0] - 1, -1, -1):
        gr = rest % gcount[g]
        rest //= gcount[g]
        _unrank_multiset(binom, gr, gmult[g], gvals[g], ranks, gfirst[g])
    code = np.zeros(params[12], dtype=np.int64)
    for r in range(n):
        _unrank_multiset(binom, ranks[r], sizes[r], bound, code, starts[r])
    return code


@njit(cache=True)
def emperor_encode(params: Any, q: Any) -> Any:  # pragma: no cover - compiled
    sizes, starts, gfirst, gmult, gcount, _gvals, binom = params[:7]
    bound = params[10]
    n = sizes.shape[0]
    ranks = np.zeros(n, dtype=np.int64)
    for r in range(n):
        seg = np.sort(q[starts[r] : starts[r] + sizes[r]])
        rk = 0
        for t in range(sizes[r]):
            v = seg[t]
            if v < 0 or v >= bound:
                return np.int64(-1)
            rk += binom[v + t, t + 1]
        ranks[r] = rk
    idx = np.int64(0)
    for g in range(gmult.shape[0]):
        f = gfirst[g]
        m = gmult[g]
        seg = np.sort(ranks[f : f + m])
        gr = 0
        for u in range(m):
            gr += binom[seg[u] + u, u + 1]
        idx = idx * gcount[g] + gr
    return idx


@njit  # a generator: numba cannot reload a cached one for another kernel (KeyError)
def emperor_options(params: Any, h: Any) -> Any:  # pragma: no cover - compiled
    """Every option: per range, the decreases that leave it unchanged, change one heap,
    or change two or more (at most k ranges of the last kind), combined by an odometer
    that skips whole blocks beyond k."""
    sizes, starts = params[0], params[1]
    k = params[11]
    n = sizes.shape[0]
    big = 1
    most = 1
    for r in range(n):
        big = max(big, sizes[r])
        p = 1
        for t in range(sizes[r]):
            p *= h[starts[r] + t] + 1
        most = max(most, p)
    states = np.zeros((n, most, big), dtype=np.int64)
    nst = np.zeros(n, dtype=np.int64)
    first_multi = np.zeros(n, dtype=np.int64)
    cur = np.zeros(big, dtype=np.int64)
    for r in range(n):
        st = starts[r]
        s = sizes[r]
        cnt = 0
        for cls in range(3):
            if cls == 2:
                first_multi[r] = cnt
            cur[:] = 0
            while True:  # every vector below the range's heaps
                changed = 0
                for t in range(s):
                    if cur[t] != h[st + t]:
                        changed += 1
                if min(changed, 2) == cls:
                    states[r, cnt, :s] = cur[:s]
                    cnt += 1
                t = 0
                while t < s:
                    if cur[t] < h[st + t]:
                        cur[t] += 1
                        break
                    cur[t] = 0
                    t += 1
                if t == s:
                    break
        nst[r] = cnt
    digit = np.zeros(n, dtype=np.int64)  # digit 0 = the range unchanged: h is not yielded
    while True:
        r = 0
        while r < n:
            nd = digit[r] + 1
            multis = 0
            for u in range(r + 1, n):
                if digit[u] >= first_multi[u]:
                    multis += 1
            if nd < nst[r] and (nd < first_multi[r] or multis < k):
                digit[r] = nd
                break
            digit[r] = 0
            r += 1
        if r == n:
            break
        out = h.copy()
        for u in range(n):
            st = starts[u]
            out[st : st + sizes[u]] = states[u, digit[u], : sizes[u]]
        yield out


@njit(cache=True)
def emperor_is_option(params: Any, x: Any, y: Any) -> bool:  # pragma: no cover - compiled
    """Whether *y* is an option of *x* (both codes): a matching of y's ranges to x's
    ranges of the same size, and in each of the heaps, with every heap of y at most its
    heap of x, at least one stone taken, and at most k ranges changed in two heaps or more."""
    sizes, starts = params[0], params[1]
    perms, nperm, assign = params[7], params[8], params[9]
    k = params[11]
    n = sizes.shape[0]
    if y.sum() >= x.sum():
        return False
    # cls[a, b]: fewest heaps changed when range b of y replaces range a of x
    # (0, 1, or 2 = two or more); 3 when no matching puts y's range below x's
    cls = np.full((n, n), 3, dtype=np.int64)
    for a in range(n):
        s = sizes[a]
        for b in range(n):
            if sizes[b] != s:
                continue
            best = 3
            for p in range(nperm[s]):
                ok = True
                ch = 0
                for t in range(s):
                    xv = x[starts[a] + t]
                    yv = y[starts[b] + perms[s, p, t]]
                    if yv > xv:
                        ok = False
                        break
                    if yv != xv:
                        ch += 1
                if ok:
                    best = min(best, min(ch, 2))
            cls[a, b] = best
    for row in range(assign.shape[0]):
        multis = 0
        ok = True
        for a in range(n):
            c = cls[a, assign[row, a]]
            if c == 3:
                ok = False
                break
            if c == 2:
                multis += 1
        if ok and multis <= k:
            return True
    return False
