"""Grundy, outcome and misère tables over boxes of positions.

:func:`table` is the workhorse behind heatmaps and conjecture hunting: it returns a numpy
array ``T`` with ``T[x, y]`` (or ``T[x, y, z]``) the value of the position ``(x, y)``.
A game with a compiled kernel says which through its
:meth:`~nimlab.core.ruleset.Ruleset.table_kernel` hook (a description from
:mod:`nimlab.core.kernels`, run here); any other ruleset goes through a generic path that
uses the ruleset's own ``moves`` with the exact memoised search, so both paths give exact
values.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import (
    InvalidParameterError,
    InvalidPositionError,
    NimlabError,
    SearchTooLargeError,
)
from nimlab.core.kernels import LinesKernel, TableKernel
from nimlab.core.params import as_index
from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.planner import DEFAULT_BUDGETS, Method, Question, compiled_methods, plan

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Kind",
    "has_kernel",
    "table",
]

Kind = Literal["grundy", "outcome", "misere"]
_KINDS = ("grundy", "outcome", "misere")
_ENGINES = ("auto", "kernel", "compiled", "generic")
#: Tables have 1 to this many heaps (the planner's budgets).
MAX_TABLE_HEAPS = DEFAULT_BUDGETS.max_table_heaps
#: Default memory budget of one table (values plus the kernel's bitsets), in bytes.
DEFAULT_MAX_BYTES = DEFAULT_BUDGETS.table_max_bytes
#: Default budget of positions for the generic (pure Python) path.
DEFAULT_MAX_GENERIC = DEFAULT_BUDGETS.table_max_positions


def _as_game(game: Ruleset[Any] | str) -> Ruleset[Any]:
    from nimlab.catalog.registry import as_game

    return as_game(game)


def _shape(g: Ruleset[Any], shape: int | Sequence[int]) -> tuple[int, ...]:
    n_heaps = g.heap_count() if isinstance(g, HeapRuleset) else getattr(g, "n_heaps", None)
    if isinstance(shape, int) and not isinstance(shape, bool):
        if n_heaps is None:
            raise InvalidParameterError(
                f"{g.label()}: the number of heaps is not fixed; give the shape as a tuple "
                "with one size per heap, for example (32, 32)"
            )
        dims: tuple[Any, ...] = (shape,) * n_heaps
    elif isinstance(shape, (tuple, list)):
        dims = tuple(shape)
    else:
        raise InvalidParameterError(
            f"shape must be an int or a tuple of ints (one size per heap), got {shape!r}"
        )
    out: list[int] = []
    for d in dims:
        d = as_index(d)
        if d is None:
            raise InvalidParameterError(
                f"shape must contain integers (one size per heap), got {shape!r}"
            )
        if d < 1:
            raise InvalidParameterError(
                f"shape {tuple(dims)} has a size {d}: every size must be at least 1 "
                "(size N tabulates heaps 0..N-1)"
            )
        out.append(d)
    if not 1 <= len(out) <= MAX_TABLE_HEAPS:
        raise InvalidParameterError(
            f"tables have 1 to {MAX_TABLE_HEAPS} heaps, got a shape with {len(out)} sizes: "
            f"{tuple(out)}"
        )
    if n_heaps is not None and len(out) != n_heaps:
        raise InvalidParameterError(
            f"{g.label()}: a position has exactly {n_heaps} heap{'s' if n_heaps != 1 else ''}, "
            f"but the shape {tuple(out)} has {len(out)} sizes"
        )
    return tuple(out)


def _dtype_for(bound: int) -> type[np.unsignedinteger[Any]]:
    if bound < 2**8:
        return np.uint8
    if bound < 2**16:
        return np.uint16
    return np.uint32


def _kernel_dtype(bound: int) -> type[np.unsignedinteger[Any]]:
    # kernels are compiled for uint16 and uint32 only (bounded compile time)
    return np.uint16 if bound < 2**16 else np.uint32


def _compact(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    if a.size == 0:
        return a
    m = int(a.max())
    dt = _dtype_for(m)
    return a if a.dtype == dt else a.astype(dt)


def _check_bytes(label: str, shape: tuple[int, ...], nbytes: int, max_bytes: int) -> None:
    if nbytes > max_bytes:
        raise SearchTooLargeError(
            f"{label}: a table of shape {shape} needs about {nbytes / 2**20:,.0f} MiB, more "
            f"than the limit of {max_bytes / 2**20:,.0f} MiB; use a smaller shape or raise "
            "max_bytes"
        )


#: A kernel filling at least this many cells runs in a worker thread even without a bar,
#: so that Ctrl-C (KeyboardInterrupt) stops it.
_INTERRUPTIBLE_CELLS = 4_000_000


class _Watch:
    """Progress of a kernel that fills its output array: cells start at a sentinel (the
    dtype's largest value, never a value: tables pick their dtype with room above the
    largest value) and a fixed random sample of the cells tells how many are written.

    Every kernel here writes each cell of its box once and reads only cells written
    before, so the sentinel never reaches a value (tests compare with and without it).
    """

    def __init__(self, label: str, kind: str, progress: bool) -> None:
        from nimlab._progress import Progress

        self.bar = Progress(f"{label}: {kind} table", 1, "cells", enabled=progress)

    def new(self, shape: Sequence[int], dt: Any) -> npt.NDArray[Any]:
        """The output array: zeros, or the sentinel when the bar is on."""
        if self.bar.enabled:
            return np.full(tuple(shape), np.iinfo(dt).max, dtype=dt)
        return np.zeros(tuple(shape), dtype=dt)

    def run(self, kernel: Callable[..., Any], out: npt.NDArray[Any], *args: Any,
            region: tuple[int, ...] | None = None) -> None:  # fmt: skip
        """Run ``kernel(out, *args, stop)``, with the bar when it is on (cells of *region*,
        the box of *out* that is returned).

        With the bar the kernel runs in a worker thread; Ctrl-C sets its ``stop`` flag and
        waits for it to return (within a row of cells), so no thread keeps computing
        after ``KeyboardInterrupt`` reaches the caller.
        """
        from nimlab._progress import run_watched

        stop = np.zeros(1, dtype=np.uint8)

        def cancel() -> None:
            stop[0] = 1

        if not self.bar.enabled:
            if out.size < _INTERRUPTIBLE_CELLS:
                kernel(out, *args, stop)
            else:  # no bar, but Ctrl-C still stops a long run (in a worker thread)
                run_watched(lambda: kernel(out, *args, stop), lambda: 0, self.bar, cancel=cancel)
            return

        box = out.shape if region is None else region
        total = math.prod(box)
        rng = np.random.default_rng(0)
        picks = tuple(rng.integers(0, n, 4096) for n in box)
        view = out[tuple(slice(0, n) for n in box)]
        sentinel = np.iinfo(out.dtype).max
        self.bar.total = total

        def done() -> int:
            return int(total * float(np.mean(view[picks] != sentinel)))

        run_watched(lambda: kernel(out, *args, stop), done, self.bar, cancel=cancel)


# -- kernels ------------------------------------------------------------------------


def has_kernel(game: Ruleset[Any] | str, dims: int = 2) -> bool:
    """Whether :func:`table` has a compiled kernel for *game* with *dims* heaps.

    The game says so through its :meth:`~nimlab.core.ruleset.Ruleset.table_kernel` hook.

    Examples
    --------
    >>> has_kernel("wythoff")
    True
    >>> has_kernel("nim", 1), has_kernel("welter", 3)
    (True, False)
    """
    return Method.COMPILED_TABLE in compiled_methods(_as_game(game), dims)


def _pad3(shape: tuple[int, ...]) -> tuple[int, int, int]:
    s = (1,) * (3 - len(shape)) + shape
    return (s[0], s[1], s[2])


def _run_axis(
    spec: LinesKernel,
    shape: tuple[int, ...],
    misere: bool,
    label: str,
    max_bytes: int,
    watch: _Watch | None = None,
) -> npt.NDArray[Any]:
    from nimlab.engine import _kernels

    dims = len(shape)
    pad = 3 - dims
    s3 = _pad3(shape)
    cof = np.array([False] * pad + list(spec.cofinite), dtype=np.bool_)
    lag = np.array([0] * pad + list(spec.lag), dtype=np.int64)
    offs = np.array(
        [(0,) * pad + tuple(o) for o in spec.offsets] or np.zeros((0, 3), np.int64),
        dtype=np.int64,
    ).reshape(-1, 3)
    bound = len(spec.offsets) + 2 + sum(n for n, c in zip(s3, cof, strict=True) if c)
    if spec.diagonal:
        bound += min(s3[1], s3[2])
    dt = np.uint16 if misere else _kernel_dtype(bound)
    cells = s3[0] * s3[1] * s3[2]
    words = bound // 64 + 1
    lines = sum(cells // n for n, c in zip(s3, cof, strict=True) if c)
    if spec.diagonal:
        lines += s3[0] * (s3[1] + s3[2])
    _check_bytes(label, shape, cells * np.dtype(dt).itemsize + lines * words * 8, max_bytes)
    w = watch or _Watch(label, "", False)
    out = w.new(s3, dt)
    w.run(_kernels.axis_kernel, out, cof, lag, bool(spec.diagonal), offs, bool(misere))
    return out.reshape(shape)


@dataclass(frozen=True)
class _Job:
    """One table asked of a compiled kernel: the game, the box, the kind, the budget."""

    g: Ruleset[Any]
    shape: tuple[int, ...]
    kind: str
    max_bytes: int
    watch: _Watch
    progress: bool

    @property
    def misere(self) -> bool:
        return self.kind == "misere"

    @property
    def label(self) -> str:
        return self.g.label()


def _kernel_table(
    g: Ruleset[Any],
    shape: tuple[int, ...],
    kind: str,
    max_bytes: int,
    spec: TableKernel,
    progress: bool = False,
) -> npt.NDArray[Any] | None:
    """The table by the compiled kernel *spec* describes, or None when it does not apply
    (the runner is looked up by the description's ``kind``, so no class is named; a kind
    the engine has no runner for runs itself: ``_protocol.own_table``)."""
    runner = _TABLE_RUNNERS.get(spec.kind)
    if runner is None:
        from nimlab.engine._protocol import own_table

        return own_table(spec, shape, kind, max_bytes, g.label())
    job = _Job(g, shape, kind, max_bytes, _Watch(g.label(), kind, progress), progress)
    return runner(spec, job)


def _sequence_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    if len(job.shape) != 1 or job.misere:
        return None
    from nimlab.engine.sequences import sequence

    _check_bytes(job.label, job.shape, job.shape[0] * 8, job.max_bytes)
    return sequence(job.g, job.shape[0], progress=job.progress)


def _split_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    return None if job.misere else _run_split(job.shape, job.kind, job.label, job.max_bytes)


def _moore_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    from nimlab.engine import _kernels

    shape, dims = job.shape, len(job.shape)
    if dims not in (2, 3):
        return None
    k = int(spec.k)
    s3 = _pad3(shape)
    bound = sum(s3) + 2
    dt = _kernel_dtype(bound)
    cells = s3[0] * s3[1] * s3[2]
    words = bound // 64 + 1
    kk = min(k, dims)
    lines = s3[1] * s3[2] + s3[0] * (s3[1] + s3[2]) if kk == 1 else 4 * s3[1] * s3[2]
    _check_bytes(job.label, shape, cells * np.dtype(dt).itemsize + lines * words * 8, job.max_bytes)
    out = job.watch.new(s3, dt)
    job.watch.run(_kernels.moore_kernel, out, kk, job.misere)
    return out.reshape(shape)


def _lim_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    from nimlab.engine import _kernels

    shape = job.shape
    if len(shape) != 3:
        return None
    s = sum(shape) - 3
    bound = 3 * s + 2
    dt = _kernel_dtype(bound)
    _check_bytes(job.label, shape, (s + 1) ** 3 * np.dtype(dt).itemsize, job.max_bytes)
    full = job.watch.new((s + 1,) * 3, dt)
    job.watch.run(_kernels.lim_kernel, full, job.misere, region=shape)
    return np.ascontiguousarray(full[: shape[0], : shape[1], : shape[2]])


def _delete_nim_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    from nimlab.engine import _kernels

    shape = job.shape
    if len(shape) != 2:
        return None
    n = max(shape)
    _check_bytes(job.label, shape, n * n * 2 + 2 * n * (n // 32 + 8), job.max_bytes)
    full = job.watch.new((n, n), np.uint16)
    job.watch.run(_kernels.delete_nim_kernel, full, job.misere)
    return np.ascontiguousarray(full[: shape[0], : shape[1]])


def _wythoff_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    from nimlab.engine import _kernels

    shape = job.shape
    if len(shape) != 2 or job.misere:
        return None
    bound = shape[0] + shape[1] + min(shape) + 64
    dt = _kernel_dtype(bound)
    words = bound // 64 + 1
    _check_bytes(
        job.label,
        shape,
        shape[0] * shape[1] * np.dtype(dt).itemsize + (2 * shape[1] + shape[0]) * words * 8,
        job.max_bytes,
    )
    out = job.watch.new(shape, dt)
    job.watch.run(_kernels.wythoff_kernel, out)
    return out


def _lines_table(spec: Any, job: _Job) -> npt.NDArray[Any] | None:
    shape, dims, misere = job.shape, len(job.shape), job.misere
    if dims not in (2, 3):
        return None
    if not len(spec.cofinite) == len(spec.lag) == dims or (spec.diagonal and dims != 2):
        return None
    if any(len(o) != dims for o in spec.offsets):
        return None
    if dims == 2 and not misere and not spec.diagonal:
        return _run_lines2(spec, shape, job.label, job.max_bytes, job.watch)
    return _run_axis(spec, shape, misere, job.label, job.max_bytes, job.watch)


#: The compiled table kernels, by the ``kind`` a table kernel description names.
_TABLE_RUNNERS: dict[str, Callable[[Any, _Job], npt.NDArray[Any] | None]] = {
    "sequence": _sequence_table,
    "delete-split": _split_table,
    "moore": _moore_table,
    "lim": _lim_table,
    "delete-nim": _delete_nim_table,
    "wythoff": _wythoff_table,
    "lines": _lines_table,
}


def _run_lines2(
    spec: LinesKernel,
    shape: tuple[int, ...],
    label: str,
    max_bytes: int,
    watch: _Watch | None = None,
) -> npt.NDArray[Any]:
    from nimlab.engine import _kernels

    n0, n1 = shape
    bound = (
        len(spec.offsets) + 2 + (n0 if spec.cofinite[0] else 0) + (n1 if spec.cofinite[1] else 0)
    )
    dt = _kernel_dtype(bound)
    words = bound // 64 + 1
    _check_bytes(label, shape, n0 * n1 * np.dtype(dt).itemsize + (n1 + 1) * words * 8, max_bytes)
    offs = np.array(spec.offsets, dtype=np.int64).reshape(-1, 2)
    w = watch or _Watch(label, "", False)
    out = w.new(shape, dt)
    w.run(
        _kernels.lines2_kernel,
        out,
        bool(spec.cofinite[0]),
        bool(spec.cofinite[1]),
        int(spec.lag[0]),
        int(spec.lag[1]),
        offs,
    )
    return out


def _run_split(shape: tuple[int, ...], kind: str, label: str, max_bytes: int) -> npt.NDArray[Any]:
    """The delete-and-split kernel over the box *shape*: a masked array (a box cell with
    an empty heap is no position)."""
    from nimlab.engine import _splitkernel

    n = len(shape)
    size = max(shape)
    # a value is at most the number of options: n (n - 1) ways times (size - 1) // 2 splits
    words = n * (n - 1) * ((size - 1) // 2) // 64 + 1
    positions = math.comb(size + n - 1, n)
    cells = math.comb(size + n - 3, n - 2) * size if n > 2 else size
    cell_bytes = math.prod(shape) * (1 if kind == "outcome" else 2)
    _check_bytes(label, shape, positions * 4 + cells * (8 * words + 1) + cell_bytes, max_bytes)
    if min(shape) < 2:
        raise InvalidParameterError(f"{label}: no position of the box {shape} is valid")
    values = _splitkernel.split_values(n, size, words)
    wide = kind == "grundy" and int(values.max()) >= 256
    out = np.empty(math.prod(shape) * (2 if wide else 1), np.uint8)
    mode = 2 if kind == "outcome" else int(wide)
    _splitkernel.split_fill(out, np.array(shape, np.int64), values, mode)
    dtype = np.dtype("<u2") if wide else np.dtype(np.bool_ if kind == "outcome" else np.uint8)
    box = out.view(dtype).reshape(shape)
    mask = np.zeros(shape, np.bool_)
    for axis in range(n):
        mask[(slice(None),) * axis + (0,)] = True
    return np.ma.MaskedArray(box, mask=mask)


# -- generic path -------------------------------------------------------------------


def _generic_table(
    g: Ruleset[Any], shape: tuple[int, ...], kind: str, max_positions: int
) -> npt.NDArray[Any]:
    from nimlab.engine.search import Solver

    cells = 1
    for n in shape:
        cells *= n
    if cells > max_positions:
        raise SearchTooLargeError(
            f"{g.label()}: the generic (pure Python) table path would solve {cells:,} "
            f"positions, more than max_positions={max_positions:,}; use a smaller shape, "
            "raise max_positions, or use a game with a compiled kernel"
        )
    solver: Solver[Any] = Solver(g, max(max_positions, 4 * cells))
    values = np.zeros(shape, dtype=np.int64)
    mask = np.zeros(shape, dtype=np.bool_)
    fn: Callable[[Any], int]
    if kind == "grundy":

        def fn(p: Any) -> int:
            return solver.grundy(p, method="search")
    else:
        mis = kind == "misere"

        def fn(p: Any) -> int:
            return int(solver.is_p(p, misere=mis, method="search"))

    first_error: InvalidPositionError | None = None
    for idx in itertools.product(*(range(n) for n in shape)):
        try:
            pos = g.validate(idx)
        except InvalidPositionError as exc:
            mask[idx] = True
            first_error = first_error or exc
            continue
        values[idx] = fn(pos)
    if mask.all():
        raise InvalidParameterError(
            f"{g.label()}: no position of the box {shape} is valid ({first_error})"
        )
    out = values.astype(np.bool_) if kind != "grundy" else _compact(values.astype(np.uint64))
    if mask.any():
        return np.ma.MaskedArray(out, mask=mask)
    return out


# -- public -------------------------------------------------------------------------


def table(
    game: Ruleset[Any] | str,
    shape: int | Sequence[int],
    *,
    kind: str = "grundy",
    engine: str = "auto",
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_positions: int = DEFAULT_MAX_GENERIC,
    progress: bool = False,
) -> npt.NDArray[Any]:
    """Table of Grundy values (or outcomes) over a box of positions.

    Parameters
    ----------
    game : Ruleset or str
        The game (a ruleset of 1 to 6 heaps), or its registry name.
    shape : int or tuple of int
        Size per heap: ``shape=(N0, N1)`` tabulates heaps ``0 <= x < N0, 0 <= y < N1``.
        An int means the same size for every heap of a game with a fixed number of heaps.
    kind : {"grundy", "outcome", "misere"}
        ``grundy``: Grundy values, as the smallest unsigned dtype that holds them
        (uint8, uint16 or uint32). ``outcome``: a bool array, True at the P-positions of
        normal play. ``misere``: a bool array, True at the P-positions of misère play.
    engine : {"auto", "kernel", "compiled", "generic"}
        ``auto`` uses the game's hand-written kernel when it has one (its ``table_kernel``
        hook), else the compiled engine over the game's compiled move model (its
        ``compiled_options`` hook: 1 to 6 heaps, catalog and user games alike), else the
        generic path (the exact memoised Python search over the ruleset's moves);
        ``kernel`` and ``compiled`` use only that engine; ``generic`` only the Python search.
    max_bytes : int
        Memory budget of a kernel or of the compiled engine (checked before any work).
    max_positions : int
        Budget of positions of the generic path.
    progress : bool
        Show a progress bar (positions or cells done, rate, time left) on a terminal for
        long runs; Ctrl-C stops them (the compiled engine between chunks, a kernel within
        a row of cells: no thread keeps running) and raises ``KeyboardInterrupt``.

    Returns
    -------
    numpy.ndarray
        ``T[x, y]`` (``T[x, y, z]``) is the value of the position ``(x, y)``. Positions
        the game does not allow (equal heaps in Welter, empty heaps where heaps are
        positive) are masked: the result is then a ``numpy.ma.MaskedArray``.

    Raises
    ------
    InvalidParameterError
        Bad shape or kind, or a shape whose number of heaps the game does not take.
    SearchTooLargeError
        The table would exceed ``max_bytes`` (kernel) or ``max_positions`` (generic).

    Notes
    -----
    Lim moves add stones to a heap, so a box is not closed under moves; the Lim kernel
    computes the whole simplex ``a + b + c <= (N0-1) + (N1-1) + (N2-1)``, which is, and
    returns the box.

    Examples
    --------
    >>> from nimlab import table
    >>> table("wythoff", 4)
    array([[0, 1, 2, 3],
           [1, 2, 0, 4],
           [2, 0, 1, 5],
           [3, 4, 5, 6]], dtype=uint8)
    >>> table("wythoff", (3, 5), kind="outcome").astype(int)
    array([[1, 0, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 1, 0, 0, 0]])
    >>> table("nim", (2, 2), kind="misere")
    array([[False,  True],
           [ True, False]])
    """
    _check_choice("kind", kind, _KINDS)
    _check_choice("engine", engine, _ENGINES)
    g = _as_game(game)
    return _planned_table(g, _shape(g, shape), kind, engine, max_bytes, max_positions, progress)


def _check_choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidParameterError(
            f"unknown table {what} {value!r}: choose one of {', '.join(choices)}"
        )


def _planned_table(
    g: Ruleset[Any],
    dims: tuple[int, ...],
    kind: str,
    engine: str,
    max_bytes: int,
    max_positions: int,
    progress: bool,
) -> npt.NDArray[Any]:
    """:func:`table` after its arguments are checked: the planner's method, then the next
    one it gives when that method does not apply."""
    avoid: frozenset[Method] = frozenset()
    while True:
        p = plan(g, Question.TABLE, shape=dims, kind=kind, method=engine, avoid=avoid)
        if p.method is Method.COMPILED_TABLE:
            res = _by_kernel(g, dims, kind, max_bytes, p.value, progress)
            if res is not None:
                return res
        elif p.method is Method.COMPILED_ENGINE:
            from nimlab.engine.compiled import compiled_table

            values = compiled_table(g, dims, kind, max_bytes, progress=progress)
            if values is not None:
                return _from_compiled(g, dims, kind, values)
            if p.fallback is None:
                raise InvalidParameterError(
                    f"{g.label()}: no compiled move model (the game's compiled_options hook "
                    "gives none, or it does not compile); use engine='auto' or 'generic'"
                )
        else:
            return _generic_table(g, dims, kind, max_positions)
        if engine == "kernel":
            raise InvalidParameterError(
                f"{g.label()}: no compiled {kind} kernel for {len(dims)} heaps "
                "(the game's table_kernel hook gives none); use engine='auto' or 'generic'"
            )
        avoid |= {p.method}


def _by_kernel(
    g: Ruleset[Any],
    dims: tuple[int, ...],
    kind: str,
    max_bytes: int,
    spec: TableKernel,
    progress: bool,
) -> npt.NDArray[Any] | None:
    """The table by the game's kernel *spec* in its public form, or None if it does not
    apply."""
    try:  # kernel games take every box position once the number of heaps fits
        if not spec.masks_empty_heaps:  # such a kernel masks the empty heaps itself
            g.validate((0,) * len(dims))
    except InvalidPositionError as exc:
        raise InvalidParameterError(
            f"{g.label()}: cannot tabulate the shape {dims}: {exc}"
        ) from None
    try:
        res = _kernel_table(g, dims, kind, max_bytes, spec, progress)
    except NimlabError:
        raise
    except (KeyError, TypeError, ValueError) as exc:  # pragma: no cover - defensive
        raise InvalidParameterError(f"{g.label()}: cannot build a table kernel: {exc}") from exc
    if res is None or isinstance(res, np.ma.MaskedArray):
        return res
    if kind == "grundy":
        return _compact(res)
    if kind == "outcome":
        return np.asarray(res == 0)
    return res.astype(np.bool_)


def _from_compiled(
    g: Ruleset[Any], dims: tuple[int, ...], kind: str, values: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """The public form of a table of the compiled engine (-1 marks invalid positions)."""
    invalid = values < 0
    if invalid.all():
        raise InvalidParameterError(f"{g.label()}: no position of the box {dims} is valid")
    if kind == "grundy":
        out = _compact(np.where(invalid, 0, values).astype(np.uint64))
    else:
        out = np.asarray(values == 0)
    if invalid.any():
        return np.ma.MaskedArray(out, mask=invalid)
    return out
