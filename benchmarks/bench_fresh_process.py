"""What a user waits for: each command in a NEW process, after ``nimlab warm``.

Run: ``python benchmarks/bench_fresh_process.py [--cache-dir DIR] [--repeat K]``.

1. ``nimlab warm`` (the catalog's kernels) and ``nimlab warm examples/my_games.py:pow2-both``
   compile what is not on disk yet (the compiled engine's kernels go to ``--cache-dir``,
   default: a new temporary directory, so the run starts from nothing, as on a fresh
   machine; numba's cache of the package's own kernels is next to its modules).
2. Each command runs in a new Python process, ``K`` times (best wall time kept), and once
   more with numba's compile events counted (``numba:compile``; loading machine code from
   the disk cache is not a compilation): its numba-compile seconds, target 0.
3. The C references (``../shared/reference`` where present, else
   ``benchmarks/reference_c``) are compiled with ``gcc -O2`` into a temporary directory
   and run in the same run, as a new process each (wall time of the whole process).
4. Each line ends with the 1-minute load average when it was measured (the machine may
   be shared: then the CPU times are the steadier figures).

Targets (issue 20): ``nimlab tour`` <= 3 s; ``nimlab table single-delete --heaps 4 --size
64`` <= C + 1 s; ``nimlab grundy wythoff 300 500`` <= 1 s; a user game's 512 x 512 table
from its file <= C + 1 s. ``nimlab grundy nim 3 4 5`` (no numba at all) is shown for scale.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCES = [ROOT.parent / "shared" / "reference", ROOT / "benchmarks" / "reference_c"]
MY_GAMES = ROOT / "examples" / "my_games.py"

#: Runs the CLI in this process and prints its numba-compile count and seconds last.
_COUNTED = """
import sys
from nimlab.engine._compilewatch import CompileWatch
from nimlab.cli import main
with CompileWatch() as w:
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(f"@@compiles {len(w.compiles)} {w.seconds:.3f}", file=sys.stderr)
"""

#: Runs the CLI twice in this process, the work shared between calls dropped in between,
#: and prints the second call's wall time last (the kernels are loaded: "warm in-process").
_TWICE = """
import contextlib, io, sys, time
import nimlab
from nimlab.cli import main
from nimlab.engine import compiled


def once():
    compiled._SESSION = compiled.Session()  # nothing solved yet
    nimlab.search_cache().clear()
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(sys.argv[1:])
        except SystemExit:
            pass


once()
t0 = time.perf_counter()
once()
print(f"@@warm {time.perf_counter() - t0:.3f}", file=sys.stderr)
"""

#: (label, nimlab arguments, C program and its arguments or None, target kind)
CASES: list[tuple[str, list[str], tuple[str, list[str]] | None, str]] = [
    ("nimlab grundy nim 3 4 5", ["grundy", "nim", "3", "4", "5"], None, ""),
    ("nimlab tour", ["tour"], None, "<= 3 s"),
    (
        "nimlab table single-delete --heaps 4 --size 64",
        ["table", "single-delete", "--heaps", "4", "--size", "64"],
        ("single_delete_table", ["4", "64"]),
        "<= C + 1 s",
    ),
    (
        "nimlab grundy wythoff 300 500",
        ["grundy", "wythoff", "300", "500"],
        ("wythoff_table", ["512"]),
        "<= 1 s",
    ),
    (
        "nimlab table my_games.py:pow2-both --size 512",
        ["table", f"{MY_GAMES}:pow2-both", "--size", "512"],
        ("pow2_both_table", ["512"]),
        "<= C + 1 s",
    ),
    (
        "nimlab sequence subtraction -p S=1,3,4 -n 14",
        ["sequence", "subtraction", "-p", "S=1,3,4", "-n", "14"],
        None,
        "",
    ),
]


def wall(argv: list[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """Best wall time of *repeat* runs, and the least CPU time (user + system) of the
    process: on a loaded machine the CPU time is the steadier figure."""
    best = cpu = float("inf")
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return best, cpu


def compile_seconds(args: list[str], env: dict[str, str]) -> tuple[int, float]:
    r = subprocess.run(
        [sys.executable, "-c", _COUNTED, *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    line = [x for x in r.stderr.splitlines() if x.startswith("@@compiles")][-1]
    _, n, s = line.split()
    return int(n), float(s)


def warm_in_process(args: list[str], env: dict[str, str]) -> float:
    r = subprocess.run(
        [sys.executable, "-c", _TWICE, *args], env=env, check=True, capture_output=True, text=True
    )
    line = [x for x in r.stderr.splitlines() if x.startswith("@@warm")][-1]
    return float(line.split()[1])


def build(tmp: str, name: str) -> str | None:
    if shutil.which("gcc") is None:
        return None
    for d in REFERENCES:
        src = d / f"{name}.c"
        if src.exists():
            exe = str(Path(tmp) / name)
            subprocess.run(["gcc", "-O2", "-o", exe, str(src)], check=True)
            return exe
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache-dir", help="NIMLAB_CACHE_DIR (default: a new temporary one)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per command (best kept)")
    ap.add_argument(
        "--quick-warm",
        action="store_true",
        help="warm only the games measured here (the same kernels these commands load; "
        "the whole `nimlab warm` compiles about 30 more)",
    )
    opts = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="nimlab-bench-fresh-")
    try:
        env = {**os.environ, "NIMLAB_CACHE_DIR": opts.cache_dir or str(Path(tmp) / "cache")}
        env.pop("NIMLAB_PROGRESS_DELAY", None)
        nimlab = [sys.executable, "-m", "nimlab"]
        quick = [
            ["wythoff"],
            ["single-delete", "--heaps", "4"],
            ["subtraction", "-p", "S=1,3,4"],
        ]
        for extra in [*(quick if opts.quick_warm else [[]]), [f"{MY_GAMES}:pow2-both"]]:
            t0 = time.perf_counter()
            subprocess.run([*nimlab, "warm", *extra], env=env, check=True)
            print(f"nimlab warm {' '.join(extra)}: {time.perf_counter() - t0:.1f} s")
        print()
        print(
            f"{'command (new process each)':48s} {'wall':>7s} {'CPU':>7s} {'compile':>10s} "
            f"{'in-process':>10s}  {'C (new process): wall, CPU':>28s}  target  load"
        )
        for label, args, c, target in CASES:
            t, tcpu = wall([*nimlab, *args], env, opts.repeat)
            n, s = compile_seconds(args, env)
            w = warm_in_process(args, env)
            c_text = ""
            if c is not None:
                exe = build(tmp, c[0])
                if exe is not None:
                    tc, ccpu = wall([exe, *c[1]], env, opts.repeat)
                    c_text = f"{tc:.2f} s, {ccpu:.2f} s ({c[0]} {' '.join(c[1])})"
            load = os.getloadavg()[0]  # the machine is shared: the 1-minute load average
            print(
                f"{label:48s} {t:6.2f}s {tcpu:6.2f}s {s:6.2f}s ({n}) {w:9.2f}s  "
                f"{c_text:>28s}  {target}  {load:.1f}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
