"""The rare-value octal engine on several cores (:mod:`nimlab.engine.octal_rare`).

A block of heaps ``start..stop-1`` is computed in four steps, exactly:

1. *in parallel over the heaps*: the splits with a part among the rare heaps of at least
   ``stop - start`` tokens (nearly all of them); their other part is below ``start``, known;
2. *in order*: the splits with a small rare part, the one-heap options, and the smallest
   common value ``w`` that is not an option; the heap's value is taken to be ``w``
   (speculation: the rare heaps after ``start`` read these values);
3. *in parallel over the heaps*: the values of the rare parity below ``w`` that no option
   gave yet are looked for among the other splits (:func:`_witnesses`); a value without
   any witness makes the heap rare (its value that value, the smallest);
4. *in order*: the first heap whose speculation failed gets its true value and becomes a
   rare heap; the heaps after it are computed again (the next call starts there).

Step 4 makes every value the exact mex whatever happens; in games like Officers (0.6) no
heap is rare after the first 20,627, so the speculation almost never fails. Each heap owns
a row of ``seen`` (bytes), so the threads never write to the same place.
"""

from __future__ import annotations

from typing import Any

# OpenMP's waiting policy (a short spin, then sleep), before numba loads OpenMP
import nimlab.engine._omp  # noqa: F401  (isort: skip)
import numpy as np
from numba import njit, prange

from nimlab.engine._octal_kernels import _mark_parts, _mark_single, _witnesses

# The loops of the parallel steps are plain compiled functions called from the ``prange``
# bodies: inlined into numba's parallel function, the same loops ran about a third slower.


@njit(cache=True, nogil=True)
def _rare_row(
    splits: Any, uneq: Any, out: Any, h: int, rare: Any, lo: int, hi: int, row: Any
) -> None:  # pragma: no cover - compiled
    """Clear the row of the heap *h*, then mark the splits with a part in ``rare[lo:hi]``."""
    row[:] = 0
    _mark_parts(splits, uneq, out, h, rare, lo, hi, row, 1)


@njit(cache=True, nogil=True)
def _common_row(
    rules: Any, out: Any, h: int, rare: Any, big: int, row: Any, cls: Any
) -> int:  # pragma: no cover - compiled
    """Mark the one-heap options and the splits with a part in ``rare[:big]`` in the row of
    *h*; return the smallest common value not marked (``len(par) // 2`` if none below)."""
    ends, ones, splits, uneq = rules
    par, dom, tpar = cls
    _mark_single(ends, ones, out, h, row, 1)
    _mark_parts(splits, uneq, out, h, rare, 0, big, row, 1)
    pt = 1 ^ (dom & ((h + tpar) & 1))
    half = par.shape[0] // 2
    w = 0
    while w < half and (row[w] or par[w] != pt):
        w += 1
    return w


@njit(cache=True, nogil=True)
def _verify_row(
    splits: Any, uneq: Any, out: Any, h: int, w: int, orders: Any, row: Any, m: Any
) -> Any:  # pragma: no cover - compiled
    """``(value of the rare parity without a witness or -1, splits tried)`` for the heap *h*
    whose smallest missing common value is *w*."""
    nm = 0
    for v in range(w):
        if row[v] == 0:
            m[nm] = v
            nm += 1
    if nm == 0:
        return -1, 0
    # nm as np.int64: a count from the constant 0 is first typed Literal[int](0), and numba
    # would compile _witnesses twice
    left, tried = _witnesses(splits, uneq, out, h, m, np.int64(nm), orders, row, 1)
    return (m[0] if left > 0 else -1), tried


__all__ = ["block_fill"]


@njit(cache=True, parallel=True)
def block_fill(
    rules: Any,
    out: Any,
    start: int,
    stop: int,
    cls: Any,
    rare: Any,
    orders: Any,
    state: Any,
    seen: Any,
    miss: Any,
    found: Any,
) -> Any:  # pragma: no cover - compiled
    """Compute ``out[start:stop]`` (at most ``len(seen)`` heaps) as the module says.

    *rules*, *cls*, *rare*, *orders* and *state* are those of
    :func:`nimlab.engine._octal_kernels.rare_fill` (``rare[:state[0]]`` ascending);
    ``seen`` and ``miss`` are work rows (``len(stamp)`` bytes and int32 a heap), *found*
    int64 rows of 3 a heap. Returns the first heap not done: *stop*, the heap after a heap
    found rare (added to *rare*), *start* when a common value reached ``len(par) // 2``
    (the caller enlarges the tables), ``-1`` when the rare list is full.
    """
    splits, uneq = rules[2], rules[3]
    nb = stop - start
    half = cls[0].shape[0] // 2
    nr = state[0]
    if nr + 1 >= rare.shape[0]:
        return -1
    big = 0  # rare[big:nr]: the rare heaps of at least nb tokens
    while big < nr and rare[big, 0] < nb:
        big += 1
    for j in prange(nb):
        _rare_row(splits, uneq, out, start + j, rare, big, nr, seen[j])
    for j in range(nb):
        w = _common_row(rules, out, start + j, rare, big, seen[j], cls)
        if w >= half:
            return start  # nothing done: the caller enlarges the tables
        out[start + j] = w
        found[j, 0] = w
    for j in prange(nb):
        g, tried = _verify_row(splits, uneq, out, start + j, found[j, 0], orders, seen[j], miss[j])
        found[j, 1] = g
        found[j, 2] = tried
    for j in range(nb):
        state[1] += found[j, 2]
        if found[j, 1] >= 0:
            h = start + j
            g = found[j, 1]
            out[h] = g
            rare[nr, 0] = h
            rare[nr, 1] = g
            state[0] = nr + 1
            return h + 1
    return stop
