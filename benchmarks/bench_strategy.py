"""Constructive winning moves: time per move at 100 decimal digits, and against a scan.

Run: ``python benchmarks/bench_strategy.py``. For each game it prints the time per
winning move (:func:`nimlab.winning_move`) on random positions with heaps of 100 digits,
checks each move with the closed form, and, where a scan of the moves is feasible (small
heaps), the ratio of a scan-based baseline (iterate the moves, score each with the
closed form, stop at the first P-position) to the construction.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from nimlab import game, winning_move

LIMIT_MS = 10.0


def per_call(fn: Callable[[Any, Any], Any], g: Any, items: list[Any]) -> float:
    """Seconds per call ``fn(g, item)`` over *items* (best of three rounds)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for item in items:
            fn(g, item)
        best = min(best, (time.perf_counter() - t0) / len(items))
    return best


def scan_first(g: Any, pos: Any) -> Any:
    """The baseline: the first option that the closed form calls P."""
    for child in g.moves(pos):
        if g.closed_is_p(child):
            return child
    return None


def digits(rng: random.Random, n: int = 100) -> int:
    return rng.randrange(10 ** (n - 1), 10**n)


def main() -> None:
    rng = random.Random(2026)
    cases: list[tuple[str, Any, Callable[[], Any], Callable[[], Any]]] = [
        (
            "nim, 10 heaps of 100 digits",
            game("nim"),
            lambda: tuple(digits(rng) for _ in range(10)),
            lambda: tuple(rng.randrange(1, 200) for _ in range(10)),
        ),
        (
            "Nim_K K=3, 20 heaps of 100 digits",
            game("moore", k=3),
            lambda: tuple(digits(rng) for _ in range(20)),
            lambda: tuple(rng.randrange(1, 12) for _ in range(8)),
        ),
        (
            "single-delete n=4, heaps of 100 digits",
            game("single-delete"),
            lambda: tuple(digits(rng) * 2 ** rng.randrange(8) for _ in range(4)),
            lambda: tuple(rng.randrange(1, 400) for _ in range(4)),
        ),
        (
            "emperor, 5 ranges of 4 heaps of 100 digits",
            game("emperor"),
            lambda: tuple(tuple(digits(rng) for _ in range(4)) for _ in range(5)),
            lambda: tuple(tuple(rng.randrange(0, 4) for _ in range(2)) for _ in range(3)),
        ),
    ]
    print(f"{'game':<44} {'ms/move':>8} {'scan/construct (small)':>24}")
    ok = True
    for label, g, big, small in cases:
        positions = [g.validate(big()) for _ in range(20)]
        positions = [p for p in positions if not g.closed_is_p(p)]
        for p in positions:
            mv = winning_move(g, p)
            assert mv is not None and g.closed_is_p(mv), (label, p)
        t = per_call(winning_move, g, positions)
        ms = t * 1000
        ok &= ms < LIMIT_MS
        smalls = [g.validate(small()) for _ in range(30)]
        smalls = [p for p in smalls if not g.closed_is_p(p)][:10]
        t_scan = per_call(scan_first, g, smalls)
        t_con = per_call(winning_move, g, smalls)
        ratio = f"{t_scan / t_con:,.0f}x ({t_scan * 1e3:.2f} ms scan)"
        print(f"{label:<44} {ms:8.3f} {ratio:>24}")
    print("100-digit scans are infeasible (about 10^100 moves per position).")
    print(f"all under {LIMIT_MS:g} ms per move: {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
