"""The compiled generic solver kernel: memoised search over a game's compiled move model.

One kernel serves every heap game that provides ``compiled_options`` (a numba generator
of options, see :meth:`nimlab.core.ruleset.HeapRuleset.compiled_options`), for any number
of heaps: it is specialised by numba for the generator and the tuple length.

Positions live in a dense value array: order-free games (heap order irrelevant) index the
sorted heaps ``a0 <= ... <= a(n-1) < N`` by the combinatorial number system
(``sum C(a_i + i, i + 1)``, independent of ``N``, so the array can grow), other games by
the mixed radix ``N``. An option outside the array (a move that raises a heap) stops the
search with its position, and the caller grows the array and runs again, so those games
are solved exactly too. The search is an explicit stack with the
options still unknown kept in a stack of tuples, so games whose moves only lower heaps
take one pass over the options per position and no descent; outcome searches stop at the
first P option. These are internal functions: :mod:`nimlab.engine.compiled` allocates,
budgets and reports progress.

Per option, the hot loop does no more than the move function's own work plus a few
branch-free instructions: the key of an option (its heaps sorted by a sorting network of
``min``/``max`` for order-free games) and its rank are straight-line code generated for
each number of heaps (:func:`key`, :func:`rank`, the file :mod:`._keyrank`), with no
scratch array, and known options take one predictable branch to the mex stamp.

Compile cost: numba compiles :func:`solve` once per move model and number of heaps (the
position is a tuple), so only the loop over a position's options stays in it. The rest of
the search (the stacks, a frame's entry, its second scan, the value) is in small
functions with ``cache=True``, and so are the keys and ranks: each is compiled once per
machine and signature and shared by every move model's kernel, which calls them (LLVM
still inlines them into the kernel). numba's IR inlining (``inline="always"``) typed them
again in every kernel: 3.2-3.9 s of CPU per kernel before, 1.6-2.0 s after (see
docs/PERFORMANCE.md). Calls pass int64 variables, never literals: a literal argument
compiles a helper once more for its literal type.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import intrinsic, overload

from nimlab.engine import _fastload

_fastload.install()  # load cached kernels without numba's compiler set-up

__all__: list[str] = []

setitem: Any = tuple_setitem

UNKNOWN = -1
ONSTACK = -2

# error codes returned by solve()
OK = 0
LOOP = 1
NEGATIVE = 2
OUTSIDE = 3

#: Sorting networks (compare-exchange pairs) for 1 to 6 heaps, of the optimal size.
NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    1: (),
    2: ((0, 1),),
    3: ((0, 2), (0, 1), (1, 2)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)),
    6: (
        (1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4),
        (2, 5), (0, 3), (1, 4), (2, 4), (1, 3), (2, 3),
    ),
}  # fmt: skip


def _helpers_source(n: int) -> list[str]:
    """Straight-line Python for *n* heaps: the canonical key of an option (its heaps as
    int64, sorted when order-free, by a sorting network of branch-free min/max) and its
    rank in the dense array (-1: a negative heap; -2: a heap >= side)."""
    a = [f"a{i}" for i in range(n)]
    tup = "(" + ", ".join(a) + ",)"
    load = "    " + ", ".join(a) + " = " + ", ".join(f"int64(o[{i}])" for i in range(n))
    sort = [load]
    for i, j in NETWORKS[n]:
        sort.append(f"    a{i}, a{j} = min(a{i}, a{j}), max(a{i}, a{j})")
    lo = "min(" + ", ".join(a) + ")" if n > 1 else "a0"
    hi = "max(" + ", ".join(a) + ")" if n > 1 else "a0"
    horner = "a0"
    for i in range(1, n):
        horner = f"({horner}) * side + a{i}"
    unpack = "    " + ", ".join(a) + " = " + ", ".join(f"k[{i}]" for i in range(n))
    return [
        *("", "", "@njit(cache=True)", f"def key_free_{n}(o):", *sort, f"    return {tup}"),
        *("", "", "@njit(cache=True)", f"def key_ordered_{n}(o):", load, f"    return {tup}"),
        *("", "", "@njit(cache=True)", f"def rank_free_{n}(k, side, cb):", unpack),
        *("    if a0 < 0:", "        return -1", f"    if a{n - 1} >= side:", "        return -2"),
        "    return " + " + ".join(f"cb[{i}, a{i}]" for i in range(n)),
        *("", "", "@njit(cache=True)", f"def rank_ordered_{n}(k, side, cb):", unpack),
        *(f"    if {lo} < 0:", "        return -1", f"    if {hi} >= side:", "        return -2"),
        f"    return {horner}",
    ]


def keyrank_source() -> str:
    """The text of :mod:`nimlab.engine._keyrank` (the file is this text: a test checks)."""
    head = [
        '"""Keys and ranks of options for 1 to 6 heaps, straight-line code (generated by',
        ":func:`nimlab.engine._generic.keyrank_source`: do not edit, a test compares).",
        "",
        "Functions of a real file with ``cache=True``: compiled once per machine and shared",
        "by the solve kernel of every move model (:func:`nimlab.engine._generic.key`,",
        ':func:`~nimlab.engine._generic.rank`)."""',
        "",
        "# ruff: noqa",
        "# mypy: ignore-errors",
        "from numba import njit",
        "from numpy import int64",
        "",
        "# fmt: off",
    ]
    body = [line for n in NETWORKS for line in _helpers_source(n)]
    return "\n".join(head + body) + "\n"


