"""Compiled claims: ``nimlab verify Sh-T6* --bound N`` against the C checker, side by side.

Run: ``python benchmarks/bench_verify_claims.py [N] [BIG]`` (default 128 and 192). Compiles
``reference_c/single_delete4_check.c`` with ``gcc -O2`` into a temporary directory and runs
it with ``FIX5A=1`` (it tabulates every sorted 4-heap Single-delete outcome below N and
checks the corrected criterion Sh-T6*); then, each in a new process:

- ``nimlab verify Sh-T6* --bound N --no-store --workers 1`` with an empty numba/nimlab cache
  directory (compile included), then again with the cache written (what a user sees);
- the check's own CPU inside a process (imports and numba's start-up left out);
- 1 worker against 2 workers at bound BIG (wall, total CPU of the process and its
  workers, and the part of the 1-worker run before the first chunk starts);
- the load average, since on a shared machine only figures measured together mean much.

Figures are recorded in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent / "reference_c"

_IN_PROCESS = """
import time, resource, sys
t0 = time.process_time()
import nimlab
from nimlab.theory import registry
t1 = time.process_time()
r = nimlab.check_theorem("Sh-T6*", bound=int(sys.argv[1]), workers=int(sys.argv[2]), store=False)
t2 = time.process_time()
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
assert r.ok, r
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {kids.ru_utime + kids.ru_stime:.3f} {r.positions_checked}")
"""


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + sys of the process and its children), stdout."""
    before = os.times()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    if out.returncode not in (0, 1):
        raise SystemExit(f"{cmd} failed: {out.stderr[-400:]}")
    return wall, cpu, out.stdout


def main() -> None:
    bound = int(sys.argv[1]) if len(sys.argv) > 1 else 128
    big = int(sys.argv[2]) if len(sys.argv) > 2 else 192
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        c_cpu = None
        if shutil.which("gcc"):
            exe = str(Path(tmp) / "sd4")
            src = HERE / "single_delete4_check.c"
            subprocess.run(["gcc", "-O2", "-o", exe, str(src)], check=True)
            c_wall, c_cpu, out = _run([exe, str(bound)], {**env, "FIX5A": "1"})
            m = re.search(r"sorted_positions=(\d+) P=(\d+) disagreements=(\d+)", out)
            print(
                f"C single_delete4_check {bound} (FIX5A=1): {c_wall:.2f} s wall, "
                f"{c_cpu:.2f} s CPU; {m.group(0) if m else out.strip()[-80:]}"
            )
        cache = Path(tmp) / "cache"
        env_c = {**env, "NIMLAB_CACHE_DIR": str(cache), "NUMBA_CACHE_DIR": str(cache / "numba")}
        cli = [sys.executable, "-m", "nimlab", "verify", "Sh-T6*", "--bound", str(bound),
               "--no-store", "--workers", "1"]  # fmt: skip
        for label in ("empty cache (compiles)", "cache written"):
            wall, cpu, _ = _run(cli, env_c)
            ratio = f", {cpu / c_cpu:.1f}x C" if c_cpu else ""
            print(
                f"nimlab verify Sh-T6* --bound {bound}, {label}: {wall:.2f} s wall, "
                f"{cpu:.2f} s CPU{ratio}"
            )
        probe = [sys.executable, "-c", _IN_PROCESS]
        _, _, out = _run([*probe, str(bound), "1"], env_c)
        imp, chk, _kids, n = out.split()
        ratio = f" ({float(chk) / c_cpu:.2f}x C)" if c_cpu else ""
        print(
            f"inside the process: imports {float(imp):.2f} s CPU, check {float(chk):.2f} s "
            f"CPU{ratio} for {int(n):,} positions"
        )
        _run([*probe, str(big), "1"], env_c)  # any compile for the big bound out of the way
        walls = {}
        for workers in (1, 2):
            wall, cpu, out = _run([*probe, str(big), str(workers)], env_c)
            walls[workers] = (wall, cpu)
            print(
                f"Sh-T6* --bound {big}, {workers} worker(s): {wall:.2f} s wall, "
                f"{cpu:.2f} s CPU (process and workers), {int(out.split()[3]):,} positions"
            )
        (w1, c1), (w2, c2) = walls[1], walls[2]
        print(f"2 workers vs 1: {w1 / w2:.2f}x faster wall, CPU {c2 / c1:.2f}x of 1 worker")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
