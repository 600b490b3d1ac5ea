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
"""

from __future__ import annotations

from typing import Any

from numba import njit

__all__ = ["rare_fill"]


@njit(cache=True, nogil=True, inline="always")
def _mark_single(ends: Any, ones: Any, out: Any, h: int, stamp: Any) -> None:  # pragma: no cover
    """Options leaving no heap or one heap."""
    for i in range(ends.shape[0]):
        if ends[i] == h:
            stamp[0] = h
    for i in range(ones.shape[0]):
        k = ones[i]
        if k < h:
            stamp[out[h - k]] = h


@njit(cache=True, nogil=True, inline="always")
def _mark_rare(
    splits: Any, uneq: Any, out: Any, h: int, rare: Any, rarev: Any, nr: int, stamp: Any
) -> None:  # pragma: no cover - compiled
    """Every split of *h* with a part among the rare heaps ``rare[:nr]`` (ascending)."""
    for j in range(splits.shape[0]):
        r = h - splits[j]
        if r < 2:
            continue
        if uneq[j]:
            for i in range(nr):
                a = rare[i]
                if a >= r:
                    break
                if 2 * a != r:
                    stamp[rarev[i] ^ out[r - a]] = h
        else:
            for i in range(nr):
                a = rare[i]
                if a >= r:
                    break
                stamp[rarev[i] ^ out[r - a]] = h


@njit(cache=True, nogil=True, inline="always")
def _hit(
    splits: Any, uneq: Any, out: Any, h: int, a: int, ga: int, w: int, stamp: Any
) -> int:  # pragma: no cover - compiled
    """Stamp the values of the splits of *h* with the part *a* (of value *ga*); how many
    are new below *w*."""
    got = 0
    for j in range(splits.shape[0]):
        c = h - splits[j] - a
        if c < 1 or (uneq[j] and c == a):
            continue
        v = ga ^ out[c]
        # branch-free: a value at or above w is an option too, stamping it is harmless
        old = stamp[v]
        stamp[v] = h
        got += (old != h) & (v < w)
    return got


@njit(cache=True, nogil=True)
def _witnesses(
    splits: Any, uneq: Any, out: Any, h: int, w: int, need: int, orders: Any, stamp: Any
) -> Any:  # pragma: no cover - compiled
    """Look for the *need* values below *w* that are not options yet among the splits:
    the small parts of ``orders = (heaps, their values)`` first (heaps of the most
    frequent values), then
    every split in order of its smaller part. Returns ``(left, splits tried)``: ``left``
    is 0 when every value was found, else the scan saw every split of *h*."""
    order, order_values = orders
    tried = 0
    for i in range(order.shape[0]):
        a = order[i]
        if a >= h:
            continue
        need -= _hit(splits, uneq, out, h, a, order_values[i], w, stamp)
        tried += 1
        if need == 0:
            return 0, tried
    smin = splits[0]
    for j in range(splits.shape[0]):
        smin = min(smin, splits[j])
    amax = (h - smin) // 2
    for a in range(1, amax + 1):
        need -= _hit(splits, uneq, out, h, a, out[a], w, stamp)
        tried += 1
        if need == 0:
            return 0, tried
    return need, tried


@njit(cache=True, nogil=True)
def rare_fill(
    rules: Any,
    out: Any,
    start: int,
    cls: Any,
    rare: Any,
    rarev: Any,
    orders: Any,
    state: Any,
    stamp: Any,
) -> Any:  # pragma: no cover - compiled
    """Fill ``out[start:]`` exactly by the rare-value method.

    *rules* is ``(ends, ones, splits, uneq)``; *cls* is ``(par, dom, tpar)``: the parity
    table of the mask (length ``len(stamp)``, a power of two, so a XOR of two values stays
    below it), the domain flag and the parity of the takes of the splits. ``rare[:state[0]]``
    lists the rare heaps, ``rarev`` their values; ``state[1]`` adds the splits tried in
    witness searches. Returns the first heap not done: the caller enlarges *stamp* (a
    value reached ``len(stamp) // 2``) or the rare list (full), then calls again.
    """
    ends, ones, splits, uneq = rules
    par, dom, tpar = cls
    n = out.shape[0]
    half = stamp.shape[0] // 2
    nr = state[0]
    for h in range(start, n):
        if nr >= rare.shape[0]:
            state[0] = nr
            return h
        _mark_single(ends, ones, out, h, stamp)
        _mark_rare(splits, uneq, out, h, rare, rarev, nr, stamp)
        flip = dom & ((h + tpar) & 1)
        pt = 1 ^ flip
        w = 0
        while w < half and (stamp[w] == h or par[w] != pt):
            w += 1
        if w >= half:
            state[0] = nr
            return h
        need = 0
        for v in range(w):
            if stamp[v] != h:
                need += 1
        g = w
        if need > 0:
            left, tried = _witnesses(splits, uneq, out, h, w, need, orders, stamp)
            state[1] += tried
            if left > 0:
                g = 0
                while stamp[g] == h:
                    g += 1
        out[h] = g
        if par[g] ^ flip == 0:
            rare[nr] = h
            rarev[nr] = g
            nr += 1
    state[0] = nr
    return n
