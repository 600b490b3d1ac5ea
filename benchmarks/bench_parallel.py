"""Parallel efficiency: each case on 1 and on 2 workers in one run (issue 22).

Run: ``python benchmarks/bench_parallel.py [--quick] [--repeats N] [--only NAME,...]``.

Cases (``--quick``: smaller bounds, no ``reproduce``; about a minute on 2 quiet cores):

- ``s18-t8``: ``nimlab verify S18-T8 --bound 6000 --no-store`` (five instances of 36 M
  positions, the vectorised check; quick: bound 3000);
- ``sh-t6``: ``nimlab verify 'Sh-T6*' --bound 128 --no-store`` (11.4 M sorted
  positions, the compiled P-set check with an option index; its index is recorded again
  in every run, as in a new process; quick: bound 96);
- ``dask``: the Sh-T6* run on a local Dask cluster of 2 worker processes (started once,
  its start printed apart; its first run, in which the workers load the kernels, is the
  warm-up) against ``--workers 2``; ``dask-s18``: the same for the S18-T8 run (the
  vectorised check, one block per worker). CPU times include the Dask workers' (asked
  from each worker; an idle worker uses about 1 % of a core), from the cluster's start on;
- ``canonical``: the canonical 5-heap Single-delete outcome table below 48, numba's
  wavefront with 1 and 2 threads (quick: below 40);
- ``reproduce``: ``nimlab reproduce --no-store`` with 1 and 2 workers (full run only).

Every case runs in this process once first (kernels compiled or loaded, excluded), then
1 and 2 workers alternately, best of ``--repeats`` (default 2) by wall time. Printed per
case: wall and CPU seconds (this process and its children), the speed-up (1-worker wall /
2-worker wall), the CPU ratio (2-worker CPU / 1-worker CPU) and the serial part of the
2-worker run: its wall time outside the threads' parallel work (set-up before the first
chunk, merging, the end), as a share of the 1-worker wall time, and the speed-up that
the CPU times predict on free cores (1-worker CPU over the busiest thread's CPU plus the
serial part). The machine's load
average is printed with each case: on a shared machine, wall times are inflated and the
speed-up understated; the CPU figures are steadier.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable
from typing import Any


def _cpu() -> float:
    """CPU seconds of this process, its ended children and the Dask workers, if any."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime + _dask_cpu()


def _dask_cpu() -> float:
    """CPU seconds of the local Dask cluster's worker processes so far (they are not
    children this process waits for: RUSAGE_CHILDREN misses them)."""
    if not _CLUSTER:
        return 0.0
    from distributed import Client

    def used() -> float:
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF)
        return float(r.ru_utime + r.ru_stime)

    if not _CLIENT:
        _CLIENT.append(Client(_CLUSTER[0]))
    return float(sum(_CLIENT[0].run(used).values()))


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _timed(run: Callable[[], Any]) -> tuple[float, float, float, float]:
    """``(wall, cpu, serial, critical)`` of one call; serial: wall outside the threads'
    work; critical: the CPU seconds of the busiest thread of each threaded run, summed
    (with the serial part, what the wall time would be on free cores)."""
    from nimlab.verification import pool

    pool.RUNS.clear()
    t0, c0 = time.perf_counter(), _cpu()
    run()
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    inside = sum(r["end"] - r["start"] for r in pool.RUNS if "end" in r)
    critical = sum(max(r["cpu"], default=0.0) for r in pool.RUNS)
    nan = float("nan")
    return wall, cpu, (wall - inside) if pool.RUNS else nan, critical if pool.RUNS else nan


def _case(name: str, one: Callable[[], Any], two: Callable[[], Any], repeats: int) -> None:
    one()  # compile or load every kernel first
    best: dict[int, tuple[float, float, float, float]] = {}
    for _ in range(repeats):
        for k, run in ((1, one), (2, two)):
            got = _timed(run)
            if k not in best or got[0] < best[k][0]:
                best[k] = got
    (w1, c1, _s1, _k1), (w2, c2, s2, k2) = best[1], best[2]
    serial = "n/a" if s2 != s2 else f"{s2:.3f} s = {100 * s2 / w1:.1f}% of 1-worker wall"
    free = "" if k2 != k2 else f" (on free cores, from CPU times: {c1 / (k2 + s2):.2f}x)"
    print(
        f"{name}: 1 worker {w1:.2f} s wall / {c1:.2f} s CPU; 2 workers {w2:.2f} s wall / "
        f"{c2:.2f} s CPU; speed-up {w1 / w2:.2f}x{free}, CPU ratio {c2 / c1:.2f}; serial "
        f"part {serial}; load {_load()}",
        flush=True,
    )


