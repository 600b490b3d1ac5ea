"""Parallel compiled kernels of canonical (order-free) solves: a wavefront by total.

For an order-free game whose moves lower the number of stones (Single-delete, Nim, most
take-away games), the options of a position all have a smaller total, so the positions
of one total (one *level*) depend only on lower levels and are solved independently, on
every core: :func:`solve_levels` runs the levels in turn, each on numba's threads, its tasks (the two
largest heaps) handed out one by one from a shared atomic counter (numba's own ``prange``
cuts a loop into one contiguous block per thread, and the later blocks of a level cost
more), from the end when the level's last tasks are its largest (:func:`largest_last`),
each task walking the sorted tuples of smaller heaps that complete the level's total.

The kernel never assumes that moves lower the total: a position with an option not yet
solved (or outside the array) is left unknown and counted as *deferred*; the caller then
finishes with the serial engine (:func:`nimlab.engine._generic.solve`), which solves what
is left. A value is written only once all its options are known, so the results are exact
for every game. Positions already solved (an earlier, smaller table) are skipped.

:func:`extract` copies the values of the sorted positions with heaps ``lo..side-1`` out of
the engine's array (heaps from 0), in colex order. These are internal functions:
:mod:`nimlab.engine.compiled` drives them.
"""

from __future__ import annotations

from typing import Any

# OpenMP's waiting policy (a short spin, then sleep), before numba loads OpenMP
import nimlab.engine._omp  # noqa: F401  (isort: skip)
import numpy as np
from numba import get_num_threads, njit, prange
from numba.core import cgutils, types
from numba.extending import intrinsic, overload

from nimlab.engine._generic import key, rank, setitem

__all__: list[str] = []


@njit(cache=True)
def prefixes(n: int, lo: int, hi: int, total: int) -> Any:  # pragma: no cover - compiled
    """The tasks of one level: the largest heaps ``(a(n-1), a(n-2))`` (``(a1, -1)`` for two
    heaps) of the sorted tuples of *n* heaps in ``lo..hi`` with sum *total*; inside a task
    only the smaller heaps change, so its positions are near each other in colex rank."""
    q = 2 if n > 2 else 1
    k = n - q  # parts below the prefix, each in lo..(the smallest part of the prefix)
    out = np.empty((max(1, (hi - lo + 1) * (hi - lo + 1)), 2), np.int64)
    m = 0
    for top in range(lo, hi + 1):
        if q == 1:
            r = total - top
            if lo <= r <= top:
                out[m, 0] = top
                out[m, 1] = -1
                m += 1
            continue
        for second in range(lo, top + 1):
            r = total - top - second
            if r < k * lo:
                break
            if r <= k * second:
                out[m, 0] = top
                out[m, 1] = second
                m += 1
    return out[:m]


def _fetch_add_typed(typingctx: Any, counter: Any, step: Any) -> Any:
    """``counter[0] += step`` as one atomic operation; returns the value before."""
    pointer: Any = cgutils.get_item_pointer

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = pointer(context, builder, sig.args[0], ary, [cgutils.intp_t(0)])
        return builder.atomic_rmw("add", ptr, args[1], "monotonic")

    return types.int64(counter, types.int64), codegen


_fetch_add: Any = intrinsic(_fetch_add_typed)


def _fetch_or_typed(typingctx: Any, words: Any, index: Any, bits: Any) -> Any:
    """``words[index] |= bits`` as one atomic operation (uint64 words)."""
    pointer: Any = cgutils.get_item_pointer

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = pointer(context, builder, sig.args[0], ary, [args[1]])
        return builder.atomic_rmw("or", ptr, args[2], "monotonic")

    return types.uint64(words, types.intp, types.uint64), codegen


_fetch_or: Any = intrinsic(_fetch_or_typed)


def _set_threads_typed(typingctx: Any, count: Any) -> Any:
    """numba's ``set_num_threads(count)`` for this thread's next parallel loops, as a call
    of the threading layer's C function by name: numba's own compiled version calls a
    ctypes pointer, which would keep the kernel off the disk cache (as
    ``get_num_threads``, see :mod:`nimlab.engine._levelcache`)."""
    import importlib

    from numba.np.ufunc import parallel

    ir: Any = importlib.import_module("llvmlite.ir")
    launch: Any = parallel._launch_threads
    launch()  # the threading layer's functions known to the linker
    declare: Any = cgutils.get_or_insert_function

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(32)])
        fn = declare(builder.module, fnty, "set_num_threads")
        builder.call(fn, [builder.trunc(args[0], ir.IntType(32))])
        return context.get_dummy_value()

    return types.void(types.int64), codegen


