"""Canonical tables solved in chunks on disk (issue 22, item 3): in this process and on Dask.

Run: ``nice python benchmarks/bench_chunked.py [--size 48] [--heaps 5] [--repeats 2]``.

The table is Single-delete's outcomes (5 heaps below 48 by default, 2.35 M sorted
positions). Printed per case, after a warm-up that compiles the kernels (in this process
and in every Dask worker, ``client.run``): wall seconds, CPU seconds (this process, and the Dask workers'
own, read in each worker with ``time.process_time``) and the load average.

- ``in-process, 1 thread``: ``canonical_table(..., parallel=True)`` on one numba thread
  (the wavefront held in memory, no chunks): the reference.
- ``chunks here, 1 thread``: ``chunk_dir=DIR, workers=1``: the same levels, the values
  written to DIR in chunks as they go, then assembled into ``DIR/values.npy``.
- ``Dask local, W workers``: ``chunk_dir=DIR`` on a local cluster of W single-threaded
  worker processes (W = 1 and 2), one task per part, each level after the level below.

Every run writes a new directory and its values are compared with the reference's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from typing import Any

import numpy as np


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _timed(label: str, run: Any, cpu_others: Any = None) -> tuple[float, float, Any]:
    before = cpu_others() if cpu_others else 0.0
    c0, t0 = time.process_time(), time.perf_counter()
    out = run()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    others = (cpu_others() - before) if cpu_others else 0.0
    extra = f" + workers {others:.2f} s" if cpu_others else ""
    print(f"{label:28s} wall {wall:6.2f} s  CPU {cpu:6.2f} s{extra}  (load {_load()})")
    return wall, cpu + others, out


def _workers_cpu(client: Any) -> Any:
    def read() -> float:
        return float(sum(client.run(time.process_time).values()))

    return read


def _warm(game: str, heaps: int, kind: str) -> None:
    """Compile the wavefront and load the chunks' kernels in this process (a Dask worker
    runs it: a small table's levels are one task, which would warm one worker only)."""
    import numba

    import nimlab

    numba.set_num_threads(1)
    nimlab.canonical_table(game, 12, heaps=heaps, kind=kind, parallel=True)
    nimlab.canonical_table(game, 12, heaps=heaps, kind=kind, chunk_dir=tempfile.mkdtemp())


def main() -> None:
    import numba

    import nimlab
    from nimlab._dask import local_cluster, quiet

    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=48)
    ap.add_argument("--heaps", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=2)
    a = ap.parse_args()
    game, kind = "single-delete", "outcome"
    root = tempfile.mkdtemp(prefix="nimlab-chunks-")
    counter = iter(range(10**6))

    def fresh() -> str:
        return os.path.join(root, f"t{next(counter)}")

    def table(**kw: Any) -> Any:
        return nimlab.canonical_table(game, a.size, heaps=a.heaps, kind=kind, **kw)

    numba.set_num_threads(1)
    nimlab.canonical_table(game, 12, heaps=a.heaps, kind=kind, parallel=True)  # compile
    nimlab.canonical_table(game, 12, heaps=a.heaps, kind=kind, chunk_dir=fresh())
    print(f"{game} {kind}, {a.heaps} heaps below {a.size} (load {_load()})")
    ref = None
    for _ in range(a.repeats):
        _, _, t = _timed("in-process, 1 thread", lambda: table(parallel=True))
        ref = np.asarray(t.values)
        _, _, t = _timed("chunks here, 1 thread", lambda: table(chunk_dir=fresh(), workers=1))
        assert np.array_equal(ref, np.asarray(t.values))
    import distributed

    with quiet():
        for w in (1, 2):
            cluster = local_cluster(distributed.LocalCluster, w)
            client = distributed.Client(cluster)
            try:
                addr = cluster.scheduler_address
                client.run(_warm, game, a.heaps, kind)  # every worker compiles its kernels
                for _ in range(a.repeats):
                    _, _, t = _timed(
                        f"Dask local, {w} worker{'s' if w > 1 else ''}",
                        lambda addr=addr, w=w: table(chunk_dir=fresh(), scheduler=addr, workers=w),
                        _workers_cpu(client),
                    )
                    assert np.array_equal(ref, np.asarray(t.values))
            finally:
                client.close()
                cluster.close()
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
