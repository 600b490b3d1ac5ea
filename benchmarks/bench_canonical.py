"""Canonical tables against the C reference, and the parallel wavefront on 1 and 2 cores.

Run: ``python benchmarks/bench_canonical.py [--quick] [--c-only|--speedup-only]``.

1. Side by side with ``benchmarks/reference_c/single_delete_table.c`` (compiled with
   ``gcc -O2`` into a temporary directory): the canonical 4-heap Single-delete outcome
   table below 256 and the 5-heap table below 64 (``--quick``: 128 and 48). Each run is a
   child process of its own, measured by ``resource.getrusage`` of that child: wall time,
   CPU time and peak RSS. nimlab's child first compiles its kernels on a tiny table (the
   time is printed apart) and then times ``nimlab.canonical_table``; positions and
   P-positions must agree with C's.
2. The parallel speed-up: ``nimlab.canonical_table`` of 5 heaps below 48 (the solve
   and the copy of its values) by the wavefront with ``numba.set_num_threads(1)`` and
   ``(2)`` in one process, alternately, best of three, and the serial engine for
   comparison. Each run prints its wall and CPU time, its busiest thread's CPU time
   (``/proc/self/task``) and the load average; the summary gives the speed-up in wall
   time, the CPU ratio and the speed-up that the CPU times give on free cores.
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


def _thread_cpu() -> dict[int, float]:
    """CPU seconds of each thread of this process so far (Linux ``/proc``; else empty)."""
    out: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for d in Path("/proc/self/task").glob("*") if Path("/proc/self/task").is_dir() else ():
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(d.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


def speedup(size: int = 48, repeats: int = 3) -> None:
    """``nimlab.canonical_table`` of 5 heaps below *size* (the solve and the copy of its
    values) on 1 and 2 numba threads, alternately, and the serial engine; per run: wall,
    CPU, the busiest thread's CPU and the load average."""
    import numba

    import nimlab
    import nimlab.engine._levels

    g = nimlab.game("single-delete")
    for parallel in (True, False):  # compile or load both kernels first
        nimlab.canonical_table(g, 12, heaps=5, kind="outcome", parallel=parallel)
    runs: dict[str, list[tuple[float, float, float]]] = {}
    count = 0
    for _ in range(repeats):
        for label, threads, parallel in (("1 thread", 1, True), ("2 threads", 2, True),
                                         ("serial engine", 1, False)):  # fmt: skip
            numba.set_num_threads(threads)
            before = _thread_cpu()
            c0 = time.process_time()
            t0 = time.perf_counter()
            t = nimlab.canonical_table(g, size, heaps=5, kind="outcome", parallel=parallel)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            after = _thread_cpu()
            busiest = max((v - before.get(k, 0.0) for k, v in after.items()), default=cpu)
            runs.setdefault(label, []).append((wall, cpu, busiest))
            assert count in (0, t.count)
            count = t.count
            print(
                f"  {label}: {wall:.2f} s wall, {cpu:.2f} s CPU, busiest thread "
                f"{busiest:.2f} s CPU; load {_load()}",
                flush=True,
            )
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    best = {label: min(r) for label, r in runs.items()}
    for label, (wall, cpu, busiest) in best.items():
        print(
            f"canonical 5-heap single-delete < {size} ({count:,} positions), {label}, best "
            f"of {repeats}: {wall:.2f} s wall, {cpu:.2f} s CPU (busiest thread {busiest:.2f} s)"
        )
    (w1, c1, _), (w2, c2, b2) = best["1 thread"], best["2 threads"]
    print(
        f"speed-up on 2 cores: {w1 / w2:.2f}x wall (best of {repeats}), CPU ratio "
        f"{c2 / c1:.2f}; from CPU times (1-thread CPU / busiest thread of the 2-thread "
        f"run, what 2 free cores give): {c1 / b2:.2f}x; against the serial engine: "
        f"{best['serial engine'][0] / w2:.2f}x wall; load {_load()}"
    )


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    quick = "--quick" in sys.argv
    threads = int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 1))
    if "--speedup-only" not in sys.argv:
        against_c([(4, 128), (5, 48)] if quick else [(4, 256), (5, 64)], threads)
    if "--c-only" not in sys.argv:
        speedup()


if __name__ == "__main__":
    main()
