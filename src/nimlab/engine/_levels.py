"""Parallel compiled kernels of canonical (order-free) solves: a wavefront by total.

For an order-free game whose moves lower the number of stones (Single-delete, Nim, most
take-away games), the options of a position all have a smaller total, so the positions
of one total (one *level*) depend only on lower levels and are solved independently, on
every core: :func:`solve_levels` runs the levels in turn on numba's threads, their tasks (the
two largest heaps) handed out one by one from a shared atomic counter (numba's own
``prange`` cuts a loop into one contiguous block per thread, and the later blocks of a
level cost more), a level's from the end when its last tasks are its largest
(:func:`largest_last`), each task walking the sorted tuples of smaller heaps that complete
the level's total. There is no barrier between levels: a thread that reaches a position
whose option another thread is still solving solves that option itself, or waits for it
(:func:`_pending`).

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


def _element(context: Any, builder: Any, sig: Any, args: Any, index: Any) -> Any:
    """The address of element *index* of the array that is an intrinsic's first argument
    (for its atomic operation)."""
    pointer: Any = cgutils.get_item_pointer
    ary = context.make_array(sig.args[0])(context, builder, args[0])
    return pointer(context, builder, sig.args[0], ary, [index])


def _fetch_add_typed(typingctx: Any, counter: Any, step: Any) -> Any:
    """``counter[0] += step`` as one atomic operation; returns the value before."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ptr = _element(context, builder, sig, args, cgutils.intp_t(0))
        return builder.atomic_rmw("add", ptr, args[1], "monotonic")

    return types.int64(counter, types.int64), codegen


_fetch_add: Any = intrinsic(_fetch_add_typed)


def _fetch_or_typed(typingctx: Any, words: Any, index: Any, bits: Any) -> Any:
    """``words[index] |= bits`` as one atomic operation (uint64 words)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ptr = _element(context, builder, sig, args, args[1])
        return builder.atomic_rmw("or", ptr, args[2], "monotonic")

    return types.uint64(words, types.intp, types.uint64), codegen


_fetch_or: Any = intrinsic(_fetch_or_typed)


def _atomic_typed(typingctx: Any, words: Any, index: Any, value: Any) -> Any:
    """``words[index] = value`` as one atomic exchange; returns the value before (the
    outcomes' state packed or not: a value written by two threads, the same each time,
    is counted once, by the thread that found it unset)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ptr = _element(context, builder, sig, args, args[1])
        val = context.cast(builder, args[2], sig.args[2], sig.args[0].dtype)
        op = "or" if sig.args[0].dtype == types.uint64 else "xchg"
        return builder.atomic_rmw(op, ptr, val, "acq_rel")

    return words.dtype(words, types.intp, value), codegen


#: packed state (uint64 words): an atomic OR; plain values: an atomic exchange
_atomic_put: Any = intrinsic(_atomic_typed)


def _load_typed(typingctx: Any, words: Any, index: Any) -> Any:
    """``words[index]`` read as one atomic load (acquire: what the writer stored before
    it is seen too), for a thread waiting on another's writes."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ptr = _element(context, builder, sig, args, args[1])
        size = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        return builder.load_atomic(ptr, "acquire", size)

    return words.dtype(words, types.intp), codegen


_load: Any = intrinsic(_load_typed)


def _add_at_typed(typingctx: Any, counter: Any, index: Any, step: Any) -> Any:
    """``counter[index] += step`` as one atomic operation (release: what this thread
    wrote before is seen by a thread that reads the count with :data:`_load`)."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ptr = _element(context, builder, sig, args, args[1])
        return builder.atomic_rmw("add", ptr, args[2], "acq_rel")

    return types.int64(counter, types.intp, types.int64), codegen


_add_at: Any = intrinsic(_add_at_typed)


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


def known(state: Any, ix: int) -> int:
    """:func:`get` read atomically, for a thread waiting on another's writes."""
    return get(state, ix)


def put_new(state: Any, ix: int, v: int) -> bool:
    """:func:`put`, atomically; whether *ix* was unknown before (two threads may solve
    the same position, with the same value: one of them counts it)."""
    new = get(state, ix) < 0
    put(state, ix, v)
    return new


