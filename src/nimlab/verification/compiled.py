"""Compiled local check for heap games of any number of heaps (numba).

The game gives its options through the ``compiled_options`` hook (a numba generator over
``int64`` heap tuples); the claim is either compiled itself (a theorem's scalar claim, or
a user's Python function that numba can compile) or, for an expression, evaluated once
over the whole box with numpy into a table the kernel reads. The kernel walks one chunk
of a :class:`~nimlab.verification.spaces.BoxSpace` or
:class:`~nimlab.verification.spaces.SortedBoxSpace` in the space's own order and applies
the local rule (mex rule, or the P/N rules) at every position; at the first failure it
stops and the failure is re-derived by the exact Python check
(:func:`~nimlab.verification.local.check_position`), so the compiled path can only be
faster, never differently right: when the two disagree the chunk is redone in Python.

Everything here imports numba; :mod:`nimlab.verification.chunks` imports this module only
when a spec asks for the compiled path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem

from nimlab.core.errors import NimlabError
from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.verification.local import Failure, check_position
from nimlab.verification.spaces import BoxSpace, SortedBoxSpace

__all__ = ["compiled_chunk", "compiled_claim", "supports_compiled", "warm_up_compiled"]

_setitem: Any = tuple_setitem
KIND_CODES = {"grundy": 0, "p-set": 1, "misere-p-set": 2}
#: Largest box whose expression table is built (int64 cells).
MAX_TABLE_CELLS = 1 << 26
#: Largest table (a box, or one cell per multiset), and most positions, whose claim is
#: tabulated by calling it in Python (128 MB of int64 cells; about 16 million calls,
#: a minute or two).
MAX_TABULATED_CELLS = 1 << 24
MAX_TABULATED_POSITIONS = 1 << 24
_LOCK = threading.Lock()
_CLAIMS: dict[Any, Any] = {}


@njit(inline="always")
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


@njit(inline="always")
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


@njit(inline="always")
def _next_box(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
    i = len(h) - 1
    while i >= 0:
        if h[i] + 1 < bound:
            return _setitem(h, i, h[i] + 1)
        h = _setitem(h, i, low)
        i -= 1
    return h


def _make_kernels(sorted_space: bool) -> tuple[Any, Any]:
    """The mex-rule and P/N-rule kernels for a sorted space or a box (*sorted_space* is a
    constant of the compiled code: each kernel compiles only the walk it uses)."""

    @njit(inline="always")
    def advance(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
        if sorted_space:
            return _next_sorted(h, low)
        return _next_box(h, low, bound)

    @njit(inline="always")
    def canon(q: Any) -> Any:  # pragma: no cover - compiled
        if sorted_space:
            return _sorted(q)
        return q

    @njit
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
                for i in range(len(q)):
                    if q[i] < low or q[i] >= bound:
                        return 2, k
                g = np.int64(claim(canon(q), table, radix))
                if g == f:
                    return 1, k
                if 0 <= g < f:
                    seen[g] = stamp
            for v in range(f):
                if seen[v] != stamp:
                    return 1, k
            h = advance(h, low, bound)
        return 0, count

    @njit
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
    ) -> Any:  # pragma: no cover - compiled
        for k in range(count):
            f = claim(h, table, radix)
            terminal = True
            found = False
            for q in gen(h):
                terminal = False
                for i in range(len(q)):
                    if q[i] < low or q[i] >= bound:
                        return 2, k
                if claim(canon(q), table, radix) != 0:
                    found = True
                    if f == 0:
                        break
                    return 1, k
            if misere and terminal:
                if f != 0:
                    return 1, k
            elif f == 0 and not found:
                return 1, k
            h = advance(h, low, bound)
        return 0, count

    return grundy, pset


_KERNELS = {True: _make_kernels(True), False: _make_kernels(False)}


def _kernel(
    gen: Any,
    claim: Any,
    table: Any,
    radix: Any,
    h: Any,
    count: int,
    sorted_space: bool,
    low: int,
    bound: int,
    kind: int,
) -> Any:
    """``(status, index)``: 0 all hold, 1 the rule fails at position *index*, 2 an option
    leaves the space, 3 a claimed value is not an integer >= 0. Grundy claims and P-set
    claims have kernels of their own (each compiled only when used: less to compile)."""
    grundy, pset = _KERNELS[bool(sorted_space)]
    if kind == 0:
        return grundy(gen, claim, table, radix, h, count, low, bound)
    return pset(gen, claim, table, radix, h, count, low, bound, kind == 2)


def _wrap_scalar(fn: Any, spread: bool) -> Any:
    """A claim ``c(h, table, radix)`` calling the compiled *fn* on the heaps."""
    jf = njit(fn)
    if spread:

        @njit
        def c(h: Any, table: Any, radix: Any) -> Any:  # pragma: no cover - compiled
            return jf(*h)

    else:

        @njit
        def c(h: Any, table: Any, radix: Any) -> Any:  # pragma: no cover - compiled
            return jf(h)

    return c


@njit
def _table_claim(h: Any, table: Any, radix: Any) -> Any:  # pragma: no cover - compiled
    idx = 0
    for i in range(len(h)):
        idx += (h[i] - radix[0]) * radix[i + 1]
    return table[idx]


def _scalar_of(claim: Any) -> tuple[Callable[..., Any], bool] | None:
    """The plain function behind a claim, and whether it takes the heaps spread."""
    got = claim.scalar() if hasattr(claim, "scalar") else None
    return got if got is None else (got[0], bool(got[1]))


def compiled_claim(spec: Any) -> tuple[Any, Any, Any] | None:
    """``(claim, table, radix)`` for the kernel, or None when the claim cannot be compiled.

    A scalar claim is compiled with numba (and called once, to be sure it compiles); an
    expression is tabulated over the box (at most :data:`MAX_TABLE_CELLS` cells).
    """
    from nimlab.verification.local import ExprClaim

    key = (spec.key(), "claim")
    with _LOCK:
        hit = _CLAIMS.get(key)
    if hit is not None:
        return None if hit is False else hit
    sp = spec.space
    n, low, bound = sp.n_heaps, sp.low, sp.bound
    radix = np.zeros(n + 1, dtype=np.int64)
    radix[0] = low
    span = bound - low
    for i in range(n):
        radix[i + 1] = span ** (n - 1 - i)
    dummy = np.zeros(1, dtype=np.int64)
    out: Any = False
    if isinstance(spec.claim, ExprClaim):
        cells = span**n
        fn = spec.claim.vectorised(spec.game, bound)
        if fn is not None and cells <= MAX_TABLE_CELLS:
            grids = np.indices((span,) * n, dtype=np.int64).reshape(n, -1) + low
            vals = np.asarray(fn(*grids))
            table = np.ascontiguousarray(np.broadcast_to(vals, (cells,)), dtype=np.int64)
            out = (_table_claim, table, radix)
    else:
        got = _scalar_of(spec.claim)
        if got is not None:
            try:
                c = _wrap_scalar(*got)
                v = c((low,) * n, dummy, radix)
                int(v)
                out = (c, dummy, radix)
            except Exception:  # numba cannot compile it: tabulate, or the Python path
                out = False
        if out is False:
            out = _tabulate(spec, radix) or False
    with _LOCK:
        _CLAIMS[key] = out
    return None if out is False else out


@njit
def _rank_claim(h: Any, table: Any, binom: Any) -> Any:  # pragma: no cover - compiled
    """The tabulated value of a non-decreasing *h* at its rank among the multisets
    (``binom[n, 0]`` holds the space's lowest heap)."""
    n = len(h)
    low = binom[n, 0]
    r = 0
    for i in range(n):
        r += binom[i, h[i] - low + i]
    return table[r]


def _multiset_ranks(n: int, low: int, bound: int) -> Any:
    """``binom[i, c] = C(c, i+1)``: the colex rank of a non-decreasing tuple ``h`` of *n*
    heaps in ``[low, bound)`` is the sum of ``binom[i, h[i] - low + i]``."""
    from math import comb

    width = bound - low + n
    binom = np.zeros((n + 1, width), dtype=np.int64)
    for i in range(n):
        for c in range(width):
            binom[i, c] = comb(c, i + 1)
    binom[n, 0] = low
    return binom


def _tabulate(spec: Any, radix: Any) -> tuple[Any, Any, Any] | None:
    """``(claim, table, index)``: the claim's own Python values at every position of the
    space, in a table the kernel reads (a box table, or one cell per multiset for a
    :class:`SortedBoxSpace`: options there are sorted first), or None when the space is
    too large or a value is not an integer.

    This is how a claim without a compiled form (a ruleset's closed form hook such as
    ``closed_is_p``, a theorem's Python claim) still runs on the compiled path: the exact
    code users call is evaluated once per position, and the kernel walks the moves.
    """
    sp = spec.space
    n, low, bound = sp.n_heaps, sp.low, sp.bound
    by_rank = isinstance(sp, SortedBoxSpace)
    cells = int(sp.size) if by_rank else (bound - low) ** n
    if cells > MAX_TABULATED_CELLS or int(sp.size) > MAX_TABULATED_POSITIONS:
        return None
    table = np.zeros(max(cells, 1), dtype=np.int64)
    value = spec.claim.value
    game = spec.game
    if by_rank:
        index = _multiset_ranks(n, low, bound)
        rows = [[int(x) for x in index[i]] for i in range(n)]
    else:
        index = radix
        steps = [int(r) for r in radix[1:]]
    try:
        for i in range(sp.n_chunks):
            for pos in sp.chunk(i):
                v = value(game, pos)
                if v is None or isinstance(v, float) or int(v) != v:
                    return None
                idx = 0
                if by_rank:
                    for j, h in enumerate(pos):
                        idx += rows[j][h - low + j]
                else:
                    for h, r in zip(pos, steps, strict=True):
                        idx += (h - low) * r
                table[idx] = int(v)
    except Exception:  # the Python path reports the claim's own error at its position
        return None
    return (_rank_claim if by_rank else _table_claim), table, index


def _all_valid(game: Ruleset[Any], n: int, low: int) -> bool:
    """Whether every tuple of *n* heaps ``>= low`` is a position (probed on a small box)."""
    import itertools

    from nimlab.core.errors import InvalidPositionError

    for t in itertools.product(range(low, low + 4), repeat=n):
        try:
            game.validate(t)
        except InvalidPositionError:
            return False
    return True


def supports_compiled(spec: Any) -> bool:
    """Whether *spec* can run on the compiled path (game hook, space and claim)."""
    sp = spec.space
    if not isinstance(sp, (BoxSpace, SortedBoxSpace)) or spec.kind not in KIND_CODES:
        return False
    g = spec.game
    if not isinstance(g, HeapRuleset):
        return False
    if isinstance(sp, SortedBoxSpace) and g.ordered:
        return False
    if isinstance(sp, BoxSpace) and sp.game is not None and not _all_valid(g, sp.n_heaps, sp.low):
        return False
    if not _all_valid(g, sp.n_heaps, sp.low):
        return False
    try:
        gen = g.compiled_options()
    except NimlabError:
        return False
    if gen is None:
        return False
    return compiled_claim(spec) is not None


def _starts(sp: Any, i: int) -> tuple[tuple[int, ...], int]:
    if isinstance(sp, SortedBoxSpace):
        return sp.start(i)
    a0, a1 = sp.row_range(i)
    return (a0,) + (sp.low,) * (sp.n_heaps - 1), (a1 - a0) * (sp.bound - sp.low) ** (sp.n_heaps - 1)


def _nth(sp: Any, i: int, k: int) -> tuple[int, ...]:
    import itertools

    return next(itertools.islice(sp.chunk(i), k, None))


def warm_up_compiled(spec: Any) -> None:
    """Compile the kernel for *spec* in this process (before forking workers)."""
    if supports_compiled(spec):
        got = compiled_claim(spec)
        assert got is not None
        claim, table, radix = got
        sp = spec.space
        h, _ = _starts(sp, 0)
        _kernel(
            spec.game.compiled_options(),
            claim,
            table,
            radix,
            tuple(np.int64(x) for x in h),
            0,
            isinstance(sp, SortedBoxSpace),
            sp.low,
            sp.bound,
            KIND_CODES[spec.kind],
        )


def compiled_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* compiled: ``(count, failure)``, or None to use the Python path."""
    if not supports_compiled(spec):
        return None
    got = compiled_claim(spec)
    assert got is not None
    claim, table, radix = got
    sp = spec.space
    h, count = _starts(sp, i)
    status, k = _kernel(
        spec.game.compiled_options(),
        claim,
        table,
        radix,
        tuple(np.int64(x) for x in h),
        count,
        isinstance(sp, SortedBoxSpace),
        sp.low,
        sp.bound,
        KIND_CODES[spec.kind],
    )
    if status == 0:
        return count, None
    pos = _nth(sp, i, int(k))
    c = spec.claim
    fail = check_position(spec.game, spec.kind, lambda p: c.value(spec.game, p), pos, sp)
    if fail is None:
        return None  # the kernel and the exact check disagree: redo the chunk in Python
    return int(k) + 1, fail
