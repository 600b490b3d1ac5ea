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
from nimlab.planner import Method, register_check
from nimlab.verification.local import Failure, check_position
from nimlab.verification.spaces import (
    BoxSpace,
    SortedBoxSpace,
)

__all__ = [
    "check_predecessors",
    "compiled_chunk",
    "compiled_claim",
    "supports_compiled",
    "warm_up_compiled",
]

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
_SCALARS: dict[Any, Any] = {}


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


@njit(inline="always")
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


@njit(inline="always")
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


def _make_kernels(mode: int) -> tuple[Any, Any, Any, Any]:
    """The mex-rule and P/N-rule kernels for a sorted space or a box, and the retrograde
    marking kernel and its self-check, for one walk (*mode*, a constant of the compiled
    code: each kernel compiles only the walk it uses)."""

    @njit(inline="always")
    def advance(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
        if mode == SORTED:
            return _next_sorted(h, low)
        if mode == DISTINCT:
            return _next_distinct(h, low)
        if mode == TOTAL:
            return _next_total(h, bound)
        return _next_box(h, low, bound)

    @njit(inline="always")
    def canon(q: Any) -> Any:  # pragma: no cover - compiled
        if mode != BOX:
            return _sorted(q)
        return q

    @njit(inline="always")
    def rank(h: Any, ridx: Any) -> Any:  # pragma: no cover - compiled
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

    @njit(inline="always")
    def inside(p: Any, low: int, bound: int) -> bool:  # pragma: no cover - compiled
        """Whether canonical *p* is in the space."""
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
                c = canon(q)
                if not inside(c, low, bound):
                    return 2, k
                g = np.int64(claim(c, table, radix))
                if g == f:
                    return 1, k
                if 0 <= g < f:
                    seen[g] = stamp
            for v in range(f):
                if seen[v] != stamp:
                    return 1, k
            h = advance(h, low, bound)
        return 0, count

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
            if f == 0 and use_marks and marks[rank(h, ridx)] != 0:
                # a claimed N-position that a claimed P-position's predecessors reached:
                # it has a claimed P option, the rule holds without scanning its options
                h = advance(h, low, bound)
                continue
            terminal = True
            found = False
            for q in gen(h):
                terminal = False
                c = canon(q)
                if not inside(c, low, bound):
                    return 2, k
                if claim(c, table, radix) != 0:
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
                    c = canon(p)
                    if inside(c, low, bound):
                        marks[rank(c, ridx)] = 1
            h = advance(h, low, bound)
        return n_p

    @njit
    def pred_check(
        gen: Any, pred: Any, h: Any, count: int, low: int, bound: int
    ) -> Any:  # pragma: no cover - compiled
        """``(0, count)`` when every predecessor the hook yields (in the space) of the
        *count* positions from *h* has that position as an option; else ``(1, index)``."""
        for k in range(count):
            for p in pred(h, low, bound):
                if not inside(canon(p), low, bound):
                    continue
                found = False
                for q in gen(p):
                    if canon(q) == h:
                        found = True
                        break
                if not found:
                    return 1, k
            h = advance(h, low, bound)
        return 0, count

    return grundy, pset, marker, pred_check


_KERNELS = {m: _make_kernels(m) for m in (BOX, SORTED, DISTINCT, TOTAL)}


#: The two passes of the P-set check with an option index. ``claim``, ``note``,
#: ``reaches`` and ``next_sorted`` are globals of the code they run in: a module written
#: to the cache directory (numba keeps its machine code on disk, see
#: :func:`_index_walks`) or, when that cannot be used, a namespace compiled in memory.
_WALKS = """
def note_walk(table, radix, h, count, low, index, aux):
    n_p = 0
    for _k in range(count):
        if claim(h, table, radix) != 0:
            note(h, index, aux)
            n_p += 1
        h = next_sorted(h, low)
    return n_p


def reach_walk(table, radix, h, count, low, index, aux):
    for k in range(count):
        if (claim(h, table, radix) != 0) == reaches(h, index, aux):
            return 1, k
        h = next_sorted(h, low)
    return 0, count
"""
_WALK_CACHE: dict[Any, Any] = {}


def _importable(obj: Any) -> tuple[str, str] | None:
    """``(module, name)`` such that ``from module import name`` gives *obj*, or None."""
    import sys

    fn = getattr(obj, "py_func", obj)
    mod_name = getattr(fn, "__module__", None) or ""
    mod = sys.modules.get(mod_name)
    if mod is None or not mod_name.startswith("nimlab."):
        return None
    for attr in (getattr(fn, "__name__", ""), *sorted(vars(mod))):
        if attr and getattr(mod, attr, None) is obj:
            return mod_name, attr
    return None


def _walks_source(claim_src: str, imports: list[str], files: list[str], walks: bool = True) -> str:
    """The text of a module defining ``claim`` and the walks of :data:`_WALKS`."""
    import hashlib
    import sys
    from pathlib import Path

    import numba

    digest = hashlib.sha256()
    for f in sorted(set(files)):
        digest.update(Path(f).read_bytes())
    lines = [
        '"""Generated by nimlab.verification.compiled: the P-set check of one claim with',
        'an option index; do not edit."""',
        f"# sources {digest.hexdigest()[:24]}, numba {numba.__version__}, {sys.version.split()[0]}",
        "from numba import njit",
        "from nimlab.verification.compiled import _next_sorted as next_sorted",
        *imports,
        "",
        claim_src,
    ]
    if walks:
        lines += [
            _WALKS,
            "note_walk = njit(cache=True, nogil=True)(note_walk)",
            "reach_walk = njit(cache=True, nogil=True)(reach_walk)",
        ]
    return "\n".join(lines) + "\n"


def _cached_walks(spec: Any, note: Any, reaches: Any) -> tuple[Any, Any] | None:
    """The walks of *spec* from a module in the cache directory (compiled at most once
    per machine), or None when the claim or the hook cannot be named by an import."""
    import inspect
    import sys

    files = [__file__]
    imports = []
    for obj, alias in ((note, "note"), (reaches, "reaches")):
        where = _importable(obj)
        if where is None:
            return None
        imports.append(f"from {where[0]} import {where[1]} as {alias}")
        files.append(inspect.getfile(sys.modules[where[0]]))
    got = compiled_claim(spec)
    if got is None:
        return None
    made = _CLAIM_SOURCES.get(id(got[0]))
    if made is not None and made[3] is got[0]:
        claim_src = made[0]
        imports += made[1]
        files += made[2]
    else:
        where = _importable(got[0])
        if where is None:
            return None
        claim_src = f"from {where[0]} import {where[1]} as claim\n"
    module = _cached_module(_walks_source(claim_src, imports, files))
    return None if module is None else (module.note_walk, module.reach_walk)


def _cached_module(text: str) -> Any:
    """The module of source *text* in the cache directory (written if absent or
    different), or None when the directory cannot be used."""
    import hashlib
    import sys

    from nimlab.engine import _diskcache as dc

    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    name = f"nimlab_verify_{digest}"
    path = dc.cache_dir() / f"{name}.py"
    for attempt in range(2):
        try:
            if attempt or not path.is_file() or path.read_text(encoding="utf-8") != text:
                dc._write(path, text)
            return sys.modules.get(name) or dc._import(name, path)
        except Exception:  # a directory we cannot write, a damaged file: once more
            dc._purge(name, path)
    return None


def _scalar_source(fn: Any, spread: bool) -> tuple[str, list[str], list[str]] | None:
    """``(claim source, imports, files)`` of the kernel's claim wrapping the scalar *fn*,
    or None when *fn* cannot be imported by name."""
    import inspect
    import sys

    where = _importable(fn)
    if where is None:
        return None
    call = "_f(*h)" if spread else "_f(h)"
    src = (
        "_f = njit(cache=True)(claim_fn)\n\n\n"
        f"@njit(cache=True)\ndef claim(h, table, radix):\n    return {call}\n"
    )
    imports = [f"from {where[0]} import {where[1]} as claim_fn"]
    return src, imports, [inspect.getfile(sys.modules[where[0]])]


_CLAIM_SOURCES: dict[int, tuple[str, list[str], list[str], Any]] = {}


def _expr_claim(expr: Any, low: int, bound: int, n: int) -> Any:
    """The expression *expr* compiled as a scalar claim (kept in the disk cache), tried
    once on the lowest position; None when it has no scalar form or does not compile."""
    from nimlab.verification import expr as expr_module
    from nimlab.verification.expr import scalar_source

    src = scalar_source(expr, low, bound)
    if src is None:
        return None
    files = [__file__, expr_module.__file__]
    text = _walks_source(src, [], files, walks=False)
    module = _cached_module(text)
    ns: dict[str, Any] = {"njit": njit}
    try:
        if module is not None:
            c = module.claim
        else:
            exec(text, ns)
            c = ns["claim"]
        int(c((np.int64(low),) * n, _NO_RIDX, _NO_RIDX))
    except Exception:  # numba cannot type it (mixed types): the table or Python path
        return None
    _CLAIM_SOURCES[id(c)] = (src, [], files, c)
    return c


def _cached_scalar(fn: Any, spread: bool) -> Any:
    """The claim wrapping the scalar *fn* from the disk cache, or None."""
    got = _scalar_source(fn, spread)
    if got is None:
        return None
    src, imports, files = got
    module = _cached_module(_walks_source(src, imports, [__file__, *files], walks=False))
    if module is None:
        return None
    _CLAIM_SOURCES[id(module.claim)] = (src, imports, [__file__, *files], module.claim)
    return module.claim


def _index_walks(spec: Any, note: Any, reaches: Any) -> tuple[Any, Any]:
    """``(note_walk, reach_walk)`` for *spec*: from the disk cache when the claim and the
    hook can be imported by name, else compiled in memory."""
    got = compiled_claim(spec)
    assert got is not None
    key = (got[0], note, reaches)
    hit = _WALK_CACHE.get(key)
    if hit is None:
        hit = _cached_walks(spec, note, reaches)
        if hit is None:
            ns: dict[str, Any] = {
                "claim": got[0],
                "note": note,
                "reaches": reaches,
                "next_sorted": _next_sorted,
            }
            exec(_WALKS, ns)
            hit = (njit(nogil=True)(ns["note_walk"]), njit(nogil=True)(ns["reach_walk"]))
        _WALK_CACHE[key] = hit
    return hit


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


@njit(cache=True)
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
        c = _expr_claim(spec.claim.expr, low, bound, n)
        if c is not None:
            out = (c, dummy, radix)
    if out is False and isinstance(spec.claim, ExprClaim):
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
                c = _SCALARS.get(got)
                if c is None:  # one compile per function, whatever the bound
                    c = _cached_scalar(*got) or _wrap_scalar(*got)
                    _SCALARS[got] = c
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


@njit(cache=True)
def _rank_claim(h: Any, table: Any, binom: Any) -> Any:  # pragma: no cover - compiled
    """The tabulated value of a non-decreasing *h* at its rank among the multisets
    (``binom[n, 0]`` holds the space's lowest heap)."""
    n = len(h)
    low = binom[n, 0]
    r = 0
    for i in range(n):
        r += binom[i, h[i] - low + i]
    return table[r]


@njit(cache=True)
def _set_rank_claim(h: Any, table: Any, binom: Any) -> Any:  # pragma: no cover - compiled
    """The tabulated value of a strictly increasing *h* at its rank among the sets
    (``binom[n, 0]`` holds the space's lowest heap)."""
    n = len(h)
    low = binom[n, 0]
    r = 0
    for i in range(n):
        r += binom[i, h[i] - low]
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


_TABULATED: set[str] = set()
#: Seconds per position of a claim evaluated in Python (for the note that says so).
TABULATE_SECONDS = 5e-6


def tabulated_in_python(spec: Any) -> bool:
    """Whether the compiled check of *spec* reads a table of the claim's values made by
    calling the claim in Python once per position (the claim does not compile)."""
    return supports_compiled(spec) and spec.key() in _TABULATED


def _tabulate(spec: Any, radix: Any) -> tuple[Any, Any, Any] | None:
    """``(claim, table, index)``: the claim's own Python values at every position of the
    space, in a table the kernel reads (a box table, or one cell per multiset for a
    :class:`SortedBoxSpace`: options there are sorted first), or None when the space is
    too large or a value is not an integer.

    This is how a claim without a compiled form (a ruleset's closed form hook such as
    ``closed_is_p``, a theorem's Python claim) still runs on the compiled path: the exact
    code users call is evaluated once per position, and the kernel walks the moves.
    """
    from math import comb

    sp = spec.space
    n, low, bound = sp.n_heaps, sp.low, sp.bound
    mode = _mode(sp)
    by_rank = mode != BOX
    cells = (bound - low) ** n
    if mode in (SORTED, TOTAL):  # one cell per multiset of heaps in [low, bound)
        cells = comb(bound - low + n - 1, n)
    elif mode == DISTINCT:  # one cell per set
        cells = comb(max(0, bound - low), n)
    if cells > MAX_TABULATED_CELLS or int(sp.size) > MAX_TABULATED_POSITIONS:
        return None
    _TABULATED.add(spec.key())
    size = int(sp.size)
    if size * TABULATE_SECONDS >= 2.0:  # said once, before the work
        import warnings

        warnings.warn(
            f"{spec.target}: the claim does not compile with numba, so it is evaluated in "
            f"Python once per position before the compiled walk (about "
            f"{size * TABULATE_SECONDS:.0f} s for {size:,} positions); to stay fast give it "
            "as an expression (--formula/--p-set TEXT) or as a function of integers that "
            "numba compiles (no lists, sets or Python objects)",
            RuntimeWarning,
            stacklevel=2,
        )
    table = np.zeros(max(cells, 1), dtype=np.int64)
    value = spec.claim.value
    game = spec.game
    index = _multiset_ranks(n, low, bound) if by_rank else radix
    from nimlab._progress import Progress

    bar = Progress(f"{spec.target}: claim table", int(sp.size), "positions")
    done = 0
    try:
        for i in range(sp.n_chunks):
            positions = list(sp.chunk(i))
            if not positions:
                continue
            values = [value(game, pos) for pos in positions]
            for v in values:
                if v is None or isinstance(v, float) or int(v) != v:
                    return None
            heaps = np.array(positions, dtype=np.int64).reshape(len(positions), n) - low
            if by_rank:  # colex rank of each multiset: sum of C(h_j - low + j, j + 1)
                idx = np.zeros(len(positions), dtype=np.int64)
                for j in range(n):  # (of each set: C(h_j - low, j + 1))
                    idx += index[j][heaps[:, j] + (0 if mode == DISTINCT else j)]
            else:
                idx = heaps @ radix[1:]
            table[idx] = np.array([int(v) for v in values], dtype=np.int64)
            done += len(positions)
            bar.update(done)
    except Exception:  # the Python path reports the claim's own error at its position
        return None
    finally:  # Ctrl-C (KeyboardInterrupt) passes through; the bar goes away either way
        bar.close()
    fn = _set_rank_claim if mode == DISTINCT else _rank_claim if by_rank else _table_claim
    return fn, table, index


#: Largest space (positions) whose retrograde marks are kept (one byte each).
MAX_MARK_CELLS = 1 << 26
#: Smallest space (positions) that is marked: below it the scan of every position costs
#: less than compiling the marking kernels.
MARK_MIN_POSITIONS = 1 << 20
#: At most this many positions (and heaps below low + 12) has the small space on which a
#: game's predecessors hook is tested against its options before the marks are trusted.
PRED_CHECK_POSITIONS = 4096
_MARKS: dict[Any, Any] = {}


def _mark_index(sp: Any) -> Any:
    """The ``ridx`` array the kernels rank a canonical position of *sp* with."""
    n, low, bound = sp.n_heaps, sp.low, sp.bound
    if _sorted_box(sp):
        return _multiset_ranks(n, low, bound)
    ridx = np.zeros((1, n + 1), dtype=np.int64)
    ridx[0, 0] = low
    for i in range(n):
        ridx[0, i + 1] = (bound - low) ** (n - 1 - i)
    return ridx


def _small_space(sp: Any) -> Any:
    """A space of the same kind, heaps and low as *sp* with at most about
    :data:`PRED_CHECK_POSITIONS` positions (at least three heap sizes)."""
    b = min(sp.bound, sp.low + 3)

    def size(bb: int) -> int:
        if _sorted_box(sp):
            return SortedBoxSpace(sp.n_heaps, bb, sp.low).size
        return int((bb - sp.low) ** sp.n_heaps)

    while b < sp.bound and b - sp.low < 12 and size(b + 1) <= PRED_CHECK_POSITIONS:
        b += 1
    if _sorted_box(sp):
        return SortedBoxSpace(sp.n_heaps, b, sp.low, 1 << 30)
    return BoxSpace(sp.n_heaps, b, sp.low, b)


def check_predecessors(game: HeapRuleset, sp: Any) -> tuple[int, ...] | None:
    """The first position of a small space like *sp* with a "predecessor" (from the
    game's ``compiled_predecessors`` hook) of which it is not an option, or None when the
    hook is right there.

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.verification.spaces import BoxSpace
    >>> check_predecessors(game("circular", k=4), BoxSpace(6, 12)) is None
    True
    """
    small = _small_space(sp)
    h, _ = _starts(small, 0)
    status, k = _run_kernel(
        3,
        _mode(small),
        (("gen", game.compiled_options()), ("pred", game.compiled_predecessors())),
        tuple(np.int64(x) for x in h),
        int(small.size),
        small.low,
        small.bound,
    )
    if status == 0:
        return None
    import itertools

    every = (q for i in range(small.n_chunks) for q in small.chunk(i))
    bad: tuple[int, ...] = next(itertools.islice(every, int(k), None))
    return bad


def _marks(spec: Any) -> tuple[Any, Any] | None:
    """``(marks, ridx)``: one byte per position of the space, set where a claimed
    P-position is an option (found from the claimed P-positions through the game's
    ``compiled_predecessors`` hook); None when the game has no such hook, the claim is a
    Grundy claim or the space is too large. Computed once per spec and process."""
    key = (spec.key(), "marks")
    with _LOCK:
        hit = _MARKS.get(key)
    if hit is not None:
        return None if hit is False else hit
    out: Any = False
    sp = spec.space
    g = spec.game
    pred = g.compiled_predecessors() if isinstance(g, HeapRuleset) else None
    size = int(sp.size)
    if (
        pred is not None
        and spec.kind != "grundy"
        and _mode(sp) in (BOX, SORTED)
        and MARK_MIN_POSITIONS <= size <= MAX_MARK_CELLS
    ):
        bad = check_predecessors(g, sp)
        if bad is not None:
            from nimlab.core.errors import GameDefinitionError

            raise GameDefinitionError(
                f"{g.label()}: compiled_predecessors yields a position of which "
                f"{bad} is not an option (its moves say otherwise); fix the hook"
            )
        got = compiled_claim(spec)
        assert got is not None
        claim, table, radix = got
        mode = _mode(sp)
        ridx = _mark_index(sp)
        marks = np.zeros(max(1, int(sp.size)), dtype=np.uint8)
        from nimlab._progress import Progress

        bar = Progress(f"{spec.target}: marks from the P-positions", int(sp.size), "positions")
        done = 0
        try:
            for i in range(sp.n_chunks):
                h, count = _starts(sp, i)
                _run_kernel(
                    2,
                    mode,
                    (("pred", pred), ("claim", claim)),
                    table,
                    radix,
                    tuple(np.int64(x) for x in h),
                    count,
                    sp.low,
                    sp.bound,
                    ridx,
                    marks,
                )
                done += count
                bar.update(done)
        finally:
            bar.close()
        out = (marks, ridx)
    with _LOCK:
        _MARKS[key] = out
    return None if out is False else out


#: Most one-byte cells of a P-set's option index (the game's ``compiled_option_index``).
MAX_INDEX_CELLS = 1 << 28
#: At most about this many positions has the small space on which a game's option index
#: is tested against its moves (every pair of positions: a fraction of a second).
INDEX_CHECK_POSITIONS = 160
_INDEX_HOOKS: dict[Any, Any] = {}
_INDEXES: dict[Any, Any] = {}


def _index_hook(spec: Any) -> tuple[Any, Any, int, Any] | None:
    """``(note, reaches, cells, aux)``: the game's option index for the P-set check of
    *spec*, or None when the check scans the options instead.

    This is the one place that chooses between the two compiled P-set checks: the
    index (one look-up per position after the claimed P-positions are recorded) when the
    game has a ``compiled_option_index`` hook, the claim is a normal-play P-set on sorted
    positions and the index fits :data:`MAX_INDEX_CELLS`; else the scan of every option.
    """
    key = (spec.key(), "index-hook")
    with _LOCK:
        if key in _INDEX_HOOKS:
            hit: tuple[Any, Any, int, Any] | None = _INDEX_HOOKS[key]
            return hit
    out: Any = None
    sp = spec.space
    g = spec.game
    hook = getattr(g, "compiled_option_index", None)
    got = hook() if hook is not None and spec.kind == "p-set" else None
    if got is not None and _sorted_box(sp) and not g.ordered:
        prepare, note, reaches = got
        cells, aux = prepare(sp.n_heaps, sp.low, sp.bound)
        if 0 < cells <= MAX_INDEX_CELLS:
            bad = _index_mismatch(g, sp, got)
            if bad is not None:
                from nimlab.core.errors import GameDefinitionError

                raise GameDefinitionError(
                    f"{g.label()}: compiled_option_index disagrees with the moves at {bad} "
                    "(fix the hook)"
                )
            out = (note, reaches, int(cells), aux)
    with _LOCK:
        _INDEX_HOOKS[key] = out
    return out  # type: ignore[no-any-return]


def _index_mismatch(game: Any, sp: Any, got: Any) -> tuple[Any, ...] | None:
    """The first pair ``(position, recorded)`` of a small sorted space where the game's
    option index says "an option is recorded" wrongly, or None when it is right there."""
    prepare, note, reaches = got
    n, low = sp.n_heaps, sp.low
    b = min(sp.bound, low + 3)
    while b < sp.bound and SortedBoxSpace(n, b + 1, low).size <= INDEX_CHECK_POSITIONS:
        b += 1
    small = SortedBoxSpace(n, b, low, 1 << 30)
    positions = [p for i in range(small.n_chunks) for p in small.chunk(i)]
    cells, aux = prepare(n, low, b)
    options = {p: {tuple(sorted(q)) for q in game.moves(p)} for p in positions}
    for o in positions:
        index = np.zeros(max(1, int(cells)), dtype=np.uint8)
        note(tuple(np.int64(x) for x in o), index, aux)
        for p in positions:
            if bool(reaches(tuple(np.int64(x) for x in p), index, aux)) != (o in options[p]):
                return (p, o)
    return None


def index_part(spec: Any, chunks: range) -> Any:
    """The option index (packed bits) recorded from the claimed P-positions of *chunks*,
    or None when *spec* does not use one. Parts are merged by :func:`install_index`."""
    hook = _index_hook(spec)
    if hook is None or not supports_compiled(spec):
        return None
    note, _reaches, cells, aux = hook
    got = compiled_claim(spec)
    assert got is not None
    _claim, table, radix = got
    sp = spec.space
    note_walk, _ = _index_walks(spec, note, _reaches)
    index = np.zeros(cells, dtype=np.uint8)
    for i in chunks:
        h, count = _starts(sp, i)
        note_walk(table, radix, tuple(np.int64(x) for x in h), count, sp.low, index, aux)
    return np.packbits(index)


def index_cells(spec: Any) -> int:
    """Cells of the option index of *spec* (0 when it uses none)."""
    hook = _index_hook(spec)
    return 0 if hook is None else int(hook[2])


def note_chunk(spec: Any, i: int, index: Any) -> None:
    """Record the claimed P-positions of chunk *i* of *spec* in *index* (unpacked
    cells, one byte each): a thread's share of :func:`index_part`."""
    hook = _index_hook(spec)
    got = compiled_claim(spec)
    assert hook is not None and got is not None
    note, reaches, _cells, aux = hook
    note_walk, _ = _index_walks(spec, note, reaches)
    h, count = _starts(spec.space, i)
    note_walk(got[1], got[2], tuple(np.int64(x) for x in h), count, spec.space.low, index, aux)


def install_merged(spec: Any, index: Any) -> None:
    """Install the whole option index of *spec* (unpacked cells), recorded by threads."""
    with _LOCK:
        _INDEXES.clear()  # one spec at a time, as install_index
        _INDEXES[spec.key()] = index


def uses_index(spec: Any) -> bool:
    """Whether the compiled chunks of *spec* read an option index (built from every
    chunk's claimed P-positions before any chunk is checked)."""
    return supports_compiled(spec) and _index_hook(spec) is not None


def install_index(spec: Any, parts: list[Any]) -> Any:
    """Merge the packed *parts* of :func:`index_part` into the index this process's
    chunks of *spec* use; returns the merged parts (packed), or None."""
    hook = _index_hook(spec)
    parts = [p for p in parts if p is not None]
    if hook is None or not parts:
        return None
    merged = parts[0].copy()
    for p in parts[1:]:
        np.bitwise_or(merged, p, out=merged)
    index = np.unpackbits(merged, count=hook[2])
    with _LOCK:
        _INDEXES.clear()  # one spec at a time: the index of the last one only
        _INDEXES[spec.key()] = index
    return merged


def has_index(spec: Any) -> bool:
    """Whether this process holds the merged option index of *spec*."""
    with _LOCK:
        return spec.key() in _INDEXES


def _index(spec: Any) -> Any:
    """The merged option index of *spec* (recorded here from every chunk if no part was
    installed: the serial run)."""
    key = spec.key()
    with _LOCK:
        hit = _INDEXES.get(key)
    if hit is None:
        install_index(spec, [index_part(spec, range(spec.space.n_chunks))])
        with _LOCK:
            hit = _INDEXES[key]
    return hit


def _all_valid(game: Ruleset[Any], n: int, low: int, distinct: bool = False) -> bool:
    """Whether every tuple of *n* heaps ``>= low`` (*distinct*: of pairwise different
    heaps) is a position (probed on a small box)."""
    import itertools

    from nimlab.core.errors import InvalidPositionError

    for t in itertools.product(range(low, low + max(4, n + 1)), repeat=n):
        if distinct and len(set(t)) < n:
            continue
        try:
            game.validate(t)
        except InvalidPositionError:
            return False
    return True


_SUPPORTED: dict[Any, bool] = {}


def supports_compiled(spec: Any) -> bool:
    """Whether *spec* can run on the compiled path (game hook, space and claim)."""
    key = spec.key()
    with _LOCK:
        hit = _SUPPORTED.get(key)
    if hit is None:
        hit = _supports(spec)
        with _LOCK:
            _SUPPORTED[key] = hit
    return hit


def _supports(spec: Any) -> bool:
    sp = spec.space
    if getattr(sp, "walk", None) not in _HEAP_WALKS or spec.kind not in KIND_CODES:
        return False
    g = spec.game
    if not isinstance(g, HeapRuleset):
        return False
    if _mode(sp) != BOX and g.ordered:
        return False  # the walks other than the box sort options: for order-free games
    if not _all_valid(g, sp.n_heaps, sp.low, _mode(sp) == DISTINCT):
        return False
    try:
        gen = g.compiled_options()
    except NimlabError:
        return False
    if gen is None:
        return False
    if compiled_claim(spec) is None:
        return False
    return _compiles(spec)


def _compiles(spec: Any) -> bool:
    """Whether the walk compiles with the game's move model (a user's move function that
    numba cannot type, such as one slicing a tuple by a variable, runs in Python)."""
    from nimlab.catalog._numba_errors import compile_errors

    if _index_hook(spec) is not None:
        return True
    try:
        _walk(spec, _starts(spec.space, 0)[0], 0)
    except compile_errors():
        return False
    return True


def _walk(spec: Any, h: tuple[int, ...], count: int) -> tuple[int, int]:
    """Run the compiled walk of *spec* over *count* positions from the heaps *h*:
    ``(status, k)``, status 0 when every position satisfies the claim."""
    got = compiled_claim(spec)
    assert got is not None
    claim, table, radix = got
    sp = spec.space
    status, k = _kernel(
        spec.game.compiled_options(),
        claim,
        table,
        radix,
        tuple(np.int64(x) for x in h),
        count,
        _mode(sp),
        sp.low,
        sp.bound,
        KIND_CODES[spec.kind],
        _marks(spec),
    )
    return int(status), int(k)


def _starts(sp: Any, i: int) -> tuple[tuple[int, ...], int]:
    if _mode(sp) != BOX:
        start: tuple[tuple[int, ...], int] = sp.start(i)
        return start
    a0, a1 = sp.row_range(i)
    return (a0,) + (sp.low,) * (sp.n_heaps - 1), (a1 - a0) * (sp.bound - sp.low) ** (sp.n_heaps - 1)


def _nth(sp: Any, i: int, k: int) -> tuple[int, ...]:
    import itertools

    return next(itertools.islice(sp.chunk(i), k, None))


def warm_up_compiled(spec: Any) -> None:
    """Compile the kernel for *spec* in this process (before forking workers)."""
    if supports_compiled(spec):
        sp = spec.space
        h, _ = _starts(sp, 0)
        hook = _index_hook(spec)
        if hook is None:
            _walk(spec, h, 0)  # loaded or compiled once; cheap when supports_compiled did it
            return
        got = compiled_claim(spec)
        assert got is not None
        _claim, table, radix = got
        note, reaches, _cells, aux = hook
        start = tuple(np.int64(x) for x in h)
        empty = np.zeros(1, dtype=np.uint8)
        note_walk, reach_walk = _index_walks(spec, note, reaches)
        note_walk(table, radix, start, 0, sp.low, empty, aux)
        reach_walk(table, radix, start, 0, sp.low, empty, aux)


def compiled_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* compiled: ``(count, failure)``, or None to use the Python path."""
    if not supports_compiled(spec):
        return None
    got = compiled_claim(spec)
    assert got is not None
    _claim, table, radix = got
    sp = spec.space
    h, count = _starts(sp, i)
    hook = _index_hook(spec)
    if hook is not None:
        note, reaches, _cells, aux = hook
        index = _index(spec)
        _, reach_walk = _index_walks(spec, note, reaches)
        start = tuple(np.int64(x) for x in h)
        status, k = reach_walk(table, radix, start, count, sp.low, index, aux)
    else:
        status, k = _walk(spec, h, count)
    if status == 0:
        return count, None
    pos = _nth(sp, i, int(k))
    c = spec.claim
    fail = check_position(spec.game, spec.kind, lambda p: c.value(spec.game, p), pos, sp)
    if fail is None:
        return None  # the kernel and the exact check disagree: redo the chunk in Python
    return int(k) + 1, fail


register_check(Method.COMPILED_CHECK, supports_compiled)  # the planner asks it
