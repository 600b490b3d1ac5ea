"""Ryuo Nim(p) and RGAME example 2 Grundy tables at 4096x4096 (target: each under 3 s).

Run: ``python benchmarks/bench_engine_ryuo.py``. Times ``nimlab.table`` on the compiled
kernel, checks the whole table against the closed forms ([S18] Theorems 8 and 10/12),
and compares the time per cell with the pure-Python generic path (the exact search over
the ruleset's moves) on a 96x96 box, in the same process.
"""

from __future__ import annotations

import time

import numpy as np

from nimlab import game, table


def timed(fn: object) -> tuple[float, np.ndarray]:  # type: ignore[type-arg]
    t0 = time.perf_counter()
    r = fn()  # type: ignore[operator]
    return time.perf_counter() - t0, r


def main() -> None:
    n = 4096
    cases = [
        ("ryuo(p=3)", game("ryuo", p=3)),
        (
            "RGAME(Sub{1,2,3}; All-but{8}, All-but{4,8})",
            game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8"),
        ),
    ]
    x, y = np.indices((n, n))
    for label, g in cases:
        table(g, 32)  # compile / load the numba cache
        t_k = min(timed(lambda g=g: table(g, n))[0] for _ in range(2))
        tab = table(g, n)
        if g.name == "ryuo":
            expected = 3 * ((x // 3) ^ (y // 3)) + (x + y) % 3  # S18-T8
        else:
            g1 = x % 8 + 8 * (x // 16)
            g2 = y % 4 + 4 * (y // 12)
            expected = 4 * ((g1 // 4) ^ (g2 // 4)) + (x + y) % 4  # S18-T12
        equal = bool(np.array_equal(tab, expected))
        m = 96
        t_g, _ = timed(lambda g=g, m=m: table(g, m, engine="generic"))
        per_k = t_k / n / n
        per_g = t_g / m / m
        print(
            f"{label} {n}x{n}: kernel {t_k:.3f}s ({per_k * 1e9:.0f} ns/cell), equal to the "
            f"closed form: {equal}; generic search {per_g * 1e6:.0f} µs/cell at {m}x{m}, "
            f"ratio {per_g / per_k:.0f}x"
        )
        assert equal


if __name__ == "__main__":
    main()
