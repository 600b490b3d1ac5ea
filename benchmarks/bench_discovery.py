"""Discovery: time nimlab.conjecture on the papers' results, with their closed forms unused.

Each row tabulates the game, searches statements and checks the best ones deeper; the
proposed statement is then verified against the registered result's own box. Run:

    python benchmarks/bench_discovery.py

The figures go to docs/tutorials/discovery.md (a table per result) and PERFORMANCE.md.
"""

from __future__ import annotations

import time

import nimlab

CASES = [
    ("S19-T1", "nim", {"heaps": 3}),
    ("S19-T8", "lim", {}),
    ("S19-T11", "delete-nim", {}),
    ("Sh-T1", "single-delete", {"heaps": 2, "kind": "outcome", "below": 40}),
    ("Sh-T2", "abo-delete", {"heaps": 3, "kind": "outcome", "below": 30}),
    ("Sh-T3", "single-delete", {"heaps": 3, "kind": "outcome", "below": 20}),
    ("S18-T7", "wythoff", {"kind": "outcome", "below": 64}),
    ("S18-T8", ("ryuo", {"p": 3}), {}),
    ("S18-T9", ("restricted-ryuo", {"p": 3, "q": 2}), {}),
    ("subtraction", ("subtraction", {"S": {1, 2, 3}}), {}),
]


def main() -> None:
    """Print one line per result: time, the best statement and its deeper check."""
    print(f"{'result':<12} {'seconds':>8}  statement (deeper check)")
    for rid, game, kwargs in CASES:
        g = nimlab.game(game[0], **game[1]) if isinstance(game, tuple) else game
        t0 = time.perf_counter()
        found = nimlab.conjecture(g, time_budget=120, **kwargs)
        dt = time.perf_counter() - t0
        best = found.best
        if best is None:
            print(f"{rid:<12} {dt:8.1f}  nothing found")
            continue
        check = best.verified
        how = "not checked" if check is None else f"{check['positions']:,} positions ok"
        print(f"{rid:<12} {dt:8.1f}  {best.statement} ({how})")


if __name__ == "__main__":
    main()