_set_threads: Any = intrinsic(_set_threads_typed)

# -- the state of a level's solve: values, or outcomes packed two bits a position -----
#
# Outcome solves (values -1 unknown, 0 P, 1 N) run on a uint64 array of two bits a
# position (bit 0 known, bit 1 the outcome): a sixteenth of the engine's int32 array
# (5 heaps < 48: 650 KB, within a core's L2 cache, against 2.6 MB at one byte a
# position), so each thread's reads of options stay in its own core's cache. Threads
# write their positions' bits with an atomic OR (positions of one word can be solved by
# two threads); the bits of a solved position never change, so reads need no lock.


def get(state: Any, ix: int) -> int:
    """The value at *ix* of a state array (-1: unknown); uint64 arrays hold outcomes two
    bits a position."""
    if state.dtype == np.uint64:
        c = (int(state[ix >> 5]) >> ((ix & 31) << 1)) & 3
        return (c >> 1) if c else -1
    return int(state[ix])


def put(state: Any, ix: int, v: int) -> None:
    """Store value *v* (>= 0) at *ix* (see :func:`get`)."""
    if state.dtype == np.uint64:
        state[ix >> 5] = np.uint64(int(state[ix >> 5]) | ((1 | v << 1) << ((ix & 31) << 1)))
    else:
        state[ix] = v


def _packed(state: Any) -> bool:
    return isinstance(state, types.Array) and state.dtype == types.uint64


@overload(get, inline="always")
def _get_impl(state: Any, ix: Any) -> Any:
    if _packed(state):

        def impl(state: Any, ix: Any) -> Any:  # pragma: no cover - compiled
            c = (state[ix >> 5] >> np.uint64((ix & 31) << 1)) & np.uint64(3)
            return np.int64(c >> np.uint64(1)) if c else np.int64(-1)

        return impl

    def plain(state: Any, ix: Any) -> Any:  # pragma: no cover - compiled
        return np.int64(state[ix])

    return plain


@overload(put, inline="always")
def _put_impl(state: Any, ix: Any, v: Any) -> Any:
    if _packed(state):

        def impl(state: Any, ix: Any, v: Any) -> None:  # pragma: no cover - compiled
            bits = np.uint64(1 | (v << 1)) << np.uint64((ix & 31) << 1)
            _fetch_or(state, ix >> 5, bits)

        return impl

    def plain(state: Any, ix: Any, v: Any) -> None:  # pragma: no cover - compiled
        state[ix] = v

    return plain


