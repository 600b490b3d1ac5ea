"""Generic solver speed: exhaustive search against closed forms, in the same process.

Run: ``python benchmarks/bench_solvers.py``. Prints each time and the ratio search / formula.
"""

from __future__ import annotations

import itertools
import time

from nimlab import game
from nimlab.solvers.search import Solver


def _time(fn: object) -> float:
    t0 = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - t0


def main() -> None:
    nim = game("nim")
    positions = list(itertools.product(range(24), repeat=3))
    t_search = _time(
        lambda: (
            [Solver(nim)._search_grundy(nim.canonical(p)) for p in positions[:1]]
            and [s.grundy(p, "search") for s in [Solver(nim)] for p in positions]
        )
    )
    t_formula = _time(lambda: [nim.closed_grundy(p) for p in positions])
    print(
        f"nim 24^3 Grundy: search {t_search:.3f}s, formula {t_formula:.4f}s, "
        f"ratio {t_search / t_formula:.0f}x"
    )
    sub = game("subtraction", S={1, 2, 3})
    t_chain = _time(lambda: Solver(sub).grundy((200_000,), "search"))
    print(
        f"subtraction{{1,2,3}} heap 200000 by search: {t_chain:.3f}s "
        f"({t_chain / 200_000 * 1e6:.2f} µs per position)"
    )
    w = game("wythoff")
    s = Solver(w)
    t_w = _time(lambda: [s.grundy((x, y), "search") for x in range(128) for y in range(128)])
    print(
        f"wythoff 128x128 Grundy by generic search: {t_w:.3f}s "
        f"({t_w / 128**2 * 1e6:.1f} µs per cell)"
    )


if __name__ == "__main__":
    main()
