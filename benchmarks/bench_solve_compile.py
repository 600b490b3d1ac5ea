"""What a solve kernel of the compiled engine costs to compile, and how fast it runs (issue 21).

Run: ``python benchmarks/bench_solve_compile.py [--compile-only | --speed-only] [--repeat K]``.

1. *Compile*: in a new process each round, with an empty cache directory of compiled
   kernels (``NIMLAB_CACHE_DIR``, a new temporary folder: every move model's kernel is
   compiled), the first value of each case below, one after the other in that process:
   its CPU seconds and the CPU of the numba compilations it started (``numba:compile``
   events, top level; loading machine code from numba's disk cache is none). The
   package's own helpers are in numba's cache next to their modules: delete
   ``src/nimlab/**/__pycache__/*.nb[ic]`` first to see a first run on a machine.
2. *Speed*: seven tables of the serial compiled engine (``parallel=False``), each after
   a warm-up that compiles its kernel, best of K CPU times, and the P-positions counted
   (the same in every version).

The two parts run in separate processes; print the 1-minute load average beside them
(the machine may be shared: CPU times are the steadier figures). To compare two versions,
alternate runs of each with ``PYTHONPATH`` pointing at one ``src`` then the other.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MY_GAMES = ROOT / "examples" / "my_games.py"

#: First values, one new move model or number of heaps each: ``name[:param=value]/heaps``.
COMPILE_CASES = ["single-delete/3", "nim/3", "welter/3", "single-delete/4", "wythoff/2"]

_COMPILE = """
import sys, time
from numba.core import event
depth, tops = [0], []
class Listener(event.Listener):
    def on_start(self, ev):
        depth[0] += 1
        if depth[0] == 1:
            tops.append(time.thread_time())
    def on_end(self, ev):
        depth[0] -= 1
        if depth[0] == 0:
            tops[-1] = time.thread_time() - tops[-1]
event.register("numba:compile", Listener())
import nimlab
from nimlab.engine import compiled
for spec in sys.argv[1:]:
    name, heaps = spec.split("/")
    kw = {}
    if "=" in name:
        name, _, param = name.rpartition(":")
        kw = dict([param.split("=")])
    tops.clear()
    t0 = time.process_time()
    compiled.compiled_value(nimlab.game(name, **kw), (3,) * int(heaps), "grundy")
    cpu = time.process_time() - t0
    print(f"  {spec:20s} first value {cpu:5.2f} s CPU, compiling {sum(tops):5.2f} s")
"""

_SPEED = """
import sys, time
import nimlab
from nimlab.engine.compiled import CompiledSolver
cases = [
    ("single-delete", {}, 4, 64, "outcome"),
    ("single-delete", {}, 5, 32, "outcome"),
    ("nim", {}, 3, 64, "grundy"),
    ("wythoff", {}, 2, 600, "grundy"),
    ("welter", {}, 3, 48, "grundy"),
    ("moore", {"k": 2}, 4, 24, "grundy"),
    (sys.argv[2] + ":pow2-both", {}, 2, 256, "grundy"),
]
total = 0.0
for name, kw, heaps, side, kind in cases:
    g = nimlab.game(name, **kw)
    CompiledSolver(g, heaps, kind, parallel=False).solve_below(8)  # compiles
    best = float("inf")
    for _ in range(int(sys.argv[1])):
        s = CompiledSolver(g, heaps, kind, parallel=False)
        t0 = time.process_time()
        s.solve_below(side)
        best = min(best, time.process_time() - t0)
    total += best
    p = int((s.state == 0).sum())
    print(f"  {g.label():22s} {heaps} heaps < {side:3d} {kind:8s} {best:.4f} s CPU  P={p}")
print(f"  all seven {total:.4f} s CPU")
"""


def _load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument("--repeat", type=int, default=5, help="best of K (speed)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.speed_only:
            print(f"compile, a new process and an empty cache of kernels ({_load()})")
            env = {**os.environ, "NIMLAB_CACHE_DIR": str(Path(tmp) / "compile")}
            subprocess.run([sys.executable, "-c", _COMPILE, *COMPILE_CASES], env=env, check=True)
        if not args.compile_only:
            print(f"speed, serial engine, best of {args.repeat} ({_load()})")
            env = {**os.environ, "NIMLAB_CACHE_DIR": str(Path(tmp) / "speed")}
            argv = [sys.executable, "-c", _SPEED, str(args.repeat), str(MY_GAMES)]
            subprocess.run(argv, env=env, check=True)
    print(_load())


if __name__ == "__main__":
    main()