@njit(cache=True)
def pack(state: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Outcomes *state* (-1, 0, 1) into *out*, two bits a position (see :func:`get`)."""
    out[:] = 0
    for ix in range(state.shape[0]):
        v = state[ix]
        if v >= 0:
            out[ix >> 5] |= np.uint64(1 | (v << 1)) << np.uint64((ix & 31) << 1)


@njit(cache=True)
def unpack(packed: Any, state: Any) -> None:  # pragma: no cover - compiled
    """The known outcomes of *packed* into *state* (others left as they are)."""
    for ix in range(state.shape[0]):
        c = (packed[ix >> 5] >> np.uint64((ix & 31) << 1)) & np.uint64(3)
        if c:
            state[ix] = c >> np.uint64(1)


@njit
def _value(
    gen: Any, p: Any, state: Any, side: int, cb: Any, kind: int, seen: Any, stamp: int
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The value of *p* from its options' values (-1: an option is unknown), and the
    number of options (grundy: the mex needs ``seen`` longer than it)."""
    nopt = 0
    for o in gen(p):
        nopt += 1
        ci = rank(key(o, True), True, side, cb)
        if ci < 0:
            return -1, nopt
        v = get(state, ci)
        if v < 0:
            return -1, nopt
        if kind == 0:
            if v < seen.shape[0]:
                seen[v] = stamp
        elif v == 0:  # a P option: N
            return 1, nopt
    if kind != 0:
        return (1 if kind == 2 else 0) if nopt == 0 else 0, nopt
    if nopt >= seen.shape[0]:
        return -2, nopt  # the mex again with a longer seen
    m = 0
    while seen[m] == stamp:
        m += 1
    return m, nopt


@njit
def _task(
    gen: Any,
    zero: Any,
    state: Any,
    side: int,
    cb: Any,
    kind: int,
    lo: int,
    total: int,
    tasks: Any,
    counts: Any,
    t: int,
    n: int,
    q: int,
    k: int,
) -> None:  # pragma: no cover - compiled
    """Task *t* of a level of :func:`solve_levels`: the positions whose largest heaps are ``tasks[t]``."""
    seen = np.zeros(64, np.int64)
    stamp = 0
    solved = 0
    deferred = 0
    a = np.empty(max(k, 1), np.int64)
    rem = np.empty(max(k, 1), np.int64)
    p = setitem(zero, n - 1, tasks[t, 0])
    cap = tasks[t, 0]
    r = total - tasks[t, 0]
    if q == 2:
        p = setitem(p, n - 2, tasks[t, 1])
        cap = tasks[t, 1]
        r -= tasks[t, 1]
    # the sorted k-tuples in lo..cap with sum r (k == 1: the one part r)
    i = 0
    rem[0] = r
    a[0] = max(lo, r - (k - 1) * cap) - 1 if k > 1 else r - 1
    while i >= 0:
        a[i] += 1
        if k == 1:
            if a[0] > r:
                break
        elif a[i] * (k - i) > rem[i]:
            i -= 1
            continue
        elif i < k - 2:
            rem[i + 1] = rem[i] - a[i]
            i += 1
            a[i] = max(a[i - 1], rem[i] - (k - 1 - i) * cap) - 1
            continue
        for j in range(k - 1):
            p = setitem(p, j, a[j])
        p = setitem(p, k - 1, a[0] if k == 1 else rem[k - 2] - a[k - 2])
        ix = rank(p, True, side, cb)
        if get(state, ix) >= 0:
            continue
        while True:
            stamp += 1
            v, nopt = _value(gen, p, state, side, cb, kind, seen, stamp)
            if v != -2:
                break
            seen = np.zeros(2 * nopt + 2, np.int64)
            stamp = 0
        if v < 0:
            deferred += 1
        else:
            put(state, ix, v)
            solved += 1
    counts[t, 0] = solved
    counts[t, 1] = deferred


@njit(cache=True)
def _spread(tasks: Any, t: int, n: int, lo: int, total: int) -> Any:  # pragma: no cover
    """How far task *t*'s smaller heaps are from their extremes: the ``k`` heaps in
    ``lo..cap`` summing to the rest have the most sorted tuples when the rest is halfway
    between ``k * lo`` and ``k * cap`` (a cheap stand-in for the task's size)."""
    q = 2 if n > 2 else 1
    k = n - q
    cap = tasks[t, q - 1] - lo
    rest = total - tasks[t, 0] - (tasks[t, 1] if q == 2 else 0) - k * lo
    return min(rest, k * cap - rest)


@njit(cache=True)
def largest_last(tasks: Any, n: int, lo: int, total: int) -> bool:  # pragma: no cover
    """Whether a level's tasks grow along prefix order (its last task looks larger than
    its first: the upper levels), so :func:`solve_levels` hands them out from the end and
    the level ends with its smallest tasks, no thread waiting long for another (5 heaps
    below 48, simulated from the tasks' sizes on 2 threads: 0.40 % over the even share in
    prefix order, 0.01 % so; the exact largest-first order gains no more)."""
    m = tasks.shape[0]
    return bool(m > 2 and _spread(tasks, m - 1, n, lo, total) > _spread(tasks, 0, n, lo, total))


@njit(parallel=True)
def solve_levels(
    gen: Any,
    zero: Any,
    state: Any,
    side: int,
    cb: Any,
    kind: int,
    lo: int,
    hi: int,
    first: int,
    last: int,
    tasks: Any,
    counts: Any,
    least: int,
    work: int,
) -> int:  # pragma: no cover - compiled
    """Solve the sorted positions of ``first..last`` stones (heaps ``lo..hi``), a level (a
    number of stones) after the other, each in parallel, with no return to Python between
    them (the threads find the next level while they still spin: :mod:`._omp`).

    With *tasks* (rows), the one level ``first`` of those tasks: ``counts[t, 0]``
    positions of task *t* solved, ``counts[t, 1]`` deferred (an option unknown). Without
    (no rows), each level's tasks from :func:`prefixes`, ``counts[0]`` the sums (solved,
    deferred), stopping after the first level with a deferred position; a level runs on
    one thread (no other woken) when the level before it had fewer than *least*
    positions to solve (*work* the one before *first*). ``kind``: 0 Grundy values, 1
    normal outcome, 2 misère outcome. Returns the positions of the last level run.
    """
    n = len(zero)
    q = 2 if n > 2 else 1
    k = n - q
    given = tasks.shape[0] > 0
    most = get_num_threads()
    for total in range(first, (first if given else last) + 1):
        level = tasks if given else prefixes(n, lo, hi, total)
        ntasks = level.shape[0]
        if ntasks == 0:
            continue
        # not np.zeros (nor for the counter below): numba makes that a parallel loop of
        # its own, and the counter was found not zeroed when the level had one task
        per = counts if given else np.empty((ntasks, 2), np.int64)
        for t in range(ntasks):
            per[t, 0] = 0
            per[t, 1] = 0
        handed = np.empty(1, np.int64)  # the next task to hand out
        handed[0] = 0
        # this thread's number of threads: one after a small level (none woken)
        here = most if given or work >= least else 1
        _set_threads(here)
        workers = min(here, ntasks)
        back = workers > 1 and largest_last(level, n, lo, total)
        for _w in prange(workers):  # one loop per thread; each takes the next task
            while True:
                t = _fetch_add(handed, 1)
                if t >= ntasks:
                    break
                if back:
                    t = ntasks - 1 - t
                _task(gen, zero, state, side, cb, kind, lo, total, level, per, t, n, q, k)
        solved = 0
        deferred = 0
        for t in range(ntasks):
            solved += per[t, 0]
            deferred += per[t, 1]
        if not given:
            counts[0, 0] += solved
            counts[0, 1] += deferred
        work = solved + deferred
        if deferred:
            break
    _set_threads(most)
    return work


#: A level runs on one thread when the level before it had fewer positions to solve
#: (the smallest levels, at both ends of the wavefront, and those an earlier table solved):
#: waking a sleeping thread for a millisecond of work costs more than it saves on a busy
#: machine (5 heaps below 48 at load 5-8: levels below 1,000 positions took 0.5 ms each
#: on one thread, 2-7 ms on two).
LEVEL_MIN_POSITIONS = 1000


def threads() -> int:
    """The number of threads numba's parallel loops use now."""
    return int(get_num_threads())


def use_threads(k: int) -> None:
    """Numba's parallel loops on *k* threads (of this Python thread): what it was before
    a :func:`solve_levels` that raised (it runs small levels on one)."""
    if get_num_threads() != k:
        from numba import set_num_threads

        set_num_threads(k)


@njit(cache=True)
def extract(
    state: Any, cb: Any, n: int, lo: int, side: int, out: Any, mask: Any
) -> int:  # pragma: no cover - compiled
    """``out[r]``: the value of the *r*-th sorted tuple of heaps ``lo..side-1`` in colex
    order (``state`` indexed by the colex rank of heaps from 0, ``cb`` its rank terms);
    unsolved positions (-1: not positions of the game) get 0 and, when *mask* has room,
    ``mask[r] = False``. Returns how many there are."""
    h = np.full(n, lo, np.int64)
    bad = 0
    room = mask.shape[0] == out.shape[0]
    for r in range(out.shape[0]):
        ix = 0
        for i in range(n):
            ix += cb[i, h[i]]
        v = state[ix]
        if v < 0:
            bad += 1
            out[r] = 0
            if room:
                mask[r] = False
        else:
            out[r] = v
        i = 0
        while i < n:
            limit = h[i + 1] if i + 1 < n else side - 1
            if h[i] < limit:
                h[i] += 1
                for j in range(i):
                    h[j] = lo
                break
            i += 1
    return bad
