"""Octal games: values per second of the rare-value engine, one core and two.

Run: ``nice python benchmarks/bench_octal_rate.py [--quick] [--long] [--officers]``.

For 0.6 (Officers), 0.77 (Kayles), 4.7 and 0.137 (Dawson's chess), to 2^20 terms
(``--quick``: 2^18; 0.137 heap by heap to 2^17 only: it has no sparse space):

- *warm*: ``octal_run`` in this process after a first small run (numba's machine code
  loaded), CPU time of the run (``time.process_time``) and wall time; every heap computed
  (``periodic=False``) and as ``nimlab.sequence`` runs it (a period proved by the
  Guy–Smith theorem is extended);
- *fresh process*: ``python -c`` that imports nimlab and runs the same call, CPU time of
  the child (``resource.getrusage``) and wall time, the import and the loading of the
  disk-cached kernels included;
- 0.6 with ``threads=1`` and ``threads=2`` (the parallel blocks of
  :mod:`nimlab.engine._octal_parallel`): CPU and wall time of each; the speed-up is that of
  the wall times, which only mean something when the machine is otherwise idle, so the
  load average (``os.getloadavg``) is printed with each line;
- the values are compared with those of the direct method (2^14 terms) and between the
  one- and two-thread runs.

``--long``: 0.6 to 2^24 terms with one thread and with two.

``--officers``: only issue 25's figure, 0.6 to 2^20 on one core (``threads=1``, every heap
computed, ``periodic=False``), warm, best CPU time of three runs (``time.process_time``),
with the load average; ``--officers --long`` adds 0.6 to 2^24 (one run).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

import numpy as np

from nimlab.engine.octal_rare import octal_run

CODES = ("0.6", "0.77", "4.7", "0.137")


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def warm(code: str, n: int, threads: int = 1, periodic: bool = False) -> tuple[str, np.ndarray]:
    t0, w0 = time.process_time(), time.perf_counter()
    run = octal_run(code, n, periodic=periodic, threads=threads)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    per = f", period {run.period[1]} from {run.period[0]}" if run.period else ""
    line = (
        f"{code:>6} 2^{n.bit_length() - 1} threads={threads} periodic={periodic}: "
        f"{cpu:6.2f} s CPU {wall:6.2f} s wall, {n / cpu:12,.0f} values/s of CPU, "
        f"{n / wall:12,.0f} of wall; {run.computed:,} computed{per} ({load()})"
    )
    return line, run.values


def fresh(code: str, n: int, periodic: bool) -> str:
    prog = (
        "from nimlab.engine.octal_rare import octal_run; "
        f"octal_run({code!r}, {n}, periodic={periodic})"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", prog], check=True)
    wall = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (
        f"{code:>6} 2^{n.bit_length() - 1} fresh process periodic={periodic}: {cpu:6.2f} s "
        f"CPU {wall:6.2f} s wall (import and cached kernels included), "
        f"{n / cpu:12,.0f} values/s of CPU ({load()})"
    )


def officers(long: bool) -> None:
    """0.6 to 2^20 on one core, best of three warm runs; 2^24 once with *long*."""
    octal_run("0.6", 40_000, periodic=False)  # numba's machine code loaded
    n = 1 << 20
    times = []
    for _ in range(3):
        t0 = time.process_time()
        run = octal_run("0.6", n, periodic=False, threads=1)
        times.append(time.process_time() - t0)
    best = min(times)
    print(
        f"0.6 2^20 threads=1 periodic=False: best {best:.3f} s CPU of "
        f"{', '.join(f'{t:.3f}' for t in times)}: {n / best:,.0f} values/s ({load()}); "
        f"{run.rare:,} rare heaps, largest value {int(run.values.max())}"
    )
    if long:
        line, vals = warm("0.6", 1 << 24)
        print(line)
        print(f"  largest value to 2^24: {int(vals.max())} at {int(vals.argmax())}")


def main() -> None:
    if "--officers" in sys.argv:
        officers("--long" in sys.argv)
        return
    n = 1 << (18 if "--quick" in sys.argv else 20)
    for code in CODES:  # numba's machine code loaded (compiled once, then from the disk)
        octal_run(code, 40_000, threads=1)
    octal_run("0.6", 40_000, threads=2)
    m = 1 << 14
    same = np.array_equal(
        octal_run("0.6", m, periodic=False).values, octal_run("0.6", m, direct=True).values
    )
    print(f"0.6 to 2^14: rare-value method equal to the direct method: {same}")
    assert same
    print("warm, one core:")
    for code in CODES:
        for periodic in (False, True):
            # 0.137 has no sparse space (a third of its heaps rare): heap by heap to 2^17 only
            size = min(n, 1 << 17) if code == "0.137" and not periodic else n
            print(warm(code, size, periodic=periodic)[0])
    print("fresh process, one core:")
    for code in CODES:
        print(fresh(code, n, periodic=True))
    print("0.6, one thread and two:")
    for size in (n, 1 << 24) if "--long" in sys.argv else (n,):
        one, a = warm("0.6", size, threads=1)
        two, b = warm("0.6", size, threads=2)
        print(one)
        print(two, "(equal values)" if np.array_equal(a, b) else "DIFFERENT VALUES")
        assert np.array_equal(a, b)
        if size == 1 << 24:
            head = a[: 1 << 21]
            print(
                f"  largest value of the first 2^21: {int(head.max())} at {int(head.argmax())} "
                f"(T. Czajka's UnsolvedGames.md: 319 at 1274955); to 2^24: {int(a.max())} at "
                f"{int(a.argmax())}"
            )


if __name__ == "__main__":
    main()
