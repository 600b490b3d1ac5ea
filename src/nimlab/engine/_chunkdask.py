"""A chunked canonical solve on Dask (:mod:`nimlab.engine.chunked`): one loop task per
worker, the values assembled by a last task.

The parts are dealt to the workers in turn (a run of levels of one part each counts as
one); each worker's loop solves its own in level order, each once every part of the
levels below is on disk, written by the other workers (it waits for them on disk: no
round trip to the scheduler or to another worker per level, where a task per part, each
depending on the level below's tasks, spent most of its time in Dask's messages). A part
still missing after a while (its worker was lost) is solved by the worker that waits for
it; a loop rescheduled after its worker was lost finds its parts on disk and only reads
them. The client shows the progress from the chunks on disk. Workers use the client
set-up of :mod:`nimlab._dask` (a local cluster, or a scheduler's address), and load the
compiled kernels from the shared disk cache.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from nimlab.core.errors import NimlabError
from nimlab.engine._chunkstore import Run

__all__ = ["run_on_dask"]


def _tasks(
    pending: list[tuple[int, list[int]]], whole: list[bool]
) -> list[list[tuple[int, list[int]]]]:
    """The pending parts as tasks: the parts of a level split in several, one task each;
    a run of consecutive levels that are whole parts (*whole*: a level of one part),
    one task (they would run one after the other anyway: one round trip to the
    scheduler instead of one a level).

    Examples
    --------
    >>> _tasks([(0, [0]), (1, [0]), (2, [0, 1]), (3, []), (4, [0]), (5, [0])],
    ...        [True, True, False, True, True, True])
    [[(0, [0]), (1, [0])], [(2, [0])], [(2, [1])], [(4, [0]), (5, [0])]]
    """
    out: list[list[tuple[int, list[int]]]] = []
    run: list[tuple[int, list[int]]] = []
    for li, parts in pending:
        if not parts:
            continue
        if whole[li]:
            run.append((li, parts))
            continue
        if run:
            out.append(run)
            run = []
        out += [[(li, [p])] for p in parts]
    if run:
        out.append(run)
    return out


def _submit(
    client: Any, run: Run, pending: list[tuple[int, list[int]]], whole: list[bool], ways: int
) -> tuple[list[Any], Any]:
    """One loop task per worker (:func:`~nimlab.engine._chunkwork.worker_loop`: every
    *ways*-th task in order, waiting on disk for the levels below), pinned loosely to
    its worker (another worker takes the loop of a worker that is gone), and the
    assembly after them."""
    from nimlab.engine._chunkwork import assemble, worker_loop

    info = client.scheduler_info()
    addrs = sorted(info.get("workers", {})) if isinstance(info, dict) else []
    ways = len(addrs) or ways
    tasks = _tasks(pending, whole)
    loops = []
    for me in range(ways):
        where: dict[str, Any] = {}
        if addrs:
            where = {"workers": [addrs[me]], "allow_other_workers": True}
        loops.append(client.submit(worker_loop, run, tasks, me, ways, pure=False, **where))
    final = client.submit(assemble, run, *loops, pure=False)
    return loops, final


def _on_disk(run: Run) -> Any:
    """A function giving the positions whose chunks are on disk (the progress display)."""
    from pathlib import Path

    from nimlab.engine._chunkstore import chunk_name, plan

    sizes = {
        f"{chunk_name(total, p)}.json": span[2]
        for total, _, parts in plan(run.heaps, run.low, run.side, run.chunk_positions)
        for p, span in enumerate(parts)
    }

    def count() -> int:
        try:
            return sum(sizes.get(name, 0) for name in os.listdir(Path(run.directory)))
        except OSError:
            return 0

    return count


def run_on_dask(
    run: Run,
    pending: list[tuple[int, list[int]]],
    whole: list[bool],
    done: int,
    workers: int | None,
    scheduler: str | None,
    progress: bool,
) -> None:
    """Solve the *pending* parts of *run* on Dask (a local cluster of *workers* processes,
    or the cluster of *scheduler*), then assemble the values; *done* positions are on
    disk already, *whole*: which levels are one part."""
    from nimlab._dask import check_connected, cluster_lost, dask_client, module_files, quiet
    from nimlab._progress import Progress

    n_workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    then = (
        f"the chunks written so far are kept in {run.directory}: run the same command "
        "again to continue"
    )
    files = module_files([type(run.game)])
    with quiet(), dask_client(scheduler, n_workers, files) as client:
        bar = Progress(f"{run.game.label()}: {run.kind} table on Dask", run.count,
                       "positions", start=done, enabled=progress)  # fmt: skip
        futures: list[Any] = []
        count = _on_disk(run)
        try:
            check_connected(client)  # a held client whose scheduler is gone: no 20 s wait
            futures, final = _submit(client, run, pending, whole, n_workers)
            while True:
                try:
                    final.result(timeout=0.5)
                    break
                except TimeoutError:  # still running: the chunks on disk so far
                    bar.update(count())
                    # tasks submitted as the scheduler was lost are never run nor
                    # cancelled: the run ends here instead of waiting for ever
                    check_connected(client)
        except (NimlabError, KeyboardInterrupt):
            _cancel(client, futures)
            raise
        except Exception as exc:  # a lost worker (KilledWorker) or scheduler
            _cancel(client, futures)
            raise cluster_lost(scheduler, exc, then, "solving chunks") from None
        finally:
            bar.close()


def _cancel(client: Any, futures: list[Any]) -> None:
    with contextlib.suppress(Exception):  # the cluster is gone already
        client.cancel(futures)
