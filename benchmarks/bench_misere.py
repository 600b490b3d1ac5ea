"""Misère quotients and genus: time to compute, beside Siegel's MisereSolver when present.

Run: ``nice python benchmarks/bench_misere.py`` (``--quick`` for the short cases only,
``--repeat N`` for N side-by-side runs of each case, default 3). Computes misère quotients
of Kayles (0.77) to heaps 40 and 120 (order 40 from heap 27), 0.75, misère Nim, Dawson's
Kayles (0.07) to heaps 24 and 30 (order 360, the size Siegel reports for MisereSolver)
and Daisies (4.7) to heaps 12 and 20, and the genus of Kayles heaps 0..20.

Each quotient is computed in a NEW Python process (``import nimlab``, then one
``misere_quotient`` call, timed): the call's CPU and wall time include whatever that
process loads for it (numba and the compiled loops from numba's disk cache, when the
candidates are large enough to use them), and the child also reports its whole CPU time
(interpreter start and imports included) and the numba compilations the call made (0
once the loops are on disk: ``nimlab warm``). The machine is shared: CPU times are the
steadier numbers, and each case is run ``--repeat`` times, nimlab and MisereSolver one
after the other.

MisereSolver (CGSuite's Java sources, built outside the repository as docs/PERFORMANCE.md
says) runs beside each quotient when ``$MISERESOLVER_CLASSES`` names its compiled
classes: a child ``java`` process per run, whose own time inside the JVM (``next()`` to the
heap bound, no periodicity stop, JIT warm-up included) and the CPU time of the whole java
process are printed, with the ratios nimlab call CPU / java CPU and nimlab process CPU /
java CPU (medians of the runs); its order and P-portion size must equal nimlab's.
Baseline in this process: the exhaustive misère search (``Solver``) deciding all sums of
three Kayles heaps of total <= 27 with heaps <= 12, against the quotient answering the
same sums.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

from nimlab import game
from nimlab.misere import genus_sequence, misere_quotient
from nimlab.solvers.search import Solver

CASES = (
    ("0.77", 40),
    ("0.77", 120),
    ("0.75", 60),
    ("0.3333", 3),
    ("4.7", 12),
    ("0.07", 24),
    ("0.07", 30),
    ("4.7", 20),
)
QUICK = {("0.77", 40), ("0.77", 120), ("0.75", 60), ("0.3333", 3), ("4.7", 12), ("0.07", 24)}


_CHILD = """
import json, resource, sys, time
import nimlab
from nimlab.misere import misere_quotient
c0, t0 = time.process_time(), time.perf_counter()
q = misere_quotient(sys.argv[1], int(sys.argv[2]))
cpu, wall = time.process_time() - c0, time.perf_counter() - t0
compiles = 0
loaded = "numba" in sys.modules
kernels = sys.modules.get("nimlab.misere._kernels")
if kernels is not None:
    from numba.core.registry import CPUDispatcher
    for f in vars(kernels).values():
        if isinstance(f, CPUDispatcher):
            compiles += sum(f.stats.cache_misses.values())
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": cpu, "wall": wall, "process_cpu": ru.ru_utime + ru.ru_stime,
                  "compiles": compiles, "numba": loaded,
                  "order": q.order, "p": len(q.p_portion)}))
"""


def _timed(label: str, f):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = f()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label:<44} {dt:8.3f} s wall {dc:8.3f} s CPU")
    return out, dt, dc


def _nimlab(code: str, n: int) -> dict[str, float]:
    """One ``misere_quotient`` call in a new process: its times and the process's."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, code, str(n)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    got: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return got


def _miseresolver(code: str, n: int) -> tuple[float, float, int, int] | None:
    """MisereSolver's (time in its JVM, CPU of the child, order, |P|), or None."""
    classes = os.environ.get("MISERESOLVER_CLASSES")
    java = shutil.which("java")
    if not classes or java is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [java, "-cp", classes, "org.cgsuite.core.misere.solver.Main", code, str(n)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"\|Q\| = (\d+), \|P\| = (\d+), ([\d.]+) s in the JVM", out)
    if m is None:
        raise RuntimeError(f"MisereSolver printed no result for {code} to {n}:\n{out[-2000:]}")
    return float(m.group(3)), cpu, int(m.group(1)), int(m.group(2))


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for code, n in CASES:
        if quick and (code, n) not in QUICK:
            continue
        runs, java = [], []
        for _ in range(repeat):
            runs.append(_nimlab(code, n))
            ms = _miseresolver(code, n)
            if ms is not None:
                java.append(ms)
        r = runs[-1]
        cpu = _median([x["cpu"] for x in runs])
        each = ", ".join(f"{x['cpu']:.3f}" for x in runs)
        proc = _median([x["process_cpu"] for x in runs])
        print(
            f"misère quotient {code}, heaps <= {n}: order {r['order']}, |P| = {r['p']}; "
            f"new process, {repeat} runs: call {cpu:.3f} s CPU "
            f"({each}), "
            f"{_median([x['wall'] for x in runs]):.3f} s wall, whole process {proc:.3f} s CPU; "
            f"numba {'loaded' if r['numba'] else 'not loaded'}, "
            f"{sum(int(x['compiles']) for x in runs)} compilations"
        )
        if java:
            order, p_size = java[-1][2], java[-1][3]
            assert (order, p_size) == (r["order"], r["p"]), (code, n, order, p_size)
            jcpu = _median([j[1] for j in java])
            jeach = ", ".join(f"{j[1]:.3f}" for j in java)
            print(
                f"    MisereSolver: {_median([j[0] for j in java]):.3f} s in its JVM, "
                f"{jcpu:.3f} s CPU of the java process ({jeach});"
                f" nimlab / MisereSolver CPU: call {cpu / max(jcpu, 1e-9):.2f}x, "
                f"whole process {proc / max(jcpu, 1e-9):.2f}x"
            )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    _timed("genus of Kayles heaps 0..20", lambda: genus_sequence(game("octal", code="0.77"), 21))
    sums = [
        (a, b, c)
        for a in range(1, 13)
        for b in range(a, 13)
        for c in range(b, 13)
        if a + b + c <= 27
    ]
    q = misere_quotient("0.77", 12)
    s = Solver(game("octal", code="0.77"))
    truth, t_search, _ = _timed(
        f"exhaustive misère search, {len(sums)} sums",
        lambda: [s.is_p(x, misere=True) for x in sums],
    )
    fast, t_q, _ = _timed(
        f"quotient lookups, same {len(sums)} sums", lambda: [q.is_p(x) for x in sums]
    )
    assert truth == fast
    print(f"    quotient / search speed ratio: {t_search / max(t_q, 1e-9):,.0f}x")


if __name__ == "__main__":
    main()
