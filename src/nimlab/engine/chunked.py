"""Canonical tables solved in chunks written to disk: in this process or on Dask.

``canonical_table(game, size, heaps=n, chunk_dir=DIR)`` (with ``dask_local=True`` or
``scheduler=ADDRESS`` on a Dask cluster) solves the table by the wavefront of
:mod:`nimlab.engine._levels`, level by level (number of stones), each level cut into
parts (runs of its tasks, :mod:`nimlab.engine._chunkstore`): a part is one Dask task,
which solves its positions and writes their values to ``DIR`` as one ``.npy`` chunk with
its record. A level's tasks depend on the previous level's (the options of a position
have fewer stones), so the scheduler starts them as soon as the level below is on disk.

Each worker process keeps the values solved so far in memory (one byte per position for
outcomes, four for Grundy values: the memory budget is checked for it before anything
starts) and brings them up to date from the chunks other workers wrote before each task:
the main process holds no values at all. The last task assembles ``DIR/values.npy``
(colex order), which the returned :class:`~nimlab.engine.canonical.CanonicalTable` reads
memory-mapped. A run stopped at any point (Ctrl-C, a killed worker, a lost scheduler)
keeps its chunks: the same call again solves only the parts that are missing. On a
cluster of several machines ``DIR`` must be a directory every worker sees (a shared
file system).
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any, TypedDict

from nimlab.core.errors import InvalidParameterError, SearchTooLargeError
from nimlab.core.settings import env_float
from nimlab.engine import _chunkstore as store
from nimlab.engine._chunkstore import Run

__all__ = ["ChunkOptions", "chunked_table"]

#: Seconds a Dask worker waits, at least, for a part another worker owns before it solves
#: it itself (5 by default): a worker lost mid-run costs the others this wait once.
PATIENCE_ENV = "NIMLAB_CHUNK_PATIENCE"


class ChunkOptions(TypedDict, total=False):
    """The keyword arguments of :func:`~nimlab.engine.canonical.canonical_table` that
    solve in chunks on disk (in this process or on Dask)."""

    chunk_dir: str | Path
    workers: int
    scheduler: str
    dask_local: bool


# -- the main process ---------------------------------------------------------------


def _key(g: Any, n: int, kind: str, side: int, low: int) -> str:
    """The identity of a table: game, parameters, move model's source and nimlab's version."""
    from nimlab import __version__
    from nimlab.engine._diskcache import model_source

    try:
        got = model_source(g)
        model = got[0] if got is not None else ""
    except Exception:  # a model that cannot be written out: its repr identifies it
        model = ""
    text = "\n".join([store.FORMAT, __version__, repr(g), kind, str(n), str(side), str(low), model])
    return hashlib.sha256(text.encode()).hexdigest()


def _check_budget(g: Any, n: int, side: int, kind: str, budget: int) -> None:
    """Each worker holds the values of the table (Grundy: the engine's int32 array;
    outcomes: two bits a position, unpacked to a byte for the assembly): refuse them
    beyond *budget*."""
    import math

    count = math.comb(side + n - 1, n)
    need = count * 4 + count // 8 if kind == "grundy" else count // 4 + count
    if need > budget:
        raise SearchTooLargeError(
            f"{g.label()}: a chunked canonical table of {n} heaps below {side} needs about "
            f"{need / 2**20:,.0f} MiB in each worker, more than the limit of "
            f"{budget / 2**20:,.0f} MiB; use a smaller size or raise the memory budget"
        )


def _check_args(
    g: Any,
    compiled: bool,
    chunk_dir: str | Path | None,
    values_file: object,
    workers: object,
    scheduler: str | None,
    dask_local: object,
) -> str:
    """Refuse arguments that do not go with a chunked solve; the directory's path."""
    from nimlab.core.errors import InvalidArgumentError
    from nimlab.core.params import as_index

    if chunk_dir is None:
        raise InvalidParameterError(
            "workers, scheduler and dask_local solve a canonical table in chunks written "
            "to a directory: give chunk_dir too"
        )
    if not isinstance(chunk_dir, (str, Path)) or not str(chunk_dir).strip():
        raise InvalidArgumentError(f"chunk_dir must be a directory's path, got {chunk_dir!r:.40}")
    if values_file is not None:
        raise InvalidParameterError(
            "chunk_dir keeps the values in chunk_dir/values.npy: give chunk_dir or "
            "values_file, not both"
        )
    if workers is not None and (as_index(workers) is None or as_index(workers) < 1):  # type: ignore[operator]
        raise InvalidArgumentError(f"workers must be an integer >= 1, got {workers!r:.40}")
    if not isinstance(dask_local, bool):
        raise InvalidArgumentError(f"dask_local must be True or False, got {dask_local!r:.40}")
    if scheduler is not None:
        from nimlab._dask import check_scheduler

        check_scheduler(scheduler)
        if dask_local:
            raise InvalidParameterError("give a scheduler or dask_local, not both")
    if not compiled:
        raise InvalidParameterError(
            f"{g.label()}: the game has no compiled move model, so its canonical table is "
            "solved by the Python search in one process: leave out chunk_dir"
        )
    return str(chunk_dir)


