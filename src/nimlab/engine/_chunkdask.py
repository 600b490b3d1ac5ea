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


def _submit(client: Any, run: Run, pending: list[tuple[int, list[int]]]) -> tuple[list[Any], Any]:
    """The futures of the pending parts (each after the previous level's), and of the
    assembly after them all. The parts go to the workers in turn (a loose restriction:
    another worker takes a part whose worker is gone); left to itself the scheduler puts
    every task where the results of the level below are, all on one worker."""
    from nimlab.engine._chunkwork import assemble, solve_parts

    info = client.scheduler_info()
    addrs = sorted(info.get("workers", {})) if isinstance(info, dict) else []
    futures: list[Any] = []
    prev: list[Any] = []
    turn = 0
    for li, parts in pending:
        if not parts:
            continue
        level = []
        for p in parts:
            where: dict[str, Any] = {}
            if addrs:
                where = {"workers": [addrs[turn % len(addrs)]], "allow_other_workers": True}
            turn += 1
            level.append(client.submit(solve_parts, run, li, [p], *prev, pure=False, **where))
        prev = level
        futures += level
    final = client.submit(assemble, run, *prev, pure=False)
    return futures, final


def run_on_dask(
    run: Run,
    pending: list[tuple[int, list[int]]],
    done: int,
    workers: int | None,
    scheduler: str | None,
    progress: bool,
) -> None:
    """Solve the *pending* parts of *run* on Dask (a local cluster of *workers* processes,
    or the cluster of *scheduler*), then assemble the values; *done* positions are on
    disk already."""
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
            futures, final = _submit(client, run, pending)
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
