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

The pieces live beside it: :mod:`~nimlab.verification._heapwalks` (the walks of each
space and their kernels), :mod:`~nimlab.verification._claims` (compiled and tabulated
claims) and :mod:`~nimlab.verification._optindex` (a P-set's retrograde marks and option
index); this module decides whether a spec runs compiled and checks its chunks.

Everything here imports numba; :mod:`nimlab.verification.chunks` imports this module only
when a spec asks for the compiled path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from nimlab.core.errors import NimlabError
from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.planner import Method, register_check
from nimlab.verification import _claims, _optindex
from nimlab.verification._claims import compiled_claim
from nimlab.verification._heapwalks import (
    _HEAP_WALKS,
    BOX,
    DISTINCT,
    KIND_CODES,
    _kernel,
    _mode,
    _nth,
    _starts,
)
from nimlab.verification._optindex import _INDEXES as _INDEXES  # cleared by benchmarks
from nimlab.verification._optindex import (
    _index,
    _index_hook,
    _index_walks,
    _marks,
    check_predecessors,
    has_index,
    index_cells,
    install_index,
    install_merged,
    note_chunk,
)
from nimlab.verification._walkcache import model_gen
from nimlab.verification.local import Failure, check_position

__all__ = [
    "KIND_CODES",
    "check_predecessors",
    "chunk_walker",
    "compiled_chunk",
    "compiled_claim",
    "has_index",
    "index_cells",
    "index_noter",
    "index_part",
    "install_index",
    "install_merged",
    "note_chunk",
    "supports_compiled",
    "tabulated_in_python",
    "uses_index",
    "warm_up_compiled",
]

_LOCK = threading.Lock()


def tabulated_in_python(spec: Any) -> bool:
    """Whether the compiled check of *spec* reads a table of the claim's values made by
    calling the claim in Python once per position (the claim does not compile)."""
    return supports_compiled(spec) and spec.key() in _claims._TABULATED


def index_part(spec: Any, chunks: Iterable[int]) -> Any:
    """The option index (packed bits) recorded from the claimed P-positions of *chunks*,
    or None when *spec* does not use one. Parts are merged by :func:`install_index`."""
    if not supports_compiled(spec):
        return None
    return _optindex.record_part(spec, chunks)


def uses_index(spec: Any) -> bool:
    """Whether the compiled chunks of *spec* read an option index (built from every
    chunk's claimed P-positions before any chunk is checked)."""
    return supports_compiled(spec) and _index_hook(spec) is not None


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
        model_gen(spec.game),
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


def chunk_walker(spec: Any) -> Callable[[int], tuple[int, Failure | None] | None] | None:
    """:func:`compiled_chunk` for every chunk of *spec*, its look-ups (claim, move model,
    option index, kernel) done once: ``walk(i)``, or None when *spec* does not run
    compiled. A P-set check's option index is read at the first chunk (after the threads
    that record it installed it) and kept for the run.
    """
    if not supports_compiled(spec):
        return None
    got = compiled_claim(spec)
    assert got is not None
    claim, table, radix = got
    sp = spec.space
    hook = _index_hook(spec)
    kernel: Callable[[tuple[Any, ...], int], tuple[int, int]]
    if hook is not None:
        note, reaches, _cells, aux = hook
        _, reach_walk = _index_walks(spec, note, reaches)
        held: list[Any] = []

        def kernel(h: tuple[Any, ...], count: int) -> tuple[int, int]:
            if not held:
                held.append(_index(spec))
            status, k = reach_walk(table, radix, h, count, sp.low, held[0], aux)
            return int(status), int(k)

    else:
        args = (_mode(sp), sp.low, sp.bound, KIND_CODES[spec.kind], _marks(spec))
        gen = model_gen(spec.game)

        def kernel(h: tuple[Any, ...], count: int) -> tuple[int, int]:
            status, k = _kernel(gen, claim, table, radix, h, count, *args)
            return int(status), int(k)

    def walk(i: int) -> tuple[int, Failure | None] | None:
        h, count = _starts(sp, i)
        status, k = kernel(tuple(np.int64(x) for x in h), count)
        if status == 0:
            return count, None
        pos = _nth(sp, i, k)
        c = spec.claim
        fail = check_position(spec.game, spec.kind, lambda p: c.value(spec.game, p), pos, sp)
        if fail is None:
            return None  # the kernel and the exact check disagree: redo the chunk in Python
        return k + 1, fail

    return walk


def index_noter(spec: Any) -> Callable[[int, Any], None]:
    """``note(i, index)``: :func:`note_chunk` with the look-ups done once (the threads
    that record the option index of *spec* call it for every chunk)."""
    hook = _index_hook(spec)
    got = compiled_claim(spec)
    assert hook is not None and got is not None
    note, reaches, _cells, aux = hook
    note_walk, _ = _index_walks(spec, note, reaches)
    _claim, table, radix = got
    sp = spec.space

    def noted(i: int, index: Any) -> None:
        h, count = _starts(sp, i)
        note_walk(table, radix, tuple(np.int64(x) for x in h), count, sp.low, index, aux)

    return noted


def compiled_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* compiled: ``(count, failure)``, or None to use the Python path."""
    walk = chunk_walker(spec)
    return None if walk is None else walk(i)


register_check(Method.COMPILED_CHECK, supports_compiled)  # the planner asks it
