"""Users' take-and-break games: Kayles as a move function against the catalog's 0.77, and
the compiled engine of positions of several heaps in misère play against the search.

Run: ``nice python benchmarks/bench_takebreak.py [--repeat K] [--terms N]``.

1. Each run is a NEW Python process (what a user waits for): ``nimlab.sequence`` of Kayles
   to ``N`` terms (default 10^5), written as the move function of
   :func:`nimlab.take_and_break` in a file, and of ``octal code=0.77``. The time of the
   call (recognition of the code, then the octal engine) and of the whole process are
   printed, best and median of ``K`` runs. The first user run has an empty cache
   directory (the function is probed to recognise its code, 0.77); later runs read the
   answer from it. Target (issue 25): the user's sequence within 2x of the catalog's.
2. In this process: misère outcomes of Kayles, Dawson's Kayles and Grundy's game at
   positions of three heaps, by the compiled engine of take-and-break games
   (``engine/splits.py``, every multiset of heaps up to the position's total) and by the
   exhaustive search in Python where it finishes within its budget.
Each line ends with the 1-minute load average (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KAYLES = textwrap.dedent(
    '''
    import nimlab


    @nimlab.take_and_break("bench-kayles")
    def kayles(h):
        """Kayles: knock down one pin or two adjacent pins of a row."""
        for t in (1, 2):
            for i in range(h - t + 1):
                yield (i, h - t - i)
    '''
)

RUN = """
import sys, time
t0 = time.perf_counter()
import nimlab
if sys.argv[1] == "user":
    import bench_kayles_user
    g = bench_kayles_user.kayles
else:
    g = nimlab.game("octal", code="0.77")
t1 = time.perf_counter()
if sys.argv[3] == "loaded":  # numba and the octal engine loaded first, by another code
    nimlab.sequence(nimlab.game("octal", code="0.6"), 1000)
    t1 = time.perf_counter()
v = nimlab.sequence(g, int(sys.argv[2]), max_terms=int(sys.argv[2]))
t2 = time.perf_counter()
print(f"@@ {t1 - t0:.3f} {t2 - t1:.3f} {int(v[-1])} {g.sequence_kernel()}")
"""


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _fresh(
    which: str, terms: int, env: dict[str, str], loaded: bool = False
) -> tuple[float, float, str]:
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", RUN, which, str(terms), "loaded" if loaded else "cold"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall = time.perf_counter() - t
    line = next(x for x in out.splitlines() if x.startswith("@@"))
    _, _, call, last, kernel = line.split(" ", 4)
    return float(call), wall, f"{last} {kernel}"


def sequences(repeat: int, terms: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "bench_kayles_user.py").write_text(KAYLES)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), tmp, env.get("PYTHONPATH", "")])
        env["NIMLAB_CACHE_DIR"] = str(Path(tmp) / "cache")
        _fresh("catalog", 1000, env)  # numba's cache of the octal engine is warm
        cold = _fresh("user", terms, env)
        print(
            f"user Kayles, first process (cache empty: probed): call {cold[0]:.3f} s, "
            f"process {cold[1]:.3f} s  [{_load()}]"
        )
        for loaded in (False, True):
            what = "engine loaded first" if loaded else "first call of the process"
            rows: dict[str, list[tuple[float, float, str]]] = {"catalog": [], "user": []}
            for _ in range(repeat):
                for which in rows:
                    rows[which].append(_fresh(which, terms, env, loaded))
            best = {}
            for which, runs in rows.items():
                calls = [r[0] for r in runs]
                walls = [r[1] for r in runs]
                best[which] = min(calls)
                print(
                    f"{which:8} sequence to {terms:,} ({what}): call best {min(calls):.3f} s "
                    f"median {statistics.median(calls):.3f} s; process best {min(walls):.3f} s "
                    f"(last value, kernel: {runs[0][2]})  [{_load()}]"
                )
            print(f"user / catalog (best calls, {what}): {best['user'] / best['catalog']:.2f}x")


def misere() -> None:
    import nimlab
    from nimlab.engine.search import Solver
    from nimlab.engine.splits import SplitSolver

    cases = [
        ("0.77", (10, 12, 14), True),
        ("0.77", (20, 20, 21), False),
        ("0.07", (12, 14, 16), True),
        ("0.07", (20, 20, 22), False),
        ("4!.0", (12, 13, 14), True),
        ("4!.0", (20, 21, 22), False),
    ]
    for code, pos, search in cases:
        g = nimlab.game("octal", code=code)
        t = time.perf_counter()
        v = SplitSolver(g, "misere").value(pos)
        engine = time.perf_counter() - t
        text = f"misère {code} {pos}: {'PN'[v]} engine {engine:.2f} s"
        if search:
            t = time.perf_counter()
            p = Solver(g).is_p(pos, True)
            assert p == (v == 0)
            text += f", search {time.perf_counter() - t:.2f} s"
        print(f"{text}  [{_load()}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--terms", type=int, default=100_000)
    args = ap.parse_args()
    sequences(args.repeat, args.terms)
    misere()


if __name__ == "__main__":
    main()
