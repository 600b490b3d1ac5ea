"""``nimlab reproduce --no-store`` on 1 worker and on 2 workers, in one run (issue 22).

Run: ``python benchmarks/bench_reproduce.py [--repeats N] [--only IDS] [--first 2]``.

Each run is a fresh child process (as the command line: imports, kernels loaded from the
disk cache) that calls ``nimlab.reproduce(workers=W, store=False)``; the runs alternate
(1 worker, 2 workers, ...; ``--first 2`` starts with 2). Printed per run: wall and CPU
seconds (the child and its worker processes, ``getrusage``), the load average before and
after, the serial part (from the child's start to the first result's start, and the
tail: the time at the end with fewer results running than workers), and the five longest
units (results, or the instances of a result checked in parts) with their wall and CPU
seconds and where they ran. The summary: the speed-up
(1-worker wall / 2-worker wall, best of each), the CPU ratio (2 / 1) and the speed-up
the CPU times give on 2 free cores (1-worker CPU over the 2-worker run's CPU / 2, when
the 2-worker run keeps both cores busy).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

_CHILD = r"""
import json, os, sys, time
t_start = time.time()
import nimlab
from nimlab.theory import reproduce as rep

workers, log, only = int(sys.argv[1]), sys.argv[2], sys.argv[3]

def timed(plain, part):
    def run(t, *args, **kw):
        c0, t0 = time.process_time(), time.time()
        try:
            return plain(t, *args, **kw)
        finally:
            name = f"{t.id} #{args[1]}" if part else t.id
            with open(log, "a") as f:
                f.write(json.dumps({"id": name, "pid": os.getpid(), "start": t0, "part": part,
                                    "end": time.time(), "cpu": time.process_time() - c0}) + "\n")
    return run

# each result, and each instance of a result checked in parts, timed where it runs (a
# worker process; a result checked in parts is judged in the parent from its parts)
rep.reproduce_result = timed(rep.reproduce_result, False)
rep._check_part = timed(rep._check_part, True)
rows = nimlab.reproduce(workers=workers, store=False, ids=only.split(",") if only else None)
bad = [r.theorem for r in rows if not r.matches]
print(json.dumps({"start": t_start, "end": time.time(), "bad": bad}))
"""


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _run(workers: int, only: str) -> dict[str, Any]:
    """One ``reproduce`` in a child process: wall, CPU, the results' timeline."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "results.jsonl")
        wrapper = (
            "import json, resource, subprocess, sys, time\n"
            "t0 = time.perf_counter()\n"
            "out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True)\n"
            "wall = time.perf_counter() - t0\n"
            "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(json.dumps({'out': out.stdout, 'wall': wall,"
            " 'cpu': r.ru_utime + r.ru_stime}))\n"
        )
        load = _load()
        res = subprocess.run(
            [sys.executable, "-c", wrapper, sys.executable, "-c", _CHILD, str(workers), log, only],
            check=True,
            capture_output=True,
            text=True,
        )
        d = json.loads(res.stdout)
        child = json.loads(d["out"].strip().splitlines()[-1])
        with open(log, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f]
    split = {r["id"].split(" #")[0] for r in rows if r["part"]}
    rows = [r for r in rows if r["part"] or r["id"] not in split]
    rows.sort(key=lambda r: r["start"])
    first = rows[0]["start"] - child["start"] if rows else 0.0
    # the tail: from the last moment every worker had a result to the last result's end
    events = sorted([(r["start"], 1) for r in rows] + [(r["end"], -1) for r in rows])
    running, full_until = 0, rows[0]["start"] if rows else 0.0
    for t, step in events:
        if running >= workers > running + step:
            full_until = t
        running += step
    last = max((r["end"] for r in rows), default=child["end"])
    return {
        "workers": workers,
        "wall": d["wall"],
        "cpu": d["cpu"],
        "first": first,
        "tail": last - full_until if workers > 1 else 0.0,
        "end": child["end"] - last,
        "rows": rows,
        "bad": child["bad"],
        "load": (load, _load()),
    }


def _show(r: dict[str, Any]) -> None:
    pids = sorted({x["pid"] for x in r["rows"]})
    longest = sorted(r["rows"], key=lambda x: x["start"] - x["end"])[:5]
    base = min((x["start"] for x in r["rows"]), default=0.0)
    top = ", ".join(
        f"{x['id']} {x['end'] - x['start']:.1f} s wall / {x['cpu']:.1f} s CPU "
        f"(process {pids.index(x['pid']) + 1}, from {x['start'] - base:.1f} s)"
        for x in longest
    )
    print(
        f"  {r['workers']} worker(s): {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU; before "
        f"the first result {r['first']:.2f} s, tail with a worker idle {r['tail']:.1f} s, "
        f"after the last result {r['end']:.2f} s; load {r['load'][0]} -> {r['load'][1]}"
        + (f"; NOT AS RECORDED: {r['bad']}" if r["bad"] else ""),
        flush=True,
    )
    print(f"    longest: {top}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated result ids")
    ap.add_argument("--first", type=int, default=1, choices=(1, 2))
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average {_load()}", flush=True)
    best: dict[int, dict[str, Any]] = {}
    order = (1, 2) if args.first == 1 else (2, 1)
    for _ in range(args.repeats):
        for w in order:
            r = _run(w, args.only)
            _show(r)
            if w not in best or r["wall"] < best[w]["wall"]:
                best[w] = r
    one, two = best[1], best[2]
    print(
        f"reproduce --no-store: 1 worker {one['wall']:.1f} s wall / {one['cpu']:.1f} s CPU; "
        f"2 workers {two['wall']:.1f} s wall / {two['cpu']:.1f} s CPU; speed-up "
        f"{one['wall'] / two['wall']:.2f}x (best of {args.repeats}), CPU ratio "
        f"{two['cpu'] / one['cpu']:.2f}, from CPU times on 2 free cores "
        f"{2 * one['cpu'] / two['cpu']:.2f}x; serial part of the 2-worker run "
        f"{two['first'] + two['end']:.1f} s before the first and after the last result "
        f"({100 * (two['first'] + two['end']) / one['wall']:.1f}% of the 1-worker wall), "
        f"tail with a worker idle {two['tail']:.1f} s; load {_load()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
