"""The P-set check's shortcuts on the compiled path: retrograde marks (the game's
``compiled_predecessors`` hook) and the option index (its ``compiled_option_index``
hook: the claimed P-positions recorded, then one look-up per position), with the walks
that record and read the index, kept in modules of the disk cache.
:mod:`nimlab.verification.compiled` chooses and runs them (``_index_hook`` is the one
place that chooses between the index and the scan).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import numpy as np
from numba import njit

from nimlab.core.ruleset import HeapRuleset
from nimlab.verification._claims import (
    _CLAIM_SOURCES,
    _cached_module,
    _importable,
    _multiset_ranks,
    _walks_source,
    compiled_claim,
)
from nimlab.verification._heapwalks import (
    BOX,
    SORTED,
    _mode,
    _next_sorted,
    _run_kernel,
    _sorted_box,
    _starts,
)
from nimlab.verification._heapwalks import __file__ as _WALKS_FILE
from nimlab.verification.spaces import BoxSpace, SortedBoxSpace

__all__ = [
    "check_predecessors",
    "has_index",
    "index_cells",
    "install_index",
    "install_merged",
    "note_chunk",
    "record_part",
]

_LOCK = threading.Lock()

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


def _cached_walks(spec: Any, note: Any, reaches: Any) -> tuple[Any, Any] | None:
    """The walks of *spec* from a module in the cache directory (compiled at most once
    per machine), or None when the claim or the hook cannot be named by an import."""
    import inspect
    import sys

    from nimlab.engine._diskcache import is_cached_module

    files = [__file__, _WALKS_FILE]
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
    home = getattr(getattr(got[0], "py_func", None), "__module__", "") or ""
    if made is not None and made[3] is got[0] and is_cached_module(home):
        # the claim's own module of the cache directory: its machine code is shared (one
        # compile of the claim per process at most, none once on disk), not written again
        claim_src = f"from nimlab.engine._diskcache import load_module\nclaim = load_module({home!r}).claim\n"
        files += made[2]
    elif made is not None and made[3] is got[0]:
        claim_src = made[0]
        imports += made[1]
        files += made[2]
    else:
        where = _importable(got[0])
        if where is None:
            return None
        claim_src = f"from {where[0]} import {where[1]} as claim\n"
    module = _cached_module(_walks_source(claim_src, imports, files, _WALKS))
    return None if module is None else (module.note_walk, module.reach_walk)


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
    typed = [tuple(np.int64(x) for x in p) for p in positions]  # converted once, not n^2 times
    index = np.zeros(max(1, int(cells)), dtype=np.uint8)
    for o, to in zip(positions, typed, strict=True):
        index[:] = 0
        note(to, index, aux)
        for p, tp in zip(positions, typed, strict=True):
            if bool(reaches(tp, index, aux)) != (o in options[p]):
                return (p, o)
    return None


def record_part(spec: Any, chunks: Iterable[int]) -> Any:
    """The option index (packed bits) recorded from the claimed P-positions of *chunks*
    of *spec*, whose compiled check runs, or None when it uses no index. Parts are merged
    by :func:`install_index`."""
    hook = _index_hook(spec)
    if hook is None:
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
    cells, one byte each): a thread's share of :func:`record_part`."""
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


def install_index(spec: Any, parts: list[Any]) -> Any:
    """Merge the packed *parts* of :func:`record_part` into the index this process's
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
        install_index(spec, [record_part(spec, range(spec.space.n_chunks))])
        with _LOCK:
            hit = _INDEXES[key]
    return hit
