"""Octal games: Kayles and Dawson's Kayles periods proved; 0.6 to 2^20 by rare values.

Run: ``python benchmarks/bench_engine_octal.py [--quick]``. Prints the periods found
and proved (Guy–Smith), the time of the octal game 0.6 to 2^20 terms with the
rare-value (sparse space) method (target: under 60 s; ``--quick`` stops at 2^18), and
the ratio to the direct quadratic method and to the pure-Python search on shorter runs
in the same process.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from nimlab import game, periodicity_of, sequence
from nimlab.engine.sequences import octal_sequence
from nimlab.solvers.search import Solver


def main() -> None:
    octal_sequence("0.6", 3000)  # compile / load the numba cache
    for name, code in (("Kayles", "0.77"), ("Dawson's Kayles", "0.07")):
        t0 = time.perf_counter()
        per = periodicity_of(game("octal", code=code), 400)
        dt = time.perf_counter() - t0
        print(f"{name} ({code}): {per.summary()} [{dt * 1e3:.0f} ms]")
    m = 1 << 15
    t0 = time.perf_counter()
    a = octal_sequence("0.6", m)
    t_rare = time.perf_counter() - t0
    t0 = time.perf_counter()
    b = octal_sequence("0.6", m, direct=True)
    t_direct = time.perf_counter() - t0
    assert np.array_equal(a, b)
    print(
        f"0.6 to 2^15: rare values {t_rare:.2f}s, direct method {t_direct:.2f}s, "
        f"ratio {t_direct / t_rare:.1f}x (equal: True)"
    )
    g = game("octal", code="0.6")
    s = Solver(g)
    t0 = time.perf_counter()
    py = [s.grundy((h,), method="search") for h in range(40)]
    t_py = time.perf_counter() - t0
    assert py == a[:40].tolist()
    print(f"0.6 to 40 terms by pure-Python search: {t_py:.2f}s (kernel: microseconds)")
    n = 1 << (18 if "--quick" in sys.argv else 20)
    t0 = time.perf_counter()
    seq = sequence(g, n)
    dt = time.perf_counter() - t0
    print(f"0.6 to 2^{n.bit_length() - 1} terms: {dt:.1f}s, largest value {int(seq.max())}")


if __name__ == "__main__":
    main()
