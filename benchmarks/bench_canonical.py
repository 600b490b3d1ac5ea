"""Canonical tables against the C reference, and the parallel wavefront on 1 and 2 cores.

Run: ``python benchmarks/bench_canonical.py [--quick] [--c-only|--speedup-only]``.

1. Side by side with ``benchmarks/reference_c/single_delete_table.c`` (compiled with
   ``gcc -O2`` into a temporary directory): the canonical 4-heap Single-delete outcome
   table below 256 and the 5-heap table below 64 (``--quick``: 128 and 48). Each run is a
   child process of its own, measured by ``resource.getrusage`` of that child: wall time,
   CPU time and peak RSS. nimlab's child first compiles its kernels on a tiny table (the
   time is printed apart) and then times ``nimlab.canonical_table``; positions and
   P-positions must agree with C's.
2. The parallel speed-up: the canonical 5-heap Single-delete solve below 48 by the
   wavefront with ``numba.set_num_threads(1)`` and ``(2)`` in one process, interleaved,
   best of three, and the serial engine for comparison.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REF = Path(__file__).resolve().parent / "reference_c" / "single_delete_table.c"

_CHILD = r"""
import json, resource, sys, time
import numba, nimlab
n, size, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
numba.set_num_threads(threads)
t0 = time.perf_counter()
nimlab.canonical_table("single-delete", 12, heaps=n, kind="outcome", parallel=True)
compile_s = time.perf_counter() - t0
c0 = time.process_time()
t0 = time.perf_counter()
t = nimlab.canonical_table("single-delete", size, heaps=n, kind="outcome", parallel=True)
wall = time.perf_counter() - t0
cpu = time.process_time() - c0
print(json.dumps({"positions": t.count, "p": t.p_count, "wall": wall, "cpu": cpu,
                  "compile": compile_s,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _measured(argv: list[str]) -> tuple[str, float, float, float]:
    """Run *argv* as a child of a fresh wrapper: its output, wall, CPU seconds, peak MiB."""
    wrapper = (
        "import resource, subprocess, sys, time, json\n"
        "t0 = time.perf_counter()\n"
        "out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True).stdout\n"
        "wall = time.perf_counter() - t0\n"
        "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'out': out, 'wall': wall, 'cpu': r.ru_utime + r.ru_stime,"
        " 'rss': r.ru_maxrss / 1024}))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", wrapper, *argv], check=True, capture_output=True, text=True
    )
    d = json.loads(res.stdout)
    return d["out"], d["wall"], d["cpu"], d["rss"]


def against_c(cases: list[tuple[int, int]], threads: int) -> None:
    if shutil.which("gcc") is None:
        print("gcc not found: no C baseline")
        return
    with tempfile.TemporaryDirectory() as tmp:
        exe = str(Path(tmp) / "single_delete_table")
        subprocess.run(["gcc", "-O2", "-o", exe, str(REF)], check=True)
        for n, size in cases:
            out, c_wall, c_cpu, c_rss = _measured([exe, str(n), str(size)])
            fields = dict(f.split("=") for f in out.split() if "=" in f)
            c_pos, c_p = int(fields["positions"]), int(fields["P"])
            out, wall, cpu, rss = _measured(
                [sys.executable, "-c", _CHILD, str(n), str(size), str(threads)]
            )
            d = json.loads(out)
            agree = (d["positions"], d["p"]) == (c_pos, c_p)
            print(
                f"single-delete {n} heaps < {size}: {c_pos:,} positions, {c_p:,} P "
                f"({'agree' if agree else 'DISAGREE: nimlab ' + str((d['positions'], d['p']))})\n"
                f"  C:      {c_wall:7.1f} s wall, {c_cpu:7.1f} s CPU, {c_rss:7.0f} MiB peak\n"
                f"  nimlab: {d['wall']:7.1f} s wall, {d['cpu']:7.1f} s CPU for the table "
                f"({threads} threads; compiling before it {d['compile']:.1f} s), "
                f"{rss:7.0f} MiB peak; whole process {wall:.1f} s wall, {cpu:.1f} s CPU\n"
                f"  ratio:  {d['wall'] / c_wall:.2f}x wall, {d['cpu'] / c_cpu:.2f}x CPU, "
                f"{rss / c_rss:.2f}x memory",
                flush=True,
            )


def speedup(size: int = 48, repeats: int = 3) -> None:
    import numba

    import nimlab
    from nimlab.engine.compiled import CompiledSolver

    g = nimlab.game("single-delete")
    for parallel in (True, False):  # compile both kernels first
        CompiledSolver(g, 5, "outcome", parallel=parallel).solve_below(12)
    best: dict[str, tuple[float, float]] = {}
    for _ in range(repeats):
        for label, threads, parallel in (("1 thread", 1, True), ("2 threads", 2, True),
                                         ("serial engine", 1, False)):  # fmt: skip
            numba.set_num_threads(threads)
            s = CompiledSolver(g, 5, "outcome", max_bytes=2**31, parallel=parallel)
            c0 = time.process_time()
            t0 = time.perf_counter()
            s.solve_below(size)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if label not in best or wall < best[label][0]:
                best[label] = (wall, cpu)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for label, (wall, cpu) in best.items():
        print(
            f"canonical 5-heap single-delete < {size}, {label}: {wall:.2f} s wall, {cpu:.2f} s CPU"
        )
    one, two = best["1 thread"][0], best["2 threads"][0]
    print(f"speed-up on 2 cores: {one / two:.2f}x (wall, best of {repeats})")


def main() -> None:
    quick = "--quick" in sys.argv
    threads = int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 1))
    if "--speedup-only" not in sys.argv:
        against_c([(4, 128), (5, 48)] if quick else [(4, 256), (5, 64)], threads)
    if "--c-only" not in sys.argv:
        speedup()


if __name__ == "__main__":
    main()