def _helpers(n: int) -> dict[str, Any]:
    """The compiled key and rank functions of *n* heaps (:mod:`._keyrank`)."""
    from nimlab.engine import _keyrank

    names = ("key_free", "key_ordered", "rank_free", "rank_ordered")
    return {name: getattr(_keyrank, f"{name}_{n}") for name in names}


_HELPERS = {n: _helpers(n) for n in NETWORKS}


def key(o: Any, order_free: bool) -> Any:
    """The canonical key of option *o*: int64 heaps, sorted when *order_free* (compiled)."""
    return tuple(sorted(int(x) for x in o)) if order_free else tuple(int(x) for x in o)


def rank(k: Any, order_free: bool, side: int, cb: Any) -> int:
    """The index of key *k* in the dense array (-1: negative heap, -2: a heap >= side)."""
    if min(k) < 0:
        return -1
    if max(k) >= side:
        return -2
    if order_free:
        return int(sum(cb[i, h] for i, h in enumerate(k)))
    r = 0
    for h in k:
        r = r * side + h
    return r


@overload(key)
def _key_impl(o: Any, order_free: Any) -> Any:
    if not isinstance(o, types.BaseTuple) or len(o) not in _HELPERS:
        return None
    h = _HELPERS[len(o)]
    key_free, key_ordered = h["key_free"], h["key_ordered"]

    def impl(o: Any, order_free: Any) -> Any:  # pragma: no cover - compiled
        return key_free(o) if order_free else key_ordered(o)

    return impl


@overload(rank)
def _rank_impl(k: Any, order_free: Any, side: Any, cb: Any) -> Any:
    if not isinstance(k, types.BaseTuple) or len(k) not in _HELPERS:
        return None
    h = _HELPERS[len(k)]
    rank_free, rank_ordered = h["rank_free"], h["rank_ordered"]

    def impl(k: Any, order_free: Any, side: Any, cb: Any) -> Any:  # pragma: no cover
        return rank_free(k, side, cb) if order_free else rank_ordered(k, side, cb)

    return impl


@njit(cache=True)
def _load(buf: Any, k: int, zero: Any) -> Any:  # pragma: no cover - compiled
    t = zero
    for i in range(len(zero)):
        t = setitem(t, i, buf[k, i])
    return t


def _copy_into_typed(typingctx: Any, dst: Any, src: Any) -> Any:
    """``dst``'s first ``src.size`` items become ``src``'s, as one ``memcpy`` (C-contiguous
    arrays of one dtype, *dst* at least as large: the caller's promise).

    Neither ``b[: len(a)] = a`` (numba compiles a slice copy with the text of its
    shape-mismatch error: string formatting, seconds of compilation in every process) nor
    a loop (LLVM vectorises it into 1,100 lines of IR, a third of a solve kernel's module,
    optimised again in every kernel that links the helper): this is one call."""
    ok = (
        isinstance(dst, types.Array)
        and isinstance(src, types.Array)
        and dst.layout == src.layout == "C"
        and dst.dtype == src.dtype
    )
    if not ok:
        return None

    memcpy: Any = cgutils.raw_memcpy

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        d = context.make_array(sig.args[0])(context, builder, args[0])
        s = context.make_array(sig.args[1])(context, builder, args[1])
        memcpy(builder, d.data, s.data, s.nitems, s.itemsize)
        return context.get_dummy_value()

    return types.void(dst, src), codegen


_copy_into: Any = intrinsic(_copy_into_typed)


@njit(cache=True)
def _grow2(a: Any, need: int) -> Any:  # pragma: no cover - compiled
    """*a* with room for row *need* (twice the rows, or more)."""
    if need < a.shape[0]:
        return a
    b = np.empty((max(2 * a.shape[0], need + 1), a.shape[1]), a.dtype)
    _copy_into(b, a)  # the rows of a are the first of b (C order, as many columns)
    return b


#: :func:`_settle`: the array of seen values is too small for the mex (grow it, scan again)
REGROW = -3


