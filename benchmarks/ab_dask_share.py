"""Sh-T6* on Dask with and without shared chunks, alternated in one process (issue 22).

Run: ``nice python benchmarks/ab_dask_share.py [--pairs 12] [--bound 128] [--kept]
[--timeline 8] [--hog 0.5]``.

On the warm local Dask cluster of 2 workers that ``bench_parallel.py`` uses, each round
runs ``--workers 2`` (threads), then the Dask run with ``Budgets(cluster_share_chunks=False)``
(each task checks the chunks it was given, the option-index parts through the scheduler)
and with the sharing on (the order of the two swapped every other round), the option index
recorded every run as the threads record it (``--kept``: kept by the warm workers). Printed:
each side's best and median wall time and median CPU (this process and the workers), the
pairwise ratios of each Dask run to the threads' run of its round, and with ``--timeline N``
how far apart the two workers ended their tasks in N more runs of each (distributed's task
stream). ``--hog F`` runs a loop pinned to core 1, busy a share F of every 10 ms, all along:
one core slowed, as by other work on the machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_parallel as bp


def _with(budgets: Any, run: Callable[[], Any]) -> Callable[[], Any]:
    """*run* with the planner's budgets *budgets* in this process (the client's)."""
    from nimlab import planner

    def call() -> None:
        before = planner.DEFAULT_BUDGETS
        planner.DEFAULT_BUDGETS = budgets
        try:
            run()
        finally:
            planner.DEFAULT_BUDGETS = before

    return call


def _ends_apart(run: Callable[[], Any]) -> tuple[float, float]:
    """Milliseconds between the two workers' last task ends in one run, and its wall."""
    from distributed import get_task_stream

    with get_task_stream(bp._CLIENT[0]) as ts:
        t0 = time.time()
        run()
        wall = time.time() - t0
        time.sleep(0.1)  # the tasks' ends reach the scheduler's task stream after the run
    ends: dict[str, float] = {}
    for d in ts.data:
        for s in d["startstops"]:
            if s["action"] == "compute":
                ends[d["worker"]] = max(ends.get(d["worker"], 0.0), s["stop"] - t0)
    got = sorted(ends.values())
    return (1000 * (got[-1] - got[0]) if len(got) > 1 else float("nan")), 1000 * wall


def _hog(share: float) -> subprocess.Popen[bytes]:
    code = (
        "import os, time\nos.sched_setaffinity(0, {1})\nwhile True:\n"
        f"    t = time.perf_counter()\n    while time.perf_counter() - t < {0.01 * share}: pass\n"
        f"    time.sleep({0.01 * (1 - share)})\n"
    )
    return subprocess.Popen([sys.executable, "-c", code])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--bound", type=int, default=128)
    ap.add_argument("--kept", action="store_true", help="the warm workers keep the index")
    ap.add_argument("--timeline", type=int, default=0)
    ap.add_argument("--hog", type=float, default=0.0)
    a = ap.parse_args()
    from nimlab import planner

    base = planner.DEFAULT_BUDGETS
    on = dataclasses.replace(base, cluster_share_chunks=True)
    off = dataclasses.replace(base, cluster_share_chunks=False)
    threads = bp._theorem("Sh-T6*", a.bound, workers=2)
    on_dask = bp._on_dask if a.kept else bp._on_dask_recorded
    dask = on_dask("Sh-T6*", a.bound)
    for warm_up in (threads, dask, dask):  # kernels loaded, the cluster started and warm
        warm_up()
    sides = {"threads": threads, "off": _with(off, dask), "on": _with(on, dask)}
    hog = _hog(a.hog) if a.hog else None
    try:
        res: dict[str, list[tuple[float, float]]] = {k: [] for k in sides}
        loads = [os.getloadavg()[0]]
        for p in range(a.pairs):
            for k in ("threads", "off", "on") if p % 2 == 0 else ("threads", "on", "off"):
                wall, cpu, _s, _c = bp._timed(sides[k])
                res[k].append((wall, cpu))
            loads.append(os.getloadavg()[0])
        index = "kept" if a.kept else "recorded every run"
        print(f"Sh-T6* at {a.bound} (index {index}), {a.pairs} rounds, load "
              f"{min(loads):.1f}-{max(loads):.1f}" + (f", hog {a.hog}" if a.hog else ""))  # fmt: skip
        for k, v in res.items():
            walls, cpus = [1000 * w for w, _ in v], [1000 * c for _, c in v]
            print(f"  {k:8s} wall best {min(walls):.0f} / median {statistics.median(walls):.0f} "
                  f"ms, CPU median {statistics.median(cpus):.0f} ms")  # fmt: skip
        for k in ("off", "on"):
            r = [res[k][i][0] / res["threads"][i][0] for i in range(a.pairs)]
            print(f"  {k:8s}/ threads, pairwise: median {statistics.median(r):.2f}, "
                  f"{min(r):.2f}-{max(r):.2f}, <= 1.2 in {sum(x <= 1.2 for x in r)} of {len(r)}")  # fmt: skip
        for k in ("off", "on") if a.timeline else ():
            got = [_ends_apart(sides[k]) for _ in range(a.timeline)]
            gaps = " ".join(f"{g:.0f}" for g, _ in got)
            print(f"  {k:8s} workers' ends apart (ms): {gaps}; median "
                  f"{statistics.median(g for g, _ in got):.0f}")  # fmt: skip
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main()