@overload(known)
def _known_impl(state: Any, ix: Any) -> Any:
    if _packed(state):

        def impl(state: Any, ix: Any) -> Any:  # pragma: no cover - compiled
            c = (_load(state, ix >> 5) >> np.uint64((ix & 31) << 1)) & np.uint64(3)
            return np.int64(c >> np.uint64(1)) if c else np.int64(-1)

        return impl

    def plain(state: Any, ix: Any) -> Any:  # pragma: no cover - compiled
        return np.int64(_load(state, ix))

    return plain


@overload(put_new)
def _put_new_impl(state: Any, ix: Any, v: Any) -> Any:
    if _packed(state):

        def impl(state: Any, ix: Any, v: Any) -> Any:  # pragma: no cover - compiled
            shift = np.uint64((ix & 31) << 1)
            old = _atomic_put(state, ix >> 5, np.uint64(1 | (v << 1)) << shift)
            return (old >> shift) & np.uint64(1) == 0

        return impl

    def plain(state: Any, ix: Any, v: Any) -> Any:  # pragma: no cover - compiled
        return _atomic_put(state, ix, v) < 0

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
) -> tuple[int, int, Any]:  # pragma: no cover - compiled
    """The value of *p* from its options' values (-1: an option is unknown, the third
    item that option, or *p* when the option is outside the array), and the number of
    options (grundy: the mex needs ``seen`` longer than it). No array beyond those of
    the old kernel is passed: each is a reference count changed twice a call."""
    nopt = 0
    for o in gen(p):
        nopt += 1
        c = key(o, True)
        ci = rank(c, True, side, cb)
        if ci < 0:
            return -1, nopt, p
        v = get(state, ci)
        if v < 0:
            return -1, nopt, c
        if kind == 0:
            if v < seen.shape[0]:
                seen[v] = stamp
        elif v == 0:  # a P option: N
            return 1, nopt, p
    if kind != 0:
        return (1 if kind == 2 else 0) if nopt == 0 else 0, nopt, p
    if nopt >= seen.shape[0]:
        return -2, nopt, p  # the mex again with a longer seen
    m = 0
    while seen[m] == stamp:
        m += 1
    return m, nopt, p


@njit
def _pending(o: Any, lo: int, flow: Any) -> int:  # pragma: no cover - compiled
    """The level (from ``flow[0]``) of option *o*, unknown when read, if it is a position
    of a level below the caller's (``flow[1]``) that may still be being solved by
    another thread (the levels are not separated by barriers: :func:`solve_levels`),
    else -1 (it stays unknown: the caller's position is deferred)."""
    first, lvl, hi = flow[0], flow[1], flow[2]
    t = 0
    for x in o:
        t += x
    ol = t - first
    if ol < 0 or ol >= lvl or o[0] < lo or o[len(o) - 1] > hi:
        return -1
    return int(ol)


@njit
def _await(state: Any, ci: int, ol: int, flow: Any) -> bool:  # pragma: no cover - compiled
    """Whether position *ci* of level *ol* is known once another thread has solved it or
    every task of its level is done (a rare spin: the thread solving it is in the
    middle of that task)."""
    done, bounds = flow[3], flow[4]
    need = bounds[ol + 1] - bounds[ol]
    while known(state, ci) < 0:
        if _load(done, ol) >= need:
            return known(state, ci) >= 0
    return True


