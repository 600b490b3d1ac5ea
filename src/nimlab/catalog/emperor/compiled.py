"""Emperor Nim's compiled index model (the ``index_model`` hook; imports numba, so the
rules import it only inside the hook): ranges of given sizes below a heap bound.

Module-level functions over a tuple of parameters (``params``), so that one compiled
kernel serves every region of a game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "emperor_decode",
    "emperor_encode",
    "emperor_is_option",
    "emperor_options",
    "emperor_params",
]


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
                    for t in range(s):  # a loop: numba compiles a slice copy's error text
                        states[r, cnt, t] = cur[t]
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
            for t in range(sizes[u]):  # a loop: numba compiles a slice copy's error text
                out[st + t] = states[u, digit[u], t]
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