def _theorem(tid: str, bound: int, **kw: Any) -> Callable[[], Any]:
    from nimlab.theory.registry import check_theorem
    from nimlab.verification import compiled

    def run() -> None:
        compiled._INDEXES.clear()  # as in a new process: the option index is recorded
        r = check_theorem(tid, bound, store=False, **kw)
        assert r.ok, r

    return run


_CLUSTER: list[Any] = []
_CLIENT: list[Any] = []


def _on_dask(tid: str, bound: int) -> Callable[[], Any]:
    """The check on a local Dask cluster of 2 worker processes, started once (its start
    printed apart: a cluster is started once and serves many runs)."""

    def run() -> None:
        if not _CLUSTER:
            import logging

            from distributed import LocalCluster

            t0 = time.perf_counter()
            _CLUSTER.append(
                LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL,
                )
            )  # fmt: skip
            print(f"  (Dask cluster of 2 workers started in {time.perf_counter() - t0:.2f} s)")
        _theorem(tid, bound, workers=2, scheduler=_CLUSTER[0].scheduler_address)()

    return run


def _canonical(size: int, threads: int) -> Callable[[], Any]:
    # the engine's wavefront sets OMP_WAIT_POLICY=PASSIVE when it is imported: before
    # numba starts its threads (set_num_threads does), else the waiting thread spins
    import numba

    import nimlab
    import nimlab.engine._levels

    def run() -> None:
        numba.set_num_threads(threads)
        try:
            t = nimlab.canonical_table(
                "single-delete", size, heaps=5, kind="outcome", parallel=True
            )
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        assert t.count > 0

    return run


def _reproduce(workers: int) -> Callable[[], Any]:
    import nimlab

    def run() -> None:
        rows = nimlab.reproduce(workers=workers, store=False)
        assert all(r.matches for r in rows)

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller bounds, no reproduce")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated case names")
    args = ap.parse_args()
    quick = args.quick
    only = {x for x in args.only.split(",") if x}
    s18, sh, canon = (3000, 96, 40) if quick else (6000, 128, 48)
    print(f"{os.cpu_count()} cores; load average {_load()}; {'quick' if quick else 'full'} run")
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        (f"verify S18-T8 --bound {s18}", _theorem("S18-T8", s18, workers=1),
         _theorem("S18-T8", s18, workers=2)),
        (f"verify Sh-T6* --bound {sh}", _theorem("Sh-T6*", sh, workers=1),
         _theorem("Sh-T6*", sh, workers=2)),
        (f"Sh-T6* --bound {sh}: --workers 2 (as 1) against Dask, 2 workers (as 2)",
         _theorem("Sh-T6*", sh, workers=2), _on_dask("Sh-T6*", sh)),
        (f"S18-T8 --bound {s18}: --workers 2 (as 1) against Dask, 2 workers (as 2)",
         _theorem("S18-T8", s18, workers=2), _on_dask("S18-T8", s18)),
        (f"canonical 5-heap Single-delete < {canon}, numba threads", _canonical(canon, 1),
         _canonical(canon, 2)),
    ]  # fmt: skip
    if not quick:
        cases.append(("reproduce --no-store", _reproduce(1), _reproduce(2)))
    names = ["s18-t8", "sh-t6", "dask", "dask-s18", "canonical", "reproduce"]
    for key, (name, one, two) in zip(names, cases, strict=False):
        if not only or key in only:
            _case(name, one, two, args.repeats)
    for client in _CLIENT:
        client.close()
    for cluster in _CLUSTER:
        cluster.close()


if __name__ == "__main__":
    main()