@njit
def _solve_at(
    gen: Any,
    p: Any,
    ix: int,
    state: Any,
    side: int,
    cb: Any,
    kind: int,
    lo: int,
    seen: Any,
    stamp: int,
    flow: Any,
    miss: Any,
) -> tuple[int, Any, int]:  # pragma: no cover - compiled
    """The value of position *p* (rank *ix*) of :func:`_task`, whose option *miss* was
    unknown when read (*p* itself: an option outside the array) (-1: an option stays unknown), and the mex's ``seen`` and
    ``stamp`` after it. An option of a level that another thread is still solving
    (:func:`_pending`) is solved here first when its own options are known (the same
    value, written by both threads: one counts it), else awaited."""
    target = p
    at = ix
    ol = -1
    v = -1
    while True:
        if at == ix:  # p's option miss was unknown
            o = miss
            ol = _pending(o, lo, flow)  # -1 for p itself (its own level)
            if ol < 0:
                return -1, seen, stamp
            target = o
            at = rank(o, True, side, cb)
        elif v >= 0:
            if put_new(state, at, v):
                flow[5][0] += 1
            target = p
            at = ix
        elif _await(state, at, ol, flow):
            target = p
            at = ix
        else:
            return -1, seen, stamp  # the option stays unknown: the position is deferred
        while True:
            stamp += 1
            v, nopt, miss = _value(gen, target, state, side, cb, kind, seen, stamp)
            if v != -2:
                break
            seen = np.zeros(2 * nopt + 2, np.int64)
            stamp = 0
        if at == ix and v != -1:
            return v, seen, stamp


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
    top: int,
    second: int,
    n: int,
    q: int,
    k: int,
    flow: Any,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The positions of level *total* whose largest heaps are *top*, *second* (of
    :func:`prefixes`): ``(solved, deferred)``; an option that another thread is solving
    is solved here or awaited (*flow*: the first level, this task's, the largest heap,
    each level's tasks done and bounds, this thread's count of positions solved for
    others, whether other threads run)."""
    seen = np.zeros(64, np.int64)
    stamp = 0
    solved = 0
    deferred = 0
    a = np.empty(max(k, 1), np.int64)
    rem = np.empty(max(k, 1), np.int64)
    p = setitem(zero, n - 1, top)
    cap = top
    r = total - top
    if q == 2:
        p = setitem(p, n - 2, second)
        cap = second
        r -= second
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
            v, nopt, miss = _value(gen, p, state, side, cb, kind, seen, stamp)
            if v != -2:
                break
            seen = np.zeros(2 * nopt + 2, np.int64)
            stamp = 0
        if v == -1 and flow[6]:  # an option unknown: another thread may be solving it
            v, seen, stamp = _solve_at(
                gen, p, ix, state, side, cb, kind, lo, seen, stamp, flow, miss
            )
        if v < 0:
            deferred += 1
        elif not flow[6]:  # one thread: nobody else writes
            put(state, ix, v)
            solved += 1
        elif put_new(state, ix, v):  # else another thread solved it (:func:`_pending`)
            solved += 1
    return solved, deferred


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


@njit(cache=True)
def _all_tasks(
    given: Any, n: int, lo: int, hi: int, first: int, last: int
) -> Any:  # pragma: no cover - compiled
    """The tasks of levels ``first..last`` (the one level *given*, if any), one level after
    the other, each level's in the order they are handed out (from the end when
    :func:`largest_last`): ``(tasks, bounds, rows)``, level ``first + i`` from
    ``bounds[i]`` to ``bounds[i + 1]``, ``rows[g]`` the row of task *g* in its level."""
    nlev = last - first + 1
    bounds = np.empty(nlev + 1, np.int64)
    bounds[0] = 0
    for i in range(nlev):
        m = given.shape[0] if given.shape[0] else prefixes(n, lo, hi, first + i).shape[0]
        bounds[i + 1] = bounds[i] + m
    tasks = np.empty((bounds[nlev], 2), np.int64)
    rows = np.empty(bounds[nlev], np.int64)
    for i in range(nlev):
        level = given if given.shape[0] else prefixes(n, lo, hi, first + i)
        m = level.shape[0]
        back = largest_last(level, n, lo, first + i)
        for j in range(m):
            src = m - 1 - j if back else j
            tasks[bounds[i] + j, 0] = level[src, 0]
            tasks[bounds[i] + j, 1] = level[src, 1]
            rows[bounds[i] + j] = src
    return tasks, bounds, rows


@njit
def _drain(
    gen: Any,
    zero: Any,
    state: Any,
    side: int,
    cb: Any,
    kind: int,
    lo: int,
    hi: int,
    first: int,
    work: Any,
    counters: Any,
    per: Any,
    shared: bool,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """One thread of :func:`solve_levels`: the next task, of every level in turn, until
    none is left (or, without *per*, a position was deferred): ``(solved, deferred)``.
    *work*: ``(tasks, bounds, rows)`` of :func:`_all_tasks`; *counters*: each level's
    tasks done and positions solved, the next task, whether to stop; *per*: each
    given task's ``(solved, deferred)`` (by its row), or no rows; *shared*: whether
    other threads run."""
    tasks, bounds, rows = work
    done, level_solved, handed, stopped = counters
    n = len(zero)
    q = 2 if n > 2 else 1
    sums = np.zeros(1, np.int64)  # positions this thread solved for another's task
    deferred = 0
    solved = 0
    lvl = 0
    while _load(stopped, 0) == 0:
        g = _fetch_add(handed, 1)  # a task taken is always done: others may await it
        if g >= tasks.shape[0]:
            break
        while g >= bounds[lvl + 1]:
            lvl += 1
        flow = (first, lvl, hi, done, bounds, sums, shared)
        got, waiting = _task(
            gen, zero, state, side, cb, kind, lo, first + lvl, tasks[g, 0], tasks[g, 1],
            n, q, n - q, flow,
        )  # fmt: skip
        solved += got
        deferred += waiting
        if per.shape[0]:
            per[rows[g], 0] = got
            per[rows[g], 1] = waiting
        elif waiting:
            stopped[0] = 1
        _add_at(level_solved, lvl, got)
        _add_at(done, lvl, 1)  # after the task's writes (an atomic release)
    return solved + sums[0], deferred


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
    """Solve the sorted positions of ``first..last`` stones (heaps ``lo..hi``), the levels
    (numbers of stones) in one parallel loop with no barrier between them: the threads
    take the tasks of all levels in turn from one counter; a thread that needs a
    position of a level still being solved (a task another thread took just before)
    solves it itself when it can, else waits for it. Nothing waits for a level to end,
    so a thread that the system stops for a moment holds up only the positions that
    need its task's, not every level after it (:func:`_pending`).

    With *tasks* (rows), the one level ``first`` of those tasks: ``counts[t, 0]``
    positions of task *t* solved, ``counts[t, 1]`` deferred (an option unknown).
    Without (no rows), each level's tasks from :func:`prefixes`, ``counts[0]`` the sums
    (solved, deferred), no task taken after a deferred position. One level (a progress
    bar) runs on one thread (no other woken) when the level before it had fewer than
    *least* positions to solve (*work* the one before *first*). ``kind``: 0 Grundy
    values, 1 normal outcome, 2 misère outcome. Returns the positions solved in the
    last level.
    """
    given = tasks.shape[0] > 0
    most = get_num_threads()
    work_of = _all_tasks(tasks, len(zero), lo, hi, first, last)
    nlev = last - first + 1
    # not np.zeros: numba makes that a parallel loop of its own, and a counter was found
    # not zeroed when a level had one task
    done = np.empty(nlev, np.int64)  # each level's tasks done
    level_solved = np.empty(nlev, np.int64)
    for i in range(nlev):
        done[i] = 0
        level_solved[i] = 0
    handed = np.empty(1, np.int64)  # the next task to hand out
    handed[0] = 0
    stopped = np.empty(1, np.int64)  # a deferred position: no task taken after it
    stopped[0] = 0
    counters = (done, level_solved, handed, stopped)
    per = counts if given else np.empty((0, 2), np.int64)
    # this thread's number of threads: one for a level after a small one (none woken)
    here = most if given or first < last or work >= least else 1
    _set_threads(here)
    workers = max(1, min(here, work_of[0].shape[0]))
    out = np.empty((workers, 2), np.int64)
    for w in prange(workers):  # one loop per thread; each takes the next task
        got = _drain(
            gen, zero, state, side, cb, kind, lo, hi, first, work_of, counters, per, workers > 1
        )
        out[w, 0] = got[0]
        out[w, 1] = got[1]
    _set_threads(most)
    if not given:
        for w in range(workers):
            counts[0, 0] += out[w, 0]
            counts[0, 1] += out[w, 1]
    return int(level_solved[nlev - 1])


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
