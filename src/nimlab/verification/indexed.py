"""Compiled local check over a game's index space (numba).

For games whose positions are not tuples of heaps (Emperor Nim's ranges, Turning Turtles'
sets of heads), the game numbers the positions of a region ``0 .. size-1`` and gives a
compiled move model over codes (:class:`~nimlab.core.kernels.IndexModel`, from its
``index_model`` hook). The claim is evaluated once per position in Python (the exact
code users call) into a table indexed like the space; the kernels then apply the local
rule at every position of a chunk:

- Grundy claims: the mex rule over every option the move model yields;
- P-set claims: with the model's exact ``is_option`` test, a claimed P-position must have
  no claimed P-position among its options and a claimed N-position must have one, both
  decided against the list of claimed P-positions (usually few), without walking the
  moves; without ``is_option``, by walking every move as for heaps.

At the first failure the kernel stops and the failure is re-derived by the exact Python
check (:func:`~nimlab.verification.local.check_position`); where the two disagree the
chunk is redone in Python, so the compiled path can only be faster, never differently
right.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import njit

from nimlab.verification._heapwalks import _mex_holds, _pn_holds
from nimlab.verification.local import Failure, check_position
from nimlab.verification.spaces import is_indexed

__all__ = ["claim_table", "indexed_chunk", "warm_up_indexed"]

_LOCK = threading.Lock()
_TABLES: dict[str, Any] = {}
#: Largest index space whose claim is tabulated (int64 cells, 128 MB).
MAX_INDEX_CELLS = 1 << 24


@njit
def _grundy(
    decode: Any, encode: Any, gen: Any, params: Any, table: Any, i0: int, count: int
) -> Any:
    # pragma: no cover - compiled
    seen = np.zeros(64, dtype=np.int64)
    stamp = 0
    for k in range(count):
        i = i0 + k
        f = table[i]
        if f < 0:
            return 3, k
        if f + 1 > seen.shape[0]:
            seen = np.zeros(2 * (f + 1), dtype=np.int64)
            stamp = 0
        stamp += 1
        for q in gen(params, decode(params, i)):
            j = encode(params, q)
            if j < 0 or j >= i:
                return 2, k
            g = table[j]
            if g == f:
                return 1, k
            if 0 <= g < f:
                seen[g] = stamp
        if not _mex_holds(seen, f, stamp):
            return 1, k
    return 0, count


@njit
def _pset_moves(
    decode: Any, encode: Any, gen: Any, params: Any, table: Any, i0: int, count: int, misere: bool
) -> Any:  # pragma: no cover - compiled
    for k in range(count):
        i = i0 + k
        f = table[i]
        terminal = True
        found = False
        for q in gen(params, decode(params, i)):
            terminal = False
            j = encode(params, q)
            if j < 0 or j >= i:
                return 2, k
            if table[j] != 0:
                found = True
                if f == 0:
                    break
                return 1, k
        if not _pn_holds(f, terminal, found, misere):
            return 1, k
    return 0, count


@njit
def _pset_listed(
    decode: Any,
    gen: Any,
    is_option: Any,
    params: Any,
    table: Any,
    plist: Any,
    i0: int,
    count: int,
    misere: bool,
) -> Any:  # pragma: no cover - compiled
    end = 0
    while end < plist.shape[0] and plist[end] < i0 + count:
        end += 1
    pcodes = [decode(params, plist[t]) for t in range(end)]
    for k in range(count):
        i = i0 + k
        f = table[i]
        x = decode(params, i)
        found = False
        for t in range(end):
            if plist[t] >= i:  # options have smaller indices
                break
            if is_option(params, x, pcodes[t]):
                found = True
                break
        if f != 0:
            if found:
                return 1, k
            if misere:  # a terminal position is N in misère play
                terminal = True
                for _q in gen(params, x):
                    terminal = False
                    break
                if terminal:
                    return 1, k
        elif not found:
            if not misere:
                return 1, k
            for _q in gen(params, x):  # misère: only a terminal position may have no P-option
                return 1, k
    return 0, count


@njit
def _decode_rows(decode: Any, params: Any, i0: int, n: int, width: int) -> Any:
    # pragma: no cover - compiled
    out = np.empty((n, width), dtype=np.int64)
    for r in range(n):
        c = decode(params, i0 + r)
        for t in range(width):
            out[r, t] = c[t]
    return out


def claim_table(spec: Any) -> Any:
    """The claim's value at every index of the space (int64; P-sets 1 for P, 0 for N), or
    None when the space is too large or a value is not an integer (the Python path then
    reports it at its position)."""
    key = spec.key()
    with _LOCK:
        hit = _TABLES.get(key)
    if hit is not None:
        return None if hit is False else hit
    m = spec.space.model()
    out: Any = False
    if m.size <= MAX_INDEX_CELLS:
        table = np.zeros(max(1, m.size), dtype=np.int64)
        value = spec.claim.value
        game = spec.game
        position = m.position
        step = 1 << 15
        try:
            for i0 in range(0, m.size, step):
                n = min(step, m.size - i0)
                codes = _call(_decode_rows, (("decode", m.decode),), m.params, i0, n, m.width)
                rows = codes.tolist()
                for r, row in enumerate(rows):
                    v = value(game, position(tuple(row)))
                    if v is None or isinstance(v, float) or int(v) != v:
                        raise ValueError
                    table[i0 + r] = int(v)
            out = table
        except Exception:  # the Python path reports the claim's own error at its position
            out = False
    with _LOCK:
        _TABLES[key] = out
    return None if out is False else out


def _plist(spec: Any, table: Any) -> Any:
    key = spec.key() + "/p"
    with _LOCK:
        hit = _TABLES.get(key)
    if hit is None:
        hit = np.flatnonzero(table).astype(np.int64)
        with _LOCK:
            _TABLES[key] = hit
    return hit


def _call(kernel: Any, named: tuple[tuple[str, Any], ...], *args: Any) -> Any:
    """Run *kernel* with the model's compiled functions *named* (its first parameters, by
    name) bound: from a module of the disk cache that holds the kernel and the functions
    (:func:`nimlab.engine._diskcache.cached_module`), so that numba keeps the machine
    code for every later process; compiled in memory when they cannot be written out or
    the cache cannot be used."""
    from nimlab.verification._walkcache import call_walk

    return call_walk((kernel,), kernel, named, *args)


def _run(spec: Any, i0: int, count: int) -> tuple[int, int] | None:
    table = claim_table(spec)
    if table is None:
        return None
    m = spec.space.model()
    named = (("decode", m.decode), ("encode", m.encode), ("gen", m.options))
    args = (m.params, table, i0, count)
    if spec.kind == "grundy":
        return _call(_grundy, named, *args)  # type: ignore[no-any-return]
    misere = spec.kind == "misere-p-set"
    if m.is_option is not None:
        plist = _plist(spec, table)
        listed = (("decode", m.decode), ("gen", m.options), ("is_option", m.is_option))
        return _call(  # type: ignore[no-any-return]
            _pset_listed, listed, m.params, table, plist, i0, count, misere
        )
    return _call(_pset_moves, named, *args, misere)  # type: ignore[no-any-return]


def supports_indexed(spec: Any) -> bool:
    """Whether *spec* runs here: an index space, a kind this module checks, a claim
    that tabulates."""
    if not is_indexed(spec.space):
        return False
    if spec.kind not in ("grundy", "p-set", "misere-p-set"):
        return False
    return claim_table(spec) is not None


def warm_up_indexed(spec: Any) -> None:
    """Tabulate the claim and compile the kernel in this process (before forking)."""
    if supports_indexed(spec):
        _run(spec, 0, 0)


def indexed_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* compiled: ``(count, failure)``, or None to use the Python path."""
    if not supports_indexed(spec):
        return None
    sp = spec.space
    i0, i1 = sp.index_range(i)
    got = _run(spec, i0, i1 - i0)
    if got is None:
        return None
    status, k = int(got[0]), int(got[1])
    if status == 0:
        return i1 - i0, None
    m = sp.model()
    pos = m.position(tuple(int(x) for x in m.decode(m.params, i0 + k)))
    c = spec.claim
    fail = check_position(spec.game, spec.kind, lambda p: c.value(spec.game, p), pos, sp)
    if fail is None:
        return None  # the kernel and the exact check disagree: redo the chunk in Python
    return k + 1, fail
