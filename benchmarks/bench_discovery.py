"""Discovery: time nimlab.conjecture on the papers' results, with their closed forms unused.

Each row tabulates the game, searches statements and checks the best ones deeper (the
whole ``nimlab.conjecture`` call, timed), then checks the proposed statement against the
registered result on the registered positions at the registered bound (timed apart).
The cases are those of ``tests/discovery_cases.py``. Run:

    nice python benchmarks/bench_discovery.py [RESULT_ID ...]

The figures go to docs/tutorials/discovery.md (a table per result) and PERFORMANCE.md.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nimlab

TESTS = Path(__file__).resolve().parent.parent / "tests"


def main(selected: list[str]) -> None:
    """Print one line per result: search time, the statement, the deeper check, and the
    check against the registered result."""
    sys.path.insert(0, str(TESTS))
    from discovery_cases import CASES, against_registered, make_game

    print(f"{'result':<10} {'search s':>8} {'registered':>26}  statement (deeper check)")
    for rid, game, kwargs, claim in CASES:
        if selected and rid not in selected:
            continue
        g = make_game(game)
        t0 = time.perf_counter()
        found = nimlab.conjecture(g, time_budget=120, **kwargs)
        dt = time.perf_counter() - t0
        exact = [p for p in found.proposals if p.exceptions == 0 and p.kind == claim]
        if not exact:
            print(f"{rid:<10} {dt:8.1f}  nothing found")
            continue
        best = exact[0]
        check = best.verified
        how = "not checked" if check is None else f"{check['positions']:,} ok, {check['method']}"
        reg = against_registered(rid, g, best.statement, found.heaps)
        agree = (
            f"{reg['positions']:,} agree, {reg['seconds']:.1f} s"
            if reg["mismatch"] is None
            else f"DIFFER at {reg['mismatch']}"
        )
        print(f"{rid:<10} {dt:8.1f} {agree:>26}  {best.statement} ({how})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
