"""Misère quotients and genus: time to compute, beside Siegel's MisereSolver when present.

Run: ``python benchmarks/bench_misere.py`` (``--quick`` for the short cases only).
Computes misère quotients of Kayles (0.77) to heaps 40 and 120 (order 40 from heap 27),
0.75, misère Nim, Dawson's Kayles (0.07) to heaps 24 and 30 (order 360, the size Siegel
reports for MisereSolver) and Daisies (4.7) to heaps 12 and 20, each with the CPU time of
this process (the machine is shared: the CPU time is the steadier number), and the
genus of Kayles heaps 0..20.

MisereSolver (CGSuite's Java sources, built outside the repository as docs/PERFORMANCE.md
says) runs beside each quotient when ``$MISERESOLVER_CLASSES`` names its compiled
classes: a child ``java`` process per case, whose own time inside the JVM (``next()``
to the heap bound, no periodicity stop, JIT warm-up included) and CPU time are printed
with the ratios nimlab / MisereSolver (wall: both timed inside their process; CPU:
nimlab's computation against the whole java process); its order and P-portion size must equal nimlab's.
Baseline in the same process: the exhaustive misère search (``Solver``) deciding all sums
of three Kayles heaps of total <= 27 with heaps <= 12, against the quotient answering the
same sums.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
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


def _timed(label: str, f):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = f()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label:<44} {dt:8.3f} s wall {dc:8.3f} s CPU")
    return out, dt, dc


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


def main() -> None:
    quick = "--quick" in sys.argv
    misere_quotient("0.75", 5)  # imports (numpy) before the first timing
    for code, n in CASES:
        if quick and (code, n) not in QUICK:
            continue
        q, wall, cpu = _timed(
            f"misère quotient {code}, heaps <= {n}", lambda c=code, m=n: misere_quotient(c, m)
        )
        print(f"    order {q.order}, |P| = {len(q.p_portion)}, {len(q.generators)} generators")
        ms = _miseresolver(code, n)
        if ms is not None:
            jvm, child, order, p_size = ms
            assert (order, p_size) == (q.order, len(q.p_portion)), (code, n, order, p_size)
            print(
                f"    MisereSolver: {jvm:.3f} s in its JVM, {child:.3f} s CPU of the java process "
                f"(start included); nimlab / MisereSolver: {wall / max(jvm, 1e-9):.2f}x wall, "
                f"{cpu / max(child, 1e-9):.2f}x CPU"
            )
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
