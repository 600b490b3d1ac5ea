"""Wythoff Grundy tables: the numba kernel against ``wythoff_table.c``, same process.

Run: ``python benchmarks/bench_engine_wythoff.py [--big]``. Compiles the C reference
with ``gcc -O2 -march=native`` into a temporary directory (when gcc is available), runs
both on N = 4096 (and N = 8192 with ``--big``), checks that the tables agree on the C
program's printed cells, and prints each time and the ratio nimlab / C. Target: within
1.5x of C at 4096 (one core), 8192 completing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nimlab import table

REF = Path(__file__).resolve().parent / "reference_c" / "wythoff_table.c"


def compile_c(tmp: str) -> str | None:
    if shutil.which("gcc") is None or not REF.exists():
        return None
    exe = str(Path(tmp) / "wythoff_table")
    subprocess.run(["gcc", "-O2", "-march=native", "-o", exe, str(REF)], check=True)
    return exe


def run_c(exe: str, n: int) -> tuple[float, int, int]:
    out = subprocess.run([exe, str(n)], check=True, capture_output=True, text=True).stdout
    m = re.search(r"time=([\d.]+)s .* G\(5,3\)=(\d+) G\(10,7\)=(\d+)", out)
    assert m, out
    return float(m.group(1)), int(m.group(2)), int(m.group(3))


def run_nimlab(n: int, repeat: int = 3) -> tuple[float, np.ndarray]:  # type: ignore[type-arg]
    best = float("inf")
    t = np.zeros(0)
    for _ in range(repeat):
        t0 = time.perf_counter()
        t = table("wythoff", n)
        best = min(best, time.perf_counter() - t0)
    return best, t


def main() -> None:
    table("wythoff", 64)  # compile (or load the numba cache) outside the timing
    sizes = [4096] + ([8192] if "--big" in sys.argv else [])
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_c(tmp)
        for n in sizes:
            reps = 3 if n <= 4096 else 1
            t_nl = t_c = float("inf")
            tab = np.zeros(0)
            for _ in range(reps):  # interleaved, best of each: the machine is shared
                t, tab = run_nimlab(n, 1)
                t_nl = min(t_nl, t)
                if exe is not None:
                    t_c = min(t_c, run_c(exe, n)[0])
            line = f"wythoff {n}x{n}: nimlab {t_nl:.3f}s ({t_nl / n / n * 1e9:.1f} ns/cell)"
            if exe is not None:
                _, g53, g107 = run_c(exe, 64)
                assert (int(tab[5, 3]), int(tab[10, 7])) == (g53, g107)
                line += f", C {t_c:.3f}s, ratio nimlab/C {t_nl / t_c:.2f}"
            else:
                line += " (gcc not found: no C baseline)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