@njit(cache=True)
def _zeros(n: int) -> Any:  # pragma: no cover - compiled
    """*n* int64 zeros (the values seen by a mex)."""
    return np.zeros(n, np.int64)


# Columns of a frame (a row of the frames' stack, after the position's n heaps): its
# position's index, the start, count and cursor of its unknown options (start -1: not
# scanned yet). A row of the stack of unknown options: the option's heaps, then its index.
# One array each, not one per column: every array a kernel holds costs numba's IR
# reference counts at each call and assignment, and LLVM time to compile them away.
IX, START, COUNT, CURSOR = 0, 1, 2, 3


@njit(cache=True)
def _stacks(n: int) -> Any:  # pragma: no cover - compiled
    """The frames' stack and the stack of unknown options (they grow on demand), and
    the values seen by a mex."""
    return np.empty((64, n + 4), np.int64), np.empty((1024, n + 1), np.int64), _zeros(64)


@njit(cache=True)
def _enter(frames: Any, depth: int, src: Any, row: int, ix: int) -> None:  # pragma: no cover
    """Frame *depth*: the position ``src[row]`` of index *ix*, not scanned yet."""
    n = frames.shape[1] - 4
    for i in range(n):
        frames[depth, i] = src[row, i]
    frames[depth, n + IX] = ix
    frames[depth, n + START] = -1


@njit(cache=True)
def _start(frames: Any, src: Any, row: int, ix: int) -> Any:  # pragma: no cover - compiled
    """Frame 0: the start position ``src[row]`` of index *ix*; the depth of the frames and
    the top of the stack of unknown options after it, as int64, not the literals 1 and 0
    (a literal argument compiles the helper it is passed to once more, for its type)."""
    depth: Any = np.int64(1)
    otop: Any = np.int64(0)
    _enter(frames, otop, src, row, ix)
    return depth, otop


@njit(cache=True)
def _frame(frames: Any, f: int) -> Any:  # pragma: no cover - compiled
    """Frame *f*'s position index and the start of its unknown options (-1: not scanned)."""
    n = frames.shape[1] - 4
    return frames[f, n + IX], frames[f, n + START]


@njit(cache=True)
def _open(frames: Any, f: int, otop: int) -> int:  # pragma: no cover - compiled
    """Frame *f*'s first scan: its unknown options will start at *otop* (returned)."""
    n = frames.shape[1] - 4
    frames[f, n + START] = otop
    frames[f, n + COUNT] = 0
    frames[f, n + CURSOR] = 0
    return otop


@njit(cache=True)
def _keep(opts: Any, otop: int, c: Any, ci: int) -> Any:  # pragma: no cover - compiled
    """The stack of unknown options with option *c* (index *ci*) at *otop*."""
    opts = _grow2(opts, otop)
    n = opts.shape[1] - 1
    for i in range(n):
        opts[otop, i] = c[i]
    opts[otop, n] = ci
    return opts


@njit(cache=True)
def _report(report: Any, c: Any) -> None:  # pragma: no cover - compiled
    """The position *c* (its first n entries) an error code is about, in ``report[:n]``."""
    for i in range(report.shape[0] - 1):
        report[i] = c[i]


