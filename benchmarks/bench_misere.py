"""Misère quotients and genus: time to compute, against exhaustive misère search.

Run: ``python benchmarks/bench_misere.py``. Computes the misère quotient of Kayles (0.77)
for heaps up to 40 (where its order reaches 40 and stays: the same at 60 and 80), of 0.75
(order 8), of misère Nim (heaps <= 3, order 6), of Dawson's Kayles (0.07) to heap 30
(order 360, the size Siegel reports for MisereSolver) and of Daisies (4.7) to heap 20, and
the genus of Kayles heaps 0..20. Each line gives the wall time and the CPU time of this
process (the machine is shared: the CPU time is the steadier number).
Baseline in the same process: the exhaustive misère search (``Solver``) deciding all sums
of three Kayles heaps of total <= 27 with heaps <= 12, against the quotient answering the
same sums.
"""

from __future__ import annotations

import time

from nimlab import game
from nimlab.misere import genus_sequence, misere_quotient
from nimlab.solvers.search import Solver


def _timed(label: str, f):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = f()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label:<52} {dt:8.3f} s wall {dc:8.3f} s CPU")
    return out, dt


def main() -> None:
    cases = (
        ("0.77", 40),
        ("0.77", 80),
        ("0.75", 60),
        ("0.3333", 3),
        ("0.07", 24),
        ("0.07", 30),
        ("4.7", 20),
    )
    for code, n in cases:
        q, _ = _timed(
            f"misère quotient {code}, heaps <= {n}", lambda c=code, m=n: misere_quotient(c, m)
        )
        print(f"    order {q.order}, |P| = {len(q.p_portion)}, {len(q.generators)} generators")
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
    truth, t_search = _timed(
        f"exhaustive misère search, {len(sums)} sums",
        lambda: [s.is_p(x, misere=True) for x in sums],
    )
    fast, t_q = _timed(
        f"quotient lookups, same {len(sums)} sums", lambda: [q.is_p(x) for x in sums]
    )
    assert truth == fast
    print(f"    quotient / search speed ratio: {t_search / max(t_q, 1e-9):,.0f}x")


if __name__ == "__main__":
    main()
