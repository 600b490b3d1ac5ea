"""A chunked canonical solve on Dask (:mod:`nimlab.engine.chunked`): one task per part,
each level's tasks after the level below, the values assembled by a last task.

Every task is submitted at once (a few per level; the scheduler starts a level's tasks as
soon as the tasks of the level below are done, with no round trip to this process), in
level order (Dask runs the tasks submitted first first). A task that finds its chunk on
disk (it was written before a worker was lost) only reads it. Workers use the client
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
    client: Any, run: Run, pending: list[tuple[int, list[int]]], whole: list[bool]
) -> tuple[list[Any], Any]:
    """The futures of the tasks (each after the previous level's), and of the assembly
    after them all. The tasks go to the workers in turn (a loose restriction: another
    worker takes the task of a worker that is gone); left to itself the scheduler puts
    every task where the results of the level below are, all on one worker."""
    from nimlab.engine._chunkwork import assemble, solve_levels

    info = client.scheduler_info()
    addrs = sorted(info.get("workers", {})) if isinstance(info, dict) else []
    futures: list[Any] = []
    prev: list[Any] = []
    level: list[Any] = []
    last = -1
    for turn, task in enumerate(_tasks(pending, whole)):
        if task[0][0] != last:  # a new level: its tasks wait for the previous level's
            prev, level = level or prev, []
        last = task[-1][0]
        where: dict[str, Any] = {}
        if addrs:
            where = {"workers": [addrs[turn % len(addrs)]], "allow_other_workers": True}
        level.append(client.submit(solve_levels, run, task, *prev, pure=False, **where))
        futures.append(level[-1])
    final = client.submit(assemble, run, *(level or prev), pure=False)
    return futures, final


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
    from nimlab._dask import cluster_lost, dask_client, distributed_module, module_files, quiet
    from nimlab._progress import Progress

    dist = distributed_module()
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
        try:
            futures, final = _submit(client, run, pending, whole)
            for fut in dist.as_completed([*futures, final]):
                got = fut.result()
                if fut is not final:
                    done += got
                    bar.update(done)
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