def chunked_table(
    g: Any,
    n: int,
    box: tuple[int, int],
    kind: str,
    compiled: bool,
    max_bytes: int | None,
    chunk_dir: str | Path | None,
    values_file: object = None,
    how: tuple[int | None, str | None, bool] = (None, None, False),
    *,
    progress: bool = False,
) -> Path:
    """The values file of the canonical table of *g* (*n* heaps, heaps ``low..side-1`` for
    *box* ``(side, low)``) solved in chunks in *chunk_dir* (see the module); the arguments
    are :func:`~nimlab.engine.canonical.canonical_table`'s, *how* its ``(workers,
    scheduler, dask_local)``."""
    from nimlab.engine.tables import DEFAULT_MAX_BYTES

    side, low = box
    workers, scheduler, dask_local = how
    where = _check_args(g, compiled, chunk_dir, values_file, workers, scheduler, dask_local)
    if n < 2:
        raise InvalidParameterError(
            f"{g.label()}: a table of one heap is a sequence (nimlab.sequence); chunks on "
            "disk take 2 to 6 heaps"
        )
    budget = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    _check_budget(g, n, side, kind, budget)
    key = _key(g, n, kind, side, low)
    dask = scheduler is not None or dask_local
    parts = 2 * (workers or os.cpu_count() or 1) if dask else 8  # two a Dask worker
    wait = env_float(PATIENCE_ENV, 5.0, low=0.01, high=86_400, what="a number of seconds")
    run = Run(g, n, kind, side, low, store.default_chunk(n, low, side, parts), where, key, budget,
              patience=wait)  # fmt: skip
    chunk = store.open_directory(run)
    if chunk != run.chunk_positions:
        run = Run(g, n, kind, side, low, chunk, where, key, budget, patience=wait)
    if not store.values_done(run):
        levels = store.plan(n, low, side, run.chunk_positions)
        pending = [
            (li, [p for p, span in enumerate(parts) if not store.chunk_done(run, total, p, span)])
            for li, (total, _, parts) in enumerate(levels)
        ]
        done = run.count - sum(levels[li][2][p][2] for li, ps in pending for p in ps)
        if dask:
            from nimlab.engine._chunkdask import run_on_dask

            whole = [len(parts) == 1 for _, _, parts in levels]
            run_on_dask(run, pending, whole, done, workers, scheduler, progress)
        else:
            _run_here(run, pending, done, workers, progress)
    store.remove_leftovers(run)  # of writes a Ctrl-C or a killed process cut short
    return store.values_path(run)


def _run_here(
    run: Run, pending: list[tuple[int, list[int]]], done: int, threads: int | None, progress: bool
) -> None:
    """The parts in this process, a level at a time on numba's threads."""
    from nimlab._progress import Progress
    from nimlab.engine._chunkwork import assemble, solve_parts

    bar = Progress(f"{run.game.label()}: {run.kind} table in chunks", run.count, "positions",
                   start=done, enabled=progress)  # fmt: skip
    try:
        for li, parts in pending:
            if parts:
                t0 = time.perf_counter()
                done += solve_parts(run, li, parts, threads=threads)
                bar.update(
                    done, f"level {li + 1} of {len(pending)}, {time.perf_counter() - t0:.1f} s"
                )
        assemble(run)
    finally:
        bar.close()
