"""All 255 all-but sets X ⊆ {1..8}, each to n = 10^6, with arithmetic periodicity.

Run: ``python benchmarks/bench_engine_allbut.py``. For each nonempty X computes
``G(0..10^6-1)`` with the compiled kernel and finds period, preperiod and saltus on the
whole sequence (target: all 255 under 60 s in total), and checks that each is proved
(by the all-but induction of :mod:`nimlab.engine.periodicity`). Baseline in the same
process: the pure-Python memoised search on the first 3000 terms of one set.
"""

from __future__ import annotations

import itertools
import time

from nimlab import game, periodicity, periodicity_of, sequence
from nimlab.solvers.search import Solver

N = 10**6


def main() -> None:
    sequence(game("allbut", S={1}), 100)  # compile / load the numba cache
    periodicity([0, 1, 0, 1, 0, 1])
    t0 = time.perf_counter()
    t_seq = t_per = 0.0
    periods: dict[tuple[int, ...], tuple[int, int, int]] = {}
    for r in range(1, 9):
        for xs in itertools.combinations(range(1, 9), r):
            g = game("allbut", S=set(xs))
            t1 = time.perf_counter()
            seq = sequence(g, N)
            t2 = time.perf_counter()
            per = periodicity(seq)
            t3 = time.perf_counter()
            t_seq += t2 - t1
            t_per += t3 - t2
            assert per.period is not None and per.preperiod is not None, xs
            periods[xs] = (per.period, per.saltus, per.preperiod)
    total = time.perf_counter() - t0
    proved = sum(periodicity_of(game("allbut", S=set(xs)), 4000).proved for xs in periods)
    longest = max(periods.items(), key=lambda kv: kv[1][0])
    print(
        f"all-but X ⊆ {{1..8}}: {len(periods)} sets to n = {N:,} in {total:.1f}s "
        f"(sequences {t_seq:.1f}s, periodicity {t_per:.1f}s); all arithmetic-periodic; "
        f"{proved}/{len(periods)} proved from 4000 terms; longest period {longest[1][0]} "
        f"for X = {set(longest[0])}"
    )
    g = game("allbut", S={2, 5, 7})
    s = Solver(g)
    t1 = time.perf_counter()
    for i in range(3000):
        s.grundy((i,), method="search")
    t_py = (time.perf_counter() - t1) / 3000
    t1 = time.perf_counter()
    sequence(g, N)
    t_k = (time.perf_counter() - t1) / N
    print(
        f"per term, allbut{{2,5,7}}: kernel {t_k * 1e9:.0f} ns, pure-Python search "
        f"{t_py * 1e6:.0f} µs (first 3000 terms), ratio {t_py / t_k:.0f}x"
    )


if __name__ == "__main__":
    main()
