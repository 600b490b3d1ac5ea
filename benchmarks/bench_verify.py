"""Verification throughput: Ryuo Nim(3) (S18-T8) by vectorised local check, 1 vs 2 workers.

Run: ``python benchmarks/bench_verify.py [BOUND]`` (default 4096: all x, y < 4096, 16.7 M
positions). Prints positions checked per second on 1 and 2 worker processes and the
scaling ratio, then the same on the Python (per-position) path at a small bound for
comparison. Results are reported in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import resource
import sys
import time

import nimlab
from nimlab.verification.expr import parse_expression
from nimlab.verification.local import ExprClaim
from nimlab.verification.runner import CheckSpec, heap_space, run_spec

FORMULA = "3*((a//3)^(b//3)) + (a+b)%3"


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def _control() -> float:
    """How well two CPU-bound processes scale on this machine right now (1 vs 2 processes)."""
    from concurrent.futures import ProcessPoolExecutor

    n = 5_000_000
    t0 = time.perf_counter()
    _spin(n)
    _spin(n)
    one = time.perf_counter() - t0
    with ProcessPoolExecutor(2) as ex:
        list(ex.map(_spin, [10, 10]))
        t0 = time.perf_counter()
        list(ex.map(_spin, [n, n]))
        two = time.perf_counter() - t0
    return one / two


def main() -> None:
    bound = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    g = nimlab.game("ryuo", p=3)
    nimlab.verify(g, FORMULA, bound=64, workers=1)  # compile the kernels once (cached)
    rates = {}
    for workers in (1, 2):
        t0, c0 = time.perf_counter(), _cpu()
        r = nimlab.verify(g, FORMULA, bound=bound, workers=workers)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        assert r.ok and r.positions_checked == bound * bound
        rates[workers] = r.positions_checked / wall
        print(
            f"ryuo(p=3), x, y < {bound}: {r.positions_checked:,} positions, {workers} worker(s), "
            f"{r.method}, {r.chunks} chunks: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"{rates[workers]:,.0f} positions/s"
        )
    print(f"scaling 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")
    print(f"control, two pure-Python loops on 2 processes vs 1: {_control():.2f}x")
    print(
        f"load average during the run: {' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())}"
    )
    small = 128
    spec = CheckSpec(
        g, "grundy", ExprClaim(parse_expression(FORMULA, 2, {"p": 3})), heap_space(g, small),
        FORMULA, small,
    )  # fmt: skip
    t0 = time.perf_counter()
    r = run_spec(spec, workers=1)
    wall = time.perf_counter() - t0
    print(
        f"python path, x, y < {small}: {r.positions_checked:,} positions, 1 worker: "
        f"{wall:.1f} s, {r.positions_checked / wall:,.0f} positions/s"
    )


if __name__ == "__main__":
    main()
