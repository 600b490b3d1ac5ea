"""The compiled generic engine against C programs, side by side in one run.

Run: ``python benchmarks/bench_engine_generic.py``. Compiles the C references of
``benchmarks/reference_c/`` with ``gcc -O2`` into a temporary directory, then measures:

- Single-delete Nim outcome tables, 4 heaps < 64 and 5 heaps < 32, against
  ``single_delete_table.c`` (same positions and P-positions; target <= 3x C);
- the 256 x 256 Grundy table of the user game ``pow2-both`` (README "Your own game")
  against ``pow2_both_table.c``, a C program written for that game (target <= 5x C);
- the start of ``nimlab table my_games.py:pow2-both --size 256`` with an empty disk cache
  of compiled user games, then warm;
- 3,876 calls of ``nimlab.outcome(..., method="search")`` on 4-heap Single-delete positions
  below 17 (sharing work through the search cache), against one table of the same search
  and against calls that share nothing (a sample).

Times are CPU seconds of this process (the C programs print their own CPU time), after
a warm-up that compiles the numba kernels; the first-call compile time is printed too.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import nimlab
from nimlab.engine.compiled import CompiledSolver

HERE = Path(__file__).resolve().parent / "reference_c"
#: The README's own game, ``pow2-both``, in the file a user would write.
MY_GAMES = Path(__file__).resolve().parents[1] / "examples" / "my_games.py"
pow2_both = nimlab.game(f"{MY_GAMES}:pow2-both")


def build(tmp: str, name: str) -> str | None:
    src = HERE / f"{name}.c"
    if shutil.which("gcc") is None or not src.exists():
        return None
    exe = str(Path(tmp) / name)
    subprocess.run(["gcc", "-O2", "-o", exe, str(src)], check=True)
    return exe


def run(exe: str, *args: int) -> str:
    return subprocess.run([exe, *map(str, args)], check=True, capture_output=True, text=True).stdout


def cpu(fn, repeat: int = 3):  # type: ignore[no-untyped-def]
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def single_delete(exe: str | None) -> None:
    g = nimlab.game("single-delete")
    t0 = time.process_time()
    CompiledSolver(g, 4, "outcome").solve_below(8)
    print(f"compile (first call, 4 heaps): {time.process_time() - t0:.2f} s")
    for n, size in ((4, 64), (5, 32)):
        CompiledSolver(g, n, "outcome").solve_below(4)  # compile for n heaps

        def solve(n: int = n, size: int = size) -> CompiledSolver:
            s = CompiledSolver(g, n, "outcome", max_bytes=2**31)
            s.solve_below(size)
            return s

        t_solve, s = cpu(solve)
        positions = int((s.state >= 0).sum())
        p_count = int((s.state == 0).sum())
        t_table, _ = cpu(lambda n=n, size=size: nimlab.table(g, (size,) * n, kind="outcome"), 1)
        line = (
            f"single-delete n={n} N={size}: nimlab positions={positions:,} P={p_count:,} "
            f"solve {t_solve:.3f} s, full box table (incl. expansion to {size**n:,} cells) "
            f"{t_table:.3f} s"
        )
        if exe:
            out = run(exe, n, size)
            m = re.search(r"positions=(\d+) P=(\d+) moves=(\d+) time=([\d.]+)s", out)
            assert m, out
            c_pos, c_p, c_t = int(m.group(1)), int(m.group(2)), float(m.group(4))
            assert (c_pos, c_p) == (positions, p_count), (out, positions, p_count)
            line += f"; C {c_t:.3f} s (agree); ratio solve/C {t_solve / c_t:.2f}"
        print(line)


def pow2(exe: str | None) -> None:
    t0 = time.process_time()
    nimlab.table(pow2_both, 16, engine="compiled")
    print(f"pow2-both compile (first call): {time.process_time() - t0:.2f} s")

    def fresh() -> np.ndarray:  # type: ignore[type-arg]
        s = CompiledSolver(pow2_both, 2, "grundy")
        return s.table((256, 256))

    t_nl, tab = cpu(fresh, 5)
    line = f"pow2-both 256x256 Grundy table: nimlab {t_nl:.4f} s, P={int((tab == 0).sum())}"
    if exe:
        out = run(exe, 256)
        m = re.search(r"P=(\d+) options=\d+ G\(3,5\)=(\d+) G\(100,37\)=(\d+) time=([\d.]+)s", out)
        assert m, out
        assert int(m.group(1)) == int((tab == 0).sum())
        assert (int(m.group(2)), int(m.group(3))) == (int(tab[3, 5]), int(tab[100, 37]))
        c_t = float(m.group(4))
        line += f"; C {c_t:.4f} s (agree); ratio {t_nl / c_t:.2f}"
    print(line)


def repeated_calls() -> None:
    from nimlab.engine import compiled

    compiled._SESSION = compiled.Session()  # nothing solved yet
    g = nimlab.game("single-delete")
    ps = list(itertools.combinations_with_replacement(range(1, 17), 4))
    nimlab.search_cache().clear()
    t0 = time.process_time()
    res = [nimlab.outcome(g, p, method="search") for p in ps]
    dt = time.process_time() - t0
    t0 = time.process_time()
    tab = nimlab.table(g, (17,) * 4, kind="outcome", engine="generic")
    t_table = time.process_time() - t0
    assert all(bool(tab[p]) == (str(r) == "P") for p, r in zip(ps, res, strict=True))
    # without sharing (the search cache emptied before each call), on every 40th position
    sample = ps[::40]
    t0 = time.process_time()
    for p in sample:
        nimlab.search_cache().clear()
        nimlab.outcome(g, p, method="search")
    per_call = (time.process_time() - t0) / len(sample)
    print(
        f"{len(ps):,} calls of outcome(single-delete, 4 heaps < 17, method='search'): "
        f"{dt:.3f} s, {sum(str(r) == 'P' for r in res)} P (agree with the table); one table "
        f"17^4 by the same search (engine='generic') {t_table:.3f} s, ratio {dt / t_table:.2f}; "
        f"without sharing {per_call * 1000:.1f} ms per call (sample of {len(sample)}), "
        f"about {per_call * len(ps):.0f} s for the loop"
    )


def cold_warm() -> None:
    """``nimlab table my_games.py:pow2-both --size 256``: empty disk cache, then warm."""
    import os
    import resource
    import sys

    exe = str(Path(sys.executable).with_name("nimlab"))
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(MY_GAMES, Path(tmp) / "my_games.py")
        env = {**os.environ, "NIMLAB_CACHE_DIR": str(Path(tmp) / "cache")}
        outs = []
        for label in ("cold (empty cache of user games)", "warm", "warm"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            argv = [exe, "table", "my_games.py:pow2-both", "--size", "256", "--csv", "t.csv"]
            subprocess.run(argv, cwd=tmp, env=env, check=True, capture_output=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            outs.append((Path(tmp) / "t.csv").read_text())
            print(
                f"nimlab table my_games.py:pow2-both --size 256, {label}: {wall:.2f} s wall, {cpu_s:.2f} s CPU"
            )
        assert outs[0] == outs[1] == outs[2]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        single_delete(build(tmp, "single_delete_table"))
        pow2(build(tmp, "pow2_both_table"))
    repeated_calls()
    cold_warm()


if __name__ == "__main__":
    main()