@njit(cache=True)
def _resume(
    state: Any, opts: Any, base: int, frames: Any, f: int, kind: int, report: Any
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Frame *f* goes on with the options its first scan left unknown (from its cursor):
    ``(child, result, code)``, *child* the row of the next one still unknown, or *result*
    1 at a P option and 0 when every option is N (outcomes; Grundy values: -1, the mex
    is scanned again); *code* LOOP at an option on the stack."""
    n = opts.shape[1] - 1
    child = -1
    result = -1
    k = frames[f, n + CURSOR]
    while k < frames[f, n + COUNT]:
        v = state[opts[base + k, n]]
        if v == UNKNOWN:
            child = base + k
            break
        if v == ONSTACK:
            _report(report, opts[base + k])
            return child, result, LOOP
        if kind != 0 and v == 0:
            result = 1
            break
        k += 1
    frames[f, n + CURSOR] = k
    if child < 0 and result < 0 and kind != 0:
        result = 0
    return child, result, OK


@njit(cache=True)
def _settle(
    first: bool, unknown: int, kind: int, nopt: int, seen: Any, stamp: int, frames: Any, f: int
) -> int:  # pragma: no cover - compiled
    """After a scan of frame *f* that found no P option: -1 when it is a first scan that
    left *unknown* > 0 options unknown (counted in the frame), else the value: the
    outcome, or the mex of the values stamped in *seen* (REGROW: *seen* is too small)."""
    if first and unknown > 0:
        frames[f, frames.shape[1] - 4 + COUNT] = unknown
        return -1
    if kind != 0:
        return (1 if kind == 2 else 0) if nopt == 0 else 0
    if nopt >= seen.shape[0]:
        return REGROW
    m = 0
    while seen[m] == stamp:
        m += 1
    return m


@njit
def solve(
    gen: Any,
    zero: Any,
    starts: Any,
    start_ix: Any,
    state: Any,
    order_free: bool,
    side: int,
    cb: Any,
    kind: int,
    report: Any,
) -> int:  # pragma: no cover - compiled
    """Solve every position of *starts* (canonical rows, indices *start_ix*) and below.

    ``kind``: 0 Grundy values, 1 normal outcome, 2 misère outcome (stored as 0 for P, 1
    for N). Returns an error code; ``report[:n]`` gets the position of a loop, a negative
    heap or an option outside the array, ``report[n]`` the number of positions solved.
    """
    frames, opts, seen = _stacks(report.shape[0] - 1)
    nseen = seen.shape[0]
    stamp = solved = 0
    for s in range(starts.shape[0]):
        if state[start_ix[s]] != UNKNOWN:
            continue
        depth, otop = _start(frames, starts, s, start_ix[s])
        while depth > 0:
            f = depth - 1
            pix, base = _frame(frames, f)
            result = child = -1
            if base >= 0:  # the options that were unknown at the first scan
                child, result, code = _resume(state, opts, base, frames, f, kind, report)
                if code != OK:
                    return code
            if base < 0 or (child < 0 and result < 0):  # first scan, or the mex again
                first = base < 0
                if first:
                    state[pix] = ONSTACK
                    base = _open(frames, f, otop)
                nopt = 0
                stamp += 1
                for o in gen(_load(frames, f, zero)):
                    nopt += 1
                    c = key(o, order_free)
                    ci = rank(c, order_free, side, cb)
                    if ci < 0:
                        _report(report, c)
                        return NEGATIVE if ci == -1 else OUTSIDE
                    v = state[ci]
                    if v >= 0:  # known: the usual case
                        if kind == 0:
                            if v < nseen:
                                seen[v] = stamp
                        elif v == 0:  # a P option: N
                            result = 1
                            break
                    elif v != UNKNOWN:  # on the stack
                        _report(report, c)
                        return LOOP
                    elif first:
                        opts = _keep(opts, otop, c, ci)
                        otop += 1
                if result < 0:
                    result = _settle(first, otop - base, kind, nopt, seen, stamp, frames, f)
                if result == REGROW:  # the mex again, with room for every value
                    seen, stamp = _zeros(2 * nopt + 2), 0
                    nseen = seen.shape[0]
                    continue
            if result >= 0:
                state[pix] = result
                solved, otop, depth = solved + 1, base, depth - 1
                continue
            if child < 0:
                child = base  # first unknown option (after a first scan)
                if state[opts[child, len(zero)]] != UNKNOWN:
                    continue
            frames = _grow2(frames, depth)
            _enter(frames, depth, opts, child, opts[child, len(zero)])
            depth += 1
    report[len(zero)] = solved
    return OK


@njit(cache=True)
def expand(
    out: Any, zero: Any, dims: Any, state: Any, order_free: bool, side: int, cb: Any
) -> None:  # pragma: no cover - compiled
    """Fill the box ``out`` (flat, C order over *dims*) from the dense value array."""
    n = len(zero)
    t = zero
    total = out.shape[0]
    for k in range(total):
        out[k] = state[rank(key(t, order_free), order_free, side, cb)]
        i = n - 1
        while i >= 0:
            if t[i] + 1 < dims[i]:
                t = setitem(t, i, t[i] + 1)
                break
            t = setitem(t, i, 0)
            i -= 1


@njit(cache=True)
def multisets(lo: int, side: int, first: Any, count: int, cb: Any) -> Any:  # pragma: no cover
    """*count* sorted rows of heaps from the row ``first[0]`` on in colex order (entries
    ``lo..side-1``), and their indices (colex ranks, ``sum cb[i, row[i]]``). Rows of an
    array, not tuples: one compilation serves every number of heaps."""
    n = first.shape[1]
    out = np.empty((count, n), np.int64)
    ix = np.empty(count, np.int64)
    t = np.empty(n, np.int64)
    for i in range(n):
        t[i] = first[0, i]
    for k in range(count):
        r = 0
        for i in range(n):
            out[k, i] = t[i]
            r += cb[i, t[i]]
        ix[k] = r
        i = 0
        while i < n:
            limit = t[i + 1] if i + 1 < n else side - 1
            if t[i] < limit:
                t[i] += 1
                for j in range(i):
                    t[j] = lo
                break
            i += 1
    return out, ix
